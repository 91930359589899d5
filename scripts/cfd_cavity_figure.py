#!/usr/bin/env python3
"""The README's cavity figure: parcae's centreline profiles of the lid-driven cavity against
Ghia, Ghia & Shin (1982) for Re = 100, 400 and 1000.

    /usr/bin/python3 scripts/cfd_cavity_figure.py [--runs DIR] [--np N] [-o docs/cfd_cavity_ghia.png]

Runs `parcae cfd cavity --re RE --cells N` (N = 64, 96, 128: the finest grids of the
verification tests) into DIR/re<RE> unless that run is already there, then plots u(y) along
x = 0.5 and v(x) along y = 0.5 with Ghia's table values as markers. Needs matplotlib (Debian
python3-matplotlib) and ../shared/reference.
"""
import argparse
import csv
import os
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PARCAE = os.path.join(ROOT, "build", "release", "bin", "parcae")
REF = os.path.join(ROOT, "..", "shared", "reference")
CASES = [(100, 64), (400, 96), (1000, 128)]


def read(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    return rows[0], [[float(x) for x in r] for r in rows[1:]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", default=os.path.join(ROOT, "build", "cfd_cavity_runs"))
    ap.add_argument("--np", type=int, default=1)
    ap.add_argument("-o", "--output", default=os.path.join(ROOT, "docs", "cfd_cavity_ghia.png"))
    a = ap.parse_args()
    if not os.path.exists(os.path.join(REF, "ghia1982_u_vertical_centerline.csv")):
        sys.exit("../shared/reference is absent: no Ghia tables to plot against")
    fig, (ax_u, ax_v) = plt.subplots(1, 2, figsize=(11, 4.8))
    hu, gu = read(os.path.join(REF, "ghia1982_u_vertical_centerline.csv"))
    hv, gv = read(os.path.join(REF, "ghia1982_v_horizontal_centerline.csv"))
    colours = {100: "tab:blue", 400: "tab:orange", 1000: "tab:green"}
    for re_, n in CASES:
        out = os.path.join(a.runs, f"re{re_}")
        if not os.path.exists(os.path.join(out, "centerline_u.csv")):
            cmd = [PARCAE, "cfd", "cavity", "--re", str(re_), "--cells", str(n), "-o", out]
            if a.np > 1:
                cmd += ["--np", str(a.np)]
            print(" ".join(cmd), flush=True)
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        _, cu = read(os.path.join(out, "centerline_u.csv"))
        _, cv = read(os.path.join(out, "centerline_v.csv"))
        c = colours[re_]
        ax_u.plot([r[1] for r in cu], [r[0] for r in cu], color=c, label=f"parcae Re={re_} ({n}²)")
        iu = hu.index(f"u_Re{re_}")
        ax_u.plot([r[iu] for r in gu], [r[0] for r in gu], "o", mfc="none", color=c,
                  label=f"Ghia et al. Re={re_}")
        ax_v.plot([r[0] for r in cv], [r[1] for r in cv], color=c, label=f"parcae Re={re_} ({n}²)")
        iv = hv.index(f"v_Re{re_}")
        pts = [r for r in gv if not (re_ == 400 and abs(r[0] - 0.9063) < 1e-3)]
        ax_v.plot([r[0] for r in pts], [r[iv] for r in pts], "o", mfc="none", color=c,
                  label=f"Ghia et al. Re={re_}")
    ax_u.set_xlabel("u / U (x = 0.5)")
    ax_u.set_ylabel("y / L")
    ax_v.set_xlabel("x / L")
    ax_v.set_ylabel("v / U (y = 0.5)")
    for ax in (ax_u, ax_v):
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle("Lid-driven cavity: parcae (lines) vs Ghia, Ghia & Shin 1982 (circles)")
    fig.tight_layout()
    fig.savefig(a.output, dpi=110)
    print("wrote", a.output)


if __name__ == "__main__":
    main()
