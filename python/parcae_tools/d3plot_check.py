"""Read a d3plot family with two independent readers: lasso-python (``lasso.dyna.D3plot``) and
VTK (``vtkLSDynaReader``), into numpy arrays with the same names and layout.

Both need the reader environment (``scripts/setup_pyenv.sh`` -> ``build/pyenv``). Run as a
script with that environment's python, it prints the arrays as JSON, which is how the tests
(run by the system python) use it::

    build/pyenv/bin/python python/parcae_tools/d3plot_check.py --reader lasso out/d3plot

Returned arrays (``n`` states; shells in the writer's point order bottom, middle, top):

- ``time`` (n,); ``node_id``; ``x0`` (nodes, 3); ``x``, ``disp``, ``v``, ``a`` (n, nodes, 3)
- ``solid_id``, ``solid_part_id``; ``solid_sig`` (n, solids, 6); ``solid_epsp`` (n, solids)
- ``shell_id``, ``shell_part_id``; ``shell_sig`` (n, shells, layers, 6); ``shell_epsp``
  (n, shells, layers); ``shell_resultants`` (n, shells, 8: Mxx Myy Mxy Qyz Qxz Nxx Nyy Nxy);
  ``shell_thickness``, ``shell_energy`` (n, shells)
- lasso only: ``kinetic``, ``internal``, ``total`` (n,), ``velocity`` (n, 3), ``part_id``,
  ``part_title``, ``part_internal``, ``part_kinetic``, ``part_mass``, ``part_hourglass``
  (n, parts), ``part_velocity`` (n, parts, 3), ``solid_active``, ``shell_active`` (n, elements)

lasso returns nodes and elements in file order. VTK returns them by part: ``read_vtk`` sorts
elements by id (solids and shells separately) and returns the points of every part in its own
order with their initial coordinates ``x0``, to be matched to nodes with ``match_nodes`` (VTK's
point id array is unusable for 4-byte files); ``read_lasso`` sorts by id too with
``sort_by_id=True``.
"""

from __future__ import annotations

import json
import os
import sys

import numpy as np

if __name__ == "__main__":
    # Run as a script, this file's directory is first on sys.path, and its sibling vtk.py (the
    # VTK XML reader of parcae_tools) would hide the VTK package.
    _here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]

# LS-DYNA writes three through-thickness points as middle, inner (bottom), outer (top).
_FILE_TO_BOTTOM_MIDDLE_TOP = [1, 0, 2]


def _layers_to_bmt(a):
    """(…, layers, …) in file order -> bottom, middle, top when there are 3 layers."""
    if a.shape[2] == 3:
        return a[:, :, _FILE_TO_BOTTOM_MIDDLE_TOP, ...]
    return a


def read_lasso(path, sort_by_id=False):
    """Arrays of the d3plot family starting at `path`, read by lasso-python."""
    from lasso.dyna import ArrayType as A
    from lasso.dyna import D3plot

    d = D3plot(str(path))
    ar = d.arrays

    def get(key, default=None):
        return np.asarray(ar[key]) if key in ar else default

    out = {}
    out["time"] = get(A.global_timesteps)
    out["node_id"] = get(A.node_ids)
    out["x0"] = get(A.node_coordinates)
    n = len(out["time"])
    out["x"] = get(A.node_displacement)  # LS-DYNA's "displacement" array holds coordinates
    out["disp"] = out["x"] - out["x0"][None, :, :]
    out["v"] = get(A.node_velocity)
    out["a"] = get(A.node_acceleration)
    part_ids = get(A.part_ids)
    out["part_id"] = part_ids
    titles = get(A.part_titles)
    if titles is not None:
        out["part_title"] = [t.decode("ascii", "replace").strip() for t in titles]
    out["solid_id"] = get(A.element_solid_ids)
    out["solid_part_id"] = part_ids[get(A.element_solid_part_indexes)]
    ns = len(out["solid_id"])
    out["solid_sig"] = get(A.element_solid_stress, np.zeros((n, ns, 1, 6)))[:, :, 0, :]
    out["solid_epsp"] = get(A.element_solid_effective_plastic_strain, np.zeros((n, ns, 1)))[
        :, :, 0
    ]
    out["shell_id"] = get(A.element_shell_ids)
    out["shell_part_id"] = part_ids[get(A.element_shell_part_indexes)]
    nsh = len(out["shell_id"])
    if nsh:
        out["shell_sig"] = _layers_to_bmt(get(A.element_shell_stress))
        out["shell_epsp"] = _layers_to_bmt(get(A.element_shell_effective_plastic_strain))
        out["shell_resultants"] = np.concatenate(
            [
                get(A.element_shell_bending_moment),
                get(A.element_shell_shear_force),
                get(A.element_shell_normal_force),
            ],
            axis=2,
        )
        out["shell_thickness"] = get(A.element_shell_thickness)
        out["shell_energy"] = get(A.element_shell_internal_energy)
        out["shell_active"] = get(A.element_shell_is_alive)
    if ns:
        out["solid_active"] = get(A.element_solid_is_alive)
    out["kinetic"] = get(A.global_kinetic_energy)
    out["internal"] = get(A.global_internal_energy)
    out["total"] = get(A.global_total_energy)
    out["velocity"] = get(A.global_velocity)
    out["part_internal"] = get(A.part_internal_energy)
    out["part_kinetic"] = get(A.part_kinetic_energy)
    out["part_mass"] = get(A.part_mass)
    out["part_hourglass"] = get(A.part_hourglass_energy)
    out["part_velocity"] = get(A.part_velocity)
    out = {k: v for k, v in out.items() if v is not None}
    if sort_by_id:
        out = _sort_by_id(out)
    return out


_NODE_KEYS = ("x0", "x", "disp", "v", "a")
_SOLID_KEYS = ("solid_part_id", "solid_sig", "solid_epsp", "solid_active")
_SHELL_KEYS = (
    "shell_part_id",
    "shell_sig",
    "shell_epsp",
    "shell_resultants",
    "shell_thickness",
    "shell_energy",
    "shell_active",
)


def _sort_by_id(out):
    out = dict(out)
    for ids, keys in (("node_id", _NODE_KEYS), ("solid_id", _SOLID_KEYS), ("shell_id", _SHELL_KEYS)):
        if ids not in out:
            continue
        order = np.argsort(out[ids], kind="stable")
        out[ids] = out[ids][order]
        for k in keys:
            if k not in out:
                continue
            axis = 0 if k in ("x0", "solid_part_id", "shell_part_id") else 1
            out[k] = np.take(out[k], order, axis=axis)
    return out


def read_vtk(path):
    """Arrays of the d3plot family starting at `path`, read by VTK's vtkLSDynaReader: elements
    sorted by id, points part by part with their initial coordinates ``x0`` (see
    ``match_nodes``)."""
    import vtk
    from vtk.util.numpy_support import vtk_to_numpy

    def reader():
        r = vtk.vtkLSDynaReader()
        r.SetFileName(str(path))
        r.UpdateInformation()
        for i in range(r.GetNumberOfPointArrays()):
            r.SetPointArrayStatus(i, 1)
        for i in range(r.GetNumberOfSolidArrays()):
            r.SetSolidArrayStatus(i, 1)
        for i in range(r.GetNumberOfShellArrays()):
            r.SetShellArrayStatus(i, 1)
        r.RemoveDeletedCellsOff()
        return r

    r = reader()
    nsteps = r.GetNumberOfTimeSteps()
    part_names = [r.GetPartArrayName(i) for i in range(r.GetNumberOfPartArrays())]

    def arr(data, name):
        a = data.GetArray(name)
        # copies: the reader reuses its arrays for the next time step
        return None if a is None else vtk_to_numpy(a).copy()

    states = []
    for step in range(nsteps):
        # A fresh reader per step: a reader that has read another step computes "Deflection"
        # against that step's deformed points instead of the initial ones.
        rs = reader()
        rs.SetTimeStep(step)
        rs.Update()
        mb = rs.GetOutput()
        nodes = []
        solids = {}
        shells = {}
        for b in range(mb.GetNumberOfBlocks()):
            g = mb.GetBlock(b)
            if g is None or g.GetNumberOfPoints() == 0:
                continue
            pd, cd = g.GetPointData(), g.GetCellData()
            pts = vtk_to_numpy(g.GetPoints().GetData()).copy()
            nodes.append(
                (pts, arr(pd, "Deflection"), arr(pd, "Velocity"), arr(pd, "Acceleration"))
            )
            cid = arr(cd, "UserIds")
            types = [g.GetCellType(c) for c in range(g.GetNumberOfCells())]
            names = [cd.GetArrayName(i) for i in range(cd.GetNumberOfArrays())]
            cols = {nm: arr(cd, nm) for nm in names}
            for c, eid in enumerate(cid):
                rec = {nm: cols[nm][c] for nm in names}
                rec["part"] = b
                (solids if types[c] == vtk.VTK_HEXAHEDRON else shells)[int(eid)] = rec
        states.append((nodes, solids, shells))
    out = {"time": np.array([r.GetTimeValue(i) for i in range(nsteps)])}
    out["part_title"] = part_names
    if not states:
        return out
    # Points: every part's copy, in VTK's order (its point "UserID" array is not usable: VTK
    # 9.x reads 4-byte ids into 8-byte slots); match them to nodes by initial coordinates.
    for i, key in enumerate(("x", "disp", "v", "a")):
        out[key] = np.array([np.concatenate([blk[i] for blk in s[0]]) for s in states])
    out["x0"] = out["x"][0] - out["disp"][0]
    solid_ids = sorted(states[0][1])
    out["solid_id"] = np.array(solid_ids, dtype=np.int64)
    if solid_ids:
        out["solid_part_index"] = np.array([states[0][1][i]["part"] for i in solid_ids])
        out["solid_sig"] = np.array([[s[1][i]["Stress"] for i in solid_ids] for s in states])
        out["solid_epsp"] = np.array([[s[1][i]["EffPlastStrn"] for i in solid_ids] for s in states])
    shell_ids = sorted(states[0][2])
    out["shell_id"] = np.array(shell_ids, dtype=np.int64)
    if shell_ids:
        def layered(stem, i, s):
            return [s[2][i][stem + "InnerSurf"], s[2][i][stem], s[2][i][stem + "OuterSurf"]]

        out["shell_part_index"] = np.array([states[0][2][i]["part"] for i in shell_ids])
        out["shell_sig"] = np.array([[layered("Stress", i, s) for i in shell_ids] for s in states])
        out["shell_epsp"] = np.array(
            [[layered("EffPlastStrn", i, s) for i in shell_ids] for s in states]
        )
        out["shell_resultants"] = np.array(
            [
                [
                    np.concatenate(
                        [  # VTK names the 8 words in file order Normal(3) Shear(2)
                            # Bending(3); the manual's order is M(3) Q(2) N(3)
                            s[2][i]["NormalResultant"],
                            s[2][i]["ShearResultant"],
                            s[2][i]["BendingResultant"],
                        ]
                    )
                    for i in shell_ids
                ]
                for s in states
            ]
        )
        out["shell_thickness"] = np.array([[s[2][i]["Thickness"] for i in shell_ids] for s in states])
        out["shell_energy"] = np.array(
            [[s[2][i]["InternalEnergy"] for i in shell_ids] for s in states]
        )
    return out


def match_nodes(x0_ref, x0_points, tol=1e-5):
    """For each point (initial coordinates x0_points, (m, 3)), the index of the node of x0_ref
    ((n, 3)) at the same place; raises ValueError when a point matches no node within tol
    relative to the model size."""
    x0_ref = np.asarray(x0_ref, dtype=float).reshape(-1, 3)
    x0_points = np.asarray(x0_points, dtype=float).reshape(-1, 3)
    scale = max(float(np.ptp(x0_ref, axis=0).max()), 1e-30)
    idx = np.empty(len(x0_points), dtype=np.int64)
    for k0 in range(0, len(x0_points), 256):
        d = np.linalg.norm(x0_points[k0 : k0 + 256, None, :] - x0_ref[None, :, :], axis=2)
        j = np.argmin(d, axis=1)
        if np.any(d[np.arange(len(j)), j] > tol * scale):
            raise ValueError("a point matches no node of the reference coordinates")
        idx[k0 : k0 + 256] = j
    return idx


def _jsonable(d):
    out = {}
    for k, v in d.items():
        if isinstance(v, np.ndarray):
            out[k] = v.tolist()
        elif isinstance(v, list):
            out[k] = [x.decode() if isinstance(x, bytes) else x for x in v]
        else:
            out[k] = v
    return out


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reader", choices=["lasso", "vtk"], required=True)
    ap.add_argument("--sort-by-id", action="store_true", help="lasso: nodes/elements by id")
    ap.add_argument("d3plot")
    a = ap.parse_args(argv)
    if a.reader == "lasso":
        d = read_lasso(a.d3plot, sort_by_id=a.sort_by_id)
    else:
        d = read_vtk(a.d3plot)
    json.dump(_jsonable(d), sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
