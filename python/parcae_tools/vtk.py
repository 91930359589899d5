"""Minimal readers for the VTK XML files parcae writes: .pvd collections and
UnstructuredGrid (.vtu) pieces with ``format="ascii"`` DataArrays.

Inline ``format="binary"`` (base64, uncompressed) arrays are read too; appended data and
compressed arrays are not (they raise NotImplementedError).  Standard library only; numpy is
used when asked for (``as_numpy=True``).
"""

from __future__ import annotations

import base64
import os
import struct
import pathlib
import xml.etree.ElementTree as ET
from typing import Dict, List, Tuple

__all__ = ["read_pvd", "read_vtu_ascii_or_binary"]

_STRUCT = {
    "Int8": "b",
    "UInt8": "B",
    "Int16": "h",
    "UInt16": "H",
    "Int32": "i",
    "UInt32": "I",
    "Int64": "q",
    "UInt64": "Q",
    "Float32": "f",
    "Float64": "d",
    # legacy names
    "Char": "b",
    "UChar": "B",
    "Short": "h",
    "UShort": "H",
    "Int": "i",
    "UInt": "I",
    "Long": "q",
    "ULong": "Q",
    "Float": "f",
    "Double": "d",
}


def read_pvd(path) -> List[Tuple[float, str]]:
    """The datasets of a ParaView collection (.pvd): [(time, file), ...] in file order.

    file is the DataSet's ``file`` attribute resolved against the .pvd's directory (absolute
    paths are kept as they are)."""
    root = ET.parse(path).getroot()
    if root.tag != "VTKFile" or root.get("type") != "Collection":
        raise ValueError(f"{path}: not a VTK Collection (.pvd) file")
    base = os.path.dirname(os.path.abspath(path))
    out: List[Tuple[float, str]] = []
    for ds in root.iter("DataSet"):
        f = ds.get("file")
        if f is None:
            raise ValueError(f"{path}: DataSet without a file attribute")
        out.append((float(ds.get("timestep", "0")), os.path.normpath(os.path.join(base, f))))
    return out


def _values_ascii(text: str, vtype: str) -> list:
    words = (text or "").split()
    if _STRUCT.get(vtype, "d") in "fd":
        return [float(w) for w in words]
    return [int(w) for w in words]


def _values_binary(text: str, vtype: str, byte_order: str, header_type: str) -> list:
    code = _STRUCT[vtype]
    endian = ">" if byte_order == "BigEndian" else "<"
    hcode = "Q" if header_type == "UInt64" else "I"
    hsize = struct.calcsize(hcode)
    data = "".join((text or "").split())
    if not data:
        return []
    # The byte-count header is base64-encoded either on its own (ends in '=' padding) or
    # together with the data.
    hchars = 4 * ((hsize + 2) // 3)
    if data[hchars - 1] == "=":
        first = base64.b64decode(data[:hchars])
        header, payload = first[:hsize], first[hsize:] + base64.b64decode(data[hchars:])
    else:
        raw = base64.b64decode(data)
        header, payload = raw[:hsize], raw[hsize:]
    (nbytes,) = struct.unpack(endian + hcode, header[:hsize])
    payload = payload[:nbytes]
    n = nbytes // struct.calcsize(code)
    return list(struct.unpack(f"{endian}{n}{code}", payload[: n * struct.calcsize(code)]))


def _read_array(da: ET.Element, byte_order: str, header_type: str, compressed: bool):
    """(name, flat values, number of components) of one DataArray."""
    vtype = da.get("type", "Float64")
    if vtype not in _STRUCT:
        raise NotImplementedError(f"DataArray type {vtype!r}")
    fmt = da.get("format", "ascii")
    ncomp = int(da.get("NumberOfComponents", "1"))
    name = da.get("Name", "")
    if fmt == "ascii":
        vals = _values_ascii(da.text, vtype)
    elif fmt == "binary":
        if compressed:
            raise NotImplementedError("compressed binary DataArrays are not supported")
        vals = _values_binary(da.text, vtype, byte_order, header_type)
    else:
        raise NotImplementedError(f"DataArray format {fmt!r} (appended data) is not supported")
    return name, vals, ncomp


def _shape(vals: list, ncomp: int, as_numpy: bool):
    if as_numpy:
        import numpy as np

        a = np.asarray(vals)
        return a.reshape(-1, ncomp) if ncomp > 1 else a
    if ncomp > 1:
        return [vals[i : i + ncomp] for i in range(0, len(vals), ncomp)]
    return vals


def read_vtu_ascii_or_binary(path, as_numpy: bool = False) -> Dict[str, object]:
    """Read a VTK XML UnstructuredGrid (.vtu).

    Returns a dict with
      points      -- one [x, y, z] per point
      connectivity, offsets, types -- the Cells arrays as stored
      cells       -- one list of point indices per cell (from connectivity and offsets)
      point_data, cell_data -- {name: values}; arrays with several components hold one
                     list (row) per point or cell
      field_data  -- {name: values} from <FieldData> (e.g. TIME, CYCLE), if any
    Several <Piece>s are concatenated (indices shifted).  With as_numpy=True the arrays are
    numpy arrays (n x components), cells stays a list of lists.
    """
    root = ET.parse(path).getroot()
    if root.tag == "VTKFile" and root.get("type") == "PUnstructuredGrid":
        return read_pvtu(path, as_numpy)
    if root.tag != "VTKFile" or root.get("type") != "UnstructuredGrid":
        raise ValueError(f"{path}: not a VTK XML UnstructuredGrid (.vtu) file")
    byte_order = root.get("byte_order", "LittleEndian")
    header_type = root.get("header_type", "UInt32")
    compressed = root.get("compressor") is not None
    grid = root.find("UnstructuredGrid")
    if grid is None:
        raise ValueError(f"{path}: no <UnstructuredGrid>")

    def read(da):
        return _read_array(da, byte_order, header_type, compressed)

    points: list = []
    conn: list = []
    offsets: list = []
    types: list = []
    point_data: Dict[str, list] = {}
    cell_data: Dict[str, list] = {}
    ncomps: Dict[Tuple[str, str], int] = {}
    field_data: Dict[str, object] = {}

    fd = grid.find("FieldData")
    if fd is not None:
        for da in fd.findall("DataArray"):
            name, vals, ncomp = read(da)
            field_data[name] = _shape(vals, ncomp, as_numpy)

    for piece in grid.findall("Piece"):
        npts = int(piece.get("NumberOfPoints", "0"))
        ncells = int(piece.get("NumberOfCells", "0"))
        point_shift = len(points) // 3
        conn_shift = len(conn)
        pts = piece.find("Points")
        if pts is not None and pts.find("DataArray") is not None:
            _, vals, ncomp = read(pts.find("DataArray"))
            if ncomp != 3 or len(vals) != 3 * npts:
                raise ValueError(f"{path}: Points hold {len(vals)} values for {npts} points")
            points.extend(float(v) for v in vals)
        cells = piece.find("Cells")
        if cells is not None:
            arrays = {da.get("Name"): read(da)[1] for da in cells.findall("DataArray")}
            conn.extend(int(i) + point_shift for i in arrays.get("connectivity", []))
            offsets.extend(int(o) + conn_shift for o in arrays.get("offsets", []))
            types.extend(int(t) for t in arrays.get("types", []))
            if len(arrays.get("types", [])) != ncells:
                raise ValueError(f"{path}: {len(arrays.get('types', []))} cell types for "
                                 f"{ncells} cells")
        for tag, store in (("PointData", point_data), ("CellData", cell_data)):
            block = piece.find(tag)
            if block is None:
                continue
            for da in block.findall("DataArray"):
                name, vals, ncomp = read(da)
                store.setdefault(name, []).extend(vals)
                ncomps[(tag, name)] = ncomp

    cell_lists = []
    start = 0
    for end in offsets:
        cell_lists.append(conn[start:end])
        start = end

    return {
        "points": _shape(points, 3, as_numpy),
        "connectivity": _shape(conn, 1, as_numpy),
        "offsets": _shape(offsets, 1, as_numpy),
        "types": _shape(types, 1, as_numpy),
        "cells": cell_lists,
        "point_data": {k: _shape(v, ncomps[("PointData", k)], as_numpy)
                       for k, v in point_data.items()},
        "cell_data": {k: _shape(v, ncomps[("CellData", k)], as_numpy)
                      for k, v in cell_data.items()},
        "field_data": field_data,
    }


def read_pvtu(path, as_numpy: bool = False) -> Dict[str, object]:
    """Read a parallel .pvtu (one .vtu piece per MPI rank) as one grid.

    parcae's pieces carry node_index / element_index (the model's node and element order): the
    pieces are then put back together in that order, shared nodes once, so the result has the
    layout of the one-rank run's .vtu (node_index and element_index themselves are dropped).
    Pieces without them are concatenated.
    """
    path = pathlib.Path(path)
    root = ET.parse(path).getroot()
    grid = root.find("PUnstructuredGrid")
    if grid is None:
        raise ValueError(f"{path}: no <PUnstructuredGrid>")
    pieces = [read_vtu_ascii_or_binary(path.parent / p.get("Source")) for p in grid.findall("Piece")]
    if not pieces:
        raise ValueError(f"{path}: no pieces")
    if not all("node_index" in p["point_data"] and "element_index" in p["cell_data"]
               for p in pieces):
        out = {"points": [], "cells": [], "types": [], "point_data": {}, "cell_data": {}}
        for p in pieces:
            shift = len(out["points"])
            out["points"] += p["points"]
            out["cells"] += [[i + shift for i in c] for c in p["cells"]]
            out["types"] += p["types"]
            for key in ("point_data", "cell_data"):
                for k, v in p[key].items():
                    out[key].setdefault(k, []).extend(v)
    else:
        nn = 1 + max(int(i) for p in pieces for i in p["point_data"]["node_index"])
        ne = 1 + max(int(i) for p in pieces for i in p["cell_data"]["element_index"])
        points = [None] * nn
        cells = [None] * ne
        types = [None] * ne
        pdata = {k: [None] * nn for k in pieces[0]["point_data"] if k != "node_index"}
        cdata = {k: [None] * ne for k in pieces[0]["cell_data"] if k != "element_index"}
        for p in pieces:
            nidx = [int(i) for i in p["point_data"]["node_index"]]
            for j, n in enumerate(nidx):
                points[n] = p["points"][j]
                for k in pdata:
                    pdata[k][n] = p["point_data"][k][j]
            for j, e in enumerate(int(i) for i in p["cell_data"]["element_index"]):
                cells[e] = [nidx[i] for i in p["cells"][j]]
                types[e] = p["types"][j]
                for k in cdata:
                    cdata[k][e] = p["cell_data"][k][j]
        missing = [n for n, x in enumerate(points) if x is None]
        if missing or any(c is None for c in cells):
            raise ValueError(f"{path}: pieces do not cover the model (first missing node index "
                             f"{missing[:1]})")
        out = {"points": points, "cells": cells, "types": types, "point_data": pdata,
               "cell_data": cdata}
    conn = [i for c in out["cells"] for i in c]
    offsets, end = [], 0
    for c in out["cells"]:
        end += len(c)
        offsets.append(end)
    result = {"points": out["points"], "connectivity": conn, "offsets": offsets,
              "types": out["types"], "cells": out["cells"], "point_data": out["point_data"],
              "cell_data": out["cell_data"], "field_data": pieces[0]["field_data"]}
    if as_numpy:
        import numpy as np
        for k in ("points", "connectivity", "offsets", "types"):
            result[k] = np.asarray(result[k])
        for key in ("point_data", "cell_data"):
            result[key] = {k: np.asarray(v) for k, v in result[key].items()}
    return result
