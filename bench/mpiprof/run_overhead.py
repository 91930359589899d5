#!/usr/bin/python3
"""Per-call overhead of libparcae-mpiprof.so (LD_PRELOAD, output enabled) against the same
program unprofiled: medians of several repetitions of mpiprof_pingpong on 2 ranks, for each MPI
library built. Writes bench/mpiprof_overhead.json.

  run_overhead.py --build BUILD_DIR [--json bench/mpiprof_overhead.json] [--reps 5] [--scale 1]
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LAUNCH = {
    "openmpi": ["/usr/bin/mpirun.openmpi", "--mca", "btl", "self,vader", "--bind-to", "none"],
    "mpich": ["/usr/bin/mpirun.mpich"],
}


def run(flavour, exe, lib, outdir, scale):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMP_NUM_THREADS="1")
    for k in ("LD_PRELOAD", "PARCAE_PROFILE_DIR", "PARCAE_PROFILE_INTERVAL"):
        env.pop(k, None)
    cmd = LAUNCH[flavour] + ["-np", "2"]
    rank_env = {}
    if lib:
        rank_env = {"LD_PRELOAD": str(lib), "PARCAE_PROFILE_DIR": str(outdir)}
    for k, v in rank_env.items():
        cmd += ["-x", f"{k}={v}"] if flavour == "openmpi" else ["-genv", k, v]
    cmd += [str(exe), str(scale)]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def library_version(flavour):
    cmd = {"openmpi": ["/usr/bin/mpirun.openmpi", "--version"],
           "mpich": ["/usr/bin/mpirun.mpich", "--version"]}[flavour]
    try:
        text = subprocess.run(cmd, capture_output=True, text=True, timeout=20).stdout
    except OSError:
        return flavour
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    if flavour == "mpich":
        ver = [l for l in lines if l.startswith("Version:")]
        return "MPICH " + ver[0].split(":", 1)[1].strip() if ver else "MPICH"
    return lines[0] if lines else "Open MPI"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True, help="build tree (with lib/<flavour>/ and bench/)")
    ap.add_argument("--json", default="bench/mpiprof_overhead.json")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--scale", type=float, default=1.0)
    args = ap.parse_args()
    build = Path(args.build)
    result = {"benchmark": "parcae-mpiprof-overhead", "hostname": platform.node(),
              "compiler": "", "ranks": 2, "repetitions": args.reps,
              "method": "median over repetitions of the time per call on rank 0, unprofiled vs "
                        "LD_PRELOAD=libparcae-mpiprof.so with PARCAE_PROFILE_DIR set; "
                        "overhead_ns = profiled - unprofiled",
              "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "libraries": {}}
    for flavour in ("openmpi", "mpich"):
        exe = build / "bench" / "mpiprof" / f"mpiprof_pingpong_{flavour}"
        lib = build / "lib" / flavour / "libparcae-mpiprof.so"
        if not exe.exists() or not lib.exists():
            print(f"skipping {flavour}: {exe} or {lib} missing", file=sys.stderr)
            continue
        samples = {"unprofiled": [], "profiled": []}
        with tempfile.TemporaryDirectory() as tmp:
            for rep in range(args.reps):  # interleaved, so drifts hit both alike
                samples["unprofiled"].append(run(flavour, exe, None, None, args.scale))
                samples["profiled"].append(run(flavour, exe, lib, Path(tmp) / str(rep), args.scale))
                if not result["compiler"]:
                    prof = json.loads((Path(tmp) / str(rep) / "profile.json").read_text())
                    result["compiler"] = prof["metadata"]["compiler"]
                    mpi_library = prof["metadata"]["mpi_library"]
        entry = {"mpi_library": mpi_library if samples["profiled"] else library_version(flavour),
                 "kernels": {}}
        for kernel in samples["unprofiled"][0]:
            base = statistics.median(s[kernel] for s in samples["unprofiled"])
            prof = statistics.median(s[kernel] for s in samples["profiled"])
            entry["kernels"][kernel] = {"unprofiled_ns": round(base, 1),
                                        "profiled_ns": round(prof, 1),
                                        "overhead_ns": round(prof - base, 1)}
        result["libraries"][flavour] = entry
        for kernel, k in entry["kernels"].items():
            print(f"{flavour:8s} {kernel:10s} unprofiled {k['unprofiled_ns']:9.1f} ns  profiled "
                  f"{k['profiled_ns']:9.1f} ns  overhead {k['overhead_ns']:7.1f} ns")
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    print("wrote", args.json)


if __name__ == "__main__":
    main()
