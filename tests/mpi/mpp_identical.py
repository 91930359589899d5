#!/usr/bin/env python3
"""MPP regression: a deck run on N ranks x T threads must give the same results, bit for bit,
as the one-rank run: glstat identical except the timing line, and every VTK state identical
(the MPP run's per-rank .pvtu pieces put back together in model order).

usage: mpp_identical.py PARCAE DECK ENDTIM NP THREADS MPI [DECOMP]
  PARCAE  the parcae binary; DECK an examples/ deck (copied with its includes, ENDTIM
  replaced to keep the test short); MPI openmpi|mpich; DECOMP rcb|metis (default rcb).
"""
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from deck_copy import copy_deck  # noqa: E402
from output_compare import same_file  # noqa: E402

parcae, deck, endtim, np_, threads, mpi = sys.argv[1:7]
decomp = sys.argv[7] if len(sys.argv) > 7 else "rcb"
src = pathlib.Path(deck)
work = pathlib.Path(tempfile.mkdtemp(prefix="parcae_mpp_"))
copy_deck(src, work, float(endtim))
env = {**os.environ, "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
       "OMP_NUM_THREADS": "1"}


def run(args, out):
    cmd = [parcae, "run", str(work / src.name), "-o", str(work / out), "--vtk"] + args
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    if p.returncode != 0:
        sys.exit(f"FAILED: {' '.join(cmd)}\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
    return work / out


ref = run([], "serial")
mpp = run(["--np", np_, "--threads", threads, "--mpi", mpi, "--decomp", decomp], "mpp")


problems = []
if not same_file(ref / "glstat", mpp / "glstat"):
    problems.append("glstat differs")
# VTK: the one-rank run writes one .vtu per state; the MPP run one piece per rank and a .pvtu.
# Put back together in model order, every value must be the one-rank run's (ASCII with
# round-trip precision: equal text means equal doubles).
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "python"))
from parcae_tools.vtk import read_pvd, read_vtu_ascii_or_binary  # noqa: E402

ref_states = read_pvd(ref / "parcae.pvd")
mpp_states = read_pvd(mpp / "parcae.pvd")
states = [pathlib.Path(f).name for _, f in ref_states]
if [t for t, _ in ref_states] != [t for t, _ in mpp_states] or len(states) < 2:
    problems.append(f"different VTK state times: {len(ref_states)} vs {len(mpp_states)}")
for (t, fa), (_, fb) in zip(ref_states, mpp_states):
    a, b = read_vtu_ascii_or_binary(fa), read_vtu_ascii_or_binary(fb)
    if int(np_) > 1 and not fb.endswith(".pvtu"):
        problems.append(f"{fb}: an MPP state should be a .pvtu")
    for key in ("points", "cells", "types"):
        if a[key] != b[key]:
            problems.append(f"state t={t}: {key} differ")
    for key in ("point_data", "cell_data"):
        for name, values in a[key].items():
            if b[key].get(name) != values:
                problems.append(f"state t={t}: {key} {name} differs")
# Every other output file (d3plot family, matsum, rwforc, nodout, history.csv) byte for byte;
# the d3plot's control word 10 is the run's start time.
for f in sorted(ref.iterdir()):
    if not f.is_file() or f.name in ("glstat", "parcae.pvd"):
        continue
    g = mpp / f.name
    if not g.exists():
        problems.append(f"{f.name} missing in the MPP run")
        continue
    if not same_file(f, g):
        problems.append(f"{f.name} differs")
if problems:
    sys.exit(f"np={np_} threads={threads} {mpi} {decomp}: " + "; ".join(problems) + f" (see {work})")
print(f"np={np_} threads={threads} {mpi} {decomp}: glstat, {len(states)} VTK states and the "
      "d3plot, matsum, rwforc, history files bitwise identical to the one-rank run")
shutil.rmtree(work)
