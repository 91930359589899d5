"""The MARIN dam break with a box (Kleefsman et al. 2005, SPHERIC test 2) against its
measurements: water heights H1-H4 and pressures P1-P8 on the box (docs/cfd_marin.md).

    python -m parcae_tools.cfd_marin run [--cells 80,120] [--np 2] [--threads 2] [--bind socket]
        [--end-time 6] [--workdir runs/marin] [-o docs/cfd_marin]
    python -m parcae_tools.cfd_marin report RUN [RUN ...] -o DIR

`run` writes the case of examples/cfd/marin_dambreak.yaml at each resolution (cells along x;
the other directions in proportion), runs `parcae cfd run` on it, then `report`s all runs.
`report` reads each run's probes.csv and case.yaml and writes DIR/heights.png,
DIR/pressures.png and DIR/errors.json: per gauge and per run, the RMS difference from the
measurement over 0 to the end time (heights in m, pressures in Pa), relative to the
measurement's range, and for the pressures the arrival time (first > 1 kPa; P5-P8 > 300 Pa)
and the peak within 0.3 s of it; with the machine metadata and each run's wall time.
"""
from __future__ import annotations

import argparse
import csv
import json
import pathlib
import re
import subprocess
import sys
import time
from typing import Dict, List

import numpy as np

from .bench import machine_metadata

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "cfd" / "marin_dambreak.yaml"
DATA = ROOT / "docs" / "data" / "kleefsman2005_marin.csv"
HEIGHTS = ["H1", "H2", "H3", "H4"]
PRESSURES = ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"]


def read_columns(path: pathlib.Path) -> Dict[str, np.ndarray]:
    with open(path) as f:
        rows = list(csv.reader(f))
    head, body = rows[0], [r for r in rows[1:] if r]
    data = np.array([[float(x) for x in r] for r in body])
    return {h: data[:, i] for i, h in enumerate(head)}


def measured() -> Dict[str, np.ndarray]:
    return read_columns(DATA)


def case_text(cells_x: int, end_time: float) -> str:
    """The example case at `cells_x` cells along x (the other directions in proportion)."""
    text = EXAMPLE.read_text()
    ny = max(4, round(cells_x * 1.0 / 3.22))
    text = re.sub(r"cells: \[\d+, \d+, \d+\]", f"cells: [{cells_x}, {ny}, {ny}]", text)
    text = re.sub(r"end: [0-9.]+", f"end: {end_time}", text)
    return text


def _arrival(t, p, threshold):
    idx = np.flatnonzero(p > threshold)
    return float(t[idx[0]]) if idx.size else None


def errors(sim: Dict[str, np.ndarray], exp: Dict[str, np.ndarray], end: float) -> Dict:
    """Per gauge: RMS of (simulated - measured) on the measured times up to `end`, the
    measurement's range, and for pressures the arrival and peak."""
    te = exp["time"]
    keep = te <= min(end, sim["time"][-1])
    out = {}
    for g in HEIGHTS + PRESSURES:
        if g not in sim:
            continue
        s = np.interp(te[keep], sim["time"], sim[g])
        m = exp[g][keep]
        rms = float(np.sqrt(np.mean((s - m) ** 2)))
        rng = float(m.max() - m.min())
        e = {"rms": rms, "range": rng, "rms_relative": rms / rng if rng > 0 else None}
        if g in PRESSURES:
            thr = 1000.0 if g in PRESSURES[:4] else 300.0
            ta_s = _arrival(sim["time"], sim[g], thr)
            ta_m = _arrival(te[keep], m, thr)
            e["arrival_sim"], e["arrival_measured"] = ta_s, ta_m
            for key, t0, tt, pp in (("peak_sim", ta_s, sim["time"], sim[g]),
                                    ("peak_measured", ta_m, te[keep], m)):
                if t0 is None:
                    e[key] = None
                    continue
                w = (tt >= t0) & (tt <= t0 + 0.3)
                e[key] = float(pp[w].max())
        out[g] = e
    return out


def report(runs: List[pathlib.Path], outdir: pathlib.Path, wall: Dict[str, float] = None):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    outdir.mkdir(parents=True, exist_ok=True)
    exp = measured()
    sims = {}
    for r in runs:
        text = (r / "case.yaml").read_text() if (r / "case.yaml").exists() else ""
        m = re.search(r"cells: \[(\d+), (\d+), (\d+)\]", text)
        label = f"parcae {m.group(1)}x{m.group(2)}x{m.group(3)}" if m else r.name
        if (r / "label.txt").exists():  # a peer's run (cfd_marin_foam)
            label = (r / "label.txt").read_text().strip()
        sims[label] = (r, read_columns(r / "probes.csv"), text)
    end = max(s["time"][-1] for _, s, _ in sims.values())
    result = {"experiment": "Kleefsman et al. 2005 (SPHERIC test 2), docs/data/kleefsman2005_marin.csv",
              "runs": {}, "metadata": machine_metadata(str(ROOT))}
    for label, (r, s, _) in sims.items():
        entry = {"dir": str(r), "errors": errors(s, exp, end)}
        if wall and str(r) in wall:
            entry["wall_s"] = wall[str(r)]
        if (r / "wall.json").exists():
            entry.update(json.loads((r / "wall.json").read_text()))
        result["runs"][label] = entry
    (outdir / "errors.json").write_text(json.dumps(result, indent=1))
    for name, gauges, unit, scale in (("heights", HEIGHTS, "m", 1.0),
                                      ("pressures", ["P1", "P3", "P5", "P7"], "kPa", 1e-3)):
        fig, axes = plt.subplots(2, 2, figsize=(10, 6.5), sharex=True)
        for ax, g in zip(axes.ravel(), gauges):
            ax.plot(exp["time"], exp[g] * scale, "k", lw=0.8, label="measured (MARIN)")
            for label, (_, s, _) in sims.items():
                if g in s:
                    ax.plot(s["time"], s[g] * scale, lw=1.0, label=label)
            ax.set_title(g)
            ax.set_xlim(0, end)
            ax.set_ylabel(unit)
            ax.grid(alpha=0.3)
        axes[1, 0].set_xlabel("t (s)")
        axes[1, 1].set_xlabel("t (s)")
        axes[0, 0].legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(outdir / f"{name}.png", dpi=90)
        plt.close(fig)
    return result


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--cells", default="80,120", help="cells along x, one run each")
    r.add_argument("--np", type=int, default=2)
    r.add_argument("--threads", type=int, default=2)
    r.add_argument("--bind", default="socket")
    r.add_argument("--end-time", type=float, default=6.0)
    r.add_argument("--workdir", default="runs/marin")
    r.add_argument("--parcae", default=str(ROOT / "build" / "release" / "bin" / "parcae"))
    r.add_argument("-o", "--outdir", default=str(ROOT / "docs" / "cfd_marin"))
    p = sub.add_parser("report")
    p.add_argument("runs", nargs="+")
    p.add_argument("-o", "--outdir", required=True)
    a = ap.parse_args(argv)
    if a.cmd == "report":
        res = report([pathlib.Path(x) for x in a.runs], pathlib.Path(a.outdir))
        for label, e in res["runs"].items():
            print(label, {g: round(v["rms_relative"], 3) for g, v in e["errors"].items()
                          if v["rms_relative"] is not None})
        return 0
    runs, wall = [], {}
    for n in [int(x) for x in a.cells.split(",")]:
        d = pathlib.Path(a.workdir) / f"cells{n}"
        d.mkdir(parents=True, exist_ok=True)
        case = d / "marin.yaml"
        case.write_text(case_text(n, a.end_time))
        cmd = [a.parcae, "cfd", "run", str(case), "--np", str(a.np), "--threads",
               str(a.threads), "--bind", a.bind, "-o", str(d)]
        print(" ".join(cmd), flush=True)
        t0 = time.monotonic()
        rc = subprocess.run(cmd).returncode
        wall[str(d)] = time.monotonic() - t0
        if rc != 0:
            print(f"run failed ({rc})", file=sys.stderr)
            return rc
        (d / "case.yaml").write_text(case.read_text())
        runs.append(d)
    report(runs, pathlib.Path(a.outdir), wall)
    return 0


if __name__ == "__main__":
    sys.exit(main())
