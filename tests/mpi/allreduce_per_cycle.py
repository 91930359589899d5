#!/usr/bin/env python3
"""The explicit loop makes one MPI_Allreduce per ordinary cycle (issue 12): run a deck on NP
ranks with the MPI profiler and check, on every rank, that the MPI_Allreduce calls are at most
PER_CYCLE x cycles plus the set-up and output calls: 10% of the cycles, 6 per glstat state
(energies, contact and history outputs reduce) and SLACK.

usage: allreduce_per_cycle.py PARCAE DECK ENDTIM NP MPI PER_CYCLE SLACK
  PER_CYCLE  1 for decks without contact; 2 with adaptive contact search (its decision needs
             the positions of the cycle: one more reduction), see docs/profile.md.
"""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from deck_copy import copy_deck  # noqa: E402

parcae, deck, endtim, np_, mpi, per_cycle, slack = sys.argv[1:8]
src = pathlib.Path(deck)
work = pathlib.Path(tempfile.mkdtemp(prefix="parcae_allreduce_"))
copy_deck(src, work, float(endtim))
env = {**os.environ, "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
       "OMP_NUM_THREADS": "1"}
out = work / "out"
cmd = [parcae, "run", str(work / src.name), "-o", str(out), "--np", np_, "--mpi", mpi,
       "--profile", str(out / "profile"), "--no-vtk"]
p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
if p.returncode != 0:
    sys.exit(f"FAILED: {' '.join(cmd)}\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
m = re.findall(r"termination at cycle (\d+)", p.stdout + p.stderr)
if not m:
    sys.exit("no 'termination at cycle N' line in the log")
cycles = int(m[-1])
prof = json.loads((out / "profile" / "profile.json").read_text())
calls = [r["functions"].get("MPI_Allreduce", {}).get("calls", 0) for r in prof["ranks"]]
states = (out / "glstat").read_text().count("time per zone cycle")
limit = float(per_cycle) * cycles + 0.1 * cycles + 6 * states + float(slack)
print(f"{src.name}: {cycles} cycles, MPI_Allreduce calls per rank {calls} "
      f"({max(calls) / max(cycles, 1):.3f} per cycle), {states} glstat states, limit {limit:.0f}")
if len(calls) != int(np_) or max(calls) > limit:
    sys.exit(f"FAILED: too many MPI_Allreduce calls per cycle (kept {work})")
shutil.rmtree(work, ignore_errors=True)  # kept above when the check fails
