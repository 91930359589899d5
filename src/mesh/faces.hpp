#pragma once
// Which element a segment (a face given by its nodes, as in *LOAD_SEGMENT or *SET_SEGMENT) is a
// face of: a shell whose corner nodes are the segment's, or a face of a solid. The explicit
// solver applies a segment pressure through the element it loads (its corner forces travel
// with that element's in the halo exchange), so it needs the element; the reader uses the same
// look-up to refuse, at the card, a segment that is no element's face.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "mesh/model.hpp"

namespace parcae {

/// The element a segment is a face of. A segment that is both a shell and a solid face takes
/// the shell; among several shells (or solids), the first in the model's order.
struct FaceElement {
  enum class Family : std::uint8_t { None, Solid, Shell };
  Family family = Family::None;
  std::size_t index = 0; ///< model.solids / model.shells entry
};

/// One answer per segment. Segments hold model node indices (a triangle repeats its third
/// node); the order and orientation of the nodes do not matter, only the set of distinct nodes.
/// Solids' faces follow LS-DYNA's hexahedron numbering (1234, 5678, 1265, 2376, 3487, 4158); a
/// degenerate face (fewer than three distinct nodes) is no face; a tetrahedron (four distinct
/// nodes) has its four triangles. O(elements log segments).
std::vector<FaceElement> find_face_elements(const Model& model,
                                            std::span<const std::array<LocalId, 4>> segments);

} // namespace parcae
