"""MPP contact is distributed, not replicated: the self-contact tube (examples/tube_crush_contact,
1640 contact nodes, *CONTACT_AUTOMATIC_SINGLE_SURFACE) on 2 ranks for 1.5 ms (contact starts at
0.76 ms) with --profile.

* Work: the run log lists the contact nodes each rank searches and evaluates; every rank has
  some and together they are the interface's nodes, each counted once.
* Communication: in the contact phases each rank sends, per cycle, less than a fifth of what the
  replicated scheme (every rank gathering every contact node's position and velocity each
  cycle) would send: 7 doubles per own contact node (the per-rank counts of the log). The
  distributed scheme sends the ghosts near the rank boundary, force contributions and a few
  small reductions.
* The searches exchange nodes near the interface (MPI_Alltoallv inside contact_search), and
  force contributions travel every cycle (point-to-point inside contact_forces).
* Ghosts: on the block sliding across the rank boundary (contact_sliding) the ranks import the
  nodes of segments they do not hold.
That the results are bitwise those of one rank is checked by tests/mpi (mpp_identical).
Skipped when parcae is not built (PARCAE_BIN).
"""
import json
import os
import pathlib
import re
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("PARCAE_BIN", ROOT / "build" / "release" / "bin" / "parcae")).resolve()
ENV = {**os.environ, "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
       "OMP_NUM_THREADS": "1"}
SENDS = ("MPI_Send", "MPI_Isend", "MPI_Allgather", "MPI_Allgatherv", "MPI_Alltoall",
         "MPI_Alltoallv", "MPI_Allreduce", "MPI_Gatherv", "MPI_Bcast")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    if not BIN.exists():
        pytest.skip(f"parcae binary not built ({BIN})")
    work = tmp_path_factory.mktemp("contact_mpp")
    # keep the deck's relative *INCLUDE (../tube_crush/tube_mesh.k) valid
    (work / "tube_crush").mkdir()
    shutil.copy(ROOT / "examples" / "tube_crush" / "tube_mesh.k", work / "tube_crush")
    (work / "tube_crush_contact").mkdir()
    text = (ROOT / "examples" / "tube_crush_contact" / "tube_crush_contact.k").read_text()
    text = re.sub(r"(\*CONTROL_TERMINATION\n(?:\$.*\n)*)\s*\S+", r"\g<1>" + f"{1.5e-3:10.3e}",
                  text, count=1)
    deck = work / "tube_crush_contact" / "tube_crush_contact.k"
    deck.write_text(text)
    out = work / "out"
    p = subprocess.run([str(BIN), "run", str(deck), "-o", str(out), "--np", "2", "--profile",
                        "--no-vtk", "--no-d3plot"],
                       capture_output=True, text=True, timeout=900, env=ENV)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    return p.stdout + p.stderr, json.loads((out / "profile" / "profile.json").read_text())


def test_each_rank_evaluates_its_own_share(run):
    log, _ = run
    total = int(re.search(r"contacts\s+1 interface\(s\), (\d+) contact nodes", log).group(1))
    per_rank = re.search(r"contact nodes searched and evaluated per rank: ([\d /]+)", log)
    assert per_rank, log[-2000:]
    counts = [int(v) for v in per_rank.group(1).split("/")]
    assert len(counts) == 2
    assert all(c > 0 for c in counts)
    assert sum(counts) == total == 1640


def test_contact_communication_is_local(run):
    log, prof = run
    cycles = int(re.search(r"normal termination at cycle (\d+)", log).group(1))
    assert cycles > 1000
    own = [int(v) for v in re.search(r"evaluated per rank: ([\d /]+)", log).group(1).split("/")]
    for r in prof["ranks"]:
        ph = r["phases"]
        search = ph["contact_search"]["functions"]
        sent = sum(f["bytes"] for k in ("contact_search", "contact_forces")
                   for name, f in ph[k]["functions"].items() if name in SENDS)
        replicated = 7 * 8 * own[r["rank"]]  # own contact nodes x 7 doubles
        assert sent / cycles < 0.2 * replicated, (r["rank"], sent / cycles)
        # node exchange at the searches; force contributions sent every cycle
        assert search["MPI_Alltoallv"]["calls"] >= 1
        forces = ph["contact_forces"]["functions"]
        p2p = sum(forces.get(f, {}).get("calls", 0) for f in ("MPI_Isend", "MPI_Irecv"))
        assert p2p >= cycles


def test_ghost_nodes_are_imported_across_ranks(tmp_path):
    # The block sliding on its plate (contact_sliding) crosses the rank boundary: the ranks
    # import the nodes of segments owned elsewhere (the bitwise comparison with one rank is
    # mpp_identical.contact_sliding in tests/mpi).
    if not BIN.exists():
        pytest.skip(f"parcae binary not built ({BIN})")
    deck = ROOT / "examples" / "contact_sliding" / "contact_sliding.k"
    p = subprocess.run([str(BIN), "run", str(deck), "-o", str(tmp_path / "out"), "--np", "2",
                        "--no-vtk", "--no-d3plot"],
                       capture_output=True, text=True, timeout=900, env=ENV)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    m = re.search(r"ghost nodes imported per cycle per rank \(largest plan\) ([\d /]+);", p.stdout)
    assert m, p.stdout[-2000:]
    ghosts = [int(v) for v in m.group(1).split("/")]
    assert len(ghosts) == 2 and max(ghosts) > 0
