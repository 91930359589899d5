"""Copy an examples/ deck into a scratch directory for the MPI regression scripts: the files of
its directory, plus every file it *INCLUDEs by a relative path outside it (copied beside the
deck, the include line rewritten to the file name), with ENDTIM replaced."""
import pathlib
import re
import shutil


def copy_deck(src: pathlib.Path, work: pathlib.Path, endtim: float) -> pathlib.Path:
    for f in src.parent.iterdir():
        if f.is_file():
            shutil.copy(f, work / f.name)
    lines = (work / src.name).read_text().splitlines(keepends=True)
    in_include = False
    for i, line in enumerate(lines):
        if line.startswith("*"):
            in_include = line.strip().upper().startswith("*INCLUDE")
            continue
        if in_include and not line.startswith("$") and line.strip():
            name = line.strip()
            target = (src.parent / name).resolve()
            if not (work / name).is_file() and target.is_file():
                shutil.copy(target, work / target.name)
                lines[i] = target.name + "\n"
            in_include = False
    text = "".join(lines)
    text = re.sub(r"(\*CONTROL_TERMINATION\n(?:\$.*\n)*)\s*\S+",
                  r"\g<1>" + f"{float(endtim):10.3e}", text, count=1)
    deck = work / src.name
    deck.write_text(text)
    return deck
