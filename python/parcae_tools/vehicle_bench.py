"""Vehicle-class benchmark: generate the crash classes and run a window of cycles of each at
np x threads, writing JSON with the figures of issue 30 and the machine/MPI/compiler metadata.

    python -m parcae_tools.vehicle_bench [--classes neon,3cars,car2car] [--configs 1x1,2x1,1x2]
        [--cycles 1000] [--elements N] [--json bench/vehicle.json] [--parcae BIN]
    make bench-vehicle          (the three classes at their sizes; about an hour here)

Per class: generation time and deck size; per run (`parcae run main.k --end-cycle C --profile
--no-vtk --no-d3plot`): elapsed time, microseconds per element-cycle (all-in, and per core:
times np x threads), the profile's phases (set-up; element forces, nodal update, contact
search and forces, time step, output, halo exchange) with the contact ratio (contact search +
forces over element forces + nodal update), the peak resident memory of the largest rank and
the bytes per element all-in (all ranks' peaks over the elements), and the deck-read rate
(deck bytes over the wall time of `parcae check main.k`, median of 3: reading, resolving and
checking the deck, process start included).
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time
from typing import Dict, List

from .bench import machine_metadata

PHASES = ("setup", "element_forces", "nodal_update", "contact_search", "contact_forces",
          "time_step", "output", "halo_exchange", "checkpoint")


def parse_log(text: str) -> Dict[str, object]:
    """Figures from a `parcae run` log: the campaign's (cycles, elapsed, element-cycles/s,
    elements, launch line) and the memory summary, initial step and energy ratio."""
    from .campaign import parse_log as campaign_log
    out: Dict[str, object] = campaign_log(text)
    m = re.search(r"peak memory per rank (\d+) MiB \(largest, rank (\d+)\); all ranks (\d+) MiB, "
                  r"(\d+) bytes per element", text)
    if m:
        out["peak_rss_max_mib"] = int(m.group(1))
        out["peak_rss_sum_mib"] = int(m.group(3))
        out["bytes_per_element"] = int(m.group(4))
    m = re.search(r"memory of rank 0 at its stages \(resident MiB\): (.*)", text)
    if m:
        stages = {}
        for item in m.group(1).split(", "):
            name, _, val = item.rpartition(" ")
            try:
                stages[name] = float(val)
            except ValueError:
                pass
        out["rank0_stage_rss_mib"] = stages
    m = re.search(r"initial dt +([0-9.e+-]+)", text)
    if m:
        out["dt_initial_s"] = float(m.group(1))
    m = re.search(r"energy ratio ([0-9.]+)", text)
    if m:
        out["energy_ratio"] = float(m.group(1))
    return out


def parse_profile(path: pathlib.Path) -> Dict[str, object]:
    """Phase times (exclusive, the largest over the ranks) and the memory metadata."""
    data = json.loads(path.read_text())
    phases = {name: float(v["time_s"]["max"])
              for name, v in data.get("summary", {}).get("phases", {}).items() if name in PHASES}
    extra = data.get("metadata", {}).get("extra", {})
    mem = {k.split(".", 1)[1]: v for k, v in extra.items() if k.startswith("memory.")}
    return {"phases_s": phases, "memory": mem}


def run(parcae: str, deck: pathlib.Path, out: pathlib.Path, np_: int, threads: int,
        cycles: int, mpi: str = "openmpi") -> Dict[str, object]:
    cmd = [parcae, "run", str(deck), "-o", str(out), "--threads", str(threads), "--end-cycle",
           str(cycles), "--no-vtk", "--no-d3plot", "--profile"]
    if np_ > 1:
        cmd += ["--np", str(np_), "--mpi", mpi]
    env = {**os.environ, "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMP_NUM_THREADS": str(threads)}
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=4 * 3600)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
    r: Dict[str, object] = {"np": np_, "threads": threads, "command": " ".join(cmd),
                            "wall_s": wall, **parse_log(p.stdout)}
    prof = out / "profile" / "profile.json"
    if prof.exists():
        r.update(parse_profile(prof))
    return r


def deck_read_rate(parcae: str, deck: pathlib.Path, deck_bytes: int) -> Dict[str, float]:
    """`parcae check DECK` wall time (median of 3) and deck MB/s over it."""
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        p = subprocess.run([parcae, "check", str(deck)], capture_output=True, text=True,
                           timeout=3600)
        times.append(time.perf_counter() - t0)
        if p.returncode != 0:
            raise RuntimeError(f"parcae check {deck} failed:\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
    t = sorted(times)[1]
    return {"check_s": t, "deck_read_mb_per_s": deck_bytes / 1e6 / t}


def derive(r: Dict[str, object], elements: int) -> None:
    """Per element-cycle figures (the run loop: the log's elapsed time, set-up excluded), the
    contact ratio, and the set-up's share of a 1,000-cycle run."""
    cycles = int(r.get("cycles") or 0)
    ph = r.get("phases_s", {})
    loop = float(r.get("elapsed_s") or 0.0)
    if cycles and elements and loop:
        r["us_per_element_cycle"] = 1e6 * loop / (elements * cycles)
        r["us_per_element_cycle_per_core"] = r["us_per_element_cycle"] * r["np"] * r["threads"]
    el = ph.get("element_forces", 0.0) + ph.get("nodal_update", 0.0)
    if el:
        r["contact_ratio"] = (ph.get("contact_search", 0.0) + ph.get("contact_forces", 0.0)) / el
    if loop and cycles and "setup" in ph:
        r["setup_share_of_1000_cycles"] = ph["setup"] / (ph["setup"] + loop * 1000.0 / cycles)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--parcae", default="build/release/bin/parcae")
    ap.add_argument("--classes", default="neon,3cars,car2car")
    ap.add_argument("--configs", default="1x1,2x1,1x2", help="np x threads, comma separated")
    ap.add_argument("--cycles", type=int, default=1000)
    ap.add_argument("--elements", type=int, help="override every class's element count")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mpi", default="openmpi", choices=["openmpi", "mpich"])
    ap.add_argument("--workdir", help="where decks and runs go (default: a temporary folder)")
    ap.add_argument("--json", default="bench/vehicle.json")
    args = ap.parse_args(argv)
    from .vehicle import build_model, summary, write_deck
    work = pathlib.Path(args.workdir or tempfile.mkdtemp(prefix="parcae_vehicle_"))
    configs = [tuple(int(v) for v in c.split("x")) for c in args.configs.split(",")]
    classes: Dict[str, object] = {}
    for cls in args.classes.split(","):
        t0 = time.perf_counter()
        model = build_model(cls, args.elements, args.seed)
        paths = write_deck(model, str(work / cls))
        gen_s = time.perf_counter() - t0
        s = summary(model)
        deck_bytes = sum(os.path.getsize(p) for p in paths.values())
        entry = {"model": s, "generate_s": gen_s, "deck_bytes": deck_bytes,
                 "generate_command": f"parcae generate crash --class {cls} --seed {args.seed}"
                 + (f" --elements {args.elements}" if args.elements else "") + f" -o {cls}",
                 "runs": []}
        entry.update(deck_read_rate(args.parcae, pathlib.Path(paths["main"]), deck_bytes))
        print(f"{cls}: {s['elements']} elements, {deck_bytes / 1e6:.1f} MB, generated in "
              f"{gen_s:.1f} s, read and checked at {entry['deck_read_mb_per_s']:.0f} MB/s",
              flush=True)
        runs: List[Dict[str, object]] = []
        for np_, threads in configs:
            r = run(args.parcae, pathlib.Path(paths["main"]), work / cls / f"run_{np_}x{threads}",
                    np_, threads, args.cycles, args.mpi)
            derive(r, s["elements"])
            runs.append(r)
            print(f"  np {np_} x {threads} threads: {r.get('elapsed_s')} s, "
                  f"{r.get('us_per_element_cycle_per_core', float('nan')):.3f} us/element-cycle "
                  f"per core, contact ratio {r.get('contact_ratio', float('nan')):.2f}, peak "
                  f"{r.get('peak_rss_max_mib')} MiB/rank, {r.get('bytes_per_element')} B/element",
                  flush=True)
        entry["runs"] = runs
        classes[cls] = entry
    out = {"benchmark": "parcae_vehicle_classes",
           "metadata": {**machine_metadata(), "mpi": args.mpi, "cycles": args.cycles,
                        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                        "command": "python -m parcae_tools.vehicle_bench " + " ".join(
                            argv if argv is not None else sys.argv[1:])},
           "classes": classes,
           "results": [{"name": f"{cls}_us_per_element_cycle_per_core_np{r['np']}_t{r['threads']}",
                        "value": r.get("us_per_element_cycle_per_core"), "unit": "us"}
                       for cls, e in classes.items() for r in e["runs"]] +
                      [{"name": f"{cls}_bytes_per_element_np{r['np']}_t{r['threads']}",
                        "value": r.get("bytes_per_element"), "unit": "B"}
                       for cls, e in classes.items() for r in e["runs"]],
           "goals": {"bytes_per_element": 1024, "setup_share_of_1000_cycles": 0.10,
                     "deck_read_mb_per_s": 100,
                     "us_per_element_cycle_per_core": 0.07}}
    path = pathlib.Path(args.json)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=1))
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
