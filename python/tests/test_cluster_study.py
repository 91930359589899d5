"""Cluster study (issue 15): campaign schema, runner, resume, report, compare; the alpha-beta
what-if model against hand-computed values; and a tiny campaign end to end with the real
parcae (skipped when the binary is missing).

    PARCAE_BIN=build/release/bin/parcae python3 -m pytest -q python/tests/test_cluster_study.py
"""
from __future__ import annotations

import json
import math
import os
import pathlib
import shutil
import subprocess
import sys
import textwrap
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

from parcae_tools import campaign as C  # noqa: E402
from parcae_tools import whatif as W  # noqa: E402

TAYLOR = ROOT / "examples" / "taylor_bar" / "taylor_bar.k"

# A stand-in for `parcae run` that prints the lines the runner parses and writes a small
# profile: elapsed = 1 s / ranks (+20 % for MPICH, +50 % for TCP), 1000 cycles, 100 elements.
FAKE = r'''#!/usr/bin/python3
import json, os, sys
a = sys.argv[1:]
def opt(name, default=None):
    return a[a.index(name) + 1] if name in a else default
np_, mpi, tr = int(opt("--np", "1")), opt("--mpi", "openmpi"), opt("--transport", "shm")
if os.environ.get("FAKE_FAIL") == f"{np_}.{tr}":
    print("parcae: error: boom", file=sys.stderr); sys.exit(2)
el = 1.0 / np_ * (1.2 if mpi == "mpich" else 1.0) * (1.5 if tr == "tcp" and np_ > 1 else 1.0)
print(f"parcae: launching: mpirun.{mpi} -np {np_} --bind-to core x")
print("  solid elements   100\n  shell elements   0")
print("normal termination at cycle 1000, time 1.000000e-05")
print(f"  elapsed {el:.3f} s, {1000 * 100 / el:.4g} element-cycles/s (1 thread(s))")
pdir = opt("--profile")
if pdir:
    os.makedirs(pdir, exist_ok=True)
    mpi_s = 0.25 * el if np_ > 1 else 0.0
    fn = {"MPI_Allreduce": {"calls": 1000, "time_s": mpi_s, "bytes": 8000,
                            "hist": [0, 0, 0, 0, 1000]}} if np_ > 1 else {}
    ranks = [{"rank": r, "host": "h", "elapsed_s": el, "mpi_s": mpi_s, "app_s": el - mpi_s,
              "functions": fn, "phases": {}} for r in range(np_)]
    json.dump({"schema": "parcae-profile", "version": 1,
               "metadata": {"mpi_library": mpi, "transport": "self,vader", "hosts": ["h"]},
               "ranks": ranks}, open(os.path.join(pdir, "profile.json"), "w"))
'''


@pytest.fixture()
def fake_parcae(tmp_path):
    p = tmp_path / "fake_parcae"
    p.write_text(FAKE)
    p.chmod(0o755)
    return str(p)


def write_campaign(tmp_path, body: str) -> str:
    (tmp_path / "deck.k").write_text("*KEYWORD\n*END\n")
    p = tmp_path / "campaign.yaml"
    p.write_text(textwrap.dedent(body))
    return str(p)


MINIMAL = """\
name: example
decks: [deck.k]
ranks: [1, 2]
threads: [1]
mpi: [openmpi]
transport: [shm, tcp]
repeats: 1
"""

# --------------------------------------------------------------------------------------------
# Schema


@pytest.mark.parametrize("body, key", [
    ("decks: [deck.k]\n", "name"),
    ("name: x\n", "decks"),
    ("name: x\ndecks: [deck.k]\nranks: [one]\n", "ranks[0]"),
    ("name: x\ndecks: [deck.k]\nranks: [0]\n", "ranks[0]"),
    ("name: x\ndecks: [deck.k]\nmpi: [intelmpi]\n", "mpi[0]"),
    ("name: x\ndecks: [deck.k]\ntransport: shm2\n", "transport[0]"),
    ("name: x\ndecks: [missing.k]\n", "decks[0].path"),
    ("name: x\ndecks: [{path: deck.k, endtime: 1}]\n", "decks[0].endtime"),
    ("name: x\ndecks: [deck.k]\nrepeat: 2\n", "repeat"),
    ("name: x\ndecks: [deck.k]\nrepeats: 0\n", "repeats"),
    ("name: x\ndecks: [deck.k]\ndecomposition: [{method: scotch}]\n", "decomposition[0].method"),
    ("name: x\ndecks: [deck.k]\ndecomposition: [{method: rcb, transform: 'sy:2'}]\n",
     "decomposition[0].transform"),
    ("name: x\ndecks: [deck.k]\nreferences: [{metric: elapsed_s}]\n", "references[0].value"),
    ("name: x\ndecks: [deck.k]\nreferences: [{value: 1, metric: speed}]\n",
     "references[0].metric"),
    ("name: x\ndecks: [deck.k]\nreferences: [{value: 1, match: {np: 2}}]\n",
     "references[0].match.np"),
])
def test_schema_errors_name_the_key(tmp_path, body, key):
    path = write_campaign(tmp_path, body)
    with pytest.raises(C.CampaignError) as e:
        C.load_campaign(path)
    assert f": {key}:" in str(e.value), str(e.value)
    assert path in str(e.value)


def test_interleave_orders_by_repeat(tmp_path):
    c = C.load_campaign(write_campaign(tmp_path, MINIMAL.replace("repeats: 1",
                                                                 "repeats: 2\ninterleave: true")))
    assert [r["repeat"] for r in C.expand(c)] == [0, 0, 0, 0, 1, 1, 1, 1]


def test_minimal_campaign_expands(tmp_path):
    c = C.load_campaign(write_campaign(tmp_path, MINIMAL))
    assert c["decks"][0]["path"] == str(tmp_path / "deck.k")  # relative to the campaign file
    runs = C.expand(c)
    assert len(runs) == 4
    assert len({r["run_id"] for r in runs}) == 4
    assert {(r["config"]["ranks"], r["config"]["transport"]) for r in runs} == \
        {(1, "shm"), (2, "shm"), (1, "tcp"), (2, "tcp")}


# --------------------------------------------------------------------------------------------
# Runner, resume, report, compare (fake parcae: fast, no MPI)


def test_campaign_records_and_resume(tmp_path, fake_parcae, capsys):
    camp = write_campaign(tmp_path, MINIMAL)
    results = str(tmp_path / "res.jsonl")
    os.environ["FAKE_FAIL"] = "2.tcp"
    try:
        assert C.run_campaign(camp, results, fake_parcae) == 1  # one run failed
    finally:
        del os.environ["FAKE_FAIL"]
    out = capsys.readouterr().out
    assert "[4/4]" in out and "ETA" in out and "FAILED" in out
    recs = C.read_results(results)
    assert [r["status"] for r in recs].count("ok") == 3
    ok = next(r for r in recs if r["status"] == "ok" and r["ranks"] == 2)
    assert ok["elapsed_s"] == pytest.approx(0.5)
    assert ok["jobs_per_day"] == pytest.approx(86400 / 0.5)
    assert ok["cycles"] == 1000 and ok["elements"] == 100
    assert ok["us_per_element_cycle"] == pytest.approx(1e6 * 0.5 / (1000 * 100))
    assert ok["mpi_fraction"] == pytest.approx(0.25)
    assert ok["profile"]["functions"]["MPI_Allreduce"]["calls"] == 2000
    for k in ("git_revision", "cpu_model", "date", "mpi_library", "hosts", "compiler"):
        assert k in ok["metadata"], k
    assert ok["binding"] == "core"
    # Resume: only the failed run is run again; a second resume runs nothing.
    assert C.run_campaign(camp, results, fake_parcae) == 0
    out = capsys.readouterr().out
    assert "3 already in" in out and "1 to run" in out
    assert C.run_campaign(camp, results, fake_parcae) == 0
    assert "0 to run" in capsys.readouterr().out
    assert len(C.read_results(results)) == 5
    # A torn last line (an interrupted write) is ignored.
    with open(results, "a") as f:
        f.write('{"schema": "parcae-be')
    assert len(C.read_results(results)) == 5


def test_report_and_figures(tmp_path, fake_parcae):
    pytest.importorskip("matplotlib", reason="python3-matplotlib missing (scripts/setup.sh)")
    camp = write_campaign(tmp_path, MINIMAL.replace("mpi: [openmpi]", "mpi: [openmpi, mpich]")
                          .replace("ranks: [1, 2]", "ranks: [1]")
                          + "decomposition: [rcb, metis]\n")
    # MPICH at np 2 would be skipped on a 1-core machine: keep ranks 1 and add np 2 OpenMPI.
    results = str(tmp_path / "res.jsonl")
    assert C.run_campaign(camp, results, fake_parcae) == 0
    camp2 = write_campaign(tmp_path, MINIMAL)
    assert C.run_campaign(camp2, results, fake_parcae) == 0
    recs = C.read_results(results)
    text = C.report_text(recs)
    assert "jobs/day" in text and "MPI library comparison" in text
    assert "+0.0 %" in text or "-16.7 %" in text  # mpich is 20 % slower: -16.7 % jobs/day
    rows = C.aggregate(recs)
    r2 = next(r for r in rows if r["ranks"] == 2 and r["transport"] == "shm")
    assert r2["speedup"] == pytest.approx(2.0) and r2["efficiency"] == pytest.approx(1.0)
    figs = C.write_figures(recs, str(tmp_path / "report"))
    names = {os.path.basename(f) for f in figs}
    assert {"jobs_per_day.png", "compare_mpi.png", "speedup_efficiency.png",
            "mpi_functions.png"} <= names
    for f in figs:
        assert open(f, "rb").read(8) == b"\x89PNG\r\n\x1a\n"


def test_compare_exits_nonzero_on_regression(tmp_path, fake_parcae, capsys):
    body = MINIMAL + textwrap.dedent("""\
        references:
          - match: {ranks: 2, transport: shm}
            metric: elapsed_s
            value: 0.5
            lower: -0.05
            upper: 0.05
        """)
    camp = write_campaign(tmp_path, body)
    results = str(tmp_path / "res.jsonl")
    assert C.run_campaign(camp, results, fake_parcae) == 0
    assert C.compare(C.read_results(results)) == 0
    assert "1 checks, 0 outside" in capsys.readouterr().out
    # A stricter reference (0.4 s +- 5 %) makes the same results a regression.
    camp_bad = write_campaign(tmp_path, body.replace("value: 0.5", "value: 0.4"))
    assert C.compare(C.read_results(results), C.load_campaign(camp_bad)) == 1
    assert "REGRESSION" in capsys.readouterr().out


# --------------------------------------------------------------------------------------------
# The alpha-beta model against hand-computed values


def synthetic_profile(p=2, app=1.0, transport="self,vader"):
    fn = {"MPI_Init_thread": {"calls": 1, "time_s": 0.1, "bytes": 0, "hist": [1]},
          "MPI_Isend": {"calls": 100, "time_s": 0.01, "bytes": 80000,
                        "hist": [0] * 10 + [100]},       # 800 B each (bin 10: 512..1023)
          "MPI_Irecv": {"calls": 100, "time_s": 0.001, "bytes": 80000, "hist": [0] * 10 + [100]},
          "MPI_Waitall": {"calls": 100, "time_s": 0.02, "bytes": 0, "hist": [100]},
          "MPI_Allreduce": {"calls": 50, "time_s": 0.005, "bytes": 400,
                            "hist": [0, 0, 0, 0, 50]}}   # 8 B each
    mpi = sum(f["time_s"] for f in fn.values())
    return {"metadata": {"mpi_flavour": "OpenMPI", "transport": transport, "hosts": ["h"]},
            "ranks": [{"rank": r, "elapsed_s": app + mpi, "mpi_s": mpi, "app_s": app,
                       "functions": fn} for r in range(p)]}


NET = W.Net("test", 10e-6, 1e-9, 0.0)   # 10 us, 1 GB/s, no reduction cost
SHM = W.Net("shm", 1e-6, 0.2e-9, 0.0)


def test_alpha_beta_absolute_hand_computed():
    res = W.predict(synthetic_profile(), NET)
    isend = 100 * (10e-6 + 800 * 1e-9)           # 1.08e-3
    allreduce = 50 * 1 * (10e-6 + 8 * 1e-9)        # recursive doubling, log2 2 = 1 step
    expected = 1.0 + 0.1 + isend + allreduce       # compute + MPI_Init (as measured)
    assert res["mode"] == "absolute"
    assert res["elapsed_s"] == pytest.approx(expected, rel=1e-12)
    assert res["mpi_s_per_function"]["MPI_Isend"] == pytest.approx(isend)
    assert res["mpi_s_per_function"]["MPI_Allreduce"] == pytest.approx(allreduce)
    assert res["mpi_s_per_function"]["MPI_Waitall"] == 0.0
    assert res["mpi_fraction"] == pytest.approx((isend + allreduce) / (expected - 0.1))
    assert res["jobs_per_day"] == pytest.approx(86400 / expected)


def test_alpha_beta_differential_hand_computed():
    prof = synthetic_profile()
    res = W.predict(prof, NET, base=SHM)
    d_isend = 100 * ((10e-6 + 800e-9) - (1e-6 + 800 * 0.2e-9))
    d_all = 50 * ((10e-6 + 8e-9) - (1e-6 + 8 * 0.2e-9))
    measured = prof["ranks"][0]["elapsed_s"]
    assert res["mode"] == "differential"
    assert res["elapsed_s"] == pytest.approx(measured + d_isend + d_all, rel=1e-12)


def test_collective_costs_hand_computed():
    n = W.Net("n", 2e-6, 1e-9, 0.5e-9)
    # Allreduce 8 B on 8 ranks: 3 recursive-doubling steps.
    assert W.collective_cost("MPI_Allreduce", 8, 8, n) == \
        pytest.approx(3 * (2e-6 + 8e-9 + 4e-9))
    # 6 ranks (not a power of two): 2 steps + 2 (fold in and out).
    assert W.rec_doubling_steps(6) == 4
    # 1 MiB on 4 ranks, Open MPI ring: 2(p-1) alpha + 2 (p-1)/p b beta + (p-1)/p b gamma.
    b = 2.0**20
    assert W.collective_cost("MPI_Allreduce", b, 4, n, "openmpi") == pytest.approx(
        6 * 2e-6 + 1.5 * b * 1e-9 + 0.75 * b * 0.5e-9)
    # MPICH Rabenseifner: 2 log2 p alpha.
    assert W.collective_cost("MPI_Allreduce", b, 4, n, "mpich") == pytest.approx(
        4 * 2e-6 + 1.5 * b * 1e-9 + 0.75 * b * 0.5e-9)
    assert W.collective_cost("MPI_Barrier", 0, 16, n) == pytest.approx(4 * 2e-6)
    assert W.collective_cost("MPI_Bcast", 100, 4, n) == pytest.approx(2 * (2e-6 + 100e-9))
    assert W.collective_cost("MPI_Allreduce", 8, 1, n) == 0.0
    # Hierarchical allreduce, 2 nodes x 4 ranks: 2 log2 4 intra steps + 1 inter step.
    prof = {"metadata": {}, "ranks": [{"rank": r, "elapsed_s": 1.0, "mpi_s": 0.0, "app_s": 1.0,
                                       "functions": {"MPI_Allreduce": {
                                           "calls": 10, "time_s": 0.0, "bytes": 80,
                                           "hist": [0, 0, 0, 0, 10]}}} for r in range(8)]}
    res = W.predict(prof, n, intra=SHM, nodes=2, ranks_per_node=4)
    per_call = 4 * (SHM.msg(8)) + (2e-6 + 8e-9 + 4e-9)
    assert res["elapsed_s"] == pytest.approx(1.0 + 10 * per_call)


def test_units_and_fit():
    assert W.parse_bandwidth("1Gbit/s") == pytest.approx(125e6)
    assert W.parse_bandwidth("1.2GB/s") == pytest.approx(1.2e9)
    assert W.parse_time("1.5us") == pytest.approx(1.5e-6)
    with pytest.raises(W.WhatifError):
        W.parse_time("fast")
    pts = [(b, 3e-6 + b * 2e-10) for b in (0, 8, 512, 65536, 2**20)]
    a, b = W.fit_alpha_beta(pts)
    assert a == pytest.approx(3e-6, rel=1e-6) and b == pytest.approx(2e-10, rel=1e-6)
    # A measured curve is interpolated (and made monotone).
    # A measured curve: alpha = median of the times up to 4 KiB, beta = median of
    # (t - alpha) / b above (the 1 ms outlier at 32 KiB does not count).
    n = W.Net("c", 1e-6, 1e-9, 0.0, table=[[0, 5e-6], [8, 2e-6], [1024, 3e-6],
                                           [16384, 3e-6 + 16384e-9], [32768, 1e-3],
                                           [65536, 3e-6 + 65536e-9]])
    assert n.alpha == pytest.approx(3e-6) and n.beta == pytest.approx(1e-9)
    assert n.msg(1000) == pytest.approx(3e-6 + 1000e-9)
    assert n.allreduce_step(8) == pytest.approx(n.msg(8))  # no allreduce curve: message


def test_presets_load_with_sources():
    nets, _ = W.load_networks(include_calibrated=False)
    for name in ("shm", "tcp-loopback", "1gbe", "10gbe", "40gbe", "fdr", "edr", "hdr"):
        assert name in nets and nets[name].source
    assert nets["edr"].alpha < nets["10gbe"].alpha < nets["1gbe"].alpha


# --------------------------------------------------------------------------------------------
# The SimGrid SMPI engine (whatif --engine smpi): trace synthesis, and the replay against the
# analytic engine on the committed 2-rank fixture

PROFILE_SHM = ROOT / "python" / "tests" / "data" / "profile_shm"


def test_smpi_trace_synthesis():
    from parcae_tools import profile as P
    from parcae_tools import whatif_smpi as S
    syn = S.synthesise(P.load(str(PROFILE_SHM)), NET)
    # 50 Isends per rank to its one partner: 50 cycles; 100 allreduces of 8 B: 2 per cycle
    assert syn["cycles"] == syn["real_cycles"] == 50 and syn["scale"] == 1
    assert syn["partners"] == [[1], [0]]
    r0 = syn["traces"][0]
    assert r0[0] == "0 init" and r0[-1] == "0 finalize"
    assert r0.count("0 isend 1 0 1024") == 50      # rank 0 sends 51200 B / 50
    assert r0.count("0 irecv 1 0 2048") == 50      # rank 1 sends 102400 B / 50
    assert r0.count("0 allreduce 8 0") == 100
    assert r0.count("0 compute 1.6e+08") == 50     # 8 s of compute / 50 cycles at 1 Gflop/s
    assert S.partners(0, 8, None) == [1, 7, 2, 6, 3, 5]  # k = 6 neighbours, symmetric
    assert S.partners(3, 4, None) == [0, 2, 1]
    xml = S.platform_xml(2, NET, SHM)
    assert 'radical="0-1"' in xml and 'lat="5e-06s"' in xml and 'bw="1e+09Bps"' in xml


# Relative tolerance on the communication time (elapsed - compute) of the 2-rank fixture. Its
# ranks send different halo sizes (1024 and 2048 B): the analytic engine costs each rank's own
# sends (max over ranks), the replay also makes rank 0 wait for rank 1's larger messages, so
# with rank 0 the slowest the replay is 3.5 % higher (1.606 vs 1.552 ms); 0.2 % otherwise.
SMPI_TOL = 0.05


@pytest.mark.skipif(not shutil.which("smpirun"),
                    reason="smpirun not found: apt-get install libsimgrid-dev (SimGrid SMPI)")
def test_smpi_engine_agrees_with_alpha_beta(tmp_path):
    """On 2 ranks (one partner, 8-byte allreduces) the replay on an alpha-beta platform and the
    analytic engine cost the same messages: they agree within SMPI_TOL on the communication
    time, for the fixture as profiled and with compute shrunk so communication dominates."""
    from parcae_tools import profile as P
    from parcae_tools import whatif_smpi as S
    t0 = time.perf_counter()
    prof = P.load(str(PROFILE_SHM))
    fast = json.loads(json.dumps(prof))
    for r in fast["ranks"]:
        r["app_s"] = 1e-3
    for pr in (prof, fast):
        a, s = W.predict(pr, NET), S.predict(pr, NET)
        assert s["engine"] == "smpi" and s["smpi"]["cycles"] == 50
        comm_a = a["elapsed_s"] - a["compute_s_max"]
        comm_s = s["elapsed_s"] - s["compute_s_max"]
        assert comm_s == pytest.approx(comm_a, rel=SMPI_TOL)
        assert s["elapsed_s"] == pytest.approx(a["elapsed_s"], rel=0.005)
        assert s["mpi_fraction"] == pytest.approx(a["mpi_fraction"], abs=0.01)
        assert s["jobs_per_day"] == pytest.approx(86400 / s["elapsed_s"])
        assert s["replay_wall_s"] > 0
    # the command line, same JSON shape as the analytic engine plus the replay's wall time
    out = subprocess.run([sys.executable, "-m", "parcae_tools.whatif", str(PROFILE_SHM),
                          "--engine", "smpi", "--latency", "10us", "--bandwidth", "1GB/s",
                          "--keep-trace", str(tmp_path / "ti"), "--json"],
                         capture_output=True, text=True, cwd=str(ROOT / "python"), timeout=60)
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout)
    ab = W.predict(prof, W.Net("custom", 10e-6, 1e-9, NET.gamma))
    assert set(ab) <= set(res) and "replay_wall_s" in res
    assert (tmp_path / "ti" / "rank1.ti").exists() and (tmp_path / "ti" / "platform.xml").exists()
    assert time.perf_counter() - t0 < 30

# --------------------------------------------------------------------------------------------
# End to end with the real parcae


def parcae_bin():
    p = os.environ.get("PARCAE_BIN") or str(ROOT / "build/release/bin/parcae")
    return p if os.path.isfile(p) and os.access(p, os.X_OK) else None


@pytest.mark.skipif(parcae_bin() is None, reason="parcae binary missing (build it, or set "
                                                 "PARCAE_BIN)")
def test_tiny_campaign_end_to_end(tmp_path):
    exe = parcae_bin()
    camp = tmp_path / "tiny.yaml"
    camp.write_text(textwrap.dedent(f"""\
        name: tiny
        decks: [{{path: {TAYLOR}, end_time: 2.0e-6}}]
        ranks: [1, 2]
        threads: [1]
        mpi: [openmpi]
        transport: [shm]
        repeats: 1
        references:
          - {{match: {{ranks: 1}}, metric: cycles, value: 32, lower: -0.01, upper: 0.01}}
        """))
    results = tmp_path / "res.jsonl"
    env = {**os.environ, "PARCAE_NETWORKS_CALIBRATED": str(tmp_path / "calib.yaml")}
    p = subprocess.run([exe, "bench", str(camp), "-o", str(results)], capture_output=True,
                       text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "[2/2]" in p.stdout
    recs = C.read_results(str(results))
    assert [r["status"] for r in recs] == ["ok", "ok"]
    np2 = recs[1]
    assert np2["ranks"] == 2 and np2["cycles"] > 0 and np2["elements"] == 768
    assert np2["metadata"]["hosts"] and "Open MPI" in np2["metadata"]["mpi_library"]
    p = subprocess.run([exe, "bench", "report", str(results), "-o", str(tmp_path / "rep")],
                       capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "rep" / "jobs_per_day.png").exists()
    p = subprocess.run([exe, "bench", "compare", str(results)], capture_output=True, text=True,
                       env=env, timeout=60)
    assert p.returncode == 0 and "1 checks, 0 outside" in p.stdout, p.stdout + p.stderr
    # whatif on the 2-rank profile: one JSON object, under a second.
    prof = pathlib.Path(np2["outdir"]) / "profile"
    t0 = time.perf_counter()
    p = subprocess.run([exe, "whatif", str(prof), "--latency", "30us", "--bandwidth",
                        "1Gbit/s", "--json", "--no-calibrate"], capture_output=True, text=True, env=env,
                       timeout=60)
    assert p.returncode == 0, p.stderr
    assert time.perf_counter() - t0 < 3.0
    res = json.loads(p.stdout)
    for k in ("elapsed_s", "jobs_per_day", "mpi_fraction"):
        assert k in res
    assert res["elapsed_s"] > 0 and 0 <= res["mpi_fraction"] < 1
    # An unknown network is refused naming the presets.
    p = subprocess.run([exe, "whatif", str(prof), "--network", "token-ring", "--no-calibrate"],
                       capture_output=True, text=True, env=env, timeout=60)
    assert p.returncode == 2 and "edr" in p.stderr


def test_extrapolation_hand_computed():
    """4 single-rank nodes from a 2-rank profile: compute halves, 3x the messages per rank
    (k(4) = 3 partners vs 1) of (2/4)^(2/3) the bytes, allreduce in 2 steps; a 10x larger
    model (work_scale) multiplies compute by 10 and bytes by 10^(2/3)."""
    prof = synthetic_profile()
    res = W.predict(prof, NET, nodes=4, ranks_per_node=1)
    b = 800 * 0.5 ** (2 / 3)
    isend = 3 * 100 * (10e-6 + b * 1e-9)
    allreduce = 50 * 2 * (10e-6 + 8e-9)
    assert res["extrapolated"] and res["ranks"] == 4 and res["mode"] == "absolute"
    assert res["elapsed_s"] == pytest.approx(0.5 + 0.1 + isend + allreduce, rel=1e-12)
    res = W.predict(prof, NET, work_scale=10.0)
    isend = 100 * (10e-6 + 800 * 10 ** (2 / 3) * 1e-9)
    assert res["elapsed_s"] == pytest.approx(10.0 + 0.1 + isend + 50 * (10e-6 + 8e-9),
                                             rel=1e-12)


# --------------------------------------------------------------------------------------------
# Hosts as network namespaces (root only)


def _can_netns() -> bool:
    if os.geteuid() != 0:
        return False
    p = subprocess.run(["ip", "netns", "add", "pctprobe"], capture_output=True)
    subprocess.run(["ip", "netns", "del", "pctprobe"], capture_output=True)
    return p.returncode == 0


@pytest.mark.skipif(not _can_netns(), reason="needs root and network namespaces")
def test_cluster_up_down(tmp_path, monkeypatch):
    from parcae_tools import cluster as CL
    monkeypatch.setattr(CL, "STATE_DIR", tmp_path / "state")
    CL.down("pct")
    with CL.cluster(2, "pct", "100mbit") as st:
        assert st["hosts"] == ["pct-h0", "pct-h1"]
        ns = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
        assert "pct-h0" in ns and "pct-h1" in ns and "pct-sw" in ns
        addr = subprocess.run(["ip", "-n", "pct-h1", "-4", "addr", "show", "eth0"],
                              capture_output=True, text=True).stdout
        assert "10.213.0.2/24" in addr
        qd = subprocess.run(["ip", "netns", "exec", "pct-h0", "tc", "qdisc", "show", "dev",
                             "eth0"], capture_output=True, text=True).stdout
        assert "tbf" in qd and "100Mbit" in qd
        assert (pathlib.Path("/etc/netns/pct-h0/hosts").read_text().count("10.213.0.") == 2)
        with pytest.raises(CL.ClusterError):
            CL.up(2, "pct")  # exists
        # the hosts see each other by name (TCP connect from h1 to a listener in h0)
        code = ("import socket,sys;s=socket.socket();s.settimeout(5);"
                "s.connect((sys.argv[1],int(sys.argv[2])));print('ok')")
        srv = subprocess.Popen(["ip", "netns", "exec", "pct-h0", sys.executable, "-c",
                                "import socket;s=socket.socket();s.bind(('0.0.0.0',47311));"
                                "s.listen(1);c,_=s.accept();c.close()"])
        try:
            for _ in range(50):
                r = subprocess.run(["ip", "netns", "exec", "pct-h1", sys.executable, "-c", code,
                                    "pct-h0", "47311"], capture_output=True, text=True)
                if r.stdout.strip() == "ok":
                    break
                time.sleep(0.1)
            assert r.stdout.strip() == "ok", r.stderr
        finally:
            srv.kill()
            srv.wait()
        cmd = CL.mpirun_command(st, 2, ["prog"], "openmpi")
        assert cmd[:4] == ["ip", "netns", "exec", "pct-h0"] and "plm_rsh_agent" in cmd
    ns = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    assert "pct-" not in ns
    assert not pathlib.Path("/etc/netns/pct-h0").exists()
