"""The POSIX I/O records of profiles in `parcae profile report` (parcae_tools.profile_io):
validation, the summary across ranks (as the profiler computes it), the report table and the
size histogram, and io_sizes.png."""
import json

import pytest

from parcae_tools import profile as P
from parcae_tools import profile_io


def _fn(calls, size, t=0.001):
    h = [0] * (size.bit_length() + 1)
    h[size.bit_length()] = calls
    return {"calls": calls, "time_s": t, "bytes": calls * size, "hist": h}


def _profile(tmp_path, with_summary=True):
    ranks = []
    for r in range(2):
        io = {"prefix": "/scratch", "time_s": 0.004,
              "functions": {"pwrite": _fn(10 + r, 262144), "pread": _fn(10, 262144),
                            "open": {"calls": 2, "time_s": 0.001, "bytes": 0, "hist": [2]},
                            "close": {"calls": 2, "time_s": 0.001, "bytes": 0, "hist": [2]}}}
        ranks.append({"rank": r, "host": "h", "elapsed_s": 1.0, "mpi_s": 0.1, "app_s": 0.9,
                      "functions": {}, "phases": {"(none)": {"entries": 0, "time_s": 1.0,
                                                             "mpi_s": 0.1, "functions": {}}},
                      "io": io})
    prof = {"schema": "parcae-profile", "version": 1, "partial": False, "trigger": "finalize",
            "metadata": {"ranks": 2}, "ranks": ranks}
    if with_summary:
        prof["summary"] = P.summarize(P._clean_profile(prof, "x"))
    path = tmp_path / "profile.json"
    path.write_text(json.dumps(prof))
    return path


def test_summary_and_report(tmp_path):
    prof = P.load(str(_profile(tmp_path)))
    s = P.summarize(prof)["io"]["functions"]
    assert s["pwrite"]["calls"] == {"min": 10, "avg": 10.5, "max": 11, "sum": 21}
    assert s["pwrite"]["hist"][19] == 21 and s["pread"]["bytes"]["sum"] == 20 * 262144
    text = P.report_text(prof)
    assert "warning" not in text  # the stored io summary agrees with the ranks
    assert "POSIX I/O (files under /scratch; summed over 2 ranks)" in text
    row = next(ln for ln in text.splitlines() if ln.startswith("256 KiB"))
    assert row.split()[2:] == ["21", "20"]  # writes, reads in the 256 KiB bin
    paths = P.write_plots(prof, str(tmp_path / "png"))
    assert any(p.endswith("io_sizes.png") for p in paths)


def test_bad_io_record(tmp_path):
    path = _profile(tmp_path, with_summary=False)
    data = json.loads(path.read_text())
    data["ranks"][0]["io"]["functions"]["pwrite"]["hist"] = [-1]
    path.write_text(json.dumps(data))
    with pytest.raises(P.ProfileError, match="io function pwrite"):
        P.load(str(path))


def test_profiles_without_io_are_unchanged(tmp_path):
    path = _profile(tmp_path, with_summary=False)
    data = json.loads(path.read_text())
    for r in data["ranks"]:
        del r["io"]
    path.write_text(json.dumps(data))
    prof = P.load(str(path))
    assert "io" not in P.summarize(prof) and profile_io.io_report_lines(prof) == []


def test_parcae_profile_of_a_serial_program(tmp_path):
    """`parcae profile -- PROGRAM` without a launcher: a program that never starts MPI (dd)
    gets a one-rank profile of its I/O: 8 reads and 8 writes of 256 KiB (bin 19)."""
    import os
    import pathlib
    import shutil
    import subprocess
    root = pathlib.Path(__file__).resolve().parents[2]
    exe = pathlib.Path(os.environ.get("PARCAE_BIN", root / "build" / "release" / "bin" / "parcae"))
    if not exe.exists() or not shutil.which("dd"):
        pytest.skip(f"parcae binary not built ({exe}) or no dd")
    out = tmp_path / "prof"
    r = subprocess.run([str(exe), "profile", "-o", str(out), "--", "dd", "if=/dev/zero",
                        f"of={tmp_path / 'data'}", "bs=256k", "count=8"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    prof = P.load(str(out))
    assert prof["metadata"]["mpi_library"].startswith("none")
    fns = prof["ranks"][0]["io"]["functions"]
    for name in ("read", "write"):
        assert fns[name]["calls"] == 8 and fns[name]["bytes"] == 8 * 262144
        assert fns[name]["hist"][19] == 8
    assert "POSIX I/O (all files; summed over 1 rank)" in r.stdout
