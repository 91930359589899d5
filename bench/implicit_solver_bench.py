#!/usr/bin/env python3
"""Implicit solver figures of merit on a generated thick-cylinder mesh (examples/implicit/
make_examples.py --bench): for each rank count and in core / out of core (MUMPS ICNTL(22) via
ABSMEM = -1), one linear static step with LPRINT on; records the time of the Newton iteration
(assembly + factorisation + solve, from convergence.csv), the factorisation time, MUMPS memory
(INFOG(22), all ranks), the out-of-core scratch bytes and the wall time, as JSON.

    python3 bench/implicit_solver_bench.py [--mesh 40 200 4] [--np 1 2] [--scratch DIR]
        [--build build/release] [-o bench/implicit_solver.json]

The default mesh has 114,964 equations (41 x 201 x 5 nodes, a quarter cylinder fixed at its
base under internal pressure). Scale it with --mesh NR NT NZ.
"""
import argparse
import csv
import json
import os
import pathlib
import platform
import re
import subprocess
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mesh", nargs=3, type=int, default=[40, 200, 4], metavar=("NR", "NT", "NZ"))
    ap.add_argument("--np", nargs="+", type=int, default=[1, 2])
    ap.add_argument("--scratch", default=None, help="scratch directory (default: a temp dir)")
    ap.add_argument("--build", default=str(ROOT / "build" / "release"))
    ap.add_argument("-o", "--output", default=str(ROOT / "bench" / "implicit_solver.json"))
    a = ap.parse_args()
    exe = pathlib.Path(a.build) / "bin" / "parcae"
    gen = ROOT / "examples" / "implicit" / "make_examples.py"
    work = pathlib.Path(tempfile.mkdtemp(prefix="parcae_implicit_bench_"))
    scratch = pathlib.Path(a.scratch) if a.scratch else work / "scratch"
    scratch.mkdir(parents=True, exist_ok=True)
    runs = []
    for ooc in (False, True):
        deck = work / ("ooc.k" if ooc else "incore.k")
        subprocess.run(["python3", str(gen), "--bench", *map(str, a.mesh), str(deck), "2",
                        "-1" if ooc else "0"], check=True)
        for np_ in a.np:
            out = work / f"out_{'ooc' if ooc else 'ic'}_{np_}"
            t0 = time.time()
            r = subprocess.run([str(exe), "run", str(deck), "--np", str(np_), "-o", str(out),
                                "--scratch", str(scratch)], capture_output=True, text=True)
            wall = time.time() - t0
            if r.returncode != 0:
                raise SystemExit(r.stdout + r.stderr)
            m = re.search(r"linear solve: (\d+) eq, factor ([\d.]+) s, solve ([\d.]+) s, MUMPS "
                          r"memory (\d+) MB \(estimate (\d+) MB\)(?:, out of core (\d+) bytes)?",
                          r.stdout)
            rows = list(csv.DictReader(open(out / "convergence.csv")))
            runs.append({
                "np": np_, "out_of_core": ooc, "equations": int(m.group(1)),
                "newton_iteration_s": float(rows[0]["seconds"]),
                "factor_s": float(m.group(2)), "solve_s": float(m.group(3)),
                "mumps_memory_mb": int(m.group(4)), "mumps_estimate_mb": int(m.group(5)),
                "scratch_bytes": int(m.group(6) or 0), "wall_s": round(wall, 3),
                "scratch_throughput_mb_s": (int(m.group(6) or 0) / 1e6 / float(m.group(2))
                                            if m.group(6) else None),
            })
            print(json.dumps(runs[-1]))
    doc = {"benchmark": "implicit_solver", "mesh": a.mesh, "scratch": str(scratch),
           "machine": {"host": platform.node(), "cpus": os.cpu_count(),
                       "load_average": os.getloadavg()},
           "git": subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                                 capture_output=True, text=True).stdout.strip(),
           "runs": runs}
    pathlib.Path(a.output).write_text(json.dumps(doc, indent=1) + "\n")
    print("->", a.output)


if __name__ == "__main__":
    main()
