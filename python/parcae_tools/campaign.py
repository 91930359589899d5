"""Benchmark campaigns: run decks over ranks x threads x MPI library x transport x
decomposition x repeats, record every run in a JSON-lines results store, report and compare.

    parcae bench CAMPAIGN.yaml -o RESULTS.jsonl [--parcae EXE] [--dry-run]
    parcae bench report RESULTS.jsonl [-o DIR]          # tables + PNG figures
    parcae bench compare RESULTS.jsonl [--campaign CAMPAIGN.yaml]   # exit 1 on a regression

(`parcae bench` execs ``python3 -m parcae_tools.campaign``; docs/cluster_study.md has the
schema.)  The store is one file, one JSON object per line, appended to as runs finish; it
accumulates across campaigns and a campaign that is started again skips the runs whose
``run_id`` already has an ``ok`` (or ``skipped``) record.  Each run's output directory is
``<RESULTS without .jsonl>.runs/<run_id>/`` (its profile in ``profile/``).
"""
from __future__ import annotations

import argparse
import contextlib
import datetime
import hashlib
import json
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import time
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

SCHEMA_VERSION = 1
MPI_LIBS = ("openmpi", "mpich")
TRANSPORTS = ("shm", "tcp")
DECOMP_METHODS = ("default", "rcb", "metis")
METRICS = ("elapsed_s", "wall_s", "jobs_per_day", "us_per_element_cycle", "mpi_fraction",
           "cycles")
# Metrics where larger is better (a regression is a drop); the others regress upwards.
HIGHER_IS_BETTER = {"jobs_per_day"}


class CampaignError(ValueError):
    """An invalid campaign file; the message names the file and the key."""


# ---------------------------------------------------------------------------------------------
# Schema


def _where(path: str, key: str) -> str:
    return f"{path}: {key}"


def _list_of(value, key: str, path: str, kind, allowed: Optional[Sequence] = None,
             positive: bool = False) -> list:
    if not isinstance(value, list):
        value = [value]
    if not value:
        raise CampaignError(f"{_where(path, key)}: must not be empty")
    out = []
    for i, v in enumerate(value):
        if kind is int and (isinstance(v, bool) or not isinstance(v, int)):
            raise CampaignError(f"{_where(path, f'{key}[{i}]')}: expected an integer, got {v!r}")
        if kind is str and not isinstance(v, str):
            raise CampaignError(f"{_where(path, f'{key}[{i}]')}: expected a string, got {v!r}")
        if allowed is not None and v not in allowed:
            raise CampaignError(f"{_where(path, f'{key}[{i}]')}: {v!r} is not one of "
                                f"{', '.join(map(str, allowed))}")
        if positive and v < 1:
            raise CampaignError(f"{_where(path, f'{key}[{i}]')}: must be >= 1, got {v}")
        out.append(v)
    return out


def _number(value, key: str, path: str, positive: bool = True) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise CampaignError(f"{_where(path, key)}: expected a number, got {value!r}")
    if positive and not value > 0:
        raise CampaignError(f"{_where(path, key)}: must be > 0, got {value}")
    return float(value)


TOP_KEYS = {"name", "decks", "ranks", "threads", "mpi", "transport", "decomposition", "repeats",
            "end_time", "outputs", "profile", "timeout_s", "extra_args", "references",
            "description", "interleave", "hosts", "link_rate", "ranks_per_host"}
DECK_KEYS = {"path", "name", "end_time", "args"}
REF_KEYS = {"match", "metric", "value", "lower", "upper"}
MATCH_KEYS = {"deck", "ranks", "threads", "mpi", "transport", "decomposition", "hosts",
              "link"}


def validate(data, path: str = "campaign") -> dict:
    """Check a parsed campaign and return it normalised (every list filled in, decks as
    dicts with an absolute ``path``, decompositions as {"method", "transform"}).  Raises
    CampaignError naming the key for anything wrong."""
    if not isinstance(data, dict):
        raise CampaignError(f"{path}: the campaign must be a mapping (name:, decks:, ...)")
    unknown = sorted(set(data) - TOP_KEYS)
    if unknown:
        raise CampaignError(f"{_where(path, unknown[0])}: unknown key (known: "
                            f"{', '.join(sorted(TOP_KEYS))})")
    for req in ("name", "decks"):
        if req not in data:
            raise CampaignError(f"{_where(path, req)}: required key missing")
    name = data["name"]
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
        raise CampaignError(f"{_where(path, 'name')}: expected a word of letters, digits, _ . -"
                            f", got {name!r}")
    base = pathlib.Path(path).resolve().parent if os.path.exists(path) else pathlib.Path.cwd()
    decks = []
    raw_decks = data["decks"] if isinstance(data["decks"], list) else [data["decks"]]
    if not raw_decks:
        raise CampaignError(f"{_where(path, 'decks')}: must not be empty")
    for i, d in enumerate(raw_decks):
        key = f"decks[{i}]"
        if isinstance(d, str):
            d = {"path": d}
        if not isinstance(d, dict):
            raise CampaignError(f"{_where(path, key)}: expected a path or a mapping with path:")
        bad = sorted(set(d) - DECK_KEYS)
        if bad:
            raise CampaignError(f"{_where(path, f'{key}.{bad[0]}')}: unknown key (known: "
                                f"{', '.join(sorted(DECK_KEYS))})")
        if not isinstance(d.get("path"), str):
            raise CampaignError(f"{_where(path, f'{key}.path')}: required, a deck file name")
        p = pathlib.Path(d["path"])
        p = p if p.is_absolute() else base / p
        if not p.is_file():
            raise CampaignError(f"{_where(path, f'{key}.path')}: {p} does not exist")
        deck = {"path": str(p), "name": d.get("name") or p.stem, "args": []}
        if not isinstance(deck["name"], str):
            raise CampaignError(f"{_where(path, f'{key}.name')}: expected a string")
        et = d.get("end_time", data.get("end_time"))
        deck["end_time"] = None if et is None else _number(
            et, f"{key}.end_time" if "end_time" in d else "end_time", path)
        args = d.get("args", [])
        deck["args"] = _list_of(args, f"{key}.args", path, str) if args else []
        decks.append(deck)
    if len({d["name"] for d in decks}) != len(decks):
        raise CampaignError(f"{_where(path, 'decks')}: two decks have the same name; give "
                            f"name: to tell them apart")
    out = {"name": name, "decks": decks, "description": data.get("description", "")}
    out["ranks"] = _list_of(data.get("ranks", [1]), "ranks", path, int, positive=True)
    out["threads"] = _list_of(data.get("threads", [1]), "threads", path, int, positive=True)
    out["mpi"] = _list_of(data.get("mpi", ["openmpi"]), "mpi", path, str, MPI_LIBS)
    out["transport"] = _list_of(data.get("transport", ["shm"]), "transport", path, str,
                                TRANSPORTS)
    decomps = []
    raw = data.get("decomposition", ["default"])
    for i, d in enumerate(raw if isinstance(raw, list) else [raw]):
        key = f"decomposition[{i}]"
        if isinstance(d, str):
            d = {"method": d}
        if not isinstance(d, dict):
            raise CampaignError(f"{_where(path, key)}: expected rcb, metis or "
                                f"{{method: rcb, transform: sy=2}}")
        bad = sorted(set(d) - {"method", "transform"})
        if bad:
            raise CampaignError(f"{_where(path, f'{key}.{bad[0]}')}: unknown key (known: "
                                f"method, transform)")
        m = d.get("method", "default")
        if m not in DECOMP_METHODS:
            raise CampaignError(f"{_where(path, f'{key}.method')}: {m!r} is not one of "
                                f"{', '.join(DECOMP_METHODS)}")
        t = d.get("transform", "")
        if not isinstance(t, str) or (t and not re.fullmatch(r"([sr][xyz]=[-+0-9.eE]+,?)+", t)):
            raise CampaignError(f"{_where(path, f'{key}.transform')}: expected items like "
                                f"sy=2,rz=30, got {t!r}")
        decomps.append({"method": m, "transform": t.rstrip(",")})
    if not decomps:
        raise CampaignError(f"{_where(path, 'decomposition')}: must not be empty")
    out["decomposition"] = decomps
    reps = data.get("repeats", 1)
    if isinstance(reps, bool) or not isinstance(reps, int) or reps < 1:
        raise CampaignError(f"{_where(path, 'repeats')}: expected an integer >= 1, got {reps!r}")
    out["repeats"] = reps
    out["hosts"] = _list_of(data.get("hosts", [1]), "hosts", path, int, positive=True)
    rates = data.get("link_rate", ["none"])
    out["link_rate"] = _list_of(rates, "link_rate", path, str)
    for i, r in enumerate(out["link_rate"]):
        if r != "none" and not re.fullmatch(r"[0-9.]+[kmg]?bit", r):
            raise CampaignError(f"{_where(path, f'link_rate[{i}]')}: expected none or a tc "
                                f"rate such as 1gbit or 100mbit, got {r!r}")
    for flag, default in (("outputs", False), ("profile", True), ("interleave", False)):
        v = data.get(flag, default)
        if not isinstance(v, bool):
            raise CampaignError(f"{_where(path, flag)}: expected true or false, got {v!r}")
        out[flag] = v
    out["timeout_s"] = _number(data.get("timeout_s", 3600), "timeout_s", path)
    extra = data.get("extra_args", [])
    out["extra_args"] = _list_of(extra, "extra_args", path, str) if extra else []
    refs = []
    for i, r in enumerate(data.get("references", []) or []):
        key = f"references[{i}]"
        if not isinstance(r, dict):
            raise CampaignError(f"{_where(path, key)}: expected a mapping (match, metric, value,"
                                f" lower, upper)")
        bad = sorted(set(r) - REF_KEYS)
        if bad:
            raise CampaignError(f"{_where(path, f'{key}.{bad[0]}')}: unknown key (known: "
                                f"{', '.join(sorted(REF_KEYS))})")
        match = r.get("match", {}) or {}
        if not isinstance(match, dict):
            raise CampaignError(f"{_where(path, f'{key}.match')}: expected a mapping")
        bad = sorted(set(match) - MATCH_KEYS)
        if bad:
            raise CampaignError(f"{_where(path, f'{key}.match.{bad[0]}')}: unknown key (known: "
                                f"{', '.join(sorted(MATCH_KEYS))})")
        metric = r.get("metric", "elapsed_s")
        if metric not in METRICS:
            raise CampaignError(f"{_where(path, f'{key}.metric')}: {metric!r} is not one of "
                                f"{', '.join(METRICS)}")
        if "value" not in r:
            raise CampaignError(f"{_where(path, f'{key}.value')}: required key missing")
        ref = {"match": match, "metric": metric,
               "value": _number(r["value"], f"{key}.value", path),
               "lower": _number(r.get("lower", -0.1), f"{key}.lower", path, positive=False),
               "upper": _number(r.get("upper", 0.1), f"{key}.upper", path, positive=False)}
        if ref["lower"] > 0 or ref["upper"] < 0:
            raise CampaignError(f"{_where(path, f'{key}.lower')}: lower must be <= 0 and upper "
                                f">= 0 (fractions of value, ReFrame style: -0.1, 0.1)")
        refs.append(ref)
    out["references"] = refs
    return out


def load_campaign(path: str) -> dict:
    try:
        import yaml  # python3-yaml (scripts/setup.sh)
    except ImportError as e:  # pragma: no cover
        raise CampaignError("PyYAML is missing: apt-get install python3-yaml") from e
    try:
        with open(path, encoding="utf-8") as f:
            data = yaml.safe_load(f)
    except OSError as e:
        raise CampaignError(f"{path}: {e.strerror}") from e
    except yaml.YAMLError as e:
        raise CampaignError(f"{path}: not valid YAML: {e}") from e
    return validate(data, path)


# ---------------------------------------------------------------------------------------------
# Expansion into runs


def _decomp_label(d: dict) -> str:
    return d["method"] + (f"+{d['transform']}" if d["transform"] else "")


def _deck_tag(deck: dict) -> str:
    """The deck's name plus a short hash of what changes its result (file, end time, args)."""
    h = hashlib.sha1(json.dumps([deck["path"], deck["end_time"], deck["args"]]).encode())
    return f"{deck['name']}-{h.hexdigest()[:6]}"


def expand(campaign: dict) -> List[dict]:
    """Every run of a campaign, in the order they are run (deck-major, repeats innermost)."""
    runs = []
    for deck in campaign["decks"]:
        for mpi in campaign["mpi"]:
            for transport in campaign["transport"]:
                for decomp in campaign["decomposition"]:
                    for ranks in campaign["ranks"]:
                      for threads in campaign["threads"]:
                        for hosts in campaign["hosts"]:
                          if hosts > ranks:
                              continue  # every host runs at least one rank
                          for link in (campaign["link_rate"] if hosts > 1 else ["-"]):
                            config = {"deck": deck["name"], "ranks": ranks, "threads": threads,
                                      "mpi": mpi, "transport": transport,
                                      "decomposition": _decomp_label(decomp), "hosts": hosts,
                                      "link": link}
                            where = "" if hosts == 1 else f".h{hosts}.{link}"
                            for rep in range(campaign["repeats"]):
                                rid = (f"{campaign['name']}.{_deck_tag(deck)}.np{ranks}.t{threads}"
                                       f".{mpi}.{transport}.{_decomp_label(decomp)}{where}"
                                       f".r{rep}")
                                rid = re.sub(r"[^A-Za-z0-9_.+=-]", "_", rid)
                                runs.append({"run_id": rid, "config": config, "repeat": rep,
                                             "deck": deck, "decomp": decomp})
    if campaign.get("interleave"):  # repeat-major: every configuration sees the same drift
        runs.sort(key=lambda r: r["repeat"])
    return runs


def matches(match: dict, config: dict) -> bool:
    for k, v in match.items():
        if k == "decomposition" and isinstance(v, str):
            if config[k] != v and config[k].split("+")[0] != v:
                return False
        elif config.get(k) != v:
            return False
    return True


# ---------------------------------------------------------------------------------------------
# Running


def repo_root() -> pathlib.Path:
    return pathlib.Path(__file__).resolve().parents[2]


def find_parcae(explicit: Optional[str] = None) -> str:
    for cand in (explicit, os.environ.get("PARCAE_EXE"), os.environ.get("PARCAE_BIN"),
                 str(repo_root() / "build/release/bin/parcae")):
        if cand and os.path.isfile(cand) and os.access(cand, os.X_OK):
            return os.path.abspath(cand)
    raise SystemExit("parcae bench: no parcae binary (build it, or give --parcae / PARCAE_BIN)")


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def command_for(parcae: str, campaign: dict, run: dict, outdir: pathlib.Path,
                cluster_state: Optional[dict] = None) -> List[str]:
    c, deck, decomp = run["config"], run["deck"], run["decomp"]
    cmd = [parcae, "run", deck["path"], "-o", str(outdir), "--threads", str(c["threads"])]
    if c.get("hosts", 1) == 1:
        cmd += ["--np", str(c["ranks"]), "--mpi", c["mpi"], "--transport", c["transport"]]
    if decomp["method"] != "default":
        cmd += ["--decomp", decomp["method"]]
    if decomp["transform"]:
        cmd += ["--decomp-transform", decomp["transform"]]
    if deck["end_time"]:
        cmd += ["--end-time", repr(deck["end_time"])]
    if not campaign["outputs"]:
        cmd += ["--no-vtk", "--no-d3plot"]
    if campaign["profile"]:
        cmd += ["--profile", str(outdir / "profile")]
    cmd += deck["args"] + campaign["extra_args"]
    if c.get("hosts", 1) > 1:
        from . import cluster as cl
        state = cluster_state or {"hosts": cl.host_names(CLUSTER_NAME, c["hosts"]),
                                  "hostfile": "HOSTFILE", "agent": "AGENT"}
        if cluster_state is None:  # dry run: do not write the hostfile
            state = {**state, "hostfile": os.devnull}
        if c["mpi"] == "mpich":
            exe = pathlib.Path(parcae)
            other = pathlib.Path(str(exe).replace("/release/bin/", "/release-mpich/bin/"))
            cmd[0] = str(other)
        # Open MPI: the profiler records OMPI_MCA_btl as the transport
        env = {"OMPI_MCA_btl": "self,vader,tcp" if c["transport"] == "shm" else "self,tcp"} \
            if c["mpi"] == "openmpi" else {}
        cmd = cl.mpirun_command(state, c["ranks"], cmd, c["mpi"], c["threads"],
                                campaign.get("ranks_per_host"), env)
        if c["mpi"] == "openmpi" and c["transport"] == "tcp":
            i = cmd.index("self,vader,tcp")
            cmd[i] = "self,tcp"
    return cmd


CLUSTER_NAME = "pcb"  # the namespaces of multi-host runs: pcb-sw, pcb-h0, ...


def parse_log(text: str) -> dict:
    """Figures from a run's standard output (the closing summary of parcae run)."""
    out: Dict[str, object] = {}
    m = re.search(r"termination at cycle (\d+), time ([-+0-9.eE]+)", text)
    if m:
        out["cycles"] = int(m.group(1))
        out["end_time"] = float(m.group(2))
    m = re.search(r"elapsed ([0-9.]+) s, ([-+0-9.eE]+) element-cycles/s", text)
    if m:
        out["elapsed_s"] = float(m.group(1))
        out["element_cycles_per_s"] = float(m.group(2))
    ne = 0
    for kind in ("solid", "shell"):
        m = re.search(rf"{kind} elements\s+(\d+)", text)
        if m:
            ne += int(m.group(1))
    if ne:
        out["elements"] = ne
    m = re.search(r"parcae: launching: (.*)", text)
    if m:
        out["launch_command"] = m.group(1).strip()
        b = re.search(r"--bind-to (\S+)", m.group(1))
        out["binding"] = b.group(1) if b else ("hydra default" if "mpich" in m.group(1)
                                                else "default")
    return out


def profile_summary(profile_dir: pathlib.Path) -> Optional[dict]:
    """The profile of a run, cut to what reports need (the full profile.json stays in the
    run's directory): per-rank elapsed/MPI time, per-function totals, phases, metadata."""
    from . import profile as prof_mod
    try:
        p = prof_mod.load(str(profile_dir))
    except prof_mod.ProfileError:
        return None
    ranks = [{"rank": r["rank"], "host": r.get("host"), "elapsed_s": r["elapsed_s"],
              "mpi_s": r["mpi_s"], "app_s": r["app_s"],
              "functions": {n: {"calls": f["calls"], "time_s": f["time_s"], "bytes": f["bytes"],
                                "hist": f.get("hist", [])}
                            for n, f in r["functions"].items()}}
             for r in p["ranks"]]
    s = p["summary"]
    return {"metadata": p["metadata"], "ranks": ranks,
            "elapsed_s": s["elapsed_s"], "mpi_s": s["mpi_s"],
            "functions": {n: {"calls": f["calls"]["sum"], "time_s": f["time_s"]["sum"],
                              "bytes": f["bytes"]["sum"]} for n, f in s["functions"].items()},
            "phases": {n: {"time_s": ph["time_s"]["max"], "mpi_s": ph["mpi_s"]["max"]}
                       for n, ph in s.get("phases", {}).items()}}


_META_CACHE: Dict[str, object] = {}


def static_metadata(parcae: str) -> dict:
    if not _META_CACHE:
        from .bench import machine_metadata
        m = machine_metadata(str(repo_root()))
        _META_CACHE.update({k: m.get(k) for k in ("hostname", "cpu_model", "cores",
                                                  "physical_cores", "memory_gib", "os",
                                                  "kernel", "compiler", "git_revision",
                                                  "git_dirty")})
        _META_CACHE["parcae"] = parcae
    return dict(_META_CACHE)


def execute(parcae: str, campaign: dict, run: dict, outdir: pathlib.Path) -> dict:
    """Run one configuration and return its record."""
    c = run["config"]
    rec: Dict[str, object] = {"schema": "parcae-bench-run", "version": SCHEMA_VERSION,
                              "run_id": run["run_id"], "campaign": campaign["name"],
                              **c, "repeat": run["repeat"], "deck_path": run["deck"]["path"],
                              "end_time_override": run["deck"]["end_time"],
                              "outdir": str(outdir)}
    if c["mpi"] == "mpich" and c["ranks"] * c["threads"] > cores():
        rec.update(status="skipped", reason=f"MPICH busy-polls: {c['ranks']} ranks x "
                                            f"{c['threads']} threads > {cores()} cores")
        return rec
    if c.get("hosts", 1) > 1 and os.geteuid() != 0:
        rec.update(status="skipped", reason="multi-host runs need root (network namespaces)")
        return rec
    if outdir.exists():
        shutil.rmtree(outdir)
    outdir.mkdir(parents=True)
    with contextlib.ExitStack() as stack:
        state = None
        if c.get("hosts", 1) > 1:
            from . import cluster as cl
            cl.down(CLUSTER_NAME)  # left over from a killed campaign
            state = stack.enter_context(cl.cluster(
                c["hosts"], CLUSTER_NAME, None if c["link"] == "none" else c["link"]))
        return _execute(parcae, campaign, run, outdir, rec, state)


def _execute(parcae: str, campaign: dict, run: dict, outdir: pathlib.Path, rec: dict,
             state: Optional[dict]) -> dict:
    c = run["config"]
    cmd = command_for(parcae, campaign, run, outdir, state)
    env = {**os.environ, "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMP_NUM_THREADS": str(c["threads"])}
    rec["command"] = " ".join(cmd)
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env,
                           timeout=campaign["timeout_s"])
        rc, stdout, stderr = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        rc, stdout, stderr = -1, (e.stdout or b"").decode(errors="replace") if isinstance(
            e.stdout, bytes) else (e.stdout or ""), "timeout"
    wall = time.perf_counter() - t0
    (outdir / "stdout.txt").write_text(stdout)
    (outdir / "stderr.txt").write_text(stderr)
    log = parse_log(stdout)
    rec["wall_s"] = wall
    rec["exit_code"] = rc
    if rc != 0 or "elapsed_s" not in log:
        rec.update(status="timeout" if rc == -1 else "failed",
                   error=(stderr.strip().splitlines() or stdout.strip().splitlines() or
                          ["no output"])[-1][:500])
        return rec
    elapsed = max(float(log["elapsed_s"]), 1e-3)  # printed to the millisecond
    rec.update(status="ok", elapsed_s=elapsed, jobs_per_day=86400.0 / elapsed,
               cycles=log.get("cycles"), elements=log.get("elements"),
               launch_overhead_s=wall - elapsed, binding=log.get("binding"),
               launch_command=log.get("launch_command"))
    if log.get("cycles") and log.get("elements"):
        rec["us_per_element_cycle"] = 1e6 * elapsed / (log["cycles"] * log["elements"])
    meta = static_metadata(parcae)
    prof = profile_summary(outdir / "profile") if campaign["profile"] else None
    if prof:
        pm = prof["metadata"]
        from .whatif import mpi_share
        rec["mpi_fraction"] = mpi_share(prof["ranks"])  # without MPI_Init
        rec["profile"] = prof
        meta.update(mpi_library=pm.get("mpi_library"), mpi_transport=pm.get("transport"),
                    hosts=pm.get("hosts"), profiler_compiler=pm.get("compiler"))
        if pm.get("git_revision") and pm["git_revision"] != "unknown":
            meta["parcae_git_revision"] = pm["git_revision"]
    meta["date"] = date
    rec["metadata"] = meta
    refs = [r for r in campaign["references"] if matches(r["match"], c)]
    if refs:
        rec["references"] = refs
    return rec


def read_results(path: str) -> List[dict]:
    """Every record of a results store (a missing file is empty; a torn last line, left by
    an interrupted write, is ignored)."""
    out = []
    if not os.path.exists(path):
        return out
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            if i == len(lines) - 1:
                continue
            raise SystemExit(f"{path}:{i + 1}: not a JSON record")
    return out


def append_record(path: str, rec: dict) -> None:
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(rec, sort_keys=False) + "\n")
        f.flush()
        os.fsync(f.fileno())


def _hms(s: float) -> str:
    s = int(round(s))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def run_campaign(campaign_path, results: str, parcae: Optional[str] = None,
                 dry_run: bool = False, out=None) -> int:
    """Run one campaign file, or several (a list) one after the other into one store."""
    out = out or sys.stdout
    paths = [campaign_path] if isinstance(campaign_path, str) else list(campaign_path)
    if len(paths) > 1:
        camps = [load_campaign(p) for p in paths]  # all valid before anything runs
        rc = 0
        for p in paths:
            rc = max(rc, run_campaign(p, results, parcae, dry_run, out))
        return rc
    campaign = load_campaign(paths[0])
    runs = expand(campaign)
    done = {r["run_id"] for r in read_results(results) if r.get("status") in ("ok", "skipped")}
    todo = [r for r in runs if r["run_id"] not in done]
    print(f"campaign {campaign['name']}: {len(runs)} runs, {len(runs) - len(todo)} already in "
          f"{results}, {len(todo)} to run", file=out, flush=True)
    if dry_run:
        exe = parcae or "parcae"
        for r in todo:
            print(" ".join(command_for(exe, campaign, r, pathlib.Path("OUT"))), file=out)
        return 0
    exe = find_parcae(parcae)
    rundir = pathlib.Path(re.sub(r"\.jsonl?$", "", results) + ".runs").resolve()
    pathlib.Path(results).parent.mkdir(parents=True, exist_ok=True)
    t_start = time.perf_counter()
    spent = 0.0
    failures = 0
    for i, r in enumerate(todo):
        t0 = time.perf_counter()
        rec = execute(exe, campaign, r, rundir / r["run_id"])
        spent += time.perf_counter() - t0
        append_record(results, rec)
        c = r["config"]
        left = len(todo) - i - 1
        eta = spent / (i + 1) * left
        what = (f"{c['deck']} np{c['ranks']} t{c['threads']} {c['mpi']}/{c['transport']} "
                f"{c['decomposition']}"
                + (f" {c['hosts']} hosts/{c['link']}" if c["hosts"] > 1 else "")
                + f" #{r['repeat'] + 1}")
        if rec["status"] == "ok":
            mpi = rec.get("mpi_fraction")
            res = (f"{rec['elapsed_s']:.3f} s, {rec['jobs_per_day']:,.0f} jobs/day"
                   + (f", MPI {100 * mpi:.1f} %" if mpi is not None else "")
                   + f", launch +{rec['launch_overhead_s']:.2f} s")
        else:
            res = f"{rec['status'].upper()}: {rec.get('reason') or rec.get('error', '')}"
            failures += rec["status"] in ("failed", "timeout")
        print(f"[{len(runs) - len(todo) + i + 1}/{len(runs)}] {what}: {res}  "
              f"(ETA {_hms(eta)})", file=out, flush=True)
    print(f"campaign {campaign['name']}: done in {_hms(time.perf_counter() - t_start)}, "
          f"{failures} failed; results in {results}", file=out, flush=True)
    return 1 if failures else 0


# ---------------------------------------------------------------------------------------------
# Reports


def latest_ok(records: Iterable[dict]) -> List[dict]:
    """The newest ok record of every run_id."""
    by_id: Dict[str, dict] = {}
    for r in records:
        if r.get("schema") == "parcae-bench-run" and r.get("status") == "ok":
            r.setdefault("hosts", 1)
            r.setdefault("link", "-")
            by_id[r["run_id"]] = r
    return list(by_id.values())


CONFIG_KEYS = ("campaign", "deck", "ranks", "threads", "mpi", "transport", "decomposition",
               "hosts", "link")


def aggregate(records: Iterable[dict]) -> List[dict]:
    """One row per configuration: medians over repeats of every metric, speedup and
    efficiency against the 1-rank, 1-thread run of the same deck, library and transport
    (or, when absent, any 1x1 run of the deck)."""
    groups: Dict[Tuple, List[dict]] = {}
    for r in latest_ok(records):
        groups.setdefault(tuple(r[k] for k in CONFIG_KEYS), []).append(r)
    rows = []
    for key, recs in groups.items():
        row = dict(zip(CONFIG_KEYS, key))
        row["n"] = len(recs)
        for m in METRICS + ("launch_overhead_s",):
            vals = [r[m] for r in recs if r.get(m) is not None]
            row[m] = statistics.median(vals) if vals else None
        row["samples_s"] = sorted(r["elapsed_s"] for r in recs)
        fn: Dict[str, float] = {}
        for r in recs:
            for name, f in (r.get("profile") or {}).get("functions", {}).items():
                fn[name] = fn.get(name, 0.0) + f["time_s"] / len(recs)
        row["mpi_functions"] = fn
        rows.append(row)
    for row in rows:
        same = [b for b in rows if b["campaign"] == row["campaign"] and b["deck"] == row["deck"]
                and b["ranks"] == 1 and b["threads"] == 1]
        pref = [b for b in same if b["mpi"] == row["mpi"] and b["transport"] == row["transport"]
                and b["decomposition"] == row["decomposition"]] or \
            [b for b in same if b["mpi"] == row["mpi"]] or same
        if pref and row["elapsed_s"]:
            row["speedup"] = pref[0]["elapsed_s"] / row["elapsed_s"]
            row["efficiency"] = row["speedup"] / (row["ranks"] * row["threads"])
        else:
            row["speedup"] = row["efficiency"] = None
    rows.sort(key=lambda r: tuple(str(r[k]) if k not in ("ranks", "threads") else f"{r[k]:06d}"
                                  for k in CONFIG_KEYS))
    return rows


def _table(header: Sequence[str], rows: List[Sequence[str]]) -> List[str]:
    w = [max(len(str(x)) for x in col) for col in zip(header, *rows)] if rows else \
        [len(h) for h in header]
    fmt = lambda cells: "  ".join(str(c).ljust(w[i]) if i < 1 else str(c).rjust(w[i])
                                  for i, c in enumerate(cells)).rstrip()
    return [fmt(header), "  ".join("-" * x for x in w)] + [fmt(r) for r in rows]


def _f(v, spec: str) -> str:
    return "-" if v is None else format(v, spec)


def comparisons(rows: List[dict], axis: str) -> List[dict]:
    """Pairs of configurations that differ only in `axis` (mpi, transport or
    decomposition): the % difference in jobs/day of each value against the first."""
    others = [k for k in CONFIG_KEYS if k != axis]
    groups: Dict[Tuple, List[dict]] = {}
    for r in rows:
        groups.setdefault(tuple(r[k] for k in others), []).append(r)
    out = []
    for key, rs in groups.items():
        if len(rs) < 2:
            continue
        rs = sorted(rs, key=lambda r: str(r[axis]))
        base = rs[0]
        for r in rs[1:]:
            out.append({**dict(zip(others, key)), "axis": axis, "a": base[axis], "b": r[axis],
                        "jobs_a": base["jobs_per_day"], "jobs_b": r["jobs_per_day"],
                        "pct": 100.0 * (r["jobs_per_day"] / base["jobs_per_day"] - 1.0)})
    return out


def report_text(records: List[dict]) -> str:
    rows = aggregate(records)
    if not rows:
        return "no finished runs\n"
    lines = [f"{len(latest_ok(records))} runs, {len(rows)} configurations"]
    meta = next((r.get("metadata") for r in records if r.get("metadata")), {}) or {}
    for k in ("cpu_model", "hostname", "compiler", "git_revision"):
        if meta.get(k):
            lines.append(f"{k}: {meta[k]}")
    lines.append("")
    lines += _table(["deck", "np", "thr", "mpi", "transport", "decomp", "hosts", "link", "n",
                     "elapsed s", "jobs/day", "us/el-cyc", "MPI %", "speedup", "eff",
                     "launch s"],
                    [[r["deck"], r["ranks"], r["threads"], r["mpi"], r["transport"],
                      r["decomposition"], r["hosts"], r["link"], r["n"],
                      _f(r["elapsed_s"], ".3f"),
                      _f(r["jobs_per_day"], ",.0f"), _f(r["us_per_element_cycle"], ".3f"),
                      _f(None if r["mpi_fraction"] is None else 100 * r["mpi_fraction"], ".1f"),
                      _f(r["speedup"], ".2f"), _f(r["efficiency"], ".2f"),
                      _f(r["launch_overhead_s"], ".2f")] for r in rows])
    for axis, title in (("mpi", "MPI library"), ("transport", "transport"),
                        ("decomposition", "decomposition"), ("link", "link cap")):
        comp = comparisons(rows, axis)
        if not comp:
            continue
        lines += ["", f"{title} comparison (jobs/day, % of b over a)"]
        lines += _table(["deck", "np", "thr", "with", "a", "b", "jobs/day a", "jobs/day b",
                         "b vs a"],
                        [[c["deck"], c["ranks"], c["threads"],
                          "/".join(str(c[k]) for k in ("mpi", "transport", "decomposition",
                                                       "hosts") if k != axis), c["a"], c["b"],
                          f"{c['jobs_a']:,.0f}", f"{c['jobs_b']:,.0f}", f"{c['pct']:+.1f} %"]
                         for c in comp])
    mp = [r for r in rows if r["mpi_functions"] and r["ranks"] > 1]
    if mp:
        lines += ["", "MPI time per function (sum over ranks, share of MPI time)"]
        for r in mp:
            tot = sum(v for k, v in r["mpi_functions"].items() if k not in ("MPI_Init",
                                                                            "MPI_Init_thread"))
            top = sorted(((v, k) for k, v in r["mpi_functions"].items()
                          if k not in ("MPI_Init", "MPI_Init_thread")), reverse=True)[:4]
            lines.append(f"  {r['deck']} np{r['ranks']} t{r['threads']} {r['mpi']}/"
                         f"{r['transport']} {r['decomposition']}"
                         + (f" {r['hosts']}h/{r['link']}" if r["hosts"] > 1 else "") + ": " +
                         ", ".join(f"{k} {100 * v / tot:.0f} %" for v, k in top if tot > 0))
    return "\n".join(lines) + "\n"


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def write_figures(records: List[dict], outdir: str) -> List[str]:
    rows = aggregate(records)
    if not rows:
        return []
    plt = _pyplot()
    os.makedirs(outdir, exist_ok=True)
    written = []
    decks = sorted({r["deck"] for r in rows})

    def save(fig, name):
        p = os.path.join(outdir, name)
        fig.tight_layout()
        fig.savefig(p, dpi=110)
        plt.close(fig)
        written.append(p)

    # 1. jobs/day against ranks, one line per library/transport/decomposition (threads 1).
    fig, axes = plt.subplots(1, len(decks), figsize=(5.5 * len(decks), 4), squeeze=False)
    for ax, deck in zip(axes[0], decks):
        series: Dict[str, List[Tuple[int, float]]] = {}
        for r in rows:
            if r["deck"] == deck:
                lab = f"{r['mpi']}/{r['transport']}/{r['decomposition']}" + \
                      (f" t{r['threads']}" if r["threads"] > 1 else "") + \
                      (f" {r['hosts']}h/{r['link']}" if r["hosts"] > 1 else "")
                series.setdefault(lab, []).append((r["ranks"], r["jobs_per_day"]))
        for lab, pts in sorted(series.items()):
            pts.sort()
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=lab)
        ax.set_title(f"{deck}: jobs/day")
        ax.set_xlabel("MPI ranks")
        ax.set_ylabel("jobs / day (86400 / elapsed)")
        ax.set_xticks(sorted({r["ranks"] for r in rows}))
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    save(fig, "jobs_per_day.png")
    # 2. comparison bars (library, transport, decomposition) with % differences.
    for axis in ("mpi", "transport", "decomposition", "link"):
        comp = comparisons(rows, axis)
        if not comp:
            continue
        fig, ax = plt.subplots(figsize=(max(5, 0.9 * len(comp) + 2), 4))
        labels = [f"{c['deck']}\nnp{c['ranks']} t{c['threads']}\n" +
                  "/".join(str(c[k]) for k in ("mpi", "transport", "decomposition")
                           if k in c and k != axis) for c in comp]
        x = list(range(len(comp)))
        ax.bar([i - 0.2 for i in x], [c["jobs_a"] for c in comp], 0.4,
               label=str(comp[0]["a"]) if len({c["a"] for c in comp}) == 1 else "a")
        bars = ax.bar([i + 0.2 for i in x], [c["jobs_b"] for c in comp], 0.4,
                      label=str(comp[0]["b"]) if len({c["b"] for c in comp}) == 1 else "b")
        for b, c in zip(bars, comp):
            ax.annotate(f"{c['pct']:+.1f} %", (b.get_x() + b.get_width() / 2, b.get_height()),
                        ha="center", va="bottom", fontsize=8)
        ax.set_xticks(x)
        ax.set_xticklabels(labels, fontsize=7)
        ax.set_ylabel("jobs / day")
        ax.set_title(f"{axis} comparison")
        ax.legend(fontsize=8)
        save(fig, f"compare_{axis}.png")
    # 3. speedup and efficiency.
    sp = [r for r in rows if r["speedup"] is not None]
    if sp:
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 4))
        series2: Dict[str, List[Tuple[int, float, float]]] = {}
        for r in sp:
            lab = f"{r['deck']} {r['mpi']}/{r['transport']}/{r['decomposition']} t{r['threads']}"
            series2.setdefault(lab, []).append((r["ranks"], r["speedup"], r["efficiency"]))
        for lab, pts in sorted(series2.items()):
            pts.sort()
            a1.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=lab)
            a2.plot([p[0] for p in pts], [p[2] for p in pts], marker="o", label=lab)
        nmax = max(r["ranks"] for r in sp)
        a1.plot([1, nmax], [1, nmax], "k--", lw=0.8, label="ideal")
        a1.set_xlabel("MPI ranks")
        a1.set_ylabel("speedup")
        a2.set_xlabel("MPI ranks")
        a2.set_ylabel("parallel efficiency")
        a2.set_ylim(0, 1.2)
        a1.legend(fontsize=6)
        for a in (a1, a2):
            a.grid(alpha=0.3)
        save(fig, "speedup_efficiency.png")
    # 4. MPI time per function, per configuration (stacked, share of elapsed).
    mp = [r for r in rows if r["mpi_functions"] and r["ranks"] > 1]
    if mp:
        names = sorted({k for r in mp for k in r["mpi_functions"]},
                       key=lambda k: -sum(r["mpi_functions"].get(k, 0) for r in mp))[:8]
        fig, ax = plt.subplots(figsize=(max(6, 0.8 * len(mp) + 2), 4.5))
        bottom = [0.0] * len(mp)
        for name in names:
            vals = [r["mpi_functions"].get(name, 0.0) / r["ranks"] for r in mp]
            ax.bar(range(len(mp)), vals, bottom=bottom, label=name)
            bottom = [b + v for b, v in zip(bottom, vals)]
        ax.set_xticks(range(len(mp)))
        ax.set_xticklabels([f"{r['deck']}\nnp{r['ranks']} t{r['threads']}\n{r['mpi']}/"
                            f"{r['transport']}\n{r['decomposition']}" for r in mp], fontsize=6)
        ax.set_ylabel("MPI time per rank (s)")
        ax.set_title("MPI time per function")
        ax.legend(fontsize=7)
        save(fig, "mpi_functions.png")
    return written


def compare(records: List[dict], campaign: Optional[dict] = None, out=None) -> int:
    """Check the medians of each configuration against its references; 1 on a regression."""
    out = out or sys.stdout
    rows = aggregate(records)
    checks = []
    for row in rows:
        if campaign is not None:
            if row["campaign"] != campaign["name"]:
                continue
            refs = [r for r in campaign["references"] if matches(r["match"], row)]
        else:
            refs = []
            for rec in latest_ok(records):
                if all(rec[k] == row[k] for k in CONFIG_KEYS):
                    refs = rec.get("references", [])
        for ref in refs:
            val = row.get(ref["metric"])
            lo = ref["value"] * (1 + ref["lower"])
            hi = ref["value"] * (1 + ref["upper"])
            ok = val is not None and lo <= val <= hi
            checks.append((row, ref, val, lo, hi, ok))
    if not checks:
        print("no references to check", file=out)
        return 0
    lines = _table(["deck", "np", "thr", "mpi", "transport", "decomp", "metric", "value",
                    "reference", "range", "result"],
                   [[r["deck"], r["ranks"], r["threads"], r["mpi"], r["transport"],
                     r["decomposition"], ref["metric"], _f(v, ".4g"), f"{ref['value']:.4g}",
                     f"{lo:.4g}..{hi:.4g}", "ok" if ok else "REGRESSION"
                     if v is not None and ((v < lo) if ref["metric"] in HIGHER_IS_BETTER
                                           else (v > hi)) else "OUT OF RANGE"]
                    for r, ref, v, lo, hi, ok in checks])
    print("\n".join(lines), file=out)
    bad = sum(1 for c in checks if not c[5])
    print(f"{len(checks)} checks, {bad} outside their reference range", file=out)
    return 1 if bad else 0


# ---------------------------------------------------------------------------------------------


USAGE = """usage:
  parcae bench CAMPAIGN.yaml -o RESULTS.jsonl [--parcae EXE] [--dry-run]
  parcae bench report RESULTS.jsonl [-o DIR]       tables; PNG figures into DIR
  parcae bench compare RESULTS.jsonl [--campaign CAMPAIGN.yaml]
"""


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip().split("\n\n")[0] + "\n\n" + USAGE)
        return 0 if argv else 1
    if argv[0] == "report":
        ap = argparse.ArgumentParser(prog="parcae bench report")
        ap.add_argument("results")
        ap.add_argument("-o", "--outdir", help="write PNG figures (and report.txt) here")
        a = ap.parse_args(argv[1:])
        records = read_results(a.results)
        text = report_text(records)
        sys.stdout.write(text)
        if a.outdir:
            os.makedirs(a.outdir, exist_ok=True)
            pathlib.Path(a.outdir, "report.txt").write_text(text)
            for p in write_figures(records, a.outdir):
                print(f"wrote {p}")
        return 0
    if argv[0] == "compare":
        ap = argparse.ArgumentParser(prog="parcae bench compare")
        ap.add_argument("results")
        ap.add_argument("--campaign", help="use this campaign's references (default: those "
                                           "recorded with the runs)")
        a = ap.parse_args(argv[1:])
        try:
            camp = load_campaign(a.campaign) if a.campaign else None
        except CampaignError as e:
            print(f"parcae bench: {e}", file=sys.stderr)
            return 2
        return compare(read_results(a.results), camp)
    ap = argparse.ArgumentParser(prog="parcae bench", usage=USAGE)
    ap.add_argument("campaign", nargs="+", help="campaign file(s), run in order")
    ap.add_argument("-o", "--results", required=True, help="results store (JSON lines)")
    ap.add_argument("--parcae", help="parcae binary (default: the one running this)")
    ap.add_argument("--dry-run", action="store_true", help="print the commands only")
    a = ap.parse_args(argv)
    try:
        return run_campaign(a.campaign, a.results, a.parcae, a.dry_run)
    except CampaignError as e:
        print(f"parcae bench: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
