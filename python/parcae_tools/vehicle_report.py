"""Pictures of a vehicle-class crash run (docs/vehicle.md): the deformed front at three times
(side and top views of the shells from the VTK states, coloured by effective plastic strain),
the rigid-wall force and the energies (glstat).

    python -m parcae_tools.vehicle_report RUN_DIR -o DIR [--x-max 1600]

RUN_DIR is the output directory of `parcae run --vtk` (parcae.pvd, glstat, rwforc); writes
DIR/front_<t>ms.png (three times: a quarter, half and all of the run), DIR/wall_force.png,
DIR/energies.png and DIR/summary.json (crush, peak and mean wall force, energy ratio).
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import sys

import numpy as np

from .glstat import read_glstat
from .lsdyna_ascii import read_rwforc
from .vtk import read_pvd, read_vtu_ascii_or_binary


def _quads(m):
    conn = np.asarray(m["connectivity"], dtype=np.int64)
    off = np.asarray(m["offsets"], dtype=np.int64)
    types = np.asarray(m["types"])
    start = np.concatenate([[0], off[:-1]])
    quad = (types == 9) & (off - start == 4)
    idx = start[quad][:, None] + np.arange(4)[None, :]
    return conn[idx], np.flatnonzero(quad)


def part_names(deck: pathlib.Path) -> dict:
    """pid -> title of the *PART cards of a generated main.k."""
    lines = deck.read_text().splitlines()
    names = {}
    for i, line in enumerate(lines):
        if line.startswith("*PART") and i + 2 < len(lines):
            names[int(lines[i + 2][:10])] = lines[i + 1].strip()
    return names


def front_pictures(run: pathlib.Path, out: pathlib.Path, x_max: float, keep=None) -> list:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.collections import PolyCollection
    if not (run / "parcae.pvd").exists():
        raise SystemExit(f"vehicle_report: {run}/parcae.pvd is missing: run the deck with "
                         "`parcae run ... --vtk` (the VTK series is written only when asked)")
    states = read_pvd(str(run / "parcae.pvd"))
    m0 = read_vtu_ascii_or_binary(states[0][1])
    x0 = np.asarray(m0["points"], dtype=float).reshape(-1, 3)
    quads, cells = _quads(m0)
    front = x0[quads].mean(axis=1)[:, 0] < x_max
    if keep is not None:  # parts to draw (the load path), by part id
        pid = np.asarray(m0["cell_data"]["part_id"], dtype=np.int64)[cells]
        front &= np.isin(pid, list(keep))
    picks = [states[len(states) // 4], states[len(states) // 2], states[-1]]
    files = []
    for t, f in picks:
        m = read_vtu_ascii_or_binary(f)
        x = x0 + np.asarray(m["point_data"]["displacement"], dtype=float).reshape(-1, 3)
        eps = np.asarray(m["cell_data"].get("effective_plastic_strain",
                                            np.zeros(len(m["types"]))), dtype=float)
        fig, axes = plt.subplots(2, 1, figsize=(10, 8))
        for ax, (a, b), label in ((axes[0], (0, 2), "side (x-z)"), (axes[1], (0, 1), "top (x-y)")):
            poly = x[quads[front]][:, :, [a, b]]
            pc = PolyCollection(poly, array=eps[cells[front]], cmap="viridis", linewidths=0.1,
                                edgecolors="k")
            pc.set_clim(0, 0.3)
            ax.add_collection(pc)
            ax.autoscale()
            ax.set_aspect("equal")
            ax.set_title(f"{label}, t = {t * 1e3:.1f} ms")
        fig.colorbar(pc, ax=axes, label="effective plastic strain")
        path = out / f"front_{t * 1e3:05.1f}ms.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        files.append(path.name)
    return files


def curves(run: pathlib.Path, out: pathlib.Path) -> dict:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    g = read_glstat(run / "glstat", as_numpy=True)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for k in ("kinetic", "internal", "hourglass", "sliding", "rigidwall", "total"):
        if k in g:
            ax.plot(np.asarray(g["time"]) * 1e3, np.asarray(g[k]) / 1e6, label=k)
    ax.set_xlabel("time (ms)")
    ax.set_ylabel("energy (kJ)")
    ax.legend()
    ax.grid(True, alpha=0.3)
    fig.savefig(out / "energies.png", dpi=110)
    plt.close(fig)
    summary = {"energy_ratio_end": float(g["total"][-1] / g["total"][0]),
               "hourglass_over_internal_end": float(g["hourglass"][-1] / g["internal"][-1])
               if g["internal"][-1] > 0 else None}
    if (run / "rwforc").exists():
        rw = read_rwforc(run / "rwforc")
        t = np.asarray(rw["time"])
        f = np.abs(np.asarray(rw["walls"][rw["ids"][0]]["normal_force"]))
        fig, ax = plt.subplots(figsize=(8, 4.5))
        ax.plot(t * 1e3, f / 1e3)
        ax.set_xlabel("time (ms)")
        ax.set_ylabel("rigid-wall normal force (kN)")
        ax.grid(True, alpha=0.3)
        fig.savefig(out / "wall_force.png", dpi=110)
        plt.close(fig)
        summary.update({"wall_force_peak_kN": float(f.max() / 1e3),
                        "wall_force_mean_kN": float(np.trapz(f, t) / (t[-1] - t[0]) / 1e3),
                        "wall_impulse_Ns": float(np.trapz(f, t))})
    return summary


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", help="output directory of parcae run")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--x-max", type=float, default=1600.0,
                    help="shells with their centre at x below this (mm) are drawn")
    ap.add_argument("--deck", help="the run's main.k: draw only the parts whose names match "
                                   "--parts")
    ap.add_argument("--parts", default="rail|bumper|crash box|shotgun|firewall|floor|sill",
                    help="regular expression on the part names (with --deck)")
    args = ap.parse_args(argv)
    run, out = pathlib.Path(args.run), pathlib.Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    s = curves(run, out)
    keep = None
    if args.deck:
        import re
        keep = {p for p, n in part_names(pathlib.Path(args.deck)).items()
                if re.search(args.parts, n)}
    s["front_pictures"] = front_pictures(run, out, args.x_max, keep)
    (out / "summary.json").write_text(json.dumps(s, indent=1))
    print(json.dumps(s, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
