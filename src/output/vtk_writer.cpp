#include "output/vtk_writer.hpp"

#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/os.h>

namespace parcae {

namespace {

void write_array(fmt::ostream& out, const VtkArray& a) {
  out.print("        <DataArray type=\"Float64\" Name=\"{}\" NumberOfComponents=\"{}\" "
            "format=\"ascii\">\n",
            a.name, a.ncomp);
  for (std::size_t i = 0; i < a.values.size(); ++i)
    out.print("{}{}", a.values[i],
              (i + 1) % static_cast<std::size_t>(a.ncomp * 4) == 0 ? "\n" : " ");
  out.print("\n        </DataArray>\n");
}

template <class T>
void write_ints(fmt::ostream& out, const char* type, const char* name, const std::vector<T>& v) {
  out.print("        <DataArray type=\"{}\" Name=\"{}\" format=\"ascii\">\n", type, name);
  for (std::size_t i = 0; i < v.size(); ++i)
    out.print("{}{}", static_cast<long long>(v[i]), (i + 1) % 16 == 0 ? "\n" : " ");
  out.print("\n        </DataArray>\n");
}

} // namespace

void write_vtu(const std::string& path, const VtkGrid& grid, Real time) {
  const std::string tmp = path + ".tmp";
  {
    auto out = fmt::output_file(tmp);
    const std::size_t npts = grid.points.size() / 3;
    out.print("<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" "
              "byte_order=\"LittleEndian\" header_type=\"UInt64\">\n  <UnstructuredGrid>\n");
    out.print("    <FieldData>\n      <DataArray type=\"Float64\" Name=\"TIME\" "
              "NumberOfTuples=\"1\" format=\"ascii\">{}</DataArray>\n    </FieldData>\n",
              time);
    out.print("    <Piece NumberOfPoints=\"{}\" NumberOfCells=\"{}\">\n", npts, grid.types.size());
    out.print("      <PointData>\n");
    for (const auto& a : grid.point_data) write_array(out, a);
    out.print("      </PointData>\n      <CellData>\n");
    for (const auto& a : grid.cell_data) write_array(out, a);
    out.print("      </CellData>\n      <Points>\n");
    write_array(out, VtkArray{"Points", 3, {grid.points.begin(), grid.points.end()}});
    out.print("      </Points>\n      <Cells>\n");
    write_ints(out, "Int64", "connectivity", grid.connectivity);
    write_ints(out, "Int64", "offsets", grid.offsets);
    write_ints(out, "UInt8", "types", grid.types);
    out.print("      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n</VTKFile>\n");
  }
  std::filesystem::rename(tmp, path);
}

void write_pvtu(const std::string& path, const std::vector<std::string>& pieces,
                const VtkGrid& layout) {
  const std::string tmp = path + ".tmp";
  {
    auto out = fmt::output_file(tmp);
    out.print("<?xml version=\"1.0\"?>\n<VTKFile type=\"PUnstructuredGrid\" version=\"1.0\" "
              "byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
              "  <PUnstructuredGrid GhostLevel=\"0\">\n    <PPointData>\n");
    for (const auto& a : layout.point_data)
      out.print("      <PDataArray type=\"Float64\" Name=\"{}\" NumberOfComponents=\"{}\"/>\n",
                a.name, a.ncomp);
    out.print("    </PPointData>\n    <PCellData>\n");
    for (const auto& a : layout.cell_data)
      out.print("      <PDataArray type=\"Float64\" Name=\"{}\" NumberOfComponents=\"{}\"/>\n",
                a.name, a.ncomp);
    out.print("    </PCellData>\n    <PPoints>\n      <PDataArray type=\"Float64\" "
              "Name=\"Points\" NumberOfComponents=\"3\"/>\n    </PPoints>\n");
    for (const auto& piece : pieces) out.print("    <Piece Source=\"{}\"/>\n", piece);
    out.print("  </PUnstructuredGrid>\n</VTKFile>\n");
  }
  std::filesystem::rename(tmp, path);
}

void write_pvd(const std::string& path, const std::vector<std::pair<Real, std::string>>& states) {
  const std::string tmp = path + ".tmp";
  {
    auto out = fmt::output_file(tmp);
    out.print("<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"1.0\" "
              "byte_order=\"LittleEndian\">\n  <Collection>\n");
    for (const auto& [t, file] : states)
      out.print("    <DataSet timestep=\"{}\" group=\"\" part=\"0\" file=\"{}\"/>\n", t, file);
    out.print("  </Collection>\n</VTKFile>\n");
  }
  std::filesystem::rename(tmp, path);
}

} // namespace parcae
