#!/usr/bin/env python3
"""Benchmark of the CFD solver: lid-driven cavity Re = 1000 (2D 256^2 by default, --dim 3 for
a 3D cube), np x threads = 1x1, 2x1, 1x2, with the MPI profile; and the peer, OpenFOAM's
icoFoam, on the same grid to the same end time (serial).

    python3 bench/cfd_cavity.py [--cells 256] [--dim 2] [--end-time 0.5] [--configs 1x1,2x1,1x2]
                                [--no-openfoam] [-o bench/cfd_cavity.json]

For each parcae configuration: steps, wall time, time per step, cell-updates per second (and
per core = per rank x thread), the share of MPI_Allreduce in the elapsed time (summed over
ranks), halo bytes per step and rank, and the time per CFD phase. For icoFoam: the wall time of
the solver (blockMesh excluded), its steps (fixed Courant number 0.5, as the tutorial), and the
largest difference of the centreline u (x = 0.5) between the two codes at the end time.
Timings are wall-clock: metadata.load_average says how busy the machine was.
"""
import argparse
import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PARCAE = os.path.join(ROOT, "build", "release", "bin", "parcae")
TUTORIAL = "/usr/share/doc/openfoam-examples/examples/incompressible/icoFoam/cavity/cavity"
FOAM_BASHRC = "/usr/share/openfoam/etc/bashrc"


def metadata():
    cpu = ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "host": platform.node(),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "load_average": os.getloadavg(),
        "kernel": platform.release(),
        "parcae_commit": commit,
        "python": platform.python_version(),
    }


def run_parcae(cells, dim, end_time, np_, threads, outdir):
    cmd = [PARCAE, "cfd", "cavity", "--re", "1000", "--cells", str(cells), "--dim", str(dim),
           "--end-time", str(end_time), "--np", str(np_), "--threads", str(threads),
           "-o", outdir, "--profile"]
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.time() - t0
    if p.returncode != 0:
        sys.exit(f"parcae failed ({p.returncode}): {' '.join(cmd)}\n{p.stdout}\n{p.stderr}")
    m = re.search(r"after (\d+) steps, t = \S+ \(([\d.]+) s wall", p.stdout)
    steps, solver_s = int(m.group(1)), max(1e-6, float(m.group(2)))
    versions = re.search(r"(PETSc [^\n]*hypre [\d.]+)", p.stdout)
    halo = re.search(r"halo (\d+) B per step", p.stdout)
    prof = json.load(open(os.path.join(outdir, "profile", "profile.json")))
    s = prof["summary"]
    funcs = s["functions"]
    elapsed_sum = s["elapsed_s"]["sum"]
    allreduce = funcs.get("MPI_Allreduce", {}).get("time_s", {}).get("sum", 0.0)
    isend_bytes = funcs.get("MPI_Isend", {}).get("bytes", {}).get("sum", 0)
    phases = {}
    for r in prof["ranks"]:
        for name, ph in r.get("phases", {}).items():
            t = ph.get("time_s", ph.get("app_s", 0.0)) if isinstance(ph, dict) else ph
            phases[name] = phases.get(name, 0.0) + (t if isinstance(t, (int, float)) else 0.0)
    ncells = cells ** dim
    cores = np_ * threads
    return {
        "command": " ".join(cmd),
        "np": np_, "threads": threads, "cells": ncells, "steps": steps,
        "solver_wall_s": solver_s, "process_wall_s": round(wall, 3),
        "time_per_step_ms": 1e3 * solver_s / steps,
        "cell_updates_per_s": ncells * steps / solver_s,
        "cell_updates_per_s_per_core": ncells * steps / solver_s / cores,
        "mpi_share": s["mpi_s"]["sum"] / elapsed_sum if elapsed_sum else 0.0,
        "allreduce_share": allreduce / elapsed_sum if elapsed_sum else 0.0,
        "allreduce_calls_per_step": funcs.get("MPI_Allreduce", {}).get("calls", {}).get("sum", 0) / max(1, np_) / steps,
        "halo_bytes_per_step_rank0": int(halo.group(1)) if halo else 0,
        "p2p_bytes_per_step_per_rank": isend_bytes / max(1, np_) / steps,
        "phase_seconds_sum_over_ranks": phases,
        "libraries": versions.group(1) if versions else "",
        "centerline_u": os.path.join(outdir, "centerline_u.csv"),
    }


def foam_env_run(case, args):
    return subprocess.run(["bash", "-c", f"source {FOAM_BASHRC} >/dev/null 2>&1; cd {case} && {args}"],
                          capture_output=True, text=True)


def run_openfoam(cells, end_time, workdir, pressure="gamg"):
    case = os.path.join(workdir, "cavity")
    shutil.copytree(TUTORIAL, case)

    def edit(rel, subs):
        path = os.path.join(case, rel)
        text = open(path).read()
        for a, b in subs:
            text, n = re.subn(a, b, text)
            if n == 0:
                sys.exit(f"OpenFOAM case: no match for {a!r} in {rel}")
        open(path, "w").write(text)

    dt = 0.5 / cells  # Courant number 0.5 at the lid speed (as the tutorial's 0.005 on 20 cells / 0.1 m)
    edit("system/blockMeshDict", [(r"scale\s+[\d.]+;", "scale 1;"),
                                  (r"\(20 20 1\)", f"({cells} {cells} 1)")])
    edit("system/controlDict", [(r"endTime\s+[\d.]+;", f"endTime {end_time};"),
                                (r"deltaT\s+[\d.]+;", f"deltaT {dt};"),
                                (r"writeControl\s+\w+;", "writeControl runTime;"),
                                (r"writeInterval\s+\d+;", f"writeInterval {end_time};")])
    edit("constant/transportProperties", [(r"(nu\s+(\[[^\]]*\]\s*)?)[\d.eE+-]+;", r"\g<1>0.001;")])
    if pressure == "gamg":
        # What an OpenFOAM user runs at 256^2: GAMG for the pressure (the tutorial's PCG + DIC
        # is for its 20 x 20 grid), the same tolerances.
        edit("system/fvSolution", [(r"solver\s+PCG;\s*preconditioner\s+DIC;",
                                    "solver GAMG;\n        smoother GaussSeidel;")])
    p = foam_env_run(case, "blockMesh")
    if p.returncode != 0:
        sys.exit("blockMesh failed:\n" + p.stdout[-2000:] + p.stderr[-2000:])
    t0 = time.time()
    p = foam_env_run(case, "icoFoam")
    wall = time.time() - t0
    if p.returncode != 0:
        sys.exit("icoFoam failed:\n" + p.stdout[-2000:] + p.stderr[-2000:])
    steps = len(re.findall(r"^Time = ", p.stdout, re.M))
    # Centreline u at x = 0.5: mean of the two cell columns around it (blockMesh numbers i fastest).
    tdir = sorted((d for d in os.listdir(case) if re.fullmatch(r"[\d.e+-]+", d) and float(d) > 0),
                  key=float)[-1]
    text = open(os.path.join(case, tdir, "U")).read()
    body = text[text.index("internalField"):]
    vec = re.findall(r"\(([-\d.eE+]+) ([-\d.eE+]+) [-\d.eE+]+\)", body[:body.index("boundaryField")])
    u = [float(a) for a, _ in vec]
    prof = []
    for j in range(cells):
        prof.append(((j + 0.5) / cells, 0.5 * (u[j * cells + cells // 2 - 1] + u[j * cells + cells // 2])))
    return {"command": f"source {FOAM_BASHRC}; blockMesh; icoFoam (case {case})",
            "pressure_solver": "GAMG (GaussSeidel smoother)" if pressure == "gamg"
            else "PCG + DIC (the tutorial's)",
            "version": "OpenFOAM v1912 (Debian)", "cells": cells * cells, "steps": steps,
            "deltaT": dt, "solver_wall_s": round(wall, 3), "time_per_step_ms": 1e3 * wall / max(1, steps),
            "cell_updates_per_s": cells * cells * steps / wall}, prof


def read_profile(path):
    rows = [l.strip().split(",") for l in open(path)][1:]
    return [(float(a), float(b)) for a, b in rows]


def max_diff(a, b):
    # b sampled at a's interior points by linear interpolation.
    out = 0.0
    for s, v in a:
        for (s0, v0), (s1, v1) in zip(b, b[1:]):
            if s0 <= s <= s1:
                w = (s - s0) / (s1 - s0) if s1 > s0 else 0
                out = max(out, abs(v - ((1 - w) * v0 + w * v1)))
                break
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cells", type=int, default=256)
    ap.add_argument("--dim", type=int, default=2, choices=[2, 3])
    ap.add_argument("--end-time", type=float, default=0.5)
    ap.add_argument("--configs", default="1x1,2x1,1x2")
    ap.add_argument("--no-openfoam", action="store_true")
    ap.add_argument("--foam-pressure", default="gamg", choices=["gamg", "tutorial"],
                    help="icoFoam's pressure solver: GAMG (default, what its users run at this "
                    "size) or the tutorial's PCG + DIC")
    ap.add_argument("-o", "--output", default=os.path.join(ROOT, "bench", "cfd_cavity.json"))
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="parcae_cfd_bench_")
    result = {"benchmark": "cfd_cavity", "re": 1000, "dim": a.dim, "cells_per_side": a.cells,
              "end_time": a.end_time, "metadata": metadata(), "parcae": []}
    for cfg in a.configs.split(","):
        np_, th = (int(x) for x in cfg.split("x"))
        r = run_parcae(a.cells, a.dim, a.end_time, np_, th, os.path.join(work, f"parcae_{cfg}"))
        print(f"parcae {cfg}: {r['steps']} steps, {r['solver_wall_s']:.2f} s, {r['time_per_step_ms']:.2f} ms/step, "
              f"{r['cell_updates_per_s_per_core']:.3g} cell-updates/s/core, Allreduce {100 * r['allreduce_share']:.1f} %, "
              f"halo {r['halo_bytes_per_step_rank0']} B/step (all point-to-point incl. hypre: "
              f"{r['p2p_bytes_per_step_per_rank']:.0f} B/step/rank)", flush=True)
        result["parcae"].append(r)
    if not a.no_openfoam and a.dim == 2 and os.path.exists(FOAM_BASHRC):
        foam, prof = run_openfoam(a.cells, a.end_time, work, a.foam_pressure)
        mine = read_profile(result["parcae"][0]["centerline_u"])
        foam["max_centerline_u_difference_vs_parcae"] = max_diff(prof, mine)
        foam["parcae_1x1_speedup"] = foam["solver_wall_s"] / result["parcae"][0]["solver_wall_s"]
        result["openfoam"] = foam
        print(f"icoFoam: {foam['steps']} steps, {foam['solver_wall_s']:.2f} s; parcae 1x1 is "
              f"{foam['parcae_1x1_speedup']:.2f}x faster; centreline u differs by "
              f"{foam['max_centerline_u_difference_vs_parcae']:.4f}", flush=True)
    os.makedirs(os.path.dirname(os.path.abspath(a.output)), exist_ok=True)
    with open(a.output, "w") as f:
        json.dump(result, f, indent=2)
    print("wrote", a.output)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
