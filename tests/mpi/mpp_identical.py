#!/usr/bin/env python3
"""MPP regression: a deck run on N ranks x T threads must give the same results, bit for bit,
as the one-rank run: glstat identical except the timing line, and every VTK state identical.

usage: mpp_identical.py PARCAE DECK ENDTIM NP THREADS MPI [DECOMP]
  PARCAE  the parcae binary; DECK an examples/ deck (copied with its includes, ENDTIM
  replaced to keep the test short); MPI openmpi|mpich; DECOMP rcb|metis (default rcb).
"""
import filecmp
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

parcae, deck, endtim, np_, threads, mpi = sys.argv[1:7]
decomp = sys.argv[7] if len(sys.argv) > 7 else "rcb"
src = pathlib.Path(deck)
work = pathlib.Path(tempfile.mkdtemp(prefix="parcae_mpp_"))
for f in src.parent.iterdir():
    if f.is_file():
        shutil.copy(f, work / f.name)
text = (work / src.name).read_text()
text = re.sub(r"(\*CONTROL_TERMINATION\n(?:\$.*\n)*)\s*\S+", r"\g<1>" + f"{float(endtim):10.3e}", text, count=1)
(work / src.name).write_text(text)
env = {**os.environ, "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
       "OMP_NUM_THREADS": "1"}


def run(args, out):
    cmd = [parcae, "run", str(work / src.name), "-o", str(work / out)] + args
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    if p.returncode != 0:
        sys.exit(f"FAILED: {' '.join(cmd)}\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
    return work / out


ref = run([], "serial")
mpp = run(["--np", np_, "--threads", threads, "--mpi", mpi, "--decomp", decomp], "mpp")


def glstat(path):
    # timing ("time per zone cycle") and the date differ from run to run; nothing else may
    return [l for l in (path / "glstat").read_text().splitlines()
            if "time per zone" not in l and " date " not in l]


problems = []
if glstat(ref) != glstat(mpp):
    problems.append("glstat differs")
states = sorted(p.name for p in (ref / "states").glob("*.vtu"))
if states != sorted(p.name for p in (mpp / "states").glob("*.vtu")) or len(states) < 2:
    problems.append(f"different VTK states: {states}")
for s in states:
    if not filecmp.cmp(ref / "states" / s, mpp / "states" / s, shallow=False):
        problems.append(f"{s} differs")
if problems:
    sys.exit(f"np={np_} threads={threads} {mpi} {decomp}: " + "; ".join(problems) + f" (see {work})")
print(f"np={np_} threads={threads} {mpi} {decomp}: glstat and {len(states)} VTK states bitwise "
      "identical to the one-rank run")
shutil.rmtree(work)
