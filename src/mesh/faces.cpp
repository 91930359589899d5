#include "mesh/faces.hpp"

#include <algorithm>
#include <map>

namespace parcae {

namespace {

using FaceKey = std::array<LocalId, 4>;

/// The distinct nodes of a face, ascending, padded with kInvalidLocal; count of distinct nodes.
int face_key(const std::array<LocalId, 4>& nodes, FaceKey& key) {
  key = nodes;
  std::sort(key.begin(), key.end());
  const auto end = std::unique(key.begin(), key.end());
  const int n = static_cast<int>(end - key.begin());
  for (auto it = end; it != key.end(); ++it) *it = kInvalidLocal;
  return n;
}

/// LS-DYNA's hexahedron faces (0-based corners).
constexpr int kSolidFaces[6][4] = {{0, 1, 2, 3}, {4, 5, 6, 7}, {0, 1, 5, 4},
                                   {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};

} // namespace

std::vector<FaceElement> find_face_elements(const Model& model,
                                            std::span<const std::array<LocalId, 4>> segments) {
  std::vector<FaceElement> out(segments.size());
  if (segments.empty()) return out;
  std::map<FaceKey, std::vector<std::size_t>> wanted; // face -> segments with those nodes
  for (std::size_t s = 0; s < segments.size(); ++s) {
    FaceKey key;
    if (face_key(segments[s], key) >= 3) wanted[key].push_back(s);
  }
  auto claim = [&](const FaceKey& key, FaceElement::Family family, std::size_t index) {
    const auto it = wanted.find(key);
    if (it == wanted.end()) return;
    // the first element of a family in model order; a shell over a solid
    for (std::size_t s : it->second)
      if (out[s].family == FaceElement::Family::None ||
          (out[s].family == FaceElement::Family::Solid && family == FaceElement::Family::Shell))
        out[s] = {family, index};
  };
  FaceKey key;
  for (std::size_t e = 0; e < model.shells.size(); ++e)
    if (face_key(model.shells.nodes[e], key) >= 3) claim(key, FaceElement::Family::Shell, e);
  for (std::size_t e = 0; e < model.solids.size(); ++e) {
    const auto& n = model.solids.nodes[e];
    // a tetrahedron (4 distinct nodes, as LS-DYNA writes it: N1 N2 N3 N4 N4 N4 N4 N4): its four
    // triangles (the hexahedron's faces of that node list are not all of them)
    std::array<LocalId, 8> distinct = n;
    std::sort(distinct.begin(), distinct.end());
    if (std::unique(distinct.begin(), distinct.end()) - distinct.begin() == 4) {
      for (int skip = 0; skip < 4; ++skip) {
        std::array<LocalId, 4> tri{};
        int k = 0;
        for (int a = 0; a < 4; ++a)
          if (a != skip) tri[static_cast<std::size_t>(k++)] = distinct[static_cast<std::size_t>(a)];
        tri[3] = tri[2];
        face_key(tri, key);
        claim(key, FaceElement::Family::Solid, e);
      }
      continue;
    }
    for (const auto& f : kSolidFaces) {
      if (face_key({n[f[0]], n[f[1]], n[f[2]], n[f[3]]}, key) < 3) continue;
      claim(key, FaceElement::Family::Solid, e);
    }
  }
  return out;
}

} // namespace parcae
