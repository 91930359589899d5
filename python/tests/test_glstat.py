import math
import os

import pytest

from parcae_tools.glstat import read_glstat, read_glstat_states

# Two states in LS-DYNA's glstat layout: " " + label dotted to 31 characters + %14.5E.
# The first "dt of cycle" line is in the older "... element" form, the second in the newer
# "... of part" form; the second state has two stonewalls and mass scaling.
LSDYNA_TEXT = """\
 impact of a tube on two walls
                         ls-dyna (version R13.1)     date 01/02/2024


 dt of cycle       1 is controlled by shell      element     217

 time...........................   0.00000E+00
 time step......................   3.25000E-07
 kinetic energy.................   2.40000E+03
 internal energy................   0.00000E+00
 spring and damper energy.......   0.00000E+00
 hourglass energy ..............   0.00000E+00
 system damping energy..........   0.00000E+00
 sliding interface energy.......   0.00000E+00
 external work..................   0.00000E+00
 eroded kinetic energy..........   0.00000E+00
 eroded internal energy.........   0.00000E+00
 eroded hourglass energy........   0.00000E+00
 total energy...................   2.40000E+03
 total energy / initial energy..   1.00000E+00
 energy ratio w/o eroded energy.   1.00000E+00
 global x velocity..............   0.00000E+00
 global y velocity..............   0.00000E+00
 global z velocity..............  -1.50000E+01
 time per zone cycle.(nanosec)..           312


 dt of cycle    4001 is controlled by solid      8812 of part         4

 time...........................   1.30000E-03
 time step......................   3.10000E-07
 kinetic energy.................   1.10000E+03
 internal energy................   1.20000E+03
 stonewall energy...............   4.00000E+01 wall# 1
 stonewall energy...............   2.50000E+01 wall# 2
 spring and damper energy.......   0.00000E+00
 hourglass energy ..............   1.20000E+01
 system damping energy..........   0.00000E+00
 sliding interface energy.......   3.00000E+00
 external work..................   0.00000E+00
 eroded kinetic energy..........   1.00000E+00
 eroded internal energy.........   2.00000E+01
 eroded hourglass energy........   0.00000E+00
 total energy...................   2.38000E+03
 total energy / initial energy..   9.91667E-01
 energy ratio w/o eroded energy.   9.82917E-01
 global x velocity..............   1.25000E-01
 global y velocity..............  -2.00000E-02
 global z velocity..............  -6.87500E+00
 time per zone cycle.(nanosec)..           305


 added mass.....................   1.23400E-03
 percentage increase............   4.11333E-02
"""


def test_lsdyna_layout(tmp_path):
    p = tmp_path / "glstat"
    p.write_text(LSDYNA_TEXT)
    c = read_glstat(p)
    assert c["time"] == [0.0, 1.3e-3]
    assert c["dt"] == [3.25e-7, 3.1e-7]
    assert c["cycle"] == [1.0, 4001.0]
    assert c["dt_element"] == [217.0, 8812.0]
    assert math.isnan(c["dt_part"][0]) and c["dt_part"][1] == 4.0
    assert c["kinetic"] == [2400.0, 1100.0]
    assert c["internal"] == [0.0, 1200.0]
    assert c["rigidwall"] == [0.0, 65.0]
    assert c["rigidwall_1"] == [0.0, 40.0]
    assert c["rigidwall_2"] == [0.0, 25.0]
    assert c["hourglass"] == [0.0, 12.0]
    assert c["sliding"] == [0.0, 3.0]
    assert c["external_work"] == [0.0, 0.0]
    assert c["eroded_kinetic"] == [0.0, 1.0]
    assert c["eroded_internal"] == [0.0, 20.0]
    assert c["total"] == [2400.0, 2380.0]
    assert c["energy_ratio"] == [1.0, 0.991667]
    assert c["energy_ratio_wo_eroded"] == [1.0, 0.982917]
    assert c["vx"] == [0.0, 0.125]
    assert c["vy"] == [0.0, -0.02]
    assert c["vz"] == [-15.0, -6.875]
    assert c["time_per_zone_cycle_ns"] == [312.0, 305.0]
    # absent in the first state (no mass scaling yet): reads 0
    assert c["added_mass"] == [0.0, 1.234e-3]
    assert c["percent_increase"] == [0.0, 4.11333e-2]
    assert all(len(v) == 2 for v in c.values())
    kinds = [s["dt_element_kind"] for s in read_glstat_states(p)]
    assert kinds == ["shell", "solid"]


def test_numpy_columns(tmp_path):
    np = pytest.importorskip("numpy")
    p = tmp_path / "glstat"
    p.write_text(LSDYNA_TEXT)
    c = read_glstat(p, as_numpy=True)
    assert isinstance(c["total"], np.ndarray)
    np.testing.assert_allclose(c["kinetic"] + c["internal"], [2400.0, 2300.0])


def test_variants(tmp_path):
    # no "dt of cycle" lines, a step controlled by mass scaling, D exponents, a Fortran
    # three-digit exponent, an overflowed field, an unknown label.
    text = (
        " title\n"
        "\n dt of cycle      10 is controlled by dt2ms\n\n"
        " time...........................   1.00000D-03\n"
        " kinetic energy.................   1.00000+100\n"
        " internal energy................ **************\n"
        " brand new energy...............   7.00000E+00\n"
        " time...........................   2.00000E-03\n"
        " kinetic energy.................   5.00000E+00\n"
    )
    p = tmp_path / "glstat"
    p.write_text(text)
    c = read_glstat(p)
    assert c["time"] == [1e-3, 2e-3]
    assert c["kinetic"] == [1e100, 5.0]
    assert math.isnan(c["internal"][0]) and math.isnan(c["internal"][1])
    assert c["brand_new_energy"][0] == 7.0
    assert read_glstat_states(p)[0]["dt_element_kind"] == "dt2ms"


FIXTURE = os.environ.get(
    "PARCAE_GLSTAT_FIXTURE", os.path.join(os.path.dirname(__file__), "data", "parcae_glstat")
)


@pytest.mark.skipif(not os.path.exists(FIXTURE), reason="no glstat written by parcae")
def test_parcae_written_file():
    """A glstat written by parcae's GlstatWriter (tests/data/parcae_glstat: 3 states)."""
    c = read_glstat(FIXTURE)
    n = len(c["time"])
    assert n >= 1
    for key in ("time", "dt", "kinetic", "internal", "hourglass", "external_work", "total",
                "energy_ratio", "energy_ratio_wo_eroded", "vx", "vy", "vz",
                "time_per_zone_cycle_ns", "cycle"):
        assert len(c[key]) == n, key
    for k, t, i, h, r, tot in zip(range(n), c["kinetic"], c["internal"], c["hourglass"],
                                  c.get("rigidwall", [0.0] * n), c["total"]):
        assert t + i + h + r == pytest.approx(tot, rel=1e-5, abs=1e-30), k
    if os.path.basename(FIXTURE) == "parcae_glstat" and "PARCAE_GLSTAT_FIXTURE" not in os.environ:
        # the committed fixture's known values
        assert c["time"] == [0.0, 1e-3, 2e-3]
        assert c["kinetic"] == [100.0, 80.0, 60.0]
        assert c["rigidwall"] == [0.0, 0.0, 1.0]
        assert c["added_mass"] == [0.0, 0.0, 0.1]
        assert c["percent_increase"] == pytest.approx([0.0, 0.0, 100 * 0.1 / 1.9], rel=1e-5)
        assert c["energy_ratio"] == pytest.approx([1.0, 100 / 101, 101 / 102], rel=1e-5)
        assert c["dt_element"] == [42.0] * 3 and c["dt_part"] == [3.0] * 3
