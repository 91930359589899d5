"""The concurrent-jobs storage study of implicit out-of-core runs (docs/storage_study.md).

The same deck runs as 1, 2, 4, ... concurrent jobs (each ``parcae run DECK --np N --scratch
TARGET/.../jobK -o OUTDIR/jobK --profile OUTDIR/jobK/profile``, all launched together) against
each scratch target (a local disk, a RAM-backed directory, any mounted NFS/Lustre/BeeGFS/PanFS
path).  Every job runs with the I/O profiler restricted to its scratch directory
(``PARCAE_PROFILE_IO_PREFIX``), so its profile says how many bytes the out-of-core solver wrote
and read there, in how many operations of which sizes.  The result is one JSON file; ``report``
draws the study's figure: wall time per job against the number of concurrent jobs, one line per
target (flat: the storage keeps up; rising: it saturates).

Command line (also ``parcae storage-study ...``)::

    python -m parcae_tools.storage_study DECK --jobs 1,2,4 --np N --target NAME=DIR
        [--target NAME=DIR ...] [--repeats R] -o RESULTS.json [--keep] [--timeout S]
        [--run-arg=ARG ...] [--parcae EXE]
    python -m parcae_tools.storage_study report RESULTS.json -o DIR

``--parcae`` replaces the parcae executable (default: $PARCAE_EXE, set by the front end, else
``parcae`` on PATH); the tests use it for a stand-in workload.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from typing import Dict, List, Optional, Sequence

from parcae_tools.bench import machine_metadata

__all__ = ["StudyError", "parse_jobs", "parse_target", "validate_target", "io_summary",
           "run_study", "report_text", "write_figures", "main"]

SCHEMA = "parcae-storage-study"
VERSION = 1
_NAME = re.compile(r"^[A-Za-z0-9_.+-]+$")
_READ = ("read", "pread", "readv", "preadv")
_WRITE = ("write", "pwrite", "writev", "pwritev")


class StudyError(ValueError):
    """A bad argument or an unusable target; the message says which."""


# ---- arguments ---------------------------------------------------------------------------------

def parse_jobs(text: str) -> List[int]:
    """'1,2,4' -> [1, 2, 4]: positive integers, no repeats; sorted."""
    items = [t.strip() for t in str(text).split(",")]
    if not items or any(not t for t in items):
        raise StudyError(f"--jobs: expected a list like 1,2,4, got {text!r}")
    try:
        jobs = [int(t) for t in items]
    except ValueError:
        raise StudyError(f"--jobs: not a whole number in {text!r}") from None
    if any(j < 1 for j in jobs):
        raise StudyError(f"--jobs: job counts must be at least 1, got {text!r}")
    if len(set(jobs)) != len(jobs):
        raise StudyError(f"--jobs: repeated job count in {text!r}")
    return sorted(jobs)


def parse_target(text: str) -> Dict[str, str]:
    """'NAME=DIR' -> {'name', 'dir'} (not yet checked on disk)."""
    name, sep, path = str(text).partition("=")
    if not sep or not name or not path:
        raise StudyError(f"--target: expected NAME=DIR, got {text!r}")
    if not _NAME.match(name):
        raise StudyError(f"--target {text!r}: the name may hold letters, digits and _.+- only")
    return {"name": name, "dir": path}


def _mount_of(path: str) -> Dict[str, Optional[str]]:
    """File system type and device of the mount holding path (/proc/mounts)."""
    real = os.path.realpath(path)
    best = {"mount_point": None, "filesystem": None, "device": None}
    try:
        with open("/proc/mounts") as f:
            for line in f:
                dev, mnt, fstype = line.split()[:3]
                mnt = mnt.replace("\\040", " ")
                inside = real == mnt or real.startswith(mnt.rstrip("/") + "/")
                if inside and len(mnt) >= len(best["mount_point"] or ""):
                    best = {"mount_point": mnt, "filesystem": fstype, "device": dev}
    except OSError:
        pass
    return best


def validate_target(target: Dict[str, str]) -> Dict[str, object]:
    """Checks that the target directory exists and is writable (by writing a file there);
    returns the target with its absolute path, file system and free space."""
    d = target["dir"]
    where = f"--target {target['name']}={d}"
    if not os.path.exists(d):
        raise StudyError(f"{where}: the directory does not exist")
    if not os.path.isdir(d):
        raise StudyError(f"{where}: not a directory")
    try:
        fd, probe = tempfile.mkstemp(prefix=".parcae-probe-", dir=d)
        os.write(fd, b"x")
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise StudyError(f"{where}: not writable ({e.strerror})") from None
    out: Dict[str, object] = {"name": target["name"], "dir": os.path.abspath(d)}
    out.update(_mount_of(d))
    out["free_bytes"] = free_bytes(d)
    return out


def free_bytes(path: str) -> int:
    """Free space for an unprivileged user in the file system holding path."""
    st = os.statvfs(path)
    return st.f_bavail * st.f_frsize


def _find_parcae(given: Optional[str]) -> str:
    exe = given or os.environ.get("PARCAE_EXE") or shutil.which("parcae")
    if not exe:
        raise StudyError("cannot find parcae: give --parcae or put it on PATH")
    if not (os.path.isfile(exe) and os.access(exe, os.X_OK)):
        raise StudyError(f"--parcae {exe}: not an executable file")
    return os.path.abspath(exe)


# ---- one job's I/O profile ---------------------------------------------------------------------

def _add_hist(acc: List[int], h: Sequence[int]) -> None:
    if len(acc) < len(h):
        acc.extend([0] * (len(h) - len(acc)))
    for k, v in enumerate(h):
        acc[k] += int(v)


def io_summary(profile: dict) -> Dict[str, object]:
    """Bytes, operations, time and size histograms of a profile's POSIX I/O, over all ranks."""
    s = {"ranks": len(profile.get("ranks", [])), "prefix": None, "bytes_read": 0,
         "bytes_written": 0, "read_ops": 0, "write_ops": 0, "other_ops": 0, "io_time_s": 0.0,
         "hist_read": [], "hist_write": [], "functions": {}}
    for r in profile.get("ranks", []):
        io = r.get("io") or {}
        s["prefix"] = io.get("prefix", s["prefix"])
        s["io_time_s"] += float(io.get("time_s", 0.0))
        for name, f in (io.get("functions") or {}).items():
            agg = s["functions"].setdefault(name, {"calls": 0, "bytes": 0, "time_s": 0.0})
            agg["calls"] += int(f["calls"])
            agg["bytes"] += int(f.get("bytes", 0))
            agg["time_s"] += float(f.get("time_s", 0.0))
            if name in _READ:
                s["bytes_read"] += int(f.get("bytes", 0))
                s["read_ops"] += int(f["calls"])
                _add_hist(s["hist_read"], f.get("hist", []))
            elif name in _WRITE:
                s["bytes_written"] += int(f.get("bytes", 0))
                s["write_ops"] += int(f["calls"])
                _add_hist(s["hist_write"], f.get("hist", []))
            else:
                s["other_ops"] += int(f["calls"])
    return s


def _load_profile(profile_dir: str) -> Optional[dict]:
    try:
        with open(os.path.join(profile_dir, "profile.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


# ---- running ---------------------------------------------------------------------------------

def _run_batch(args, exe: str, target: dict, njobs: int, repeat: int, runs_dir: str,
               log) -> dict:
    """Starts njobs jobs together on target; waits for all; their times and I/O."""
    scratch_root = os.path.join(target["dir"], f"parcae-storage-study-{os.getpid()}",
                                f"{njobs}jobs-r{repeat}")
    jobs = []
    for k in range(1, njobs + 1):
        out = os.path.join(runs_dir, target["name"], f"{njobs}jobs", f"r{repeat}", f"job{k}")
        scratch = os.path.join(scratch_root, f"job{k}")
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        os.makedirs(scratch, exist_ok=True)
        prof = os.path.join(out, "profile")
        cmd = [exe, "run", args.deck, "--np", str(args.np), "--scratch", scratch, "-o", out,
               "--profile", prof] + list(args.run_arg or [])
        env = dict(os.environ)
        env["PARCAE_PROFILE_IO_PREFIX"] = scratch
        if njobs > 1:
            env["PARCAE_MPI_BIND"] = "none"  # concurrent jobs must not pin to the same cores
        jobs.append({"job": k, "cmd": cmd, "env": env, "outdir": out, "scratch": scratch,
                     "profile_dir": prof})
    log(f"  {target['name']}: {njobs} job(s), repeat {repeat}: {' '.join(jobs[0]['cmd'])}")

    def wait(j):
        try:
            j["rc"] = j["proc"].wait(timeout=args.timeout)
        except subprocess.TimeoutExpired:
            j["proc"].kill()
            j["rc"] = j["proc"].wait()
            j["timed_out"] = True
        j["t_end"] = time.monotonic()

    t0 = time.monotonic()
    for j in jobs:
        j["log"] = open(os.path.join(j["outdir"], "job.log"), "w")
        j["proc"] = subprocess.Popen(j["cmd"], env=j["env"], stdout=j["log"],
                                     stderr=subprocess.STDOUT, cwd=j["outdir"])
    threads = [threading.Thread(target=wait, args=(j,)) for j in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    batch = max(j["t_end"] for j in jobs) - t0
    rows, total = [], 0
    for j in jobs:
        j["log"].close()
        prof = _load_profile(j["profile_dir"])
        io = io_summary(prof) if prof else None
        if io:
            total += io["bytes_read"] + io["bytes_written"]
        row = {"job": j["job"], "wall_s": j["t_end"] - t0, "rc": j["rc"],
               "outdir": j["outdir"], "log": os.path.join(j["outdir"], "job.log"), "io": io}
        if prof:
            row["mpi"] = {k: prof.get("metadata", {}).get(k)
                          for k in ("mpi_library", "mpi_flavour", "transport", "ranks",
                                    "compiler", "git_revision")}
        else:
            row["error"] = f"no profile in {j['profile_dir']}"
        if j["rc"] != 0:
            row["error"] = (f"killed after --timeout {args.timeout} s" if j.get("timed_out")
                            else f"exit status {j['rc']}") + f" (see {row['log']})"
        rows.append(row)
    if not args.keep:
        shutil.rmtree(scratch_root, ignore_errors=True)
    return {"repeat": repeat, "batch_wall_s": batch, "scratch_bytes": total,
            "aggregate_bytes_per_s": total / batch if batch > 0 else 0.0, "jobs": rows}


def _done(target: dict) -> List[dict]:
    """The results of a target that ran (not skipped for lack of space)."""
    return [r for r in target["results"] if "skipped" not in r]


def _stats(values: List[float]) -> Dict[str, float]:
    return {"median": statistics.median(values), "mean": statistics.fmean(values),
            "min": min(values), "max": max(values)}


def run_study(args, log=print) -> dict:
    """Validates the arguments, runs every target x job count x repeat, returns the results."""
    if not os.path.isfile(args.deck):
        raise StudyError(f"deck {args.deck}: no such file")
    jobs = parse_jobs(args.jobs)
    if args.np < 1:
        raise StudyError(f"--np must be at least 1, got {args.np}")
    if args.repeats < 1:
        raise StudyError(f"--repeats must be at least 1, got {args.repeats}")
    if not args.target:
        raise StudyError("give at least one --target NAME=DIR (e.g. local=/var/tmp "
                         "ram=/dev/shm)")
    targets = [parse_target(t) for t in args.target]
    names = [t["name"] for t in targets]
    if len(set(names)) != len(names):
        raise StudyError(f"--target: repeated name in {names}")
    targets = [validate_target(t) for t in targets]
    out_dir = os.path.dirname(os.path.abspath(args.output))
    if not os.path.isdir(out_dir):
        raise StudyError(f"-o {args.output}: directory {out_dir} does not exist")
    exe = _find_parcae(args.parcae)
    args.deck = os.path.abspath(args.deck)
    runs_dir = os.path.splitext(os.path.abspath(args.output))[0] + ".runs"
    meta = machine_metadata()
    meta.update({"parcae": exe, "start_time": time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                                             time.gmtime())})
    result = {"schema": SCHEMA, "version": VERSION, "deck": args.deck, "np": args.np,
              "jobs": jobs, "repeats": args.repeats, "runs_dir": runs_dir,
              "command": f"{exe} run {args.deck} --np {args.np} --scratch TARGET/.../jobK "
                         f"-o {runs_dir}/TARGET/NJOBS/rR/jobK --profile .../jobK/profile "
                         + " ".join(args.run_arg or []),
              "metadata": meta, "targets": []}
    failed = 0
    for t in targets:
        entry = dict(t)
        entry["results"] = []
        per_job_written = 0  # largest scratch volume one job wrote so far on this target
        for n in jobs:
            need, free = n * per_job_written, free_bytes(t["dir"])
            if need > 0.95 * free:
                # J jobs would fill the target (a RAM disk takes the machine's memory with it).
                msg = (f"skipped: {n} jobs need about {_human(need)} of scratch, "
                       f"{_human(free)} free in {t['dir']}")
                log(f"  {t['name']}: {n} job(s): {msg}")
                entry["results"].append({"jobs": n, "skipped": msg})
                continue
            runs = [_run_batch(args, exe, t, n, r, runs_dir, log)
                    for r in range(1, args.repeats + 1)]
            per_job_written = max([per_job_written] + [
                j["io"]["bytes_written"] for run in runs for j in run["jobs"] if j["io"]])
            walls = [j["wall_s"] for run in runs for j in run["jobs"]]
            bad = [j for run in runs for j in run["jobs"] if j.get("error")]
            failed += len(bad)
            per_job = [j["io"] for run in runs for j in run["jobs"] if j["io"]]
            res = {"jobs": n, "wall_s": _stats(walls),
                   "aggregate_bytes_per_s": statistics.median(
                       r["aggregate_bytes_per_s"] for r in runs),
                   "scratch_bytes_per_job": statistics.median(
                       [j["bytes_read"] + j["bytes_written"] for j in per_job]) if per_job
                   else None,
                   "failed_jobs": len(bad), "runs": runs}
            entry["results"].append(res)
            log(f"  {t['name']}: {n} job(s): wall per job {res['wall_s']['median']:.3f} s "
                f"(median), scratch {_human(res['aggregate_bytes_per_s'])}/s aggregate"
                + (f", {len(bad)} FAILED" if bad else ""))
        result["targets"].append(entry)
        if not args.keep:
            shutil.rmtree(os.path.join(t["dir"], f"parcae-storage-study-{os.getpid()}"),
                          ignore_errors=True)
    mpi = next((j["mpi"] for t in result["targets"] for res in _done(t)
                for run in res["runs"] for j in run["jobs"] if j.get("mpi")), None)
    result["metadata"]["mpi_run"] = mpi
    result["failed_jobs"] = failed
    return result


# ---- report ------------------------------------------------------------------------------------

def _human(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(n) < 1024 or unit == "TiB":
            return f"{n:.1f} {unit}" if unit != "B" else f"{n:.0f} B"
        n /= 1024.0
    return f"{n:.1f} TiB"


def _load_results(path: str) -> dict:
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError as e:
        raise StudyError(f"{path}: {e.strerror}") from None
    except ValueError as e:
        raise StudyError(f"{path}: not JSON ({e})") from None
    if data.get("schema") != SCHEMA:
        raise StudyError(f"{path}: not a storage-study result (schema {data.get('schema')!r})")
    return data


def report_text(data: dict) -> str:
    lines = [f"storage study: {data['deck']} (np {data['np']}, repeats {data['repeats']})",
             f"{'target':<12} {'fs':<8} {'jobs':>4} {'wall/job[s]':>12} {'min':>8} {'max':>8} "
             f"{'aggregate':>12} {'per job':>11}"]
    for t in data["targets"]:
        for r in t["results"]:
            if "skipped" in r:
                lines.append(f"{t['name']:<12} {str(t.get('filesystem')):<8} {r['jobs']:>4} "
                             f"{r['skipped']}")
                continue
            w = r["wall_s"]
            per = r.get("scratch_bytes_per_job")
            lines.append(f"{t['name']:<12} {str(t.get('filesystem')):<8} {r['jobs']:>4} "
                         f"{w['median']:>12.3f} {w['min']:>8.3f} {w['max']:>8.3f} "
                         f"{_human(r['aggregate_bytes_per_s']) + '/s':>12} "
                         f"{_human(per) if per is not None else '-':>11}")
    return "\n".join(lines) + "\n"


def write_figures(data: dict, outdir: str) -> List[str]:
    """storage_study.png (wall time per job vs job count, one line per target, min-max bars),
    storage_throughput.png (aggregate scratch throughput) and storage_io_sizes.png (operation
    size histogram of one job per target)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    os.makedirs(outdir, exist_ok=True)
    paths = []
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for t in data["targets"]:
        x = [r["jobs"] for r in _done(t)]
        y = [r["wall_s"]["median"] for r in _done(t)]
        lo = [r["wall_s"]["median"] - r["wall_s"]["min"] for r in _done(t)]
        hi = [r["wall_s"]["max"] - r["wall_s"]["median"] for r in _done(t)]
        ax.errorbar(x, y, yerr=[lo, hi], marker="o", capsize=3,
                    label=f"{t['name']} ({t.get('filesystem') or '?'})")
    ax.set_xlabel("concurrent jobs")
    ax.set_ylabel("wall time per job [s] (median, min-max)")
    ax.set_xticks(data["jobs"])
    ax.set_ylim(bottom=0)
    ax.set_title(f"{os.path.basename(data['deck'])}, {data['np']} rank(s) per job")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    paths.append(os.path.join(outdir, "storage_study.png"))
    fig.savefig(paths[-1], dpi=120)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for t in data["targets"]:
        ax.plot([r["jobs"] for r in _done(t)],
                [r["aggregate_bytes_per_s"] / 2**20 for r in _done(t)], marker="o",
                label=t["name"])
    ax.set_xlabel("concurrent jobs")
    ax.set_ylabel("aggregate scratch throughput [MiB/s]")
    ax.set_xticks(data["jobs"])
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    paths.append(os.path.join(outdir, "storage_throughput.png"))
    fig.savefig(paths[-1], dpi=120)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7.0, 4.0))
    series = []
    for t in data["targets"]:
        io = next((j["io"] for r in _done(t) for run in r["runs"] for j in run["jobs"]
                   if j.get("io")), None)
        if io:
            series += [(f"{t['name']} write", io["hist_write"]),
                       (f"{t['name']} read", io["hist_read"])]
    used = sorted({b for _, h in series for b, c in enumerate(h) if c})
    width = 0.8 / max(1, len(series))
    for k, (label, h) in enumerate(series):
        ax.bar([i + (k - (len(series) - 1) / 2) * width for i in range(len(used))],
               [h[b] if b < len(h) else 0 for b in used], width=width, label=label)
    ax.set_xticks(range(len(used)))
    ax.set_xticklabels(["0" if b == 0 else ">=" + _human(2 ** (b - 1)).replace(".0", "")
                        for b in used], rotation=45, ha="right")
    ax.set_xlabel("operation size (power-of-two bins)")
    ax.set_ylabel("operations (one job)")
    ax.grid(alpha=0.3, axis="y")
    ax.legend(fontsize=8)
    fig.tight_layout()
    paths.append(os.path.join(outdir, "storage_io_sizes.png"))
    fig.savefig(paths[-1], dpi=120)
    plt.close(fig)
    return paths


# ---- command line ------------------------------------------------------------------------------

def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "report":
        ap = argparse.ArgumentParser(prog="parcae storage-study report")
        ap.add_argument("results")
        ap.add_argument("-o", "--outdir", required=True, help="where to write the PNG figures")
        a = ap.parse_args(argv[1:])
        try:
            data = _load_results(a.results)
            sys.stdout.write(report_text(data))
            for p in write_figures(data, a.outdir):
                print(f"wrote {p}")
        except StudyError as e:
            print(f"parcae storage-study: {e}", file=sys.stderr)
            return 1
        return 0
    ap = argparse.ArgumentParser(
        prog="parcae storage-study",
        description="run a deck as 1..N concurrent jobs per scratch target (see "
                    "docs/storage_study.md); `parcae storage-study report RESULTS.json -o DIR` "
                    "draws the figures")
    ap.add_argument("deck")
    ap.add_argument("--jobs", required=True, help="job counts, e.g. 1,2,4,8")
    ap.add_argument("--np", type=int, required=True, help="MPI ranks per job")
    ap.add_argument("--target", action="append", metavar="NAME=DIR",
                    help="scratch target (repeat): e.g. local=/var/tmp ram=/dev/shm "
                         "nfs=/mnt/nfs/scratch")
    ap.add_argument("--repeats", type=int, default=1, help="runs per target and job count")
    ap.add_argument("-o", "--output", required=True, help="results JSON")
    ap.add_argument("--keep", action="store_true", help="keep the scratch directories")
    ap.add_argument("--timeout", type=float, default=None, help="seconds per batch of jobs")
    ap.add_argument("--run-arg", action="append", metavar="ARG",
                    help="extra argument for parcae run (repeat; e.g. --run-arg=--threads=1)")
    ap.add_argument("--parcae", help="parcae executable (default $PARCAE_EXE or PATH)")
    args = ap.parse_args(argv)
    try:
        result = run_study(args, log=lambda s: print(s, flush=True))
    except StudyError as e:
        print(f"parcae storage-study: {e}", file=sys.stderr)
        return 1
    with open(args.output, "w") as f:
        json.dump(result, f, indent=1)
    print(f"wrote {args.output}" + (f" ({result['failed_jobs']} job(s) failed)"
                                    if result["failed_jobs"] else ""))
    return 2 if result["failed_jobs"] else 0


if __name__ == "__main__":
    sys.exit(main())
