#!/usr/bin/env python3
"""Writes contact_sliding.k: an elastic block sliding to rest on a fixed plate (Coulomb friction).

usage: make_contact_sliding.py [OUT.k]
"""
import pathlib
import sys

RHO, E, NU = 1.0e-9, 0.02, 0.0  # soft "foam": c0 = 4472 mm/s, so the run takes few cycles
G = 9810.0  # mm/s^2
MU = 0.2
V0 = 200.0  # mm/s
BX, BY, BZ, NBX, NBY, NBZ = 4.0, 4.0, 2.0, 4, 4, 2  # block size and elements
PX, PY, PZ, NPX, NPY, NPZ = 20.0, 8.0, 1.0, 20, 8, 1  # plate
X0 = 2.0  # block's initial x position (left face), centred in y on the plate
ENDTIM = 0.15


def deck(endtim=ENDTIM, glstat=1.0e-3, d3plot=1.0e-2, header=True):
    stop = V0 ** 2 / (2 * MU * G) if MU > 0 else 0.0
    out = []
    if header:
        out += [
            "$ A block sliding to rest on a fixed plate: Coulomb friction in penalty contact.",
            "$",
            "$ Run:    build/release/bin/parcae run examples/contact_sliding/contact_sliding.k -o runs/contact_sliding --vtk",
            "$         (add --np 2 for two MPI ranks: the outputs are bitwise identical)",
            "$ Units:  t, mm, s, N, MPa.",
            f"$ Case:   a {BX:g} x {BY:g} x {BZ:g} mm block ({NBX}x{NBY}x{NBZ} hexahedra, part 1) rests on a "
            f"{PX:g} x {PY:g} x {PZ:g} mm",
            f"$         plate ({NPX}x{NPY}x{NPZ} hexahedra, part 2, every node fixed) under gravity "
            f"g = {G:g} mm/s^2",
            "$         (*LOAD_BODY_Z, constant *DEFINE_CURVE) and starts sliding along x at",
            f"$         v0 = {V0:g} mm/s. *CONTACT_AUTOMATIC_SURFACE_TO_SURFACE_ID 1 with FS = FD = mu = {MU:g}.",
            "$         Soft elastic material (E = 0.02 MPa, rho = 1e-9 t/mm^3, nu = 0: the weight",
            "$         compresses the block by 1e-3 only) so that the 0.1 s slide takes ~800 cycles.",
            f"$ Look at: the block's velocity (history.csv part1_xmom / part1_mass, matsum) falls",
            f"$         linearly at mu g = {MU * G:g} mm/s^2 and reaches 0 at t = v0 / (mu g) = "
            f"{V0 / (MU * G):.4f} s, after",
            f"$         v0^2 / (2 mu g) = {stop:.3f} mm (VTK displacement); glstat's frictional energy",
            "$         equals the kinetic energy lost, 0.5 m v0^2. python/tests/",
            "$         test_contact_verification.py checks these figures.",
        ]
    out += [
        "*KEYWORD",
        "*TITLE",
        "block sliding on a plate with friction",
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
        "*PART",
        "block",
        "$      pid     secid       mid",
        "         1         1         1",
        "*PART",
        "plate",
        "         2         1         1",
        "*SECTION_SOLID",
        "$    secid    elform",
        "         1         1",
        "*MAT_ELASTIC",
        "$      mid        ro         e        pr",
        f"         1{RHO:10.3e}{E:10.4f}{NU:10.3f}",
        "*CONTACT_AUTOMATIC_SURFACE_TO_SURFACE_ID",
        "$      cid   heading",
        "         1 block on plate",
        "$     ssid      msid     sstyp     mstyp",
        "         1         2         3         3",
        "$       fs        fd",
        f"{MU:10.3f}{MU:10.3f}",
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
        "*INITIAL_VELOCITY_GENERATION",
        "$       id      styp     omega        vx        vy        vz",
        f"         1         2       0.0{V0:10.2f}       0.0       0.0",
        "       0.0       0.0       0.0       0.0       0.0       0.0",
    ]
    nodes, elems, plate_nodes = [], [], []
    nid, eid = 0, 0

    def brick(pid, x0, y0, z0, lx, ly, lz, nx, ny, nz):
        nonlocal nid, eid
        ids = {}
        for k in range(nz + 1):
            for j in range(ny + 1):
                for i in range(nx + 1):
                    nid += 1
                    ids[i, j, k] = nid
                    nodes.append(f"{nid:8d}{x0 + lx * i / nx:16.6f}{y0 + ly * j / ny:16.6f}"
                                 f"{z0 + lz * k / nz:16.6f}")
        for k in range(nz):
            for j in range(ny):
                for i in range(nx):
                    eid += 1
                    n = [ids[i, j, k], ids[i + 1, j, k], ids[i + 1, j + 1, k], ids[i, j + 1, k],
                         ids[i, j, k + 1], ids[i + 1, j, k + 1], ids[i + 1, j + 1, k + 1],
                         ids[i, j + 1, k + 1]]
                    elems.append(f"{eid:8d}{pid:8d}" + "".join(f"{x:8d}" for x in n))
        return sorted(ids.values())

    brick(1, X0, (PY - BY) / 2, 0.0, BX, BY, BZ, NBX, NBY, NBZ)
    plate_nodes = brick(2, 0.0, 0.0, -PZ, PX, PY, PZ, NPX, NPY, NPZ)
    out += ["*SET_NODE_LIST", "$      sid", "         1"]
    for r in range(0, len(plate_nodes), 8):
        out.append("".join(f"{n:10d}" for n in plate_nodes[r:r + 8]))
    out += ["*BOUNDARY_SPC_SET", "$     nsid       cid      dofx      dofy      dofz",
            "         1         0         1         1         1"]
    out += ["*NODE"] + nodes + ["*ELEMENT_SOLID"] + elems + ["*END"]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    path = sys.argv[1] if len(sys.argv) > 1 else str(pathlib.Path(__file__).with_name("contact_sliding.k"))
    pathlib.Path(path).write_text(deck())
