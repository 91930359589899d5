"""Vehicle-class crash models: ``parcae generate crash --class neon|3cars|car2car``.

The standard LS-DYNA cluster benchmarks (neon_refined_revised, 3cars, car2car) are not public.
This module writes ordinary keyword decks with their character, so that contact search, set-up,
memory, output and decomposition are measured at the size clusters are bought for:

* a body in white of thin-walled parts (Belytschko-Tsay shells, ``*MAT_024`` steels with Swift
  hardening curves, 0.7-2.5 mm): bumper beam, front rails with crash boxes (with folding
  triggers), shotguns, firewall, floor, tunnel, sills, cross members, body sides with window
  openings, B-pillar reinforcements, roof and roof bows, rear panel and rear bumper, hood,
  fenders and a windshield (elastic glass);
* closed sections are hat profiles with a closing plate, or hats on a panel, joined by beam
  spot welds (``*MAT_SPOTWELD``, ELFORM 9) at a 40 mm pitch, tied to the sheets by
  ``*CONTACT_SPOTWELD``; rail ends are tied to the bumper and the firewall
  (``*CONTACT_TIED_SHELL_EDGE_TO_SURFACE``); panels that meet share nodes;
* a rigid engine block of hexahedra (``*MAT_RIGID``) on four elastic beam mounts, lumped masses
  (``*ELEMENT_MASS``: occupants, seats, fuel, trim) up to the vehicle's kerb mass;
* one ``*CONTACT_AUTOMATIC_SINGLE_SURFACE`` per vehicle and an
  ``*CONTACT_AUTOMATIC_SURFACE_TO_SURFACE`` between vehicles that strike each other;
* neon: one car into a rigid wall (``*RIGIDWALL_PLANAR``) at 56 km/h, 30 ms; 3cars: a van
  into the rear of a compact car, pushed into the rear of a mid-size car, 150 ms; car2car: two
  cars head-on with a 20 % width offset, each at 56 km/h, 120 ms.

Panels are meshed on a lattice of spacing ``h`` (every design coordinate is snapped to it), so
panels that meet share their nodes after a merge of coincident nodes. ``h`` is chosen so the
element count (shells + solids + beams) hits the class's target (neon 535,000, 3cars 794,000,
car2car 2,400,000; ``--elements N`` for any other), which gives a shell step of about 1 us at
the neon size. Spot-weld beams and the few short elements get mass by ``*CONTROL_TIMESTEP``
DT2MS < 0 (mass scaling of the elements below the lattice step only, as vehicle decks do).

The deck is deterministic for a given seed (the seed moves the weld positions by up to 10 % of
the pitch, varies the gauges between parts and the crash-box trigger depths). Only keywords that
OpenRadioss's LS-DYNA reader also lists are written. Units: t, mm, s, N, MPa.

    parcae generate crash --class neon [--elements N] [--seed S] [--end-time T] -o DIR
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

__all__ = ["CLASSES", "VehicleModel", "build_model", "write_deck", "main"]

V56 = 56.0 / 3.6 * 1000.0  # 56 km/h in mm/s

# class: (target elements, end time s, vehicles, description)
CLASSES = {
    "neon": (535_000, 0.030, "one car into a rigid wall at 56 km/h"),
    "3cars": (794_000, 0.150, "a van into the rear of a compact car, pushed into a mid-size car"),
    "car2car": (2_400_000, 0.120, "two cars head-on, 20 % width offset, each at 56 km/h"),
}

# Steels: (mid, name, density, E, nu, yield, Swift K, Swift n)
STEELS = [(1, "mild steel DC04", 7.85e-9, 210000.0, 0.3, 160.0, 550.0, 0.23),
          (2, "HSLA 340", 7.85e-9, 210000.0, 0.3, 340.0, 700.0, 0.15),
          (3, "dual phase DP600", 7.85e-9, 210000.0, 0.3, 380.0, 1000.0, 0.17)]
MID_GLASS, MID_ENGINE, MID_WELD, MID_MOUNT = 4, 5, 6, 7
STEEL_C = math.sqrt(210000.0 / (7.85e-9 * (1.0 - 0.09)))  # plane-stress wave speed, mm/s


def _gap(t1: float, t2: float) -> float:
    """Mid-surface distance of two welded sheets: half their gauges and 0.3 mm (no initial
    penetration of the contact thicknesses)."""
    return 0.5 * (t1 + t2) + 0.3


def snap(v: float, h: float) -> float:
    return round(v / h) * h


@dataclass
class Part:
    pid: int
    name: str
    kind: str          # shell | solid | weld | mount
    mid: int
    thickness: float = 0.0
    vehicle: int = 0
    contact: bool = True


@dataclass
class Vehicle:
    index: int
    name: str
    scale: float            # geometric scale of the mid-size car
    direction: float        # -1: front at low x (moving -x); +1: mirrored
    x_front: float          # x of the front bumper face
    y_offset: float
    velocity: float         # vx, mm/s
    mass: float             # kerb + occupants, t
    part_ids: List[int] = field(default_factory=list)
    node_range: Tuple[int, int] = (0, 0)


@dataclass
class VehicleModel:
    cls: str
    h: float
    seed: int
    end_time: float
    vehicles: List[Vehicle]
    coords: np.ndarray                   # (n, 3)
    shells: np.ndarray                   # (m, 5): pid, n1..n4 (1-based node ids)
    solids: np.ndarray                   # (k, 9): pid, n1..n8
    beams: np.ndarray                    # (b, 3): pid, n1, n2
    masses: np.ndarray                   # (q, 2): node id, mass
    parts: Dict[int, Part]
    edge_ties: List[Tuple[np.ndarray, List[int]]]   # (node ids, target part ids)
    rigid_wall: bool
    dt_target: float

    def counts(self) -> Dict[str, int]:
        return {"nodes": int(len(self.coords)), "shells": int(len(self.shells)),
                "solids": int(len(self.solids)), "beams": int(len(self.beams)),
                "elements": int(len(self.shells) + len(self.solids) + len(self.beams)),
                "parts": len(self.parts), "masses": int(len(self.masses)),
                "welds": int(sum(1 for b in self.beams if self.parts[int(b[0])].kind == "weld"))}


class _Builder:
    """Accumulates one vehicle's mesh in design coordinates (front at x = 0, x rearward)."""

    def __init__(self, h: float, rng: np.random.Generator, first_pid: int, vehicle: int):
        self.h = h
        self.rng = rng
        self.vehicle = vehicle
        self.coords: List[np.ndarray] = []
        self.mergeable: List[np.ndarray] = []
        self.n = 0
        self.shells: List[np.ndarray] = []
        self.solids: List[np.ndarray] = []
        self.beams: List[np.ndarray] = []
        self.masses: List[Tuple[np.ndarray, float]] = []
        self.parts: Dict[int, Part] = {}
        self.next_pid = first_pid
        self.edge_ties: List[Tuple[np.ndarray, List[int]]] = []
        self.panels: Dict[str, List[int]] = {}
        self.rail_plate_nodes: List[np.ndarray] = []
        self.engine_volume = 1.0

    # -- primitives -------------------------------------------------------------------------
    def part(self, name: str, kind: str, mid: int, t: float = 0.0, contact: bool = True) -> int:
        pid = self.next_pid
        self.next_pid += 1
        self.parts[pid] = Part(pid, name, kind, mid, t, self.vehicle, contact)
        return pid

    def nodes(self, x: np.ndarray, mergeable: bool = True) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        ids = np.arange(self.n, self.n + x[..., 0].size).reshape(x.shape[:-1])
        self.coords.append(x.reshape(-1, 3))
        self.mergeable.append(np.full(x[..., 0].size, mergeable))
        self.n += x[..., 0].size
        return ids

    def grid(self, x: np.ndarray, pids: np.ndarray, keep: Optional[np.ndarray] = None,
             mergeable: bool = True) -> np.ndarray:
        """Quads over a (nu+1, nv+1, 3) node grid; pids (nu, nv) per cell; keep masks cells."""
        ids = self.nodes(x, mergeable)
        conn = np.stack([ids[:-1, :-1], ids[1:, :-1], ids[1:, 1:], ids[:-1, 1:]], axis=-1)
        rows = np.concatenate([pids[..., None], conn], axis=-1).reshape(-1, 5)
        if keep is not None:
            rows = rows[keep.reshape(-1)]
        self.shells.append(rows)
        return ids

    def divisions(self, length: float) -> int:
        return max(1, int(round(length / self.h)))

    def tile_parts(self, name: str, mid: int, t: float, nu: int, nv: int, lu: float,
                   lv: float, tile: float = 320.0) -> np.ndarray:
        """Split a panel of nu x nv cells (lu x lv mm) into parts of about tile x tile mm,
        each with the panel's gauge or one step either side (tailored blanks)."""
        cu = max(1, int(round(lu / tile)))
        cv = max(1, int(round(lv / tile)))
        gauges = [t, t, round(t * 1.15, 2), round(t * 0.9, 2)]
        table = np.zeros((cu, cv), dtype=np.int64)
        for a in range(cu):
            for b in range(cv):
                g = gauges[int(self.rng.integers(len(gauges)))]
                table[a, b] = self.part(f"{name} {a + 1}.{b + 1}", "shell", mid, g)
        iu = np.minimum((np.arange(nu) * cu) // nu, cu - 1)
        iv = np.minimum((np.arange(nv) * cv) // nv, cv - 1)
        pids = table[iu[:, None], iv[None, :]]
        self.panels.setdefault(name, []).extend(int(p) for p in table.reshape(-1))
        return pids

    def panel(self, name: str, mid: int, t: float, p0, p1, p3,
              holes: Sequence[Tuple[Tuple[float, float], Tuple[float, float]]] = ()) -> np.ndarray:
        """A flat quadrilateral panel P0 + u (P1 - P0) + v (P3 - P0); holes in (u, v) mm."""
        p0, p1, p3 = (np.asarray(p, dtype=float) for p in (p0, p1, p3))
        lu, lv = np.linalg.norm(p1 - p0), np.linalg.norm(p3 - p0)
        nu, nv = self.divisions(lu), self.divisions(lv)
        u = np.linspace(0.0, 1.0, nu + 1)
        v = np.linspace(0.0, 1.0, nv + 1)
        x = p0 + u[:, None, None] * (p1 - p0) + v[None, :, None] * (p3 - p0)
        pids = self.tile_parts(name, mid, t, nu, nv, lu, lv)
        keep = None
        if holes:
            uc = (u[:-1] + u[1:]) / 2 * lu
            vc = (v[:-1] + v[1:]) / 2 * lv
            keep = np.ones((nu, nv), dtype=bool)
            for (ua, ub), (va, vb) in holes:
                keep &= ~((uc[:, None] > ua) & (uc[:, None] < ub) & (vc[None, :] > va)
                          & (vc[None, :] < vb))
        return self.grid(x, pids, keep)

    def profile_points(self, pts: Sequence[Tuple[float, float]]) -> np.ndarray:
        out = [np.asarray(pts[0], dtype=float)]
        for a, b in zip(pts[:-1], pts[1:]):
            a, b = np.asarray(a, float), np.asarray(b, float)
            n = max(1, int(round(np.linalg.norm(b - a) / self.h)))
            for k in range(1, n + 1):
                out.append(a + (b - a) * k / n)
        return np.array(out)

    def member(self, name: str, mid: int, t: float, p0, axis, up, length: float,
               w: float, d: float, f: float, plate_t: Optional[float] = None,
               base_t: float = 0.0, segment: float = 400.0, welds: bool = True,
               crash_box: float = 0.0, box_t: float = 0.0, end_ties=(None, None),
               plate_len: Optional[float] = None, plate_end_tie=None):
        """A hat section swept along `axis` from p0: flanges in the plane through p0 normal to
        `up`, the hat rising along +up. With plate_t, a closing plate below the flanges (its
        mid-surface at the flange gap); otherwise the flanges sit on a panel of gauge base_t
        whose mid-surface passes through p0 - gap up. Spot welds join flanges to the plate or
        panel. crash_box: the first mm are their own parts (gauge box_t) with two triggers.
        end_ties: (parts or None) that the start and end edges are tied to. plate_len: the
        plate stops there (beyond it the flanges are welded to a panel at the plate's height),
        its end edge tied to plate_end_tie."""
        h = self.h
        f = max(f, h)  # flanges at least one element wide (coarse models)
        p0, axis, up = (np.asarray(v, dtype=float) for v in (p0, axis, up))
        axis /= np.linalg.norm(axis)
        up /= np.linalg.norm(up)
        side = np.cross(up, axis)
        lower_t = plate_t if plate_t is not None else base_t
        gap = _gap(t, lower_t)
        hat = self.profile_points([(-w / 2 - f, 0.0), (-w / 2, 0.0), (-w / 2, d), (w / 2, d),
                                   (w / 2, 0.0), (w / 2 + f, 0.0)])
        # axial stations: breaks at the crash box's end and the plate's end
        breaks = sorted({0.0, length, *(b for b in (crash_box, plate_len)
                                       if b is not None and 0.0 < b < length)})
        s = np.concatenate([[0.0]] + [np.linspace(a, b, self.divisions(b - a) + 1)[1:]
                                      for a, b in zip(breaks[:-1], breaks[1:])])
        n_ax = len(s) - 1
        # Parts along the axis: the crash box, then segments of about `segment` mm.
        edges = [0.0] + ([crash_box] if crash_box > 0 else [])
        rest0 = edges[-1]
        nseg = max(1, int(round((length - rest0) / segment)))
        edges += [rest0 + (length - rest0) * k / nseg for k in range(1, nseg + 1)]
        sc = (s[:-1] + s[1:]) / 2
        seg = np.searchsorted(np.array(edges[1:-1]), sc, side="right")

        def sweep(profile: np.ndarray, offset: float) -> np.ndarray:
            return (p0 + s[:, None, None] * axis + profile[None, :, 0, None] * side
                    + (profile[None, :, 1, None] + offset) * up)

        gauges = [t, round(t * 1.1, 2), round(t * 0.9, 2)]
        hat_parts = []
        for k in range(len(edges) - 1):
            if crash_box > 0 and k == 0:
                hat_parts.append(self.part(f"{name} crash box", "shell", 1, box_t))
            else:
                hat_parts.append(self.part(f"{name} {k}", "shell", mid,
                                           gauges[int(self.rng.integers(3))]))
        xh = sweep(hat, 0.0)
        if crash_box > 0:  # triggers: dents on the hat top and walls at 1/3 and 2/3 of the box
            for frac, sign in ((1 / 3, -1.0), (2 / 3, 1.0)):
                i = int(np.argmin(np.abs(s - frac * crash_box)))
                depth = 2.0 + float(self.rng.uniform(-0.3, 0.3))
                top = np.abs(hat[:, 1] - d) < 1e-9
                walls = (np.abs(np.abs(hat[:, 0]) - w / 2) < 1e-9) & (hat[:, 1] > 1e-9)
                xh[i, top] -= depth * up
                xh[i, walls] += sign * depth * np.outer(np.sign(hat[walls, 0]), side)
        pid_hat = np.repeat(np.array(hat_parts)[seg][:, None], len(hat) - 1, axis=1)
        ids_hat = self.grid(xh, pid_hat, mergeable=False)
        ends = [ids_hat[0], ids_hat[-1]]
        lower_parts: List[int] = []
        plate_end = None
        if plate_t is not None:
            plate = self.profile_points([(-w / 2 - f, -gap), (w / 2 + f, -gap)])
            for k in range(len(edges) - 1):
                lower_parts.append(self.part(f"{name} plate {k}", "shell", mid,
                                             box_t if (crash_box > 0 and k == 0) else plate_t))
            ip = n_ax if plate_len is None else int(np.argmin(np.abs(s - plate_len)))
            pid_pl = np.repeat(np.array(lower_parts)[seg[:ip]][:, None], len(plate) - 1, axis=1)
            ids_pl = self.grid(sweep(plate, 0.0)[:ip + 1], pid_pl, mergeable=False)
            if name.startswith("front rail"):
                self.rail_plate_nodes.append(ids_pl.reshape(-1))
            if ip == n_ax:
                ends[1] = np.concatenate([ends[1], ids_pl[-1]])
            elif plate_end_tie:
                self.edge_ties.append((ids_pl[-1], list(plate_end_tie)))
                plate_end = s[ip]
            ends[0] = np.concatenate([ends[0], ids_pl[0]])
        for e, target in zip(ends, end_ties):
            if target:
                self.edge_ties.append((e, list(target)))
        if welds:
            pitch = 40.0
            nw = max(1, int(length // pitch))
            for sgn in (-1.0, 1.0):
                jitter = self.rng.uniform(-0.1, 0.1, nw) * pitch
                # welds stay 1.5 h from the member's ends: the end edges may be tied, and a
                # node tied by one constraint may not be a segment node of another
                sw = (np.arange(nw) + 0.5) * length / nw + jitter
                sw = sw[(sw > 1.5 * h) & (sw < length - 1.5 * h)]
                if plate_end is not None:
                    sw = sw[np.abs(sw - plate_end) > 1.5 * h]
                nw_k = len(sw)
                if nw_k == 0:
                    continue
                a = p0 + sw[:, None] * axis + sgn * (w / 2 + f / 2) * side
                b = a - gap * up
                ia = self.nodes(a, mergeable=False)
                ib = self.nodes(b, mergeable=False)
                self.beams.append(np.stack([np.full(nw_k, -MID_WELD), ia, ib], axis=1))
        return hat_parts + lower_parts

    # -- the vehicle ------------------------------------------------------------------------
    def build(self, scale: float) -> None:
        h = self.h
        S = lambda v: snap(v * scale, h)  # noqa: E731
        x_fw, x_rear = S(1000.0), S(3600.0)
        y_side, z_floor, z_belt, z_roof = S(750.0), S(250.0), S(850.0), S(1300.0)
        z_fw_top, x_roof0, x_roof1 = S(1000.0), S(1600.0), S(3300.0)
        x_b = S(2300.0)
        t_b = 1.0
        # front rails: hats hanging under the floor plane (flanges horizontal), closed by a
        # plate in that plane up to the firewall (its end edge tied to the firewall, which
        # reaches below the floor), then welded to the floor up to x = 1400; the first 180 mm
        # are the crash boxes. The bumper beam (a hat along y, rising forward, its plate
        # behind) carries the rails' front edges (tied).
        rail_y, rail_w, rail_d, rail_f = 450.0 * scale, 80.0, 80.0, 20.0
        g_rail = _gap(2.0, 1.8)
        bumper_flange_x = 80.0 * scale
        bumper_plate_x = bumper_flange_x + _gap(1.8, 1.5)
        z_bumper = z_floor - g_rail - rail_d / 2
        bumper = self.member("bumper beam", 3, 1.8, (bumper_flange_x, -700.0 * scale, z_bumper),
                             (0, 1, 0), (-1, 0, 0), 1400.0 * scale, 120.0, 60.0, 25.0,
                             plate_t=1.5)
        bumper_plate = [p for p in bumper if "plate" in self.parts[p].name]
        # panels (shared nodes where they meet)
        z_fw_bot = z_floor - S(150.0)
        half = rail_w / 2 + max(rail_f, h) + 0.5 * h  # the rail's flanges pass through
        rail_holes = [((sgn * rail_y - half + y_side, sgn * rail_y + half + y_side),
                       (-1.0, z_floor - z_fw_bot)) for sgn in (-1.0, 1.0)]
        self.panel("firewall", 1, 1.0, (x_fw, -y_side, z_fw_bot), (x_fw, y_side, z_fw_bot),
                   (x_fw, -y_side, z_fw_top), holes=rail_holes)
        fw_parts = self.panels["firewall"]
        for sgn in (-1.0, 1.0):
            lab = "left" if sgn > 0 else "right"
            self.member(f"front rail {lab}", 3, 2.0, (bumper_plate_x, sgn * rail_y,
                                                      z_floor - g_rail), (1, 0, 0), (0, 0, -1),
                        S(1400.0) - bumper_plate_x, rail_w, rail_d, rail_f, plate_t=1.8,
                        crash_box=180.0 * scale, box_t=1.4, end_ties=(bumper_plate, None),
                        plate_len=x_fw - bumper_plate_x, plate_end_tie=fw_parts)
        self.rail_y = rail_y
        self.z_floor = z_floor
        self.panel("floor", 1, 0.8, (x_fw, -y_side, z_floor), (x_rear, -y_side, z_floor),
                   (x_fw, y_side, z_floor))
        self.panel("rear panel", 1, 0.8, (x_rear, -y_side, z_floor), (x_rear, y_side, z_floor),
                   (x_rear, -y_side, z_fw_top))
        win = ((S(300.0), x_b - x_fw - S(60.0)), (z_belt - z_floor, z_roof - z_floor - S(60.0)))
        win2 = ((x_b - x_fw + S(80.0), x_rear - x_fw - S(300.0)),
                (z_belt - z_floor, z_roof - z_floor - S(60.0)))
        for sgn, label in ((-1.0, "right"), (1.0, "left")):
            self.panel(f"body side {label}", 1, 0.8, (x_fw, sgn * y_side, z_floor),
                       (x_rear, sgn * y_side, z_floor), (x_fw, sgn * y_side, z_roof),
                       holes=(win, win2))
            self.panel(f"fender {label}", 1, 0.7, (S(100.0), sgn * y_side, S(450.0)),
                       (x_fw, sgn * y_side, S(450.0)), (S(100.0), sgn * y_side, z_belt))
        self.panel("roof", 1, 0.7, (x_roof0, -y_side, z_roof), (x_roof1, -y_side, z_roof),
                   (x_roof0, y_side, z_roof))
        self.panel("hood", 1, 0.7, (S(100.0), -y_side, z_belt), (x_fw, -y_side, z_belt),
                   (S(100.0), y_side, z_belt))
        # the windshield stops one lattice step inside the body sides (its edges would lie in
        # their plane, an initial penetration)
        self.panel("windshield", MID_GLASS, 4.8, (x_fw, -y_side + h, z_fw_top),
                   (x_roof0, -y_side + h, z_roof), (x_fw, y_side - h, z_fw_top))
        # members on panels and closed members
        for sgn in (-1.0, 1.0):
            lab = "left" if sgn > 0 else "right"
            y_gun = min(650.0 * scale, y_side - 30.0 - max(15.0, h) - 20.0)  # inside the body
            self.member(f"shotgun {lab}", 2, 1.4, (S(250.0), sgn * y_gun, S(760.0)),
                        (1, 0, 0), (0, 0, 1), x_fw - S(250.0), 60.0, 50.0, 15.0, plate_t=1.2,
                        end_ties=(None, fw_parts))
            bs = self.panels[f"body side {lab}"]
            gap = 0.5 * (1.6 + 0.8) + 0.3
            self.member(f"sill {lab}", 3, 1.6, (x_fw, sgn * (y_side + gap), S(330.0)),
                        (1, 0, 0), (0, sgn, 0), x_rear - x_fw, 100.0, 70.0, 20.0, base_t=0.8)
            gap = 0.5 * (1.8 + 0.8) + 0.3
            self.member(f"B-pillar {lab}", 3, 1.8, (x_b, sgn * (y_side - gap), S(420.0)),
                        (0, 0, 1), (0, -sgn, 0), z_roof - S(60.0) - S(420.0), 90.0, 50.0, 20.0,
                        base_t=0.8)
            gap = 0.5 * (1.5 + 0.8) + 0.3
            self.member(f"rear rail {lab}", 2, 1.5, (S(2800.0), sgn * rail_y, z_floor - gap),
                        (1, 0, 0), (0, 0, -1), x_rear - S(2800.0), 90.0, 70.0, 20.0, base_t=0.8)
        for k, xc in enumerate((1500.0, 2300.0, 3100.0)):
            gap = 0.5 * (1.5 + 0.8) + 0.3
            self.member(f"cross member {k + 1}", 2, 1.5, (S(xc), -y_side + 20.0, z_floor - gap),
                        (0, 1, 0), (0, 0, -1), 2 * y_side - 40.0, 80.0, 60.0, 20.0, base_t=0.8)
        for k, xc in enumerate((1950.0, 2750.0)):
            gap = 0.5 * (1.2 + 0.7) + 0.3
            self.member(f"roof bow {k + 1}", 2, 1.2, (S(xc), -y_side + 40.0, z_roof - gap),
                        (0, 1, 0), (0, 0, -1), 2 * y_side - 80.0, 60.0, 30.0, 15.0, base_t=0.7)
        gap = 0.5 * (1.2 + 0.8) + 0.3
        self.member("tunnel", 1, 1.2, (x_fw, 0.0, z_floor + gap), (1, 0, 0), (0, 0, 1),
                    S(2800.0) - x_fw, 160.0, 150.0, 25.0, base_t=0.8)
        gap = 0.5 * (1.8 + 0.8) + 0.3
        self.member("rear bumper", 3, 1.8, (x_rear + gap, -650.0 * scale, S(450.0)), (0, 1, 0),
                    (1, 0, 0), 1300.0 * scale, 110.0, 60.0, 20.0, base_t=0.8)

    def engine(self, scale: float) -> None:
        """Rigid engine block of hexahedra (about 4h) between the rails, on four elastic beam
        mounts that end on nodes of the rails' closing plates."""
        x0, x1 = 250.0 * scale, 750.0 * scale
        y0, y1 = -300.0 * scale, 300.0 * scale
        z0, z1 = self.z_floor + 30.0, self.z_floor + 30.0 + 380.0 * scale
        e = 4.0 * self.h
        nx, ny, nz = (max(2, int(round((b - a) / e))) for a, b in ((x0, x1), (y0, y1), (z0, z1)))
        gx, gy, gz = (np.linspace(a, b, n + 1) for a, b, n in ((x0, x1, nx), (y0, y1, ny),
                                                               (z0, z1, nz)))
        x = np.stack(np.meshgrid(gx, gy, gz, indexing="ij"), axis=-1)
        ids = self.nodes(x, mergeable=False)
        pid = self.part("engine block", "solid", MID_ENGINE)
        c = [ids[:-1, :-1, :-1], ids[1:, :-1, :-1], ids[1:, 1:, :-1], ids[:-1, 1:, :-1],
             ids[:-1, :-1, 1:], ids[1:, :-1, 1:], ids[1:, 1:, 1:], ids[:-1, 1:, 1:]]
        conn = np.stack(c, axis=-1).reshape(-1, 8)
        self.solids.append(np.concatenate([np.full((len(conn), 1), pid), conn], axis=1))
        self.engine_volume = (x1 - x0) * (y1 - y0) * (z1 - z0)
        mount = self.part("engine mounts", "mount", MID_MOUNT, contact=False)
        plate = np.concatenate(self.rail_plate_nodes)
        xall = np.concatenate(self.coords)
        for j in (0, ny):
            for i in (1, nx - 1):
                a = ids[i, j, 0]
                want = np.array([xall[a][0], np.sign(xall[a][1]) * self.rail_y, self.z_floor])
                b = plate[np.argmin(np.linalg.norm(xall[plate] - want, axis=1))]
                self.beams.append(np.array([[mount, a, b]]))


def _layout(cls: str) -> List[Tuple[str, float, float, float]]:
    """(name, geometric scale, velocity vx mm/s, mass t) per vehicle."""
    if cls == "neon":
        return [("car", 1.0, -V56, 1.25)]
    if cls == "3cars":  # listed front to back: the van at the back strikes the compact car
        return [("mid-size car", 1.0, 0.0, 1.35), ("compact car", 0.9, 0.0, 1.1),
                ("van", 1.15, -V56, 1.9)]
    if cls == "car2car":
        return [("car A", 1.0, -V56, 1.35), ("car B", 1.0, V56, 1.35)]
    raise ValueError(f"unknown class {cls!r} (neon, 3cars or car2car)")


def _build_vehicle(h: float, rng, first_pid: int, index: int, scale: float) -> _Builder:
    b = _Builder(h, rng, first_pid, index)
    b.build(scale)
    b.engine(scale)
    b.part("spot welds", "weld", MID_WELD, contact=False)
    return b


def _count(layout, h: float, seed: int) -> int:
    n = 0
    for k, (_, scale, _, _) in enumerate(layout):
        b = _build_vehicle(h, np.random.default_rng(seed + k), 1, k, scale)
        n += sum(len(s) for s in b.shells) + sum(len(s) for s in b.solids)
        n += sum(len(s) for s in b.beams)
    return n


def build_model(cls: str = "neon", elements: Optional[int] = None, seed: int = 1,
                end_time: Optional[float] = None) -> VehicleModel:
    """The model of class `cls` with about `elements` elements (default: the class's)."""
    if cls not in CLASSES:
        raise ValueError(f"unknown class {cls!r} (neon, 3cars or car2car)")
    target = int(elements) if elements is not None else CLASSES[cls][0]
    if target < 5000:
        raise ValueError(f"--elements {target}: at least 5000 (a coarser car has no structure)")
    layout = _layout(cls)
    # Elements ~ A / h^2 (welds and mounts do not scale with h): a secant on log h.
    h = 60.0
    n = _count(layout, h, seed)
    best = (abs(n - target), h)
    for _ in range(6):
        h = h * math.sqrt(n / target)
        n = _count(layout, h, seed)
        best = min(best, (abs(n - target), h))
        if abs(n - target) < 0.01 * target:
            break
    else:  # n(h) is a staircase on small models: bisect between the sides of the target
        lo, hi = best[1] * 0.9, best[1] * 1.1   # h: lo gives more elements than hi
        for _ in range(12):
            mid = 0.5 * (lo + hi)
            n = _count(layout, mid, seed)
            best = min(best, (abs(n - target), mid))
            if abs(n - target) < 0.01 * target:
                break
            lo, hi = (mid, hi) if n > target else (lo, mid)
    h = round(best[1], 4)
    coords, shells, solids, beams, masses = [], [], [], [], []
    parts: Dict[int, Part] = {}
    edge_ties: List[Tuple[np.ndarray, List[int]]] = []
    vehicles: List[Vehicle] = []
    base = 0
    x_front = 2.0   # neon: 2 mm from the wall; 3cars: front to back, 20 mm apart
    for k, (name, scale, vel, mass) in enumerate(layout):
        b = _build_vehicle(h, np.random.default_rng(seed + k), 1 + 1000 * k, k, scale)
        x = np.concatenate(b.coords)
        mergeable = np.concatenate(b.mergeable)
        # merge coincident panel nodes (lattice points shared by panels that meet)
        key = np.round(x / (1e-3 * h)).astype(np.int64)
        order = np.arange(len(x))
        m_idx = order[mergeable]
        _, first, inv = np.unique(key[m_idx], axis=0, return_index=True, return_inverse=True)
        remap = order.copy()
        remap[m_idx] = m_idx[first][inv.reshape(-1)]
        used = np.zeros(len(x), dtype=bool)   # referenced by an element (not in a hole)
        for part in (b.shells, b.solids, b.beams):
            for rows in part:
                used[remap[rows[:, 1:].reshape(-1)]] = True
        nid = (np.cumsum(used) + base)[remap]      # 1-based model ids
        xs = x[used].copy()
        # design x runs rearward from the bumper; car B of car2car is turned by 180 degrees
        # about z (a rotation: element orientations are kept) and offset by 20 % of its width
        if cls == "car2car" and k == 1:
            xs[:, 0] = -(xs[:, 0] - xs[:, 0].min()) - 2.0
            xs[:, 1] = -xs[:, 1] + 0.2 * 2 * 750.0 * scale
        else:
            xs[:, 0] += x_front - xs[:, 0].min()
        if cls == "3cars":
            x_front = float(xs[:, 0].max()) + 20.0
        coords.append(xs)
        sh = np.concatenate(b.shells)
        shells.append(np.column_stack([sh[:, 0], nid[sh[:, 1:]]]))
        so = np.concatenate(b.solids)
        solids.append(np.column_stack([so[:, 0], nid[so[:, 1:]]]))
        bm = np.concatenate(b.beams)
        weld_pid = max(b.parts)
        bm[:, 0] = np.where(bm[:, 0] < 0, weld_pid, bm[:, 0])
        beams.append(np.column_stack([bm[:, 0], nid[bm[:, 1]], nid[bm[:, 2]]]))
        # parts left without elements (a tile or segment that got no cell on a coarse
        # lattice) are dropped, also from the tie targets
        used_pids = set(shells[-1][:, 0].tolist()) | set(solids[-1][:, 0].tolist()) | set(
            beams[-1][:, 0].tolist())
        b.parts = {p: q for p, q in b.parts.items() if p in used_pids}
        edge_ties += [(np.unique(nid[e]), [p for p in tgt if p in used_pids])
                      for e, tgt in b.edge_ties]
        parts.update(b.parts)
        v = Vehicle(k, name, scale, 1.0, float(xs[:, 0].min()), 0.0, vel, mass,
                    sorted(b.parts), (base + 1, base + len(xs)))
        shell_mass = _shell_mass(xs, shells[-1], parts, base)
        engine_mass = 0.18 * scale ** 3 * mass / 1.25
        v.engine_density = engine_mass / b.engine_volume
        v.shell_mass, v.engine_mass = shell_mass, engine_mass
        lump = mass - shell_mass - engine_mass
        if lump > 0:
            masses.append(_lumped_masses(xs, shells[-1], b, lump, base))
        vehicles.append(v)
        base += len(xs)
    return VehicleModel(cls, h, seed, end_time if end_time is not None else CLASSES[cls][1],
                        vehicles, np.concatenate(coords), np.concatenate(shells),
                        np.concatenate(solids), np.concatenate(beams),
                        np.concatenate(masses) if masses else np.zeros((0, 2)), parts,
                        edge_ties, cls == "neon", 0.9 * 0.9 * h / STEEL_C)


def _shell_mass(x: np.ndarray, shells: np.ndarray, parts: Dict[int, Part], base: int) -> float:
    n = shells[:, 1:] - 1 - base
    area = 0.5 * np.linalg.norm(np.cross(x[n[:, 2]] - x[n[:, 0]], x[n[:, 3]] - x[n[:, 1]]),
                                axis=1)
    t = np.array([parts[int(p)].thickness for p in shells[:, 0]])
    rho = np.array([2.5e-9 if parts[int(p)].mid == MID_GLASS else 7.85e-9 for p in shells[:, 0]])
    return float(np.sum(area * t * rho))


def _lumped_masses(x: np.ndarray, shells: np.ndarray, b: _Builder, lump: float,
                   base: int) -> np.ndarray:
    """Four occupants with their seats (100 kg each, at most half the lumped mass) on floor
    patches; the rest (fuel, trim, interior, wheels) spread evenly over the floor nodes."""
    rows = shells[np.isin(shells[:, 0], b.panels["floor"])]
    nodes = np.unique(rows[:, 1:])
    xf = x[nodes - 1 - base]
    seats = min(0.4, 0.5 * lump)
    x0, x1 = float(xf[:, 0].min()), float(xf[:, 0].max())
    y0, y1 = float(xf[:, 1].min()), float(xf[:, 1].max())
    out = []
    for fx, fy in ((0.35, 0.25), (0.35, 0.75), (0.7, 0.25), (0.7, 0.75)):
        sel = ((np.abs(xf[:, 0] - (x0 + fx * (x1 - x0))) < 0.08 * (x1 - x0))
               & (np.abs(xf[:, 1] - (y0 + fy * (y1 - y0))) < 0.1 * (y1 - y0)))
        if not sel.any():  # no floor node under this seat (a very coarse lattice): spread it
            sel = np.ones(len(nodes), dtype=bool)
        out.append(np.column_stack([nodes[sel], np.full(sel.sum(), seats / 4 / sel.sum())]))
    out.append(np.column_stack([nodes, np.full(len(nodes), (lump - seats) / len(nodes))]))
    return np.concatenate(out)


# -- writing --------------------------------------------------------------------------------
def _fmt_rows(fmt: str, rows: np.ndarray) -> str:
    return "".join(fmt % tuple(r) for r in rows.tolist())


def _write_block(f, fmt: str, rows: np.ndarray, chunk: int = 200_000) -> None:
    for i in range(0, len(rows), chunk):
        f.write(_fmt_rows(fmt, rows[i:i + chunk]))


def _curve(lcid: int, sigy: float, k: float, n: float) -> List[str]:
    eps0 = (sigy / k) ** (1.0 / n)
    out = ["*DEFINE_CURVE", f"$ Swift hardening sigma = {k:g} (eps0 + ep)^{n:g}, eps0 = {eps0:.5f}",
           f"{lcid:10d}"]
    for ep in (0.0, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0):
        out.append(f"{ep:20.6f}{k * (eps0 + ep) ** n:20.6f}")
    return out


def write_deck(model: VehicleModel, outdir: str) -> Dict[str, str]:
    """DIR/main.k (controls, materials, parts, contacts, loads, outputs) including
    DIR/mesh.k (nodes, elements, masses, sets). Returns the paths."""
    os.makedirs(outdir, exist_ok=True)
    main_k, mesh_k = os.path.join(outdir, "main.k"), os.path.join(outdir, "mesh.k")
    c = model.counts()
    L: List[str] = ["*KEYWORD", "*TITLE",
                    f"parcae vehicle-class crash model {model.cls} ({c['elements']} elements)"]
    L += [f"$ Generated by: parcae generate crash --class {model.cls} --elements "
          f"{c['elements']} --seed {model.seed} --end-time {model.end_time:g}",
          f"$ {CLASSES[model.cls][2]}; lattice h = {model.h:.3f} mm; units t, mm, s, N, MPa.",
          f"$ {c['shells']} shells, {c['solids']} solids, {c['beams']} beams ({c['welds']} spot "
          f"welds), {c['nodes']} nodes, {c['parts']} parts.",
          "$ Run: parcae run main.k --np 2 -o run   (see docs/vehicle.md)",
          "*CONTROL_TERMINATION", f"{model.end_time:10.4g}",
          "*CONTROL_TIMESTEP",
          "$   dtinit    tssfac      isdo    tslimt     dt2ms",
          f"{0.0:10.1f}{0.9:10.2f}{0:10d}{0.0:10.1f}{-model.dt_target / 0.9:10.3e}",
          "*CONTROL_ENERGY", "$     hgen      rwen    slnten     rylen",
          f"{2:10d}{2:10d}{2:10d}{2:10d}",
          "*CONTROL_SHELL", "$   wrpang     esort     irnxx    istupd    theory       bwc",
          f"{20.0:10.1f}{1:10d}{-1:10d}{1:10d}{2:10d}{2:10d}",
          "*DATABASE_GLSTAT", f"{1.0e-4:10.3e}", "*DATABASE_MATSUM", f"{1.0e-4:10.3e}"]
    if model.rigid_wall:
        L += ["*DATABASE_RWFORC", f"{1.0e-4:10.3e}"]
    L += ["*DATABASE_BINARY_D3PLOT", f"{model.end_time / 10:10.3e}"]
    for mid, name, rho, e, nu, sigy, k, n in STEELS:
        L += [f"*MAT_PIECEWISE_LINEAR_PLASTICITY_TITLE", name,
              f"{mid:10d}{rho:10.3e}{e:10.1f}{nu:10.2f}{sigy:10.1f}{0.0:10.1f}{0.0:10.1f}",
              f"{0.0:10.1f}{0.0:10.1f}{100 + mid:10d}{0:10d}", "", ""]
        L += _curve(100 + mid, sigy, k, n)
    L += ["*MAT_ELASTIC_TITLE", "laminated glass (elastic)",
          f"{MID_GLASS:10d}{2.5e-9:10.3e}{70000.0:10.1f}{0.22:10.2f}",
          "*MAT_SPOTWELD_TITLE", "spot weld",
          f"{MID_WELD:10d}{7.85e-9:10.3e}{210000.0:10.1f}{0.3:10.2f}{500.0:10.1f}{1000.0:10.1f}",
          "", "*MAT_ELASTIC_TITLE", "engine mounts",
          f"{MID_MOUNT:10d}{7.85e-9:10.3e}{210000.0:10.1f}{0.3:10.2f}"]
    for v in model.vehicles:
        L += ["*MAT_RIGID_TITLE", f"{v.name} engine block",
              f"{MID_ENGINE + 10 * (v.index + 1):10d}{v.engine_density:10.3e}"
              f"{210000.0:10.1f}{0.3:10.2f}", "", ""]
    # sections: one per (kind, thickness)
    secs: Dict[Tuple[str, float], int] = {}
    for p in model.parts.values():
        secs.setdefault((p.kind, round(p.thickness, 3)), len(secs) + 1)
    for (kind, t), sid in secs.items():
        if kind == "shell":
            L += ["*SECTION_SHELL", f"{sid:10d}{2:10d}{0.8333:10.4f}{3:10d}",
                  f"{t:10.3f}{t:10.3f}{t:10.3f}{t:10.3f}"]
        elif kind == "solid":
            L += ["*SECTION_SOLID", f"{sid:10d}{1:10d}"]
        elif kind == "weld":
            L += ["*SECTION_BEAM", f"{sid:10d}{9:10d}{1.0:10.1f}{2:10d}{1:10d}",
                  f"{6.0:10.1f}{6.0:10.1f}"]
        else:
            L += ["*SECTION_BEAM", f"{sid:10d}{1:10d}{1.0:10.1f}{2:10d}{1:10d}",
                  f"{30.0:10.1f}{30.0:10.1f}{20.0:10.1f}{20.0:10.1f}"]
    for p in model.parts.values():
        mid = p.mid if p.kind != "solid" else MID_ENGINE + 10 * (p.vehicle + 1)
        L += ["*PART", f"{model.vehicles[p.vehicle].name}: {p.name}",
              f"{p.pid:10d}{secs[(p.kind, round(p.thickness, 3))]:10d}{mid:10d}"]
    # part sets: per vehicle, contact parts (shells, engine) and welded parts
    L += ["*INCLUDE", "mesh.k"]
    sid = 1
    for v in model.vehicles:
        vp = [p for p in v.part_ids]
        cont = [p for p in vp if model.parts[p].contact]
        shells_p = [p for p in vp if model.parts[p].kind == "shell"]
        welds = [p for p in vp if model.parts[p].kind == "weld"]
        v.sets = {"all": sid, "contact": sid + 1, "shells": sid + 2, "welds": sid + 3}
        for lst, s in ((vp, sid), (cont, sid + 1), (shells_p, sid + 2), (welds, sid + 3)):
            L += ["*SET_PART_LIST", f"{s:10d}"] + _ids_lines(lst)
        sid += 4
        L += ["*CONTACT_AUTOMATIC_SINGLE_SURFACE_ID", f"{v.index + 1:10d}{v.name}",
              "$     ssid      msid     sstyp     mstyp",
              f"{v.sets['contact']:10d}{0:10d}{2:10d}{0:10d}",
              f"{0.1:10.2f}{0.1:10.2f}", ""]
        L += ["*CONTACT_SPOTWELD_ID", f"{100 + v.index + 1:10d}{v.name} spot welds",
              f"{v.sets['welds']:10d}{v.sets['shells']:10d}{2:10d}{2:10d}", "", ""]
        L += ["*INITIAL_VELOCITY_GENERATION",
              f"{v.index + 1:10d}{1:10d}{0.0:10.1f}{0.0 if v.velocity == 0 else 0.0:10.1f}",
              f"{0.0:10.1f}" * 6]
        L[-2] = (f"{v.sets['all']:10d}{1:10d}{0.0:10.1f}{v.velocity:10.1f}{0.0:10.1f}"
                 f"{0.0:10.1f}")
    for a, b in _striking_pairs(model):
        L += ["*CONTACT_AUTOMATIC_SURFACE_TO_SURFACE_ID",
              f"{200 + a * 10 + b:10d}{model.vehicles[a].name} - {model.vehicles[b].name}",
              f"{model.vehicles[a].sets['contact']:10d}{model.vehicles[b].sets['contact']:10d}"
              f"{2:10d}{2:10d}", f"{0.1:10.2f}{0.1:10.2f}", ""]
    for k, (nodes, tgt) in enumerate(model.edge_ties):
        L += ["*SET_PART_LIST", f"{sid:10d}"] + _ids_lines(tgt)
        L += ["*CONTACT_TIED_SHELL_EDGE_TO_SURFACE_ID", f"{300 + k + 1:10d}edge tie {k + 1}",
              f"{k + 1:10d}{sid:10d}{4:10d}{2:10d}", "", ""]
        sid += 1
    if model.rigid_wall:
        L += ["*RIGIDWALL_PLANAR", f"{0:10d}",
              f"{0.0:10.1f}{0.0:10.1f}{0.0:10.1f}{1.0:10.1f}{0.0:10.1f}{0.0:10.1f}{0.0:10.1f}"]
    L += ["*END"]
    with open(main_k, "w") as f:
        f.write("\n".join(L) + "\n")
    with open(mesh_k, "w") as f:
        f.write("*KEYWORD\n$ mesh of main.k (nodes, elements, masses, tie node sets)\n")
        ids = np.arange(1, len(model.coords) + 1)
        f.write("*NODE\n")
        _write_block(f, "%8d%16.6f%16.6f%16.6f\n",
                     np.column_stack([ids, model.coords]).astype(object))
        f.write("*ELEMENT_SHELL\n")
        rows = np.column_stack([np.arange(1, len(model.shells) + 1), model.shells])
        _write_block(f, "%8d%8d%8d%8d%8d%8d\n", rows)
        if len(model.solids):
            f.write("*ELEMENT_SOLID\n")
            rows = np.column_stack([np.arange(1, len(model.solids) + 1) + len(model.shells),
                                    model.solids])
            _write_block(f, "%8d%8d%8d%8d%8d%8d%8d%8d%8d%8d\n", rows)
        if len(model.beams):
            f.write("*ELEMENT_BEAM\n")
            first = 1 + len(model.shells) + len(model.solids)
            rows = np.column_stack([np.arange(first, first + len(model.beams)), model.beams])
            _write_block(f, "%8d%8d%8d%8d\n", rows)
        if len(model.masses):
            f.write("*ELEMENT_MASS\n")
            first = 1 + len(model.shells) + len(model.solids) + len(model.beams)
            m = model.masses
            rows = np.column_stack([np.arange(first, first + len(m)), m[:, 0].astype(np.int64),
                                    m[:, 1]]).astype(object)
            _write_block(f, "%8d%8d%16.6e\n", rows)
        for k, (nodes, _) in enumerate(model.edge_ties):
            f.write(f"*SET_NODE_LIST\n{k + 1:10d}\n")
            f.write("\n".join(_ids_lines([int(n) for n in nodes])) + "\n")
        f.write("*END\n")
    return {"main": main_k, "mesh": mesh_k}


def _ids_lines(ids: Sequence[int]) -> List[str]:
    ids = list(ids)
    return ["".join(f"{i:10d}" for i in ids[k:k + 8]) for k in range(0, len(ids), 8)]


def _striking_pairs(model: VehicleModel) -> List[Tuple[int, int]]:
    if model.cls == "3cars":
        return [(0, 1), (1, 2)]
    if model.cls == "car2car":
        return [(0, 1)]
    return []


def summary(model: VehicleModel) -> Dict:
    c = model.counts()
    return {"class": model.cls, "seed": model.seed, "h_mm": model.h,
            "end_time_s": model.end_time, "dt2ms_s": -model.dt_target / 0.9,
            "shell_step_estimate_s": model.h / STEEL_C, **c,
            "vehicles": [{"name": v.name, "velocity_mm_s": v.velocity, "mass_t": v.mass,
                          "shell_mass_t": round(v.shell_mass, 4),
                          "engine_mass_t": round(v.engine_mass, 4), "parts": len(v.part_ids)}
                         for v in model.vehicles]}


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="parcae generate crash",
                                 description="vehicle-class crash models (LS-DYNA keyword deck)")
    ap.add_argument("--class", dest="cls", default="neon", choices=sorted(CLASSES),
                    help="neon (535 k elements), 3cars (794 k), car2car (2.4 M)")
    ap.add_argument("--elements", type=int, help="target element count (default: the class's)")
    ap.add_argument("--seed", type=int, default=1, help="weld positions, gauges, triggers")
    ap.add_argument("--end-time", type=float, help="*CONTROL_TERMINATION ENDTIM, s")
    ap.add_argument("-o", "--output", required=True, help="output directory (main.k, mesh.k)")
    ap.add_argument("--json", help="also write the model summary as JSON")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    try:
        model = build_model(args.cls, args.elements, args.seed, args.end_time)
    except ValueError as e:
        print(f"parcae generate crash: {e}", file=sys.stderr)
        return 1
    t1 = time.perf_counter()
    try:
        paths = write_deck(model, args.output)
    except OSError as e:
        print(f"parcae generate crash: cannot write {args.output}: {e}", file=sys.stderr)
        return 1
    t2 = time.perf_counter()
    s = summary(model)
    s.update({"build_s": round(t1 - t0, 2), "write_s": round(t2 - t1, 2),
              "bytes": sum(os.path.getsize(p) for p in paths.values())})
    print(f"wrote {paths['main']} (+ mesh.k, {s['bytes'] / 1e6:.1f} MB): {s['elements']} "
          f"elements ({s['shells']} shells, {s['solids']} solids, {s['beams']} beams, "
          f"{s['welds']} spot welds), {s['nodes']} nodes, {s['parts']} parts; h = "
          f"{model.h:.2f} mm, shell step about {s['shell_step_estimate_s'] * 1e6:.2f} us; "
          f"{s['build_s'] + s['write_s']:.1f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(s, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
