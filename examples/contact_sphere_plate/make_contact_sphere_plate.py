#!/usr/bin/env python3
"""Writes contact_sphere_plate.k: an elastic ball dropped on a clamped shell plate.

The ball is a "spherified cube": the nodes of an N x N x N hexahedral cube mesh of [-1, 1]^3 are
mapped by x' = x sqrt(1 - y^2/2 - z^2/2 + y^2 z^2/3) (and cyclic), which takes the cube onto
the unit ball (every cube face onto the sphere), then scaled by the radius.

usage: make_contact_sphere_plate.py [OUT.k]
"""
import math
import pathlib
import sys

R = 4.0  # ball radius (mm)
NB = 6  # elements along each edge of the mapped cube
PL, NP, T = 30.0, 20, 0.5  # plate side, elements per side, thickness (mm)
GAP = 0.05  # initial gap between the ball and the plate's upper contact surface
V = 5000.0  # impact velocity (mm/s)
RHO, E, NU = 7.85e-9, 210000.0, 0.3
ENDTIM = 3.0e-4


def ball_nodes():
    z0 = T / 2 + GAP + R  # ball centre
    pts = {}
    for k in range(NB + 1):
        for j in range(NB + 1):
            for i in range(NB + 1):
                x, y, z = (-1 + 2 * i / NB, -1 + 2 * j / NB, -1 + 2 * k / NB)
                xs = x * math.sqrt(1 - y * y / 2 - z * z / 2 + y * y * z * z / 3)
                ys = y * math.sqrt(1 - z * z / 2 - x * x / 2 + z * z * x * x / 3)
                zs = z * math.sqrt(1 - x * x / 2 - y * y / 2 + x * x * y * y / 3)
                pts[i, j, k] = (PL / 2 + R * xs, PL / 2 + R * ys, z0 + R * zs)
    return pts


def deck(endtim=ENDTIM, glstat=1.0e-7, d3plot=1.0e-5, header=True):
    out = []
    if header:
        out += [
            "$ An elastic steel ball dropped on a clamped steel plate (solid-shell penalty contact).",
            "$",
            "$ Run:    build/release/bin/parcae run examples/contact_sphere_plate/contact_sphere_plate.k -o runs/contact_sphere_plate --vtk",
            "$         (add --np 2 for two MPI ranks: the outputs are bitwise identical)",
            "$ Units:  t, mm, s, N, MPa.",
            f"$ Case:   ball of radius {R:g} mm ({NB ** 3} hexahedra, a cube mesh mapped onto the ball: see",
            "$         make_contact_sphere_plate.py), part 1, at 5 m/s onto a 30 x 30 x 0.5 mm plate",
            f"$         ({NP}x{NP} Belytschko-Tsay shells, part 2) clamped along its edges;",
            "$         *CONTACT_AUTOMATIC_SURFACE_TO_SURFACE_ID 1 (ball secondary, plate main, shell",
            f"$         thickness offsets: the plate's upper contact surface is z = {T / 2:g} at rest).",
            "$ Look at: rcforc (contact 1): the impulse on the ball equals the change of its",
            "$         momentum (history.csv part1_zmom); the ball rebounds (vz > 0), the plate",
            "$         deflects (VTK displacement) and keeps vibrating; no ball node goes below the",
            "$         plate's upper surface; glstat's energy ratio stays within 2 %.",
            "$         python/tests/test_contact_verification.py checks these figures.",
            "$ TSSFAC: LS-DYNA's default 0.9 (no *CONTROL_TIMESTEP). The ball's eight corner",
            "$         elements (three faces on the sphere, a short body diagonal) set the step: their",
            "$         V / A_max overstates their critical length by 1.25, so parcae bounds the solid",
            "$         step by the element's stiffness too (docs/keywords.md, *CONTROL_TIMESTEP).",
        ]
    out += [
        "*KEYWORD",
        "*TITLE",
        "ball dropped on a clamped plate",
        "*CONTROL_TERMINATION",
        "$   endtim",
        f"{endtim:10.3e}",
        "*DATABASE_GLSTAT",
        f"{glstat:10.3e}",
        "*DATABASE_BINARY_D3PLOT",
        f"{d3plot:10.3e}",
        "*PART",
        "ball",
        "$      pid     secid       mid",
        "         1         1         1",
        "*PART",
        "plate",
        "         2         2         1",
        "*SECTION_SOLID",
        "$    secid    elform",
        "         1         1",
        "*SECTION_SHELL",
        "$    secid    elform      shrf       nip",
        "         2         2    0.8333         3",
        "$       t1        t2        t3        t4",
        f"{T:10.3f}{T:10.3f}{T:10.3f}{T:10.3f}",
        "*MAT_ELASTIC",
        "$      mid        ro         e        pr",
        f"         1{RHO:10.3e}{E:10.1f}{NU:10.3f}",
        "*CONTACT_AUTOMATIC_SURFACE_TO_SURFACE_ID",
        "$      cid   heading",
        "         1 ball on plate",
        "$     ssid      msid     sstyp     mstyp",
        "         1         2         3         3",
        "$       fs        fd",
        "       0.0       0.0",
        "",
        "*INITIAL_VELOCITY_GENERATION",
        "$       id      styp     omega        vx        vy        vz",
        f"         1         2       0.0       0.0       0.0{-V:10.1f}",
        "       0.0       0.0       0.0       0.0       0.0       0.0",
    ]
    nodes, edge = [], []
    nid = 0
    bid = {}
    for key, p in ball_nodes().items():
        nid += 1
        bid[key] = nid
        nodes.append(f"{nid:8d}{p[0]:16.8f}{p[1]:16.8f}{p[2]:16.8f}")
    pid = {}
    for j in range(NP + 1):
        for i in range(NP + 1):
            nid += 1
            pid[i, j] = nid
            nodes.append(f"{nid:8d}{PL * i / NP:16.8f}{PL * j / NP:16.8f}{0.0:16.8f}")
            if i in (0, NP) or j in (0, NP):
                edge.append(nid)
    out += ["*SET_NODE_LIST", "$      sid", "         1"]
    for r in range(0, len(edge), 8):
        out.append("".join(f"{n:10d}" for n in edge[r:r + 8]))
    out += ["*BOUNDARY_SPC_SET", "$     nsid       cid      dofx      dofy      dofz     dofrx     dofry     dofrz",
            "         1         0         1         1         1         1         1         1"]
    out += ["*NODE"] + nodes + ["*ELEMENT_SOLID"]
    eid = 0
    for k in range(NB):
        for j in range(NB):
            for i in range(NB):
                eid += 1
                c = [bid[i, j, k], bid[i + 1, j, k], bid[i + 1, j + 1, k], bid[i, j + 1, k],
                     bid[i, j, k + 1], bid[i + 1, j, k + 1], bid[i + 1, j + 1, k + 1],
                     bid[i, j + 1, k + 1]]
                out.append(f"{eid:8d}{1:8d}" + "".join(f"{x:8d}" for x in c))
    out.append("*ELEMENT_SHELL")
    for j in range(NP):
        for i in range(NP):
            eid += 1
            c = [pid[i, j], pid[i + 1, j], pid[i + 1, j + 1], pid[i, j + 1]]
            out.append(f"{eid:8d}{2:8d}" + "".join(f"{x:8d}" for x in c))
    out.append("*END")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    path = sys.argv[1] if len(sys.argv) > 1 else str(pathlib.Path(__file__).with_name("contact_sphere_plate.k"))
    pathlib.Path(path).write_text(deck())
