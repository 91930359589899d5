"""The report of a `parcae cfd` run: its probes (probes.csv) and its liquid history
(history.csv) as plots, and a summary.

    python -m parcae_tools.cfd_report RUN_DIR [-o DIR]

Writes DIR/probes.png (one panel per probe kind: heights, pressures, velocity components; the
kinds are read from the run's case file when RUN_DIR/case.yaml or --case gives it, else
guessed from the column names), DIR/liquid.png (liquid volume and front, free-surface runs)
and DIR/summary.json (per probe column: first, last, minimum, maximum and the time of the
maximum). DIR defaults to RUN_DIR/report.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys

import numpy as np

from .cfd_marin import read_columns


def probe_kinds(case_text: str):
    """name -> kind from the case file's `probes:` entries (flow-style mappings)."""
    kinds = {}
    for line in case_text.splitlines():
        if "kind:" in line and "name:" in line:
            name = line.split("name:")[1].split(",")[0].strip()
            kind = line.split("kind:")[1].split(",")[0].strip()
            kinds[name] = kind
    return kinds


def group_columns(cols, kinds):
    groups = {"height": [], "pressure": [], "velocity": []}
    for c in cols:
        if c == "time":
            continue
        if c in kinds:  # a height or pressure probe, whatever its name ends with
            groups[kinds[c]].append(c)
            continue
        base = c.rsplit("_", 1)[0] if c[-2:] in ("_u", "_v", "_w") else c
        kind = kinds.get(base)
        if kind is None:
            kind = "velocity" if base != c else ("height" if c.upper().startswith("H")
                                                 else "pressure")
        groups[kind].append(c)
    return {k: v for k, v in groups.items() if v}


def report(run: pathlib.Path, outdir: pathlib.Path, case: pathlib.Path = None) -> dict:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    outdir.mkdir(parents=True, exist_ok=True)
    summary = {"run": str(run)}
    case = case or (run / "case.yaml")
    kinds = probe_kinds(case.read_text()) if case.exists() else {}
    if (run / "probes.csv").exists():
        cols = read_columns(run / "probes.csv")
        t = cols["time"]
        groups = group_columns(cols, kinds)
        units = {"height": "m", "pressure": "Pa", "velocity": "m/s"}
        fig, axes = plt.subplots(len(groups), 1, figsize=(9, 3 * len(groups)), squeeze=False)
        for ax, (kind, names) in zip(axes[:, 0], groups.items()):
            for n in names:
                ax.plot(t, cols[n], lw=1, label=n)
            ax.set_ylabel(f"{kind} ({units[kind]})")
            ax.grid(alpha=0.3)
            ax.legend(fontsize=8, ncol=4)
        axes[-1, 0].set_xlabel("t (s)")
        fig.tight_layout()
        fig.savefig(outdir / "probes.png", dpi=90)
        plt.close(fig)
        summary["probes"] = {
            n: {"first": float(v[0]), "last": float(v[-1]), "min": float(v.min()),
                "max": float(v.max()), "t_max": float(t[int(np.argmax(v))])}
            for n, v in cols.items() if n != "time"}
    if (run / "history.csv").exists():
        h = read_columns(run / "history.csv")
        fig, ax = plt.subplots(1, 2, figsize=(10, 3.2))
        ax[0].plot(h["time"], h["liquid_volume"])
        ax[0].set_ylabel("liquid volume")
        ax[1].plot(h["time"], h["front_x"])
        ax[1].set_ylabel("front x (bottom row)")
        for a in ax:
            a.set_xlabel("t (s)")
            a.grid(alpha=0.3)
        fig.tight_layout()
        fig.savefig(outdir / "liquid.png", dpi=90)
        plt.close(fig)
        v = h["liquid_volume"]
        summary["liquid_volume"] = {"first": float(v[0]), "last": float(v[-1]),
                                    "relative_change": float((v[-1] - v[0]) / v[0])}
    (outdir / "summary.json").write_text(json.dumps(summary, indent=1))
    return summary


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run")
    ap.add_argument("-o", "--outdir")
    ap.add_argument("--case", help="the case file (default RUN/case.yaml)")
    a = ap.parse_args(argv)
    run = pathlib.Path(a.run)
    out = pathlib.Path(a.outdir) if a.outdir else run / "report"
    s = report(run, out, pathlib.Path(a.case) if a.case else None)
    print(f"wrote {out}/probes.png, liquid.png, summary.json ({len(s.get('probes', {}))} probe "
          "columns)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
