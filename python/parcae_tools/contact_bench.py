"""Contact benchmark: share of the cycle spent in self-contact on a tube of >= 20k shells.

    python -m parcae_tools.contact_bench --parcae build/release/bin/parcae --json bench/contact.json

The deck is examples/tube_crush_contact refined: a 50 x 50 x 200 mm square tube of 1.25 mm
Belytschko-Tsay shells (160 around x 160 along = 25,600 shells) with
*CONTACT_AUTOMATIC_SINGLE_SURFACE over the whole tube, crushed by a 100 kg wall at 10 m/s, run
for a fixed number of cycles (ENDCYC) with --profile. The figure of merit comes from the
profile's phases: contact time (contact_search + contact_forces) / element force time
(element_forces), target <= 1. Runs are repeated (--repeat) and the median is reported, at 1
thread and 2 threads (1 rank), and on --np ranks (1 thread each; the slowest rank's phase times,
the contact phases' MPI time and bytes sent per rank and cycle, and the contact speed-up over
one rank).
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile

from .bench import machine_metadata

A, LENGTH = 50.0, 200.0


def tube_deck(h: float, cycles: int) -> str:
    n_side, n_len = round(A / h), round(LENGTH / h)
    ring = []
    for side in range(4):
        for k in range(n_side):
            s = k / n_side
            ring.append([(-A / 2 + A * s, -A / 2), (A / 2, -A / 2 + A * s),
                         (A / 2 - A * s, A / 2), (-A / 2, A / 2 - A * s)][side])
    nr = len(ring)
    nid = lambda i, j: 1 + (i % nr) + nr * j  # noqa: E731
    out = ["*KEYWORD", "*TITLE", f"contact benchmark tube {nr * n_len} shells",
           "*CONTROL_TERMINATION", f"{1.0:10.3e}{cycles:10d}",
           "*CONTROL_TIMESTEP", f"{'':10s}{0.9:10.3f}",
           "*DATABASE_GLSTAT", f"{1.0:10.3e}", "*DATABASE_BINARY_D3PLOT", f"{1.0:10.3e}",
           "*CONTACT_AUTOMATIC_SINGLE_SURFACE_ID", "         1 tube",
           "         0         0         5", "       0.2       0.2", "",
           "*PART", "tube", "         1         1         1",
           "*SECTION_SHELL", "         1         2     0.833         3",
           "       1.2       1.2       1.2       1.2",
           "*MAT_PIECEWISE_LINEAR_PLASTICITY",
           "         1   7.85e-9  210000.0       0.3     250.0     500.0",
           "       0.0       0.0", "", "",
           "*BOUNDARY_SPC_SET", "         1         0         1         1         1         1"
           "         1         1",
           "*RIGIDWALL_PLANAR_MOVING", "         2",
           f"       0.0       0.0{LENGTH:10.1f}       0.0       0.0{LENGTH - 1:10.1f}       0.0",
           "       0.1   10000.0", "*NODE"]
    for j in range(n_len + 1):
        for i, (x, y) in enumerate(ring):
            out.append(f"{nid(i, j):8d}{x:16.8g}{y:16.8g}{LENGTH * j / n_len:16.8g}")
    out.append("*ELEMENT_SHELL")
    e = 1
    for j in range(n_len):
        for i in range(nr):
            out.append(f"{e:8d}{1:8d}{nid(i, j):8d}{nid(i + 1, j):8d}{nid(i + 1, j + 1):8d}"
                       f"{nid(i, j + 1):8d}")
            e += 1
    for sid, j in ((1, 0), (2, n_len)):
        out += ["*SET_NODE_LIST", f"{sid:10d}"]
        ids = [nid(i, j) for i in range(nr)]
        for k in range(0, len(ids), 8):
            out.append("".join(f"{n:10d}" for n in ids[k:k + 8]))
    out.append("*END")
    return "\n".join(out) + "\n", nr * n_len


SEND_FUNCTIONS = ("MPI_Send", "MPI_Isend", "MPI_Allgather", "MPI_Allgatherv", "MPI_Alltoall",
                  "MPI_Alltoallv", "MPI_Allreduce", "MPI_Gatherv", "MPI_Bcast")


def run(parcae, deck, out, threads, nranks=1):
    env = {**os.environ, "OMP_NUM_THREADS": str(threads), "OMPI_ALLOW_RUN_AS_ROOT": "1",
           "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}
    cmd = [parcae, "run", str(deck), "-o", str(out), "--threads", str(threads), "--no-vtk",
           "--no-d3plot", "--profile"]
    if nranks > 1:
        cmd += ["--np", str(nranks)]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=3600)
    if p.returncode != 0:
        sys.exit(f"failed: {p.stdout[-2000:]}\n{p.stderr[-2000:]}")
    prof = json.loads((out / "profile" / "profile.json").read_text())
    ranks = []
    for r in prof["ranks"]:
        ph = r["phases"]
        t = lambda k: ph.get(k, {}).get("time_s", 0.0)  # noqa: E731
        sent = sum(f.get("bytes", 0) for k in ("contact_search", "contact_forces")
                   for name, f in ph.get(k, {}).get("functions", {}).items()
                   if name in SEND_FUNCTIONS)
        ranks.append({"element_forces_s": t("element_forces"),
                      "contact_s": t("contact_search") + t("contact_forces"),
                      "contact_search_s": t("contact_search"),
                      "contact_forces_s": t("contact_forces"),
                      "contact_mpi_s": sum(ph.get(k, {}).get("mpi_s", 0.0)
                                           for k in ("contact_search", "contact_forces")),
                      "contact_bytes_sent": sent, "elapsed_s": r["elapsed_s"]})
    # the busiest rank sets the pace
    out = {k: max(r[k] for r in ranks) for k in ranks[0]}
    out["ranks"] = ranks
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--parcae", default="build/release/bin/parcae")
    ap.add_argument("--json", default="bench/contact.json")
    ap.add_argument("--h", type=float, default=1.25, help="element size (mm)")
    ap.add_argument("--cycles", type=int, default=1500)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--np", type=int, nargs="+", default=[2],
                    help="MPI rank counts (1 thread each; slowest rank reported)")
    args = ap.parse_args(argv)
    work = pathlib.Path(tempfile.mkdtemp(prefix="parcae_contact_bench_"))
    text, nshell = tube_deck(args.h, args.cycles)
    deck = work / "tube.k"
    deck.write_text(text)
    results = {}
    configs = [(th, 1) for th in args.threads] + [(1, n) for n in args.np if n > 1]
    for th, nr in configs:
        runs = [run(args.parcae, deck, work / f"t{th}_n{nr}_{r}", th, nr)
                for r in range(args.repeat)]
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0] if k != "ranks"}
        med["contact_over_element_forces"] = med["contact_s"] / med["element_forces_s"]
        med["contact_share_of_cycle"] = med["contact_s"] / med["elapsed_s"]
        med["contact_bytes_sent_per_cycle"] = med["contact_bytes_sent"] / args.cycles
        key = f"threads{th}" if nr == 1 else f"ranks{nr}"
        results[key] = {"median": med, "runs": runs}
        print(f"{nr} rank(s) x {th} thread(s): element forces {med['element_forces_s']:.3f} s, "
              f"contact {med['contact_s']:.3f} s (search {med['contact_search_s']:.3f}, forces "
              f"{med['contact_forces_s']:.3f}, MPI {med['contact_mpi_s']:.3f}): contact / element "
              f"forces = {med['contact_over_element_forces']:.2f}, "
              f"{100 * med['contact_share_of_cycle']:.1f} % of the run"
              + (f", contact MPI {med['contact_bytes_sent_per_cycle'] / 1024:.1f} KiB sent per "
                 "rank and cycle" if nr > 1 else ""))
    if "threads1" in results:
        for key, r in results.items():
            if key.startswith("ranks"):
                r["contact_speedup_vs_1_rank"] = (results["threads1"]["median"]["contact_s"]
                                                  / r["median"]["contact_s"])
                print(f"{key}: contact phase speed-up vs 1 rank "
                      f"{r['contact_speedup_vs_1_rank']:.2f}")
    doc = {"benchmark": "self-contact share on a tube crush",
           "figure_of_merit": {k: v["median"]["contact_over_element_forces"]
                               for k, v in results.items()},
           "target": "contact time <= element force time (ratio <= 1)",
           "case": {"shells": nshell, "element_size_mm": args.h, "cycles": args.cycles,
                    "repeat": args.repeat},
           "results": results,
           "metadata": machine_metadata(str(pathlib.Path(__file__).resolve().parents[2]))}
    pathlib.Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    pathlib.Path(args.json).write_text(json.dumps(doc, indent=2) + "\n")
    print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
