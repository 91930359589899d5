"""Memory budget benchmark (issue 30): peak resident memory per element of a run, with the
outputs its deck asks for, against a budget; exits 1 when the budget is passed.

    python -m parcae_tools.memory_bench [--n 100] [--cycles 20] [--np 1] [--budget 1024]
        [--json bench/memory.json] [--parcae BIN]
    make bench-memory

The model is `parcae_tools.scaling.block_deck(n, n, n, cycles)`: an n^3 block of *MAT_003
hexahedra (1 M elements at n = 100) thrown at a rigid wall for `cycles` cycles (ENDCYC), with
glstat and the d3plot its deck asks for (the initial and the final state). The figure is the run summary's "bytes per element" (all ranks' peak resident
memory over the element count: model, decomposition, domain, outputs, everything). The JSON
has the figure, the budget, the peak per rank, rank 0's resident memory at its set-up stages,
the deck size and the machine/MPI/compiler metadata.
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time
from typing import Dict

from .bench import machine_metadata
from .scaling import block_deck
from .vehicle_bench import parse_log

DEFAULT_BUDGET = 1024  # bytes per element, issue 30


def measure(parcae: str, n: int, cycles: int, np_: int, work: pathlib.Path) -> Dict[str, object]:
    """Writes the block deck under work, runs it, returns the figures."""
    deck = work / "block.k"
    deck.write_text(block_deck(n, n, n, cycles))
    cmd = [parcae, "run", str(deck), "-o", str(work / "out")]
    if np_ > 1:
        cmd += ["--np", str(np_)]
    env = {**os.environ, "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMP_NUM_THREADS": "1"}
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=3600)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
    r = parse_log(p.stdout)
    if "bytes_per_element" not in r:
        raise RuntimeError(f"no memory summary in the log of {' '.join(cmd)}:\n{p.stdout[-2000:]}")
    return {"command": " ".join(cmd), "elements": n ** 3, "cycles": cycles, "np": np_,
            "deck_bytes": deck.stat().st_size, "wall_s": wall,
            "bytes_per_element": r["bytes_per_element"],
            "peak_rss_max_mib": r.get("peak_rss_max_mib"),
            "peak_rss_sum_mib": r.get("peak_rss_sum_mib"),
            "rank0_stage_rss_mib": r.get("rank0_stage_rss_mib", {}),
            "d3plot_states_bytes": sum(f.stat().st_size
                                       for f in (work / "out").glob("d3plot[0-9]*"))}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=100, help="elements per edge of the block (n^3)")
    ap.add_argument("--cycles", type=int, default=20)
    ap.add_argument("--np", type=int, default=1, dest="np_")
    ap.add_argument("--budget", type=float, default=DEFAULT_BUDGET, help="bytes per element")
    ap.add_argument("--json", default="")
    ap.add_argument("--parcae", default=os.environ.get("PARCAE_BIN", "build/release/bin/parcae"))
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="parcae_memory_") as tmp:
        r = measure(a.parcae, a.n, a.cycles, a.np_, pathlib.Path(tmp))
    r["budget_bytes_per_element"] = a.budget
    r["within_budget"] = r["bytes_per_element"] <= a.budget
    out = {"benchmark": "memory_budget", "figure_of_merit": "bytes_per_element",
           "result": r, "metadata": machine_metadata()}
    text = json.dumps(out, indent=2)
    if a.json:
        pathlib.Path(a.json).write_text(text + "\n")
    print(f"{r['elements']} elements, np {r['np']}: {r['bytes_per_element']} bytes per element "
          f"(budget {a.budget:.0f}), peak {r['peak_rss_max_mib']} MiB per rank"
          + ("" if r["within_budget"] else "  -- OVER BUDGET"))
    return 0 if r["within_budget"] else 1


if __name__ == "__main__":
    sys.exit(main())
