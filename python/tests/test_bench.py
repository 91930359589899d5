import json
import os
import subprocess
import sys

from parcae_tools import bench

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

RESULT = {
    "benchmark": "taylor_bar",
    "metadata": {"hostname": "node17", "cpu_model": "Some CPU", "cores": 64},
    "results": [
        {"name": "zone_cycles_per_second", "value": 123456789.0, "unit": "1/s"},
        {"name": "wall_time", "value": 12.5, "unit": "s"},
        {"name": "cycles", "value": 4001, "unit": ""},
    ],
}


def test_machine_metadata_keys():
    meta = bench.machine_metadata()
    for key in ("hostname", "cpu_model", "cores", "memory_bytes", "os", "compiler",
                "git_revision", "mpi"):
        assert key in meta, key
    assert isinstance(meta["hostname"], str) and meta["hostname"]
    assert isinstance(meta["cores"], int) and meta["cores"] >= 1
    assert isinstance(meta["mpi"], list)
    json.dumps(meta)  # serialisable into a result file


def test_summarize_text():
    out = bench.summarize(RESULT)
    lines = out.splitlines()
    assert lines[0] == "benchmark: taylor_bar"
    assert "hostname: node17" in lines
    header = next(i for i, l in enumerate(lines) if l.startswith("name"))
    assert lines[header].split() == ["name", "value", "unit"]
    assert set(lines[header + 1].replace(" ", "")) == {"-"}
    rows = [l.split() for l in lines[header + 2:]]
    assert rows == [["zone_cycles_per_second", "1.23457e+08", "1/s"],
                    ["wall_time", "12.5", "s"],
                    ["cycles", "4001"]]


def test_summarize_cli(tmp_path):
    f = tmp_path / "result.json"
    f.write_text(json.dumps(RESULT))
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
    r = subprocess.run([sys.executable, "-m", "parcae_tools.bench", "summarize", str(f)],
                       capture_output=True, text=True, env=env, check=False)
    assert r.returncode == 0, r.stderr
    assert "zone_cycles_per_second" in r.stdout and "1/s" in r.stdout
    assert r.stdout == bench.summarize(RESULT)


def test_summarize_cli_bad_file(tmp_path, capsys):
    f = tmp_path / "bad.json"
    f.write_text("{not json")
    assert bench.main(["summarize", str(f)]) == 2
    assert "bad.json" in capsys.readouterr().err
