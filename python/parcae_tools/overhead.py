"""Overhead benchmarks: what writing d3plot states and MPI profiling cost on a parcae run.

    python -m parcae_tools.overhead --parcae build/release/bin/parcae --json bench/overhead.json

The deck is the strong-scaling block (parcae_tools.scaling.block_deck: 40x40x32 = 51,200
one-point hexahedra striking a rigid wall) run for a fixed number of cycles. Configurations,
each run `--repeat` times (median of the solver's elapsed time, as parcae prints it):

  plain    no plot output (VTK and d3plot off), no profile
  profile  as plain, with --profile (the MPI profiler linked into parcae, writing profile.json)
  d3plot   as profile, with a d3plot state every 100 cycles (DT = 100 x the initial time step)

at 1 rank and 2 ranks. Figures of merit, in percent of the run's elapsed time:
  d3plot overhead (target <= 5 %): the profile's "output" phase of the d3plot run minus that of
    the profile run (wall time spent writing the states, attributed by the profiler: steadier
    than a difference of two noisy elapsed times, which is reported too);
  profile overhead (target <= 1 %): median elapsed of the profile runs over the plain runs.
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

from .bench import machine_metadata
from .scaling import block_deck


def output_phase(out: pathlib.Path) -> float:
    """Largest "output" phase time over the ranks of a run's profile (0 without a profile)."""
    f = out / "profile" / "profile.json"
    if not f.exists():
        return 0.0
    ranks = json.loads(f.read_text())["ranks"]
    return max(r["phases"].get("output", {}).get("time_s", 0.0) for r in ranks)


def run(parcae: str, deck: pathlib.Path, out: pathlib.Path, np_: int, extra: list[str]) -> tuple[float, str]:
    cmd = [parcae, "run", str(deck), "-o", str(out), "--threads", "1"] + extra
    if np_ > 1:
        cmd += ["--np", str(np_)]
    env = {**os.environ, "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMP_NUM_THREADS": "1"}
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=3600)
    if p.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}")
    m = re.search(r"elapsed ([0-9.]+) s", p.stdout)
    if not m:
        sys.exit(f"no elapsed time in the output of {' '.join(cmd)}")
    return float(m.group(1)), p.stdout


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--parcae", default="build/release/bin/parcae")
    ap.add_argument("--json", default="bench/overhead.json")
    ap.add_argument("--nx", type=int, default=40)
    ap.add_argument("--ny", type=int, default=40)
    ap.add_argument("--nz", type=int, default=32)
    ap.add_argument("--cycles", type=int, default=1000)
    ap.add_argument("--every", type=int, default=100, help="cycles between d3plot states")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--np", type=int, nargs="+", default=[1, 2])
    args = ap.parse_args(argv)

    work = pathlib.Path(tempfile.mkdtemp(prefix="parcae_overhead_"))
    base_deck = work / "block.k"
    base_deck.write_text(block_deck(args.nx, args.ny, args.nz, args.cycles))
    # The initial time step, from a one-cycle run, sets the d3plot interval.
    probe = work / "probe.k"
    probe.write_text(block_deck(args.nx, args.ny, args.nz, 1))
    _, out = run(args.parcae, probe, work / "probe", 1, ["--no-vtk", "--no-d3plot"])
    dt0 = float(re.search(r"initial dt\s+([0-9.eE+-]+)", out).group(1))
    plot_deck = work / "block_d3plot.k"
    text = base_deck.read_text()
    text = text.replace("*DATABASE_BINARY_D3PLOT\n 1.000e+00",
                        f"*DATABASE_BINARY_D3PLOT\n{args.every * dt0:10.3e}")
    plot_deck.write_text(text)

    configs = {
        "plain": (base_deck, ["--no-vtk", "--no-d3plot"]),
        "profile": (base_deck, ["--no-vtk", "--no-d3plot", "--profile"]),
        "d3plot": (plot_deck, ["--no-vtk", "--profile"]),
    }
    results = {}
    for np_ in args.np:
        times = {k: [] for k in configs}
        outputs = {k: [] for k in configs}
        for rep in range(args.repeat):
            for name, (deck, extra) in configs.items():  # interleaved: drift hits all alike
                out = work / f"{name}_np{np_}"
                t, _ = run(args.parcae, deck, out, np_, extra)
                times[name].append(t)
                outputs[name].append(output_phase(out))
        med = {k: statistics.median(v) for k, v in times.items()}
        out_med = {k: statistics.median(v) for k, v in outputs.items()}
        states = len(list((work / f"d3plot_np{np_}").glob("d3plot*")))
        d3 = 100 * (out_med["d3plot"] - out_med["profile"]) / med["d3plot"]
        results[f"np{np_}"] = {
            "elapsed_s": times,
            "median_s": med,
            "output_phase_s": outputs,
            "d3plot_overhead_percent": d3,
            "d3plot_elapsed_difference_percent": 100 * (med["d3plot"] / med["profile"] - 1),
            "profile_overhead_percent": 100 * (med["profile"] / med["plain"] - 1),
            "d3plot_files": states,
        }
        r = results[f"np{np_}"]
        print(f"np={np_}: plain {med['plain']:.3f} s, --profile {med['profile']:.3f} s "
              f"({r['profile_overhead_percent']:+.2f} %); d3plot every {args.every} cycles: "
              f"output phase {out_med['d3plot']:.3f} s = {d3:.2f} % of {med['d3plot']:.3f} s "
              f"(elapsed difference {r['d3plot_elapsed_difference_percent']:+.2f} %)")
    doc = {
        "benchmark": "output and profiling overhead",
        "figure_of_merit": {k: {"d3plot_overhead_percent": v["d3plot_overhead_percent"],
                                "profile_overhead_percent": v["profile_overhead_percent"]}
                            for k, v in results.items()},
        "targets": {"d3plot_overhead_percent": 5.0, "profile_overhead_percent": 1.0},
        "case": {"elements": args.nx * args.ny * args.nz, "cycles": args.cycles,
                 "d3plot_every_cycles": args.every, "initial_dt": dt0, "repeat": args.repeat},
        "results": results,
        "metadata": machine_metadata(str(pathlib.Path(__file__).resolve().parents[2])),
    }
    pathlib.Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    pathlib.Path(args.json).write_text(json.dumps(doc, indent=2) + "\n")
    print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
