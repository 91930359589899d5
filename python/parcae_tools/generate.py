"""Generated benchmark models.

``cylinders``: the implicit storage-study model, in the spirit of the classic cyl0p5e6 deck
(about 0.5 million solids): nested co-axial cylinders of 8-node hexahedra, bonded at their
interfaces (shared nodes), each tube its own part and material, fixed at the base, internal
pressure on the bore through ``*LOAD_SEGMENT_SET`` with a load curve, and an axial tension on
the top face (uniform traction as consistent nodal forces, one ``*LOAD_NODE_SET`` per ring of
nodes; the implicit solver takes no prescribed motion).  Implicit linear static
(``*CONTROL_IMPLICIT_GENERAL`` IMFLAG=1, ``*CONTROL_IMPLICIT_SOLVER`` LSOLVR=2, the direct
solver; ``--out-of-core`` sets ABSMEM=-1: MUMPS factors on disk in the ``--scratch`` directory).
The same mesh and loads can be written as a CalculiX input (``C3D8`` or ``C3D8I``, ``*STATIC``,
``*DLOAD`` P6, ``*CLOAD``, ``*BOUNDARY``) for the peer comparison.

Mesh (scale 1): 3 tubes, inner radius 100 mm, 10 mm walls, 600 mm high; 96 elements around,
2 through each wall, 150 along the axis: 86,400 solids, 101,472 nodes, 304,416 dof (302,400
free: the base nodes are fixed).  ``--scale S`` multiplies the element count by about S (each
direction by S^(1/3), rounded; S = 5.8 gives about 0.55 million solids, the study's size).

Node (i_theta, i_r, i_z) has id ``1 + i_theta + n_theta * (i_r + n_rings * i_z)``; solids are
numbered the same way over element indices.  Units: t, mm, s, N, MPa.

Command line (also ``parcae generate cylinders ...``)::

    python -m parcae_tools.generate cylinders [--scale S] [-o cyl.k] [--ccx cyl.inp]
                                              [--ccx-element C3D8|C3D8I] [--pressure P]
                                              [--out-of-core] [--elform 2|1]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from dataclasses import asdict, dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

__all__ = ["CylinderSpec", "CylinderMesh", "cylinder_spec", "build_cylinders", "model_counts",
           "segment_areas", "top_ring_forces", "frd_displacement", "d3plot_displacement", "write_lsdyna", "write_ccx", "main"]

# Per tube, inside out: (name, density t/mm^3, Young's modulus MPa, Poisson's ratio).
MATERIALS = [("steel liner", 7.85e-9, 210000.0, 0.30),
             ("aluminium sleeve", 2.70e-9, 70000.0, 0.33),
             ("steel jacket", 7.85e-9, 210000.0, 0.30)]


@dataclass
class CylinderSpec:
    n_theta: int = 96          # elements around
    n_r: int = 2               # elements through each tube wall
    n_z: int = 150             # elements along the axis
    r_inner: float = 100.0     # bore radius (mm)
    wall: float = 10.0         # wall thickness of each tube (mm)
    tubes: int = 3
    height: float = 600.0      # mm
    pressure: float = 10.0     # internal pressure at t = 1 (MPa)
    top_traction: float = 20.0  # axial tension on the top face at t = 1 (MPa)
    out_of_core: bool = False  # *CONTROL_IMPLICIT_SOLVER ABSMEM = -1
    scale: float = 1.0
    elform: int = 2            # *SECTION_SOLID ELFORM (2: fully integrated S/R)
    materials: List[Tuple[str, float, float, float]] = field(
        default_factory=lambda: list(MATERIALS))

    @property
    def n_rings(self) -> int:
        """Radial node rings."""
        return self.tubes * self.n_r + 1


def cylinder_spec(scale: float = 1.0, pressure: float = 10.0) -> CylinderSpec:
    """The model at `scale` (element count about scale x 86,400)."""
    if not (scale > 0) or not math.isfinite(scale):
        raise ValueError(f"--scale must be a positive number, got {scale}")
    f = scale ** (1.0 / 3.0)
    n_theta = max(8, 4 * round(96 * f / 4))
    return CylinderSpec(n_theta=n_theta, n_r=max(1, round(2 * f)), n_z=max(2, round(150 * f)),
                        pressure=pressure, scale=scale)


def model_counts(spec: CylinderSpec) -> Dict[str, int]:
    """Node, solid, segment and dof counts of a spec (the formulas the generator follows)."""
    nodes = spec.n_theta * spec.n_rings * (spec.n_z + 1)
    base = spec.n_theta * spec.n_rings
    return {"nodes": nodes, "solids": spec.n_theta * spec.tubes * spec.n_r * spec.n_z,
            "bore_segments": spec.n_theta * spec.n_z, "dof": 3 * nodes,
            "free_dof": 3 * (nodes - base),
            "base_nodes": base, "top_nodes": base}


@dataclass
class CylinderMesh:
    spec: CylinderSpec
    xyz: np.ndarray          # (nodes, 3), node id = row + 1
    solids: np.ndarray       # (solids, 8) node ids
    part: np.ndarray         # (solids,) part id 1..tubes
    base: np.ndarray         # node ids at z = 0
    top: np.ndarray          # node ids at z = height
    bore: np.ndarray         # (segments, 4) node ids, right-hand normal towards the axis
    bore_elements: np.ndarray  # solid id owning each bore segment (CalculiX face 6)


def build_cylinders(spec: CylinderSpec) -> CylinderMesh:
    nt, nq, nz = spec.n_theta, spec.n_rings, spec.n_z
    theta = 2.0 * math.pi * np.arange(nt) / nt
    radius = spec.r_inner + spec.wall * np.arange(nq) / spec.n_r
    z = spec.height * np.arange(nz + 1) / nz
    zz, rr, tt = np.meshgrid(z, radius, theta, indexing="ij")  # (nz+1, nq, nt): id order
    xyz = np.column_stack([(rr * np.cos(tt)).ravel(), (rr * np.sin(tt)).ravel(), zz.ravel()])

    def nid(it, ir, iz):
        return 1 + (it % nt) + nt * (ir + nq * iz)

    iz, ir, it = np.meshgrid(np.arange(nz), np.arange(nq - 1), np.arange(nt), indexing="ij")
    iz, ir, it = iz.ravel(), ir.ravel(), it.ravel()
    # Bottom face (r, then theta): right-hand normal e_r x e_theta = +z, towards the top face.
    solids = np.column_stack([nid(it, ir, iz), nid(it, ir + 1, iz), nid(it + 1, ir + 1, iz),
                              nid(it + 1, ir, iz), nid(it, ir, iz + 1), nid(it, ir + 1, iz + 1),
                              nid(it + 1, ir + 1, iz + 1), nid(it + 1, ir, iz + 1)])
    part = 1 + ir // spec.n_r
    inner = ir == 0
    e = solids[inner]
    # Bore face n1-n5-n8-n4 (z, then theta): normal e_z x e_theta = -e_r, out of the element;
    # a positive pressure acts against it, i.e. pushes the bore outwards.
    bore = e[:, [0, 4, 7, 3]]
    ids = np.arange(1, len(solids) + 1)
    base = np.arange(1, nt * nq + 1)
    top = base + nt * nq * nz
    return CylinderMesh(spec, xyz, solids, part, base, top, bore, ids[inner])


def top_ring_forces(spec: CylinderSpec) -> np.ndarray:
    """Axial force on each top node of ring i_r (all nodes of a ring carry the same): the
    consistent nodal forces of the uniform traction on the top faces, integral of the bilinear
    shape functions over each face (2 x 2 Gauss, exact for these trapezoids)."""
    nt = spec.n_theta
    r = spec.r_inner + spec.wall * np.arange(spec.n_rings) / spec.n_r
    g = np.array([-1.0, 1.0]) / math.sqrt(3.0)
    f = np.zeros(spec.n_rings)
    for i in range(spec.n_rings - 1):
        # Face corners (inner, outer) x (theta 0, theta 1) in the top plane.
        c, s = math.cos(2 * math.pi / nt), math.sin(2 * math.pi / nt)
        p = np.array([[r[i], 0.0], [r[i + 1], 0.0], [r[i + 1] * c, r[i + 1] * s],
                      [r[i] * c, r[i] * s]])
        share = np.zeros(4)
        for xi in g:
            for eta in g:
                n = 0.25 * np.array([(1 - xi) * (1 - eta), (1 + xi) * (1 - eta),
                                     (1 + xi) * (1 + eta), (1 - xi) * (1 + eta)])
                dxi = 0.25 * np.array([-(1 - eta), 1 - eta, 1 + eta, -(1 + eta)]) @ p
                deta = 0.25 * np.array([-(1 - xi), -(1 + xi), 1 + xi, 1 - xi]) @ p
                share += n * abs(dxi[0] * deta[1] - dxi[1] * deta[0])
        # Each node of ring i takes the inner corners of the two faces beside it, each node of
        # ring i + 1 their outer corners.
        f[i] += spec.top_traction * (share[0] + share[3])
        f[i + 1] += spec.top_traction * (share[1] + share[2])
    return f


def segment_areas(xyz: np.ndarray, segs: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Area and unit right-hand normal of quadrilateral segments (node ids): half the cross
    product of the diagonals (exact for planar quadrilaterals)."""
    p = xyz[segs - 1]
    c = 0.5 * np.cross(p[:, 2] - p[:, 0], p[:, 3] - p[:, 1])
    a = np.linalg.norm(c, axis=1)
    return a, c / a[:, None]


def _fit10(x: float) -> str:
    """x in a 10-character fixed field with as many digits as fit."""
    whole = len(str(int(abs(x)))) + (1 if x < 0 else 0)
    if whole > 7:
        return f"{x:10.3e}"
    return f"{x:10.{8 - whole}f}"  # one blank column before the digits


def _lines(rows: np.ndarray, fmt: str) -> str:
    return "".join(fmt % tuple(r) for r in rows.tolist())


def _id_block(ids: np.ndarray, per_line: int, width: int) -> str:
    out = []
    for k in range(0, len(ids), per_line):
        out.append("".join(f"{int(i):{width}d}" for i in ids[k:k + per_line]) + "\n")
    return "".join(out)


def write_lsdyna(mesh: CylinderMesh, path: str) -> None:
    s = mesh.spec
    n = model_counts(s)
    with open(path, "w") as f:
        f.write(f"$ Nested co-axial cylinders (parcae generate cylinders --scale {s.scale:g}):\n"
                f"$ {s.tubes} bonded tubes, r = {s.r_inner:g}..{s.r_inner + s.tubes * s.wall:g} "
                f"mm, height {s.height:g} mm; {n['solids']} solids, {n['nodes']} nodes, "
                f"{n['dof']} dof.\n"
                f"$ Base fixed, internal pressure {s.pressure:g} MPa on the bore "
                f"(*LOAD_SEGMENT_SET), axial tension {s.top_traction:g} MPa on the top\n"
                "$ (consistent nodal forces, *LOAD_NODE_SET per ring). Implicit linear static, "
                f"direct solver{', out of core (ABSMEM = -1)' if s.out_of_core else ''}.\n"
                "$ Units: t, mm, s, N, MPa.\n"
                "*KEYWORD\n*TITLE\nNested cylinders, implicit static (storage study)\n"
                "*CONTROL_TERMINATION\n$   endtim\n       1.0\n"
                "*CONTROL_IMPLICIT_GENERAL\n$   imflag       dt0\n         1       1.0\n"
                "*CONTROL_IMPLICIT_SOLVER\n$   lsolvr    lprint\n         2         1\n"
                "$   lcpack    mtxdmp    iparm1    rparm1    rparm2\n"
                "         2         0       500    1.0e-9   1.0e-12\n"
                "$   emxdmp    rdcmem    absmem\n"
                f"         0      0.85{-1.0 if s.out_of_core else 0.0:10.1f}\n"
                "*CONTROL_IMPLICIT_SOLUTION\n$   nsolvr\n         1\n"
                "*DATABASE_BINARY_D3PLOT\n       1.0\n")
        for k, (name, ro, e, pr) in enumerate(s.materials[:s.tubes], start=1):
            f.write(f"*PART\n{name}\n{k:10d}{1:10d}{k:10d}\n")
            f.write(f"*MAT_ELASTIC\n$      mid        ro         e        pr\n"
                    f"{k:10d}{ro:10.3e}{e:10.1f}{pr:10.3f}\n")
        f.write(f"*SECTION_SOLID\n$    secid    elform\n         1{s.elform:10d}\n")
        f.write("*DEFINE_CURVE\n$     lcid\n         1\n"
                f"{0.0:20.6f}{0.0:20.6f}\n{1.0:20.6f}{1.0:20.6f}\n")
        f.write("*SET_NODE_LIST\n$      sid\n         1\n")
        f.write(_id_block(mesh.base, 8, 10))
        f.write("*BOUNDARY_SPC_SET\n$     nsid       cid      dofx      dofy      dofz\n"
                f"{1:10d}{0:10d}{1:10d}{1:10d}{1:10d}{1:10d}{1:10d}{1:10d}\n")
        forces = top_ring_forces(s)
        rings = mesh.top.reshape(s.n_rings, s.n_theta)
        for i in range(s.n_rings):
            f.write(f"*SET_NODE_LIST\n$      sid   top ring {i}\n{10 + i:10d}\n")
            f.write(_id_block(rings[i], 8, 10))
        f.write("*LOAD_NODE_SET\n$     nsid       dof      lcid        sf\n")
        for i in range(s.n_rings):
            f.write(f"{10 + i:10d}{3:10d}{1:10d}{_fit10(forces[i])}\n")
        f.write("*SET_SEGMENT\n$      sid\n         1\n")
        f.write(_lines(mesh.bore, "%10d%10d%10d%10d\n"))
        f.write("*LOAD_SEGMENT_SET\n$     ssid      lcid        sf\n"
                f"{1:10d}{1:10d}{s.pressure:10.4f}\n")
        f.write("*NODE\n")
        ids = np.arange(1, len(mesh.xyz) + 1)
        f.write("".join(f"{i:8d}{x:16.8f}{y:16.8f}{z:16.8f}\n"
                        for i, (x, y, z) in zip(ids.tolist(), mesh.xyz.tolist())))
        f.write("*ELEMENT_SOLID\n")
        rows = np.column_stack([np.arange(1, len(mesh.solids) + 1), mesh.part, mesh.solids])
        f.write(_lines(rows, "%8d%8d%8d%8d%8d%8d%8d%8d%8d%8d\n"))
        f.write("*END\n")


def write_ccx(mesh: CylinderMesh, path: str, element: str = "C3D8") -> None:
    """The same mesh, materials, supports and loads as a CalculiX input (linear static)."""
    s = mesh.spec
    with open(path, "w") as f:
        f.write(f"** Nested co-axial cylinders (parcae generate cylinders --scale {s.scale:g}), "
                "the same model as the LS-DYNA deck. Units: t, mm, s, N, MPa.\n*NODE, NSET=NALL\n")
        ids = np.arange(1, len(mesh.xyz) + 1)
        f.write("".join(f"{i},{x:.8f},{y:.8f},{z:.8f}\n"
                        for i, (x, y, z) in zip(ids.tolist(), mesh.xyz.tolist())))
        eids = np.arange(1, len(mesh.solids) + 1)
        for k in range(1, s.tubes + 1):
            sel = mesh.part == k
            f.write(f"*ELEMENT, TYPE={element}, ELSET=TUBE{k}\n")
            f.write(_lines(np.column_stack([eids[sel], mesh.solids[sel]]),
                           "%d,%d,%d,%d,%d,%d,%d,%d,%d\n"))
        rings = mesh.top.reshape(s.n_rings, s.n_theta)
        for name, ids_ in [("NBASE", mesh.base)] + [(f"NTOP{i}", rings[i])
                                                     for i in range(s.n_rings)]:
            f.write(f"*NSET, NSET={name}\n")
            f.write("".join(",".join(str(int(i)) for i in ids_[k:k + 16]) + "\n"
                            for k in range(0, len(ids_), 16)))
        for k, (name, ro, e, pr) in enumerate(s.materials[:s.tubes], start=1):
            f.write(f"** {name}\n*MATERIAL, NAME=M{k}\n*ELASTIC\n{e},{pr}\n*DENSITY\n{ro}\n"
                    f"*SOLID SECTION, ELSET=TUBE{k}, MATERIAL=M{k}\n")
        forces = top_ring_forces(s)
        f.write("*STEP\n*STATIC\n*BOUNDARY\nNBASE,1,3\n"
                "** axial tension on the top: consistent nodal forces per ring of nodes\n*CLOAD\n")
        f.write("".join(f"NTOP{i},3,{float(forces[i])!r}\n" for i in range(s.n_rings)))
        f.write("** internal pressure on the bore: face 6 (nodes 4-8-5-1) of the inner solids\n"
                "*DLOAD\n")
        f.write("".join(f"{int(e)},P6,{s.pressure}\n" for e in mesh.bore_elements.tolist()))
        f.write("*NODE FILE\nU\n*END STEP\n")


def frd_displacement(frd_path: str, node: int) -> Optional[Tuple[float, float, float]]:
    """Displacement of a node in the first DISP block of a CalculiX .frd file."""
    with open(frd_path) as f:
        lines = f.read().splitlines()
    start = next((i for i, ln in enumerate(lines) if "DISP" in ln), None)
    if start is None:
        return None
    for ln in lines[start + 1:]:
        if ln.startswith(" -3"):
            break
        if ln.startswith(" -1") and int(ln[3:13]) == node:
            return float(ln[13:25]), float(ln[25:37]), float(ln[37:49])
    return None


def _d3plot_array(path: str, dtype=None):
    raw = open(path, "rb").read()
    for dt in ([dtype] if dtype else ["<f4", "<f8"]):
        size = np.dtype(dt).itemsize
        w = np.frombuffer(raw[: len(raw) // size * size], dtype=dt)
        if dtype or abs(w[14] - 971.0) < 1e-3:
            return w, raw
    raise ValueError(f"{path}: not a parcae d3plot (version word is not 971)")


def d3plot_displacement(outdir: str, node: int) -> Optional[Tuple[float, float, float]]:
    """Displacement of node `node` (id = index + 1, as generated) at the last state of the
    d3plot family in outdir: current minus initial coordinates, read after parcae's layout
    (src/output/d3plot.cpp: 64 control words, coordinates first; states of 1 + NGLBV +
    3 (1 + IV + IA) NUMNP + NV3D NEL8 + NV2D NEL4 (+ NEL8 + NEL4 deletion flags) words)."""
    import glob
    base = os.path.join(outdir, "d3plot")
    w, raw = _d3plot_array(base)
    h = np.frombuffer(raw[: 64 * w.itemsize], dtype="<i4" if w.itemsize == 4 else "<i8")
    nn, nglbv, iv, ia, nel8, nv3d, nel4, nv2d, maxint = (
        int(h[k]) for k in (16, 18, 21, 22, 23, 27, 31, 33, 36))
    x0 = w[64:64 + 3 * nn].reshape(nn, 3)
    size = (1 + nglbv + 3 * (1 + iv + ia) * nn + nv3d * nel8 + nv2d * nel4
            + (nel8 + nel4 if maxint < 0 else 0))
    last = None
    for member in sorted(glob.glob(base + "[0-9][0-9]")):
        m, _ = _d3plot_array(member, w.dtype)
        k = 0
        while k + size <= len(m) and m[k] != -999999.0:
            last = m[k + 1 + nglbv:k + 1 + nglbv + 3 * nn].reshape(nn, 3)
            k += size
    if last is None:
        return None
    return tuple(float(v) for v in last[node - 1] - x0[node - 1])


def _cmd_cylinders(args) -> int:
    try:
        spec = cylinder_spec(args.scale, args.pressure)
    except ValueError as e:
        print(f"parcae generate: {e}", file=sys.stderr)
        return 1
    if args.ccx_element not in ("C3D8", "C3D8I"):
        print("parcae generate: --ccx-element must be C3D8 or C3D8I", file=sys.stderr)
        return 1
    if args.elform not in (1, 2):
        print("parcae generate: --elform must be 1 or 2", file=sys.stderr)
        return 1
    spec.elform = args.elform
    spec.out_of_core = args.out_of_core
    mesh = build_cylinders(spec)
    out = args.output or f"cylinders_s{spec.scale:g}.k"
    for p in [out] + ([args.ccx] if args.ccx else []):
        d = os.path.dirname(os.path.abspath(p))
        if not os.path.isdir(d):
            print(f"parcae generate: directory {d} does not exist", file=sys.stderr)
            return 1
    write_lsdyna(mesh, out)
    counts = model_counts(spec)
    print(f"wrote {out}: {counts['solids']} solids, {counts['nodes']} nodes, {counts['dof']} dof "
          f"({counts['free_dof']} free); {spec.n_theta} x {spec.tubes * spec.n_r} x {spec.n_z} "
          "elements (around x radial x axial)")
    if args.ccx:
        write_ccx(mesh, args.ccx, args.ccx_element)
        print(f"wrote {args.ccx} (CalculiX, {args.ccx_element})")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"spec": {k: v for k, v in asdict(spec).items() if k != "materials"},
                       "counts": counts}, f, indent=1)
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    args_in = list(sys.argv[1:] if argv is None else argv)
    if args_in and args_in[0] == "crash":  # vehicle-class crash models (vehicle.py)
        from .vehicle import main as crash_main
        return crash_main(args_in[1:])
    argv = args_in
    ap = argparse.ArgumentParser(prog="parcae generate",
                                 description="generated benchmark models")
    sub = ap.add_subparsers(dest="model", required=True)
    sub.add_parser("crash", help="vehicle-class crash models: crash --class neon|3cars|car2car "
                                 "[--elements N] [--seed S] -o DIR (see --help there)")
    c = sub.add_parser("cylinders", help="nested co-axial cylinders, implicit static (storage "
                                         "study, peer comparison)")
    c.add_argument("--scale", type=float, default=1.0,
                   help="element count about scale x 86,400 (default 1: 304,416 dof; 5.8: "
                        "about 0.55 M solids)")
    c.add_argument("-o", "--output", help="LS-DYNA deck (default cylinders_s<scale>.k)")
    c.add_argument("--ccx", metavar="INP", help="also write the CalculiX input")
    c.add_argument("--ccx-element", default="C3D8", help="C3D8 (default) or C3D8I")
    c.add_argument("--pressure", type=float, default=10.0, help="internal pressure, MPa")
    c.add_argument("--elform", type=int, default=2,
                   help="*SECTION_SOLID ELFORM: 2 (default, fully integrated) or 1")
    c.add_argument("--out-of-core", action="store_true",
                   help="*CONTROL_IMPLICIT_SOLVER ABSMEM = -1: MUMPS factors out of core, in "
                        "the --scratch directory of parcae run")
    c.add_argument("--json", help="write the spec and counts as JSON")
    args = ap.parse_args(argv)
    return _cmd_cylinders(args)


if __name__ == "__main__":
    sys.exit(main())
