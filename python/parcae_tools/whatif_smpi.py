"""SimGrid SMPI engine of `parcae whatif` (issue 15): replay a time-independent (TI) trace,
synthesised from an aggregated parcae profile, on a platform built from a network preset.

    parcae whatif PROFILE --engine smpi --network NAME [--cycles N] [--keep-trace DIR] [--json]

The profile holds per rank only aggregates (calls, bytes, log2 size histogram, time per MPI
function), so the trace is a synthetic, periodic stand-in for the run (docs/cluster_study.md):

* C cycles; C = the point-to-point sends of a rank / its partners (median over ranks), or the
  allreduce count when there is no point-to-point traffic; at most --cycles (default 20000):
  a longer run is replayed for C' cycles and its time scaled by C / C' (periodic run);
* each cycle: compute (the rank's non-MPI time app_s / C, as flops on 1 Gflop/s hosts); an
  isend of the rank's mean message size to every partner and an irecv of each partner's mean
  size; waitall; then the cycle's share of the allreduces (mean size) and barriers;
* partners: ranks r +- 1 .. r +- ceil(k / 2) modulo P, k = min(P - 1, --neighbours or 6)
  (the profile records no partners; with 2 ranks the partner is the other rank);
* allreduce sizes: rank 0's log2 size classes (as the analytic engine reads them), spread
  over the cycles; barriers replayed; the other collectives (gather, bcast, ...) are costed
  with the analytic engine's formulas and added; MPI_Init, MPI-IO and Probe keep their
  measured time (added to the elapsed time, as the analytic engine does);
* platform: one host per rank, SimGrid's <cluster> with a private link per host
  (latency alpha / 2 each way so a message crosses alpha, bandwidth 1/beta), loopback from
  `intra`; SMPI's piecewise bandwidth/latency correction factors are set to 1 and cross
  traffic off, so the platform is the preset's alpha-beta line; collectives use SMPI's
  Open MPI selector (`smpi/coll-selector:ompi`) except allreduce, which is pinned to the
  analytic engine's choice (recursive doubling `rdb` below 10 KiB, ring `lr` above): SMPI
  3.32's selector picks the logical ring even for 8-byte allreduces on 4 ranks.
"""
from __future__ import annotations

import math
import os
import pathlib
import re
import shutil
import subprocess
import tempfile
import time
from typing import Dict, List, Optional

from . import whatif as W

HOST_SPEED = 1e9  # flop/s of the simulated hosts: compute seconds x 1e9 = flops
SIM_RE = re.compile(r"Simulation time\s+([0-9.eE+-]+)")
SMPI_CFG = ["--cfg=smpi/bw-factor:0:1.0", "--cfg=smpi/lat-factor:0:1.0",
            "--cfg=network/crosstraffic:0", "--cfg=smpi/coll-selector:ompi",
            "--log=root.thres:critical", "--log=smpi_replay.thres:info"]
TI_COLLECTIVES = ("MPI_Allreduce", "MPI_Iallreduce", "MPI_Barrier", "MPI_Ibarrier")


def smpirun() -> Optional[str]:
    return shutil.which("smpirun")


def partners(r: int, p: int, neighbours: Optional[int]) -> List[int]:
    if p <= 1:
        return []
    k = max(1, min(p - 1, neighbours or 6))
    out = []
    for d in range(1, math.ceil(k / 2) + 1):
        for s in ((r + d) % p, (r - d) % p):
            if s != r and s not in out:
                out.append(s)
    return out


def _split(total: int, cycles: int, i: int) -> int:
    """Calls of a total spread evenly over cycles: how many fall in cycle i."""
    return (i + 1) * total // cycles - i * total // cycles


def synthesise(profile: dict, net: W.Net, max_cycles: int = 20000,
               neighbours: Optional[int] = None) -> dict:
    """Per-rank TI action lists and what the engine adds outside the replay."""
    ranks = profile["ranks"]
    p = len(ranks)
    part = [partners(r, p, neighbours) for r in range(p)]
    sends, sbytes, ar, arbytes, bar, kept = [], [], [], [], [], []
    for i, r in enumerate(ranks):
        fn = r["functions"]
        n = sum(int(f.get("calls", 0)) for k, f in fn.items() if k in W.P2P_SEND)
        b = sum(float(f.get("bytes", 0)) for k, f in fn.items() if k in W.P2P_SEND)
        sends.append(n)
        sbytes.append(b / n if n else 0.0)
        a = sum(int(fn.get(k, {}).get("calls", 0)) for k in ("MPI_Allreduce", "MPI_Iallreduce"))
        ab = sum(float(fn.get(k, {}).get("bytes", 0)) for k in ("MPI_Allreduce",
                                                               "MPI_Iallreduce"))
        ar.append(a)
        arbytes.append(ab / a if a else 0.0)
        bar.append(sum(int(fn.get(k, {}).get("calls", 0)) for k in ("MPI_Barrier",
                                                                     "MPI_Ibarrier")))
        kept.append(sum(float(f.get("time_s", 0.0)) for k, f in fn.items()
                        if k not in W.P2P_SEND and k not in W.FREE and k not in W.COLLECTIVES))
    med = lambda xs: sorted(xs)[len(xs) // 2]  # noqa: E731
    exch = med([s / len(pp) for s, pp in zip(sends, part)]) if p > 1 else 0
    n_bar = med(bar)
    n_ar = ar[0]  # collectives are called by every rank alike: rank 0's count and sizes
    real_cycles = max(1, round(exch) if exch >= 1 else (n_ar or 1))
    cycles = min(real_cycles, max_cycles)
    scale = real_cycles / cycles
    # allreduce sizes of one synthetic cycle sequence: rank 0's size classes (log2
    # histogram), each class's calls scaled down with the cycles, interleaved
    fa = ranks[0]["functions"].get("MPI_Allreduce") or \
        ranks[0]["functions"].get("MPI_Iallreduce") or {}
    ar_sizes: List[float] = []
    for c, b in W.size_classes(fa):
        ar_sizes += [b] * round(c / scale)
    n = len(ar_sizes)
    if n % 7919:  # interleave the classes: j -> 7919 j mod n is a permutation (7919 is prime)
        ar_sizes = [ar_sizes[(j * 7919) % n] for j in range(n)]
    n_ar_s, n_bar_s = len(ar_sizes), round(n_bar / scale)
    ar_size = arbytes[0]
    gamma_flops = lambda b: 0.0  # noqa: E731
    if net.gamma > 0 and p > 1:  # reduction arithmetic as the analytic engine costs it
        f = (p - 1) / p
        gamma_flops = lambda b: (W.rec_doubling_steps(p) if b < 10240 else f) * b * \
            net.gamma * HOST_SPEED  # noqa: E731
    # collectives the trace does not replay: costed with the analytic formulas
    analytic = 0.0
    for k, fd in ranks[0]["functions"].items():
        if k in W.COLLECTIVES and k not in TI_COLLECTIVES:
            analytic += sum(c * W.collective_cost(k, b, p, net) for c, b in W.size_classes(fd))
    traces = []
    for i, r in enumerate(ranks):
        comp = r["app_s"] / real_cycles * HOST_SPEED
        lines = [f"{i} init"]
        for c in range(cycles):
            if comp > 0:
                lines.append(f"{i} compute {comp:.6g}")
            if exch >= 1:
                for s in part[i]:
                    lines.append(f"{i} isend {s} 0 {max(1, round(sbytes[i]))}")
                for s in part[i]:
                    lines.append(f"{i} irecv {s} 0 {max(1, round(sbytes[s]))}")
                lines.append(f"{i} waitall")
            for j in range(c * n_ar_s // cycles, (c + 1) * n_ar_s // cycles):
                b = max(1, round(ar_sizes[j]))
                lines.append(f"{i} allreduce {b} {gamma_flops(b):.6g}")
            for _ in range(_split(n_bar_s, cycles, c)):
                lines.append(f"{i} barrier")
        lines.append(f"{i} finalize")
        traces.append(lines)
    return {"traces": traces, "cycles": cycles, "real_cycles": real_cycles, "scale": scale,
            "partners": part, "kept_s": kept, "analytic_s": analytic, "allreduces_per_rank": n_ar,
            "allreduce_bytes": ar_size, "sends_per_rank": sends}


def platform_xml(p: int, net: W.Net, intra: W.Net) -> str:
    return (
        "<?xml version='1.0'?>\n"
        '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n'
        '<platform version="4.1">\n'
        f"  <!-- parcae whatif --engine smpi: {p} hosts, network {net.name} -->\n"
        f'  <cluster id="parcae" prefix="node" suffix="" radical="0-{p - 1}" '
        f'speed="{HOST_SPEED:.0f}f" bw="{1.0 / net.beta:.6g}Bps" lat="{net.msg(0) / 2:.6g}s" '
        f'loopback_bw="{1.0 / intra.beta:.6g}Bps" loopback_lat="{intra.msg(0):.6g}s"/>\n'
        "</platform>\n")


def predict(profile: dict, net: W.Net, intra: Optional[W.Net] = None,
            max_cycles: int = 20000, neighbours: Optional[int] = None,
            keep_dir: Optional[str] = None, timeout: float = 600.0) -> dict:
    exe = smpirun()
    if exe is None:
        raise W.WhatifError("--engine smpi: smpirun not found (apt-get install "
                            "libsimgrid-dev)")
    ranks = profile["ranks"]
    p = len(ranks)
    intra = intra or W.Net("loopback", 0.1e-6, 1e-10, 0.0)
    t0 = time.perf_counter()
    syn = synthesise(profile, net, max_cycles, neighbours)
    work = pathlib.Path(keep_dir or tempfile.mkdtemp(prefix="parcae-smpi-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        files = []
        for i, lines in enumerate(syn["traces"]):
            f = work / f"rank{i}.ti"
            f.write_text("\n".join(lines) + "\n")
            files.append(str(f.resolve()))
        (work / "traces.txt").write_text("\n".join(files) + "\n")
        (work / "platform.xml").write_text(platform_xml(p, net, intra))
        (work / "hostfile").write_text("".join(f"node{i}\n" for i in range(p)))
        # the analytic engine's Open MPI allreduce: recursive doubling below 10 KiB, ring above
        alg = "rdb" if syn["allreduce_bytes"] < 10240 else "lr"
        cmd = [exe, "-np", str(p), "-platform", str(work / "platform.xml"), "-hostfile",
               str(work / "hostfile"), "-replay", str(work / "traces.txt"), *SMPI_CFG,
               f"--cfg=smpi/allreduce:{alg}"]
        t1 = time.perf_counter()
        try:
            run = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                                 cwd=str(work))
        except subprocess.TimeoutExpired as e:
            raise W.WhatifError(f"--engine smpi: replay ran past {timeout:.0f} s "
                                f"(lower --cycles)") from e
        replay_wall = time.perf_counter() - t1
        out = run.stdout + run.stderr
        m = SIM_RE.findall(out)
        if run.returncode != 0 or not m:
            raise W.WhatifError(f"--engine smpi: {' '.join(cmd)} failed (rc "
                                f"{run.returncode}):\n{out[-1500:]}")
        simulated = max(float(x) for x in m)
    finally:
        if keep_dir is None:
            shutil.rmtree(work, ignore_errors=True)
    kept = max(syn["kept_s"])
    elapsed = simulated * syn["scale"] + kept + syn["analytic_s"]
    init = sum(W.init_time(r) for r in ranks)
    compute = [r["app_s"] for r in ranks]
    denom = p * elapsed - init
    mpi_fraction = (p * elapsed - sum(compute) - init) / denom if denom > 0 else 0.0
    return {
        "engine": "smpi", "mode": "absolute", "base_network": None,
        "network": net.as_dict(), "intra_node": None, "nodes": p, "ranks_per_node": 1,
        "ranks": p, "profile_ranks": p,
        "mpi_library_model": f"openmpi (SMPI ompi selector, allreduce {alg})",
        "offnode_fraction": 1.0 if p > 1 else 0.0, "extrapolated": False, "work_scale": 1.0,
        "elapsed_s": elapsed, "jobs_per_day": 86400.0 / elapsed if elapsed > 0 else None,
        "mpi_fraction": mpi_fraction, "compute_s_max": max(compute),
        "mpi_s_per_function": {}, "kept_as_measured_s": {"(not replayed)": kept},
        "costed_analytically_s": syn["analytic_s"],
        "per_rank": [{"rank": r["rank"], "compute_s": r["app_s"],
                      "mpi_s": elapsed - r["app_s"], "total_s": elapsed} for r in ranks],
        "measured_elapsed_s": max(r["elapsed_s"] for r in ranks),
        "measured_mpi_fraction": W.mpi_share(ranks),
        "model_time_s": time.perf_counter() - t0, "replay_wall_s": replay_wall,
        "smpi": {"simulated_s": simulated, "cycles": syn["cycles"],
                 "real_cycles": syn["real_cycles"], "time_scale": syn["scale"],
                 "partners": syn["partners"], "allreduces_per_rank": syn["allreduces_per_rank"],
                 "allreduce_bytes": syn["allreduce_bytes"], "host_speed_flops": HOST_SPEED,
                 "command": " ".join(cmd), "trace_dir": str(work) if keep_dir else None},
    }
