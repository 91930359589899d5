"""The CFD examples (examples/cfd/*.yaml) run as their headers say (shortened to a few
hundredths of a second), and the MARIN comparison (parcae_tools.cfd_marin) measures what it
says. PARCAE_BIN selects the binary (default build/release/bin/parcae; the runs are skipped
when it has not been built)."""
import json
import os
import pathlib
import subprocess

import numpy as np
import pytest

from parcae_tools import cfd_marin

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("PARCAE_BIN", ROOT / "build" / "release" / "bin" / "parcae"))
EXAMPLES = sorted((ROOT / "examples" / "cfd").glob("*.yaml"))


def test_every_example_has_the_command_that_runs_it():
    assert EXAMPLES
    for case in EXAMPLES:
        head = case.read_text().split("\ncase:")[0]
        assert f"parcae cfd run examples/cfd/{case.name}" in head, case


@pytest.mark.skipif(not BIN.exists(), reason=f"{BIN} not built")
@pytest.mark.parametrize("case", EXAMPLES, ids=[c.stem for c in EXAMPLES])
def test_example_runs_and_writes_its_probes(case, tmp_path):
    out = tmp_path / "out"
    r = subprocess.run([str(BIN), "cfd", "run", str(case), "--end-time", "0.03", "-o", str(out)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    names = [line.split("name: ")[1].split(",")[0] for line in case.read_text().splitlines()
             if "kind:" in line and "name: " in line]
    cols = cfd_marin.read_columns(out / "probes.csv")
    for n in names:
        assert n in cols or f"{n}_u" in cols, n
    assert cols["time"][0] == 0 and abs(cols["time"][-1] - 0.03) < 1e-12
    assert (out / "states" / "cfd_0000.pvti").exists()
    # The run's report: the probes by kind (from the case copied beside the results).
    from parcae_tools import cfd_report
    assert (out / "case.yaml").exists()
    s = cfd_report.report(out, tmp_path / "report")
    assert (tmp_path / "report" / "probes.png").exists()
    assert set(s["probes"]) == set(cols) - {"time"}
    kinds = cfd_report.probe_kinds((out / "case.yaml").read_text())
    assert set(kinds) == set(names)


def test_marin_errors_measure_the_difference():
    exp = cfd_marin.measured()
    # The measurement against itself: no error; moved up by 1 cm: 1 cm of RMS error.
    same = cfd_marin.errors(exp, exp, 6.0)
    assert all(abs(e["rms"]) < 1e-12 for e in same.values())
    assert same["P1"]["arrival_sim"] == same["P1"]["arrival_measured"]
    assert 0.38 < same["P1"]["arrival_measured"] < 0.41  # the box is hit at about 0.39 s
    up = dict(exp)
    for g in cfd_marin.HEIGHTS:
        up[g] = exp[g] + 0.01
    moved = cfd_marin.errors(up, exp, 6.0)
    for g in cfd_marin.HEIGHTS:
        assert abs(moved[g]["rms"] - 0.01) < 1e-9


def test_measured_gauges_are_in_their_physical_order():
    """H3 (x = 1.488, nearest the reservoir) gets wet first, then H2, then H1 behind the box."""
    exp = cfd_marin.measured()
    wet = {g: exp["time"][np.argmax(exp[g] > 0.01)] for g in ("H1", "H2", "H3")}
    assert wet["H3"] < wet["H2"] < wet["H1"]
    assert abs(exp["H4"][0] - 0.55) < 0.01


@pytest.mark.skipif(not BIN.exists(), reason=f"{BIN} not built")
def test_marin_report_of_a_short_run(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / "case.yaml").write_text(cfd_marin.case_text(40, 0.5))
    r = subprocess.run([str(BIN), "cfd", "run", str(run / "case.yaml"), "-o", str(run)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    res = cfd_marin.report([run], tmp_path / "rep")
    assert (tmp_path / "rep" / "heights.png").exists()
    e = res["runs"]["parcae 40x12x12"]["errors"]
    # Half a second: the reservoir gauge has fallen as measured (within 5 cm on 40 cells).
    assert e["H4"]["rms"] < 0.05
    assert json.loads((tmp_path / "rep" / "errors.json").read_text())["runs"]


def test_interfoam_case_matches_the_grid_and_the_staircase_box(tmp_path):
    from parcae_tools import cfd_marin_foam as foam
    foam.write_case(tmp_path, 80, 0.1, 2)
    mesh = (tmp_path / "system" / "blockMeshDict").read_text()
    assert "(80 25 25)" in mesh
    # The removed cells (centres in the box) span grid lines around the box.
    lo, hi = foam.staircase_box(80)
    h = 3.22 / 80
    assert abs(lo[0] - 16 * h) < 1e-12 and abs(hi[0] - 20 * h) < 1e-12
    assert abs(hi[2] - 0.16) < 1e-12
    s = foam.sensors(80)
    assert abs(s["P1"][0] - (hi[0] + 0.001)) < 1e-12 and abs(s["P5"][2] - 0.161) < 1e-12
    fv = (tmp_path / "system" / "fvSolution").read_text()
    assert "p_rgh { solver GAMG" in fv  # the expert's pressure solver, not the tutorial's PCG
    assert "numberOfSubdomains 2" in (tmp_path / "system" / "decomposeParDict").read_text()
