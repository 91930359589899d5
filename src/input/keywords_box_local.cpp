// *DEFINE_BOX_LOCAL: a box whose bounds are given in a local system (its x axis, a vector in its
// x-y plane and its origin), card table beside its apply function. Every keyword that names a
// box (by BOXID) tests points against it in its axes (Box::contains).
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
  // the local axes: x along (XX, YX, ZX), (XV, YV, ZV) in the x-y plane
  if (!frame_axes({h.real("XX"), h.real("YX"), h.real("ZX")},
                  {h.real("XV"), h.real("YV"), h.real("ZV")}, box.axes))
    fail(h.loc("XX"), fmt::format("box {}: the local x axis (XX, YX, ZX) and the x-y vector (XV, "
                                  "YV, ZV) must be nonzero and not parallel",
                                  box.id));
  box.local = true;
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
