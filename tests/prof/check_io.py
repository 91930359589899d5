#!/usr/bin/env python3
"""POSIX I/O accounting of libparcae-mpiprof.so (docs/profile.md, "POSIX I/O").

Runs prof_io (tests/prof/prof_io.cpp) and checks the "io" records of profile.json and the
kind=io rows of profile.csv against the calls derived from the program's parameters: exact
calls, bytes and size-histogram bins per function, per rank and per phase, with the scratch
directory as prefix filter (the file outside it must not appear). Modes:

  serial  no MPI_Init at all, under LD_PRELOAD with PARCAE_PROFILE_SERIAL=1: the process still
          works and writes a one-rank profile; without PARCAE_PROFILE_SERIAL it writes none;
          without a prefix every file counts (the outside file included).
  mpi     mpirun -np N, the program linked with the profiler (or preloaded).
"""
import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

# Parameters of prof_io.cpp.
BLOCK, BLOCKS, SMALL, SMALLS, IOV, OTHER = 256 * 1024, 10, 4096, 3, 1000 + 24, 100

FAILURES = []


def expect(ok, what):
    if not ok:
        FAILURES.append(what)
        print("FAIL:", what, flush=True)


def size_bin(b):
    return 0 if b == 0 else b.bit_length()


def hist(*sizes_counts):
    h = [0] * 64
    for size, count in sizes_counts:
        h[size_bin(size)] += count
    while len(h) > 1 and h[-1] == 0:
        h.pop()
    return h


def expected_functions():
    """Per function: (calls, bytes, hist) of one rank, scratch files only."""
    return {
        "open": (2, 0, hist((0, 2))),
        "close": (2, 0, hist((0, 2))),
        "fsync": (1, 0, hist((0, 1))),
        "pwrite": (BLOCKS, BLOCKS * BLOCK, hist((BLOCK, BLOCKS))),
        "write": (SMALLS, SMALLS * SMALL, hist((SMALL, SMALLS))),
        "writev": (1, IOV, hist((IOV, 1))),
        "pread": (BLOCKS + 1, BLOCKS * BLOCK, hist((BLOCK, BLOCKS), (0, 1))),
        "read": (SMALLS, SMALLS * SMALL, hist((SMALL, SMALLS))),
    }


EXPECTED_PHASES = {
    "factor_write": {"open": 1, "pwrite": BLOCKS, "write": SMALLS, "writev": 1, "fsync": 1,
                     "close": 1},
    "factor_read": {"open": 1, "pread": BLOCKS + 1, "read": SMALLS, "close": 1},
}


def check_rank_io(r, prefix):
    where = f"rank {r['rank']}"
    io = r.get("io")
    expect(isinstance(io, dict), f"{where}: no io record")
    if not isinstance(io, dict):
        return
    expect(io["prefix"] == prefix, f"{where}: prefix {io['prefix']!r} != {prefix!r}")
    want = expected_functions()
    got = io["functions"]
    expect(set(got) == set(want), f"{where}: io functions {sorted(got)} != {sorted(want)}")
    for name, (calls, nbytes, h) in want.items():
        g = got.get(name)
        if not g:
            continue
        expect(g["calls"] == calls, f"{where}: {name} calls {g['calls']} != {calls}")
        expect(g["bytes"] == nbytes, f"{where}: {name} bytes {g['bytes']} != {nbytes}")
        expect(g["hist"] == h, f"{where}: {name} hist {g['hist']} != {h}")
        expect(g["time_s"] >= 0, f"{where}: {name} time")
    total = sum(g["time_s"] for g in got.values())
    expect(abs(io["time_s"] - total) <= 1e-6 + 1e-6 * total,
           f"{where}: io time_s {io['time_s']} != sum {total}")
    for pname, fns in EXPECTED_PHASES.items():
        ph = r["phases"].get(pname, {})
        pio = ph.get("io", {}).get("functions", {})
        expect({k: v["calls"] for k, v in pio.items()} == fns,
               f"{where}: phase {pname} io calls {pio} != {fns}")
    for pname, ph in r["phases"].items():
        if pname not in EXPECTED_PHASES:
            expect("io" not in ph, f"{where}: phase {pname} has io {ph.get('io')}")


def check_profile(outdir, nranks, prefix):
    prof = json.loads((outdir / "profile.json").read_text())
    expect(len(prof["ranks"]) == nranks, f"{len(prof['ranks'])} ranks != {nranks}")
    for r in prof["ranks"]:
        check_rank_io(r, prefix)
    s = prof["summary"]["io"]["functions"]
    for name, (calls, nbytes, h) in expected_functions().items():
        expect(s.get(name, {}).get("calls", {}).get("sum") == calls * nranks,
               f"summary {name} calls")
        expect(s.get(name, {}).get("bytes", {}).get("sum") == nbytes * nranks,
               f"summary {name} bytes")
        expect(s.get(name, {}).get("hist") == [x * nranks for x in h], f"summary {name} hist")
    with open(outdir / "profile.csv", newline="") as fh:
        rows = [r for r in csv.reader(fh) if len(r) > 1 and r[1] == "io"]
    got = {(int(r[0]), r[2]): (int(r[3]), int(r[5])) for r in rows}
    want = {(rk, n): (c, b) for rk in range(nranks)
            for n, (c, b, _) in expected_functions().items()}
    expect(got == want, f"csv io rows {sorted(got.items())[:4]} != {sorted(want.items())[:4]}")
    return prof


def clean_env():
    env = dict(os.environ)
    for k in list(env):
        if k.startswith("PARCAE_PROFILE") or k == "LD_PRELOAD":
            env.pop(k)
    env.update({"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                "OMP_NUM_THREADS": "1"})
    return env


def dirs(work, tag):
    scratch, other, out = work / tag / "scratch", work / tag / "other", work / tag / "out"
    scratch.mkdir(parents=True)
    other.mkdir(parents=True)
    return scratch, other, out


def run_serial(args, work):
    # 1. With the prefix: exact counts, one rank, no MPI.
    scratch, other, out = dirs(work, "prefix")
    env = clean_env()
    env.update({"LD_PRELOAD": args.preload, "PARCAE_PROFILE_DIR": str(out),
                "PARCAE_PROFILE_SERIAL": "1", "PARCAE_PROFILE_IO_PREFIX": str(scratch)})
    rc = subprocess.run([args.exe, "--serial", str(scratch), str(other)], env=env).returncode
    expect(rc == 0, f"serial run exit status {rc}")
    if rc == 0:
        prof = check_profile(out, 1, str(scratch))
        meta = prof["metadata"]
        expect(meta["mpi_library"].startswith("none"), f"mpi_library {meta['mpi_library']!r}")
        expect(prof["ranks"][0]["functions"] == {}, "MPI functions in a serial profile")
    # 2. Without PARCAE_PROFILE_SERIAL: runs normally, writes nothing.
    scratch, other, out = dirs(work, "quiet")
    env.pop("PARCAE_PROFILE_SERIAL")
    env.update({"PARCAE_PROFILE_DIR": str(out), "PARCAE_PROFILE_IO_PREFIX": str(scratch)})
    rc = subprocess.run([args.exe, "--serial", str(scratch), str(other)], env=env).returncode
    expect(rc == 0, f"serial run (no output) exit status {rc}")
    expect(not out.exists(), f"{out} written without PARCAE_PROFILE_SERIAL")
    expect((scratch / "rank0.bin").stat().st_size == BLOCKS * BLOCK, "file size")
    # 3. No prefix: every file counts, the outside file included.
    scratch, other, out = dirs(work, "all")
    env.update({"PARCAE_PROFILE_SERIAL": "1", "PARCAE_PROFILE_DIR": str(out)})
    env.pop("PARCAE_PROFILE_IO_PREFIX")
    rc = subprocess.run([args.exe, "--serial", str(scratch), str(other)], env=env).returncode
    expect(rc == 0, f"serial run (no prefix) exit status {rc}")
    if rc == 0:
        io = json.loads((out / "profile.json").read_text())["ranks"][0]["io"]
        w = io["functions"].get("write", {})
        expect(io["prefix"] == "", "prefix empty")
        expect(w.get("calls", 0) >= SMALLS + 1 and w.get("bytes", 0) >= SMALLS * SMALL + OTHER,
               f"without a prefix the outside file counts: write {w}")
        expect(io["functions"].get("pwrite", {}).get("bytes") == BLOCKS * BLOCK, "pwrite bytes")


def run_mpi(args, work):
    scratch, other, out = dirs(work, "mpi")
    rank_env = {"PARCAE_PROFILE_DIR": str(out), "PARCAE_PROFILE_IO_PREFIX": str(scratch)}
    if args.preload:
        rank_env["LD_PRELOAD"] = args.preload
    cmd = [args.launcher, "-np", str(args.np)]
    if args.flavour == "openmpi":
        cmd += ["--mca", "btl", "self,vader", "--bind-to", "none", "--oversubscribe"]
        for k, v in rank_env.items():
            cmd += ["-x", f"{k}={v}"]
    else:
        for k, v in rank_env.items():
            cmd += ["-genv", k, v]
    cmd += [args.exe, "--mpi", str(scratch), str(other)]
    print("+", " ".join(cmd), flush=True)
    rc = subprocess.run(cmd, env=clean_env(), timeout=120).returncode
    expect(rc == 0, f"mpi run exit status {rc}")
    if rc == 0:
        check_profile(out, args.np, str(scratch))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", required=True, choices=["serial", "mpi"])
    ap.add_argument("--flavour", choices=["openmpi", "mpich"], default="openmpi")
    ap.add_argument("--launcher")
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--exe", required=True)
    ap.add_argument("--preload")
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    work = Path(args.workdir)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    if args.mode == "serial":
        run_serial(args, work)
    else:
        run_mpi(args, work)
    print(f"io {args.mode}: {len(FAILURES)} failure(s)")
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
