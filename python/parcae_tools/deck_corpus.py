"""The public-deck corpus: LS-DYNA decks written elsewhere (../shared/decks, see its SOURCES.md),
run as they are.

    python -m parcae_tools.deck_corpus run --parcae build/release/bin/parcae \\
        --decks ../shared/decks --json bench/deck_corpus.json --table docs/deck_corpus.md
    python -m parcae_tools.deck_corpus table --json bench/deck_corpus.json --table docs/deck_corpus.md

`run` checks every deck of CORPUS (`parcae check`), runs the ones parcae accepts at np = 1 and 2
(with --profile), and records per deck: the status (runs, or the first error `parcae check`
gives), elements, keywords, cycles, energy ratio (glstat's total / initial energy at the end),
wall time at np 1 and 2, whether glstat is byte-identical at np 1 and 2, and the profile's phase
shares at np 1. `table` renders docs/deck_corpus.md from the JSON (python/tests/test_deck_corpus.py
checks that the table is the rendering of the JSON and that each deck's status is still what the
JSON says).

Energy bands: a deck without external work conserves energy; the band is the energy error LS-DYNA
analysts accept for such runs (|ratio - 1| <= 2 %), tighter where the physics allows (free
flight: 1e-6), stated per deck with its reason.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time
from typing import List, Optional

from .glstat import read_glstat


@dataclasses.dataclass(frozen=True)
class Deck:
    folder: str
    main: str
    what: str
    band: tuple = (0.98, 1.02)   # energy ratio at the end (lower, upper)
    band_reason: str = "no external work: energy conserved within 2 %"
    end_time: Optional[float] = None  # a shortened run (parcae run --end-time), with its reason
    end_reason: str = ""
    # Cards the published file lacks although the script that wrote it defines them (LS-DYNA
    # refuses the file as it is too): they are added by a wrapper deck that includes the file
    # unchanged (deck_to_run), with the reason.
    added_cards: str = ""
    added_reason: str = ""


CORPUS: List[Deck] = [
    Deck("pydyna_taylor_bar", "main.k", "steel Taylor bar, 300 m/s onto a rigid wall",
         (0.99, 1.01), "elastic-plastic impact, energy lost only to the wall: 1 %"),
    Deck("pydyna_bar_impact", "main.k", "bar hitting a shell plate, single-surface contact"),
    Deck("pydyna_projectile_case", "projectile.k",
         "projectile flying past a plate (*CASE deck, force transducers only)",
         (1 - 1e-6, 1 + 1e-6), "free flight, no contact force: kinetic energy constant"),
    Deck("pydyna_john_reid_pendulum", "main.k", "two-sphere pendulum under gravity",
         (0.99, 1.01), "gravity work and sphere-on-sphere contact; the rigid spheres hang on "
         "undamped elastic trusses released unstretched, and the total rings by +-0.4 % with "
         "their axial vibration: 1 %"),
    Deck("pydyna_john_reid_pipe", "main.k", "pipe whip against a bracket"),
    Deck("pydyna_metalforming_roll", "model.k", "sheet-metal roll forming with rigid tools",
         band=(0.999, 1.01),
         band_reason="external work in the balance: the prescribed roll rotation (about 98 % "
                     "of it, accounted exactly) and the feeding load; from 1.2 ms mass scaling "
                     "during the run (DT2MS < 0) adds mass to the stretched leading edge, and "
                     "its kinetic energy (the nodes keep their velocity, as in LS-DYNA; the run "
                     "log reports it) lifts the ratio: +0.56 % at 2 ms (0.12 % mass added), "
                     "of which that energy accounts for all but 0.3 %",
         end_time=2.0e-3,
         end_reason="the step is held at TSSFAC |DT2MS| = 6.3e-7 s by mass scaling during the "
                    "run, but the blank's leading edge, pulled by the deck's 100 N nodal loads "
                    "on a material whose hardening curve (HLCID 1) starts at zero yield stress, "
                    "stretches without bound: its scaled mass, moving at its velocity, runs away "
                    "after about 4 ms (LS-DYNA also refines the blank, *CONTROL_ADAPTIVE, which "
                    "parcae does not). Its first 2 ms (about 2,300 cycles) are run",
         added_cards="".join(
             f"*PART\n{name}\n{pid:10d}{pid:10d}{pid:10d}\n" for pid, name in
             ((1, "blank"), (2, "upper roll"), (3, "lower roll"), (4, "upper binder"),
              (5, "lower binder"))),
         added_reason="the file has no *PART (pydyna's writer dropped them); its script "
                      "examples/Metalforming/metalforming.py defines part i with section i and "
                      "material i: those five *PART cards are added by a wrapper deck"),
    Deck("paperboard_foldingbox", "Foldingbox5-Main.k", "paperboard box folded and crushed",
         band=(0.98, 1.02),
         band_reason="external work in the balance: the prescribed rotations fold the box and "
                     "the plate crushes it; ratio 1.0004 to t = 2, then about +1.5 % when the "
                     "flaps, pressed 0.5 mm into the front panel by the deck's own motions and "
                     "held by tiebreak ties, are released at t = 2.2 (stiff tie modes; a third "
                     "of the step cuts that error about 5x)"),
    Deck("bolted_connection_b_explicit", "mainboltbexpl.k", "bolted connection with pretension"),
    Deck("rubber_ball_rigidwall", "bouncyball_v2.k", "rubber ball bouncing on a rigid wall"),
    Deck("lstc_thick_offset_contact", "thick.k", "shell thickness-offset contact test"),
    Deck("lstc_airfilled_sphere_drop", "airfilled.sphere.k", "air-filled rubber sphere drop",
         band=(0.99, 1.01),
         band_reason="external work in the balance: gravity, the bag's gas work p dV and its "
                     "mass-weighted damping; the sphere is inflated by dynamic relaxation first "
                     "(its strain energy is the initial energy)"),
    Deck("wb_block_on_plate_elastic", "test.k", "block hitting a plate, tetrahedra and shells",
         end_time=2.0e-4,
         end_reason="the deck asks for TSSFAC 0.1 and 10 ms: about 1.3 M cycles; its first "
                    "0.2 ms (about 10,000 cycles) are run"),
    Deck("pydpf_bird_strike_wing", "input.k", "SPH bird striking a composite wing"),
]


def default_decks_dir() -> pathlib.Path:
    return pathlib.Path(__file__).resolve().parents[2].parent / "shared" / "decks"


def deck_to_run(d: Deck, decks_dir: pathlib.Path, work: pathlib.Path) -> pathlib.Path:
    """The deck file to check and run: the corpus file itself, or (added_cards) a wrapper in
    work that includes it unchanged and adds the cards."""
    deck = decks_dir / d.folder / d.main
    if not d.added_cards:
        return deck
    work.mkdir(parents=True, exist_ok=True)
    wrapper = work / f"{d.folder}_with_added_cards.k"
    wrapper.write_text("*KEYWORD\n*INCLUDE\n" + str(deck.resolve()) + "\n" + d.added_cards
                       + "*END\n")
    return wrapper


def check(parcae: str, deck: pathlib.Path) -> dict:
    """`parcae check`: status 'runs' (deck valid) or 'refused' with the first problem."""
    p = subprocess.run([parcae, "check", deck.name], cwd=deck.parent, capture_output=True,
                       text=True, timeout=300)
    out = {"check_exit": p.returncode}
    if p.returncode == 0:
        m = re.search(r"(\d+) nodes, (\d+) solids, (\d+) shells", p.stdout)
        out.update(status="runs", nodes=int(m[1]), solids=int(m[2]), shells=int(m[3]))
        b = re.search(r"(\d+) beams", p.stdout)
        if b and int(b[1]) > 0:
            out["beams"] = int(b[1])
        used = p.stdout.split("keywords used:\n", 1)[1].split("warnings", 1)[0]
        out["keywords"] = [k.strip() for k in used.splitlines() if k.strip()]
        return out
    lines = [ln.strip() for ln in p.stderr.splitlines() if ln.startswith("  ")]
    first = lines[0] if lines else p.stderr.strip()
    # "file:line (*KEYWORD): message" -> the message, without the include chain
    out["status"] = "refused"
    out["reason"] = re.sub(r"\s*\(included from .*\)$", "", first.split("): ", 1)[-1])
    out["problems"] = len(lines)
    return out


def run(parcae: str, deck: pathlib.Path, outdir: pathlib.Path, np_: int,
        end_time: Optional[float] = None) -> dict:
    """One run with --profile; cycles, wall time, energy ratio and phase shares."""
    cmd = [parcae, "run", deck.name, "-o", str(outdir), "--no-vtk", "--profile"]
    if end_time:
        cmd += ["--end-time", repr(end_time)]
    if np_ > 1:
        cmd += ["--np", str(np_)]
    start = time.monotonic()
    p = subprocess.run(cmd, cwd=deck.parent, capture_output=True, text=True, timeout=1800)
    wall = time.monotonic() - start
    res = {"exit": p.returncode, "wall_s": round(wall, 3)}
    m = re.search(r"normal termination at cycle (\d+), time (\S+)", p.stdout)
    if p.returncode != 0 or not m:
        tail = (p.stderr.strip().splitlines() or p.stdout.strip().splitlines() or ["?"])[-1]
        res["error"] = tail
        return res
    res["cycles"] = int(m[1])
    res["end_time"] = float(m[2])
    e = re.search(r"elapsed ([\d.]+) s", p.stdout)
    res["elapsed_s"] = float(e[1]) if e else wall
    g = read_glstat(outdir / "glstat")
    total, ratio = g.get("total", []), g.get("energy_ratio", [])
    res["energy_ratio"] = ratio[-1] if ratio else None
    res["total_energy"] = total[-1] if total else None
    prof = outdir / "profile" / "profile.json"
    if prof.exists():
        data = json.loads(prof.read_text())
        r0 = data["ranks"][0]
        phases = {k: v["time_s"] for k, v in r0.get("phases", {}).items()}
        whole = sum(phases.values()) or 1.0
        res["phase_share"] = {k: round(v / whole, 4) for k, v in sorted(phases.items())}
    return res


def glstat_identical(a: pathlib.Path, b: pathlib.Path) -> bool:
    """Byte for byte, but for the run-time line (time per zone cycle)."""
    def body(p: pathlib.Path) -> List[str]:
        return [ln for ln in p.read_text().splitlines() if "time per zone cycle" not in ln]
    return body(a / "glstat") == body(b / "glstat")


def run_corpus(parcae: str, decks_dir: pathlib.Path, nps=(1, 2), only=None) -> dict:
    results = []
    work = pathlib.Path(tempfile.mkdtemp(prefix="parcae_corpus_"))
    try:
        for d in CORPUS:
            if only and d.folder not in only:
                continue
            deck = deck_to_run(d, decks_dir, work)
            entry = {"folder": d.folder, "main": d.main, "what": d.what,
                     "source": deck_source(decks_dir / d.folder),
                     "band": list(d.band), "band_reason": d.band_reason}
            if d.end_time:
                entry.update(end_time=d.end_time, end_reason=d.end_reason)
            if d.added_cards:
                entry.update(added_reason=d.added_reason)
            entry.update(check(parcae, deck))
            if entry["status"] == "runs":
                runs = {}
                for n in nps:
                    runs[str(n)] = run(parcae, deck, work / f"{d.folder}_np{n}", n, d.end_time)
                entry["runs"] = runs
                ok = all(r.get("exit") == 0 for r in runs.values())
                if ok and len(nps) > 1:
                    entry["glstat_identical"] = glstat_identical(
                        work / f"{d.folder}_np{nps[0]}", work / f"{d.folder}_np{nps[-1]}")
                if not ok:
                    entry["status"] = "stops"
            print(f"{d.folder}: {entry['status']}"
                  + (f" ({entry.get('reason', '')})" if entry["status"] == "refused" else ""),
                  file=sys.stderr)
            results.append(entry)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    from .bench import machine_metadata
    meta = machine_metadata()
    meta["date"] = time.strftime("%Y-%m-%d")
    return {"metadata": meta, "decks": results}


def deck_source(folder: pathlib.Path) -> str:
    """The repositories a corpus folder's files come from (its SOURCE.txt: "owner+name commit
    path -> file" lines, or "generated by ... from owner/name@commit ..."), as "owner/name, ..."."""
    text = (folder / "SOURCE.txt").read_text() if (folder / "SOURCE.txt").exists() else ""
    repos: List[str] = []
    for m in re.finditer(r"(?m)^([\w.-]+)\+([\w.-]+) [0-9a-f]{7,}|from ([\w.-]+/[\w.-]+)@", text):
        repo = m.group(3) or f"{m.group(1)}/{m.group(2)}"
        if repo not in repos:
            repos.append(repo)
    return ", ".join(repos)


def _fmt(v, spec: str) -> str:
    return "" if v is None else format(v, spec)


def render_table(data: dict) -> str:
    out = ["# Public-deck corpus", "",
           "<!-- Generated by `python -m parcae_tools.deck_corpus table` from "
           "bench/deck_corpus.json (written by `make corpus`). Do not edit by hand: "
           "python/tests/test_deck_corpus.py checks it. -->", "",
           "LS-DYNA decks written elsewhere (`../shared/decks`, sources in its SOURCES.md), run "
           "unmodified at LS-DYNA's defaults. Status: **runs** (checked, run to its end time at "
           "np = 1 and 2), **stops** (accepted, the run stops early), **refused** (the first "
           "problem `parcae check` reports: an unsupported feature, listed). Energy ratio: "
           "glstat's total energy over the initial energy at the end of the np = 1 run; np 1 = 2: "
           "glstat byte-identical at 1 and 2 ranks (but for its run-time line). Wall times are from one run on the machine "
           "below (noisy: 2 cores shared).", "",
           "| deck | source | what | elements | status | cycles | energy ratio (band) | np 1 = 2 | "
           "wall np 1 / 2 [s] | contact / (elements + nodal) |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for e in data["decks"]:
        elems = ""
        if e.get("status") != "refused":
            elems = f"{e.get('solids', 0)} solids, {e.get('shells', 0)} shells"
            if e.get("beams"):
                elems += f", {e['beams']} beams"
        runs = e.get("runs", {})
        r1, r2 = runs.get("1", {}), runs.get("2", {})
        status = e["status"]
        if status == "refused":
            status = f"refused: {e['reason']}"
        elif status == "stops":
            status = f"stops: {r1.get('error') or r2.get('error')}"
        elif e.get("end_time"):
            status = f"runs to {e['end_time']:g} (shortened: {e['end_reason']})"
        if e.get("added_reason"):
            status += f"; cards added: {e['added_reason']}"
        band = e.get("band", [None, None])
        ratio = ""
        if r1.get("energy_ratio") is not None:
            ratio = f"{r1['energy_ratio']:.6f} ({band[0]:g}-{band[1]:g})"
        share = r1.get("phase_share", {})
        contact = share.get("contact_search", 0) + share.get("contact_forces", 0)
        work = share.get("element_forces", 0) + share.get("nodal_update", 0)
        ratio_c = f"{contact / work:.2f}" if share and work > 0 and contact > 0 else ""
        ident = {True: "yes", False: "**no**"}.get(e.get("glstat_identical"), "")
        walls = " / ".join(_fmt(r.get("elapsed_s"), ".2f") for r in (r1, r2) if r)
        out.append(f"| `{e['folder']}/{e['main']}` | {e.get('source', '')} | {e['what']} | "
                   f"{elems} | {status} | "
                   f"{r1.get('cycles', '')} | {ratio} | {ident} | {walls} | {ratio_c} |")
    out += ["", "Energy bands and their reasons:", ""]
    for e in data["decks"]:
        if e.get("band_reason"):
            band = e.get("band", [None, None])
            out.append(f"- `{e['folder']}` ({band[0]:g}-{band[1]:g}): {e['band_reason']}")
    out += ["", "Keywords of each deck (as `parcae check` lists them):", ""]
    for e in data["decks"]:
        if e.get("keywords"):
            out.append(f"- `{e['folder']}`: " + ", ".join(f"`{k}`" for k in e["keywords"]))
    md = data.get("metadata", {})
    out += ["", f"Measured {md.get('date', '?')} on {md.get('cpu_model') or '?'} "
            f"({md.get('cores', '?')} cores), git {str(md.get('git_revision') or '?')[:10]}"
            + (f" (rerun of {', '.join(md['rerun_only'])}; the other rows are from the "
               "previous full run)" if md.get("rerun_only") else "") + "."]
    return "\n".join(out) + "\n"


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="parcae_tools.deck_corpus", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="check and run every corpus deck")
    r.add_argument("--parcae", required=True)
    r.add_argument("--decks", default=str(default_decks_dir()))
    r.add_argument("--json", required=True)
    r.add_argument("--table")
    r.add_argument("--only", nargs="*")
    t = sub.add_parser("table", help="render the Markdown table from the JSON")
    t.add_argument("--json", required=True)
    t.add_argument("--table", required=True)
    a = ap.parse_args(argv)
    if a.cmd == "run":
        decks = pathlib.Path(a.decks)
        if not (decks / "SOURCES.md").exists():
            print(f"deck_corpus: no corpus at {decks} (../shared/decks)", file=sys.stderr)
            return 2
        data = run_corpus(os.path.abspath(a.parcae), decks, only=a.only)
        old = pathlib.Path(a.json)
        if a.only and old.exists():
            # A partial rerun replaces those decks' entries and keeps the others (in corpus
            # order); the metadata says which decks were rerun.
            fresh = {e["folder"]: e for e in data["decks"]}
            kept = {e["folder"]: e for e in json.loads(old.read_text()).get("decks", [])}
            kept.update(fresh)
            data["decks"] = [kept[d.folder] for d in CORPUS if d.folder in kept]
            data["metadata"]["rerun_only"] = sorted(fresh)
        pathlib.Path(a.json).write_text(json.dumps(data, indent=1) + "\n")
        if a.table:
            pathlib.Path(a.table).write_text(render_table(data))
        return 0
    data = json.loads(pathlib.Path(a.json).read_text())
    pathlib.Path(a.table).write_text(render_table(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
