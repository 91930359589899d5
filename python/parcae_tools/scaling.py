"""Strong-scaling benchmark: one deck of >= 50k elements at np x threads, speedup and
efficiency written as JSON (figure of merit: speedup at 2 ranks and at 1 rank x 2 threads).

    python -m parcae_tools.scaling --parcae build/release/bin/parcae --json bench/scaling.json

The deck is generated: a steel block of nx*ny*nz one-point hexahedra (default 40x40x32 =
51200) striking a rigid wall at 50 m/s (elastic-plastic *MAT_003), run for a fixed number of
cycles (ENDCYC) without VTK output, so the time measured is the solver's. Each configuration
is run `--repeat` times and the median elapsed time is used (this machine's numbers are noisy).
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile
import time

from .bench import machine_metadata


def block_deck(nx: int, ny: int, nz: int, cycles: int) -> str:
    h = 1.0
    lines = ["*KEYWORD", "*TITLE", f"scaling block {nx}x{ny}x{nz}",
             "*CONTROL_TERMINATION", f"{1.0:10.3e}{cycles:10d}",
             "*DATABASE_GLSTAT", f"{1.0:10.3e}", "*DATABASE_BINARY_D3PLOT", f"{1.0:10.3e}",
             "*PART", "block", "         1         1         1",
             "*SECTION_SOLID", "         1         1",
             "*MAT_PLASTIC_KINEMATIC",
             "         1   7.85e-9  210000.0       0.3     250.0    1000.0       1.0",
             "       0.0       0.0       0.0       0.0",
             "*INITIAL_VELOCITY_GENERATION",
             "         1         2       0.0       0.0       0.0  -50000.0",
             "       0.0       0.0       0.0       0.0       0.0       0.0",
             "*RIGIDWALL_PLANAR", "         0",
             "       0.0       0.0       0.0       0.0       0.0       1.0       0.0",
             "*NODE"]
    nid = lambda i, j, k: 1 + i + (nx + 1) * (j + (ny + 1) * k)
    for k in range(nz + 1):
        for j in range(ny + 1):
            for i in range(nx + 1):
                lines.append(f"{nid(i, j, k):8d}{i * h:16.6f}{j * h:16.6f}{k * h:16.6f}")
    lines.append("*ELEMENT_SOLID")
    e = 1
    for k in range(nz):
        for j in range(ny):
            for i in range(nx):
                c = [nid(i, j, k), nid(i + 1, j, k), nid(i + 1, j + 1, k), nid(i, j + 1, k),
                     nid(i, j, k + 1), nid(i + 1, j, k + 1), nid(i + 1, j + 1, k + 1),
                     nid(i, j + 1, k + 1)]
                lines.append(f"{e:8d}{1:8d}" + "".join(f"{n:8d}" for n in c))
                e += 1
    lines.append("*END")
    return "\n".join(lines) + "\n"


def run_once(parcae: str, deck: pathlib.Path, out: pathlib.Path, np_: int, threads: int,
             mpi: str) -> float:
    cmd = [parcae, "run", str(deck), "-o", str(out), "--threads", str(threads)]
    if np_ > 1:
        cmd += ["--np", str(np_), "--mpi", mpi]
    env = {**os.environ, "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMP_NUM_THREADS": str(threads)}
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=3600)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}")
    m = re.search(r"elapsed ([0-9.]+) s", p.stdout)
    if not m:
        raise RuntimeError("no elapsed time in the output:\n" + p.stdout[-2000:])
    return max(float(m.group(1)), 1e-3)  # printed to the millisecond


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--parcae", default="build/release/bin/parcae")
    ap.add_argument("--json", default="bench/scaling.json")
    ap.add_argument("--size", default="40x40x32", help="nx x ny x nz hexahedra")
    ap.add_argument("--cycles", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--mpi", default="openmpi", choices=["openmpi", "mpich"])
    ap.add_argument("--configs", default="1x1,2x1,1x2", help="np x threads, comma separated")
    args = ap.parse_args(argv)
    nx, ny, nz = (int(v) for v in args.size.split("x"))
    work = pathlib.Path(tempfile.mkdtemp(prefix="parcae_scaling_"))
    deck = work / "block.k"
    deck.write_text(block_deck(nx, ny, nz, args.cycles))
    configs = [tuple(int(v) for v in c.split("x")) for c in args.configs.split(",")]
    results = []
    for np_, threads in configs:
        times = [run_once(args.parcae, deck, work / f"out_{np_}_{threads}_{r}", np_, threads,
                          args.mpi) for r in range(args.repeat)]
        results.append({"np": np_, "threads": threads, "elapsed_s": statistics.median(times),
                        "samples_s": times})
        print(f"np {np_} x threads {threads}: median {statistics.median(times):.3f} s "
              f"({', '.join(f'{t:.3f}' for t in times)})", flush=True)
    base = next(r["elapsed_s"] for r in results if r["np"] == 1 and r["threads"] == 1)
    elements = nx * ny * nz
    for r in results:
        r["speedup"] = base / r["elapsed_s"]
        r["efficiency"] = r["speedup"] / (r["np"] * r["threads"])
        r["us_per_element_cycle"] = 1e6 * r["elapsed_s"] / (elements * args.cycles)
    out = {"benchmark": "parcae_strong_scaling",
           "metadata": {**machine_metadata(), "mpi": args.mpi, "elements": elements,
                        "cycles": args.cycles, "repeat": args.repeat,
                        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
           "results": [{"name": f"speedup_np{r['np']}_t{r['threads']}", "value": r["speedup"],
                        "unit": "x"} for r in results] +
                      [{"name": f"efficiency_np{r['np']}_t{r['threads']}",
                        "value": r["efficiency"], "unit": "1"} for r in results] +
                      [{"name": f"elapsed_np{r['np']}_t{r['threads']}", "value": r["elapsed_s"],
                        "unit": "s"} for r in results],
           "runs": results,
           "target": {"speedup_2": 1.85}}
    path = pathlib.Path(args.json)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=2))
    for r in results:
        print(f"np {r['np']} x t {r['threads']}: speedup {r['speedup']:.3f}, efficiency "
              f"{r['efficiency']:.3f}, {r['us_per_element_cycle']:.3f} us/element-cycle")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
