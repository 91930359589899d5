import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from parcae_tools import profile as prof

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
SHM = os.path.join(DATA, "profile_shm")
TCP = os.path.join(DATA, "profile_tcp", "profile.json")
PARTIAL = os.path.join(DATA, "profile_partial")
PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def table(text, first_header):
    """Rows (cells split on 2+ spaces) of the table whose header starts with first_header."""
    lines = text.splitlines()
    i = next(k for k, l in enumerate(lines) if l.startswith(first_header))
    rows = []
    for l in lines[i + 2:]:
        if not l.strip():
            break
        rows.append(re.split(r"\s{2,}", l.strip()))
    return rows


def test_function_table():
    rows = table(prof.report_text(prof.load(SHM)), "Function")
    # Allreduce 1+2 s of 5 s MPI (60 %) of 20 s elapsed (15 %), 1600 B / 200 calls = 8 B
    assert rows == [
        ["MPI_Allreduce", "3.000000", "60.00", "15.00", "200", "8 B", "1.000000", "2.000000"],
        ["MPI_Waitall", "1.500000", "30.00", "7.50", "100", "0 B", "0.750000", "0.750000"],
        ["MPI_Isend", "0.500000", "10.00", "2.50", "100", "1.50 KiB", "0.250000", "0.250000"]]
    rows = table(prof.report_text(prof.load(SHM), top=2), "Function")
    assert [r[0] for r in rows] == ["MPI_Allreduce", "MPI_Waitall"]
    # Iprobe only on ranks 1 and 3: per-rank min is 0
    rows = {r[0]: r for r in table(prof.report_text(prof.load(TCP)), "Function")}
    assert rows["MPI_Iprobe"][1:] == ["0.500000", "4.17", "2.08", "40", "0 B", "0.000000",
                                      "0.250000"]
    assert rows["MPI_Isend"][5] == "512 B"


def test_rank_phase_tables_and_header():
    text = prof.report_text(prof.load(SHM))
    assert table(text, "Rank  Host") == [
        ["0", "node1", "10.000000", "2.000000", "8.000000", "20.00"],
        ["1", "node1", "10.000000", "3.000000", "7.000000", "30.00"],
        ["all", "-", "20.000000", "5.000000", "15.000000", "25.00"]]
    assert table(text, "Phase  ") == [
        ["element_forces", "11.000000", "55.00", "1.500000", "13.64", "20", "6.000000"],
        ["contact", "7.000000", "35.00", "2.500000", "35.71", "20", "4.000000"],
        ["(none)", "2.000000", "10.00", "1.000000", "50.00", "2", "1.000000"]]
    assert re.search(r"Load imbalance \(max/avg app time\): 1\.067 \(max on rank 0\)", text)
    assert re.search(r"Transport\s+: self,vader", text)
    assert re.search(r"Ranks x threads : 2 x 1", text)
    assert "warning" not in text
    tcp = prof.report_text(prof.load(TCP))
    assert "Load imbalance (max/avg app time): 1.083 (max on rank 3)" in tcp
    assert "Phases" not in tcp


def test_summary_recomputed_equals_stored():
    for path in (SHM, TCP):
        p = prof.load(path)
        with open(p["source"]) as f:
            stored = json.load(f)["summary"]
        assert prof.summary_mismatches(stored, prof.summarize(p)) == []
    s = prof.summarize(prof.load(TCP))
    assert s["functions"]["MPI_Iprobe"]["calls"] == {"min": 0, "avg": 10.0, "max": 20, "sum": 40}
    assert s["functions"]["MPI_Isend"]["hist"] == [0] * 10 + [200]
    # a wrong stored value is detected and reported
    p = prof.load(SHM)
    p["summary"]["mpi_s"]["avg"] = 2.4
    assert prof.summary_mismatches(p["summary"], prof.summarize(p)) == [
        "mpi_s.avg: stored 2.4, computed 2.5"]
    assert "warning: the stored summary differs" in prof.report_text(p)


def test_merge_partials(tmp_path):
    with open(os.path.join(SHM, "profile.json")) as f:
        stored = json.load(f)["summary"]
    for path in (PARTIAL, os.path.join(PARTIAL, "partial")):
        p = prof.load(path)
        assert p["partial"] and p["trigger"] == "signal"
        assert [r["rank"] for r in p["ranks"]] == [0, 1]
        assert p["metadata"]["hosts"] == ["node1", "node2"]
        assert prof.summary_mismatches(stored, p["summary"]) == []
    # rank files directly in the directory, one rank missing
    d = tmp_path / "dump"
    d.mkdir()
    shutil.copy(os.path.join(PARTIAL, "partial", "rank-00001.json"), d)
    p = prof.load(str(d))
    assert p["summary"]["mpi_s"] == {"min": 3.0, "avg": 3.0, "max": 3.0, "sum": 3.0}
    assert "Ranks present   : 1 of 2 (missing: 0)" in prof.report_text(p)
    shutil.copy(os.path.join(PARTIAL, "partial", "rank-00001.json"), d / "rank-00002.json")
    with pytest.raises(prof.ProfileError, match="rank 1 appears more than once"):
        prof.load(str(d))


def test_compare():
    text = prof.compare_text(prof.load(SHM), prof.load(TCP), ("shm", "tcp"))
    assert "  transport: self,vader vs self,tcp" in text
    assert "  ranks: 2 vs 4" in text
    assert "  hosts: node1 vs node1,node2" in text
    assert "start_time" not in text
    rows = {r[0]: r for r in table(text, "Function")}
    assert rows["MPI_Allreduce"][1:4] == ["3.000000", "6.000000", "2.000"]
    assert rows["MPI_Waitall"][3] == "2.333"
    assert rows["MPI_Isend"][3:] == ["4.000", "100", "200", "1.50 KiB", "512 B"]
    assert rows["MPI_Iprobe"][3:5] == ["inf", "0"]
    tot = {r[0]: r for r in table(text, "Total")}
    assert tot["Elapsed[s] (max over ranks)"][1:] == ["10.000000", "6.000000", "0.600"]
    assert tot["%MPI"][1:] == ["25.00", "50.00", "2.000"]


def is_png(path):
    with open(path, "rb") as f:
        return f.read(8) == b"\x89PNG\r\n\x1a\n" and os.path.getsize(path) > 5000


def test_plots(tmp_path):
    paths = prof.write_plots(prof.load(SHM), str(tmp_path / "a"))
    assert sorted(os.path.basename(p) for p in paths) == [
        "message_sizes.png", "mpi_functions.png", "mpi_vs_user.png", "phases.png"]
    paths += prof.write_plots(prof.load(TCP), str(tmp_path / "b"))
    assert not os.path.exists(tmp_path / "b" / "phases.png")
    paths.append(prof.write_compare_plot(prof.load(SHM), prof.load(TCP), str(tmp_path),
                                         ("shm", "tcp")))
    assert len(paths) == 8
    for p in paths:
        assert is_png(p), p


def test_cli(tmp_path, capsys):
    assert prof.main(["report", SHM, "--top", "1"]) == 0
    out = capsys.readouterr().out
    assert "MPI_Allreduce" in out and "MPI_Waitall" not in out
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
    r = subprocess.run([sys.executable, "-m", "parcae_tools.profile", "compare", SHM, TCP,
                        "--labels", "shm,tcp", "--png", str(tmp_path)],
                       capture_output=True, text=True, env=env, check=False)
    assert r.returncode == 0, r.stderr
    assert "self,vader vs self,tcp" in r.stdout
    for p in ("compare_functions.png", "shm/phases.png", "tcp/mpi_vs_user.png"):
        assert is_png(tmp_path / p), p


def bad_inputs(tmp_path):
    notjson = tmp_path / "notjson.json"
    notjson.write_text("{not json")
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps({"schema": "other", "version": 1, "ranks": []}))
    version = tmp_path / "version.json"
    version.write_text(json.dumps({"schema": "parcae-profile", "version": 2, "ranks": []}))
    norank = tmp_path / "norank.json"
    norank.write_text(json.dumps({"schema": "parcae-profile", "version": 1,
                                  "ranks": [{"rank": 0, "mpi_s": 1.0}]}))
    empty = tmp_path / "emptyrun"
    (empty / "partial").mkdir(parents=True)
    return [(str(tmp_path / "missing.json"), "missing.json"), (str(notjson), "notjson.json"),
            (str(schema), "schema.json"), (str(version), "version.json"),
            (str(norank), "elapsed_s"), (str(empty), "partial")]


def test_errors(tmp_path, capsys):
    for path, name in bad_inputs(tmp_path):
        assert prof.main(["report", path]) == 1, path
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and name in err, err
        assert "Traceback" not in err
    assert prof.main(["compare", SHM, str(tmp_path / "nope"), "--labels", "a,b"]) == 1
    assert "nope" in capsys.readouterr().err
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
    r = subprocess.run([sys.executable, "-m", "parcae_tools.profile", "report",
                        str(tmp_path / "notjson.json")],
                       capture_output=True, text=True, env=env, check=False)
    assert r.returncode == 1
    assert r.stderr.startswith("error: ") and "notjson.json" in r.stderr
    assert "Traceback" not in r.stderr


def test_human_bytes():
    assert prof.human_bytes(0) == "0 B"
    assert prof.human_bytes(10.5) == "10.5 B"
    assert prof.human_bytes(1536) == "1.50 KiB"
    assert prof.human_bytes(3 * 2**20) == "3.00 MiB"
    assert [prof._bin_label(k) for k in (0, 1, 4, 11, 21)] == ["0", "1 B", "8 B", "1 KiB",
                                                                "1 MiB"]
