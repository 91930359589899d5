#!/usr/bin/env python3
"""Byte-identity of two parcae binaries (refactorings must not change results, issue 12).

usage: compare_outputs.py OLD_PARCAE NEW_PARCAE [DECK ...] [--np 1 2 4] [--end-fraction F]

Runs every deck (default: examples/*/*.k and tests/mpi/decks/*.k) with both binaries at each
rank count (--end-time = F x the deck's end time when F < 1, to keep it short) and compares
every output file byte for byte, except the run-time stamps (tests/mpi/output_compare.py).
Prints one line per deck and rank count; exit 1 on any difference.
"""
import argparse
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "mpi"))
from output_compare import same_file  # noqa: E402
ENV = {**os.environ, "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
       "OMP_NUM_THREADS": "1"}


def end_time(deck):
    text = deck.read_text(errors="replace").splitlines()
    for i, line in enumerate(text):
        if line.upper().startswith("*CONTROL_TERMINATION"):
            for nxt in text[i + 1:]:
                if nxt.startswith("$"):
                    continue
                field = nxt[:10].strip() if "," not in nxt else nxt.split(",")[0].strip()
                try:
                    return float(field)
                except ValueError:
                    return None
    return None


def run(parcae, deck, out, np_, fraction):
    cmd = [parcae, "run", str(deck), "-o", str(out)]
    if np_ > 1:
        cmd += ["--np", str(np_), "--mpi", "openmpi"]
    t = end_time(deck)
    if fraction < 1 and t:
        cmd += ["--end-time", repr(t * fraction)]
    p = subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=1800)
    return p.returncode


def same(a, b):
    diffs = []
    files = sorted(f.relative_to(a) for f in a.rglob("*") if f.is_file())
    other = sorted(f.relative_to(b) for f in b.rglob("*") if f.is_file())
    if files != other:
        diffs.append(f"file lists differ: {sorted(set(files) ^ set(other))[:5]}")
    for rel in files:
        if rel.parts[0] == "checkpoints" or not (b / rel).exists():
            continue
        if not same_file(a / rel, b / rel):
            diffs.append(str(rel))
    return diffs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("decks", nargs="*")
    ap.add_argument("--np", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--end-fraction", type=float, default=1.0)
    a = ap.parse_args()
    decks = [pathlib.Path(d) for d in a.decks] or sorted(ROOT.glob("examples/*/*.k")) + sorted(
        ROOT.glob("tests/mpi/decks/*.k"))
    bad = 0
    with tempfile.TemporaryDirectory(prefix="parcae_compare_") as tmp:
        for deck in decks:
            if end_time(deck) is None:  # an included mesh file, not a deck
                continue
            for np_ in a.np:
                o = pathlib.Path(tmp) / f"{deck.stem}.np{np_}.old"
                n = pathlib.Path(tmp) / f"{deck.stem}.np{np_}.new"
                rc = (run(a.old, deck, o, np_, a.end_fraction), run(a.new, deck, n, np_,
                                                                     a.end_fraction))
                diffs = [f"exit {rc}"] if rc[0] != rc[1] else same(o, n)
                nfiles = sum(1 for f in o.rglob("*") if f.is_file())
                status = "identical" if not diffs else "DIFFERENT: " + ", ".join(diffs[:6])
                print(f"{deck.relative_to(ROOT) if deck.is_relative_to(ROOT) else deck} np {np_}: "
                      f"{nfiles} files {status}", flush=True)
                bad += bool(diffs)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
