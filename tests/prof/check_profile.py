#!/usr/bin/python3
"""Runs an MPI program under the parcae profiler and checks what it wrote (ctest driver).

  check_profile.py --mode synthetic|signal|interval --flavour openmpi|mpich --launcher MPIRUN
                   --np N --exe PROGRAM [--preload LIB] --workdir DIR

synthetic: prof_synthetic's profile.json / profile.csv must match the calls and sizes derived
below from the program's parameters (tests/prof/prof_synthetic.cpp), rank by rank.
signal:    prof_sleeper gets SIGUSR1 while running (sent to each rank, or with
           --signal-launcher to mpirun, which forwards it): partial/rank-*.json must appear.
interval:  prof_sleeper under PARCAE_PROFILE_INTERVAL: periodic partial dumps must appear.
"""
import argparse
import csv
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

# prof_synthetic.cpp parameters.
RING_DOUBLES, RING_ROUNDS = 1000, 3
HALO_INTS, HALO_ROUNDS = 100, 2
ALLREDUCE_INTS, ALLREDUCE_CALLS = 4, 5
BCAST_DOUBLES = 131072
SENDRECV_DOUBLES = 10
IO_INTS = 256
DOUBLE, INT = 8, 4

FAILURES = []


def fail(msg):
    FAILURES.append(msg)
    print("FAIL:", msg, file=sys.stderr)


def expect(cond, msg):
    if not cond:
        fail(msg)


def close(a, b, tol=1e-6):
    return abs(a - b) <= tol + 1e-9 * max(abs(a), abs(b))


def bin_of(b):
    return 0 if b == 0 else int(b).bit_length()  # floor(log2 b) + 1


def hist_of(sizes):
    """Histogram (trailing zeros trimmed) of a list of per-call byte counts."""
    h = []
    for b in sizes:
        k = bin_of(b)
        if len(h) <= k:
            h.extend([0] * (k + 1 - len(h)))
        h[k] += 1
    return h


def expected_synthetic(rank, np_):
    """{phase: {function: [sizes of each call]}} for one rank of prof_synthetic."""
    ring = RING_DOUBLES * DOUBLE
    halo = HALO_INTS * INT
    return {
        "exchange": {
            "MPI_Send": [ring] * RING_ROUNDS,
            "MPI_Recv": [ring] * RING_ROUNDS,
            "MPI_Irecv": [halo] * (2 * HALO_ROUNDS),
            "MPI_Isend": [halo] * (2 * HALO_ROUNDS),
            "MPI_Waitall": [0] * HALO_ROUNDS,
        },
        "reduce": {"MPI_Allreduce": [ALLREDUCE_INTS * INT] * ALLREDUCE_CALLS},
        "inner": {"MPI_Barrier": [0]},
        "(none)": {
            "MPI_Init": [0],
            "MPI_Bcast": [BCAST_DOUBLES * DOUBLE],
            "MPI_Gatherv": [(rank + 1) * INT],
            "MPI_Barrier": [0],
            "MPI_Sendrecv": [SENDRECV_DOUBLES * DOUBLE],
            "MPI_File_open": [0, 0],
            "MPI_File_write_at_all": [IO_INTS * INT],
            "MPI_File_sync": [0],
            "MPI_File_close": [0, 0],
            "MPI_File_read_at": [IO_INTS * INT],
        },
    }


PHASE_ENTRIES = {"exchange": RING_ROUNDS + 1, "reduce": 1, "inner": 1, "(none)": 0}


def launch(args, outdir, extra_env, prog_args):
    env = dict(os.environ)
    for k in ("PARCAE_PROFILE_DIR", "PARCAE_PROFILE_INTERVAL", "LD_PRELOAD"):
        env.pop(k, None)
    env.update({"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                "OMP_NUM_THREADS": "1"})
    rank_env = {"PARCAE_PROFILE_DIR": str(outdir)}
    rank_env.update(extra_env)
    if args.preload:
        rank_env["LD_PRELOAD"] = args.preload
    cmd = [args.launcher, "-np", str(args.np)]
    if args.flavour == "openmpi":
        cmd += ["--mca", "btl", "self,vader", "--bind-to", "none"]
        if args.np > 2:
            cmd.append("--oversubscribe")
        for k, v in rank_env.items():
            cmd += ["-x", f"{k}={v}"]
    else:
        for k, v in rank_env.items():
            cmd += ["-genv", k, v]
    cmd += [args.exe] + prog_args
    print("+", " ".join(cmd), flush=True)
    return subprocess.Popen(cmd, env=env)


def check_metadata(meta, args, np_, partial):
    flav = {"openmpi": "OpenMPI", "mpich": "MPICH"}[args.flavour]
    expect(meta["mpi_flavour"] == flav, f"mpi_flavour {meta['mpi_flavour']} != {flav}")
    lib = meta["mpi_library"]
    expect(("Open MPI" if args.flavour == "openmpi" else "MPICH") in lib, f"mpi_library {lib!r}")
    expect("\n" not in lib and "\0" not in lib and lib == lib.strip(), "mpi_library one line")
    expect(meta["mpi_version"] in ("3.1", "4.0", "4.1"), f"mpi_version {meta['mpi_version']}")
    want_transport = "self,vader" if args.flavour == "openmpi" else "default"
    expect(meta["transport"] == want_transport, f"transport {meta['transport']!r}")
    expect(meta["ranks"] == np_, f"metadata.ranks {meta['ranks']} != {np_}")
    expect(meta["threads"] == 1, "threads (OMP_NUM_THREADS=1)")
    expect(isinstance(meta["hosts"], list) and len(meta["hosts"]) >= 1, "hosts")
    expect(meta["hosts"] == sorted(set(meta["hosts"])), "hosts sorted and distinct")
    expect(meta["compiler"].startswith(("GCC ", "Clang ")), f"compiler {meta['compiler']!r}")
    expect(isinstance(meta["git_revision"], str) and meta["git_revision"], "git_revision")
    expect(os.path.basename(args.exe) in meta["command"], f"command {meta['command']!r}")
    expect(len(meta["start_time"]) == 20 and meta["start_time"].endswith("Z"), "start_time")
    expect(isinstance(meta["extra"], dict), "extra")


def stat(vals):
    return {"min": min(vals), "avg": sum(vals) / len(vals), "max": max(vals), "sum": sum(vals)}


def check_stat(got, vals, what):
    want = stat(vals)
    for k in ("min", "avg", "max", "sum"):
        expect(close(got[k], want[k], 1e-9), f"summary {what}.{k}: {got[k]} != {want[k]}")


def check_synthetic(args, outdir):
    prof = json.loads((outdir / "profile.json").read_text())
    np_ = args.np
    expect(prof["schema"] == "parcae-profile" and prof["version"] == 1, "schema/version")
    expect(prof["partial"] is False and prof["trigger"] == "finalize", "partial/trigger")
    expect(list(prof.keys()) == ["schema", "version", "partial", "trigger", "metadata", "ranks",
                                 "summary"], f"top-level keys {list(prof.keys())}")
    check_metadata(prof["metadata"], args, np_, False)
    expect(prof["metadata"]["extra"] == {"deck": "synthetic"}, "metadata.extra")
    ranks = prof["ranks"]
    expect([r["rank"] for r in ranks] == list(range(np_)), "ranks sorted, one per rank")
    expect(sorted({r["host"] for r in ranks}) == prof["metadata"]["hosts"], "hosts from ranks")
    for r in ranks:
        rank = r["rank"]
        exp = expected_synthetic(rank, np_)
        # Whole-rank functions: the union over phases.
        total = {}
        for fns in exp.values():
            for f, sizes in fns.items():
                total.setdefault(f, []).extend(sizes)
        got = r["functions"]
        expect(set(got) == set(total), f"rank {rank}: functions {sorted(got)} != {sorted(total)}")
        for f, sizes in total.items():
            if f not in got:
                continue
            g = got[f]
            expect(g["calls"] == len(sizes), f"rank {rank} {f}: calls {g['calls']} != {len(sizes)}")
            expect(g["bytes"] == sum(sizes), f"rank {rank} {f}: bytes {g['bytes']} != {sum(sizes)}")
            expect(g["hist"] == hist_of(sizes), f"rank {rank} {f}: hist {g['hist']} != "
                   f"{hist_of(sizes)}")
            expect(g["time_s"] >= 0, f"rank {rank} {f}: time")
        # Times: elapsed = mpi + app, mpi = sum of function times = sum of phase MPI times,
        # phase times (exclusive) sum to elapsed.
        expect(r["elapsed_s"] > 0, "elapsed > 0")
        expect(close(r["elapsed_s"], r["mpi_s"] + r["app_s"]), f"rank {rank}: elapsed != mpi+app")
        expect(close(r["mpi_s"], sum(g["time_s"] for g in got.values())),
               f"rank {rank}: mpi_s != sum of function times")
        ph = r["phases"]
        expect(set(ph) == set(exp), f"rank {rank}: phases {sorted(ph)}")
        expect(close(r["elapsed_s"], sum(p["time_s"] for p in ph.values())),
               f"rank {rank}: phase times do not sum to elapsed")
        expect(close(r["mpi_s"], sum(p["mpi_s"] for p in ph.values())),
               f"rank {rank}: phase mpi_s do not sum to mpi_s")
        for name, fns in exp.items():
            if name not in ph:
                continue
            p = ph[name]
            expect(p["entries"] == PHASE_ENTRIES[name],
                   f"rank {rank} phase {name}: entries {p['entries']}")
            expect(set(p["functions"]) == set(fns),
                   f"rank {rank} phase {name}: functions {sorted(p['functions'])}")
            expect(close(p["mpi_s"], sum(g["time_s"] for g in p["functions"].values())),
                   f"rank {rank} phase {name}: mpi_s")
            expect(p["time_s"] >= p["mpi_s"] - 1e-6, f"rank {rank} phase {name}: time < mpi")
            for f, sizes in fns.items():
                g = p["functions"].get(f)
                if g is None:
                    continue
                expect(g["calls"] == len(sizes) and g["bytes"] == sum(sizes),
                       f"rank {rank} phase {name} {f}: {g['calls']}/{g['bytes']} != "
                       f"{len(sizes)}/{sum(sizes)}")
    # Summary across ranks.
    s = prof["summary"]
    for k in ("elapsed_s", "mpi_s", "app_s"):
        check_stat(s[k], [r[k] for r in ranks], k)
    allf = sorted({f for r in ranks for f in r["functions"]})
    expect(sorted(s["functions"]) == allf, "summary functions")
    for f in allf:
        sf = s["functions"].get(f)
        if sf is None:
            continue
        for k in ("calls", "time_s", "bytes"):
            check_stat(sf[k], [r["functions"].get(f, {}).get(k, 0) for r in ranks], f"{f}.{k}")
        hsum = []
        for r in ranks:
            for i, c in enumerate(r["functions"].get(f, {}).get("hist", [])):
                if len(hsum) <= i:
                    hsum.append(0)
                hsum[i] += c
        expect(sf["hist"] == hsum, f"summary {f}.hist")
    # Gatherv: rank-dependent bytes -> min/max over ranks known exactly.
    g = s["functions"]["MPI_Gatherv"]["bytes"]
    expect(g["min"] == INT and g["max"] == np_ * INT and g["sum"] == INT * np_ * (np_ + 1) // 2,
           f"summary Gatherv bytes {g}")
    for name in ("exchange", "reduce", "inner", "(none)"):
        sp = s["phases"][name]
        check_stat(sp["time_s"], [r["phases"][name]["time_s"] for r in ranks], f"{name}.time_s")
        check_stat(sp["mpi_s"], [r["phases"][name]["mpi_s"] for r in ranks], f"{name}.mpi_s")
    check_csv(outdir / "profile.csv", ranks)


def check_csv(path, ranks):
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    expect(rows[0] == ["rank", "kind", "name", "calls", "time_s", "bytes"], f"csv header {rows[0]}")
    got = {(int(r[0]), r[1], r[2]): (int(r[3]), float(r[4]), int(r[5])) for r in rows[1:]}
    expect(len(got) == len(rows) - 1, "csv rows unique")
    want = {}
    for r in ranks:
        rk = r["rank"]
        for f, g in r["functions"].items():
            want[(rk, "function", f)] = (g["calls"], g["time_s"], g["bytes"])
        for p, g in r["phases"].items():
            want[(rk, "phase", p)] = (g["entries"], g["time_s"], 0)
        for f, g in r.get("io", {}).get("functions", {}).items():
            want[(rk, "io", f)] = (g["calls"], g["time_s"], g["bytes"])
        want[(rk, "total", "elapsed")] = (0, r["elapsed_s"], 0)
        want[(rk, "total", "mpi")] = (sum(g["calls"] for g in r["functions"].values()), r["mpi_s"],
                                      sum(g["bytes"] for g in r["functions"].values()))
    expect(set(got) == set(want), f"csv keys differ: {sorted(set(got) ^ set(want))[:5]}")
    for k, w in want.items():
        if k in got:
            g = got[k]
            expect(g[0] == w[0] and g[2] == w[2] and close(g[1], w[1], 1e-8),
                   f"csv {k}: {g} != {w}")


def read_partials(outdir, np_):
    out = {}
    for rank in range(np_):
        p = outdir / "partial" / f"rank-{rank:05d}.json"
        try:
            out[rank] = json.loads(p.read_text())
        except (OSError, ValueError):
            pass
    return out


def check_partial(doc, rank, args, trigger):
    expect(doc["partial"] is True, "partial must be true")
    expect(doc["trigger"] == trigger, f"trigger {doc['trigger']} != {trigger}")
    expect("summary" not in doc, "partial dump has no summary")
    check_metadata(doc["metadata"], args, args.np, True)
    expect(len(doc["ranks"]) == 1 and doc["ranks"][0]["rank"] == rank, "one-element ranks")
    r = doc["ranks"][0]
    expect(close(r["elapsed_s"], r["mpi_s"] + r["app_s"]), "partial: elapsed != mpi+app")
    expect(r["functions"]["MPI_Init"]["calls"] == 1, "partial: MPI_Init counted")


def wait_for(pred, timeout):
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if pred():
            return True
        time.sleep(0.05)
    return pred()


def run_sleeper(args, outdir, mode):
    np_ = args.np
    extra = {"PARCAE_PROFILE_INTERVAL": "0.2"} if mode == "interval" else {}
    seconds = "1.5" if mode == "interval" else "60"
    proc = launch(args, outdir, extra, [str(outdir), seconds])
    try:
        pids_dir = outdir / "pids"
        ok = wait_for(lambda: len(list(pids_dir.glob("rank-*.pid"))) == np_, 60)
        expect(ok, "ranks did not start")
        if ok:
            for rank in range(np_):
                lines = (pids_dir / f"rank-{rank}.pid").read_text().split()
                expect(lines[1] == "0", f"rank {rank}: parcae_prof_dump() returned {lines[1]}")
            parts = read_partials(outdir, np_)
            expect(len(parts) == np_, "API dumps (partial/rank-*.json) missing")
        if mode == "signal" and ok:
            if args.signal_launcher:  # mpirun / mpiexec forwards SIGUSR1 to the ranks
                os.kill(proc.pid, signal.SIGUSR1)
            else:
                for rank in range(np_):
                    pid = int((pids_dir / f"rank-{rank}.pid").read_text().split()[0])
                    os.kill(pid, signal.SIGUSR1)
            got = wait_for(lambda: all(d.get("trigger") == "signal"
                                       for d in read_partials(outdir, np_).values())
                           and len(read_partials(outdir, np_)) == np_, 30)
            expect(got, "no signal-triggered partial dumps")
            for rank, doc in read_partials(outdir, np_).items():
                check_partial(doc, rank, args, "signal")
            (outdir / "stop").touch()
        rc = proc.wait(timeout=90)
    finally:
        if proc.poll() is None:
            proc.kill()
    expect(rc == 0, f"program exit status {rc}")
    if mode == "interval":
        parts = read_partials(outdir, np_)
        expect(len(parts) == np_, "periodic dumps missing")
        for rank, doc in parts.items():
            check_partial(doc, rank, args, "periodic")
    prof = json.loads((outdir / "profile.json").read_text())
    expect(prof["partial"] is False and len(prof["ranks"]) == np_, "final profile.json")
    expect(not list((outdir / "partial").glob(".*tmp*")), "temporary files left behind")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", required=True, choices=["synthetic", "signal", "interval"])
    ap.add_argument("--flavour", required=True, choices=["openmpi", "mpich"])
    ap.add_argument("--launcher", required=True)
    ap.add_argument("--np", type=int, required=True)
    ap.add_argument("--exe", required=True)
    ap.add_argument("--preload")
    ap.add_argument("--signal-launcher", action="store_true",
                    help="signal mode: send SIGUSR1 to the launcher instead of the ranks")
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    work = Path(args.workdir)
    shutil.rmtree(work, ignore_errors=True)
    outdir = work / "out"  # created by the profiler (rank 0 at finalize, or partial dumps)
    iodir = work / "io"
    iodir.mkdir(parents=True)
    t0 = time.monotonic()
    if args.mode == "synthetic":
        proc = launch(args, outdir, {}, [str(iodir)])
        rc = proc.wait(timeout=300)
        expect(rc == 0, f"program exit status {rc}")
        if rc == 0:
            check_synthetic(args, outdir)
            expect(not list(outdir.glob(".*tmp*")), "temporary files left behind")
    else:
        work.mkdir(parents=True, exist_ok=True)
        run_sleeper(args, work / "out", args.mode)
    print(f"{args.mode} {args.flavour} np {args.np}: {time.monotonic() - t0:.1f} s, "
          f"{len(FAILURES)} failure(s)")
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
