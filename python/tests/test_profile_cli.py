"""The MPI profiler from parcae's command line, end to end.

* `parcae run DECK --np 2 --profile`: profile.json and profile.csv appear; the phases cover the
  run (the time outside every phase, MPI_Init aside, is below 2 % of the elapsed time); the halo exchange's MPI_Isend count is
  neighbours x (cycles + 1) on every rank (one exchange per force pass, the initial pass
  included); the report and the figures render.
* `parcae profile -o DIR -- mpirun ... PROGRAM`: a program that is not parcae (the profiler
  tests' synthetic program, built without the library) is profiled through LD_PRELOAD with
  Open MPI and with MPICH; the report is printed.

Skipped when the binaries have not been built (PARCAE_BIN, set by `make test`).
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
PROG_DIR = BIN.parent.parent / "tests" / "prof"
ENV = {**os.environ, "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
       "OMP_NUM_THREADS": "1"}


@pytest.fixture(scope="module")
def tube_profile(tmp_path_factory):
    if not BIN.exists():
        pytest.skip(f"parcae binary not built ({BIN})")
    work = tmp_path_factory.mktemp("prof_tube")
    src = ROOT / "examples" / "tube_crush"
    deck = (src / "tube_crush.k").read_text().replace("    2.0e-3\n", "    2.0e-4\n", 1)
    (work / "tube_crush.k").write_text(deck)
    shutil.copy(src / "tube_mesh.k", work / "tube_mesh.k")
    out = work / "out"
    p = subprocess.run([str(BIN), "run", str(work / "tube_crush.k"), "-o", str(out), "--np", "2",
                        "--profile"], capture_output=True, text=True, timeout=600, env=ENV)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    cycles = int(re.search(r"normal termination at cycle (\d+)", p.stdout).group(1))
    return out, cycles


def test_run_profile_phases_cover_the_run(tube_profile):
    out, cycles = tube_profile
    prof = json.loads((out / "profile" / "profile.json").read_text())
    assert prof["metadata"]["ranks"] == 2
    assert prof["metadata"]["extra"]["program"] == "parcae run"
    for r in prof["ranks"]:
        phases = r["phases"]
        for name in ("setup", "element_forces", "halo_exchange", "time_step", "nodal_update",
                     "output"):
            assert name in phases, (name, sorted(phases))
        total = sum(p["time_s"] for p in phases.values())
        assert total == pytest.approx(r["elapsed_s"], rel=0.02)
        # Outside every phase: MPI_Init (the profile starts when it is entered) and nothing else
        # worth mentioning (< 2 % of the run).
        init = r["functions"]["MPI_Init_thread"]["time_s"]
        unattributed = phases.get("(none)", {"time_s": 0.0})["time_s"] - init
        assert unattributed <= 0.02 * r["elapsed_s"], (unattributed, r["elapsed_s"])
        # MPI time attributed to phases adds up to the rank's MPI time
        assert sum(p["mpi_s"] for p in phases.values()) == pytest.approx(r["mpi_s"], rel=1e-6,
                                                                          abs=1e-9)


def test_run_profile_halo_messages_match_decomposition(tube_profile):
    out, cycles = tube_profile
    prof = json.loads((out / "profile" / "profile.json").read_text())
    for r in prof["ranks"]:
        neighbours = 1  # two ranks: each has the other as its only neighbour
        f = r["functions"]
        assert f["MPI_Isend"]["calls"] == neighbours * (cycles + 1)
        assert f["MPI_Irecv"]["calls"] == neighbours * (cycles + 1)
        assert f["MPI_Waitall"]["calls"] == cycles + 1
        # all of them inside the halo-exchange phase
        assert r["phases"]["halo_exchange"]["functions"]["MPI_Isend"]["calls"] == cycles + 1
    csv = (out / "profile" / "profile.csv").read_text().splitlines()
    assert csv[0] == "rank,kind,name,calls,time_s,bytes"
    assert any(line.startswith("1,function,MPI_Isend,") for line in csv)


def test_run_profile_report_and_figures(tube_profile, tmp_path):
    out, _ = tube_profile
    p = subprocess.run([str(BIN), "profile", "report", str(out / "profile"), "--png",
                        str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "MPI_Waitall" in p.stdout and "halo_exchange" in p.stdout
    for png in ("mpi_vs_user.png", "mpi_functions.png", "message_sizes.png", "phases.png"):
        data = (tmp_path / png).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000, png


@pytest.mark.parametrize("flavour,launcher", [("openmpi", "mpirun.openmpi"),
                                              ("mpich", "mpirun.mpich")])
def test_profile_any_program_through_ld_preload(flavour, launcher, tmp_path):
    prog = PROG_DIR / f"prof_synthetic_{flavour}_plain"
    if not BIN.exists() or not prog.exists() or not shutil.which(launcher):
        pytest.skip(f"{prog} or {launcher} not available")
    (tmp_path / "io").mkdir()
    cmd = [str(BIN), "profile", "-o", str(tmp_path / "p"), "--", launcher, "-np", "2"]
    if flavour == "openmpi":
        cmd += ["--mca", "btl", "self,vader", "--bind-to", "none"]
    cmd += [str(prog), str(tmp_path / "io")]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=ENV, cwd=tmp_path)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    prof = json.loads((tmp_path / "p" / "profile.json").read_text())
    assert prof["metadata"]["mpi_flavour"] == ("OpenMPI" if flavour == "openmpi" else "MPICH")
    assert prof["metadata"]["ranks"] == 2
    assert "MPI_Allreduce" in prof["ranks"][1]["functions"]
    assert "MPI functions" in p.stdout  # the report printed after the run


def test_profile_compare_shm_and_tcp(tmp_path):
    if not BIN.exists():
        pytest.skip("parcae not built")
    data = ROOT / "python" / "tests" / "data"
    p = subprocess.run([str(BIN), "profile", "compare", str(data / "profile_shm"),
                        str(data / "profile_tcp")], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "self,vader" in p.stdout and "self,tcp" in p.stdout
