"""Interconnect what-if: predict elapsed time, jobs/day and MPI share of a run on a network
(and scale) that was not measured, from the MPI profile of a run that was.

    parcae whatif PROFILE_DIR --network NAME [--nodes N --ranks-per-node R] [--json]
    parcae whatif PROFILE_DIR --latency 30us --bandwidth 1Gbit/s [...]
    parcae whatif PROFILE_DIR --engine smpi --network NAME   # SimGrid SMPI trace replay
    parcae whatif validate BASE_PROFILE MEASURED_PROFILE --network NAME   # prediction error
    parcae whatif calibrate [--mpi openmpi] [--max-bytes N]   # fit shm and tcp-loopback
    parcae whatif networks                                    # the presets

The analytic alpha-beta(-gamma) engine (docs/cluster_study.md has the assumptions):

* compute per rank = the rank's elapsed time minus its time in MPI (profile ``app_s``);
  ``MPI_Init`` and functions the model does not cost (MPI-IO, Probe) keep their measured time;
* point-to-point: every sent message (Send, Isend, Sendrecv, ... from the profile's calls and
  log2 size histogram) costs alpha + bytes x beta; receives and completions (Recv, Wait*,
  Test*) cost nothing of their own (the message is costed once, at its sender; exchanges are
  full duplex);
* collectives: the algorithms MPI libraries choose by size (Thakur, Rabenseifner & Gropp,
  "Optimization of collective communication operations in MPICH", IJHPCA 2005): allreduce by
  recursive doubling (small) or reduce-scatter + allgather (Rabenseifner / ring, large), bcast
  binomial or scatter + allgather, barrier by dissemination, ...; with several ranks per node,
  allreduce and barrier are hierarchical (intra-node stage on ``--intra``, default shm);
* elapsed = max over ranks of (compute + MPI); every rank finishes with the slowest, so its
  MPI share is (elapsed - compute) / elapsed.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time
from typing import Dict, List, Optional, Sequence, Tuple

from . import profile as prof_mod

PRESETS_FILE = pathlib.Path(__file__).with_name("networks.yaml")

# Functions whose calls are messages costed at the sender.
P2P_SEND = {"MPI_Send", "MPI_Ssend", "MPI_Bsend", "MPI_Rsend", "MPI_Isend", "MPI_Issend",
            "MPI_Irsend", "MPI_Ibsend", "MPI_Send_init", "MPI_Sendrecv",
            "MPI_Sendrecv_replace"}
# Costed through their sender, or pure completion/local calls.
FREE = {"MPI_Recv", "MPI_Irecv", "MPI_Recv_init", "MPI_Wait", "MPI_Waitall", "MPI_Waitany",
        "MPI_Waitsome", "MPI_Test", "MPI_Testall", "MPI_Testany", "MPI_Testsome",
        "MPI_Start", "MPI_Startall", "MPI_Iprobe"}
COLLECTIVES = {"MPI_Barrier", "MPI_Ibarrier", "MPI_Bcast", "MPI_Ibcast", "MPI_Reduce",
               "MPI_Ireduce", "MPI_Allreduce", "MPI_Iallreduce", "MPI_Gather", "MPI_Gatherv",
               "MPI_Scatter", "MPI_Scatterv", "MPI_Allgather", "MPI_Allgatherv",
               "MPI_Iallgather", "MPI_Alltoall", "MPI_Ialltoall", "MPI_Alltoallv",
               "MPI_Alltoallw", "MPI_Reduce_scatter", "MPI_Reduce_scatter_block", "MPI_Scan",
               "MPI_Exscan"}


class WhatifError(ValueError):
    pass


INIT = ("MPI_Init", "MPI_Init_thread")


def init_time(rank: dict) -> float:
    return sum(rank["functions"].get(n, {}).get("time_s", 0.0) for n in INIT)


def mpi_share(ranks: Sequence[dict]) -> float:
    """MPI time / elapsed over all ranks, both without MPI_Init (start-up is not part of the
    run's communication; on one rank it would otherwise be most of the MPI time)."""
    init = sum(init_time(r) for r in ranks)
    el = sum(r["elapsed_s"] for r in ranks) - init
    return (sum(r["mpi_s"] for r in ranks) - init) / el if el > 0 else 0.0


# ---------------------------------------------------------------------------------------------
# Networks


PLATEAU_B = 4096


def robust_line(table, beta_default: Optional[float]) -> Tuple[float, float]:
    """(alpha, beta) of a measured curve [(bytes, seconds)], robust to the outliers of a
    loaded machine: alpha = the median time of the sizes up to 4 KiB (latency-bound), beta =
    the median over the larger sizes of (t - alpha) / bytes."""
    pts = sorted((float(b), float(t)) for b, t in table)
    small = sorted(t for b, t in pts if b <= PLATEAU_B) or [pts[0][1]]
    alpha = small[len(small) // 2]
    slopes = sorted(max(0.0, t - alpha) / b for b, t in pts if b > PLATEAU_B)
    if slopes:
        beta = slopes[len(slopes) // 2]
    else:
        beta = beta_default if beta_default is not None else 0.0
    return alpha, max(beta, 1e-13)


class Net:
    """alpha (s), beta (s/B), gamma (s/B of reduction arithmetic)."""

    def __init__(self, name: str, alpha: float, beta: float, gamma: float, source: str = "",
                 table: Optional[Sequence[Sequence[float]]] = None,
                 allreduce_table: Optional[Sequence[Sequence[float]]] = None):
        self.name, self.alpha, self.beta, self.gamma, self.source = name, alpha, beta, gamma, source
        # Measured curves (calibrated networks): the ping-pong one-way time and the 2-rank
        # allreduce time (one recursive-doubling step as the library really does it: on a
        # loaded machine several times a one-way message), each reduced to a robust line.
        self.measured = bool(table)
        if table:
            self.alpha, self.beta = robust_line(table, self.beta)
        self.ar_line = robust_line(allreduce_table, None) if allreduce_table else None

    def msg(self, b: float) -> float:
        return self.alpha + b * self.beta

    def allreduce_step(self, b: float) -> float:
        """One recursive-doubling step of b bytes (exchange + reduce)."""
        if self.ar_line is not None:
            return self.ar_line[0] + b * self.ar_line[1]
        return self.msg(b) + b * self.gamma

    def as_dict(self) -> dict:
        return {"name": self.name, "latency_s": self.msg(0.0), "bandwidth_Bps": 1.0 / self.beta,
                "gamma_s_per_B": self.gamma, "source": self.source,
                "measured_curve": self.measured}


def calibrated_file() -> pathlib.Path:
    env = os.environ.get("PARCAE_NETWORKS_CALIBRATED")
    if env:
        return pathlib.Path(env)
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return pathlib.Path(base) / "parcae" / "networks-calibrated.yaml"


def _load_yaml(path: pathlib.Path) -> dict:
    import yaml
    try:
        with open(path, encoding="utf-8") as f:
            data = yaml.safe_load(f) or {}
    except OSError as e:
        raise WhatifError(f"{path}: {e.strerror}") from e
    except yaml.YAMLError as e:
        raise WhatifError(f"{path}: not valid YAML: {e}") from e
    if not isinstance(data, dict) or not isinstance(data.get("networks", {}), dict):
        raise WhatifError(f"{path}: expected a mapping with networks: {{name: {{latency_s, "
                          f"bandwidth_Bps, source}}}}")
    return data


def load_networks(include_calibrated: bool = True) -> Tuple[Dict[str, Net], Dict[str, str]]:
    """The presets (PARCAE_NETWORKS or networks.yaml), overridden by the calibration file.
    Returns the networks and, per name, the file it came from."""
    path = pathlib.Path(os.environ.get("PARCAE_NETWORKS") or PRESETS_FILE)
    files = [path]
    if include_calibrated and calibrated_file().exists():
        files.append(calibrated_file())
    nets: Dict[str, Net] = {}
    origin: Dict[str, str] = {}
    gamma0 = 2.5e-10
    for fpath in files:
        data = _load_yaml(fpath)
        gamma0 = float(str(data.get("default_gamma_s_per_B", gamma0)))
        for name, v in (data.get("networks") or {}).items():
            where = f"{fpath}: networks.{name}"
            if not isinstance(v, dict):
                raise WhatifError(f"{where}: expected latency_s, bandwidth_Bps, source")
            vals = {}
            for k in ("latency_s", "bandwidth_Bps"):
                x = v.get(k)
                try:  # YAML 1.1 reads 5.0e9 (no exponent sign) as a string
                    vals[k] = float(x) if not isinstance(x, bool) else -1.0
                except (TypeError, ValueError):
                    vals[k] = -1.0
                if not vals[k] > 0:
                    raise WhatifError(f"{where}.{k}: expected a positive number, got {x!r}")
            nets[name] = Net(name, vals["latency_s"], 1.0 / vals["bandwidth_Bps"],
                             float(v.get("gamma_s_per_B", gamma0)), str(v.get("source", "")),
                             v.get("pingpong"), v.get("allreduce"))
            origin[name] = str(fpath)
    return nets, origin


_UNITS_T = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9}
_UNITS_B = {"b/s": 1.0, "B/s": 1.0, "kB/s": 1e3, "MB/s": 1e6, "GB/s": 1e9, "KiB/s": 1024.0,
            "MiB/s": 2.0**20, "GiB/s": 2.0**30, "kbit/s": 125.0, "Mbit/s": 125e3,
            "Gbit/s": 125e6, "Gb/s": 125e6, "Mb/s": 125e3}


def parse_time(text: str) -> float:
    m = re.fullmatch(r"\s*([0-9.eE+-]+)\s*([a-zµ]*)\s*", str(text))
    if not m or (m.group(2) or "s") not in _UNITS_T:
        raise WhatifError(f"--latency: expected a time like 1.5us, 30e-6 or 2ms, got {text!r}")
    v = float(m.group(1)) * _UNITS_T[m.group(2) or "s"]
    if not v > 0:
        raise WhatifError(f"--latency: must be > 0, got {text!r}")
    return v


def parse_bandwidth(text: str) -> float:
    """Bytes per second from '10Gbit/s', '1.2GB/s', '117e6' (B/s)."""
    m = re.fullmatch(r"\s*([0-9.eE+-]+)\s*([A-Za-z]*/s)?\s*", str(text))
    if not m or (m.group(2) and m.group(2) not in _UNITS_B):
        raise WhatifError(f"--bandwidth: expected e.g. 10Gbit/s, 1.2GB/s or 117e6 (B/s), got "
                          f"{text!r}")
    v = float(m.group(1)) * _UNITS_B.get(m.group(2) or "B/s", 1.0)
    if not v > 0:
        raise WhatifError(f"--bandwidth: must be > 0, got {text!r}")
    return v


# ---------------------------------------------------------------------------------------------
# Collective costs (one call of `b` bytes on `p` ranks, net n)


def log2c(p: int) -> int:
    return max(0, math.ceil(math.log2(p))) if p > 1 else 0


def rec_doubling_steps(p: int) -> int:
    """Recursive doubling on p ranks: log2 p steps, plus 2 when p is not a power of two
    (the extra ranks fold in before and out after, as MPICH and Open MPI do)."""
    if p <= 1:
        return 0
    k = int(math.floor(math.log2(p)))
    return k + (2 if 2**k != p else 0)


def allreduce_cost(b: float, p: int, n: Net, library: str = "openmpi") -> float:
    if p <= 1:
        return 0.0
    short = 2048 if library == "mpich" else 10240
    if b < short:  # recursive doubling: every step exchanges and reduces the whole vector
        return rec_doubling_steps(p) * n.allreduce_step(b)
    f = (p - 1) / p
    if library == "mpich":  # Rabenseifner: recursive-halving reduce-scatter + allgather
        return 2 * log2c(p) * n.alpha + 2 * f * b * n.beta + f * b * n.gamma
    # Open MPI's ring: reduce-scatter ring + allgather ring
    return 2 * (p - 1) * n.alpha + 2 * f * b * n.beta + f * b * n.gamma


def collective_cost(name: str, b: float, p: int, n: Net, library: str = "openmpi") -> float:
    """Time of one call of collective `name` (bytes as the profiler counts them, see
    docs/profile.md) on p ranks."""
    if p <= 1:
        return 0.0
    base = name.replace("MPI_I", "MPI_") if name.startswith("MPI_I") and name != "MPI_Init" \
        else name
    L = log2c(p)
    f = (p - 1) / p
    if base == "MPI_Barrier":
        return L * n.alpha  # dissemination
    if base == "MPI_Allreduce":
        return allreduce_cost(b, p, n, library)
    if base == "MPI_Bcast":
        if b < 12288:
            return L * n.msg(b)  # binomial tree
        return (L + p - 1) * n.alpha + 2 * f * b * n.beta  # scatter + ring allgather
    if base == "MPI_Reduce":
        if b < 2048:
            return L * (n.msg(b) + b * n.gamma)  # binomial
        return 2 * L * n.alpha + 2 * f * b * n.beta + f * b * n.gamma  # Rabenseifner
    if base in ("MPI_Allgather", "MPI_Allgatherv"):  # b = this rank's block
        if b * p < 524288:
            return L * n.alpha + (p - 1) * b * n.beta  # recursive doubling / Bruck
        return (p - 1) * (n.alpha + b * n.beta)  # ring
    if base in ("MPI_Gather", "MPI_Gatherv"):  # b = this rank's block
        return L * n.alpha + (p - 1) * b * n.beta  # binomial
    if base in ("MPI_Scatter", "MPI_Scatterv"):  # b = the whole buffer at the root
        return L * n.alpha + f * b * n.beta
    if base in ("MPI_Alltoall", "MPI_Alltoallv", "MPI_Alltoallw"):  # b = all blocks sent
        return (p - 1) * (n.alpha + b / p * n.beta)  # pairwise exchange
    if base in ("MPI_Reduce_scatter", "MPI_Reduce_scatter_block"):  # b = whole vector
        return L * n.alpha + f * b * n.beta + f * b * n.gamma  # recursive halving
    if base in ("MPI_Scan", "MPI_Exscan"):
        return L * (n.msg(b) + b * n.gamma)
    raise KeyError(name)


# ---------------------------------------------------------------------------------------------
# The model


def size_classes(f: dict) -> List[Tuple[int, float]]:
    """(calls, bytes per call) classes of one function from its log2 histogram, scaled so the
    bytes add up to the recorded total (exact when all calls fall in one bin)."""
    calls, total = int(f.get("calls", 0)), float(f.get("bytes", 0))
    hist = list(f.get("hist") or [])
    if calls <= 0:
        return []
    if not hist or sum(hist) != calls:
        return [(calls, total / calls)]
    rep = [0.0] + [1.5 * 2.0**(k - 1) if k > 1 else 1.0 for k in range(1, len(hist))]
    est = sum(c * r for c, r in zip(hist, rep))
    scale = total / est if est > 0 else 0.0
    return [(c, r * scale) for c, r in zip(hist, rep) if c > 0]


def base_network_name(profile: dict) -> Optional[str]:
    """The network a single-host profile was measured on, from its transport metadata."""
    meta = profile.get("metadata", {})
    if len(meta.get("hosts") or []) > 1:
        return None
    t = str(meta.get("transport", "default"))
    if "tcp" in t:
        return "tcp-loopback"
    if any(x in t for x in ("vader", "sm", "shm", "default")):
        return "shm"
    return None


def predict(profile: dict, net: Net, intra: Optional[Net] = None, nodes: Optional[int] = None,
            ranks_per_node: Optional[int] = None, library: Optional[str] = None,
            offnode_fraction: Optional[float] = None, neighbours: Optional[int] = None,
            base: Optional[Net] = None, work_scale: float = 1.0,
            include_init: bool = True) -> dict:
    """Predicted run of `profile` (a loaded profile.json) on network `net`.

    Scale: nodes x ranks_per_node ranks (default: every rank of the profile on its own node,
    i.e. all messages over `net`). With several ranks per node, messages between ranks of a
    node use `intra`; the fraction of point-to-point messages leaving the node is
    `offnode_fraction` (default (P - R)/(P - 1): partners spread evenly over the ranks).
    With `base` (the network the profile was measured on) and the profile's rank count, the
    model is differential: each rank keeps its measured MPI time (waits for imbalance and
    for descheduled partners included) and adds, call by call, the cost on `net` minus the
    cost on `base`. Without it (or when extrapolating) it is absolute: compute + costed calls.
    `work_scale` (a model work_scale times larger, same cycles) multiplies compute and
    scales halo bytes per message by work_scale^(2/3); it implies the absolute mode.
    A rank count other than the profile's is an extrapolation (strong scaling): compute per
    rank divides by P'/P (keeping the measured imbalance max/mean), halo bytes per message
    scale as (P/P')^(2/3) (subdomain surface), messages per rank as k(P')/k(P) with
    k(P) = min(P - 1, neighbours) (default 6: face neighbours of a 3-D bisection), and
    collective calls per rank and their sizes stay as measured.
    """
    t_start = time.perf_counter()
    ranks = profile["ranks"]
    p0 = len(ranks)
    meta = profile.get("metadata", {})
    lib = library or ("mpich" if "MPICH" in str(meta.get("mpi_flavour", "")) or
                      "MPICH" in str(meta.get("mpi_library", "")) else "openmpi")
    R = ranks_per_node or 1
    N = nodes or (max(1, math.ceil(p0 / R)))
    P = N * R
    intra = intra or net
    if P > 1 and offnode_fraction is None:
        offnode_fraction = (P - R) / (P - 1)
    f_off = 0.0 if P <= 1 else float(offnode_fraction)
    kmax = neighbours or 6
    k = lambda p: max(1, min(p - 1, kmax))
    msg_scale = k(P) / k(p0) if P != p0 and p0 > 1 else 1.0
    byte_scale = ((p0 / P) ** (2.0 / 3.0) if P != p0 else 1.0) * work_scale ** (2.0 / 3.0)
    app = [r["app_s"] for r in ranks]
    mean_app = sum(app) / len(app)
    imbalance = max(app) / mean_app if mean_app > 0 else 1.0

    def p2p(b: float) -> float:
        return f_off * net.msg(b) + (1 - f_off) * intra.msg(b)

    def coll(name: str, b: float) -> float:
        if N == 1:
            return collective_cost(name, b, R, intra, lib)
        if R == 1:
            return collective_cost(name, b, N, net, lib)
        if name in ("MPI_Allreduce", "MPI_Iallreduce"):  # reduce in node, across, bcast
            return 2 * log2c(R) * (intra.msg(b) + b * intra.gamma) + \
                allreduce_cost(b, N, net, lib)
        if name in ("MPI_Barrier", "MPI_Ibarrier"):
            return 2 * log2c(R) * intra.alpha + log2c(N) * net.alpha
        return collective_cost(name, b, P, net, lib)  # flat, every step on the network

    per_rank = []
    per_function: Dict[str, float] = {}
    kept: Dict[str, float] = {}
    differential = base is not None and P == p0 and work_scale == 1.0

    def cost(name: str, f: dict, n: Net, i: Net) -> Optional[float]:
        nonlocal net, intra
        saved = (net, intra)
        net, intra = n, i
        try:
            if name in P2P_SEND:
                return sum(c * msg_scale * p2p(b * byte_scale) for c, b in size_classes(f))
            if name in COLLECTIVES:
                return sum(c * coll(name, b) for c, b in size_classes(f))
            if name in FREE:
                return 0.0
            return None  # MPI_Init, MPI-IO, Probe: as measured
        finally:
            net, intra = saved

    for r in (ranks if P == p0 else [max(ranks, key=lambda x: x["app_s"])]):
        compute = (r["app_s"] if P == p0 else mean_app * p0 / P * imbalance) * work_scale
        comm = 0.0
        for name, f in r["functions"].items():
            t = cost(name, f, net, intra)
            if name in INIT and not include_init:
                continue
            if t is None:
                t = f["time_s"]
                kept[name] = kept.get(name, 0.0) + t
            elif differential:
                t = max(0.0, f["time_s"] + t - cost(name, f, base, base))
            per_function[name] = per_function.get(name, 0.0) + t
            comm += t
        per_rank.append({"rank": r["rank"], "compute_s": compute, "mpi_s": comm,
                         "total_s": compute + comm})
    elapsed = max(x["total_s"] for x in per_rank)
    nr = len(per_rank)
    init = sum(kept.get(n, 0.0) for n in INIT)
    # every rank ends with the slowest: its MPI time is the rest of the elapsed time
    mpi_fraction = mpi_share([{"elapsed_s": elapsed, "mpi_s": elapsed - x["compute_s"],
                               "functions": {}} for x in per_rank])
    if nr * elapsed - init > 0:
        mpi_fraction = (nr * elapsed - sum(x["compute_s"] for x in per_rank) - init) / \
            (nr * elapsed - init)
    measured = max(r["elapsed_s"] for r in ranks)
    return {
        "engine": "alpha-beta", "mode": "differential" if differential else "absolute",
        "base_network": base.as_dict() if differential else None,
        "network": net.as_dict(), "intra_node": intra.as_dict() if R > 1 else None,
        "nodes": N, "ranks_per_node": R, "ranks": P, "profile_ranks": p0,
        "mpi_library_model": lib, "offnode_fraction": f_off,
        "extrapolated": P != p0 or work_scale != 1.0, "work_scale": work_scale,
        "elapsed_s": elapsed, "jobs_per_day": 86400.0 / elapsed if elapsed > 0 else None,
        "mpi_fraction": mpi_fraction,
        "compute_s_max": max(x["compute_s"] for x in per_rank),
        "mpi_s_per_function": {k2: v / nr for k2, v in sorted(per_function.items(),
                                                             key=lambda kv: -kv[1])},
        "kept_as_measured_s": {k2: v / nr for k2, v in kept.items()},
        "per_rank": per_rank,
        "measured_elapsed_s": measured,
        "measured_mpi_fraction": mpi_share(ranks),
        "model_time_s": time.perf_counter() - t_start,
    }


# ---------------------------------------------------------------------------------------------
# Calibration


def build_dir() -> Optional[pathlib.Path]:
    exe = os.environ.get("PARCAE_EXE") or os.environ.get("PARCAE_BIN")
    cands = []
    if exe:
        cands.append(pathlib.Path(exe).resolve().parent.parent)
    cands.append(pathlib.Path(__file__).resolve().parents[2] / "build" / "release")
    for c in cands:
        if (c / "bench" / "mpiprof").is_dir():
            return c
    return None


def pingpong_exe(mpi: str) -> Optional[pathlib.Path]:
    b = build_dir()
    if b is None:
        return None
    p = b / "bench" / "mpiprof" / f"parcae_pingpong_{mpi}"
    return p if p.exists() else None


def fit_alpha_beta(points: Sequence[Tuple[float, float]]) -> Tuple[float, float]:
    """Least squares of t = alpha + beta b in relative error (each point weighted by 1/t),
    so small and large messages count alike."""
    s = [[0.0, 0.0], [0.0, 0.0]]
    rhs = [0.0, 0.0]
    for b, t in points:
        if t <= 0:
            continue
        w = 1.0 / (t * t)
        s[0][0] += w
        s[0][1] += w * b
        s[1][1] += w * b * b
        rhs[0] += w * t
        rhs[1] += w * b * t
    s[1][0] = s[0][1]
    det = s[0][0] * s[1][1] - s[0][1] * s[1][0]
    if abs(det) < 1e-300:
        raise WhatifError("calibration: not enough distinct message sizes to fit")
    alpha = (rhs[0] * s[1][1] - s[0][1] * rhs[1]) / det
    beta = (s[0][0] * rhs[1] - s[1][0] * rhs[0]) / det
    small = min(t for b, t in points)
    return max(alpha, 0.2 * small), max(beta, 1e-13)


def launch_cmd(mpi: str, transport: str) -> List[str]:
    if mpi == "openmpi":
        cmd = ["mpirun.openmpi", "-np", "2", "--bind-to", "none", "--oversubscribe"]
        if os.geteuid() == 0:
            cmd.append("--allow-run-as-root")
        cmd += ["--mca", "btl", "self,tcp", "--mca", "btl_tcp_if_include", "lo"] \
            if transport == "tcp" else ["--mca", "btl", "self,vader"]
        return cmd
    cmd = ["mpirun.mpich", "-np", "2"]
    return cmd + (["-iface", "lo", "-genv", "MPIR_CVAR_NOLOCAL", "1", "-genv", "UCX_TLS",
                   "tcp,self", "-genv", "UCX_NET_DEVICES", "lo"] if transport == "tcp" else [])


def calibrate(mpi: str = "openmpi", max_bytes: int = 1 << 20, out=sys.stdout,
              path: Optional[pathlib.Path] = None, scale: float = 0.25,
              namespaces: bool = False) -> dict:
    """Fit shm and tcp-loopback (or, with namespaces, the 2-host namespace link uncapped and
    capped at 1 Gbit/s: ns-veth, ns-1gbit; needs root) and store them."""
    exe = pingpong_exe(mpi)
    if exe is None:
        raise WhatifError(f"calibration: parcae_pingpong_{mpi} is not built (cmake --build "
                          f"--preset release builds it with parcae)")
    env = {**os.environ, "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}
    env.pop("LD_PRELOAD", None)
    path = path or calibrated_file()
    result = {"networks": {}}
    if path.exists():  # keep the other library's entries
        result["networks"] = dict(_load_yaml(path).get("networks") or {})
    suffix = "" if mpi == "openmpi" else f"@{mpi}"
    cases = [("shm" + suffix, "shm"), ("tcp-loopback" + suffix, "tcp")]
    if namespaces:
        cases = [("ns-veth" + suffix, None), ("ns-1gbit" + suffix, "1gbit")]
    for name, transport in cases:
        t0 = time.perf_counter()
        if namespaces:
            from . import cluster as cl
            cl.down("pcc")
            with cl.cluster(2, "pcc", transport) as st:
                cmd = cl.mpirun_command(st, 2, [str(exe), str(max_bytes), str(scale)], mpi)
                p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
            transport = f"2 namespaces, tcp, cap {transport or 'none'}"
        else:
            cmd = launch_cmd(mpi, transport) + [str(exe), str(max_bytes), str(scale)]
            p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
        if p.returncode != 0:
            raise WhatifError(f"calibration: {' '.join(cmd)} failed:\n{p.stderr[-1500:]}")
        data = json.loads(p.stdout.strip().splitlines()[-1])
        pts = [(float(b), float(t)) for b, t in data["pingpong"]]
        alpha, beta = robust_line(pts, None)
        worst = sorted(abs(alpha + beta * b - t) / t for b, t in pts)[len(pts) // 2]
        result["networks"][name] = {
            "latency_s": float(f"{alpha:.4g}"), "bandwidth_Bps": float(f"{1.0 / beta:.4g}"),
            "source": (f"parcae whatif calibrate {time.strftime('%Y-%m-%d %H:%M')}: "
                       f"{mpi} {transport} ping-pong 0 B..{max_bytes} B on "
                       f"{os.uname().nodename}, median fit error {100 * worst:.0f} %"),
            "pingpong": [[int(b), t] for b, t in pts],
            "allreduce": data.get("allreduce", [])}
        print(f"{name}: alpha {alpha * 1e6:.2f} us, bandwidth {1e-9 / beta:.2f} GB/s "
              f"(median fit error {100 * worst:.0f} %, {time.perf_counter() - t0:.1f} s)",
              file=out, flush=True)
    import yaml
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text("# written by `parcae whatif calibrate`; overrides networks.yaml\n" +
                   yaml.safe_dump(result, sort_keys=False))
    os.replace(tmp, path)
    print(f"wrote {path}", file=out)
    return result


def resolve_network(name: str, auto_calibrate: bool = True, out=None) -> Net:
    """A network by name; `shm` and `tcp-loopback` (Open MPI) or `shm@mpich` and
    `tcp-loopback@mpich` are measured on first use when no calibration holds them."""
    out = out or sys.stderr
    nets, origin = load_networks()
    base, _, lib = name.partition("@")
    lib = lib or "openmpi"
    if base in ("shm", "tcp-loopback") and origin.get(name) != str(calibrated_file()) \
            and auto_calibrate and pingpong_exe(lib) is not None:
        print(f"whatif: no calibration of {name} in {calibrated_file()}; measuring {lib} shm "
              f"and tcp-loopback now (once)", file=out, flush=True)
        calibrate(mpi=lib, out=out)
        nets, origin = load_networks()
    if name not in nets and lib != "openmpi" and base in nets:
        return nets[base]
    if name not in nets:
        raise WhatifError(f"unknown network {name!r} (known: {', '.join(sorted(nets))})")
    return nets[name]


# ---------------------------------------------------------------------------------------------
# Output


def text_report(res: dict) -> str:
    n = res["network"]
    lines = [f"model: {res['engine']}, {res['mode']}"
             + (f" (measured on {res['base_network']['name']})" if res["base_network"] else ""),
             f"network {n['name']}: latency {n['latency_s'] * 1e6:.2f} us, bandwidth "
             f"{n['bandwidth_Bps'] / 1e9:.3f} GB/s"
             + (f" (intra-node {res['intra_node']['name']})" if res["intra_node"] else ""),
             f"scale: {res['nodes']} node(s) x {res['ranks_per_node']} rank(s) per node"
             + (f" (extrapolated from {res['profile_ranks']} ranks)" if res["extrapolated"]
                else ""),
             f"predicted elapsed {res['elapsed_s']:.4f} s, {res['jobs_per_day']:,.0f} jobs/day, "
             f"MPI {100 * res['mpi_fraction']:.1f} %",
             f"measured (profile) elapsed {res['measured_elapsed_s']:.4f} s, MPI "
             f"{100 * res['measured_mpi_fraction']:.1f} %",
             "MPI time per rank by function (predicted):"]
    for k, v in res["mpi_s_per_function"].items():
        if v > 0:
            lines.append(f"  {k:<22} {v:.4f} s" + ("  (as measured)"
                                                   if k in res["kept_as_measured_s"] else ""))
    if res["engine"] == "smpi":
        sm = res["smpi"]
        lines.append(f"(SimGrid SMPI replay of {sm['cycles']} synthetic cycles"
                     + (f", time x {sm['time_scale']:.3g}" if sm["time_scale"] != 1 else "")
                     + f": simulated {sm['simulated_s']:.4f} s, replay wall "
                       f"{res['replay_wall_s']:.2f} s)")
    else:
        lines.append(f"(analytic model: {res['model_time_s'] * 1e3:.1f} ms)")
    return "\n".join(lines) + "\n"


def load_profile(path: str) -> dict:
    try:
        return prof_mod.load(path)
    except prof_mod.ProfileError as e:
        raise WhatifError(str(e)) from e


USAGE = __doc__.split("\n\n")[1]


def validate_results(records: List[dict], target: str = "tcp", base: str = "shm",
                     network: str = "tcp-loopback", auto_calibrate: bool = True,
                     mode: str = "differential", axis: str = "transport",
                     base_network: Optional[str] = None) -> List[dict]:
    """Predict every `target`-transport configuration of a campaign's results from the
    `base`-transport runs of the same deck, ranks, threads, library and decomposition:
    the median of the predictions from each base repeat against the median measured
    (profile) elapsed time of the target repeats."""
    from .campaign import latest_ok
    import statistics
    groups: Dict[tuple, Dict[str, List[dict]]] = {}
    for r in latest_ok(records):
        if r["ranks"] < 2 or not r.get("profile") or str(r[axis]) not in (target, base):
            continue
        key = (r["campaign"], r["deck"], r["ranks"], r["threads"], r["mpi"], r["decomposition"],
               *(r[k] for k in ("transport", "hosts", "link") if k != axis))
        groups.setdefault(key, {}).setdefault(str(r[axis]), []).append(r)
    out = []
    for key, by in sorted(groups.items()):
        if target not in by or base not in by:
            continue
        # MPICH's hydra `-iface lo` alone only picks the interface: on one host its ranks
        # still talk through shared memory (parcae's launcher now adds MPIR_CVAR_NOLOCAL and
        # UCX_TLS=tcp); compare only runs that really used TCP.
        def is_tcp(r: dict) -> bool:
            return "tcp" in str(r["profile"]["metadata"].get("transport")) or \
                "UCX_TLS tcp" in str(r.get("launch_command", ""))
        if axis == "transport" and target == "tcp" and not all(is_tcp(r) for r in by[target]):
            continue
        suffix = "" if key[4] == "openmpi" else f"@{key[4]}"
        net = resolve_network(network + suffix, auto_calibrate)
        bnet = resolve_network((base_network or base_network_name(by[base][0]["profile"])
                                or "shm") + suffix, auto_calibrate)
        preds = [predict(r["profile"], net, library=r["mpi"],
                         base=bnet if mode == "differential" else None)["elapsed_s"]
                 for r in by[base]]
        meas = [max(x["elapsed_s"] for x in r["profile"]["ranks"]) for r in by[target]]
        bmeas = [max(x["elapsed_s"] for x in r["profile"]["ranks"]) for r in by[base]]
        pm, mm = statistics.median(preds), statistics.median(meas)
        out.append({"network": net.name, "base_network": bnet.name, "mode": mode,
                    "deck": key[1], "ranks": key[2], "threads": key[3], "mpi": key[4],
                    "decomposition": key[5], "base_elapsed_s": statistics.median(bmeas),
                    "predicted_elapsed_s": pm, "measured_elapsed_s": mm,
                    "error": pm / mm - 1.0, "n_base": len(preds), "n_target": len(meas)})
    return out


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 1
    try:
        if argv[0] == "calibrate":
            ap = argparse.ArgumentParser(prog="parcae whatif calibrate")
            ap.add_argument("--mpi", default="openmpi", choices=["openmpi", "mpich"])
            ap.add_argument("--max-bytes", type=int, default=1 << 20)
            ap.add_argument("--scale", type=float, default=0.25,
                            help="iterations per size x this (more: steadier, slower)")
            ap.add_argument("--out", help="calibration file (default: "
                                          f"{calibrated_file()})")
            ap.add_argument("--namespaces", action="store_true",
                            help="fit the 2-host namespace link, uncapped (ns-veth) and capped "
                                 "at 1 Gbit/s (ns-1gbit) instead (root)")
            a = ap.parse_args(argv[1:])
            calibrate(a.mpi, a.max_bytes, path=pathlib.Path(a.out) if a.out else None,
                      scale=a.scale, namespaces=a.namespaces)
            return 0
        if argv[0] == "validate-results":
            ap = argparse.ArgumentParser(prog="parcae whatif validate-results")
            ap.add_argument("results", help="a campaign's results (JSON lines)")
            ap.add_argument("--network", default="tcp-loopback")
            ap.add_argument("--mode", choices=["differential", "absolute"],
                            default="differential")
            ap.add_argument("--axis", default="transport", choices=["transport", "link"],
                            help="what differs between base and target runs")
            ap.add_argument("--base", default="shm", help="base value of the axis (shm, none)")
            ap.add_argument("--target", default="tcp", help="target value (tcp, 1gbit)")
            ap.add_argument("--base-network", help="network of the base runs (default: from "
                                                   "their transport)")
            ap.add_argument("--json", action="store_true")
            a = ap.parse_args(argv[1:])
            from .campaign import read_results
            rows = validate_results(read_results(a.results), a.target, a.base, a.network,
                                    mode=a.mode, axis=a.axis, base_network=a.base_network)
            if a.json:
                print(json.dumps(rows))
                return 0
            print(f"{a.axis} {a.base} -> {a.target}: {a.network} predicted from the {a.base} "
                  f"runs ({a.mode})")
            print(f"{'deck':<12}{'np':>3} {'mpi':<8}{'decomp':<8}{'base s':>8}{'predicted':>10}"
                  f"{'measured':>10}{'error':>9}")
            for r in rows:
                print(f"{r['deck']:<12}{r['ranks']:>3} {r['mpi']:<8}{r['decomposition']:<8}"
                      f"{r['base_elapsed_s']:8.3f}{r['predicted_elapsed_s']:10.3f}"
                      f"{r['measured_elapsed_s']:10.3f}{100 * r['error']:+8.1f}%")
            if rows:
                errs = sorted(abs(r["error"]) for r in rows)
                print(f"median |error| {100 * errs[len(errs) // 2]:.1f} %, max "
                      f"{100 * errs[-1]:.1f} %")
            return 0
        if argv[0] == "scan":
            ap = argparse.ArgumentParser(prog="parcae whatif scan")
            ap.add_argument("profile")
            ap.add_argument("--networks", default="1gbe,10gbe,edr")
            ap.add_argument("--nodes", default="1,2,4,8,16,32")
            ap.add_argument("--ranks-per-node", type=int, default=28)
            ap.add_argument("--work-scale", type=float, default=1.0,
                            help="model size / profiled model size (same cycles)")
            ap.add_argument("--intra", default="shm")
            ap.add_argument("--png", help="write jobs/day against nodes here")
            ap.add_argument("--json", action="store_true")
            a = ap.parse_args(argv[1:])
            prof = load_profile(a.profile)
            intra = resolve_network(a.intra, False)
            rows = []
            for name in a.networks.split(","):
                net = resolve_network(name, False)
                for n in (int(x) for x in a.nodes.split(",")):
                    r = predict(prof, net, intra, n, a.ranks_per_node, work_scale=a.work_scale,
                                include_init=False)  # start-up is not part of a long job
                    rows.append({"network": name, "nodes": n, "ranks": r["ranks"],
                                 "elapsed_s": r["elapsed_s"], "jobs_per_day": r["jobs_per_day"],
                                 "mpi_fraction": r["mpi_fraction"]})
            if a.json:
                print(json.dumps(rows))
            else:
                print(f"{'network':<10}{'nodes':>6}{'ranks':>7}{'elapsed s':>12}{'jobs/day':>12}"
                      f"{'MPI %':>8}")
                for r in rows:
                    print(f"{r['network']:<10}{r['nodes']:>6}{r['ranks']:>7}"
                          f"{r['elapsed_s']:12.3f}{r['jobs_per_day']:12,.0f}"
                          f"{100 * r['mpi_fraction']:8.1f}")
            if a.png:
                import matplotlib
                matplotlib.use("Agg")
                import matplotlib.pyplot as plt
                fig, ax = plt.subplots(figsize=(6, 4))
                for name in a.networks.split(","):
                    pts = [r for r in rows if r["network"] == name]
                    ax.plot([r["nodes"] for r in pts], [r["jobs_per_day"] for r in pts],
                            marker="o", label=name)
                ax.set_xscale("log", base=2)
                ax.set_xlabel(f"nodes ({a.ranks_per_node} ranks each)")
                ax.set_ylabel("jobs / day (predicted)")
                ax.set_title("parcae whatif scan (alpha-beta, extrapolated)")
                ax.grid(alpha=0.3)
                ax.legend()
                fig.tight_layout()
                fig.savefig(a.png, dpi=110)
                print(f"wrote {a.png}")
            return 0
        if argv[0] == "networks":
            nets, origin = load_networks()
            for name, n in nets.items():
                print(f"{name:<14} {n.alpha * 1e6:8.2f} us  {1e-9 / n.beta:8.3f} GB/s   "
                      f"{origin[name]}")
            return 0
        ap = argparse.ArgumentParser(prog="parcae whatif")
        validate = argv[0] == "validate"
        if validate:
            argv = argv[1:]
        ap.add_argument("profile", help="profile directory or profile.json of a measured run")
        if validate:
            ap.add_argument("measured", help="profile of the run to predict (the truth)")
        ap.add_argument("--network", help="preset name (parcae whatif networks)")
        ap.add_argument("--latency", help="alpha, e.g. 1.5us")
        ap.add_argument("--bandwidth", help="1/beta, e.g. 10Gbit/s or 1.2GB/s")
        ap.add_argument("--intra", default="shm", help="network between ranks of one node")
        ap.add_argument("--nodes", type=int)
        ap.add_argument("--ranks-per-node", type=int)
        ap.add_argument("--offnode-fraction", type=float)
        ap.add_argument("--neighbours", type=int, help="halo partners per rank (default 6)")
        ap.add_argument("--mpi", choices=["openmpi", "mpich"],
                        help="collective algorithms of this library (default: the profile's)")
        ap.add_argument("--no-calibrate", action="store_true",
                        help="never measure shm/tcp-loopback; use the stored values")
        ap.add_argument("--work-scale", type=float, default=1.0,
                        help="predict a model this many times larger (same cycles)")
        ap.add_argument("--base-network", default="auto",
                        help="network the profile was measured on (differential model; "
                             "default: from its transport), or none (absolute model)")
        ap.add_argument("--engine", choices=["alpha-beta", "smpi"], default="alpha-beta",
                        help="analytic model, or SimGrid SMPI replaying a trace synthesised "
                             "from the profile (absolute; needs smpirun)")
        ap.add_argument("--cycles", type=int, default=20000,
                        help="smpi: most cycles replayed (a longer run is scaled)")
        ap.add_argument("--keep-trace", help="smpi: write the traces and platform here")
        ap.add_argument("--json", action="store_true", help="one JSON object on stdout")
        a = ap.parse_args(argv)
        if bool(a.network) == bool(a.latency or a.bandwidth):
            raise WhatifError("give --network NAME, or --latency and --bandwidth")
        if a.network:
            net = resolve_network(a.network, not a.no_calibrate)
        else:
            if not (a.latency and a.bandwidth):
                raise WhatifError("--latency and --bandwidth go together")
            nets, _ = load_networks(False)
            gamma = next(iter(nets.values())).gamma if nets else 2.5e-10
            net = Net("custom", parse_time(a.latency), 1.0 / parse_bandwidth(a.bandwidth),
                      gamma, "command line")
        for flag in ("nodes", "ranks_per_node"):
            v = getattr(a, flag)
            if v is not None and v < 1:
                raise WhatifError(f"--{flag.replace('_', '-')}: must be >= 1")
        intra = None
        if (a.ranks_per_node or 1) > 1:
            intra = resolve_network(a.intra, not a.no_calibrate)
        prof = load_profile(a.profile)
        base_name = base_network_name(prof) if a.base_network == "auto" else \
            (None if a.base_network == "none" else a.base_network)
        base = resolve_network(base_name, not a.no_calibrate) if base_name else None
        if a.engine == "smpi":
            from . import whatif_smpi
            if (a.nodes not in (None, len(prof["ranks"])) or (a.ranks_per_node or 1) > 1
                    or a.work_scale != 1.0 or a.offnode_fraction is not None):
                raise WhatifError("--engine smpi: replays the profile's ranks one per node; "
                                  "--nodes, --ranks-per-node, --work-scale and "
                                  "--offnode-fraction are for the alpha-beta engine")
            if a.cycles < 1:
                raise WhatifError("--cycles: must be >= 1")
            res = whatif_smpi.predict(prof, net, max_cycles=a.cycles, neighbours=a.neighbours,
                                      keep_dir=a.keep_trace)
        else:
            res = predict(prof, net, intra, a.nodes, a.ranks_per_node, a.mpi,
                          a.offnode_fraction, a.neighbours, base, a.work_scale)
        res["profile"] = prof.get("source", a.profile)
        if validate:
            truth = load_profile(a.measured)
            meas = max(r["elapsed_s"] for r in truth["ranks"])
            res["validation"] = {
                "measured_profile": truth.get("source", a.measured), "measured_elapsed_s": meas,
                "measured_mpi_fraction": mpi_share(truth["ranks"]),
                "error": res["elapsed_s"] / meas - 1.0,
                "base_error": res["measured_elapsed_s"] / meas - 1.0}
        if a.json:
            print(json.dumps(res, indent=None))
        else:
            sys.stdout.write(text_report(res))
            if validate:
                v = res["validation"]
                print(f"validation: measured {v['measured_elapsed_s']:.4f} s (MPI "
                      f"{100 * v['measured_mpi_fraction']:.1f} %), predicted "
                      f"{res['elapsed_s']:.4f} s: error {100 * v['error']:+.1f} % (the base "
                      f"run itself differs by {100 * v['base_error']:+.1f} %)")
        return 0
    except WhatifError as e:
        print(f"parcae whatif: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
