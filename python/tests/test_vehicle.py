"""The vehicle-class crash models (parcae_tools.vehicle, `parcae generate crash`).

Element counts against the target, determinism for a seed, a valid mesh (every node referenced
exists, no degenerate shell, engine hexahedra with positive volume, also in the turned car of
car2car), panels that meet sharing their nodes, the vehicle mass, placement and velocities of
each class, only keywords OpenRadioss's LS-DYNA reader lists, and (with the binary) a short run:
every tie found, no initial penetration, energy conserved; a slow run to 30 ms checks that
the car crashes like one (the front crushes, the wall force carries the deceleration, the
energy balance holds).
"""
import csv
import hashlib
import os
import pathlib
import re
import subprocess

import numpy as np
import pytest

from parcae_tools import vehicle as veh
from parcae_tools.glstat import read_glstat
from parcae_tools.lsdyna_ascii import read_rwforc

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("PARCAE_BIN", ROOT / "build" / "release" / "bin" / "parcae"))


@pytest.fixture(scope="module")
def models():
    return {c: veh.build_model(c, n, seed=3) for c, n in
            (("neon", 12000), ("3cars", 24000), ("car2car", 16000))}


def test_element_count_hits_the_target(models):
    for cls, n in (("neon", 12000), ("3cars", 24000), ("car2car", 16000)):
        c = models[cls].counts()
        assert abs(c["elements"] - n) < 0.03 * n, (cls, c)
        nv = len(models[cls].vehicles)
        assert c["parts"] >= 200 * nv, c  # hundreds of parts per vehicle
        assert c["welds"] >= 400 * nv, c
        assert c["solids"] > 0 and c["shells"] > 0.8 * c["elements"]
    with pytest.raises(ValueError):
        veh.build_model("neon", 100)
    with pytest.raises(ValueError):
        veh.build_model("bus")


def test_class_sizes_hit_the_published_counts():
    # The default sizes (535 k, 794 k) without writing: counts only (about 2 s each).
    for cls in ("neon", "3cars"):
        target = veh.CLASSES[cls][0]
        m = veh.build_model(cls)
        assert abs(m.counts()["elements"] - target) < 0.02 * target, m.counts()
        if cls == "neon":  # a shell step of about 1 us, as in real vehicle models
            assert 0.8e-6 < m.h / veh.STEEL_C < 1.5e-6, m.h


def _digest(d):
    h = hashlib.sha256()
    for name in ("main.k", "mesh.k"):
        h.update((d / name).read_bytes())
    return h.hexdigest()


def test_deterministic_for_a_seed(tmp_path):
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    veh.write_deck(veh.build_model("neon", 8000, seed=5), str(a))
    veh.write_deck(veh.build_model("neon", 8000, seed=5), str(b))
    veh.write_deck(veh.build_model("neon", 8000, seed=6), str(c))
    assert _digest(a) == _digest(b)
    assert _digest(a) != _digest(c)


def _shell_areas(m):
    x = m.coords
    n = m.shells[:, 1:] - 1
    return 0.5 * np.linalg.norm(np.cross(x[n[:, 2]] - x[n[:, 0]], x[n[:, 3]] - x[n[:, 1]]), axis=1)


def test_mesh_is_valid(models):
    for cls, m in models.items():
        nn = len(m.coords)
        for conn in (m.shells[:, 1:], m.solids[:, 1:], m.beams[:, 1:]):
            assert conn.min() >= 1 and conn.max() <= nn, cls
        assert np.all(_shell_areas(m) > 1.0), cls
        # no shell twice (the same four nodes)
        key = np.sort(m.shells[:, 1:], axis=1)
        assert len(np.unique(key, axis=0)) == len(key), cls
        # hexahedra: positive volume at the centre (Jacobian of corners 1-2, 1-4, 1-5)
        x = m.coords[m.solids[:, 1:] - 1]
        jac = np.einsum("ij,ij->i", np.cross(x[:, 1] - x[:, 0], x[:, 3] - x[:, 0]),
                        x[:, 4] - x[:, 0])
        assert np.all(jac > 0), cls
        # every node is used by an element or a mass
        used = np.zeros(nn + 1, dtype=bool)
        for conn in (m.shells[:, 1:], m.solids[:, 1:], m.beams[:, 1:]):
            used[conn.reshape(-1)] = True
        assert used[1:].all(), (cls, int((~used[1:]).sum()))
        # spot-weld beams join sheets a few mm apart
        welds = np.array([m.parts[int(p)].kind == "weld" for p in m.beams[:, 0]])
        lw = np.linalg.norm(m.coords[m.beams[welds, 2] - 1] - m.coords[m.beams[welds, 1] - 1],
                            axis=1)
        assert np.all((lw > 1.0) & (lw < 4.0)), (lw.min(), lw.max())


def test_panels_that_meet_share_nodes(models):
    m = models["neon"]
    nodes_of = {}
    for p in m.parts.values():
        stem = p.name.rsplit(" ", 1)[0]
        rows = m.shells[m.shells[:, 0] == p.pid]
        nodes_of.setdefault(stem, set()).update(rows[:, 1:].reshape(-1).tolist())
    ny = int(round(2 * 750.0 / m.h))
    for a, b in (("floor", "firewall"), ("floor", "rear panel"), ("roof", "body side left"),
                 ("hood", "firewall"), ("fender left", "hood")):
        shared = nodes_of[a] & nodes_of[b]
        assert len(shared) >= min(ny, 10), (a, b, len(shared))


def test_vehicle_masses(models):
    for cls, m in models.items():
        for v in m.vehicles:
            lo, hi = v.node_range
            sel = (m.masses[:, 0] >= lo) & (m.masses[:, 0] <= hi)
            total = v.shell_mass + v.engine_mass + m.masses[sel, 1].sum()
            assert abs(total - v.mass) < 1e-6 * v.mass, (cls, v.name, total)
            assert 0.1 < v.shell_mass < 0.5 * v.mass, (cls, v.shell_mass)


def test_placement_and_velocities(models):
    neon = models["neon"]
    assert neon.rigid_wall and abs(neon.coords[:, 0].min() - 2.0) < 1e-9
    assert neon.vehicles[0].velocity == pytest.approx(-56 / 3.6 * 1000)
    three = models["3cars"]
    spans = []
    for v in three.vehicles:
        lo, hi = v.node_range
        x = three.coords[lo - 1:hi, 0]
        spans.append((x.min(), x.max(), v.velocity))
    # front to back: mid-size, compact, van; 20 mm apart; only the van moves, towards -x
    for (a0, a1, _), (b0, b1, _) in zip(spans[:-1], spans[1:]):
        assert b0 - a1 == pytest.approx(20.0)
    assert [s[2] for s in spans] == [0.0, 0.0, pytest.approx(-56 / 3.6 * 1000)]
    assert not three.rigid_wall
    two = models["car2car"]
    (a, b) = two.vehicles
    xa = two.coords[a.node_range[0] - 1:a.node_range[1], 0]
    xb = two.coords[b.node_range[0] - 1:b.node_range[1], 0]
    assert xa.min() == pytest.approx(2.0) and xb.max() == pytest.approx(-2.0)
    assert a.velocity == -b.velocity and a.velocity < 0


def test_only_keywords_openradioss_reads(tmp_path, models):
    known = set()
    with open(ROOT / "docs" / "data" / "openradioss_keyword971.tsv") as f:
        for row in csv.reader((l for l in f if not l.startswith("#")), delimiter="\t"):
            if row and row[0].startswith("*"):
                known.add(row[0])
    for cls, m in models.items():
        d = tmp_path / cls
        veh.write_deck(m, str(d))
        used = set()
        for name in ("main.k", "mesh.k"):
            for line in (d / name).read_text().splitlines():
                if line.startswith("*"):
                    used.add(re.sub(r"_(ID|TITLE)$", "", line.split()[0]))
        missing = used - known - {"*KEYWORD", "*END", "*TITLE", "*INCLUDE"}
        assert not missing, (cls, missing)


def _run(deck, out, *extra, timeout=900):
    p = subprocess.run([str(BIN), "run", str(deck), "-o", str(out), *extra],
                       capture_output=True, text=True, timeout=timeout,
                       env={**os.environ, "OMP_NUM_THREADS": "2"})
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    return p.stdout


@pytest.mark.parametrize("cls,n", [("neon", 8000), ("3cars", 15000), ("car2car", 10000)])
def test_short_run_ties_everything_and_conserves_energy(tmp_path, cls, n):
    if not BIN.exists():
        pytest.skip(f"parcae binary not built ({BIN})")
    d = tmp_path / "deck"
    veh.write_deck(veh.build_model(cls, n, seed=1), str(d))
    log = _run(d / "main.k", tmp_path / "out", "--end-cycle", "300", "--no-vtk", "--no-d3plot")
    ties = re.findall(r"(\d+) of (\d+) secondary node\(s\) tied", log)
    assert ties and all(a == b for a, b in ties), ties
    assert "initially penetrating" not in log, log[-3000:]
    ratio = float(re.search(r"energy ratio ([0-9.]+)", log).group(1))
    assert abs(ratio - 1.0) < 0.01, log[-2000:]
    assert re.search(r"peak memory per rank \d+ MiB", log)


@pytest.mark.slow
def test_neon_class_crashes_like_a_car(tmp_path):
    """8,000 elements into the wall at 56 km/h for 30 ms (about 3,000 cycles): the front
    crushes progressively, the wall force decelerates the car (impulse = momentum lost), the
    energy balance holds."""
    if not BIN.exists():
        pytest.skip(f"parcae binary not built ({BIN})")
    d = tmp_path / "deck"
    m = veh.build_model("neon", 8000, seed=1)
    veh.write_deck(m, str(d))
    out = tmp_path / "out"
    _run(d / "main.k", out, "--no-vtk", "--no-d3plot")
    g = read_glstat(out / "glstat", as_numpy=True)
    assert abs(g["total"][-1] / g["total"][0] - 1.0) < 0.03
    absorbed = g["internal"][-1] + g["hourglass"][-1]
    ke0, ke1 = g["kinetic"][0], g["kinetic"][-1]
    assert ke1 < 0.9 * ke0                         # the crash took >= 10 % of the energy
    assert absorbed > 0.7 * (ke0 - ke1)           # mostly into deforming the structure
    assert g["hourglass"][-1] < 0.15 * g["internal"][-1]
    rw = read_rwforc(out / "rwforc")
    t = np.asarray(rw["time"])
    f = np.abs(np.asarray(rw["walls"][rw["ids"][0]]["normal_force"]))
    impulse = np.trapz(f, t)
    # The wall's impulse is the momentum the car lost: with the kinetic energy (1/2) M v^2
    # of a car that stays nearly rigid at the back, M (v0 - v) within 25 % (the front is
    # stopped, the rear still moving; the mass-scaled nodes carry a little more).
    mass = g["kinetic"][0] * 2 / m.vehicles[0].velocity ** 2   # includes the added mass
    v_end = np.sqrt(2 * ke1 / mass)
    lost = mass * (abs(m.vehicles[0].velocity) - v_end)
    assert 0.75 * lost < impulse < 1.25 * lost, (impulse, lost)
    assert f.max() > 50e3  # N: a car, not a soft toy


def test_same_results_at_np_1_2_and_4_threads_1_2(tmp_path):
    """The vehicle deck (contact, welds, ties, rigid engine, masses, wall) gives bitwise the
    same global history at np 1, 2 (and 4, oversubscribed) and with 2 threads: parcae's
    deterministic assembly and exact sums."""
    if not BIN.exists():
        pytest.skip(f"parcae binary not built ({BIN})")
    d = tmp_path / "deck"
    veh.write_deck(veh.build_model("neon", 6000, seed=2), str(d))
    env = {**os.environ, "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_rmaps_base_oversubscribe": "1"}
    ref = None
    for np_, threads in ((1, 1), (2, 1), (1, 2), (4, 1)):
        out = tmp_path / f"out{np_}x{threads}"
        cmd = [str(BIN), "run", str(d / "main.k"), "-o", str(out), "--end-cycle", "150",
               "--no-vtk", "--no-d3plot", "--threads", str(threads)]
        if np_ > 1:
            cmd += ["--np", str(np_)]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=900,
                           env={**env, "OMP_NUM_THREADS": str(threads)})
        assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
        g = read_glstat(out / "glstat")
        g.pop("time_per_zone_cycle_ns", None)  # wall-clock, not a result
        if ref is None:
            ref = g
        else:
            for k, v in ref.items():
                assert g[k] == v, (np_, threads, k)


@pytest.mark.skipif(not BIN.exists(), reason="parcae binary not built")
def test_vehicle_bench_writes_its_figures(tmp_path):
    # make bench-vehicle's module on a small car: the JSON has the deck-read rate, the run's
    # per element-cycle time, memory and phases, with the goals beside them.
    import json
    from parcae_tools import vehicle_bench
    out = tmp_path / "v.json"
    assert vehicle_bench.main(["--parcae", str(BIN), "--classes", "neon", "--elements", "6000",
                               "--configs", "1x1", "--cycles", "20", "--workdir",
                               str(tmp_path / "w"), "--json", str(out)]) == 0
    d = json.loads(out.read_text())
    neon = d["classes"]["neon"]
    assert neon["deck_read_mb_per_s"] > 0 and neon["check_s"] > 0
    run = neon["runs"][0]
    assert run["cycles"] == 20 and run["bytes_per_element"] > 0
    assert run["us_per_element_cycle_per_core"] > 0 and "element_forces" in run["phases_s"]
    assert d["goals"]["deck_read_mb_per_s"] == 100
