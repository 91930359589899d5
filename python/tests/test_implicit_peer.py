"""bench/implicit_peer.py at a tiny size (scale 0.01): the script runs ccx on the generated
input and writes its JSON (skipped without ccx); with an implicit parcae it also runs parcae out
of core at np 1 and the profile's scratch traffic matches what MUMPS reports."""
import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "bench" / "implicit_peer.py"
BIN = pathlib.Path(os.environ.get("PARCAE_BIN", ROOT / "build" / "release" / "bin" / "parcae"))


def _implicit_parcae(tmp_path) -> bool:
    if not BIN.exists():
        return False
    sys.path.insert(0, str(ROOT / "python"))
    from parcae_tools import generate as gen
    deck = tmp_path / "probe.k"
    gen.main(["cylinders", "--scale", "0.01", "-o", str(deck)])
    r = subprocess.run([str(BIN), "check", str(deck)], capture_output=True, text=True)
    return r.returncode == 0


def test_peer_script(tmp_path):
    if not shutil.which("ccx"):
        pytest.skip("CalculiX ccx not installed (scripts/setup_peers.sh)")
    with_parcae = _implicit_parcae(tmp_path)
    out = tmp_path / "peer.json"
    cmd = [sys.executable, str(SCRIPT), "--scale", "0.01", "--ccx-threads", "1", "--np", "1",
           "--modes", "ooc", "--workdir", str(tmp_path / "work"), "-o", str(out),
           "--parcae", str(BIN)]
    if not with_parcae:
        cmd.append("--skip-parcae")
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    data = json.loads(out.read_text())
    assert data["benchmark"] == "implicit_peer" and data["model"]["solids"] == 1920
    assert data["metadata"]["hostname"] and "load_average" in data["metadata"]
    ccx = data["runs"][0]
    assert ccx["code"] == "ccx" and ccx["rc"] == 0 and ccx["bore_ux_mm"] > 0
    if with_parcae:
        p = data["runs"][1]
        assert p["rc"] == 0 and p["equations"] == 7680 and p["scratch_bytes"] > 0
        # The profile saw MUMPS write its out-of-core files (the largest file total <= all
        # bytes written) and read them back; the answer is ccx's (6 digits in the .frd).
        assert p["io"]["bytes_written"] >= p["scratch_bytes"] > 0 and p["io"]["bytes_read"] > 0
        assert abs(p["bore_ux_mm"] - ccx["bore_ux_mm"]) <= 1e-4 * ccx["bore_ux_mm"]
