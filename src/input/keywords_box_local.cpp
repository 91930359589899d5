// *DEFINE_BOX_LOCAL: a box whose bounds are given in a local system (its x axis, a vector in its
// x-y plane and its origin), card table beside its apply function. Every keyword that names a
// box (by BOXID) tests points against it in its axes (Box::contains).
#include <cmath>

#include <fmt/format.h>

#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"
#include "input/deck_builder.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

void apply_define_box_local(const Block& b, DeckBuilder& d) {
  const Fields& h = b.head;
  Box box;
  box.id = h.id("BOXID");
  box.loc = h.loc("BOXID");
  box.lo = {h.real("XMN"), h.real("YMN"), h.real("ZMN")};
  box.hi = {h.real("XMX"), h.real("YMX"), h.real("ZMX")};
  for (std::size_t k = 0; k < 3; ++k)
    if (box.hi[k] < box.lo[k])
      fail(box.loc, fmt::format("box {}: the local {} range {} to {} is empty (maximum below "
                                "minimum)",
                                box.id, "xyz"[k], box.lo[k], box.hi[k]));
  // the local axes: x along (XX, YX, ZX); z normal to x and (XV, YV, ZV); y = z x x
  const std::array<Real, 3> ex{h.real("XX"), h.real("YX"), h.real("ZX")};
  const std::array<Real, 3> v{h.real("XV"), h.real("YV"), h.real("ZV")};
  auto cross = [](const std::array<Real, 3>& a, const std::array<Real, 3>& c) {
    return std::array<Real, 3>{a[1] * c[2] - a[2] * c[1], a[2] * c[0] - a[0] * c[2],
                               a[0] * c[1] - a[1] * c[0]};
  };
  auto unit = [](std::array<Real, 3> a) {
    const Real n = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    for (Real& c : a) c /= n;
    return a;
  };
  const std::array<Real, 3> ez = cross(ex, v);
  const Real lx = std::sqrt(ex[0] * ex[0] + ex[1] * ex[1] + ex[2] * ex[2]);
  const Real lv = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  const Real lz = std::sqrt(ez[0] * ez[0] + ez[1] * ez[1] + ez[2] * ez[2]);
  if (!(lx > 0) || !(lz > 1e-12 * lx * lv))
    fail(h.loc("XX"), fmt::format("box {}: the local x axis (XX, YX, ZX) and the x-y vector (XV, "
                                  "YV, ZV) must be nonzero and not parallel",
                                  box.id));
  box.local = true;
  box.axes[0] = unit(ex);
  box.axes[2] = unit(ez);
  box.axes[1] = cross(box.axes[2], box.axes[0]);
  box.origin = {h.real("CX"), h.real("CY"), h.real("CZ")};
  d.claim_id("box", box.id, box.loc);
  d.model.boxes.emplace(box.id, box);
}

std::vector<KeywordSpec> box_local_cards() {
  return {
      {.name = "*DEFINE_BOX_LOCAL",
       .options = {"TITLE"},
       .head = {title_card(),
                {"Card 1",
                 {I("BOXID").req(), R("XMN"), R("XMX"), R("YMN"), R("YMX"), R("ZMN"), R("ZMX")}},
                {"Card 2", {R("XX"), R("YX"), R("ZX"), R("XV"), R("YV"), R("ZV")}},
                {"Card 3", {R("CX"), R("CY"), R("CZ")}}},
       .summary = "A box (bounds inclusive) in a local system: its x axis along (XX, YX, ZX), its "
                  "x-y plane holding (XV, YV, ZV), its origin at (CX, CY, CZ) (global). Every "
                  "keyword that takes a BOXID tests points in the box's axes, as for *DEFINE_BOX.",
       .apply = apply_define_box_local},
  };
}

} // namespace

KeywordFile keywords_box_local() {
  return {box_local_cards(), nullptr};
}

} // namespace parcae::io
