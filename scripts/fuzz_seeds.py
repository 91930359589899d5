#!/usr/bin/env python3
"""Seed corpus of the keyword reader's fuzz target (tests/fuzz/fuzz_keyword_reader.cpp).

Seeds: examples/**/*.k, tests/input/bad_decks/*.k, tests/fuzz/seeds/*.k (small accepted decks, in the
fuzz input format) and the public decks under --decks
(../shared/decks; skipped when absent). A deck that *INCLUDEs files becomes one input holding the
deck and its (recursively) included files, each after a line "$parcae-fuzz-file: NAME"; the
*INCLUDE lines are rewritten to the flat names used there. Inputs are cut at a line boundary to
--max-bytes (big meshes: their first lines). The output directory is replaced.
With --dict: a libFuzzer dictionary of the keywords of the card tables (src/input/card_tables*.cpp
and the material laws' files in src/materials)
and of the reader's syntax.
"""
import argparse
import hashlib
import re
import shutil
from pathlib import Path

MARKER = b"$parcae-fuzz-file: "
ROOT = Path(__file__).resolve().parent.parent


def flat_name(path: Path, main: Path) -> str:
    if path.resolve() == main.resolve():
        return "deck.k"
    name = re.sub(r"[^A-Za-z0-9._-]", "_", path.name)[-64:]
    return name if name not in ("deck.k", ".", "..") else "_" + name


def cut(text: bytes, limit: int) -> bytes:
    if len(text) <= limit:
        return text
    end = text.rfind(b"\n", 0, limit)
    return text[: end + 1] if end > 0 else text[:limit]


def rewrite_includes(text: bytes, base: Path, main: Path, found: list) -> bytes:
    """The text with the file names of its *INCLUDE blocks replaced by flat names; the included
    files that exist are appended to `found`."""
    out = []
    in_include = False
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if stripped.startswith(b"*"):
            in_include = stripped.split()[0].upper() == b"*INCLUDE"
        elif in_include and stripped and not stripped.startswith(b"$"):
            try:
                target = (base / stripped.decode("latin-1")).resolve()
                exists = target.is_file()
            except (OSError, ValueError):
                exists = False
            if exists:
                found.append(target)
                eol = b"\r\n" if line.endswith(b"\r\n") else b"\n"
                line = flat_name(target, main).encode() + eol
        out.append(line)
    return b"".join(out)


def bundle(main: Path, max_bytes: int) -> bytes:
    """The deck and the files it includes, as one fuzz input."""
    parts = []
    seen = {main.resolve()}
    queue = [main.resolve()]
    names = set()
    while queue and len(parts) < 8:
        path = queue.pop(0)
        found = []
        text = rewrite_includes(path.read_bytes(), path.parent, main, found)
        name = flat_name(path, main)
        if name in names:
            continue
        names.add(name)
        parts.append((name, text))
        for f in found:
            if f not in seen:
                seen.add(f)
                queue.append(f)
    budget = max_bytes
    out = b""
    for name, text in parts:
        head = b"" if name == "deck.k" else MARKER + name.encode() + b"\n"
        if budget <= len(head) + 16:
            break
        piece = head + cut(text, budget - len(head))
        out += piece
        budget -= len(piece)
    return out


def sources(decks: Path):
    yield from sorted((ROOT / "examples").rglob("*.k"))
    yield from sorted((ROOT / "tests" / "input" / "bad_decks").glob("*.k"))
    yield from sorted((ROOT / "tests" / "fuzz" / "seeds").glob("*.k"))
    if decks.is_dir():
        yield from sorted(p for p in decks.rglob("*") if p.suffix in (".k", ".K", ".dyn"))


def write_dict(path: Path):
    words = set()
    tables = sorted((ROOT / "src" / "input").glob("card_tables*.cpp"))
    tables += sorted((ROOT / "src" / "materials").glob("*.cpp"))  # each law's own card table
    for src in tables:
        words.update(re.findall(r'"(\*[A-Z][A-Z0-9_]*)"', src.read_text()))
    words.update(["*INCLUDE", "*PARAMETER", "*PARAMETER_EXPRESSION", "*KEYWORD", "*END", "_TITLE",
                  "_ID", "_LOCAL", "*CASE_BEGIN_1", "*CASE_END_1", "&", "$#", "LONG=Y", "I10=Y",
                  "+", "%", "1.0e+30", "-1", "9999999999", "nan", "inf",
                  MARKER.decode()])
    lines = [f'"{w}"' for w in sorted(words)]
    path.write_text("\n".join(lines) + "\n")
    print(f"fuzz_seeds: {len(lines)} dictionary words in {path}")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--decks", type=Path, default=ROOT.parent / "shared" / "decks")
    ap.add_argument("--max-bytes", type=int, default=64 * 1024)
    ap.add_argument("--dict", type=Path, help="write a libFuzzer dictionary here")
    args = ap.parse_args()
    args.decks = args.decks.resolve()
    if args.out.exists():
        shutil.rmtree(args.out)
    args.out.mkdir(parents=True)
    written = set()
    for src in sources(args.decks):
        data = bundle(src, args.max_bytes)
        digest = hashlib.sha1(data).hexdigest()[:12]
        if digest in written:
            continue
        written.add(digest)
        try:
            rel = src.relative_to(ROOT)
        except ValueError:
            rel = Path("shared") / src.relative_to(args.decks)
        stem = re.sub(r"[^A-Za-z0-9._-]", "_", str(rel))
        (args.out / f"{stem}-{digest}").write_bytes(data)
    print(f"fuzz_seeds: {len(written)} seeds in {args.out}")
    if args.dict:
        write_dict(args.dict)


if __name__ == "__main__":
    main()
