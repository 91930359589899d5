"""`parcae storage-study` (parcae_tools.storage_study): argument validation, the orchestration
of concurrent jobs and the JSON and figures, with a stand-in workload
(data/storage_standin.py) that writes and reads a known number of bytes in its scratch
directory. With the profiler library built, the stand-in's I/O is also measured by the real
POSIX I/O interposition (libparcae-mpiprof.so, no MPI initialised). The real implicit solver
is the default workload; its end-to-end study is run by hand (docs/storage_study.md)."""
import json
import os
import pathlib
import subprocess
import sys

import pytest

from parcae_tools import storage_study as st

ROOT = pathlib.Path(__file__).resolve().parents[2]
STANDIN = pathlib.Path(__file__).parent / "data" / "storage_standin.py"
BIN = pathlib.Path(os.environ.get("PARCAE_BIN", ROOT / "build" / "release" / "bin" / "parcae"))
PROFILER = BIN.resolve().parent.parent / "lib" / "openmpi" / "libparcae-mpiprof.so"
BLOCK, BLOCKS = 256 * 1024, 6


def test_parse_jobs():
    assert st.parse_jobs("1,2,4") == [1, 2, 4]
    assert st.parse_jobs("4, 1") == [1, 4]
    for bad in ("", "1,,2", "a", "0,1", "-1", "1,1", "1.5"):
        with pytest.raises(st.StudyError, match="--jobs"):
            st.parse_jobs(bad)


def test_targets(tmp_path):
    assert st.parse_target("ram=/dev/shm") == {"name": "ram", "dir": "/dev/shm"}
    for bad in ("ram", "=/x", "ram=", "a b=/x"):
        with pytest.raises(st.StudyError, match="--target"):
            st.parse_target(bad)
    with pytest.raises(st.StudyError, match="does not exist"):
        st.validate_target({"name": "x", "dir": str(tmp_path / "missing")})
    (tmp_path / "file").write_text("")
    with pytest.raises(st.StudyError, match="not a directory"):
        st.validate_target({"name": "x", "dir": str(tmp_path / "file")})
    with pytest.raises(st.StudyError, match="not writable"):  # even for root
        st.validate_target({"name": "x", "dir": "/proc"})
    t = st.validate_target({"name": "disk", "dir": str(tmp_path)})
    assert t["dir"] == str(tmp_path) and t["filesystem"] and t["free_bytes"] > 0
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".parcae-probe")]


def _deck(tmp_path, **kw):
    spec = {"blocks": BLOCKS, "block": BLOCK, "sleep": 0.3}
    spec.update(kw)
    p = tmp_path / "deck.json"
    p.write_text(json.dumps(spec))
    return p


def _args(tmp_path, deck, *extra, jobs="1,2", np_=2, targets=None):
    targets = targets or [f"disk={tmp_path / 'disk'}", f"ram={tmp_path / 'ram'}"]
    for t in targets:
        os.makedirs(t.split("=", 1)[1], exist_ok=True)
    out = ["--target=" + t for t in targets]
    return [str(deck), "--jobs", jobs, "--np", str(np_), *out, "-o",
            str(tmp_path / "study.json"), "--parcae", str(STANDIN), *extra]


def test_cli_errors(tmp_path, capsys):
    deck = _deck(tmp_path)
    cases = [
        (["missing.k", "--jobs", "1", "--np", "1", "--target", f"a={tmp_path}", "-o", "x.json",
          "--parcae", str(STANDIN)], "no such file"),
        ([str(deck), "--jobs", "1,x", "--np", "1", "--target", f"a={tmp_path}", "-o", "x.json",
          "--parcae", str(STANDIN)], "--jobs"),
        ([str(deck), "--jobs", "1", "--np", "0", "--target", f"a={tmp_path}", "-o", "x.json",
          "--parcae", str(STANDIN)], "--np"),
        ([str(deck), "--jobs", "1", "--np", "1", "-o", "x.json", "--parcae", str(STANDIN)],
         "--target"),
        ([str(deck), "--jobs", "1", "--np", "1", "--target", f"a={tmp_path / 'nope'}", "-o",
          "x.json", "--parcae", str(STANDIN)], "does not exist"),
        ([str(deck), "--jobs", "1", "--np", "1", "--target", f"a={tmp_path}", "--target",
          f"a={tmp_path}", "-o", "x.json", "--parcae", str(STANDIN)], "repeated name"),
        ([str(deck), "--jobs", "1", "--np", "1", "--target", f"a={tmp_path}", "-o",
          str(tmp_path / "no" / "x.json"), "--parcae", str(STANDIN)], "does not exist"),
        ([str(deck), "--jobs", "1", "--np", "1", "--target", f"a={tmp_path}", "-o", "x.json",
          "--parcae", str(tmp_path / "none")], "not an executable"),
    ]
    for argv, msg in cases:
        assert st.main(argv) == 1, argv
        assert msg in capsys.readouterr().err, argv
    assert st.main(["report", str(deck), "-o", str(tmp_path)]) == 1
    assert "not a storage-study result" in capsys.readouterr().err


def _check_study(tmp_path, data, np_, exact_ops):
    assert data["schema"] == "parcae-storage-study" and data["jobs"] == [1, 2]
    assert [t["name"] for t in data["targets"]] == ["disk", "ram"]
    assert data["failed_jobs"] == 0
    assert data["metadata"]["hostname"] and "cores" in data["metadata"]
    per_job = np_ * BLOCKS * BLOCK
    for t in data["targets"]:
        assert [r["jobs"] for r in t["results"]] == [1, 2]
        for r in t["results"]:
            (run,) = r["runs"]
            assert len(run["jobs"]) == r["jobs"]
            seen = []
            for j in run["jobs"]:
                io = j["io"]
                assert j["rc"] == 0 and "error" not in j
                assert io["bytes_written"] == per_job and io["bytes_read"] == per_job
                assert io["write_ops"] == np_ * BLOCKS and io["read_ops"] == np_ * BLOCKS
                assert io["hist_write"][19] == np_ * BLOCKS  # 256 KiB = 2^18: bin 19
                assert sum(io["hist_write"]) == np_ * BLOCKS
                if exact_ops:  # open + close per file and direction, one fsync per file
                    assert io["other_ops"] == 5 * np_
                    assert io["functions"]["fsync"]["calls"] == np_
                side = json.loads(pathlib.Path(j["outdir"], "standin.json").read_text())
                scratch = side["argv"][side["argv"].index("--scratch") + 1]
                assert side["io_prefix"] == scratch and scratch.startswith(t["dir"])
                assert io["prefix"] == scratch
                assert side["bind"] == ("none" if r["jobs"] > 1 else None)
                assert not os.path.exists(scratch)  # cleaned up (no --keep)
                seen.append((side["start"], side["end"]))
            # Launched together: every job started before any other finished.
            assert max(s for s, _ in seen) < min(e for _, e in seen)
            assert run["scratch_bytes"] == 2 * per_job * r["jobs"]
            assert run["aggregate_bytes_per_s"] == pytest.approx(
                run["scratch_bytes"] / run["batch_wall_s"])
            assert r["wall_s"]["min"] >= 0.3 and r["wall_s"]["median"] <= r["wall_s"]["max"]
            assert r["scratch_bytes_per_job"] == 2 * per_job
    assert not [p for p in (tmp_path / "disk").iterdir()]


def _run_and_report(tmp_path, capsys, np_, exact_ops):
    deck = _deck(tmp_path)
    assert st.main(_args(tmp_path, deck, np_=np_)) == 0
    data = json.loads((tmp_path / "study.json").read_text())
    _check_study(tmp_path, data, np_, exact_ops)
    figs = tmp_path / "figs"
    assert st.main(["report", str(tmp_path / "study.json"), "-o", str(figs)]) == 0
    out = capsys.readouterr().out
    assert "disk" in out and "ram" in out
    for name in ("storage_study.png", "storage_throughput.png", "storage_io_sizes.png"):
        data = (figs / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000


def test_study_with_standin(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("STANDIN_PROFILER", raising=False)
    _run_and_report(tmp_path, capsys, np_=2, exact_ops=True)


def test_study_with_the_io_profiler(tmp_path, capsys, monkeypatch):
    if not PROFILER.exists():
        pytest.skip(f"profiler library not built ({PROFILER})")
    monkeypatch.setenv("STANDIN_PROFILER", str(PROFILER))
    _run_and_report(tmp_path, capsys, np_=1, exact_ops=True)


def test_failed_job_is_reported(tmp_path, capsys):
    deck = _deck(tmp_path, fail=True)
    assert st.main(_args(tmp_path, deck, jobs="2", targets=[f"disk={tmp_path / 'disk'}"])) == 2
    data = json.loads((tmp_path / "study.json").read_text())
    assert data["failed_jobs"] == 2
    j = data["targets"][0]["results"][0]["runs"][0]["jobs"][0]
    assert j["rc"] == 2 and "exit status 2" in j["error"] and j["io"] is None


def test_front_end(tmp_path):
    if not BIN.exists():
        pytest.skip(f"parcae binary not built ({BIN})")
    r = subprocess.run([str(BIN), "storage-study", "--help"], capture_output=True, text=True)
    assert r.returncode == 0 and "--target" in r.stdout
    r = subprocess.run([str(BIN), "storage-study", str(tmp_path / "x.k"), "--jobs", "1",
                        "--np", "1", "--target", f"a={tmp_path}", "-o", "r.json"],
                       capture_output=True, text=True)
    assert r.returncode == 1 and "no such file" in r.stderr


def test_batch_that_would_fill_the_target_is_skipped(tmp_path, capsys, monkeypatch):
    """After the first batch the study knows what one job writes; a batch of J jobs that would
    not fit in the target's free space (a RAM disk would take the machine's memory) is skipped
    with a note, and the report and figures leave it out."""
    monkeypatch.delenv("STANDIN_PROFILER", raising=False)
    per_job = 2 * BLOCKS * BLOCK  # np 2: bytes written by one stand-in job
    monkeypatch.setattr(st, "free_bytes", lambda path: int(2.5 * per_job))
    deck = _deck(tmp_path, sleep=0.0)
    argv = _args(tmp_path, deck, jobs="1,2,4", targets=[f"disk={tmp_path / 'disk'}"])
    assert st.main(argv) == 0
    data = json.loads((tmp_path / "study.json").read_text())
    res = data["targets"][0]["results"]
    assert [r["jobs"] for r in res] == [1, 2, 4]
    assert "skipped" not in res[0] and "skipped" not in res[1]  # 2 x per_job < 0.95 x 2.5
    assert res[2]["skipped"].startswith("skipped: 4 jobs need about")
    assert st.main(["report", str(tmp_path / "study.json"), "-o", str(tmp_path / "f")]) == 0
    assert "skipped: 4 jobs" in capsys.readouterr().out
