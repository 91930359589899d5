"""Memory budget (issue 30): a 1 M-hexahedron block run with the outputs its deck asks for
(glstat, the d3plot's initial and final states) must stay within 1 KiB per element all-in, the run
summary's peak resident memory over the element count. 3,028 bytes per element on the build of
2026-11-28 (the plot state gathered whole, twice copied); 990 after the fix. Fails, with the
figure, when a change passes the budget.
"""
import os
import pathlib

import pytest

from parcae_tools import memory_bench

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("PARCAE_BIN", ROOT / "build" / "release" / "bin" / "parcae"))


@pytest.mark.skipif(not BIN.exists(), reason="parcae binary not built")
def test_million_hexahedra_within_one_kib_per_element(tmp_path):
    r = memory_bench.measure(str(BIN), 100, 10, 1, tmp_path)
    assert r["elements"] == 1_000_000
    # the d3plot's states were written (the budget includes the outputs the deck asks for):
    # two states of 1 M solids (7 words each) and 1.03 M nodes (9 words), 4-byte words
    assert r["d3plot_states_bytes"] >= 2 * 4 * (7 * 1_000_000 + 9 * 101 ** 3), r
    assert r["bytes_per_element"] <= memory_bench.DEFAULT_BUDGET, r
