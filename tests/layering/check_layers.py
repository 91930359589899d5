#!/usr/bin/env python3
"""Layering check (docs/architecture.md): every #include in src/ stays within the layers its
module may use, <mpi.h> appears only in src/par and src/prof, and no source file is longer than
MAX_LINES lines unless it is a table (TABLES).

usage: check_layers.py SRC_DIR     (exit 1 and one line per violation when the rule is broken)

Layers, lowest first; a module may include itself and what is listed for it (transitively):
  core <- cards (keyword card types); core <- par <- prof <- mesh <- (materials (+ cards) <- fem,
  input; contact, output) <- solvers/common
       <- solvers/{explicit, implicit, cfd} <- apps
  linalg (PETSc, SLEPc, MUMPS, hypre behind plain C++ types) uses par; implicit and cfd use it.
Third-party headers of those libraries (petsc*.h, slepc*.h, HYPRE*.h, *mumps_c.h) only in
src/linalg.
"""
import pathlib
import re
import sys

USES = {
    "core": [],
    "par": ["core"],
    "prof": ["par"],
    "mesh": ["par"],
    "cards": ["core"],
    "materials": ["mesh", "cards"],
    "fem": ["materials"],
    "contact": ["mesh"],
    "input": ["materials"],
    "output": ["mesh"],
    "solvers/common": ["fem", "contact", "input", "output", "prof"],
    "linalg": ["par"],
    "solvers/explicit": ["solvers/common"],
    "solvers/implicit": ["solvers/common", "linalg"],
    "solvers/cfd": ["solvers/common", "linalg"],
    "apps": ["solvers/explicit", "solvers/implicit", "solvers/cfd"],
}
LINALG_HEADER = re.compile(r"^(petsc|slepc|HYPRE|_hypre|[sdcz]mumps_c)")
MPI_ALLOWED = {"par", "prof"}
MAX_LINES = 800
TABLES = {"input/card_tables.cpp"}  # keyword card tables: data, one row per keyword
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def allowed(module):
    seen, todo = {module}, [module]
    while todo:
        for m in USES[todo.pop()]:
            if m not in seen:
                seen.add(m)
                todo.append(m)
    return seen


def module_of(rel):
    """The module of a path relative to src/ ('solvers/explicit/solver.cpp' -> 'solvers/explicit')."""
    parts = pathlib.PurePosixPath(rel).parts
    for n in (2, 1):
        key = "/".join(parts[:n])
        if key in USES:
            return key
    return None


def check(src):
    problems = []
    for f in sorted(src.rglob("*")):
        if f.suffix not in (".cpp", ".hpp", ".h", ".inc") or not f.is_file():
            continue
        rel = f.relative_to(src).as_posix()
        mod = module_of(rel)
        if mod is None:
            problems.append(f"{rel}: not in any layer (add its folder to USES and to "
                            "docs/architecture.md)")
            continue
        ok = allowed(mod)
        text = f.read_text(errors="replace")
        nlines = text.count("\n")
        if nlines > MAX_LINES and rel not in TABLES:
            problems.append(f"{rel}: {nlines} lines (more than {MAX_LINES}: split it by task)")
        for m in INCLUDE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            kind, name = m.groups()
            if name == "mpi.h" and mod not in MPI_ALLOWED:
                problems.append(f"{rel}:{line}: <mpi.h> outside src/par and src/prof")
            if LINALG_HEADER.match(name) and mod != "linalg":
                problems.append(f"{rel}:{line}: <{name}> outside src/linalg")
            if kind != '"':
                continue
            target = module_of(name)
            if target is None:
                continue  # a header next to the file, or a third-party one
            if target not in ok:
                problems.append(f"{rel}:{line}: {mod} includes {name} from {target}, a layer "
                                f"it may not use")
    return problems


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    problems = check(pathlib.Path(sys.argv[1]))
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} layering violation(s)")
        return 1
    print("layering: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
