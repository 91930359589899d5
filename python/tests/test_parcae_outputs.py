"""parcae's own outputs read back with parcae_tools: glstat and the VTK time series.

Runs the Taylor bar example for a short time with the built `parcae` (PARCAE_BIN, set by
`make test`; skipped when no binary has been built) and checks what it wrote against the
deck's own data: the initial kinetic energy 0.5 m v^2, the mesh size, and that the VTK points
are the initial coordinates plus the displacement array.
"""
import math
import os
import pathlib
import shutil
import subprocess

import pytest

from parcae_tools.glstat import read_glstat
from parcae_tools.vtk import read_pvd, read_vtu_ascii_or_binary

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("PARCAE_BIN", ROOT / "build" / "release" / "bin" / "parcae"))


@pytest.fixture(scope="module")
def taylor_run(tmp_path_factory):
    if not BIN.exists():
        pytest.skip(f"parcae binary not built ({BIN})")
    work = tmp_path_factory.mktemp("taylor")
    src = ROOT / "examples" / "taylor_bar"
    deck = (src / "taylor_bar.k").read_text()
    deck = deck.replace("    8.0e-5\n", "    1.0e-5\n", 1)  # ENDTIM: 10 us
    deck = deck.replace("*DATABASE_BINARY_D3PLOT\n    8.0e-6", "*DATABASE_BINARY_D3PLOT\n    2.5e-6")
    (work / "taylor_bar.k").write_text(deck)
    shutil.copy(src / "taylor_bar_mesh.k", work / "taylor_bar_mesh.k")
    out = work / "out"
    proc = subprocess.run([str(BIN), "run", str(work / "taylor_bar.k"), "-o", str(out), "--vtk"],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "OMP_NUM_THREADS": "1"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out


def test_glstat_energies(taylor_run):
    g = read_glstat(taylor_run / "glstat")
    # Quarter bar: radius 3.2 mm, length 32.4 mm, rho 8.93e-9 t/mm^3, v = 227000 mm/s.
    # The mesh approximates the circle with straight-sided hexahedra: its area is 0.6% short.
    mass = 8.93e-9 * math.pi * 3.2**2 / 4 * 32.4
    ke0 = 0.5 * mass * 227000.0**2
    assert g["time"][0] == 0.0
    assert g["kinetic"][0] == pytest.approx(ke0, rel=1e-2)
    assert g["vy"][0] == pytest.approx(-227000.0, rel=1e-5)
    assert g["time"][-1] == pytest.approx(1.0e-5, rel=1e-5)
    # Energy is converted, not created: ratio within 1% at every state.
    for r in g["energy_ratio"]:
        assert abs(r - 1.0) < 0.01
    assert g["kinetic"][-1] < g["kinetic"][0]
    assert g["internal"][-1] > 0


def test_vtk_series(taylor_run):
    states = read_pvd(taylor_run / "parcae.pvd")
    assert [round(t / 2.5e-6) for t, _ in states] == [0, 1, 2, 3, 4]
    first = read_vtu_ascii_or_binary(states[0][1])
    last = read_vtu_ascii_or_binary(states[-1][1])
    assert len(first["points"]) == 1122
    assert len(last["types"]) == 768
    assert set(last["types"]) == {12}
    for name in ("displacement", "velocity"):
        assert len(last["point_data"][name]) == 1122
    assert len(last["cell_data"]["stress"][0]) == 6
    assert set(last["cell_data"]["part_id"]) == {1.0}
    # points(t) = points(0) + displacement(t)
    for p0, p, u in zip(first["points"], last["points"], last["point_data"]["displacement"]):
        for k in range(3):
            assert p[k] == pytest.approx(p0[k] + u[k], abs=1e-9)
    # the impact face has moved no further than the wall
    assert min(p[1] for p in last["points"]) >= -1e-9
    # plastic flow started at the impact face
    assert max(last["cell_data"]["effective_plastic_strain"]) > 0.1
