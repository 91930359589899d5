"""Trusses in parcae's outputs: the d3plot beam section (NEL2 elements of N1 N2 N3, NV1D = 6 words
per beam, the axial force first) read back by lasso-python and by VTK's vtkLSDynaReader, against
the VTK cell data of the same run (line cells, stress xx = axial force / A), at np = 1 and 2 (the
beam data must not depend on the rank count).

The deck is examples/truss_pendulum (ten trusses of A = 2 mm^2 holding a rigid block), run to
0.2 s. lasso runs in build/pyenv (scripts/setup_pyenv.sh; skipped without it).

Tolerance: 4-byte d3plot words round to 24 bits (relative 6e-8); forces are compared to 1e-6 of
the largest force (16x the rounding bound), as python/tests/test_d3plot_readers.py does.
"""
import json
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
PYENV = ROOT / "build" / "pyenv" / "bin" / "python"
BIN = pathlib.Path(os.environ.get("PARCAE_BIN", ROOT / "build" / "release" / "bin" / "parcae"))
DECK = ROOT / "examples" / "truss_pendulum" / "truss_pendulum.k"
AREA = 2.0
N_TRUSS = 10

LASSO = """
import json, sys
from lasso.dyna import D3plot, ArrayType as A
d = D3plot(sys.argv[1])
print(json.dumps({
    "ids": d.arrays[A.element_beam_ids].tolist(),
    "nodes": d.arrays[A.element_beam_node_indexes].tolist(),
    "parts": d.arrays[A.element_beam_part_indexes].tolist(),
    "force": d.arrays[A.element_beam_axial_force].tolist(),
    "alive": d.arrays[A.element_beam_is_alive].tolist(),
    "times": d.arrays[A.global_timesteps].tolist(),
}))
"""

VTK_READER = """
import json, sys, vtk
r = vtk.vtkLSDynaReader()
r.SetDatabaseDirectory(sys.argv[1])
r.UpdateInformation()
out = {"beams": r.GetNumberOfBeamCells(), "force": []}
for k in range(r.GetNumberOfTimeSteps()):
    r.SetTimeStep(k)
    r.Update()
    mb = r.GetOutput()
    for i in range(mb.GetNumberOfBlocks()):
        b = mb.GetBlock(i)
        a = b.GetCellData().GetArray("AxialForce") if b is not None else None
        if a is not None:
            out["force"].append([a.GetValue(j) for j in range(a.GetNumberOfTuples())])
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    if not PYENV.exists():
        pytest.skip(f"no d3plot reader environment ({PYENV}); run scripts/setup_pyenv.sh")
    if not BIN.exists():
        pytest.skip(f"parcae binary not built ({BIN})")
    work = tmp_path_factory.mktemp("truss_run")
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OMPI_ALLOW_RUN_AS_ROOT": "1",
           "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}
    out = {}
    for np_ in (1, 2):
        d = work / f"np{np_}"
        cmd = [str(BIN), "run", str(DECK), "-o", str(d), "--end-time", "0.2", "--vtk"]
        if np_ > 1:
            cmd += ["--np", str(np_)]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
        assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
        lasso = subprocess.run([str(PYENV), "-c", LASSO, str(d / "d3plot")], capture_output=True,
                               text=True, timeout=600)
        assert lasso.returncode == 0, lasso.stderr[-3000:]
        out[np_] = (d, json.loads(lasso.stdout))
    return out


def test_vtk_reader_reads_the_beam_forces(runs):
    d, b = runs[1]
    p = subprocess.run([str(PYENV), "-c", VTK_READER, str(d)], capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    v = json.loads(p.stdout)
    assert v["beams"] == N_TRUSS
    assert v["force"] == b["force"]  # the same single-precision words


def test_lasso_reads_the_beam_section(runs):
    _, b = runs[1]
    assert b["ids"] == list(range(1, N_TRUSS + 1))
    # N1 N2 (0-based model node indices: nodes 1-11 come first in the deck), N3 (blank: N1)
    assert [row[:2] for row in b["nodes"]] == [[k, k + 1] for k in range(N_TRUSS)]
    assert set(b["parts"]) == {0}  # part 1 (wire) is the first part
    force = b["force"]
    assert len(force) == len(b["times"]) and all(len(row) == N_TRUSS for row in force)
    assert all(v == 1 for row in b["alive"] for v in row)
    # The wire holds the block: its force rings between about 0 and twice the mean m g cos(theta)
    # + m omega^2 d (4.3 N at 30 degrees to 5.3 N at 0.2 s; the deck's header), so the states'
    # average lies within a factor 1.5 of 4.8 N, and no state is in compression beyond 1 % of m g.
    avg = sum(sum(row) for row in force[1:]) / (N_TRUSS * (len(force) - 1))
    assert 4.8 / 1.5 < avg < 4.8 * 1.5, avg
    assert min(v for row in force for v in row) > -0.05


def test_beam_forces_match_vtk_and_do_not_depend_on_ranks(runs):
    from parcae_tools.vtk import read_pvd, read_vtu_ascii_or_binary

    d, b = runs[1]
    force = b["force"]
    states = read_pvd(d / "parcae.pvd")
    assert len(states) == len(b["times"])
    scale = max(abs(v) for row in force for v in row)
    for k, (t, f) in enumerate(states):
        g = read_vtu_ascii_or_binary(f)
        lines = [i for i, c in enumerate(g["cells"]) if len(c) == 2]
        assert len(lines) == N_TRUSS
        vtk_force = [g["cell_data"]["stress"][i][0] * AREA for i in lines]
        for a, v in zip(force[k], vtk_force):
            assert abs(a - v) <= 1e-6 * scale, (t, force[k], vtk_force)
    _, b2 = runs[2]
    assert b2["force"] == b["force"] and b2["nodes"] == b["nodes"]
