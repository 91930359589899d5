"""Several "hosts" on one machine: Linux network namespaces joined by veth pairs and a bridge,
with an optional token-bucket bandwidth cap per link, and an MPI launcher across them.

    parcae cluster up [--hosts 2] [--name pcl] [--rate 1gbit]   # needs root (CAP_NET_ADMIN)
    parcae cluster status [--name pcl]
    parcae cluster run [--name pcl] [--mpi openmpi|mpich] --np N [--ranks-per-host R] -- PROGRAM ARGS
    parcae cluster down [--name pcl]                            # removes everything, always

Layout (nothing is created in the machine's own network namespace, and only the private
addresses below are used, inside the namespaces):

    namespace NAME-sw : bridge br0, one veth port pI per host
    namespace NAME-hI : eth0 (veth peer of pI) with 10.213.0.(I+1)/24, lo; optional
                        `tc qdisc ... root tbf rate RATE` on eth0 (each direction of a link
                        is capped at its sender)
    /etc/netns/NAME-hI/hosts : the hosts' names (`ip netns exec` bind-mounts it on /etc/hosts)
    /run/parcae-cluster/NAME.json, NAME.hosts, NAME-rsh : state, hostfile, launch agent

Processes of host I run as `ip netns exec NAME-hI unshare --uts` with hostname NAME-hI, so MPI
sees distinct hosts. The MPI launcher runs in host 0 and starts the others through the agent
(Open MPI `plm_rsh_agent`, MPICH hydra `-launcher ssh -launcher-exec`), TCP on eth0 only.
Latency is not added (`tc netem` is not available here): the links have veth latency.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import pathlib
import re
import shlex
import signal
import subprocess
import sys
from typing import Dict, Iterator, List, Optional, Sequence

STATE_DIR = pathlib.Path(os.environ.get("PARCAE_CLUSTER_STATE", "/run/parcae-cluster"))
SUBNET = "10.213.0"


class ClusterError(RuntimeError):
    pass


def _sh(cmd: Sequence[str], check: bool = True) -> subprocess.CompletedProcess:
    p = subprocess.run(list(cmd), capture_output=True, text=True)
    if check and p.returncode != 0:
        raise ClusterError(f"{' '.join(cmd)}: {p.stderr.strip() or p.stdout.strip()}")
    return p


def _valid_name(name: str) -> str:
    if not re.fullmatch(r"[a-z][a-z0-9]{0,7}", name):
        raise ClusterError(f"--name: 1-8 lower-case letters/digits starting with a letter, got "
                           f"{name!r}")
    return name


def host_names(name: str, n: int) -> List[str]:
    return [f"{name}-h{i}" for i in range(n)]


def state_path(name: str) -> pathlib.Path:
    return STATE_DIR / f"{name}.json"


def load_state(name: str) -> Optional[dict]:
    p = state_path(name)
    return json.loads(p.read_text()) if p.exists() else None


AGENT = r"""#!/bin/sh
# parcae cluster launch agent (ssh stand-in): AGENT [-options] HOST COMMAND...
# runs COMMAND (one shell string, as ssh does) in network namespace HOST, hostname HOST.
while [ $# -gt 0 ]; do case "$1" in -*) shift ;; *) break ;; esac; done
host="$1"; shift
exec ip netns exec "$host" unshare --uts /bin/sh -c 'hostname "$0"; exec /bin/sh -c "$*"' "$host" "$@"
"""


def up(n_hosts: int = 2, name: str = "pcl", rate: Optional[str] = None) -> dict:
    """Create the hosts; on any failure everything made so far is removed."""
    _valid_name(name)
    if os.geteuid() != 0:
        raise ClusterError("parcae cluster up needs root (network namespaces, veth, tc)")
    if not 1 <= n_hosts <= 32:
        raise ClusterError("--hosts: 1 .. 32")
    if load_state(name) or _namespaces(name):
        raise ClusterError(f"cluster {name} exists: parcae cluster down --name {name} first")
    if rate is not None and not re.fullmatch(r"[0-9.]+[kmg]?bit", rate):
        raise ClusterError(f"--rate: e.g. 1gbit, 100mbit, got {rate!r}")
    hosts = host_names(name, n_hosts)
    sw = f"{name}-sw"
    try:
        _sh(["ip", "netns", "add", sw])
        _sh(["ip", "-n", sw, "link", "add", "br0", "type", "bridge"])
        _sh(["ip", "-n", sw, "link", "set", "br0", "up"])
        _sh(["ip", "-n", sw, "link", "set", "lo", "up"])
        etc_hosts = "127.0.0.1 localhost\n" + "".join(
            f"{SUBNET}.{i + 1} {h}\n" for i, h in enumerate(hosts))
        for i, h in enumerate(hosts):
            _sh(["ip", "netns", "add", h])
            _sh(["ip", "-n", sw, "link", "add", f"p{i}", "type", "veth", "peer", "name", "eth0",
                 "netns", h])
            _sh(["ip", "-n", sw, "link", "set", f"p{i}", "master", "br0"])
            _sh(["ip", "-n", sw, "link", "set", f"p{i}", "up"])
            _sh(["ip", "-n", h, "addr", "add", f"{SUBNET}.{i + 1}/24", "dev", "eth0"])
            _sh(["ip", "-n", h, "link", "set", "eth0", "up"])
            _sh(["ip", "-n", h, "link", "set", "lo", "up"])
            if rate:
                # burst: about 1 ms at the rate (at least 32 kB), queue up to 20 ms
                bits = float(rate[:-3].rstrip("kmg")) * {"k": 1e3, "m": 1e6, "g": 1e9}.get(
                    rate[-4], 1.0)
                burst = max(32768, int(bits / 8 * 1e-3))
                _sh(["ip", "netns", "exec", h, "tc", "qdisc", "add", "dev", "eth0", "root",
                     "tbf", "rate", rate, "burst", str(burst), "latency", "20ms"])
            d = pathlib.Path("/etc/netns") / h
            d.mkdir(parents=True, exist_ok=True)
            (d / "hosts").write_text(etc_hosts)
        STATE_DIR.mkdir(parents=True, exist_ok=True)
        agent = STATE_DIR / f"{name}-rsh"
        agent.write_text(AGENT)
        agent.chmod(0o755)
        state = {"name": name, "hosts": hosts,
                 "addresses": [f"{SUBNET}.{i + 1}" for i in range(n_hosts)], "rate": rate,
                 "agent": str(agent), "hostfile": str(STATE_DIR / f"{name}.hosts")}
        state_path(name).write_text(json.dumps(state, indent=1))
        return state
    except BaseException:
        down(name)
        raise


def _namespaces(name: str) -> List[str]:
    out = _sh(["ip", "netns", "list"], check=False).stdout
    return [line.split()[0] for line in out.splitlines()
            if line.split() and re.fullmatch(rf"{re.escape(name)}-(sw|h\d+)", line.split()[0])]


def down(name: str = "pcl") -> List[str]:
    """Remove the namespaces (their veths and qdiscs go with them), /etc/netns entries and
    state files of cluster `name`; works without a state file and after partial failures."""
    _valid_name(name)
    removed = []
    for ns in _namespaces(name):
        # processes left in a namespace (a killed run) would keep it alive: end them first
        pids = _sh(["ip", "netns", "pids", ns], check=False).stdout.split()
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid), signal.SIGKILL)
        _sh(["ip", "netns", "del", ns], check=False)
        removed.append(ns)
    for d in pathlib.Path("/etc/netns").glob(f"{name}-h*"):
        with contextlib.suppress(OSError):
            (d / "hosts").unlink(missing_ok=True)
            d.rmdir()
    for f in (state_path(name), STATE_DIR / f"{name}-rsh", STATE_DIR / f"{name}.hosts"):
        with contextlib.suppress(OSError):
            f.unlink(missing_ok=True)
    return removed


@contextlib.contextmanager
def cluster(n_hosts: int, name: str = "pcl", rate: Optional[str] = None) -> Iterator[dict]:
    """`with cluster(2, rate="1gbit") as c:` ... always torn down, also on SIGTERM."""
    old = signal.getsignal(signal.SIGTERM)

    def on_term(signum, frame):
        raise KeyboardInterrupt("SIGTERM")

    signal.signal(signal.SIGTERM, on_term)
    try:
        yield up(n_hosts, name, rate)
    finally:
        down(name)
        signal.signal(signal.SIGTERM, old)


def mpirun_command(state: dict, np_: int, program: Sequence[str], mpi: str = "openmpi",
                   threads: int = 1, ranks_per_host: Optional[int] = None,
                   env: Optional[Dict[str, str]] = None) -> List[str]:
    """The command (run from the machine's namespace) that starts `program` on np_ ranks
    spread over the cluster's hosts (block placement, ranks_per_host each)."""
    hosts = state["hosts"]
    rph = ranks_per_host or -(-np_ // len(hosts))
    used = -(-np_ // rph)
    if used > len(hosts):
        raise ClusterError(f"{np_} ranks at {rph} per host need {used} hosts; the cluster "
                           f"has {len(hosts)}")
    pathlib.Path(state["hostfile"]).write_text(
        "".join(f"{h} slots={rph}\n" if mpi == "openmpi" else f"{h}:{rph}\n"
                for h in hosts[:used]))
    env = {"OMP_NUM_THREADS": str(threads), **(env or {})}
    if mpi == "openmpi":
        cmd = ["mpirun.openmpi", "--allow-run-as-root", "-np", str(np_), "--hostfile",
               state["hostfile"], "--mca", "plm_rsh_agent", state["agent"], "--mca",
               "plm_rsh_no_tree_spawn", "1", "--mca", "btl", "self,vader,tcp", "--mca",
               "btl_tcp_if_include", "eth0", "--mca", "oob_tcp_if_include", "eth0",
               "--bind-to", "none", "--oversubscribe"]
        for k, v in env.items():
            cmd += ["-x", f"{k}={v}"]
    else:
        # UCX finds the namespaces' processes on one machine (same boot id) and would use
        # shared memory between "hosts": keep it on TCP over eth0 (same-host pairs too).
        env = {"UCX_TLS": "tcp,self", "UCX_NET_DEVICES": "eth0", **env}
        cmd = ["mpirun.mpich", "-np", str(np_), "-f", state["hostfile"], "-launcher", "ssh",
               "-launcher-exec", state["agent"], "-iface", "eth0"]
        for k, v in env.items():
            cmd += ["-genv", k, v]
    cmd += list(program)
    h0 = hosts[0]
    return ["ip", "netns", "exec", h0, "unshare", "--uts", "/bin/sh", "-c",
            'hostname "$0"; exec "$@"', h0] + cmd


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 1
    ap = argparse.ArgumentParser(prog=f"parcae cluster {argv[0]}")
    ap.add_argument("--name", default="pcl")
    try:
        if argv[0] == "up":
            ap.add_argument("--hosts", type=int, default=2)
            ap.add_argument("--rate", help="bandwidth cap per link and direction, e.g. 1gbit")
            a = ap.parse_args(argv[1:])
            s = up(a.hosts, a.name, a.rate)
            print(f"cluster {a.name}: {len(s['hosts'])} hosts "
                  + ", ".join(f"{h} {ip}" for h, ip in zip(s["hosts"], s["addresses"]))
                  + (f"; links capped at {a.rate}" if a.rate else "")
                  + f"\n  run: parcae cluster run --name {a.name} --np N -- PROGRAM"
                  + f"\n  remove: parcae cluster down --name {a.name}")
            return 0
        if argv[0] == "down":
            a = ap.parse_args(argv[1:])
            removed = down(a.name)
            print(f"cluster {a.name}: removed {', '.join(removed) or 'nothing (none found)'}")
            return 0
        if argv[0] == "status":
            a = ap.parse_args(argv[1:])
            s = load_state(a.name)
            print(json.dumps(s, indent=1) if s else f"cluster {a.name}: not up "
                  f"(namespaces found: {', '.join(_namespaces(a.name)) or 'none'})")
            return 0 if s else 1
        if argv[0] == "run":
            if "--" not in argv:
                raise ClusterError("parcae cluster run [options] -- PROGRAM ARGS")
            cut = argv.index("--")
            ap.add_argument("--np", type=int, required=True)
            ap.add_argument("--ranks-per-host", type=int)
            ap.add_argument("--threads", type=int, default=1)
            ap.add_argument("--mpi", default="openmpi", choices=["openmpi", "mpich"])
            a = ap.parse_args(argv[1:cut])
            s = load_state(a.name)
            if not s:
                raise ClusterError(f"cluster {a.name} is not up (parcae cluster up)")
            cmd = mpirun_command(s, a.np, argv[cut + 1:], a.mpi, a.threads, a.ranks_per_host)
            print("parcae cluster: " + " ".join(shlex.quote(c) for c in cmd), flush=True)
            return subprocess.call(cmd)
        raise ClusterError(f"unknown command {argv[0]!r} (up, down, status, run)")
    except ClusterError as e:
        print(f"parcae cluster: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
