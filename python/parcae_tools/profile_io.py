"""POSIX I/O part of parcae profiles (the ``io`` record of each rank, docs/profile.md).

Each rank's ``io`` holds ``prefix`` (the directories the accounting was restricted to, "" for
every file), ``time_s`` and ``functions[name]`` (read, pread, readv, preadv, write, pwrite,
writev, pwritev, open, close, fsync, fdatasync) with ``calls``, ``time_s``, ``bytes`` and the
log2 size histogram ``hist`` (bin 0: 0 bytes; bin k: 2^(k-1) <= size < 2^k).  Used by
parcae_tools.profile for validation, the summary, the report table and io_sizes.png.
"""

from __future__ import annotations

from typing import Dict, List, Optional

READS = ("read", "pread", "readv", "preadv")
WRITES = ("write", "pwrite", "writev", "pwritev")


def clean_io(r: dict, where: str) -> Optional[dict]:
    """A validated copy of a rank's io record, or None when it has none."""
    from parcae_tools import profile as P
    io = r.get("io")
    if io is None:
        return None
    if not isinstance(io, dict):
        raise P.ProfileError(f"{where}: 'io' is not an object")
    return {"prefix": str(io.get("prefix", "")),
            "time_s": P._num(io, "time_s", f"{where}: io", default=0.0),
            "functions": {str(n): P._clean_function(f, f"{where}: io function {n}", True)
                          for n, f in P._dict(io, "functions", f"{where}: io").items()}}


def summarize_io(profile: dict) -> Optional[dict]:
    """The io summary across ranks (as the profiler writes it), or None without io records."""
    from parcae_tools import profile as P
    ranks = profile["ranks"]
    if not any("io" in r for r in ranks):
        return None
    names: List[str] = []
    for r in ranks:
        for n in r.get("io", {}).get("functions", {}):
            if n not in names:
                names.append(n)
    order = list(READS + WRITES + ("open", "close", "fsync", "fdatasync"))
    names.sort(key=lambda n: order.index(n) if n in order else len(order))
    funcs = {}
    zero = {"calls": 0, "time_s": 0.0, "bytes": 0, "hist": []}
    for n in names:
        per = [r.get("io", {}).get("functions", {}).get(n, zero) for r in ranks]
        hist = [0] * max(len(f["hist"]) for f in per)
        for f in per:
            for k, c in enumerate(f["hist"]):
                hist[k] += c
        funcs[n] = {"calls": P._stat([f["calls"] for f in per], integer=True),
                    "time_s": P._stat([f["time_s"] for f in per]),
                    "bytes": P._stat([f["bytes"] for f in per], integer=True),
                    "hist": P._trim(hist)}
    return {"time_s": P._stat([r.get("io", {}).get("time_s", 0.0) for r in ranks]),
            "functions": funcs}


def _direction_hist(profile: dict, names) -> List[int]:
    out: List[int] = []
    for r in profile["ranks"]:
        for n, f in r.get("io", {}).get("functions", {}).items():
            if n in names:
                if len(out) < len(f["hist"]):
                    out += [0] * (len(f["hist"]) - len(out))
                for k, c in enumerate(f["hist"]):
                    out[k] += c
    return out


def io_report_lines(profile: dict) -> List[str]:
    """The report's POSIX I/O section: per function and the size histogram per direction."""
    from parcae_tools import profile as P
    s = summarize_io(profile)
    if not s or not s["functions"]:
        return []
    prefixes = sorted({r["io"]["prefix"] for r in profile["ranks"] if "io" in r})
    n = len(profile["ranks"])
    which = ("files under " + ", ".join(p for p in prefixes if p)) if any(prefixes) \
        else "all files"
    lines = ["", f"POSIX I/O ({which}; summed over {n} rank{'s' if n != 1 else ''})"]
    rows = []
    for name, f in s["functions"].items():
        calls, nbytes, t = f["calls"]["sum"], f["bytes"]["sum"], f["time_s"]["sum"]
        rows.append((name, str(calls), P.human_bytes(nbytes) if nbytes else "-",
                     P.human_bytes(nbytes / calls) if nbytes and calls else "-", f"{t:.6f}",
                     f"{P.human_bytes(nbytes / t)}/s" if nbytes and t > 0 else "-"))
    lines += P._table(("Function", "Calls", "Bytes", "AvgSize", "Time[s]", "Rate"), rows)
    hr, hw = _direction_hist(profile, READS), _direction_hist(profile, WRITES)
    width = max(len(hr), len(hw))
    rows = []
    for k in range(width):
        r = hr[k] if k < len(hr) else 0
        w = hw[k] if k < len(hw) else 0
        if r or w:
            rows.append((P._bin_label(k), str(w), str(r)))
    if rows:
        lines += ["", "I/O operation sizes (log2 bins; a 256 KiB operation is in [256 KiB, "
                      "512 KiB))"]
        lines += P._table(("Size", "Writes", "Reads"), rows)
    return lines


def write_io_plot(profile: dict, outdir: str, plt) -> List[str]:
    """io_sizes.png: operations per log2 size bin, writes and reads; [] without I/O."""
    from parcae_tools import profile as P
    hr, hw = _direction_hist(profile, READS), _direction_hist(profile, WRITES)
    if not any(hr) and not any(hw):
        return []
    width = max(len(hr), len(hw))
    hr += [0] * (width - len(hr))
    hw += [0] * (width - len(hw))
    used = [k for k in range(width) if hr[k] or hw[k]]
    fig, ax = plt.subplots(figsize=(7.0, 4.2))
    x = list(range(len(used)))
    ax.bar([i - 0.2 for i in x], [hw[k] for k in used], width=0.4, label="write")
    ax.bar([i + 0.2 for i in x], [hr[k] for k in used], width=0.4, label="read")
    ax.set_xticks(x)
    ax.set_xticklabels([P._bin_label(k) for k in used], rotation=45, ha="right")
    ax.set_xlabel("operation size (log2 bin)")
    ax.set_ylabel("operations (all ranks)")
    ax.set_title("POSIX I/O operation sizes")
    ax.legend()
    return [P._save(fig, outdir, "io_sizes.png")]
