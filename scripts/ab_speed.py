#!/usr/bin/env python3
"""Speed of two parcae binaries on the same decks, interleaved (A B A B ...) so that the drift
of a shared machine hits both alike; medians and their ratio (refactorings must not slow the
solver down, issue 12).

usage: ab_speed.py OLD NEW DECK [DECK ...] [--np N] [--reps R] [--json OUT]

Figure of merit: element-cycles per second from the run's closing summary (outputs off:
--no-vtk --no-d3plot). Writes JSON with the figures and the machine/MPI metadata.
"""
import argparse
import datetime
import json
import os
import pathlib
import platform
import re
import statistics
import subprocess
import sys
import tempfile

ENV = {**os.environ, "OMP_NUM_THREADS": "1", "OMPI_ALLOW_RUN_AS_ROOT": "1",
       "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}


def rate(exe, deck, np_):
    extra = ["--np", str(np_), "--mpi", "openmpi"] if np_ > 1 else []
    with tempfile.TemporaryDirectory(prefix="parcae_ab_") as d:
        p = subprocess.run([exe, "run", deck, "-o", d, "--no-vtk", "--no-d3plot"] + extra,
                           capture_output=True, text=True, env=ENV, timeout=3600)
    m = re.search(r"([0-9.e+]+) element-cycles/s", p.stdout)
    if p.returncode != 0 or not m:
        sys.exit(f"{exe} {deck}: exit {p.returncode}\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
    return float(m.group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("decks", nargs="+")
    ap.add_argument("--np", type=int, default=1)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--json")
    a = ap.parse_args()
    rows = []
    for deck in a.decks:
        got = {"old": [], "new": []}
        for _ in range(a.reps):
            got["old"].append(rate(a.old, deck, a.np))
            got["new"].append(rate(a.new, deck, a.np))
        mo, mn = statistics.median(got["old"]), statistics.median(got["new"])
        rows.append({"deck": deck, "np": a.np, "old_median": mo, "new_median": mn,
                     "ratio": mn / mo, "old": got["old"], "new": got["new"]})
        print(f"{pathlib.Path(deck).name} np {a.np}: element-cycles/s median old {mo:.4g} "
              f"new {mn:.4g}  new/old {mn / mo:.3f}", flush=True)
    if a.json:
        meta = {"date": datetime.datetime.now().isoformat(timespec="seconds"),
                "machine": platform.node(), "cpu": platform.processor() or platform.machine(),
                "cores": os.cpu_count(), "load_average": os.getloadavg(),
                "mpi": "openmpi" if a.np > 1 else "none", "reps": a.reps,
                "old": a.old, "new": a.new}
        pathlib.Path(a.json).write_text(json.dumps({"metadata": meta, "results": rows},
                                                   indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
