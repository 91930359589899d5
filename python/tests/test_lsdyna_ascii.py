"""LS-DYNA ASCII time histories (matsum, nodout, rwforc) and history.csv.

The readers are checked on hand-written text in LS-DYNA's layout, then on what parcae writes
for a small deck with history cards (PARCAE_BIN, default build/release/bin/parcae; skipped when
not built): every file is parsed and checked against the deck (masses, velocities, history
nodes) and against glstat, and a run on 2 MPI ranks must give the same values as the one-rank
run (every sum is exact, so the files agree to the last digit).
"""
import math
import os
import pathlib
import shutil
import subprocess

import pytest

from parcae_tools.glstat import read_glstat
from parcae_tools.lsdyna_ascii import (read_history_csv, read_matsum, read_nodout, read_rcforc,
                                       read_rwforc, read_sleout)

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("PARCAE_BIN", ROOT / "build" / "release" / "bin" / "parcae"))

RHO = 7.85e-9

# --- readers on LS-DYNA-layout text ---------------------------------------------------------

MATSUM = """ crash test
                         ls-dyna (version R12)     date 01/02/2023

{BEGIN LEGEND}
 Entity #        Title
        1     bumper
   100001     rigid barrier
{END LEGEND}



 time =   0.0000E+00
 mat.#=    1             inten=   0.0000E+00     kinen=   1.5000E+03     eroded_ie=   0.0000E+00     eroded_ke=   0.0000E+00
 x-mom=  -2.5000E+01     y-mom=   0.0000E+00     z-mom=   1.0000E-03
 x-rbv=   0.0000E+00     y-rbv=   0.0000E+00     z-rbv=   0.0000E+00
                         hgeng=   0.0000E+00     +mass=   1.2500E-02     eroded_he=   0.0000E+00
 mat.#=  100001          inten=   0.0000E+00     kinen=   2.0000E+00
 x-mom=   4.0000E+00     y-mom=   0.0000E+00     z-mom=   0.0000E+00
 x-rbv=   2.0000E+00     y-rbv=  -1.0000E+00     z-rbv=   0.0000E+00
                         hgeng=   0.0000E+00


 time =   1.0000E-03
 mat.#=    1             inten=   7.5000E+02     kinen=   7.0000E+02
 x-mom=  -1.2500E+01     y-mom=   0.0000E+00     z-mom=   1.0000E-03
 x-rbv=   0.0000E+00     y-rbv=   0.0000E+00     z-rbv=   0.0000E+00
                         hgeng=   5.0000E+01
 mat.#=  100001          inten=   0.0000E+00     kinen=   2.0000E+00
 x-mom=   4.0000E+00     y-mom=   0.0000E+00     z-mom=   0.0000E+00
 x-rbv=   2.0000E+00     y-rbv=  -1.0000E+00     z-rbv=   0.0000E+00
                         hgeng=   0.0000E+00
"""

NODOUT = """ title
                         ls-dyna (version R12)     date 01/02/2023



 n o d a l   p r i n t   o u t   f o r   t i m e  s t e p      10                              ( at time 1.00000E-04 )

 nodal point  x-disp     y-disp      z-disp      x-vel       y-vel       z-vel      x-accl      y-accl      z-accl      x-coor      y-coor      z-coor
       12   1.0000E-03 -2.0000E-03  3.0000E-03  4.0000E+00 -5.0000E+00  6.0000E+00  7.0000E+05 -8.0000E+05  9.0000E+05  1.0010E+01 -1.0000E+01  1.0000E+00
  9999999  -1.0000E+00  0.0000E+00  0.0000E+00  0.0000E+00  0.0000E+00  0.0000E+00  0.0000E+00  0.0000E+00  0.0000E+00  5.0000E+00  5.0000E+00  5.0000E+00



 n o d a l   p r i n t   o u t   f o r   t i m e  s t e p      10                              ( at time 1.00000E-04 )

 nodal point  x-rot      y-rot       z-rot       x-rot vel   y-rot vel   z-rot vel   x-rot acc   y-rot acc   z-rot acc
       12   1.0000E-02  0.0000E+00  0.0000E+00  1.0000E+02  0.0000E+00  0.0000E+00  1.0000E+06  0.0000E+00  0.0000E+00
  9999999   0.0000E+00  0.0000E+00  0.0000E+00  0.0000E+00  0.0000E+00  0.0000E+00  0.0000E+00  0.0000E+00  0.0000E+00



 n o d a l   p r i n t   o u t   f o r   t i m e  s t e p      20                              ( at time 2.00000E-04 )

 nodal point  x-disp     y-disp      z-disp      x-vel       y-vel       z-vel      x-accl      y-accl      z-accl      x-coor      y-coor      z-coor
       12   2.0000E-03 -2.0000E-03  3.0000E-03  4.0000E+00 -5.0000E+00  6.0000E+00  7.0000E+05 -8.0000E+05  9.0000E+05  1.0010E+01 -1.0000E+01  1.0000E+00
  9999999  -2.0000E+00  0.0000E+00  0.0000E+00  0.0000E+00  0.0000E+00  0.0000E+00  0.0000E+00  0.0000E+00  0.0000E+00  5.0000E+00  5.0000E+00  5.0000E+00
"""

RWFORC = """ title
                         ls-dyna (version R12)     date 01/02/2023


    time       wall#   normal-force    x-force        y-force        z-force
 0.00000E+00       1   0.000000E+00   0.000000E+00   0.000000E+00   0.000000E+00
 0.00000E+00       2   0.000000E+00   0.000000E+00   0.000000E+00   0.000000E+00
 1.00000E-04       1   1.500000E+03   0.000000E+00   0.000000E+00   1.500000E+03
 1.00000E-04       2   2.000000E+00  -1.000000E+00   0.000000E+00  -1.732051E+00
"""


def test_read_matsum_text(tmp_path):
    p = tmp_path / "matsum"
    p.write_text(MATSUM)
    m = read_matsum(p)
    assert m["time"] == [0.0, 1.0e-3]
    assert m["ids"] == [1, 100001]
    assert m["legend"] == {1: "bumper", 100001: "rigid barrier"}
    p1 = m["parts"][1]
    assert p1["kinetic"] == [1500.0, 700.0]
    assert p1["internal"] == [0.0, 750.0]
    assert p1["hourglass"] == [0.0, 50.0]
    assert p1["x_momentum"] == [-25.0, -12.5]
    assert p1["added_mass"] == [0.0125, 0.0]  # missing in the second state
    assert p1["eroded_internal"] == [0.0, 0.0]
    assert m["parts"][100001]["y_rbvelocity"] == [-1.0, -1.0]


def test_read_nodout_text(tmp_path):
    p = tmp_path / "nodout"
    p.write_text(NODOUT)
    n = read_nodout(p)
    assert n["cycle"] == [10, 20]
    assert n["time"] == [1.0e-4, 2.0e-4]
    assert n["ids"] == [12, 9999999]
    a = n["nodes"][12]
    assert a["x_displacement"] == [1.0e-3, 2.0e-3]
    assert a["y_velocity"] == [-5.0, -5.0]
    assert a["z_acceleration"] == [9.0e5, 9.0e5]
    assert a["x_coordinate"] == [10.01, 10.01]
    assert a["rx_displacement"] == [0.01, 0.0]  # no rotation block in the second state
    assert a["rx_velocity"] == [100.0, 0.0]
    assert n["nodes"][9999999]["x_displacement"] == [-1.0, -2.0]


def test_read_rwforc_text(tmp_path):
    p = tmp_path / "rwforc"
    p.write_text(RWFORC)
    r = read_rwforc(p)
    assert r["time"] == [0.0, 1.0e-4]
    assert r["ids"] == [1, 2]
    assert r["walls"][1]["normal_force"] == [0.0, 1500.0]
    assert r["walls"][2]["z_force"] == [0.0, -1.732051]


RCFORC = """ crash test
                         ls-dyna (version R12)     date 01/02/2023

{BEGIN LEGEND}
 Entity #        Title
        1     bars
       20     door
{END LEGEND}



 contact interface resultant forces

  slave           1 time  0.00000E+00  x  0.00000E+00  y  0.00000E+00  z  0.00000E+00  mass  0.00000E+00
  master          1 time  0.00000E+00  x  0.00000E+00  y  0.00000E+00  z  0.00000E+00  mass  0.00000E+00
  slave          20 time  0.00000E+00  x  0.00000E+00  y  0.00000E+00  z  0.00000E+00  mass  0.00000E+00
  master         20 time  0.00000E+00  x  0.00000E+00  y  0.00000E+00  z  0.00000E+00  mass  0.00000E+00
  slave           1 time  1.00000E-06  x  2.03000E+02  y -1.50000E+00  z  0.00000E+00  mass  1.25000E-08
  master          1 time  1.00000E-06  x -2.03000E+02  y  1.50000E+00  z  0.00000E+00  mass  2.50000E-08
  slave          20 time  1.00000E-06  x  0.00000E+00  y  0.00000E+00  z -4.00000E+01  mass  0.00000E+00
  master         20 time  1.00000E-06  x  0.00000E+00  y  0.00000E+00  z  4.00000E+01  mass  0.00000E+00
"""

SLEOUT = """ crash test
                         ls-dyna (version R12)     date 01/02/2023

{BEGIN LEGEND}
 Entity #        Title
        1     bars
       20     door
{END LEGEND}



 contact interface energy file

 time  0.00000E+00
  contact #     slave         master        frictional
         1    0.00000E+00    0.00000E+00    0.00000E+00
        20    0.00000E+00    0.00000E+00    0.00000E+00
 summary       0.00000E+00    0.00000E+00    0.00000E+00

 time  1.00000E-06
  contact #     slave         master        frictional
         1   -3.50000E-01    3.75000E-01    0.00000E+00
        20    1.00000E-02    2.00000E-02    5.00000E-03
 summary      -3.40000E-01    3.95000E-01    5.00000E-03
"""


def test_read_rcforc_text(tmp_path):
    p = tmp_path / "rcforc"
    p.write_text(RCFORC)
    r = read_rcforc(p)
    assert r["time"] == [0.0, 1.0e-6]
    assert r["ids"] == [1, 20]
    assert r["legend"] == {1: "bars", 20: "door"}
    one = r["interfaces"][1]
    assert one["time"] == [0.0, 1.0e-6]
    assert one["slave"]["x_force"] == [0.0, 203.0]
    assert one["slave"]["y_force"] == [0.0, -1.5]
    assert one["master"]["x_force"] == [0.0, -203.0]
    assert one["master"]["mass"] == [0.0, 2.5e-8]
    assert r["interfaces"][20]["slave"]["z_force"] == [0.0, -40.0]
    assert r["interfaces"][20]["master"]["z_force"] == [0.0, 40.0]


def test_read_sleout_text(tmp_path):
    p = tmp_path / "sleout"
    p.write_text(SLEOUT)
    s = read_sleout(p)
    assert s["time"] == [0.0, 1.0e-6]
    assert s["ids"] == [1, 20]
    assert s["legend"] == {1: "bars", 20: "door"}
    assert s["interfaces"][1]["slave"] == [0.0, -0.35]
    assert s["interfaces"][1]["master"] == [0.0, 0.375]
    assert s["interfaces"][20]["frictional"] == [0.0, 5.0e-3]
    assert s["summary"]["slave"] == [0.0, -0.34]
    assert s["summary"]["master"] == [0.0, 0.395]
    assert s["summary"]["frictional"] == [0.0, 5.0e-3]


def test_contact_readers_on_parcae_output(tmp_path):
    """rcforc and sleout as parcae writes them (examples/contact_bars, first 2 us): one state
    per glstat state, the two sides' forces opposite, the energies summing to glstat's."""
    if not BIN.exists():
        pytest.skip(f"parcae binary not built ({BIN})")
    deck = (ROOT / "examples" / "contact_bars" / "contact_bars.k").read_text()
    deck = deck.replace(" 8.000e-06", " 2.000e-06", 1)
    (tmp_path / "deck.k").write_text(deck)
    out = tmp_path / "out"
    proc = subprocess.run([str(BIN), "run", str(tmp_path / "deck.k"), "-o", str(out)],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "OMP_NUM_THREADS": "1"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    g = read_glstat(out / "glstat")
    r = read_rcforc(out / "rcforc")
    s = read_sleout(out / "sleout")
    assert r["ids"] == [1] and s["ids"] == [1]
    assert r["legend"] == {1: "bars"}
    assert r["time"] == pytest.approx(g["time"], rel=1e-5, abs=1e-12)
    assert s["time"] == r["time"]
    fx = r["interfaces"][1]["slave"]["x_force"]
    assert fx[0] == 0.0 and max(fx) > 100.0  # the bars touch at 1 us
    assert r["interfaces"][1]["master"]["x_force"] == [-f for f in fx]
    for k in range(len(s["time"])):
        total = s["interfaces"][1]["slave"][k] + s["interfaces"][1]["master"][k]
        assert total == pytest.approx(g["sliding"][k], abs=1e-5 * g["total"][0])
        assert s["summary"]["slave"][k] == s["interfaces"][1]["slave"][k]


# --- parcae's files -------------------------------------------------------------------------


def _nodes_hex(nx, ny, nz, l, first, origin):
    out = []
    for k in range(nz + 1):
        for j in range(ny + 1):
            for i in range(nx + 1):
                nid = first + i + (nx + 1) * (j + (ny + 1) * k)
                out.append(f"{nid:8d}{origin[0] + l * i / nx:16.8f}{origin[1] + l * j / ny:16.8f}"
                           f"{origin[2] + l * k / nz:16.8f}")
    return out


def _elems_hex(n, pid, first):
    def nid(i, j, k):
        return first + i + (n + 1) * (j + (n + 1) * k)
    out, e = [], first
    for k in range(n):
        for j in range(n):
            for i in range(n):
                ns = [nid(i, j, k), nid(i + 1, j, k), nid(i + 1, j + 1, k), nid(i, j + 1, k),
                      nid(i, j, k + 1), nid(i + 1, j, k + 1), nid(i + 1, j + 1, k + 1),
                      nid(i, j + 1, k + 1)]
                out.append(f"{e:8d}{pid:8d}" + "".join(f"{x:8d}" for x in ns))
                e += 1
    return out


def _shell_grid(n, l, pid, first, z):
    nodes, elems = [], []
    for j in range(n + 1):
        for i in range(n + 1):
            nodes.append(f"{first + i + (n + 1) * j:8d}{l * i / n:16.8f}{l * j / n:16.8f}{z:16.8f}")
    e = first
    for j in range(n):
        for i in range(n):
            a = first + i + (n + 1) * j
            elems.append(f"{e:8d}{pid:8d}{a:8d}{a + 1:8d}{a + n + 2:8d}{a + n + 1:8d}")
            e += 1
    return nodes, elems


def _deck():
    """A 3x3x3 elastic block at 5 m/s onto a stonewall, and a spinning shell plate above it
    (history nodes: a block corner, the plate's corner, and a node set)."""
    snodes, selems = _shell_grid(4, 40.0, 2, 1001, 30.0)
    lines = [
        "*KEYWORD", "*TITLE", "lsdyna ascii test",
        "*CONTROL_TERMINATION", "    1.0e-4",
        "*CONTROL_TIMESTEP", "              0.6",
        "*DATABASE_GLSTAT", "    5.0e-6",
        "*DATABASE_MATSUM", "    5.0e-6",
        "*DATABASE_NODOUT", "    1.0e-5",
        "*DATABASE_RWFORC", "    2.0e-6",
        "*DATABASE_HISTORY_NODE", "         1      1001",
        "*DATABASE_HISTORY_NODE_SET", "         7",
        "*SET_NODE_LIST", "         7", "        64      1013",
        "*PART", "block", "         1         1         1",
        "*SECTION_SOLID", "         1         1",
        "*MAT_ELASTIC", f"         1{RHO:10.3e}  210000.0       0.3",
        "*PART", "plate", "         2         2         2",
        "*SECTION_SHELL", "         2         2     0.833         3",
        "       1.0       1.0       1.0       1.0",
        "*MAT_ELASTIC", f"         2{RHO:10.3e}  210000.0       0.3",
        "*NODE", *_nodes_hex(3, 3, 3, 9.0, 1, (0.0, 0.0, 0.3)), *snodes,
        "*ELEMENT_SOLID", *_elems_hex(3, 1, 1),
        "*ELEMENT_SHELL", *selems,
        "*INITIAL_VELOCITY_GENERATION",
        "         1         2       0.0       0.0       0.0   -5000.0",
        "       0.0       0.0       0.0       0.0       0.0       1.0",
        "*INITIAL_VELOCITY_GENERATION",
        "         2         2     100.0      30.0       0.0       0.0",
        "      20.0      20.0      30.0       0.0       0.0       1.0",
        "*SET_NODE_LIST", "         1",
        *[" ".join(f"{n:9d}" for n in range(r, min(r + 8, 65))) for r in range(1, 65, 8)],
        "*RIGIDWALL_PLANAR", "         1",
        "       0.0       0.0       0.0       0.0       0.0       1.0",
        "*END",
    ]
    return "\n".join(lines) + "\n"


def _run(work, np):
    out = work / f"out_np{np}"
    cmd = [str(BIN), "run"] + (["--np", str(np)] if np > 1 else []) + [str(work / "deck.k"),
                                                                        "-o", str(out)]
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OMPI_ALLOW_RUN_AS_ROOT": "1",
           "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env), out


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    if not BIN.exists():
        pytest.skip(f"parcae binary not built ({BIN})")
    work = tmp_path_factory.mktemp("lsdyna_ascii")
    (work / "deck.k").write_text(_deck())
    proc, out = _run(work, 1)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return work, out


def test_every_file_parses_and_matches_the_deck(runs):
    _, out = runs
    m = read_matsum(out / "matsum")
    n = read_nodout(out / "nodout")
    r = read_rwforc(out / "rwforc")
    h = read_history_csv(out / "history.csv")
    g = read_glstat(out / "glstat")

    # matsum: both parts every 5e-6 (21 states), legend with the part titles.
    assert m["ids"] == [1, 2]
    assert m["legend"] == {1: "block", 2: "plate"}
    assert len(m["time"]) == 21
    mass1 = RHO * 9.0 ** 3
    p1 = m["parts"][1]
    assert p1["z_momentum"][0] == pytest.approx(-mass1 * 5000.0, rel=1e-4)
    assert p1["kinetic"][0] == pytest.approx(0.5 * mass1 * 5000.0 ** 2, rel=1e-4)
    # The plate: translation 30 mm/s plus spin 100 rad/s about its centre: x momentum m v.
    mass2 = RHO * 40.0 * 40.0 * 1.0
    assert m["parts"][2]["x_momentum"][0] == pytest.approx(mass2 * 30.0, rel=1e-4)
    # Part sums equal glstat's energies (same states: same DT), to the printed precision.
    assert g["time"] == pytest.approx(m["time"], rel=1e-4, abs=1e-12)
    for k in range(len(m["time"])):
        for q in ("kinetic", "internal", "hourglass"):
            total = sum(m["parts"][pid][q][k] for pid in (1, 2))
            assert total == pytest.approx(g[q][k], rel=2e-4, abs=1e-9 * g["total"][k]), (q, k)

    # nodout: history nodes in deck order, every 1e-5; the shell nodes have rotations.
    assert n["ids"] == [1, 1001, 64, 1013]
    assert len(n["time"]) == 11
    assert n["cycle"][0] == 0
    assert n["nodes"][1]["z_velocity"][0] == -5000.0
    assert n["nodes"][1001]["z_coordinate"][0] == 30.0
    assert "rz_velocity" in n["nodes"][1001]
    assert n["nodes"][1001]["rz_velocity"][0] == pytest.approx(100.0)
    # The plate flies freely: its corner moves with v + omega x r (small angle over 1e-4 s).
    t_end = n["time"][-1]
    assert n["nodes"][1001]["x_displacement"][-1] == pytest.approx(
        (30.0 + 100.0 * 20.0) * t_end, rel=2e-2)
    # The block's bottom corner stops at the wall (z = 0, it started 0.3 above).
    assert min(n["nodes"][1]["z_coordinate"]) >= -1e-9

    # rwforc: wall 1 every 2e-6, forces along +z while the block touches it.
    assert r["ids"] == [1]
    assert len(r["time"]) == 51
    fz = r["walls"][1]["z_force"]
    assert max(fz) > 0
    assert r["walls"][1]["normal_force"] == fz
    assert all(v == 0.0 for v in r["walls"][1]["x_force"])

    # history.csv: a row per glstat state, its columns.
    assert len(h["time"]) == len(g["time"])
    assert h["kinetic"] == pytest.approx(g["kinetic"], rel=1e-4)
    for pid in (1, 2):
        for q in ("internal", "kinetic", "hourglass", "xmom", "ymom", "zmom", "xrbv", "yrbv",
                  "zrbv", "mass", "added_mass"):
            assert len(h[f"part{pid}_{q}"]) == len(h["time"])
    for q in ("normal", "fx", "fy", "fz"):
        assert len(h[f"wall1_{q}"]) == len(h["time"])
    assert h["part1_mass"][0] == pytest.approx(mass1, rel=1e-12)
    for k in range(len(h["time"])):
        total = h["part1_kinetic"][k] + h["part2_kinetic"][k]
        assert total == pytest.approx(h["kinetic"][k], rel=1e-12)


def _mpirun_available():
    return any(shutil.which(x) for x in ("mpirun", "mpirun.openmpi", "mpiexec"))


def test_two_ranks_write_the_same_values(runs):
    if not _mpirun_available():
        pytest.skip("no mpirun")
    work, out1 = runs
    proc, out2 = _run(work, 2)
    if proc.returncode != 0 and "MPI" in proc.stdout + proc.stderr and "not" in proc.stderr:
        pytest.skip("parcae built without MPI: " + proc.stderr.strip()[:200])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert read_matsum(out2 / "matsum") == read_matsum(out1 / "matsum")
    assert read_nodout(out2 / "nodout") == read_nodout(out1 / "nodout")
    assert read_rwforc(out2 / "rwforc") == read_rwforc(out1 / "rwforc")
    h1 = read_history_csv(out1 / "history.csv")
    h2 = read_history_csv(out2 / "history.csv")
    assert h1.keys() == h2.keys()
    for col in h1:
        assert h2[col] == h1[col], col
    assert (out2 / "history.csv").read_text() == (out1 / "history.csv").read_text()
    # The text too, below the date line of the header.
    for name in ("matsum", "nodout", "rwforc"):
        a = (out1 / name).read_text().splitlines()[2:]
        b = (out2 / name).read_text().splitlines()[2:]
        assert a == b, name
