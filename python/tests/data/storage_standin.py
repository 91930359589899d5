#!/usr/bin/env python3
"""Stand-in for `parcae run` in the storage-study tests (never used for real studies).

    storage_standin.py run DECK --np N --scratch DIR -o OUTDIR --profile PROFILE_DIR

DECK is JSON: {"blocks": B, "block": BYTES, "sleep": S, "fail": false}. Per simulated rank r
it writes B blocks with os.pwrite into DIR/rank<r>/factors.bin, fsyncs, reads them back with
os.pread, so the scratch traffic is exactly N*B*BYTES written and read. The profile: with
$STANDIN_PROFILER naming libparcae-mpiprof.so, the I/O runs in a child process under that
library (LD_PRELOAD, PARCAE_PROFILE_SERIAL=1), which writes PROFILE_DIR/profile.json itself;
otherwise this script writes a profile of the same schema from what it did. OUTDIR/standin.json
records the times and the environment seen."""
import json
import os
import subprocess
import sys
import time


def do_io(scratch, nranks, blocks, block):
    buf = b"x" * block
    for r in range(nranks):
        d = os.path.join(scratch, f"rank{r}")
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, "factors.bin")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        for k in range(blocks):
            assert os.pwrite(fd, buf, k * block) == block
        os.fsync(fd)
        os.close(fd)
        fd = os.open(path, os.O_RDONLY)
        for k in range(blocks):
            assert len(os.pread(fd, block, k * block)) == block
        os.close(fd)


def bin_of(b):
    return 0 if b == 0 else b.bit_length()


def own_profile(prof_dir, scratch, nranks, blocks, block, seconds):
    def fn(calls, nbytes, size):
        h = [0] * (bin_of(size) + 1)
        h[bin_of(size)] = calls
        return {"calls": calls, "time_s": 0.0, "bytes": nbytes, "hist": h}
    n = nranks * blocks
    io = {"prefix": scratch, "time_s": 0.0,
          "functions": {"pwrite": fn(n, n * block, block), "pread": fn(n, n * block, block),
                        "open": fn(2 * nranks, 0, 0), "close": fn(2 * nranks, 0, 0),
                        "fsync": fn(nranks, 0, 0)}}
    prof = {"schema": "parcae-profile", "version": 1, "partial": False, "trigger": "finalize",
            "metadata": {"mpi_library": "stand-in", "mpi_flavour": "other", "ranks": 1},
            "ranks": [{"rank": 0, "host": "standin", "elapsed_s": seconds, "mpi_s": 0.0,
                       "app_s": seconds, "functions": {}, "phases": {}, "io": io}]}
    os.makedirs(prof_dir, exist_ok=True)
    with open(os.path.join(prof_dir, "profile.json"), "w") as f:
        json.dump(prof, f)


def main(argv):
    if argv[:1] == ["--io-child"]:
        do_io(argv[1], int(argv[2]), int(argv[3]), int(argv[4]))
        return 0
    assert argv[0] == "run", argv
    deck = argv[1]
    opts = {}
    k = 2
    while k < len(argv):
        opts[argv[k]] = argv[k + 1]
        k += 2
    with open(deck) as f:
        spec = json.load(f)
    t0 = time.time()
    nranks, scratch = int(opts["--np"]), opts["--scratch"]
    out, prof = opts["-o"], opts["--profile"]
    if spec.get("fail"):
        print("stand-in: failing on request", file=sys.stderr)
        return 2
    lib = os.environ.get("STANDIN_PROFILER")
    if lib:
        env = dict(os.environ, LD_PRELOAD=lib, PARCAE_PROFILE_SERIAL="1",
                   PARCAE_PROFILE_DIR=prof)
        subprocess.run([sys.executable, __file__, "--io-child", scratch, str(nranks),
                        str(spec["blocks"]), str(spec["block"])], env=env, check=True)
    else:
        do_io(scratch, nranks, spec["blocks"], spec["block"])
    time.sleep(spec.get("sleep", 0.0))
    if not lib:
        own_profile(prof, scratch, nranks, spec["blocks"], spec["block"], time.time() - t0)
    with open(os.path.join(out, "standin.json"), "w") as f:
        json.dump({"start": t0, "end": time.time(), "argv": argv,
                   "io_prefix": os.environ.get("PARCAE_PROFILE_IO_PREFIX"),
                   "bind": os.environ.get("PARCAE_MPI_BIND")}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
