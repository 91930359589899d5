"""parcae's d3plot read back by two independent readers, lasso-python and VTK's
vtkLSDynaReader.

The readers live in the environment that scripts/setup_pyenv.sh creates (build/pyenv; the tests
skip when it is missing). This process (the system python) runs them in subprocesses:
``build/pyenv/bin/python python/parcae_tools/d3plot_check.py --reader lasso|vtk D3PLOT`` prints
the arrays as JSON.

1. Writer fixtures: the test_output gtest binary (PARCAE_TEST_IO_BIN, default
   build/release/tests/test_output) writes its models with PARCAE_D3PLOT_FIXTURE_DIR set, each with a
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
    os.environ.get("PARCAE_TEST_IO_BIN", ROOT / "build" / "release" / "tests" / "test_output")
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
        pytest.skip(f"test_output not built ({TEST_IO}; set PARCAE_TEST_IO_BIN)")
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
    """The fixture kept in the repository (written by test_output's MixedPartsIdsAndTitles)."""
    ref = json.loads((DATA / "d3plot_mixed.json").read_text())
    check_case(DATA / "d3plot_mixed" / "d3plot", ref)


# ---------------------------------------------------------------------------- solver runs


def block_and_plate_deck():
    """A 3 x 3 x 3 hexahedron block (part 1) and a free 4 x 4 shell plate tilted by 30 degrees
    (part 2, NIP 3), both *MAT_024 steel at 30 m/s towards a stonewall at z = 0: the block
    yields at its impact face, the plate folds (bending, plastic shells). t, mm, s."""
    import math

    lines = [
        "*KEYWORD", "*TITLE", "d3plot check: block and tilted plate",
        "*CONTROL_TERMINATION", "    3.0e-4",
        "*CONTROL_TIMESTEP", "              0.8",
        "*DATABASE_GLSTAT", "    1.0e-5",
        "*DATABASE_BINARY_D3PLOT", "    5.0e-5",
        "*PART", "block", "         1         1         1",
        "*PART", "plate", "         2         2         1",
        "*SECTION_SOLID", "         1         1",
        "*SECTION_SHELL", "         2         2       1.0         3",
        "       1.0       1.0       1.0       1.0",
        "*MAT_PIECEWISE_LINEAR_PLASTICITY",
        "         1   7.85e-9  210000.0       0.3     200.0    1000.0", " ", " ", " ",
        "*INITIAL_VELOCITY_GENERATION",
        "         0         2       0.0       0.0       0.0  -30000.0",
        "       0.0       0.0       0.0       0.0       0.0       0.0",
        "*RIGIDWALL_PLANAR", "         0",
        "       0.0       0.0       0.0       0.0       0.0       1.0       0.0",
        "*NODE",
    ]
    n, m = 3, 4
    hid = lambda i, j, k: 1 + i + (n + 1) * (j + (n + 1) * k)  # noqa: E731
    sid = lambda i, j: 1001 + i + (m + 1) * j  # noqa: E731
    for k in range(n + 1):
        for j in range(n + 1):
            for i in range(n + 1):
                lines.append(f"{hid(i, j, k):8d}{10.0 * i:16.6f}{10.0 * j:16.6f}{1 + 10.0 * k:16.6f}")
    c, s = math.cos(math.radians(30)), math.sin(math.radians(30))
    for j in range(m + 1):
        for i in range(m + 1):
            lines.append(f"{sid(i, j):8d}{40 + 5.0 * i:16.6f}{5 * j * c:16.6f}{2 + 5 * j * s:16.6f}")
    lines.append("*ELEMENT_SOLID")
    e = 1
    for k in range(n):
        for j in range(n):
            for i in range(n):
                nodes = [hid(i, j, k), hid(i + 1, j, k), hid(i + 1, j + 1, k), hid(i, j + 1, k),
                         hid(i, j, k + 1), hid(i + 1, j, k + 1), hid(i + 1, j + 1, k + 1),
                         hid(i, j + 1, k + 1)]
                lines.append(f"{e:8d}{1:8d}" + "".join(f"{x:8d}" for x in nodes))
                e += 1
    lines.append("*ELEMENT_SHELL")
    e = 501
    for j in range(m):
        for i in range(m):
            nodes = [sid(i, j), sid(i + 1, j), sid(i + 1, j + 1), sid(i, j + 1)]
            lines.append(f"{e:8d}{2:8d}" + "".join(f"{x:8d}" for x in nodes))
            e += 1
    lines.append("*END")
    return "\n".join(lines) + "\n"


N_SOLIDS, N_SHELLS, N_NODES = 27, 16, 64 + 25
PLOT_TIMES = [5e-5 * k for k in range(7)]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    if not PYENV.exists():
        pytest.skip(f"no d3plot reader environment ({PYENV}); run scripts/setup_pyenv.sh")
    if not BIN.exists():
        pytest.skip(f"parcae binary not built ({BIN})")
    work = tmp_path_factory.mktemp("d3plot_run")
    deck = work / "deck.k"
    deck.write_text(block_and_plate_deck())
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OMPI_ALLOW_RUN_AS_ROOT": "1",
           "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}
    out = {}
    for np_ in (1, 2):
        d = work / f"np{np_}"
        cmd = [str(BIN), "run", str(deck), "-o", str(d), "--vtk"]
        if np_ > 1:
            cmd[2:2] = ["--np", str(np_)]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
        assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
        out[np_] = d
    return out


def vtk_states(outdir):
    from parcae_tools.vtk import read_pvd, read_vtu_ascii_or_binary

    return [(t, read_vtu_ascii_or_binary(f, as_numpy=True)) for t, f in read_pvd(outdir / "parcae.pvd")]


@needs_pyenv
@pytest.mark.parametrize("nranks", [1, 2])
def test_run_d3plot_matches_vtk_and_glstat(runs, nranks):
    from parcae_tools.glstat import read_glstat

    outdir = runs[nranks]
    states = vtk_states(outdir)
    assert [round(t / 5e-5) for t, _ in states] == list(range(7))
    x0 = states[0][1]["points"]
    assert len(x0) == N_NODES
    x = np.array([s["points"] for _, s in states])
    disp = np.array([s["point_data"]["displacement"] for _, s in states])
    vel = np.array([s["point_data"]["velocity"] for _, s in states])
    sig = np.array([s["cell_data"]["stress"] for _, s in states])
    epsp = np.array([np.ravel(s["cell_data"]["effective_plastic_strain"]) for _, s in states])
    eid = np.ravel(states[0][1]["cell_data"]["element_id"]).astype(int)
    solid_ids, shell_ids = eid[:N_SOLIDS], eid[N_SOLIDS:]
    rel = 1e-6
    coord_scale = float(np.abs(x).max())
    g = read_glstat(outdir / "glstat")
    gt = np.array(g["time"])
    rows = [int(np.argmin(np.abs(gt - t))) for t, _ in states]
    # glstat prints 6 significant digits (%.5E): compare with it to 1e-5 of the scale.
    glstat_rel = 1e-5
    close(gt[rows], [t for t, _ in states], glstat_rel, "glstat times")

    for reader in ("lasso", "vtk"):
        d = read(reader, outdir / "d3plot")
        tag = f"{reader} np={nranks}"
        close(d["time"], [t for t, _ in states], rel, f"{tag} time")
        if reader == "lasso":
            nodes = np.arange(N_NODES)  # lasso sorted by id: the deck order here, as in VTU
        else:
            nodes = match_nodes(x0, d["x0"])
        # both readers: elements sorted by id (--sort-by-id for lasso)
        d_solid = np.argsort(solid_ids, kind="stable")
        d_shell = np.argsort(shell_ids, kind="stable")
        close(d["x"], x[:, nodes], rel, f"{tag} coordinates")
        close(d["disp"], disp[:, nodes], rel, f"{tag} displacement", scale=coord_scale)
        close(d["v"], vel[:, nodes], rel, f"{tag} velocity")
        assert list(d["solid_id"]) == sorted(solid_ids)
        assert list(d["shell_id"]) == sorted(shell_ids)
        close(d["solid_sig"], sig[:, :N_SOLIDS][:, d_solid], rel, f"{tag} solid stress")
        close(d["solid_epsp"], epsp[:, :N_SOLIDS][:, d_solid], rel, f"{tag} solid eps")
        assert float(np.max(d["solid_epsp"])) > 0.01  # the block yields
        # Shells: parcae's VTK state holds the mean of the NIP = 3 points in the element frame
        # [xx yy 0 xy yz zx]; the d3plot holds the same 3 points in the global frame. The mean
        # of the global tensors must have the local mean's invariants (eigenvalues), and the
        # VTK's plastic strain is the largest of the three.
        ssig = np.asarray(d["shell_sig"])  # (states, shells, 3, 6)
        assert ssig.shape == (7, N_SHELLS, 3, 6)

        def tensors(v):
            xx, yy, zz, xy, yz, zx = (v[..., i] for i in range(6))
            return np.stack([np.stack([xx, xy, zx], -1), np.stack([xy, yy, yz], -1),
                             np.stack([zx, yz, zz], -1)], -2)

        eig_d3 = np.linalg.eigvalsh(tensors(ssig.mean(axis=2)))
        eig_vtk = np.linalg.eigvalsh(tensors(sig[:, N_SOLIDS:][:, d_shell]))
        close(eig_d3, eig_vtk, 1e-5, f"{tag} shell stress invariants")
        assert float(np.abs(eig_vtk).max()) > 50.0  # the plate is stressed
        close(np.max(d["shell_epsp"], axis=2), epsp[:, N_SOLIDS:][:, d_shell], rel,
              f"{tag} shell eps")
        close(d["shell_thickness"][0], np.ones(N_SHELLS), rel, f"{tag} thickness")
        if reader == "lasso":
            # Membrane resultants of the NIP = 3 Gauss rule (weights 5/9 8/9 5/9 over [-1, 1],
            # points -sqrt(3/5) 0 sqrt(3/5)) from the three written points, in the element
            # frame: N = t/2 sum w sigma; the frame-free check is the trace.
            w = np.array([5 / 9, 8 / 9, 5 / 9])
            trace_pts = ssig[..., 0] + ssig[..., 1] + ssig[..., 2]
            n_trace = 0.5 * np.tensordot(trace_pts, w, axes=([2], [0]))
            res = np.asarray(d["shell_resultants"])
            close(res[..., 5] + res[..., 6], n_trace, 1e-5, f"{tag} membrane resultant trace")
            for key in ("kinetic", "internal", "total"):
                close(d[key], np.array(g[key])[rows], glstat_rel, f"{tag} {key} vs glstat")
            close(d["velocity"], np.array([g["vx"], g["vy"], g["vz"]]).T[rows], glstat_rel,
                  f"{tag} global velocity vs glstat")
            assert list(d["part_id"]) == [1, 2]
            assert d["part_title"] == ["block", "plate"]
            # Per-part words are matsum's (element-based kinetic energy and momentum): each
            # part's kinetic energy and momentum (mass x velocity) at the matsum times, and the
            # parts add up to the global kinetic energy.
            from parcae_tools.lsdyna_ascii import read_matsum

            m = read_matsum(outdir / "matsum")
            mt = np.array(m["time"])
            mrows = [int(np.argmin(np.abs(mt - t))) for t, _ in states]
            # matsum prints 5 significant digits (%.4E)
            matsum_rel = 1e-4
            close(mt[mrows], [t for t, _ in states], matsum_rel, "matsum times")
            pk, pm = np.asarray(d["part_kinetic"]), np.asarray(d["part_mass"])
            pv = np.asarray(d["part_velocity"])
            assert float(pk[-1].sum()) > 0 and (pm > 0).all()
            close(pk.sum(axis=1), np.asarray(d["kinetic"]), 1e-5, f"{tag} sum of part KE")
            for j, pid in enumerate((1, 2)):
                part = m["parts"][pid]
                close(pk[:, j], np.array(part["kinetic"])[mrows], matsum_rel,
                      f"{tag} part {pid} KE vs matsum")
                mom = np.array([part[f"{c}_momentum"] for c in "xyz"]).T[mrows]
                close(pm[:, j, None] * pv[:, j], mom, matsum_rel,
                      f"{tag} part {pid} momentum vs matsum")
        else:
            assert d["part_title"] == ["block", "plate"]


@needs_pyenv
def test_run_np2_equals_np1(runs):
    a = read("lasso", runs[1] / "d3plot")
    b = read("lasso", runs[2] / "d3plot")
    assert sorted(a) == sorted(b)
    for k in a:
        if isinstance(a[k], list):
            assert a[k] == b[k], k
        else:
            assert np.array_equal(a[k], b[k]), k
    # The files themselves, except the run-time word (word 10) of the control section.
    fa = (runs[1] / "d3plot").read_bytes()
    fb = (runs[2] / "d3plot").read_bytes()
    assert fa[:40] + fa[44:] == fb[:40] + fb[44:]
    assert (runs[1] / "d3plot01").read_bytes() == (runs[2] / "d3plot01").read_bytes()


def test_restart_appends_to_the_family(runs):
    """A run restarted from a checkpoint continues the d3plot family: the same bytes as the run
    that went through (the restart rewinds the outputs to the checkpoint, the writer appends)."""
    helptext = subprocess.run([str(BIN), "run", "--help"], capture_output=True, text=True).stdout
    if "--restart" not in helptext:
        pytest.skip("this parcae has no --restart")
    work = runs[1].parent
    out = work / "restarted"
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    for cmd in ([str(BIN), "run", str(work / "deck.k"), "-o", str(out), "--checkpoint-every", "150"],
                [str(BIN), "run", "--restart", str(out / "checkpoints" / "cycle-000000150"), "-o",
                 str(out)]):
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
        assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    names = sorted(p.name for p in out.iterdir() if p.name.startswith("d3plot"))
    assert names == sorted(p.name for p in runs[1].iterdir() if p.name.startswith("d3plot"))
    for name in names:
        a, b = (runs[1] / name).read_bytes(), (out / name).read_bytes()
        if name == "d3plot":  # word 10: the run's start time
            a, b = a[:40] + a[44:], b[:40] + b[44:]
        assert a == b, name
