"""Smoke test of the strong-scaling benchmark driver on a tiny deck (figures not asserted)."""
import json
import os
import pathlib
import shutil

import pytest

from parcae_tools import scaling

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("PARCAE_BIN", ROOT / "build" / "release" / "bin" / "parcae"))


@pytest.mark.skipif(not BIN.exists(), reason="parcae binary not built")
@pytest.mark.skipif(shutil.which("mpirun.openmpi") is None, reason="Open MPI not installed")
def test_scaling_driver_writes_json(tmp_path):
    out = tmp_path / "scaling.json"
    assert scaling.main(["--parcae", str(BIN), "--json", str(out), "--size", "4x4x4",
                         "--cycles", "5", "--repeat", "1", "--configs", "1x1,2x1,1x2"]) == 0
    data = json.loads(out.read_text())
    assert data["benchmark"] == "parcae_strong_scaling"
    assert {r["name"] for r in data["results"]} >= {"speedup_np2_t1", "speedup_np1_t2"}
    assert data["metadata"]["elements"] == 64
    base = next(r for r in data["runs"] if r["np"] == 1 and r["threads"] == 1)
    assert base["speedup"] == pytest.approx(1.0)


def test_block_deck_is_well_formed():
    text = scaling.block_deck(2, 3, 4, 7)
    assert text.count("\n") > 0
    assert text.splitlines()[text.splitlines().index("*ELEMENT_SOLID") + 24].startswith("      24")
