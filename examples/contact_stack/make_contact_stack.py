#!/usr/bin/env python3
"""Writes contact_stack.k: three elastic blocks settling under gravity on a fixed base.

usage: make_contact_stack.py [OUT.k]
"""
import pathlib
import sys

RHO, E, NU = 1.0e-9, 0.5, 0.3
G = 9810.0
GAP = 0.02  # initial gap below each block (mm)
# (size in x and y, height, elements in x/y, elements in z): base, then blocks 1..3
BODIES = [(12.0, 2.0, 6, 1), (10.0, 2.0, 5, 2), (7.0, 2.0, 4, 2), (4.0, 2.0, 3, 2)]
ENDTIM = 0.03


def layout():
    """[(x0, z0, size, height, n, nz)] per body, centred on x = y = 6; the base's top at z = 0."""
    out, z = [], 0.0
    for b, (a, hgt, n, nz) in enumerate(BODIES):
        x0 = 6.0 - a / 2
        if b == 0:
            out.append((x0, -hgt, a, hgt, n, nz))
        else:
            z += GAP
            out.append((x0, z, a, hgt, n, nz))
            z += hgt
    return out


def deck(endtim=ENDTIM, glstat=2.5e-4, d3plot=2.5e-3, header=True):
    out = []
    if header:
        out += [
            "$ Three elastic blocks stacked on a fixed base, settling under gravity.",
            "$",
            "$ Run:    build/release/bin/parcae run examples/contact_stack/contact_stack.k -o runs/contact_stack --vtk",
            "$         (add --np 2 for two MPI ranks: the outputs are bitwise identical)",
            "$ Units:  t, mm, s, N, MPa.",
            "$ Case:   a fixed base (part 1, 12 x 12 x 2 mm, top at z = 0) and blocks of 10, 7 and 4 mm",
            "$         (parts 2-4, 2 mm high, non-matching meshes), each 0.02 mm above the one below,",
            "$         fall under g = 9810 mm/s^2 (*LOAD_BODY_Z) and settle; no damping, so they keep",
            "$         bouncing on the contact springs. One *CONTACT_AUTOMATIC_SINGLE_SURFACE (all parts).",
            "$         Soft elastic material (E = 0.5 MPa, rho = 1e-9) for a large time step.",
            "$ Look at: the VTK states: every block's bottom stays within a few um of the top of the",
            "$         one below (penetration < 5 % of the 1 mm element height), glstat's energy ratio",
            "$         stays within 2 %. python/tests/test_contact_verification.py checks these.",
        ]
    out += [
        "*KEYWORD",
        "*TITLE",
        "three blocks settling on a base",
        "*CONTROL_TERMINATION",
        "$   endtim",
        f"{endtim:10.3e}",
        "*CONTROL_TIMESTEP",
        "$   dtinit    tssfac",
        "              0.9",
        "*DATABASE_GLSTAT",
        f"{glstat:10.3e}",
        "*DATABASE_BINARY_D3PLOT",
        f"{d3plot:10.3e}",
    ]
    for p in range(1, len(BODIES) + 1):
        out += ["*PART", "base" if p == 1 else f"block {p - 1}", "$      pid     secid       mid",
                f"{p:10d}         1         1"]
    out += [
        "*SECTION_SOLID",
        "$    secid    elform",
        "         1         1",
        "*MAT_ELASTIC",
        "$      mid        ro         e        pr",
        f"         1{RHO:10.3e}{E:10.4f}{NU:10.3f}",
        "*CONTACT_AUTOMATIC_SINGLE_SURFACE_ID",
        "$      cid   heading",
        "         1 stack",
        "$     ssid      msid     sstyp     mstyp",
        "         0         0         5         0",
        "$       fs        fd",
        "       0.3       0.3",
        "",
        "*LOAD_BODY_Z",
        "$     lcid        sf",
        f"         1{G:10.1f}",
        "*DEFINE_CURVE",
        "$     lcid",
        "         1",
        "$                  t                 g/g",
        "                 0.0                 1.0",
        "               100.0                 1.0",
    ]
    nodes, elems, base_nodes = [], [], []
    nid, eid = 0, 0
    for p, (x0, z0, a, hgt, n, nz) in enumerate(layout(), start=1):
        ids = {}
        for k in range(nz + 1):
            for j in range(n + 1):
                for i in range(n + 1):
                    nid += 1
                    ids[i, j, k] = nid
                    nodes.append(f"{nid:8d}{x0 + a * i / n:16.6f}{x0 + a * j / n:16.6f}"
                                 f"{z0 + hgt * k / nz:16.6f}")
        if p == 1:
            base_nodes = sorted(ids.values())
        for k in range(nz):
            for j in range(n):
                for i in range(n):
                    eid += 1
                    c = [ids[i, j, k], ids[i + 1, j, k], ids[i + 1, j + 1, k], ids[i, j + 1, k],
                         ids[i, j, k + 1], ids[i + 1, j, k + 1], ids[i + 1, j + 1, k + 1],
                         ids[i, j + 1, k + 1]]
                    elems.append(f"{eid:8d}{p:8d}" + "".join(f"{x:8d}" for x in c))
    out += ["*SET_NODE_LIST", "$      sid", "         1"]
    for r in range(0, len(base_nodes), 8):
        out.append("".join(f"{n:10d}" for n in base_nodes[r:r + 8]))
    out += ["*BOUNDARY_SPC_SET", "$     nsid       cid      dofx      dofy      dofz",
            "         1         0         1         1         1"]
    out += ["*NODE"] + nodes + ["*ELEMENT_SOLID"] + elems + ["*END"]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    path = sys.argv[1] if len(sys.argv) > 1 else str(pathlib.Path(__file__).with_name("contact_stack.k"))
    pathlib.Path(path).write_text(deck())
