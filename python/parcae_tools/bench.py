"""Benchmark helpers: the metadata of the machine a benchmark ran on, and a summary of a
benchmark result file.

Result files are JSON::

    {"benchmark": "taylor_bar",
     "metadata": {...},                       # machine_metadata() and run settings
     "results": [{"name": "zone_cycles_per_s", "value": 1.2e8, "unit": "1/s"}, ...]}

Command line::

    python -m parcae_tools.bench summarize FILE.json   # figure-of-merit table
    python -m parcae_tools.bench metadata              # this machine's metadata as JSON
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import socket
import subprocess
import sys
from typing import Dict, List, Optional, Sequence

__all__ = ["machine_metadata", "summarize", "main"]


def _run(cmd: Sequence[str], cwd: Optional[str] = None, timeout: float = 10.0) -> Optional[str]:
    """stdout of a command, or None if it is missing or fails."""
    if shutil.which(cmd[0]) is None:
        return None
    try:
        r = subprocess.run(list(cmd), cwd=cwd, capture_output=True, text=True, timeout=timeout,
                           check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    if r.returncode != 0:
        return None
    return r.stdout


def _read(path: str) -> Optional[str]:
    try:
        with open(path, "r", encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return None


def _cpu_info() -> Dict[str, object]:
    info: Dict[str, object] = {"cpu_model": platform.processor() or platform.machine() or None,
                               "physical_cores": None, "sockets": None}
    text = _read("/proc/cpuinfo")
    if not text:
        return info
    model = None
    cores_per_socket: Dict[str, int] = {}
    physical_id = "0"
    core_ids = set()
    for line in text.splitlines():
        key, _, val = line.partition(":")
        key, val = key.strip(), val.strip()
        if key in ("model name", "Model", "cpu model", "Processor") and model is None and val:
            model = val
        elif key == "physical id":
            physical_id = val
        elif key == "core id":
            core_ids.add((physical_id, val))
        elif key == "cpu cores":
            try:
                cores_per_socket[physical_id] = int(val)
            except ValueError:
                pass
    if model:
        info["cpu_model"] = model
    if core_ids:
        info["physical_cores"] = len(core_ids)
        info["sockets"] = len({p for p, _ in core_ids})
    elif cores_per_socket:
        info["physical_cores"] = sum(cores_per_socket.values())
        info["sockets"] = len(cores_per_socket)
    return info


def _memory_bytes() -> Optional[int]:
    text = _read("/proc/meminfo")
    if text:
        m = re.search(r"^MemTotal:\s+(\d+)\s*kB", text, re.MULTILINE)
        if m:
            return int(m.group(1)) * 1024
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def _os_name() -> str:
    text = _read("/etc/os-release")
    if text:
        m = re.search(r'^PRETTY_NAME="?([^"\n]*)"?', text, re.MULTILINE)
        if m:
            return m.group(1)
    return platform.platform()


def _compiler() -> Optional[str]:
    for cxx in (os.environ.get("CXX"), "c++"):
        if not cxx:
            continue
        out = _run([cxx, "--version"])
        if out:
            return out.strip().splitlines()[0]
    return None


def _git(repo_dir: Optional[str]) -> Dict[str, object]:
    cwd = repo_dir or os.path.dirname(os.path.abspath(__file__))
    rev = _run(["git", "rev-parse", "HEAD"], cwd=cwd)
    if not rev:
        return {"git_revision": None, "git_dirty": None}
    status = _run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=cwd)
    return {"git_revision": rev.strip(), "git_dirty": bool(status and status.strip())}


def _mpi_libraries() -> List[str]:
    """MPI implementations found: launchers' version lines and libmpi* shared libraries."""
    found: List[str] = []
    for launcher in ("mpirun", "mpiexec"):
        out = _run([launcher, "--version"])
        if out:
            first = next((l.strip() for l in out.splitlines() if l.strip()), "")
            if first and first not in found:
                found.append(first)
    out = _run(["ldconfig", "-p"]) or _run(["/sbin/ldconfig", "-p"])
    if out:
        libs = sorted({m.group(1) for m in re.finditer(r"^\s*(libmpi[\w.+-]*\.so[\w.]*)", out,
                                                       re.MULTILINE)})
        found.extend(l for l in libs if l not in found)
    return found


def machine_metadata(repo_dir: Optional[str] = None) -> Dict[str, object]:
    """What a benchmark result needs to say about the machine it ran on.

    Keys: hostname, cpu_model, cores (logical CPUs), cores_available (CPUs this process may
    use), physical_cores, sockets, memory_bytes, memory_gib, os, kernel, machine, python,
    compiler (first line of `c++ --version`, or of $CXX), git_revision, git_dirty (of
    repo_dir, default: the repository holding this file), mpi (MPI launchers and libmpi
    libraries found).  Values that cannot be determined are None.
    """
    cpu = _cpu_info()
    mem = _memory_bytes()
    try:
        available = len(os.sched_getaffinity(0))  # type: ignore[attr-defined]
    except (AttributeError, OSError):
        available = os.cpu_count()
    meta: Dict[str, object] = {
        "hostname": socket.gethostname(),
        "cpu_model": cpu["cpu_model"],
        "cores": os.cpu_count(),
        "cores_available": available,
        "physical_cores": cpu["physical_cores"],
        "sockets": cpu["sockets"],
        "memory_bytes": mem,
        "memory_gib": round(mem / 2**30, 2) if mem else None,
        "os": _os_name(),
        "kernel": platform.release(),
        "machine": platform.machine(),
        "python": platform.python_version(),
        "compiler": _compiler(),
        "mpi": _mpi_libraries(),
    }
    meta.update(_git(repo_dir))
    return meta


def _fmt_value(v) -> str:
    if isinstance(v, bool) or v is None:
        return str(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def summarize(data: dict) -> str:
    """The figure-of-merit table of a benchmark result (the parsed JSON) as text."""
    if not isinstance(data, dict) or "results" not in data:
        raise ValueError("not a benchmark result: no 'results'")
    results = data.get("results") or []
    if not isinstance(results, list):
        raise ValueError("'results' is not a list")
    meta = data.get("metadata") or {}
    lines = [f"benchmark: {data.get('benchmark', '?')}"]
    for key in ("hostname", "cpu_model", "cores", "memory_gib", "compiler", "git_revision"):
        if meta.get(key) is not None:
            lines.append(f"{key}: {meta[key]}")
    rows = [("name", "value", "unit")]
    for r in results:
        if not isinstance(r, dict) or "name" not in r or "value" not in r:
            raise ValueError(f"result entry without name/value: {r!r}")
        rows.append((str(r["name"]), _fmt_value(r["value"]), str(r.get("unit", ""))))
    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(r[1]) for r in rows)
    w2 = max(len(r[2]) for r in rows)
    lines.append("")
    for i, (n, v, u) in enumerate(rows):
        lines.append(f"{n:<{w0}}  {v:>{w1}}  {u:<{w2}}".rstrip())
        if i == 0:
            lines.append(f"{'-' * w0}  {'-' * w1}  {'-' * w2}")
    return "\n".join(lines) + "\n"


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m parcae_tools.bench",
                                     description="parcae benchmark helpers")
    sub = parser.add_subparsers(dest="command", required=True)
    p_sum = sub.add_parser("summarize", help="print the figure-of-merit table of a result file")
    p_sum.add_argument("file", help="benchmark result JSON")
    sub.add_parser("metadata", help="print this machine's metadata as JSON")
    args = parser.parse_args(argv)

    if args.command == "metadata":
        print(json.dumps(machine_metadata(), indent=2))
        return 0
    try:
        with open(args.file, "r", encoding="utf-8") as f:
            data = json.load(f)
        sys.stdout.write(summarize(data))
    except (OSError, ValueError) as e:  # json.JSONDecodeError is a ValueError
        print(f"error: {args.file}: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
