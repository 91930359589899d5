#!/usr/bin/env python3
"""Overhead of the profiler's POSIX I/O accounting (docs/profile.md, "POSIX I/O").

`dd` copies /dev/zero into a file in a RAM-backed directory (bs=4k: one read and one write per
block, the cheapest system calls, so the per-call overhead shows) unprofiled, under
LD_PRELOAD of libparcae-mpiprof.so with every file counted, and with a prefix that leaves
/dev/zero out (only the writes counted). Times are the dd process's CPU time (user + system), which a busy machine disturbs far less
than wall time. Each case also runs with count=0, so that the cost of
loading the library (and the MPI library it links) at start-up is taken out: time per block =
(t(count) - t(0)) / count, medians of --repeats runs; overhead per counted call = (profiled -
unprofiled time per block) / counted calls per block.

    python3 bench/mpiprof/io_overhead.py --build build/release [--count 200000] [-o FILE]
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import tempfile


def run(env, out, count, bs):
    """CPU time (user + system) of one dd: unlike wall time, it does not count the time the
    process waits for a core on a busy machine."""
    p = subprocess.Popen(["dd", "if=/dev/zero", f"of={out}", f"bs={bs}", f"count={count}"],
                         env=env, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    if status != 0:
        raise SystemExit(f"dd failed ({status})")
    return ru.ru_utime + ru.ru_stime


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build/release")
    ap.add_argument("--count", type=int, default=200000)
    ap.add_argument("--bs", default="4k")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("-o", "--output", default="bench/mpiprof_io_overhead.json")
    args = ap.parse_args()
    lib = os.path.abspath(os.path.join(args.build, "lib", "openmpi", "libparcae-mpiprof.so"))
    d = tempfile.mkdtemp(prefix="parcae-io-overhead-", dir="/dev/shm")
    out = os.path.join(d, "data")
    base = {k: v for k, v in os.environ.items() if not k.startswith("PARCAE_PROFILE")}
    base.pop("LD_PRELOAD", None)
    cases = {"unprofiled": (dict(base), 0),
             "all files": (dict(base, LD_PRELOAD=lib), 2 * args.count),
             "prefix (writes only)": (dict(base, LD_PRELOAD=lib, PARCAE_PROFILE_IO_PREFIX=d),
                                      args.count)}
    times = {k: [] for k in cases}
    empty = {k: [] for k in cases}
    for _ in range(args.repeats):  # interleaved, so that load changes hit every case
        for name, (env, _) in cases.items():
            times[name].append(run(env, out, args.count, args.bs))
            empty[name].append(run(env, out, 0, args.bs))
    os.unlink(out)
    os.rmdir(d)
    def per_block(name):
        return (statistics.median(times[name]) - statistics.median(empty[name])) / args.count

    t0 = per_block("unprofiled")
    rows = []
    for name, (_, counted) in cases.items():
        t = per_block(name)
        row = {"case": name, "median_s": statistics.median(times[name]),
               "startup_s": statistics.median(empty[name]), "calls_counted": counted,
               "per_block_ns": 1e9 * t}
        if counted:
            row["overhead_per_counted_call_ns"] = 1e9 * (t - t0) * args.count / counted
        rows.append(row)
        print(f"{name:22s} {row['median_s']:8.4f} s (start-up {row['startup_s']:.4f} s) "
              f"{row['per_block_ns']:7.0f} ns/block"
              + (f"  +{row['overhead_per_counted_call_ns']:5.0f} ns per counted call"
                 if counted else ""))
    with open(args.output, "w") as f:
        json.dump({"benchmark": "mpiprof_io_overhead", "count": args.count, "bs": args.bs,
                   "repeats": args.repeats, "host": platform.node(),
                   "load_average": os.getloadavg(), "results": rows}, f, indent=1)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
