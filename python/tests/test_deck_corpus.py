"""The public-deck corpus (../shared/decks) in the test suite (issue 11).

Every corpus deck is checked; the ones parcae accepts run to their end time at np = 1 and 2,
their final energy ratio must lie in the deck's band (stated with its reason in
parcae_tools.deck_corpus.CORPUS), and glstat must be byte-identical at 1 and 2 ranks (parcae's
promise: results do not depend on the rank count). docs/deck_corpus.md must be the rendering of
bench/deck_corpus.json, and each deck's status must still be the one recorded there (a deck that
starts or stops being accepted makes the table stale: rerun `make corpus`).

Without ../shared/decks the per-deck tests are skipped with a message; the table check runs.
"""
import json
import os
import pathlib
import shutil

import pytest

from parcae_tools import deck_corpus

ROOT = pathlib.Path(__file__).resolve().parents[2]
DECKS = deck_corpus.default_decks_dir()
RESULTS = ROOT / "bench" / "deck_corpus.json"
TABLE = ROOT / "docs" / "deck_corpus.md"
PARCAE = os.environ.get("PARCAE_BIN", str(ROOT / "build" / "release" / "bin" / "parcae"))

needs_corpus = pytest.mark.skipif(not (DECKS / "SOURCES.md").exists(),
                                  reason=f"public-deck corpus not present ({DECKS}: ../shared/decks)")


def recorded():
    return {d["folder"]: d for d in json.loads(RESULTS.read_text())["decks"]}


def test_table_is_rendered_from_the_results():
    data = json.loads(RESULTS.read_text())
    assert TABLE.read_text() == deck_corpus.render_table(data), (
        "docs/deck_corpus.md is stale: python -m parcae_tools.deck_corpus table "
        "--json bench/deck_corpus.json --table docs/deck_corpus.md")
    assert [d["folder"] for d in data["decks"]] == [d.folder for d in deck_corpus.CORPUS]


@needs_corpus
@pytest.mark.parametrize("deck", deck_corpus.CORPUS, ids=lambda d: d.folder)
def test_corpus_deck(deck, tmp_path):
    path = deck_corpus.deck_to_run(deck, DECKS, tmp_path / "deck")
    got = deck_corpus.check(PARCAE, path)
    rec = recorded()[deck.folder]
    expected = "runs" if rec["status"] in ("runs", "stops") else "refused"
    assert got["status"] == expected, (
        f"{deck.folder}: parcae check says {got.get('status')} "
        f"({got.get('reason', '')}), bench/deck_corpus.json says {rec['status']}: rerun make corpus")
    if got["status"] == "refused":
        # A refusal is one clear error with file:line, never a crash.
        assert got["check_exit"] == 1
        assert got["reason"] == rec["reason"], "the first problem changed: rerun make corpus"
        return
    runs = {n: deck_corpus.run(PARCAE, path, tmp_path / f"np{n}", n, deck.end_time)
            for n in (1, 2)}
    for n, r in runs.items():
        assert r["exit"] == 0, f"np {n}: {r.get('error')}"
        lo, hi = deck.band
        assert lo <= r["energy_ratio"] <= hi, (
            f"np {n}: energy ratio {r['energy_ratio']} outside {deck.band} ({deck.band_reason})")
    assert runs[1]["cycles"] == runs[2]["cycles"]
    assert deck_corpus.glstat_identical(tmp_path / "np1", tmp_path / "np2"), \
        "glstat differs between 1 and 2 ranks"
    assert rec["status"] == "runs"
    shutil.rmtree(tmp_path, ignore_errors=True)
