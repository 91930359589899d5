import base64
import struct

import pytest

from parcae_tools.vtk import read_pvd, read_vtu_ascii_or_binary

# One hexahedron and one quadrilateral on its top face.
VTU = """<?xml version="1.0"?>
<VTKFile type="UnstructuredGrid" version="1.0" byte_order="LittleEndian" header_type="UInt64">
  <UnstructuredGrid>
    <FieldData>
      <DataArray type="Float64" Name="TIME" NumberOfTuples="1" format="ascii">0.5</DataArray>
    </FieldData>
    <Piece NumberOfPoints="8" NumberOfCells="2">
      <PointData Vectors="velocity">
        <DataArray type="Float64" Name="velocity" NumberOfComponents="3" format="ascii">
          0 0 -1  0 0 -1  0 0 -1  0 0 -1
          0 0 -2  0 0 -2  0 0 -2  0 0 -2
        </DataArray>
        <DataArray type="Int64" Name="node_id" format="ascii">1 2 3 4 5 6 7 8</DataArray>
      </PointData>
      <CellData Scalars="plastic_strain">
        <DataArray type="Float32" Name="plastic_strain" format="ascii">0.25 0</DataArray>
      </CellData>
      <Points>
        <DataArray type="Float64" NumberOfComponents="3" format="ascii">
          0 0 0  1 0 0  1 1 0  0 1 0
          0 0 1  1 0 1  1 1 1  0 1 1
        </DataArray>
      </Points>
      <Cells>
        <DataArray type="Int64" Name="connectivity" format="ascii">0 1 2 3 4 5 6 7  4 5 6 7</DataArray>
        <DataArray type="Int64" Name="offsets" format="ascii">8 12</DataArray>
        <DataArray type="UInt8" Name="types" format="ascii">12 9</DataArray>
      </Cells>
    </Piece>
  </UnstructuredGrid>
</VTKFile>
"""

PVD = """<?xml version="1.0"?>
<VTKFile type="Collection" version="0.1">
  <Collection>
    <DataSet timestep="0" part="0" file="run/state_0000.vtu"/>
    <DataSet timestep="0.5" part="0" file="run/state_0001.vtu"/>
  </Collection>
</VTKFile>
"""


def test_pvd(tmp_path):
    p = tmp_path / "run.pvd"
    p.write_text(PVD)
    got = read_pvd(p)
    assert got == [(0.0, str(tmp_path / "run" / "state_0000.vtu")),
                   (0.5, str(tmp_path / "run" / "state_0001.vtu"))]


def test_vtu_ascii_lists(tmp_path):
    p = tmp_path / "a.vtu"
    p.write_text(VTU)
    g = read_vtu_ascii_or_binary(p)
    assert len(g["points"]) == 8
    assert g["points"][6] == [1.0, 1.0, 1.0]
    assert g["types"] == [12, 9]
    assert g["offsets"] == [8, 12]
    assert g["cells"] == [[0, 1, 2, 3, 4, 5, 6, 7], [4, 5, 6, 7]]
    assert g["point_data"]["velocity"][4] == [0.0, 0.0, -2.0]
    assert g["point_data"]["node_id"] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert g["cell_data"]["plastic_strain"] == [0.25, 0.0]
    assert g["field_data"]["TIME"] == [0.5]


def test_vtu_ascii_numpy(tmp_path):
    np = pytest.importorskip("numpy")
    p = tmp_path / "a.vtu"
    p.write_text(VTU)
    g = read_vtu_ascii_or_binary(p, as_numpy=True)
    assert g["points"].shape == (8, 3)
    assert g["point_data"]["velocity"].shape == (8, 3)
    np.testing.assert_allclose(g["points"].mean(axis=0), [0.5, 0.5, 0.5])
    assert g["cell_data"]["plastic_strain"].shape == (2,)


def _b64(values, code, header="Q", together=True):
    payload = struct.pack("<%d%s" % (len(values), code), *values)
    head = struct.pack("<" + header, len(payload))
    if together:
        return base64.b64encode(head + payload).decode()
    return base64.b64encode(head).decode() + base64.b64encode(payload).decode()


@pytest.mark.parametrize("together", [True, False])
def test_vtu_inline_binary(tmp_path, together):
    pts = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]
    text = f"""<?xml version="1.0"?>
<VTKFile type="UnstructuredGrid" version="1.0" byte_order="LittleEndian" header_type="UInt64">
  <UnstructuredGrid>
    <Piece NumberOfPoints="3" NumberOfCells="1">
      <PointData>
        <DataArray type="Float32" Name="t" format="binary">{_b64([1.5, 2.5, 3.5], "f", together=together)}</DataArray>
      </PointData>
      <Points>
        <DataArray type="Float64" NumberOfComponents="3" format="binary">{_b64(pts, "d", together=together)}</DataArray>
      </Points>
      <Cells>
        <DataArray type="Int32" Name="connectivity" format="binary">{_b64([0, 1, 2], "i", together=together)}</DataArray>
        <DataArray type="Int32" Name="offsets" format="binary">{_b64([3], "i", together=together)}</DataArray>
        <DataArray type="UInt8" Name="types" format="binary">{_b64([5], "B", together=together)}</DataArray>
      </Cells>
    </Piece>
  </UnstructuredGrid>
</VTKFile>
"""
    p = tmp_path / "b.vtu"
    p.write_text(text)
    g = read_vtu_ascii_or_binary(p)
    assert g["points"] == [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    assert g["cells"] == [[0, 1, 2]]
    assert g["types"] == [5]
    assert g["point_data"]["t"] == [1.5, 2.5, 3.5]


def test_vtu_appended_not_supported(tmp_path):
    text = VTU.replace('format="ascii">0.25 0', 'format="appended" offset="0">')
    p = tmp_path / "c.vtu"
    p.write_text(text)
    with pytest.raises(NotImplementedError):
        read_vtu_ascii_or_binary(p)
