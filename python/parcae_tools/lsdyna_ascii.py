"""Read LS-DYNA ASCII time histories (matsum, nodout, rwforc, rcforc, sleout) and parcae's
history.csv.

The layouts are those LS-DYNA writes (and LSTC's binout-to-ASCII translator l2a reproduces);
parcae writes the same.  Every file starts with a title line and a program/date line, then an
optional legend::

    {BEGIN LEGEND}
     Entity #        Title
            1     plate
    {END LEGEND}

matsum, per state::

     time =   1.0000E-03
     mat.#=    1             inten=   1.2345E+00     kinen=   2.3456E+00
     x-mom=   1.0000E-01     y-mom=   0.0000E+00     z-mom=  -3.9250E-02
     x-rbv=   0.0000E+00     y-rbv=   0.0000E+00     z-rbv=   0.0000E+00
                             hgeng=   1.0000E-03     +mass=   0.0000E+00

(read as ``name= value`` pairs, so newer LS-DYNA versions with ``eroded_ie=`` and friends read
too).  nodout, per state, a header ``n o d a l   p r i n t   o u t   f o r   t i m e  s t e p
<cycle> ( at time <t> )``, a column header and one line per node: id, x/y/z displacement,
velocity, acceleration and coordinate; shell nodes add a second block with rotations,
rotational velocities and accelerations.  rwforc: a column header, then per state one line per
wall: time, wall#, normal force, x, y, z force.

rcforc, per state and contact interface, one line per side (LS-DYNA's words "slave" for the
secondary and "master" for the main side): the interface id, then ``name value`` pairs::

  slave           1 time  1.00000E-06  x -2.03000E+02  y  0.00000E+00  z  0.00000E+00  mass  0.00000E+00
  master          1 time  1.00000E-06  x  2.03000E+02  y  0.00000E+00  z  0.00000E+00  mass  0.00000E+00

(more pairs, e.g. moments in newer LS-DYNA versions, are read as well).  sleout, per state::

 time  1.00000E-06
  contact #     slave         master        frictional
         1    1.00000E-01    2.00000E-01    0.00000E+00
 summary       1.00000E-01    2.00000E-01    0.00000E+00

history.csv (parcae only): a header row, then one row per glstat state; columns ``cycle, time,
dt, dt_element_kind, dt_element, dt_part``, the glstat quantities (``kinetic``, ``internal``,
..., ``percent_mass_increase, nodes, elements``; not the measured time per zone cycle, so the
file is deterministic), then per part ``part<ID>_internal``,
``_kinetic``, ``_hourglass``, ``_xmom``, ``_ymom``, ``_zmom``, ``_xrbv``, ``_yrbv``, ``_zrbv``,
``_mass``, ``_added_mass`` and per rigid wall ``wall<ID>_normal``, ``_fx``, ``_fy``, ``_fz``.
"""

from __future__ import annotations

import csv
import re
from typing import Dict, List

__all__ = ["read_matsum", "read_nodout", "read_rwforc", "read_rcforc", "read_sleout",
           "read_history_csv", "read_legend"]

_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[EeDd][-+]?\d+)?")
_PAIR = re.compile(r"([A-Za-z+#._-]+)\s*=\s*([-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[EeDd][-+]?\d+)?)")

#: matsum "name=" -> column name.
MATSUM_NAMES: Dict[str, str] = {
    "inten": "internal",
    "kinen": "kinetic",
    "eroded_ie": "eroded_internal",
    "eroded_ke": "eroded_kinetic",
    "x-mom": "x_momentum",
    "y-mom": "y_momentum",
    "z-mom": "z_momentum",
    "x-rbv": "x_rbvelocity",
    "y-rbv": "y_rbvelocity",
    "z-rbv": "z_rbvelocity",
    "hgeng": "hourglass",
    "+mass": "added_mass",
    "eroded_he": "eroded_hourglass",
}

NODOUT_COLUMNS = ["x_displacement", "y_displacement", "z_displacement",
                  "x_velocity", "y_velocity", "z_velocity",
                  "x_acceleration", "y_acceleration", "z_acceleration",
                  "x_coordinate", "y_coordinate", "z_coordinate"]
NODOUT_ROT_COLUMNS = ["rx_displacement", "ry_displacement", "rz_displacement",
                      "rx_velocity", "ry_velocity", "rz_velocity",
                      "rx_acceleration", "ry_acceleration", "rz_acceleration"]
RWFORC_COLUMNS = ["normal_force", "x_force", "y_force", "z_force"]
#: rcforc "name value" -> column name (other names are kept as they are).
RCFORC_NAMES: Dict[str, str] = {"x": "x_force", "y": "y_force", "z": "z_force"}
SLEOUT_COLUMNS = ["slave", "master", "frictional"]


def _float(text: str) -> float:
    return float(text.replace("D", "E").replace("d", "e"))


def read_legend(lines: List[str]) -> Dict[int, str]:
    """The {BEGIN LEGEND} ... {END LEGEND} block: id -> title."""
    out: Dict[int, str] = {}
    inside = False
    for line in lines:
        if line.startswith("{BEGIN LEGEND"):
            inside = True
        elif line.startswith("{END LEGEND"):
            break
        elif inside:
            parts = line.split(None, 1)
            if parts and parts[0].lstrip("-").isdigit():
                out[int(parts[0])] = parts[1].strip() if len(parts) > 1 else ""
    return out


def _lines(path) -> List[str]:
    with open(path, "r", encoding="utf-8", errors="replace") as f:
        return f.read().splitlines()


def read_matsum(path) -> dict:
    """matsum -> {"time": [t...], "ids": [part ids], "legend": {id: title},
    "parts": {id: {"internal": [...], "kinetic": [...], "x_momentum": [...], ...}}}.
    A quantity missing from a state (e.g. +mass before mass scaling starts) reads as 0."""
    lines = _lines(path)
    times: List[float] = []
    states: List[Dict[int, Dict[str, float]]] = []
    part = None
    for line in lines:
        pairs = [(k, _float(v)) for k, v in _PAIR.findall(line)]
        if not pairs:
            continue
        names = dict(pairs)
        if "time" in names and line.lstrip().startswith("time ="):
            times.append(names["time"])
            states.append({})
            part = None
            continue
        if not states:
            continue
        if "mat.#" in names:
            part = int(names.pop("mat.#"))
            states[-1][part] = {}
        if part is None:
            continue
        for k, v in names.items():
            states[-1][part][MATSUM_NAMES.get(k, k)] = v
    ids: List[int] = []
    for s in states:
        for pid in s:
            if pid not in ids:
                ids.append(pid)
    parts: Dict[int, Dict[str, List[float]]] = {}
    for pid in ids:
        columns = sorted({k for s in states for k in s.get(pid, {})})
        parts[pid] = {c: [s.get(pid, {}).get(c, 0.0) for s in states] for c in columns}
    return {"time": times, "ids": ids, "legend": read_legend(lines), "parts": parts}


def read_nodout(path) -> dict:
    """nodout -> {"cycle": [...], "time": [...], "ids": [node ids], "nodes": {id: {column:
    [values per state]}}} with the columns of NODOUT_COLUMNS (and NODOUT_ROT_COLUMNS when the
    file has the rotation block)."""
    lines = _lines(path)
    cycles: List[int] = []
    times: List[float] = []
    states: List[Dict[int, Dict[str, float]]] = []
    mode = None
    for line in lines:
        if line.startswith(" n o d a l   p r i n t   o u t"):
            head, _, rest = line.partition("( at time")
            cycle = int(head.split()[-1])
            t = _float(_NUMBER.search(rest).group(0))
            if not times or times[-1] != t or cycles[-1] != cycle:
                cycles.append(cycle)
                times.append(t)
                states.append({})
            mode = None
            continue
        stripped = line.strip()
        if stripped.startswith("nodal point"):
            mode = NODOUT_ROT_COLUMNS if "x-rot" in stripped else NODOUT_COLUMNS
            continue
        if mode is None or not stripped:
            continue
        fields = line.split(None, 1)
        if not fields or not fields[0].lstrip("-").isdigit():
            continue
        values = [_float(v) for v in _NUMBER.findall(fields[1] if len(fields) > 1 else "")]
        if len(values) < len(mode):
            continue
        node = states[-1].setdefault(int(fields[0]), {})
        node.update(zip(mode, values[: len(mode)]))
    ids: List[int] = []
    for s in states:
        for nid in s:
            if nid not in ids:
                ids.append(nid)
    nodes = {}
    for nid in ids:
        columns = [c for c in NODOUT_COLUMNS + NODOUT_ROT_COLUMNS
                   if any(c in s.get(nid, {}) for s in states)]
        nodes[nid] = {c: [s.get(nid, {}).get(c, 0.0) for s in states] for c in columns}
    return {"cycle": cycles, "time": times, "ids": ids, "nodes": nodes,
            "legend": read_legend(lines)}


def read_rwforc(path) -> dict:
    """rwforc -> {"time": [...], "ids": [wall ids], "walls": {id: {"normal_force": [...],
    "x_force": [...], "y_force": [...], "z_force": [...]}}, "legend": {...}}.  Segment lines of
    walls with segments ("seg#", "total force") are skipped."""
    lines = _lines(path)
    times: List[float] = []
    walls: Dict[int, Dict[str, List[float]]] = {}
    data = False
    in_state: set = set()
    for line in lines:
        if "normal-force" in line and "wall#" in line:
            data = True
            continue
        if not data:
            continue
        tokens = line.split()
        if len(tokens) != 6 or not tokens[1].isdigit():
            continue
        t = _float(tokens[0])
        wid = int(tokens[1])
        if not times or times[-1] != t or wid in in_state:  # a new state
            times.append(t)
            in_state = set()
        in_state.add(wid)
        w = walls.setdefault(wid, {c: [] for c in RWFORC_COLUMNS})
        for c, v in zip(RWFORC_COLUMNS, tokens[2:]):
            w[c].append(_float(v))
    return {"time": times, "ids": list(walls), "walls": walls, "legend": read_legend(lines)}


_RCFORC_LINE = re.compile(r"^\s*(slave|master)\s+(\d+)\s+(.*)$")
_RCFORC_PAIR = re.compile(r"([A-Za-z_#]+)\s*[:=]?\s*(" + _NUMBER.pattern + r")")


def read_rcforc(path) -> dict:
    """rcforc -> {"time": [...], "ids": [interface ids], "interfaces": {id: {"time": [...],
    "slave": {"x_force": [...], "y_force": [...], "z_force": [...], "mass": [...]},
    "master": {...}}}, "legend": {...}}.  "time" lists each state once (the times of the first
    interface's lines; every interface is written at every state); per interface the times of
    its own lines.  "slave" is the resultant contact force on the secondary side, "master" the
    one on the main side."""
    lines = _lines(path)
    times: List[float] = []
    interfaces: Dict[int, dict] = {}
    first_id = None
    for line in lines:
        m = _RCFORC_LINE.match(line)
        if not m:
            continue
        side, cid = m.group(1), int(m.group(2))
        values = {}
        for k, v in _RCFORC_PAIR.findall(m.group(3)):
            values[RCFORC_NAMES.get(k.lower(), k.lower())] = _float(v)
        if "time" not in values:
            continue
        t = values.pop("time")
        ifc = interfaces.setdefault(cid, {"time": [], "slave": {}, "master": {}})
        cols = ifc[side]
        if first_id is None:
            first_id = cid
        if len(next(iter(cols.values()), [])) >= len(ifc["time"]):  # this side: a new state
            ifc["time"].append(t)
            if cid == first_id:
                times.append(t)
        for k, v in values.items():
            cols.setdefault(k, []).append(v)
    return {"time": times, "ids": list(interfaces), "interfaces": interfaces,
            "legend": read_legend(lines)}


def read_sleout(path) -> dict:
    """sleout -> {"time": [...], "ids": [interface ids], "interfaces": {id: {"slave": [...],
    "master": [...], "frictional": [...]}}, "summary": {"slave": [...], "master": [...],
    "frictional": [...]}, "legend": {...}}: the sliding energies of the secondary and main
    sides and the frictional energy per interface and state (0 for an interface absent from a
    state), and the summary line's totals."""
    lines = _lines(path)
    times: List[float] = []
    states: List[Dict[int, List[float]]] = []
    summary: Dict[str, List[float]] = {c: [] for c in SLEOUT_COLUMNS}
    for line in lines:
        tokens = line.split()
        if not tokens:
            continue
        if tokens[0] == "time" and len(tokens) >= 2 and _NUMBER.fullmatch(tokens[1]):
            times.append(_float(tokens[1]))
            states.append({})
            continue
        if not states:
            continue
        if tokens[0] == "summary":
            values = [_float(v) for v in tokens[1:4]]
            for c, v in zip(SLEOUT_COLUMNS, values + [0.0] * (3 - len(values))):
                summary[c].append(v)
            continue
        if tokens[0].isdigit() and len(tokens) >= 4 and all(_NUMBER.fullmatch(v)
                                                            for v in tokens[1:4]):
            states[-1][int(tokens[0])] = [_float(v) for v in tokens[1:4]]
    ids: List[int] = []
    for s in states:
        for cid in s:
            if cid not in ids:
                ids.append(cid)
    interfaces = {cid: {c: [s.get(cid, [0.0] * 3)[i] for s in states]
                        for i, c in enumerate(SLEOUT_COLUMNS)} for cid in ids}
    return {"time": times, "ids": ids, "interfaces": interfaces, "summary": summary,
            "legend": read_legend(lines)}


def read_history_csv(path) -> Dict[str, list]:
    """history.csv -> {column: [values per row]}: numbers as float (cycle, dt_element, dt_part,
    nodes, elements as int), dt_element_kind as str."""
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        cols: Dict[str, list] = {h: [] for h in header}
        for row in reader:
            if len(row) != len(header):
                raise ValueError(f"{path}: row with {len(row)} fields, header has {len(header)}")
            for h, v in zip(header, row):
                if h == "dt_element_kind":
                    cols[h].append(v)
                elif h in ("cycle", "dt_element", "dt_part", "nodes", "elements"):
                    cols[h].append(int(v))
                else:
                    cols[h].append(float(v))
    return cols
