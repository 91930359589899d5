#!/usr/bin/env python3
"""Run the Taylor-bar class of tests/verification/test_taylor_class.cpp with the CLI and print
cycles, wall time, energy error and final shape per case.

Copper (rho 8930 kg/m^3, E 117 GPa, nu 0.35, yield 400 MPa, Etan 100 MPa) at 150, 227 and 400 m/s
on examples/taylor_bar/taylor_bar_mesh.k (R 3.2 x 32.4 mm); steel (7850 kg/m^3, 150 GPa, 0.34,
390 MPa, 90 MPa) at 150, 300 and 400 m/s on the same mesh mapped back to the shared pydyna
geometry (R 4 x 30 mm). *MAT_PLASTIC_KINEMATIC, stonewall, symmetry planes, 80 us, and LS-DYNA's
defaults for everything else (no *CONTROL_TIMESTEP: TSSFAC 0.9; hourglass type 1, QH 0.1; bulk
viscosity 1.5 / 0.06).
Usage: python3 scripts/taylor_class.py [--parcae BIN] [--work DIR] [--tssfac F] [CASE ...]
"""
import argparse
import math
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))
from parcae_tools.glstat import read_glstat  # noqa: E402
from parcae_tools.vtk import read_pvd, read_vtu_ascii_or_binary  # noqa: E402

MATERIALS = {"copper": ("8.93e-9", "117000.0", "0.35", "400.0", "100.0"),
             "steel": ("7.85e-9", "150000.0", "0.34", "390.0", "90.0")}
CASES = {"copper150": ("copper", 150), "copper227": ("copper", 227), "copper400": ("copper", 400),
         "steel150": ("steel", 150), "steel300": ("steel", 300), "steel400": ("steel", 400)}


def steel_mesh(text):
    """The example mesh mapped back to the shared mesh's geometry (x/0.8, y/1.08, z/0.8)."""
    out, section = [], None
    for line in text.splitlines():
        if line.startswith("*"):
            section = line.split()[0].upper()
        elif section == "*NODE" and not line.startswith("$") and line.strip():
            x, y, z = (float(line[8 + 16 * k:24 + 16 * k]) for k in range(3))
            line = f"{line[:8]}{x / 0.8:16.9g}{y / 1.08:16.9g}{z / 0.8:16.9g}{line[56:]}"
        out.append(line)
    return "\n".join(out) + "\n"


def deck(material, speed, tssfac):
    ro, e, pr, sigy, etan = MATERIALS[material]
    control = "" if tssfac is None else f"*CONTROL_TIMESTEP\n{'':10s}{tssfac:>10}\n"
    return (f"*KEYWORD\n*CONTROL_TERMINATION\n    8.0e-5\n{control}"
            "*DATABASE_GLSTAT\n    1.0e-6\n*DATABASE_BINARY_D3PLOT\n    8.0e-6\n"
            "*PART\nbar\n         1         1         1\n*SECTION_SOLID\n         1         1\n"
            f"*MAT_PLASTIC_KINEMATIC\n{1:10d}{ro:>10}{e:>10}{pr:>10}{sigy:>10}{etan:>10}{'1.0':>10}\n"
            "       0.0       0.0       0.0       0.0\n"
            f"*INITIAL_VELOCITY_GENERATION\n{1:10d}{2:10d}{0.0:10.1f}{0.0:10.1f}"
            f"{-1000.0 * speed:10.1f}{0.0:10.1f}\n"
            "       0.0       0.0       0.0       0.0       0.0       0.0\n"
            "*RIGIDWALL_PLANAR\n         0\n"
            "       0.0       0.0       0.0       0.0       1.0       0.0       0.0\n"
            "*BOUNDARY_SPC_SET\n"
            "         1         0         1         0         0         0         0         0\n"
            "         2         0         0         0         1         0         0         0\n"
            "*INCLUDE\nmesh.k\n*END\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--parcae", default=str(ROOT / "build" / "release" / "bin" / "parcae"))
    ap.add_argument("--work", default=None, help="keep the runs here (default: a temp dir)")
    ap.add_argument("--tssfac", default=None, help="write *CONTROL_TIMESTEP with this TSSFAC")
    ap.add_argument("cases", nargs="*", default=list(CASES))
    args = ap.parse_args()
    work = pathlib.Path(args.work or tempfile.mkdtemp(prefix="taylor_class_"))
    mesh = (ROOT / "examples" / "taylor_bar" / "taylor_bar_mesh.k").read_text()
    print(f"{'case':10s} {'result':9s} {'t_end':>8s} {'cycles':>7s} {'wall':>7s} {'E err':>7s} "
          f"{'max':>7s} {'length':>7s} {'foot':>7s}")
    for name in args.cases:
        material, speed = CASES[name]
        d = work / name
        d.mkdir(parents=True, exist_ok=True)
        (d / "mesh.k").write_text(steel_mesh(mesh) if material == "steel" else mesh)
        (d / "deck.k").write_text(deck(material, speed, args.tssfac))
        t0 = time.perf_counter()
        proc = subprocess.run([args.parcae, "run", str(d / "deck.k"), "-o", str(d / "out"), "--vtk"],
                              capture_output=True, text=True,
                              env={**os.environ, "OMP_NUM_THREADS": "1"})
        wall = time.perf_counter() - t0
        m = re.search(r"(normal|error) termination at cycle (\d+), time (\S+)", proc.stdout)
        if not m:
            print(f"{name:10s} failed to run:\n{proc.stdout[-2000:]}{proc.stderr}")
            continue
        ratio = read_glstat(d / "out" / "glstat")["energy_ratio"]
        pts = read_vtu_ascii_or_binary(read_pvd(d / "out" / "parcae.pvd")[-1][1])["points"]
        length = max(p[1] for p in pts) - min(p[1] for p in pts)
        foot = max(math.hypot(p[0], p[2]) for p in pts)
        print(f"{name:10s} {m.group(1):9s} {float(m.group(3)) * 1e6:6.2f}us {int(m.group(2)):7d} "
              f"{wall:6.2f}s {abs(ratio[-1] - 1) * 100:6.3f}% "
              f"{max(abs(r - 1) for r in ratio) * 100:6.3f}% {length:7.3f} {foot:7.3f}")


if __name__ == "__main__":
    main()
