"""The implicit solver's d3plot and d3eigv read back by lasso-python (build/pyenv; skipped when
it is missing), for the examples of examples/implicit at np = 1:

- cantilever_static: two load steps; the tip deflection of the last state is the run's
  (191.1 um, within 2 % of Timoshenko's 191.96 um: the tolerance of the C++ test), states at
  t = 0, 0.5, 1 and the mean element stresses present.
- cantilever_modes: one d3eigv state per mode, its time the frequency of eigout's table (to the
  4-byte word's precision, 1e-6 relative).
- shell_plate: MITC4 shells in the d3plot: 256 shells with 3 layers of stresses and the
  thickness; the centre deflection of the last state within 1 % of Kirchhoff's 0.00406 q a^4 / D
  (the tolerance of the C++ plate test), bottom and top bending stresses of opposite sign.
"""
import json
import os
import pathlib
import subprocess
import sys
import tempfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PYENV = ROOT / "build" / "pyenv" / "bin" / "python"
BIN = pathlib.Path(os.environ.get("PARCAE_BIN", ROOT / "build" / "release" / "bin" / "parcae"))

pytestmark = pytest.mark.skipif(not PYENV.exists() or not BIN.exists(),
                                reason="needs build/pyenv (lasso-python) and a parcae build")

READ = """
import json, sys
from lasso.dyna import D3plot, ArrayType
d = D3plot(sys.argv[1])
out = {"t": d.arrays[ArrayType.global_timesteps].tolist()}
disp = d.arrays.get(ArrayType.node_displacement)
if disp is not None:
    out["x"] = disp.tolist()
out["ids"] = d.arrays[ArrayType.node_ids].tolist()
s = d.arrays.get(ArrayType.element_solid_stress)
out["nstress"] = 0 if s is None else int(s.shape[1])
sh = d.arrays.get(ArrayType.element_shell_stress)
if sh is not None:
    out["shell_stress"] = sh[-1].tolist()
    out["shell_thickness"] = d.arrays[ArrayType.element_shell_thickness][-1].tolist()
print(json.dumps(out))
"""


def run(deck, outdir):
    r = subprocess.run([str(BIN), "run", str(deck), "-o", str(outdir)], capture_output=True,
                       text=True, timeout=300)
    if "has no implicit solver" in r.stdout + r.stderr:
        pytest.skip("no implicit solver in this build")
    assert r.returncode == 0, r.stdout + r.stderr


def read(path):
    r = subprocess.run([str(PYENV), "-c", READ, str(path)], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_static_cantilever_d3plot():
    with tempfile.TemporaryDirectory() as tmp:
        run(ROOT / "examples" / "implicit" / "cantilever_static.k", tmp)
        d = read(pathlib.Path(tmp) / "d3plot")
        assert d["t"] == pytest.approx([0.0, 0.5, 1.0])
        assert d["nstress"] == 40
        # Tip nodes: x = 1 (node ids 11, 22, ... of the 11 x 3 x 3 grid: every 11th).
        tip = [i for i, nid in enumerate(d["ids"]) if nid % 11 == 0]
        uy = sum(d["x"][-1][i][1] - d["x"][0][i][1] for i in tip) / len(tip)
        assert -uy == pytest.approx(191.96e-6, rel=0.02)
        uy_half = sum(d["x"][1][i][1] - d["x"][0][i][1] for i in tip) / len(tip)
        assert uy_half == pytest.approx(uy / 2, rel=1e-5)  # linear: half the load, half of it


def test_modes_d3eigv_matches_eigout():
    with tempfile.TemporaryDirectory() as tmp:
        run(ROOT / "examples" / "implicit" / "cantilever_modes.k", tmp)
        d = read(pathlib.Path(tmp) / "d3eigv")
        rows = [l.split() for l in (pathlib.Path(tmp) / "eigout").read_text().splitlines()]
        cycles = [float(r[3]) for r in rows if len(r) == 5 and r[0].isdigit()]
        assert len(cycles) == 6
        assert d["t"] == pytest.approx(cycles, rel=1e-6)


def test_shell_plate_d3plot():
    with tempfile.TemporaryDirectory() as tmp:
        run(ROOT / "examples" / "implicit" / "shell_plate.k", tmp)
        d = read(pathlib.Path(tmp) / "d3plot")
        assert d["t"] == pytest.approx([0.0, 0.5, 1.0])
        assert len(d["shell_stress"]) == 256
        assert len(d["shell_stress"][0]) == 3  # bottom, middle, top
        assert d["shell_thickness"] == pytest.approx([0.01] * 256, rel=1e-6)
        # Centre node of the 17 x 17 grid: id 145.
        c = d["ids"].index(145)
        w = d["x"][-1][c][2] - d["x"][0][c][2]
        dplate = 2.1e11 * 0.01 ** 3 / (12 * (1 - 0.3 ** 2))
        assert -w == pytest.approx(0.00406 * 1000.0 / dplate, rel=0.01)
        # Under the pressure (-z) the plate sags: sigma_xx > 0 at the bottom, < 0 at the top
        # near the centre (element 120 touches the centre node).
        bottom, top = d["shell_stress"][119][0][0], d["shell_stress"][119][2][0]
        assert bottom > 0 > top
