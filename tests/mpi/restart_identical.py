#!/usr/bin/env python3
"""Restart regression: a run stopped and continued from a checkpoint must write exactly what the
uninterrupted run writes (every output file, bit for bit, except glstat's timing line and the
d3plot's run-time stamp).

usage: restart_identical.py PARCAE DECK ENDTIM EVERY NP MPI [nointerrupt]
  DECK an examples/ deck (copied with its includes, ENDTIM replaced to keep the test short);
  EVERY the checkpoint interval in cycles; NP ranks (1 = no mpirun); MPI openmpi|mpich;
  nointerrupt: skip case 2 (for decks that run too briefly to be interrupted reliably).

Cases, each compared with the uninterrupted run:
  1. --checkpoint-every EVERY, then --restart from the older of the two kept checkpoints
     (outputs written after it are rewound and written again);
  2. SIGTERM part-way: exit status 4 and a checkpoint, then --restart OUTDIR;
  3. kill -9 while the second checkpoint is being written (PARCAE_TEST_KILL_IN_CHECKPOINT):
     the incomplete checkpoint is ignored and --restart OUTDIR continues from the first;
  4. a damaged newest checkpoint (one flipped byte; truncated): refused with a clear message
     naming the file and the previous usable checkpoint, which still works;
  5. a checkpoint restarted on another rank count: refused naming the right --np.
"""
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import time

from deck_copy import copy_deck  # noqa: E402
from output_compare import same_file  # noqa: E402

parcae, deck, endtim, every, np_, mpi = sys.argv[1:7]
interrupt = "nointerrupt" not in sys.argv[7:]
np_ = int(np_)
src = pathlib.Path(deck)
work = pathlib.Path(tempfile.mkdtemp(prefix="parcae_restart_"))
copy_deck(src, work, float(endtim))
env = {**os.environ, "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
       "OMP_NUM_THREADS": "1"}
launch = ["--np", str(np_), "--mpi", mpi] if np_ > 1 else []
problems = []


def run(args, expect=0, extra_env=None):
    cmd = [parcae, "run"] + args + launch + ["--vtk"]  # the VTK series is restored too
    p = subprocess.run(cmd, capture_output=True, text=True, env={**env, **(extra_env or {})},
                       timeout=600)
    if expect is not None and p.returncode != expect:
        sys.exit(f"FAILED (exit {p.returncode}, expected {expect}): {' '.join(cmd)}\n"
                 f"{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
    return p


def fresh(args, out, **kw):
    return run([str(work / src.name), "-o", str(work / out)] + args, **kw)


def same_outputs(ref, other, label):
    """Every output file of ref exists in other with the same bytes (glstat: but timing)."""
    n = 0
    for f in sorted(ref.rglob("*")):
        rel = f.relative_to(ref)
        if not f.is_file() or rel.parts[0] == "checkpoints":
            continue
        g = other / rel
        n += 1
        if not g.exists():
            problems.append(f"{label}: {rel} missing")
        elif not same_file(f, g):
            problems.append(f"{label}: {rel} differs")
    extra = [g.relative_to(other) for g in other.rglob("*") if g.is_file()
             and g.relative_to(other).parts[0] != "checkpoints"
             and not (ref / g.relative_to(other)).exists()]
    if extra:
        problems.append(f"{label}: extra files {extra}")
    if n < 3:
        problems.append(f"{label}: only {n} output files compared")
    return n


def checkpoints(out):
    return sorted(p for p in (out / "checkpoints").glob("cycle-*") if (p / "manifest.json").exists())


ref = work / "ref"
fresh([], "ref")

# 1. periodic checkpoints, restart from the older kept one
fresh(["--checkpoint-every", every], "periodic")
kept = checkpoints(work / "periodic")
if len(kept) != 2:
    problems.append(f"periodic: expected the last two checkpoints kept, found {kept}")
p = run(["--restart", str(kept[0])])
if f"restarting from {kept[0]}" not in p.stdout:
    problems.append("periodic: no 'restarting from' line")
n = same_outputs(ref, work / "periodic", "periodic")

# 2. SIGTERM part-way, to every rank process (as a batch system's scancel does; mpirun itself
#    does not forward SIGTERM), and 2b. the stop file <outdir>/d3kil (LS-DYNA's sw1)
def rank_processes(root):
    """The parcae processes below a launcher (Open MPI: its children; MPICH's hydra: the
    children of its proxies)."""
    children = {}
    for d in pathlib.Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            exe = os.readlink(d / "exe")
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append((int(d.name), exe))
    found, todo = [], [root]
    while todo:
        for pid, exe in children.get(todo.pop(), []):
            todo.append(pid)
            if os.path.basename(exe) == "parcae":
                found.append(pid)
    return found


def interrupted(out, how):
    cmd = [parcae, "run", str(work / src.name), "-o", str(out)] + launch + ["--vtk"]
    # PARCAE_TEST_CYCLE_SLEEP_US slows every cycle so that the request lands part-way on any
    # machine (the outputs do not depend on it)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**env, "PARCAE_TEST_CYCLE_SLEEP_US": "20000"})
    deadline = time.time() + 120
    while time.time() < deadline and not (out / "glstat").exists():
        time.sleep(0.02)
    time.sleep(0.1)
    if how == "d3kil":
        (out / "d3kil").write_text("sw1\n")
    elif np_ == 1:
        proc.send_signal(signal.SIGTERM)
    else:
        for r in rank_processes(proc.pid):
            os.kill(r, signal.SIGTERM)
    stdout, _ = proc.communicate(timeout=300)
    if proc.returncode == 0:
        problems.append(f"{how}: the run finished before the request (test inconclusive: make "
                        "the run longer)")
    elif proc.returncode != 4 or not checkpoints(out):
        problems.append(f"{how}: exit {proc.returncode}, checkpoints {checkpoints(out)}\n"
                        f"{stdout[-2000:]}")
    else:
        run(["--restart", str(out)])
        same_outputs(ref, out, how)


if interrupt:
    interrupted(work / "sigterm", "SIGTERM")
    interrupted(work / "d3kil", "d3kil")

# 3. kill -9 while writing the second checkpoint
out = work / "killed"
p = fresh(["--checkpoint-every", every], "killed", expect=None,
          extra_env={"PARCAE_TEST_KILL_IN_CHECKPOINT": "2"})
if p.returncode == 0:
    problems.append("kill9: the run was not killed")
dirs = sorted((out / "checkpoints").glob("cycle-*"))
if len(dirs) != 2 or (dirs[1] / "manifest.json").exists():
    problems.append(f"kill9: expected one complete and one incomplete checkpoint, got {dirs}")
p = run(["--restart", str(out)])
if f"restarting from {dirs[0]}" not in p.stdout:
    problems.append(f"kill9: did not restart from the complete checkpoint {dirs[0]}")
same_outputs(ref, out, "kill9")

# 4. damaged newest checkpoint
out = work / "periodic"
newest, previous = checkpoints(out)[-1], checkpoints(out)[-2]
victim = newest / "rank-00000.bin"
data = bytearray(victim.read_bytes())
data[len(data) // 2] ^= 0x40
victim.write_bytes(bytes(data))
p = run(["--restart", str(out)], expect=2)
if "checksum mismatch" not in p.stderr or str(victim) not in p.stderr or str(previous) not in p.stderr:
    problems.append(f"corrupt: unclear message: {p.stderr.strip()}")
victim.write_bytes(bytes(data[: len(data) // 3]))
p = run(["--restart", str(newest)], expect=2)
if "truncated" not in p.stderr or str(victim) not in p.stderr:
    problems.append(f"truncated: unclear message: {p.stderr.strip()}")
run(["--restart", str(previous)])
same_outputs(ref, out, "previous")

# 5. another rank count
other = 2 if np_ == 1 else 1
p = subprocess.run([parcae, "run", "--restart", str(previous)] +
                   (["--np", "2", "--mpi", mpi] if other == 2 else []),
                   capture_output=True, text=True, env=env, timeout=300)
if p.returncode != 2 or f"--np {np_}" not in p.stderr:
    problems.append(f"rank count: exit {p.returncode}: {p.stderr.strip()[-500:]}")

if problems:
    sys.exit(f"np={np_} {mpi}: " + "\n".join(problems) + f"\n(see {work})")
cases = "periodic, SIGTERM, d3kil" if interrupt else "periodic"
print(f"np={np_} {mpi}: {cases}, kill -9 and damaged-checkpoint restarts reproduce "
      f"all {n} output files bit for bit")
shutil.rmtree(work)
