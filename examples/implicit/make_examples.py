#!/usr/bin/env python3
"""Writes the implicit example decks of this folder (run it from anywhere; the decks are
committed, this script documents how they were made and remakes them)."""
import math
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent


def cantilever(name, header, controls, nx=10, ny=2, nz=2, elform=18, load=-1000.0, step=False,
               material=None, h=0.1, w=0.1):
    node = lambda i, j, k: 1 + i + (nx + 1) * (j + (ny + 1) * k)
    s = [header, "*KEYWORD\n*TITLE\n%s\n" % name, controls, "*NODE\n"]
    for k in range(nz + 1):
        for j in range(ny + 1):
            for i in range(nx + 1):
                s.append("%8d%16.9e%16.9e%16.9e\n" % (node(i, j, k), 1.0 * i / nx, h * j / ny,
                                                       w * k / nz))
    s.append("*ELEMENT_SOLID\n")
    e = 1
    for k in range(nz):
        for j in range(ny):
            for i in range(nx):
                n = [node(i, j, k), node(i + 1, j, k), node(i + 1, j + 1, k), node(i, j + 1, k),
                     node(i, j, k + 1), node(i + 1, j, k + 1), node(i + 1, j + 1, k + 1),
                     node(i, j + 1, k + 1)]
                s.append("%8d%8d" % (e, 1) + "".join("%8d" % x for x in n) + "\n")
                e += 1
    s.append("*PART\nbeam\n         1         1         1\n")
    s.append("*SECTION_SOLID\n$    SECID    ELFORM\n         1%10d\n" % elform)
    s.append(material or "*MAT_ELASTIC\n$      MID        RO         E        PR\n"
             "         1    7850.0   2.1E+11       0.3\n")
    s.append("$ root: ux = 0 on the face, uy on the neutral plane, uz on the mid-width plane\n"
             "*BOUNDARY_SPC_NODE\n")
    for k in range(nz + 1):
        for j in range(ny + 1):
            s.append("%10d%10d%10d%10d%10d\n" % (node(0, j, k), 0, 1, 1 if 2 * j == ny else 0,
                                                  1 if 2 * k == nz else 0))
    s.append("*DEFINE_CURVE\n1\n0.0,%s\n1.0,1.0\n" % ("1.0" if step else "0.0"))
    if load:
        s.append("$ tip load %g N in y, consistent nodal shares\n*LOAD_NODE_POINT\n" % load)
        for k in range(nz + 1):
            for j in range(ny + 1):
                wt = (1 if 0 < j < ny else 0.5) * (1 if 0 < k < nz else 0.5) / (ny * nz)
                s.append("%10d%10d%10d%10.4g\n" % (node(nx, j, k), 2, 1, load * wt))
    s.append("*END\n")
    (HERE / (name + ".k")).write_text("".join(s))


def cylinder(name, header, nr=24, nt=24, a=0.1, b=0.2, t=0.01, p=100e6, g=1.15, nz=1,
             controls="", path=None):
    """Quarter of a thick cylinder, nz element layers of thickness t each. nz = 1: plane strain
    (uz = 0 everywhere); nz > 1: only the base (z = 0) is fixed in z (benchmark meshes)."""
    node = lambda i, j, k: 1 + i + (nr + 1) * (j + (nt + 1) * k)
    hs = [g ** k for k in range(nr)]
    rad = lambda i: a + (b - a) * sum(hs[:i]) / sum(hs)
    s = [header, "*KEYWORD\n*TITLE\n%s\n" % name,
         "*CONTROL_TERMINATION\n1.0\n*CONTROL_IMPLICIT_GENERAL\n$   IMFLAG       DT0\n"
         "         1       1.0\n" + controls + "*NODE\n"]
    for k in range(nz + 1):
        for j in range(nt + 1):
            for i in range(nr + 1):
                th = 0.5 * math.pi * j / nt
                x = 0.0 if j == nt else rad(i) * math.cos(th)
                y = 0.0 if j == 0 else rad(i) * math.sin(th)
                s.append("%8d%16.9e%16.9e%16.9e\n" % (node(i, j, k), x, y, t * k))
    s.append("*ELEMENT_SOLID\n")
    e = 1
    for k in range(nz):
        for j in range(nt):
            for i in range(nr):
                n = [node(i, j, k), node(i + 1, j, k), node(i + 1, j + 1, k), node(i, j + 1, k),
                     node(i, j, k + 1), node(i + 1, j, k + 1), node(i + 1, j + 1, k + 1),
                     node(i, j + 1, k + 1)]
                s.append("%8d%8d" % (e, 1) + "".join("%8d" % x for x in n) + "\n")
                e += 1
    s.append("*PART\ncylinder\n1,1,1\n*SECTION_SOLID\n1,2\n*MAT_ELASTIC\n1,7850.0,2.1e11,0.3\n")
    s.append("$ symmetry x = 0 and y = 0; uz = 0 (plane strain, or the base)\n*BOUNDARY_SPC_NODE\n")
    for k in range(nz + 1):
        for j in range(nt + 1):
            for i in range(nr + 1):
                fz = 1 if (nz == 1 or k == 0) else 0
                if j == nt or j == 0 or fz:
                    s.append("%d,0,%d,%d,%d,0,0,0\n" % (node(i, j, k), j == nt, j == 0, fz))
    s.append("$ bore segments (normal into the hole: positive pressure pushes outwards)\n"
             "*SET_SEGMENT\n1\n")
    for k in range(nz):
        for j in range(nt):
            s.append("%d,%d,%d,%d\n" % (node(0, j, k), node(0, j, k + 1), node(0, j + 1, k + 1),
                                        node(0, j + 1, k)))
    s.append("*DEFINE_CURVE\n1\n0.0,0.0\n1.0,1.0\n*LOAD_SEGMENT_SET\n$     SSID      LCID        SF\n"
             "         1         1%10.4g\n*END\n" % p)
    (path or HERE / (name + ".k")).write_text("".join(s))


def shell_plate(name, header, n=16, a=1.0, t=0.01, q=1000.0, nip=3):
    """Simply supported square plate (hard support: w and the edge twist held) of MITC4 shells
    under uniform pressure q (acting in -z), two load steps."""
    node = lambda i, j: 1 + i + (n + 1) * j
    s = [header, "*KEYWORD\n*TITLE\n%s\n" % name,
         "*CONTROL_TERMINATION\n1.0\n*CONTROL_IMPLICIT_GENERAL\n$   IMFLAG       DT0\n"
         "         1       0.5\n*NODE\n"]
    for j in range(n + 1):
        for i in range(n + 1):
            s.append("%8d%16.9e%16.9e%16.9e\n" % (node(i, j), a * i / n, a * j / n, 0.0))
    s.append("*ELEMENT_SHELL\n")
    e = 1
    for j in range(n):
        for i in range(n):
            s.append("%8d%8d%8d%8d%8d%8d\n" % (e, 1, node(i, j), node(i + 1, j),
                                                node(i + 1, j + 1), node(i, j + 1)))
            e += 1
    s.append("*PART\nplate\n         1         1         1\n"
             "*SECTION_SHELL\n$    SECID    ELFORM      SHRF       NIP\n"
             "         1        16  0.833333%10d\n%10.4g%10.4g%10.4g%10.4g\n" % (nip, t, t, t, t))
    s.append("*MAT_ELASTIC\n$      MID        RO         E        PR\n"
             "         1    7850.0   2.1E+11       0.3\n")
    s.append("$ edges: w = 0, the twist along the edge and the in-plane motion held\n"
             "*BOUNDARY_SPC_NODE\n$      NID       CID      DOFX      DOFY      DOFZ     DOFRX"
             "     DOFRY     DOFRZ\n")
    for j in range(n + 1):
        for i in range(n + 1):
            xe, ye = i in (0, n), j in (0, n)
            if xe or ye:
                s.append("%10d%10d%10d%10d%10d%10d%10d%10d\n" % (node(i, j), 0, 1, 1, 1,
                                                                  1 if xe else 0, 1 if ye else 0, 1))
    s.append("$ every shell's face (normal +z: a positive pressure pushes in -z)\n*SET_SEGMENT\n1\n")
    for j in range(n):
        for i in range(n):
            s.append("%d,%d,%d,%d\n" % (node(i, j), node(i + 1, j), node(i + 1, j + 1),
                                        node(i, j + 1)))
    s.append("*DEFINE_CURVE\n1\n0.0,0.0\n1.0,1.0\n*LOAD_SEGMENT_SET\n$     SSID      LCID        SF\n"
             "         1         1%10.4g\n*END\n" % q)
    (HERE / (name + ".k")).write_text("".join(s))


def hdr(name, what):
    return ("$ %s: %s\n$ Run: build/release/bin/parcae run examples/implicit/%s.k [--np 2] "
            "[--scratch DIR] [-o OUTDIR]\n$ (made by examples/implicit/make_examples.py)\n"
            % (name, what, name))


cantilever("cantilever_static",
           hdr("cantilever_static", "1 kN tip load on a 1 m steel cantilever (0.1 x 0.1 m), "
               "enhanced-strain hexahedra (ELFORM 18), two load steps; Timoshenko: 191.96 um"),
           "*CONTROL_TERMINATION\n1.0\n*CONTROL_IMPLICIT_GENERAL\n$   IMFLAG       DT0\n"
           "         1       0.5\n*CONTROL_IMPLICIT_SOLUTION\n$   NSOLVR    ILIMIT    MAXREF"
           "     DCTOL     ECTOL\n         1\n")
cantilever("cantilever_modes",
           hdr("cantilever_modes", "the first 6 natural frequencies of the cantilever (SLEPc "
               "shift-invert Lanczos, MUMPS); eigout and d3eigv in the output directory"),
           "*CONTROL_TERMINATION\n1.0\n*CONTROL_IMPLICIT_GENERAL\n1,1.0\n"
           "*CONTROL_IMPLICIT_EIGENVALUE\n$     NEIG    CENTER\n         6       0.0\n",
           nx=20, load=0)
cantilever("cantilever_dynamic",
           hdr("cantilever_dynamic", "step tip load, Newmark (GAMMA 0.5, BETA 0.25): the tip "
               "swings to twice the static deflection at half the first period (6 ms)"),
           "*CONTROL_TERMINATION\n0.012\n*CONTROL_IMPLICIT_GENERAL\n1,1.2e-4\n"
           "*CONTROL_IMPLICIT_DYNAMICS\n$    IMASS     GAMMA      BETA\n         1       0.5      "
           "0.25\n$ nodout: the tip node on the beam's axis\n*DATABASE_NODOUT\n1.2e-4\n"
           "*DATABASE_HISTORY_NODE\n55\n", step=True)
cantilever("plastic_bending",
           hdr("plastic_bending", "the cantilever (ELFORM 2, 20 x 4 x 2) loaded to 1.35 times first yield, "
               "*MAT_024 with a hardening curve, automatic steps, Newton with line search; "
               "convergence.csv shows the residuals"),
           "*CONTROL_TERMINATION\n1.0\n*CONTROL_IMPLICIT_GENERAL\n1,0.25\n"
           "*CONTROL_IMPLICIT_AUTO\n$    IAUTO    ITEOPT    ITEWIN     DTMIN     DTMAX\n"
           "         1        11         5     0.001      0.25\n"
           "*CONTROL_IMPLICIT_SOLUTION\n$   NSOLVR    ILIMIT    MAXREF     DCTOL     ECTOL"
           "     RCTOL     LSTOL    ABSTOL\n         7        11        15    1.0E-6    1.0E-8"
           "   1.0E+10       0.9    1.0E-6\n",
           elform=2, load=-56250.0, nx=20, ny=4,
           material="*MAT_PIECEWISE_LINEAR_PLASTICITY\n$      MID        RO         E        PR"
                    "      SIGY      ETAN\n         1    7850.0   2.1E+11       0.3   2.5E+08"
                    "       0.0\n$ card 2 (C, P, LCSS)\n       0.0       0.0       100\n"
                    "*DEFINE_CURVE\n100\n0.0,2.5e8\n0.01,3.0e8\n0.1,4.0e8\n1.0,6.0e8\n")
shell_plate("shell_plate",
            hdr("shell_plate", "simply supported 1 x 1 m steel plate, t = 10 mm, 16 x 16 MITC4 "
                "shells under 1 kPa; Kirchhoff (Timoshenko & Woinowsky-Krieger): centre "
                "deflection 0.00406 q a^4 / D = 0.211 mm"))
if len(sys.argv) > 1:
    # make_examples.py --bench NR NT NZ OUT.k [LSOLVR ABSMEM]: a bigger cylinder for timings.
    nr, nt, nz = (int(v) for v in sys.argv[2:5])
    extra = sys.argv[6:]
    ctl = ("*CONTROL_IMPLICIT_SOLVER\n%s,1\n\n0,0.85,%s\n" % (extra[0], extra[1])) if extra else \
        "*CONTROL_IMPLICIT_SOLVER\n2,1\n"
    cylinder("cylinder_bench", hdr("cylinder_bench", "benchmark cylinder %dx%dx%d" % (nr, nt, nz)),
             nr=nr, nt=nt, nz=nz, g=1.0, controls=ctl + "*CONTROL_IMPLICIT_SOLUTION\n1\n",
             path=pathlib.Path(sys.argv[5]))
    sys.exit(0)

cylinder("lame_cylinder",
         hdr("lame_cylinder", "thick cylinder a = 0.1, b = 0.2 m under 100 MPa internal "
             "pressure, quarter model, plane strain: u(a) = 90.79 um, hoop stress at the bore "
             "166.67 MPa"))
