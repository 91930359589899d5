"""Read glstat files in LS-DYNA's ASCII layout (as LS-DYNA and parcae write them).

The layout: a title line and a program/date line, then one block per output state::

     dt of cycle     201 is controlled by solid        42 of part         3

     time...........................   2.00000E-03
     kinetic energy.................   6.00000E+01
     stonewall energy...............   1.00000E+00 wall# 1
     ...
     time per zone cycle.(nanosec)..           250


     added mass.....................   1.00000E-01
     percentage increase............   5.26316E+00

Each quantity is a label padded with dots followed by its value.  Lines are matched by label,
not by position, so files from different LS-DYNA versions (which add or drop lines) read
the same way.
"""

from __future__ import annotations

import math
import re
from typing import Dict, List, Optional

__all__ = ["LABELS", "read_glstat", "read_glstat_states"]

#: glstat label (lower case, dots stripped) -> short column name.
LABELS: Dict[str, str] = {
    "time": "time",
    "time step": "dt",
    "kinetic energy": "kinetic",
    "internal energy": "internal",
    "stonewall energy": "rigidwall",
    "rigid body stopper energy": "rigid_body_stopper",
    "spring and damper energy": "spring_damper",
    "joint internal energy": "joint_internal",
    "hourglass energy": "hourglass",
    "system damping energy": "damping",
    "sliding interface energy": "sliding",
    "external work": "external_work",
    "eroded kinetic energy": "eroded_kinetic",
    "eroded internal energy": "eroded_internal",
    "eroded hourglass energy": "eroded_hourglass",
    "dissipated kinetic energy": "dissipated_kinetic",
    "dissipated internal energy": "dissipated_internal",
    "drilling energy": "drilling",
    "total energy": "total",
    "total energy / initial energy": "energy_ratio",
    "energy ratio w/o eroded energy": "energy_ratio_wo_eroded",
    "global x velocity": "vx",
    "global y velocity": "vy",
    "global z velocity": "vz",
    "time per zone cycle.(nanosec)": "time_per_zone_cycle_ns",
    "time per zone cycle (nanosec)": "time_per_zone_cycle_ns",
    "reached the minimum time step": "num_bad_shells",
    "added mass": "added_mass",
    "percentage increase": "percent_increase",
    "percent increase": "percent_increase",
    "number of nodes": "nodes",
    "number of elements": "elements",
}

_KNOWN_COLUMNS = frozenset(LABELS.values())

#: Columns LS-DYNA leaves out while they do not apply (no walls, no mass scaling, ...):
#: a state without the line reads as 0.  Any other missing value reads as NaN.
ZERO_WHEN_ABSENT = frozenset(
    {
        "rigidwall",
        "rigid_body_stopper",
        "spring_damper",
        "joint_internal",
        "hourglass",
        "damping",
        "sliding",
        "eroded_kinetic",
        "eroded_internal",
        "eroded_hourglass",
        "dissipated_kinetic",
        "dissipated_internal",
        "drilling",
        "added_mass",
        "percent_increase",
        "num_bad_shells",
    }
)

# " label.....   1.23450E+00[ wall# 1]": the label ends at the last run of dots before blanks
# and the value ("time per zone cycle.(nanosec).." keeps its inner dot).
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eEdD]?[-+]\d+)?|[-+]?(?:nan|NaN|NAN|inf|Inf|INF|infinity)|\*+"
_VALUE_LINE = re.compile(
    r"^\s*(?P<label>[A-Za-z][^\n]*?)\s*\.+\s+(?P<value>" + _NUMBER + r")(?P<rest>.*)$"
)
_WALL = re.compile(r"wall#\s*(\d+)")
_DT_LINE = re.compile(r"^\s*dt of cycle\s*(?P<cycle>\d+)\s+is controlled by\s*(?P<rest>.*)$")
_DT_ELEMENT = re.compile(
    r"^(?P<kind>[A-Za-z][\w\- ]*?)\s*(?:element)?\s+(?P<elem>\d+)(?:\s+of part\s+(?P<part>\d+))?"
)


def _to_float(text: str) -> float:
    text = text.strip()
    if not text or text.startswith("*"):  # Fortran overflow: field full of asterisks
        return math.nan
    t = text.replace("D", "E").replace("d", "e")
    try:
        return float(t)
    except ValueError:
        pass
    # Fortran drops the 'E' for three-digit exponents: 1.00000+100
    m = re.match(r"^([-+]?\d*\.?\d*)([-+]\d+)$", t)
    if m:
        return float(m.group(1) + "E" + m.group(2))
    return math.nan


def _normalize_label(label: str) -> str:
    label = label.strip().lower().rstrip(". ")
    return re.sub(r"\s+", " ", label)


def _column_name(label: str) -> str:
    if label in LABELS:
        return LABELS[label]
    return re.sub(r"[^a-z0-9]+", "_", label).strip("_")


def read_glstat_states(path) -> List[dict]:
    """One dict per state: column name -> value (floats), plus 'dt_element_kind' (a string,
    '' when unknown) from the "dt of cycle" line.  Stonewall energies are summed into
    'rigidwall' and kept per wall as 'rigidwall_<n>'."""
    states: List[dict] = []
    cur: Optional[dict] = None

    def new_state() -> dict:
        s = {"dt_element_kind": ""}
        states.append(s)
        return s

    with open(path, "r", encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    for line in lines:
        if not line.strip():
            continue
        m = _DT_LINE.match(line)
        if m:
            cur = new_state()
            cur["cycle"] = float(m.group("cycle"))
            rest = m.group("rest").strip()
            e = _DT_ELEMENT.match(rest)
            if e:
                cur["dt_element_kind"] = e.group("kind").strip()
                cur["dt_element"] = float(e.group("elem"))
                if e.group("part"):
                    cur["dt_part"] = float(e.group("part"))
            else:
                cur["dt_element_kind"] = rest  # "load curve", "dt2ms", ...
            continue
        m = _VALUE_LINE.match(line)
        if not m:
            continue
        key = _column_name(_normalize_label(m.group("label")))
        value = _to_float(m.group("value"))
        if cur is None and key not in _KNOWN_COLUMNS:
            continue  # header text before the first state
        if cur is None or (key == "time" and "time" in cur):
            # a file without "dt of cycle" lines: a new state starts at each "time" line
            cur = new_state()
        if key == "rigidwall":
            w = _WALL.search(m.group("rest"))
            if w:
                cur["rigidwall_" + w.group(1)] = value
            cur["rigidwall"] = cur.get("rigidwall", 0.0) + value
        else:
            cur[key] = value
    return [s for s in states if len(s) > 1]


def read_glstat(path, as_numpy: bool = False) -> Dict[str, list]:
    """Read a glstat file into columns: short name -> one value per state.

    Names: cycle, time, dt, dt_element, dt_part, kinetic, internal, rigidwall (stonewall
    energy, all walls), spring_damper, hourglass, damping, sliding, external_work,
    eroded_kinetic, eroded_internal, eroded_hourglass, total, energy_ratio
    ("total energy / initial energy"), energy_ratio_wo_eroded, vx, vy, vz,
    time_per_zone_cycle_ns, added_mass, percent_increase, ... (see LABELS; an unknown label
    becomes its words joined by '_').  Only columns present in the file appear.  A state that
    lacks a line reads 0 for terms LS-DYNA omits while they do not apply (walls, mass scaling,
    ...) and NaN otherwise.  as_numpy=True returns numpy arrays (needs numpy).
    """
    states = read_glstat_states(path)
    seen: List[str] = []
    for s in states:
        for k in s:
            if k != "dt_element_kind" and k not in seen:
                seen.append(k)
    # LS-DYNA's order first (a column that starts late, like added mass, keeps its place),
    # then anything else in the order it appeared.
    canonical = ["cycle", "dt_element", "dt_part"] + list(dict.fromkeys(LABELS.values()))
    keys: List[str] = []
    for k in canonical:
        if k in seen:
            keys.append(k)
            if k == "rigidwall":
                keys.extend(sorted((w for w in seen if w.startswith("rigidwall_")),
                                   key=lambda w: int(w.split("_")[1])))
    keys.extend(k for k in seen if k not in keys)
    cols: Dict[str, list] = {}
    for k in keys:
        base = k.split("_")[0] if k.startswith("rigidwall_") else k
        missing = 0.0 if base in ZERO_WHEN_ABSENT else math.nan
        cols[k] = [float(s.get(k, missing)) for s in states]
    if as_numpy:
        import numpy as np

        return {k: np.asarray(v, dtype=float) for k, v in cols.items()}
    return cols
