#!/usr/bin/env python3
"""Implicit peer benchmark: the generated cylinder model (parcae generate cylinders) solved by
parcae (np 1 and 2, in core and out of core) and by CalculiX ccx on the same mesh and loads.

    python3 bench/implicit_peer.py [--scale 1] [--np 1,2] [--modes incore,ooc]
        [--ccx-threads 2] [--skip-ccx] [--skip-parcae] [--parcae build/release/bin/parcae]
        [--workdir /var/tmp/parcae-peer] [-o bench/implicit_peer.json]

Per run: wall time to solution (the whole command, reading included), the solver's own figures
(parcae: factorisation time, MUMPS memory and scratch bytes from its closing line; ccx: "Total
CalculiX Time" and peak memory), the POSIX I/O of the out-of-core scratch directory (parcae's
profile, PARCAE_PROFILE_IO_PREFIX) and the radial displacement of the bore at mid-height
(both codes should agree to discretisation differences). Machine metadata as `parcae bench`
writes it. The figures depend on the load of the machine (metadata.load_average).
"""
import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))

from parcae_tools import generate as gen  # noqa: E402
from parcae_tools.bench import machine_metadata  # noqa: E402
from parcae_tools.storage_study import io_summary  # noqa: E402

_DONE = re.compile(r"normal termination: (\d+) steps, (\d+) equations, ([0-9.]+) s "
                   r"\(factorisation ([0-9.]+) s, MUMPS memory ([0-9.]+) MB"
                   r"(?:, out of core: (\d+) bytes of scratch)?\)")


def _timed(cmd, env, log_path, cwd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.monotonic()
    with open(log_path, "w") as log:
        rc = subprocess.run(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=cwd).returncode
    wall = time.monotonic() - t0
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    with open(log_path) as f:
        text = f.read()
    # ru_maxrss of the children is the largest so far: only meaningful when it grew.
    return rc, wall, (peak * 1024 if peak > before else None), text


def bore_node(spec):
    """Node id on the bore at theta = 0, mid-height (the x axis points radially there)."""
    return 1 + spec.n_theta * (spec.n_rings * (spec.n_z // 2))


def ccx_bore_displacement(frd_path, node):
    u = gen.frd_displacement(frd_path, node)
    return None if u is None else u[0]


def parcae_bore_displacement(outdir, node):
    u = gen.d3plot_displacement(outdir, node)
    return None if u is None else u[0]


def run_ccx(args, spec, inp, work):
    d = os.path.join(work, "ccx")
    os.makedirs(d, exist_ok=True)
    shutil.copy(inp, os.path.join(d, "cyl.inp"))
    env = dict(os.environ, OMP_NUM_THREADS=str(args.ccx_threads),
               CCX_NPROC_EQUATION_SOLVER=str(args.ccx_threads),
               CCX_NPROC_STIFFNESS=str(args.ccx_threads))
    rc, wall, rss, text = _timed([args.ccx, "-i", "cyl"], env, os.path.join(d, "ccx.log"), d)
    m = re.search(r"Total CalculiX Time:\s*([0-9.]+)", text)
    solver = re.search(r"Factoring the system of equations using the (.*)", text)
    return {"code": "ccx", "threads": args.ccx_threads, "rc": rc, "wall_s": wall,
            "ccx_total_s": float(m.group(1)) if m else None,
            "solver": solver.group(1).strip() if solver else None, "peak_rss_bytes": rss,
            "element": args.ccx_element,
            "bore_ux_mm": ccx_bore_displacement(os.path.join(d, "cyl.frd"), bore_node(spec))
            if rc == 0 else None}


def run_parcae(args, spec, deck, np_, mode, work):
    d = os.path.join(work, f"parcae_np{np_}_{mode}")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    scratch = os.path.join(args.scratch or d, f"scratch_np{np_}_{mode}")
    os.makedirs(scratch, exist_ok=True)
    prof = os.path.join(d, "profile")
    cmd = [args.parcae, "run", deck, "--np", str(np_), "-o", d, "--profile", prof,
           "--scratch", scratch, "--no-vtk", "--d3plot-words", "8"]
    env = dict(os.environ, PARCAE_PROFILE_IO_PREFIX=scratch)
    rc, wall, rss, text = _timed(cmd, env, os.path.join(d, "parcae.log"), d)
    row = {"code": "parcae", "np": np_, "mode": mode, "rc": rc, "wall_s": wall,
           "peak_rss_bytes_one_process": rss, "command": " ".join(cmd)}
    m = _DONE.search(text)
    if m:
        row.update({"steps": int(m.group(1)), "equations": int(m.group(2)),
                    "solver_elapsed_s": float(m.group(3)), "factor_s": float(m.group(4)),
                    "mumps_memory_mb": float(m.group(5)),
                    "scratch_bytes": int(m.group(6)) if m.group(6) else 0})
    else:
        row["error"] = text.strip().splitlines()[-1] if text.strip() else f"exit status {rc}"
    try:
        row["bore_ux_mm"] = parcae_bore_displacement(d, bore_node(spec)) if rc == 0 else None
    except (OSError, ValueError, IndexError) as e:
        row["bore_ux_mm"] = None
        row["bore_ux_error"] = str(e)
    try:
        with open(os.path.join(prof, "profile.json")) as f:
            p = json.load(f)
        io = io_summary(p)
        io.pop("functions", None)
        row["io"] = io
    except (OSError, ValueError):
        row["io"] = None
    shutil.rmtree(scratch, ignore_errors=True)
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--np", default="1,2")
    ap.add_argument("--modes", default="incore,ooc")
    ap.add_argument("--ccx", default=shutil.which("ccx") or "/usr/bin/ccx")
    ap.add_argument("--ccx-threads", type=int, default=2)
    ap.add_argument("--ccx-element", default="C3D8", choices=["C3D8", "C3D8I"])
    ap.add_argument("--skip-ccx", action="store_true")
    ap.add_argument("--skip-parcae", action="store_true")
    ap.add_argument("--parcae", default=os.path.join(HERE, "..", "build", "release", "bin",
                                                     "parcae"))
    ap.add_argument("--scratch", help="parent of the out-of-core scratch directories "
                                      "(default: the run directories)")
    ap.add_argument("--workdir", default="/var/tmp/parcae-implicit-peer")
    ap.add_argument("-o", "--output", default=os.path.join(HERE, "implicit_peer.json"))
    args = ap.parse_args()
    if not args.skip_ccx and not (os.path.isfile(args.ccx) and os.access(args.ccx, os.X_OK)):
        print(f"implicit_peer: CalculiX not found at {args.ccx}: install it with "
              "scripts/setup_peers.sh (Debian calculix-ccx), pass --ccx PATH, or --skip-ccx",
              file=sys.stderr)
        return 2
    work = os.path.abspath(args.workdir)
    os.makedirs(work, exist_ok=True)
    spec = gen.cylinder_spec(args.scale)
    mesh = gen.build_cylinders(spec)
    decks = {}
    for mode in args.modes.split(","):
        spec.out_of_core = mode == "ooc"
        decks[mode] = os.path.join(work, f"cyl_{mode}.k")
        gen.write_lsdyna(mesh, decks[mode])
    inp = os.path.join(work, "cyl.inp")
    gen.write_ccx(mesh, inp, args.ccx_element)
    meta = machine_metadata()
    meta["load_average"] = os.getloadavg()
    result = {"benchmark": "implicit_peer", "metadata": meta, "scale": args.scale,
              "model": gen.model_counts(spec), "runs": []}
    if not args.skip_ccx:
        print(f"ccx ({args.ccx_threads} threads) ...", flush=True)
        result["runs"].append(run_ccx(args, spec, inp, work))
        print(json.dumps(result["runs"][-1]), flush=True)
    if not args.skip_parcae:
        args.parcae = os.path.abspath(args.parcae)
        for np_ in [int(x) for x in args.np.split(",")]:
            for mode in args.modes.split(","):
                print(f"parcae np {np_} {mode} ...", flush=True)
                result["runs"].append(run_parcae(args, spec, decks[mode], np_, mode, work))
                print(json.dumps(result["runs"][-1]), flush=True)
    ccx = next((r for r in result["runs"] if r["code"] == "ccx" and r["rc"] == 0), None)
    for r in result["runs"]:
        if r["code"] == "parcae" and ccx and r["rc"] == 0:
            r["speedup_vs_ccx"] = ccx["wall_s"] / r["wall_s"]
    with open(args.output, "w") as f:
        json.dump(result, f, indent=1)
    print(f"wrote {args.output}")
    return 0 if all(r["rc"] == 0 for r in result["runs"]) else 1


if __name__ == "__main__":
    sys.exit(main())
