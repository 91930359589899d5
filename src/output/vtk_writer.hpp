#pragma once
// VTK XML unstructured grid (.vtu) and time-series collection (.pvd) writers for ParaView.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace parcae {

/// A named data array: values laid out component-fastest (ncomp per point or cell).
struct VtkArray {
  std::string name;
  int ncomp = 1;
  std::vector<Real> values;
};

struct VtkGrid {
  std::span<const Real> points;           ///< 3 per point
  std::vector<std::int64_t> connectivity; ///< point indices of all cells, concatenated
  std::vector<std::int64_t> offsets;      ///< end offset of each cell in connectivity
  std::vector<std::uint8_t> types; ///< VTK cell types (12 hexahedron, 9 quad, 5 triangle, ...)
  std::vector<VtkArray> point_data;
  std::vector<VtkArray> cell_data;
};

/// Write one .vtu file (ASCII, so that it is readable and diffable; written to a temporary file
/// and renamed so an interrupted write never leaves a truncated state).
void write_vtu(const std::string& path, const VtkGrid& grid, Real time);

/// Write a .pvtu file: one parallel dataset made of the given .vtu pieces (file names relative to
/// the .pvtu); layout gives the point and cell array names and components of every piece.
void write_pvtu(const std::string& path, const std::vector<std::string>& pieces,
                const VtkGrid& layout);

/// Write a .pvd collection listing (time, file) pairs; file names relative to the .pvd.
void write_pvd(const std::string& path, const std::vector<std::pair<Real, std::string>>& states);

} // namespace parcae
