"""The reader benchmark's generated deck is a valid LS-PrePost-style mesh (a small one here;
`make reader-bench` times the 1 M-element one)."""
import json
import os
import pathlib
import subprocess

from parcae_tools import reader_bench

ROOT = pathlib.Path(__file__).resolve().parents[2]
PARCAE = os.environ.get("PARCAE_BIN", str(ROOT / "build" / "release" / "bin" / "parcae"))


def test_generated_block_deck_is_valid(tmp_path):
    deck = tmp_path / "block.k"
    reader_bench.write_block_deck(deck, 3)
    p = subprocess.run([PARCAE, "check", str(deck)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "64 nodes, 27 solids" in p.stdout


def test_benchmark_writes_json(tmp_path):
    out = tmp_path / "reader.json"
    assert reader_bench.main(["--parcae", PARCAE, "--json", str(out), "--cells", "4",
                              "--repeat", "1"]) == 0
    data = json.loads(out.read_text())
    assert data["elements"] == 64 and data["median_s"] > 0 and "cpu_model" in data["metadata"]
