#!/usr/bin/env python3
"""Writes the two thick-cylinder decks of examples/ (2-D solids, *SECTION_SHELL ELFORM 15 and 13).

A steel cylinder, inner radius 10 mm, outer 20 mm, long and held axially (plane strain), has its
bore pushed out by 0.01 mm along a smooth ramp of 2e-4 s (about 12 periods of the breathing
mode), then held: the stresses settle on Lame's solution, which tests/verification checks.

  python3 scripts/make_thick_cylinder_decks.py   (rewrites both decks)
"""
import math
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
A, B, U0, T_RAMP, T_END = 10.0, 20.0, 0.01, 2.0e-4, 2.6e-4
NR = 10  # radial elements

COMMON = """*CONTROL_TERMINATION
{t_end}
*DATABASE_GLSTAT
   1.0e-5
*DATABASE_BINARY_D3PLOT
   2.0e-5
*PART
cylinder wall
         1         1         1
*SECTION_SHELL
$    secid    elform      shrf       nip
         1{elform:10d}
$       t1        t2        t3        t4
       0.0       0.0       0.0       0.0
*MAT_ELASTIC
$      mid        ro         e        pr
         1   7.85e-9  210000.0       0.3
*DEFINE_CURVE
$ the bore's displacement: U0 (t/T - sin(2 pi t/T) / (2 pi)) up to T, then U0
         1
"""


def ramp_curve():
    lines = []
    for i in range(41):
        t = T_RAMP * i / 40
        u = U0 * (t / T_RAMP - math.sin(2 * math.pi * t / T_RAMP) / (2 * math.pi))
        lines.append(f"{t:20.10e}{u:20.10e}")
    lines.append(f"{1.0:20.10e}{U0:20.10e}")
    return "\n".join(lines) + "\n"


def header(name, elform, what, run_extra):
    return f"""$ Thick-walled cylinder, {what}: 2-D solids (*SECTION_SHELL ELFORM {elform}).
$
$ Run:    build/release/bin/parcae run examples/{name}/{name}.k -o runs/{name}
$         build/release/bin/parcae run examples/{name}/{name}.k --np 2  (two MPI ranks)
$ Units:  t, mm, s, N, MPa.
$ Case:   steel cylinder, inner radius {A:g} mm, outer {B:g} mm, held axially (plane strain); the
$         bore is pushed out by {U0:g} mm along a smooth ramp of {T_RAMP:g} s, then held. The stresses
$         settle on Lame's solution (sigma_rr = 0 at the outer radius): hoop stress 2(l+G)A +
$         2G B/r^2, radial 2(l+G)A - 2G B/r^2 with u = A r + B/r; checked by
$         tests/verification/test_solid2d.cpp. {run_extra}
$ Written by scripts/make_thick_cylinder_decks.py.
*KEYWORD
*TITLE
Thick cylinder, {what}
"""


def axisymmetric():
    name = "thick_cylinder_axisymmetric"
    out = [header(name, 15, "axisymmetric (x is the radius, y the axis)",
                  "Forces and energies are per radian.")]
    out.append(COMMON.format(t_end=f"{T_END:10.3e}", elform=15))
    out.append(ramp_curve())
    h = (B - A) / NR
    out.append("*NODE\n")
    for j in range(2):
        for i in range(NR + 1):
            nid = 1 + j * (NR + 1) + i
            out.append(f"{nid:8d}{A + i * h:16.8f}{j * h:16.8f}{0.0:16.8f}\n")
    out.append("*ELEMENT_SHELL\n")
    for i in range(NR):
        n1 = 1 + i
        out.append(f"{i + 1:8d}{1:8d}{n1:8d}{n1 + 1:8d}{n1 + NR + 2:8d}{n1 + NR + 1:8d}\n")
    out.append("*SET_NODE_LIST\n         1\n")
    allnodes = list(range(1, 2 * (NR + 1) + 1))
    for k in range(0, len(allnodes), 8):
        out.append("".join(f"{n:10d}" for n in allnodes[k:k + 8]) + "\n")
    out.append("*SET_NODE_LIST\n         2\n")
    out.append(f"{1:10d}{NR + 2:10d}\n")
    out.append("*BOUNDARY_SPC_SET\n$     nsid       cid      dofx      dofy\n"
               "         1         0         0         1\n")
    out.append("*BOUNDARY_PRESCRIBED_MOTION_SET\n$     nsid       dof       vad      lcid        sf\n"
               "         2         1         2         1       1.0\n")
    out.append("*END\n")
    return name, "".join(out)


def plane_strain():
    name = "thick_cylinder_plane_strain"
    nt = 12
    out = [header(name, 13, "plane strain (a quarter of the section in x-y)",
                  "Forces and energies are per unit length.")]
    out.append(COMMON.format(t_end=f"{T_END:10.3e}", elform=13))
    out.append(ramp_curve())
    h = (B - A) / NR

    def nid(i, j):
        return 1 + j * (NR + 1) + i

    out.append("*NODE\n")
    for j in range(nt + 1):
        th = 0.5 * math.pi * j / nt
        for i in range(NR + 1):
            r = A + i * h
            x, y = r * math.cos(th), r * math.sin(th)
            if j == nt:
                x = 0.0
            if j == 0:
                y = 0.0
            out.append(f"{nid(i, j):8d}{x:16.8f}{y:16.8f}{0.0:16.8f}\n")
    out.append("*ELEMENT_SHELL\n")
    e = 0
    for j in range(nt):
        for i in range(NR):
            e += 1
            out.append(f"{e:8d}{1:8d}{nid(i, j):8d}{nid(i + 1, j):8d}{nid(i + 1, j + 1):8d}"
                       f"{nid(i, j + 1):8d}\n")
    # symmetry: y fixed on the x axis, x fixed on the y axis
    out.append("*BOUNDARY_SPC_NODE\n$      nid       cid      dofx      dofy\n")
    for i in range(NR + 1):
        out.append(f"{nid(i, 0):10d}         0         0         1\n")
        out.append(f"{nid(i, nt):10d}         0         1         0\n")
    # the bore: radial displacement, its x and y parts by the scale factors
    out.append("*BOUNDARY_PRESCRIBED_MOTION_NODE\n"
               "$      nid       dof       vad      lcid        sf\n")
    for j in range(nt + 1):
        th = 0.5 * math.pi * j / nt
        if j < nt:
            out.append(f"{nid(0, j):10d}         1         2         1{math.cos(th):10.7f}\n")
        if j > 0:
            out.append(f"{nid(0, j):10d}         2         2         1{math.sin(th):10.7f}\n")
    out.append("*END\n")
    return name, "".join(out)


for make in (axisymmetric, plane_strain):
    name, text = make()
    path = ROOT / "examples" / name / f"{name}.k"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    print("wrote", path.relative_to(ROOT))
