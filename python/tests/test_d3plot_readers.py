"""parcae's d3plot read back by two independent readers, lasso-python and VTK's
vtkLSDynaReader.

The readers live in the environment that scripts/setup_pyenv.sh creates (build/pyenv; the tests
skip when it is missing). This process (the system python) runs them in subprocesses:
``build/pyenv/bin/python python/parcae_tools/d3plot_check.py --reader lasso|vtk D3PLOT`` prints
the arrays as JSON.

1. Writer fixtures: the test_io gtest binary (PARCAE_TEST_IO_BIN, default
   build/release/tests/test_io) writes its models with PARCAE_D3PLOT_FIXTURE_DIR set, each with a
   JSON sidecar of the exact arrays it wrote; both readers must return them. A small fixture is
   also kept in python/tests/data (d3plot_mixed/, d3plot_mixed.json) so the readers are checked
   without a build.
2. Solver runs: parcae (PARCAE_BIN) on a small deck with solids and shells at np=1 and np=2;
   the d3plot, read by both readers, must agree with the run's VTK states and glstat, and the
   np=2 d3plot with the np=1 one.

Tolerance: 4-byte d3plot words are IEEE single precision, so every value is rounded to 24 bits
(relative error <= 2**-24 = 6e-8 of the value). Arrays are compared with an absolute tolerance
of 1e-6 times the array's largest magnitude: 16 times the rounding bound, and relative to the
array's scale because derived quantities (displacement = coordinates - initial coordinates,
computed from two rounded values) lose relative precision for small entries but not against
the coordinate scale. 8-byte files are compared to 1e-12.
"""
import json
import os
import pathlib
import subprocess
import sys

import pytest

np = pytest.importorskip("numpy")

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
from parcae_tools.d3plot_check import match_nodes  # noqa: E402

PYENV = ROOT / "build" / "pyenv" / "bin" / "python"
CHECK = ROOT / "python" / "parcae_tools" / "d3plot_check.py"
TEST_IO = pathlib.Path(
    os.environ.get("PARCAE_TEST_IO_BIN", ROOT / "build" / "release" / "tests" / "test_io")
)
BIN = pathlib.Path(os.environ.get("PARCAE_BIN", ROOT / "build" / "release" / "bin" / "parcae"))
DATA = pathlib.Path(__file__).resolve().parent / "data"

CASES = ["hex_block", "shell_plate", "mixed", "family", "mixed_double", "default_family"]

needs_pyenv = pytest.mark.skipif(
    not PYENV.exists(),
    reason=f"no d3plot reader environment ({PYENV}); run scripts/setup_pyenv.sh",
)


def read(reader, d3plot):
    """Arrays of a d3plot family as `reader` ('lasso' or 'vtk') returns them."""
    args = [str(PYENV), str(CHECK), "--reader", reader, str(d3plot)]
    if reader == "lasso":
        args.insert(-1, "--sort-by-id")
    proc = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"{reader} failed on {d3plot}:\n{proc.stderr[-4000:]}"
    out = {}
    for k, v in json.loads(proc.stdout).items():
        out[k] = v if (isinstance(v, list) and v and isinstance(v[0], str)) else np.asarray(v)
    return out


def close(got, ref, rel, what, scale=None):
    """max |got - ref| <= rel * scale (default scale: the largest |ref|)."""
    got, ref = np.asarray(got, dtype=float), np.asarray(ref, dtype=float)
    assert got.shape == ref.shape, f"{what}: shape {got.shape} != {ref.shape}"
    if ref.size == 0:
        return
    if scale is None:
        scale = float(np.abs(ref).max())
    scale = max(scale, 1e-30)
    err = float(np.abs(got - ref).max())
    assert err <= rel * scale, f"{what}: max error {err:.3e} > {rel:.0e} * {scale:.3e}"


# ---------------------------------------------------------------------------- writer fixtures


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory):
    if not PYENV.exists():
        pytest.skip(f"no d3plot reader environment ({PYENV}); run scripts/setup_pyenv.sh")
    if not TEST_IO.exists():
        pytest.skip(f"test_io not built ({TEST_IO}; set PARCAE_TEST_IO_BIN)")
    out = tmp_path_factory.mktemp("d3plot_fixtures")
    proc = subprocess.run(
        [str(TEST_IO), "--gtest_filter=D3plotTest.*"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PARCAE_D3PLOT_FIXTURE_DIR": str(out)},
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    return out


def reference_states(ref, key, per):
    n = len(ref["states"])
    return np.array([s[key] for s in ref["states"]], dtype=float).reshape((n, -1) + per)


def check_case(d3plot, ref):
    rel = 1e-12 if ref["options"]["word_bytes"] == 8 else 1e-6
    n = len(ref["states"])
    layers = ref["options"]["shell_layers"]
    node_order = np.argsort(ref["node_id"], kind="stable")
    solid_order = np.argsort(ref["solid_id"], kind="stable")
    shell_order = np.argsort(ref["shell_id"], kind="stable")
    times = [s["time"] for s in ref["states"]]
    for reader in ("lasso", "vtk"):
        d = read(reader, d3plot)
        tag = f"{reader} {d3plot}"
        close(d["time"], times, 1e-6, f"{tag} time")
        assert d["part_title"] == ref["part_title"], tag
        nodes = node_order if reader == "lasso" else match_nodes(ref["x0"], d["x0"])
        for key in ("x", "v", "a"):
            close(d[key], reference_states(ref, key, (3,))[:, nodes], rel, f"{tag} {key}")
        x0 = np.asarray(ref["x0"], dtype=float).reshape(-1, 3)[nodes]
        disp = reference_states(ref, "x", (3,))[:, nodes] - x0[None]
        # rounded from coordinates: to the precision of the coordinates
        close(d["disp"], disp, rel, f"{tag} displacement", scale=float(np.abs(x0).max()))
        assert list(d["solid_id"]) == sorted(ref["solid_id"]), tag
        assert list(d["shell_id"]) == sorted(ref["shell_id"]), tag
        if ref["solid_id"]:
            close(d["solid_sig"], reference_states(ref, "solid_sig", (6,))[:, solid_order],
                  rel, f"{tag} solid stress")
            close(d["solid_epsp"], reference_states(ref, "solid_epsp", ())[:, solid_order],
                  rel, f"{tag} solid plastic strain")
        if ref["shell_id"]:
            for key, per in (("shell_sig", (layers, 6)), ("shell_epsp", (layers,)),
                             ("shell_resultants", (8,)), ("shell_thickness", ()),
                             ("shell_energy", ())):
                close(d[key], reference_states(ref, key, per)[:, shell_order], rel, f"{tag} {key}")
        if reader != "lasso":
            continue
        # lasso also reads ids, parts, global variables and deletion flags.
        assert list(d["node_id"]) == sorted(ref["node_id"]), tag
        assert list(d["part_id"]) == ref["part_id"], tag
        part_of = dict(enumerate(ref["part_id"]))
        assert list(d["solid_part_id"]) == [part_of[p] for p in np.array(ref["solid_part"],
                                                                          dtype=int)[solid_order]]
        assert list(d["shell_part_id"]) == [part_of[p] for p in np.array(ref["shell_part"],
                                                                          dtype=int)[shell_order]]
        for key in ("kinetic", "internal", "total"):
            close(d[key], [s[key] for s in ref["states"]], rel, f"{tag} {key}")
        close(d["velocity"], [s["velocity"] for s in ref["states"]], rel, f"{tag} velocity")
        for key in ("part_internal", "part_kinetic", "part_mass", "part_hourglass"):
            close(d[key], reference_states(ref, key, ()), rel, f"{tag} {key}")
        close(d["part_velocity"], reference_states(ref, "part_velocity", (3,)), rel,
              f"{tag} part velocity")
        if ref["solid_id"]:
            assert (d["solid_active"] == reference_states(ref, "solid_active", ())[
                :, solid_order]).all(), tag
        if ref["shell_id"]:
            assert (d["shell_active"] == reference_states(ref, "shell_active", ())[
                :, shell_order]).all(), tag
        assert len(d["time"]) == n


@needs_pyenv
@pytest.mark.parametrize("case", CASES)
def test_writer_fixture(fixtures, case):
    ref = json.loads((fixtures / f"{case}.json").read_text())
    files = sorted(p.name for p in (fixtures / case).iterdir())
    assert len(files) == ref["options"]["files"]
    check_case(fixtures / case / "d3plot", ref)


@needs_pyenv
def test_stored_fixture():
    """The fixture kept in the repository (written by test_io's MixedPartsIdsAndTitles)."""
    ref = json.loads((DATA / "d3plot_mixed.json").read_text())
    check_case(DATA / "d3plot_mixed" / "d3plot", ref)
