"""parcae_tools.profile: loading (full profiles and part-way per-rank dumps), the summary, the
ITAC-style report, compare, the figures and bad input.

The fixtures in data/profile_shm and data/profile_tcp are small hand-written profiles with
round numbers (2 ranks, 10 s each; rank 0 spends 2 s in MPI, rank 1 3 s), so the expected
table values are computed here independently.
"""
import json
import pathlib
import re
import subprocess
import sys

import pytest

from parcae_tools import profile as prof

DATA = pathlib.Path(__file__).parent / "data"
SHM = DATA / "profile_shm"
TCP = DATA / "profile_tcp"


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "parcae_tools.profile", *map(str, args)],
                          capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(pathlib.Path(__file__).parents[1]),
                               "MPLBACKEND": "Agg", "PATH": "/usr/bin:/bin"})


def test_load_and_recomputed_summary_equals_the_stored_one():
    p = prof.load(str(SHM))
    stored = json.loads((SHM / "profile.json").read_text())["summary"]
    computed = prof.summarize(p)
    assert prof.summary_mismatches(stored, computed) == []
    assert computed["mpi_s"] == {"min": 2.0, "avg": 2.5, "max": 3.0, "sum": 5.0}
    assert computed["elapsed_s"]["sum"] == pytest.approx(20.0)


def test_report_table_values():
    p = prof.load(str(SHM / "profile.json"))
    text = prof.report_text(p)
    # MPI share: 5 s of MPI out of 20 s of rank time
    assert re.search(r"MPI 5\.0+ s = 25\.00 %", text), text
    rows = {line.split()[0]: line.split() for line in text.splitlines()
            if line.startswith("MPI_")}
    # every function row: Tself summed over ranks, % of MPI, calls, average size
    total_mpi = 5.0
    data = json.loads((SHM / "profile.json").read_text())
    for name, f in data["summary"]["functions"].items():
        row = rows[name]
        tself = f["time_s"]["sum"]
        assert float(row[1]) == pytest.approx(tself, abs=1e-6)
        assert float(row[2]) == pytest.approx(100 * tself / total_mpi, abs=0.01)
        assert int(row[4]) == f["calls"]["sum"]
    # sorted by Tself, descending
    tselfs = [float(rows[n][1]) for n in rows]
    assert tselfs == sorted(tselfs, reverse=True)
    # the per-rank table: rank 1 has 30 % MPI
    assert re.search(r"^1\s+\S+\s+10\.0+\s+3\.0+\s+7\.0+\s+30\.00", text, re.M), text


def test_partial_dumps_are_merged():
    p = prof.load(str(DATA / "profile_partial"))
    assert [r["rank"] for r in p["ranks"]] == [0, 1]
    s = prof.summarize(p)
    assert s["elapsed_s"]["max"] >= s["elapsed_s"]["min"] > 0
    assert "partial" in prof.report_text(p).lower()


def test_compare_ratios_and_metadata_difference():
    a, b = prof.load(str(SHM)), prof.load(str(TCP))
    text = prof.compare_text(a, b, ("shm", "tcp"))
    assert "self,vader" in text and "self,tcp" in text
    fa = {k: v["time_s"]["sum"] for k, v in prof.summarize(a)["functions"].items()}
    fb = {k: v["time_s"]["sum"] for k, v in prof.summarize(b)["functions"].items()}
    for name in fa.keys() & fb.keys():
        line = next(l for l in text.splitlines() if l.startswith(name))
        ratio = fb[name] / fa[name]
        assert f"{ratio:.2f}" in line, (line, ratio)


def test_plots_are_png_files(tmp_path):
    paths = prof.write_plots(prof.load(str(SHM)), str(tmp_path))
    names = {pathlib.Path(p).name for p in paths}
    assert {"mpi_vs_user.png", "mpi_functions.png", "message_sizes.png"} <= names
    for p in paths:
        data = pathlib.Path(p).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000, p
    cmp = prof.write_compare_plot(prof.load(str(SHM)), prof.load(str(TCP)), str(tmp_path),
                                  ("shm", "tcp"))
    assert pathlib.Path(cmp).read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("make_bad,expect", [
    (lambda d: d / "missing", "missing"),
    (lambda d: (d / "bad.json").write_text("{not json") and d / "bad.json", "bad.json"),
    (lambda d: (d / "schema.json").write_text(json.dumps({"schema": "other", "version": 1}))
     and d / "schema.json", "schema.json"),
    (lambda d: (d / "empty").mkdir() or d / "empty", "empty"),
])
def test_bad_input_is_one_line_and_exit_1(tmp_path, make_bad, expect):
    path = make_bad(tmp_path)
    r = run_cli("report", path)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    assert expect in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
