#!/usr/bin/env python3
"""Writes contact_bars.k: two identical elastic bars colliding head-on (see the deck's header).

usage: make_contact_bars.py [OUT.k] [--v V] [--slsfac S] [--endtim T] [--glstat DT]
"""
import argparse
import pathlib

L = 10.0  # bar length (mm)
A_SIDE = 1.0  # square cross-section side (mm)
NEL = 40  # elements along each bar
GAP = 0.01  # initial gap between the bars (mm)
RHO, E = 7.85e-9, 210000.0


def deck(v=10000.0, slsfac=0.0, endtim=8.0e-6, glstat=2.0e-8, d3plot=4.0e-7, header=True):
    h = L / NEL
    c0 = (E / RHO) ** 0.5
    out = []
    if header:
        out += [
            "$ Two identical elastic steel bars colliding head-on (penalty contact verification).",
            "$",
            "$ Run:    build/release/bin/parcae run examples/contact_bars/contact_bars.k -o runs/contact_bars",
            "$         (add --np 2 for two MPI ranks: the outputs are bitwise identical)",
            "$ Units:  t, mm, s, N, MPa.",
            f"$ Case:   bars of L = {L:g} mm, {A_SIDE:g} x {A_SIDE:g} mm, {NEL} hexahedra each, *MAT_ELASTIC with",
            "$         nu = 0 (one-dimensional waves, c0 = sqrt(E/rho) = 5.172e6 mm/s). Bar A (part 1,",
            f"$         x 0..{L:g}) moves at v = {v:g} mm/s towards bar B (part 2, at rest, a {GAP:g} mm",
            "$         gap ahead); *CONTACT_AUTOMATIC_SURFACE_TO_SURFACE_ID 1 between the two parts.",
            "$ Look at: rcforc (contact 1): the force is rho c0 v / 2 x area = 203 N while the bars",
            "$         touch, for 2 L / c0 = 3.87 us (from t = gap / v = 1 us); afterwards A is at rest",
            "$         and B moves at v (history.csv part1_xmom / part2_xmom, matsum), the kinetic",
            "$         energy is back and glstat's energy ratio stays at 1. python/tests/",
            "$         test_contact_verification.py checks these figures.",
        ]
    out += [
        "*KEYWORD",
        "*TITLE",
        "two bars head-on",
        "*CONTROL_TERMINATION",
        "$   endtim",
        f"{endtim:10.3e}",
    ]
    if slsfac:
        out += ["*CONTROL_CONTACT", "$   slsfac", f"{slsfac:10.3e}"]
    out += [
        "*DATABASE_GLSTAT",
        f"{glstat:10.3e}",
        "*DATABASE_BINARY_D3PLOT",
        f"{d3plot:10.3e}",
        "*PART",
        "bar A",
        "$      pid     secid       mid",
        "         1         1         1",
        "*PART",
        "bar B",
        "         2         1         1",
        "*SECTION_SOLID",
        "$    secid    elform",
        "         1         1",
        "*MAT_ELASTIC",
        "$      mid        ro         e        pr",
        f"         1{RHO:10.3e}{E:10.1f}       0.0",
        "*CONTACT_AUTOMATIC_SURFACE_TO_SURFACE_ID",
        "$      cid   heading",
        "         1 bars",
        "$     ssid      msid     sstyp     mstyp",
        "         2         1         3         3",
        "$       fs        fd",
        "       0.0       0.0",
        "",
        "*INITIAL_VELOCITY_GENERATION",
        "$       id      styp     omega        vx        vy        vz",
        f"         1         2       0.0{v:10.1f}       0.0       0.0",
        "       0.0       0.0       0.0       0.0       0.0       0.0",
        "*NODE",
    ]
    nid = 0
    ids = {}
    for bar, x0 in ((0, 0.0), (1, L + GAP)):
        for i in range(NEL + 1):
            for k in range(2):
                for j in range(2):
                    nid += 1
                    ids[bar, i, j, k] = nid
                    out.append(f"{nid:8d}{x0 + i * h:16.6f}{j * A_SIDE:16.6f}{k * A_SIDE:16.6f}")
    out.append("*ELEMENT_SOLID")
    eid = 0
    for bar in (0, 1):
        for i in range(NEL):
            eid += 1
            n = [ids[bar, i, 0, 0], ids[bar, i + 1, 0, 0], ids[bar, i + 1, 1, 0], ids[bar, i, 1, 0],
                 ids[bar, i, 0, 1], ids[bar, i + 1, 0, 1], ids[bar, i + 1, 1, 1], ids[bar, i, 1, 1]]
            out.append(f"{eid:8d}{bar + 1:8d}" + "".join(f"{x:8d}" for x in n))
    out.append("*END")
    assert abs(c0 - 5.172e6) < 1e3
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("out", nargs="?", default=str(pathlib.Path(__file__).with_name("contact_bars.k")))
    ap.add_argument("--v", type=float, default=10000.0)
    ap.add_argument("--slsfac", type=float, default=0.0)
    ap.add_argument("--endtim", type=float, default=8.0e-6)
    ap.add_argument("--glstat", type=float, default=2.0e-8)
    a = ap.parse_args()
    pathlib.Path(a.out).write_text(deck(a.v, a.slsfac, a.endtim, a.glstat))
