"""Reports and plots of parcae's MPI profiles (profile.json, schema "parcae-profile" v1).

The profiler library (src/prof) writes one profile.json per run: metadata, one entry per rank
(elapsed, MPI and application time, per-MPI-function calls/time/bytes/log2 size histogram,
per-phase time) and a summary across ranks.  A part-way dump (SIGUSR1 or periodic) writes one
``partial/rank-NNNNN.json`` per rank instead; this module merges those and computes the
summary itself.

Command line::

    python -m parcae_tools.profile report PATH [--png DIR] [--top N]
    python -m parcae_tools.profile compare A B [--png DIR] [--labels a,b] [--top N]

PATH is a profile.json, a directory holding profile.json, or a directory whose ``partial/``
subdirectory (or itself) holds ``rank-NNNNN.json`` dumps.  ``report`` prints, in the manner of
a trace analyser's function profile, the metadata, a table per MPI function (self time summed
over ranks, its share of MPI and of elapsed time, calls, average message size, per-rank
min/max), a table per rank (elapsed, MPI, user time), a table per phase and the load
imbalance (max/avg of the ranks' application time).  ``compare`` prints both profiles side by
side per function, their elapsed time and MPI share, and every metadata difference.  With
``--png DIR`` the plots are written as PNG files (see :func:`write_plots`).

Summary convention (the same as the profiler's): min/avg/max/sum are taken over all ranks of
the profile, a rank that never called a function (or never entered a phase) counting as 0;
``avg = sum / number of ranks``; ``hist`` is summed bin by bin, trailing zero bins dropped.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import os
import re
import sys
from typing import Dict, List, Optional, Sequence, Tuple

from parcae_tools import profile_io

__all__ = ["ProfileError", "load", "summarize", "summary_mismatches", "report_text",
           "compare_text", "write_plots", "write_compare_plot", "human_bytes", "main"]

SCHEMA = "parcae-profile"
VERSION = 1
NO_PHASE = "(none)"
_RANK_FILE = re.compile(r"^rank-(\d+)\.json$")


class ProfileError(ValueError):
    """A profile that cannot be read: missing, not JSON, wrong schema/version or malformed.
    The message names the file."""


# ---------------------------------------------------------------------------------------------
# Reading and validation


def _is_num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _num(obj: dict, key: str, where: str, default=None, integer: bool = False):
    if key not in obj:
        if default is not None:
            return default
        raise ProfileError(f"{where}: missing '{key}'")
    v = obj[key]
    if not _is_num(v) or (integer and isinstance(v, float) and not v.is_integer()):
        raise ProfileError(f"{where}: '{key}' is not a {'whole ' if integer else ''}number: "
                           f"{v!r}")
    return int(v) if integer else float(v)


def _dict(obj: dict, key: str, where: str) -> dict:
    v = obj.get(key)
    if v is None:
        return {}
    if not isinstance(v, dict):
        raise ProfileError(f"{where}: '{key}' is not an object")
    return v


def _clean_function(f, where: str, with_hist: bool) -> dict:
    if not isinstance(f, dict):
        raise ProfileError(f"{where}: not an object")
    out = {"calls": _num(f, "calls", where, integer=True),
           "time_s": _num(f, "time_s", where),
           "bytes": _num(f, "bytes", where, default=0, integer=True)}
    if with_hist:
        hist = f.get("hist", [])
        if not isinstance(hist, list) or not all(_is_num(h) and float(h).is_integer() and h >= 0
                                                 for h in hist):
            raise ProfileError(f"{where}: 'hist' is not a list of counts")
        out["hist"] = _trim([int(h) for h in hist])
    return out


def _clean_rank(r, where: str) -> dict:
    if not isinstance(r, dict):
        raise ProfileError(f"{where}: rank entry is not an object")
    rank = _num(r, "rank", where, integer=True)
    where = f"{where}: rank {rank}"
    elapsed = _num(r, "elapsed_s", where)
    mpi = _num(r, "mpi_s", where)
    out = {"rank": rank, "host": str(r.get("host", "")), "elapsed_s": elapsed, "mpi_s": mpi,
           "app_s": _num(r, "app_s", where, default=elapsed - mpi)}
    out["functions"] = {str(name): _clean_function(f, f"{where}: function {name}", True)
                        for name, f in _dict(r, "functions", where).items()}
    phases = {}
    for name, p in _dict(r, "phases", where).items():
        pw = f"{where}: phase {name}"
        if not isinstance(p, dict):
            raise ProfileError(f"{pw}: not an object")
        phases[str(name)] = {
            "entries": _num(p, "entries", pw, default=0, integer=True),
            "time_s": _num(p, "time_s", pw), "mpi_s": _num(p, "mpi_s", pw, default=0.0),
            "functions": {str(fn): _clean_function(f, f"{pw}: function {fn}", False)
                          for fn, f in _dict(p, "functions", pw).items()}}
    out["phases"] = phases
    io = profile_io.clean_io(r, where)
    if io is not None:
        out["io"] = io
    return out


def _read_json(path: str) -> dict:
    try:
        with open(path, "r", encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError:
        raise ProfileError(f"{path}: no such file") from None
    except OSError as e:
        raise ProfileError(f"{path}: {e.strerror or e}") from None
    except ValueError as e:  # JSONDecodeError, UnicodeDecodeError
        raise ProfileError(f"{path}: not valid JSON: {e}") from None
    if not isinstance(data, dict):
        raise ProfileError(f"{path}: not a parcae profile (top level is not an object)")
    if data.get("schema") != SCHEMA:
        raise ProfileError(f"{path}: not a parcae profile (schema {data.get('schema')!r}, "
                           f"expected {SCHEMA!r})")
    if data.get("version") != VERSION or isinstance(data.get("version"), bool):
        raise ProfileError(f"{path}: unsupported profile version {data.get('version')!r} "
                           f"(expected {VERSION})")
    return data


def _clean_profile(data: dict, path: str) -> dict:
    """A validated copy of one file's content, numbers as int/float, ranks sorted."""
    ranks = data.get("ranks")
    if not isinstance(ranks, list) or not ranks:
        raise ProfileError(f"{path}: no 'ranks' entries")
    meta = data.get("metadata", {})
    if not isinstance(meta, dict):
        raise ProfileError(f"{path}: 'metadata' is not an object")
    clean_ranks = sorted((_clean_rank(r, path) for r in ranks), key=lambda r: r["rank"])
    _check_unique(clean_ranks, path)
    summary = data.get("summary")
    if summary is not None and not isinstance(summary, dict):
        raise ProfileError(f"{path}: 'summary' is not an object")
    return {"schema": SCHEMA, "version": VERSION, "partial": bool(data.get("partial", False)),
            "trigger": str(data.get("trigger", "")), "metadata": copy.deepcopy(meta),
            "ranks": clean_ranks, "summary": copy.deepcopy(summary), "source": path}


def _check_unique(ranks: List[dict], where: str) -> None:
    seen = set()
    for r in ranks:
        if r["rank"] in seen:
            raise ProfileError(f"{where}: rank {r['rank']} appears more than once")
        seen.add(r["rank"])


def _rank_files(directory: str) -> List[str]:
    try:
        names = os.listdir(directory)
    except OSError as e:
        raise ProfileError(f"{directory}: {e.strerror or e}") from None
    return sorted(os.path.join(directory, n) for n in names if _RANK_FILE.match(n))


def _merge_partials(directory: str, files: List[str]) -> dict:
    parts = [_clean_profile(_read_json(f), f) for f in files]
    ranks = sorted((r for p in parts for r in p["ranks"]), key=lambda r: r["rank"])
    _check_unique(ranks, directory)
    first = min(parts, key=lambda p: p["ranks"][0]["rank"])
    meta = copy.deepcopy(first["metadata"])
    hosts = set()
    for p in parts:
        h = p["metadata"].get("hosts")
        if isinstance(h, list):
            hosts.update(str(x) for x in h)
    hosts.update(r["host"] for r in ranks if r["host"])
    meta["hosts"] = sorted(hosts)
    triggers = sorted({p["trigger"] for p in parts if p["trigger"]})
    merged = {"schema": SCHEMA, "version": VERSION,
              "partial": True,
              "trigger": ",".join(triggers), "metadata": meta, "ranks": ranks,
              "summary": None, "source": directory}
    merged["summary"] = summarize(merged)
    return merged


def load(path: str) -> dict:
    """Read a profile: a profile.json, a directory holding one, or a directory of per-rank
    partial dumps (``DIR/partial/rank-NNNNN.json`` or ``DIR/rank-NNNNN.json``), merged.

    Returns the profile as a dict in the schema's layout (numbers as int/float, ranks sorted,
    missing optional members filled in) with ``summary`` (the stored one for a full profile,
    computed for merged or summary-less ones) and ``source`` (the path read).  Raises
    ProfileError, naming the file, for a missing path, invalid JSON, a wrong schema/version,
    a malformed profile or a directory without profile.json or rank files.
    """
    path = str(path)
    if os.path.isdir(path):
        full = os.path.join(path, "profile.json")
        if os.path.isfile(full):
            return load(full)
        for d in (os.path.join(path, "partial"), path):
            if os.path.isdir(d):
                files = _rank_files(d)
                if files:
                    return _merge_partials(d, files)
        where = os.path.join(path, "partial") if os.path.isdir(os.path.join(path, "partial")) \
            else path
        raise ProfileError(f"{where}: no profile.json and no rank-NNNNN.json partial dumps")
    if not os.path.exists(path):
        raise ProfileError(f"{path}: no such file or directory")
    prof = _clean_profile(_read_json(path), path)
    if prof["summary"] is None:
        prof["summary"] = summarize(prof)
    return prof


# ---------------------------------------------------------------------------------------------
# Summary


def _trim(hist: List[int]) -> List[int]:
    n = len(hist)
    while n > 0 and hist[n - 1] == 0:
        n -= 1
    return hist[:n]


def _stat(values: List[float], integer: bool = False) -> dict:
    total = sum(values)
    n = len(values)
    if integer:
        return {"min": int(min(values)), "avg": total / n, "max": int(max(values)),
                "sum": int(total)}
    return {"min": min(values), "avg": total / n, "max": max(values), "sum": total}


def _function_names(prof: dict) -> List[str]:
    return sorted({n for r in prof["ranks"] for n in r["functions"]})


def _phase_names(prof: dict) -> List[str]:
    return sorted({n for r in prof["ranks"] for n in r["phases"]})


def summarize(profile: dict) -> dict:
    """The summary across ranks computed from the per-rank data, in the schema's layout:
    ``elapsed_s``, ``mpi_s``, ``app_s``, ``functions[name]`` (``calls``, ``time_s``,
    ``bytes`` as {min, avg, max, sum}, ``hist`` summed) and ``phases[name]`` (``time_s``,
    ``mpi_s``).  A rank without a function or phase counts as 0."""
    ranks = profile["ranks"]
    out = {key: _stat([r[key] for r in ranks]) for key in ("elapsed_s", "mpi_s", "app_s")}
    funcs = {}
    for name in _function_names(profile):
        zero = {"calls": 0, "time_s": 0.0, "bytes": 0, "hist": []}
        per = [r["functions"].get(name, zero) for r in ranks]
        width = max(len(f.get("hist", [])) for f in per)
        hist = [0] * width
        for f in per:
            for k, c in enumerate(f.get("hist", [])):
                hist[k] += c
        funcs[name] = {"calls": _stat([f["calls"] for f in per], integer=True),
                       "time_s": _stat([f["time_s"] for f in per]),
                       "bytes": _stat([f["bytes"] for f in per], integer=True),
                       "hist": _trim(hist)}
    out["functions"] = funcs
    phases = {}
    for name in _phase_names(profile):
        per = [r["phases"].get(name, {"time_s": 0.0, "mpi_s": 0.0}) for r in ranks]
        phases[name] = {"time_s": _stat([p["time_s"] for p in per]),
                        "mpi_s": _stat([p["mpi_s"] for p in per])}
    out["phases"] = phases
    io = profile_io.summarize_io(profile)
    if io is not None:
        out["io"] = io
    return out


def summary_mismatches(stored, computed, rel: float = 1e-6, abs_tol: float = 1e-9,
                       prefix: str = "") -> List[str]:
    """Where a stored summary differs from a computed one (numbers within rel/abs_tol are
    equal; histograms compared without trailing zero bins).  Returns 'path: stored X,
    computed Y' strings; empty when they agree."""
    out: List[str] = []
    if isinstance(stored, dict) and isinstance(computed, dict):
        for key in sorted(set(stored) | set(computed)):
            p = f"{prefix}.{key}" if prefix else str(key)
            if key not in stored:
                out.append(f"{p}: missing in the stored summary")
            elif key not in computed:
                out.append(f"{p}: in the stored summary only")
            else:
                out.extend(summary_mismatches(stored[key], computed[key], rel, abs_tol, p))
    elif isinstance(stored, list) and isinstance(computed, list):
        a = _trim(list(stored))
        b = _trim(list(computed))
        if len(a) != len(b) or any(not _is_num(x) or not math.isclose(x, y, rel_tol=rel,
                                                                        abs_tol=abs_tol)
                                   for x, y in zip(a, b)):
            out.append(f"{prefix}: stored {stored}, computed {computed}")
    elif _is_num(stored) and _is_num(computed):
        if not math.isclose(stored, computed, rel_tol=rel, abs_tol=abs_tol):
            out.append(f"{prefix}: stored {stored!r}, computed {computed!r}")
    elif stored != computed:
        out.append(f"{prefix}: stored {stored!r}, computed {computed!r}")
    return out


# ---------------------------------------------------------------------------------------------
# Text


def human_bytes(n: float) -> str:
    """A byte count in binary units: '0 B', '8 B', '10.5 B', '1.50 KiB', '2.00 MiB'."""
    if n < 1024:
        return f"{int(n)} B" if float(n).is_integer() else f"{n:.1f} B"
    for unit in ("KiB", "MiB", "GiB", "TiB"):
        n /= 1024.0
        if n < 1024 or unit == "TiB":
            return f"{n:.2f} {unit}"
    return f"{n:.2f} TiB"  # not reached


def _bin_label(k: int) -> str:
    """Label of log2 histogram bin k: its lower bound, 0 for bin 0."""
    if k == 0:
        return "0"
    b = 2 ** (k - 1)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if b < 1024 or unit == "TiB":
            return f"{b} {unit}"
        b //= 1024
    return str(b)


def _pct(part: float, whole: float) -> float:
    return 100.0 * part / whole if whole > 0 else 0.0


def _table(header: Sequence[str], rows: List[Sequence[str]], left: int = 1) -> List[str]:
    """Columns separated by two spaces; the first `left` columns left-aligned."""
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows)]

    def fmt(cells):
        return "  ".join(str(c).ljust(w) if i < left else str(c).rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    return [fmt(header), "  ".join("-" * w for w in widths)] + [fmt(r) for r in rows]


def _function_totals(prof: dict) -> List[dict]:
    """Per function: name, time (sum over ranks), calls, bytes, min/max per-rank time, hist;
    sorted by time descending (then name)."""
    out = []
    for name, s in summarize(prof)["functions"].items():
        out.append({"name": name, "time_s": s["time_s"]["sum"], "calls": s["calls"]["sum"],
                    "bytes": s["bytes"]["sum"], "min_s": s["time_s"]["min"],
                    "max_s": s["time_s"]["max"], "hist": s["hist"]})
    out.sort(key=lambda f: (-f["time_s"], f["name"]))
    return out


def _avg_size(f: Optional[dict]) -> str:
    if not f or f["calls"] == 0:
        return "-"
    return human_bytes(f["bytes"] / f["calls"])


def _imbalance(prof: dict) -> Tuple[float, int]:
    """max/avg of the ranks' application time and the rank with the maximum."""
    ranks = prof["ranks"]
    avg = sum(r["app_s"] for r in ranks) / len(ranks)
    worst = max(ranks, key=lambda r: r["app_s"])
    return (worst["app_s"] / avg if avg > 0 else 1.0), worst["rank"]


def _meta_str(v) -> str:
    if isinstance(v, list):
        return ",".join(str(x) for x in v)
    if isinstance(v, dict):
        return ", ".join(f"{k}={v[k]}" for k in sorted(v))
    return str(v)


def _header_lines(prof: dict) -> List[str]:
    meta = prof["metadata"]
    nranks = len(prof["ranks"])
    world = meta.get("ranks", nranks)
    rows = [("MPI library", meta.get("mpi_library", "?")),
            ("MPI", f"{meta.get('mpi_flavour', '?')}, MPI {meta.get('mpi_version', '?')}"),
            ("Transport", meta.get("transport", "?")),
            ("Ranks x threads", f"{world} x {meta.get('threads', '?')}"),
            ("Hosts", _meta_str(meta.get("hosts", []))),
            ("Compiler", meta.get("compiler", "?")),
            ("Git revision", meta.get("git_revision", "?")),
            ("Command", meta.get("command", "?")),
            ("Start time", meta.get("start_time", "?")),
            ("Dump", f"{prof.get('trigger') or '?'} "
                     f"({'partial' if prof.get('partial') else 'complete'})")]
    extra = meta.get("extra")
    if isinstance(extra, dict):
        rows += [(f"extra.{k}", extra[k]) for k in sorted(extra)]
    w = max(len(k) for k, _ in rows)
    lines = [f"parcae MPI profile: {prof.get('source', '?')}"]
    lines += [f"  {k.ljust(w)} : {_meta_str(v)}" for k, v in rows]
    if isinstance(world, int) and world != nranks:
        present = {r["rank"] for r in prof["ranks"]}
        missing = [str(i) for i in range(world) if i not in present]
        lines.append(f"  {'Ranks present'.ljust(w)} : {nranks} of {world}"
                     + (f" (missing: {', '.join(missing[:20])}"
                        f"{', ...' if len(missing) > 20 else ''})" if missing else ""))
    return lines


def report_text(profile: dict, top: Optional[int] = None) -> str:
    """The text report of a profile: metadata header, totals and load imbalance, the MPI
    function table (top `top` functions by self time), the rank table and the phase table."""
    prof = profile
    ranks = prof["ranks"]
    n = len(ranks)
    elapsed_sum = sum(r["elapsed_s"] for r in ranks)
    mpi_sum = sum(r["mpi_s"] for r in ranks)
    app_sum = sum(r["app_s"] for r in ranks)
    lines = _header_lines(prof)
    if prof.get("summary"):
        bad = summary_mismatches(prof["summary"], summarize(prof))
        if bad:
            lines.append(f"  warning: the stored summary differs from the per-rank data in "
                         f"{len(bad)} value(s), e.g. {bad[0]}")
    imb, worst = _imbalance(prof)
    lines += ["",
              f"Elapsed: {max(r['elapsed_s'] for r in ranks):.6f} s (max over ranks); "
              f"MPI {mpi_sum:.6f} s = {_pct(mpi_sum, elapsed_sum):.2f} % of the ranks' "
              f"elapsed time; user {app_sum:.6f} s",
              f"Load imbalance (max/avg app time): {imb:.3f} (max on rank {worst})"]

    funcs = _function_totals(prof)
    shown = funcs if top is None else funcs[:max(top, 0)]
    lines += ["", f"MPI functions (Tself summed over {n} rank{'s' if n != 1 else ''}; "
                  f"{len(shown)} of {len(funcs)} shown)"]
    rows = [(f["name"], f"{f['time_s']:.6f}", f"{_pct(f['time_s'], mpi_sum):.2f}",
             f"{_pct(f['time_s'], elapsed_sum):.2f}", str(f["calls"]), _avg_size(f),
             f"{f['min_s']:.6f}", f"{f['max_s']:.6f}") for f in shown]
    lines += _table(("Function", "Tself[s]", "%MPI", "%Elapsed", "Calls", "AvgSize",
                     "MinRank[s]", "MaxRank[s]"), rows)

    lines += ["", "Ranks"]
    rows = [(str(r["rank"]), r["host"] or "-", f"{r['elapsed_s']:.6f}", f"{r['mpi_s']:.6f}",
             f"{r['app_s']:.6f}", f"{_pct(r['mpi_s'], r['elapsed_s']):.2f}") for r in ranks]
    rows.append(("all", "-", f"{elapsed_sum:.6f}", f"{mpi_sum:.6f}", f"{app_sum:.6f}",
                 f"{_pct(mpi_sum, elapsed_sum):.2f}"))
    lines += _table(("Rank", "Host", "Elapsed[s]", "MPI[s]", "User[s]", "%MPI"), rows, left=2)

    names = _phase_names(prof)
    if names:
        phases = []
        for name in names:
            per = [r["phases"][name] for r in ranks if name in r["phases"]]
            phases.append((name, sum(p["time_s"] for p in per), sum(p["mpi_s"] for p in per),
                           sum(p["entries"] for p in per), max(p["time_s"] for p in per)))
        phases.sort(key=lambda p: (-p[1], p[0]))
        lines += ["", f"Phases (exclusive time summed over {n} rank{'s' if n != 1 else ''})"]
        rows = [(name, f"{t:.6f}", f"{_pct(t, elapsed_sum):.2f}", f"{m:.6f}",
                 f"{_pct(m, t):.2f}", str(e), f"{tmax:.6f}")
                for name, t, m, e, tmax in phases]
        lines += _table(("Phase", "Time[s]", "%Elapsed", "MPI[s]", "%MPI", "Entries",
                         "MaxRank[s]"), rows)
    lines += profile_io.io_report_lines(prof)
    return "\n".join(lines) + "\n"


def _flat_meta(meta: dict) -> Dict[str, str]:
    out = {}
    for k, v in meta.items():
        if k == "extra" and isinstance(v, dict):
            out.update({f"extra.{ek}": _meta_str(ev) for ek, ev in v.items()})
        else:
            out[k] = _meta_str(v)
    return out


def _ratio(a: float, b: float) -> str:
    if a == 0:
        return "-" if b == 0 else "inf"
    return f"{b / a:.3f}"


def compare_text(a: dict, b: dict, labels: Sequence[str] = ("A", "B"),
                 top: Optional[int] = None) -> str:
    """Two profiles side by side: metadata differences (start_time ignored), elapsed time,
    MPI time and share, load imbalance, and per function Tself, ratio B/A, calls and average
    message size (functions sorted by the larger Tself, `top` of them)."""
    la, lb = labels
    lines = [f"parcae MPI profile comparison", f"  {la}: {a.get('source', '?')}",
             f"  {lb}: {b.get('source', '?')}", "", "Metadata differences"]
    ma, mb = _flat_meta(a["metadata"]), _flat_meta(b["metadata"])
    diffs = [f"  {k}: {ma.get(k, '(absent)')} vs {mb.get(k, '(absent)')}"
             for k in sorted(set(ma) | set(mb)) if k != "start_time" and ma.get(k) != mb.get(k)]
    lines += diffs or ["  (none)"]

    def totals(p):
        ranks = p["ranks"]
        el = sum(r["elapsed_s"] for r in ranks)
        mp = sum(r["mpi_s"] for r in ranks)
        return (max(r["elapsed_s"] for r in ranks), mp, _pct(mp, el), _imbalance(p)[0])

    ta, tb = totals(a), totals(b)
    rows = [("Elapsed[s] (max over ranks)", f"{ta[0]:.6f}", f"{tb[0]:.6f}", _ratio(ta[0], tb[0])),
            ("MPI[s] (sum over ranks)", f"{ta[1]:.6f}", f"{tb[1]:.6f}", _ratio(ta[1], tb[1])),
            ("%MPI", f"{ta[2]:.2f}", f"{tb[2]:.2f}", _ratio(ta[2], tb[2])),
            ("Load imbalance (app max/avg)", f"{ta[3]:.3f}", f"{tb[3]:.3f}",
             _ratio(ta[3], tb[3]))]
    lines += [""] + _table(("Total", la, lb, f"{lb}/{la}"), rows)

    fa = {f["name"]: f for f in _function_totals(a)}
    fb = {f["name"]: f for f in _function_totals(b)}
    names = sorted(set(fa) | set(fb), key=lambda n: (-max(fa[n]["time_s"] if n in fa else 0.0,
                                                          fb[n]["time_s"] if n in fb else 0.0),
                                                     n))
    if top is not None:
        names = names[:max(top, 0)]
    rows = []
    for name in names:
        ta_ = fa[name]["time_s"] if name in fa else 0.0
        tb_ = fb[name]["time_s"] if name in fb else 0.0
        rows.append((name, f"{ta_:.6f}", f"{tb_:.6f}", _ratio(ta_, tb_),
                     str(fa[name]["calls"] if name in fa else 0),
                     str(fb[name]["calls"] if name in fb else 0),
                     _avg_size(fa.get(name)), _avg_size(fb.get(name))))
    lines += ["", "MPI functions (Tself summed over ranks)"]
    lines += _table(("Function", f"Tself {la}[s]", f"Tself {lb}[s]", f"{lb}/{la}",
                     f"Calls {la}", f"Calls {lb}", f"AvgSize {la}", f"AvgSize {lb}"), rows)
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# Plots


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise ProfileError("matplotlib is needed for the PNG plots (python3-matplotlib)") \
            from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _save(fig, outdir: str, name: str) -> str:
    path = os.path.join(outdir, name)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    import matplotlib.pyplot as plt
    plt.close(fig)
    return path


def _rank_ticks(ax, ranks: List[int]) -> None:
    if len(ranks) <= 32:
        ax.set_xticks(range(len(ranks)))
        ax.set_xticklabels([str(r) for r in ranks])
    else:
        step = math.ceil(len(ranks) / 16)
        ax.set_xticks(range(0, len(ranks), step))
        ax.set_xticklabels([str(ranks[i]) for i in range(0, len(ranks), step)])


def write_plots(profile: dict, outdir: str, top: int = 12) -> List[str]:
    """Write the profile's plots as PNG into outdir (created if needed) and return their
    paths: mpi_vs_user.png (stacked bars per rank), mpi_functions.png (share of MPI time per
    function), message_sizes.png (log2 message-size histogram of the top functions by
    Tself) and, if the profile has phases, phases.png (stacked bars per rank by phase)."""
    plt = _pyplot()
    os.makedirs(outdir, exist_ok=True)
    prof = profile
    ranks = prof["ranks"]
    ids = [r["rank"] for r in ranks]
    x = list(range(len(ranks)))
    title = f"{prof['metadata'].get('transport', '')}, {len(ranks)} ranks".strip(", ")
    paths = []

    fig, ax = plt.subplots(figsize=(max(6.4, 0.25 * len(ranks)), 4.8))
    app = [r["app_s"] for r in ranks]
    mpi = [r["mpi_s"] for r in ranks]
    ax.bar(x, app, color="tab:blue", label="user (application)")
    ax.bar(x, mpi, bottom=app, color="tab:red", label="MPI")
    _rank_ticks(ax, ids)
    ax.set_xlabel("rank")
    ax.set_ylabel("time [s]")
    ax.set_title(f"User vs MPI time per rank ({title})")
    ax.legend(loc="lower right")
    paths.append(_save(fig, outdir, "mpi_vs_user.png"))

    funcs = _function_totals(prof)
    total = sum(f["time_s"] for f in funcs)
    shown = funcs[:top]
    labels = [f["name"] for f in shown]
    values = [f["time_s"] for f in shown]
    if len(funcs) > top:
        labels.append(f"(other {len(funcs) - top})")
        values.append(sum(f["time_s"] for f in funcs[top:]))
    fig, ax = plt.subplots(figsize=(7.5, max(3.0, 0.45 * len(labels) + 1.2)))
    if labels:
        shares = [_pct(v, total) for v in values]
        yy = list(range(len(labels)))[::-1]
        ax.barh(yy, shares, color="tab:red")
        ax.set_yticks(yy)
        ax.set_yticklabels(labels)
        for y, s, v in zip(yy, shares, values):
            ax.text(s, y, f" {s:.1f} % ({v:.3g} s)", va="center", fontsize=8)
        ax.set_xlim(0, max(shares + [1.0]) * 1.35)
    else:
        ax.text(0.5, 0.5, "no MPI calls recorded", ha="center", va="center",
                transform=ax.transAxes)
    ax.set_xlabel("share of MPI time [%] (Tself summed over ranks)")
    ax.set_title(f"MPI time per function ({title})")
    paths.append(_save(fig, outdir, "mpi_functions.png"))

    hfuncs = [f for f in funcs if f["hist"]][:6]
    fig, axes = plt.subplots(max(len(hfuncs), 1), 1, sharex=True, squeeze=False,
                             figsize=(8.0, 1.6 + 1.7 * max(len(hfuncs), 1)))
    width = max([len(f["hist"]) for f in hfuncs] + [1])
    for ax, f in zip(axes[:, 0], hfuncs):
        counts = f["hist"] + [0] * (width - len(f["hist"]))
        ax.bar(range(width), counts, color="tab:green")
        ax.set_ylabel("calls")
        ax.set_title(f"{f['name']} ({f['calls']} calls, {f['time_s']:.3g} s)", fontsize=9)
    if not hfuncs:
        axes[0, 0].text(0.5, 0.5, "no message sizes recorded", ha="center", va="center",
                        transform=axes[0, 0].transAxes)
    bottom = axes[-1, 0]
    step = 1 if width <= 24 else 2
    bottom.set_xticks(range(0, width, step))
    bottom.set_xticklabels([_bin_label(k) for k in range(0, width, step)], rotation=60,
                           fontsize=8)
    bottom.set_xlabel("message size (log2 bin, lower bound)")
    fig.suptitle(f"Message sizes per function ({title})")
    paths.append(_save(fig, outdir, "message_sizes.png"))

    names = _phase_names(prof)
    if names:
        order = sorted(names, key=lambda n: -sum(r["phases"].get(n, {}).get("time_s", 0.0)
                                                   for r in ranks))
        fig, ax = plt.subplots(figsize=(max(7.5, 0.25 * len(ranks)), 4.8))
        cmap = plt.get_cmap("tab20")
        bottom_v = [0.0] * len(ranks)
        for i, name in enumerate(order):
            vals = [r["phases"].get(name, {}).get("time_s", 0.0) for r in ranks]
            ax.bar(x, vals, bottom=bottom_v, color=cmap(i % 20), label=name)
            bottom_v = [b + v for b, v in zip(bottom_v, vals)]
        _rank_ticks(ax, ids)
        ax.set_xlabel("rank")
        ax.set_ylabel("time [s] (exclusive)")
        ax.set_title(f"Time per phase and rank ({title})")
        ax.legend(loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=8)
        paths.append(_save(fig, outdir, "phases.png"))
    paths += profile_io.write_io_plot(prof, outdir, plt)
    return paths


def write_compare_plot(a: dict, b: dict, outdir: str, labels: Sequence[str] = ("A", "B"),
                       top: int = 12) -> str:
    """Write compare_functions.png into outdir: grouped bars of Tself (summed over ranks) per
    function for the two profiles, the `top` functions by the larger Tself.  Returns its
    path."""
    plt = _pyplot()
    os.makedirs(outdir, exist_ok=True)
    fa = {f["name"]: f["time_s"] for f in _function_totals(a)}
    fb = {f["name"]: f["time_s"] for f in _function_totals(b)}
    names = sorted(set(fa) | set(fb), key=lambda n: (-max(fa.get(n, 0.0), fb.get(n, 0.0)), n))
    names = names[:top]
    fig, ax = plt.subplots(figsize=(max(6.4, 0.9 * len(names) + 2), 4.8))
    x = list(range(len(names)))
    w = 0.4
    ax.bar([i - w / 2 for i in x], [fa.get(n, 0.0) for n in names], w, label=labels[0],
           color="tab:blue")
    ax.bar([i + w / 2 for i in x], [fb.get(n, 0.0) for n in names], w, label=labels[1],
           color="tab:orange")
    ax.set_xticks(x)
    ax.set_xticklabels(names, rotation=30, ha="right")
    ax.set_ylabel("Tself [s] (summed over ranks)")
    ax.set_title(f"MPI time per function: {labels[0]} vs {labels[1]}")
    ax.legend()
    return _save(fig, outdir, "compare_functions.png")


# ---------------------------------------------------------------------------------------------
# Command line


def _safe_name(label: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", label).strip("._") or "profile"


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m parcae_tools.profile",
                                     description="Reports and plots of parcae MPI profiles")
    sub = parser.add_subparsers(dest="command", required=True)
    p_rep = sub.add_parser("report", help="text report (and PNG plots) of one profile")
    p_rep.add_argument("path", help="profile.json, its directory, or a directory of partial "
                                    "rank-NNNNN.json dumps")
    p_rep.add_argument("--png", metavar="DIR", help="write the plots as PNG into DIR")
    p_rep.add_argument("--top", type=int, default=None, metavar="N",
                       help="show the N functions with the most MPI time")
    p_cmp = sub.add_parser("compare", help="compare two profiles")
    p_cmp.add_argument("a")
    p_cmp.add_argument("b")
    p_cmp.add_argument("--png", metavar="DIR",
                       help="write compare_functions.png into DIR and each profile's plots "
                            "into DIR/<label>/")
    p_cmp.add_argument("--labels", default="A,B", help="names of the two profiles (a,b)")
    p_cmp.add_argument("--top", type=int, default=None, metavar="N")
    args = parser.parse_args(argv)

    current = args.path if args.command == "report" else args.a
    try:
        if args.command == "report":
            prof = load(args.path)
            sys.stdout.write(report_text(prof, top=args.top))
            if args.png:
                current = args.png
                for p in write_plots(prof, args.png):
                    print(f"wrote {p}")
            return 0
        labels = [s.strip() for s in args.labels.split(",")]
        if len(labels) != 2 or not all(labels) or labels[0] == labels[1]:
            print(f"error: --labels {args.labels!r}: need two different names, e.g. shm,tcp",
                  file=sys.stderr)
            return 1
        a = load(args.a)
        current = args.b
        b = load(args.b)
        sys.stdout.write(compare_text(a, b, labels, top=args.top))
        if args.png:
            current = args.png
            written = [write_compare_plot(a, b, args.png, labels)]
            for label, prof in zip(labels, (a, b)):
                written += write_plots(prof, os.path.join(args.png, _safe_name(label)))
            for p in written:
                print(f"wrote {p}")
        return 0
    except ProfileError as e:
        print(f"error: {e}", file=sys.stderr)
    except OSError as e:
        print(f"error: {e.filename or current}: {e.strerror or e}", file=sys.stderr)
    except (ValueError, KeyError, TypeError) as e:
        print(f"error: {current}: malformed profile ({type(e).__name__}: {e})",
              file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
