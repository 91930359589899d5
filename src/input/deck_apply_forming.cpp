// Apply functions of the forming keywords (card tables in card_tables_forming.cpp):
// *MAT_TRANSVERSELY_ANISOTROPIC_ELASTIC_PLASTIC (037) and the forming controls that parcae
// accepts with one warning each (*CONTROL_ADAPTIVE, *CONTROL_ADAPSTEP, *CONTROL_ACCURACY,
// *INTERFACE_SPRINGBACK_LSDYNA). The law's own checks (R, the curve) are in
// materials/transversely_anisotropic.cpp.
#include <string>

#include <fmt/format.h>

#include "input/deck_apply.hpp"

namespace parcae::io {

namespace {

void warn(DeckBuilder& d, const Block& b, std::string message) {
  d.model.notes.push_back({std::string(b.spec->name), b.loc, false, std::move(message)});
}

} // namespace

void apply_control_adaptive(const Block& b, DeckBuilder& d) {
  warn(d, b,
       "adaptive mesh refinement is not supported: parcae keeps the initial mesh for the "
       "whole run");
}

void apply_control_adapstep(const Block& b, DeckBuilder& d) {
  warn(d, b, "no effect: parcae does not refine the mesh (see *CONTROL_ADAPTIVE)");
}

void apply_control_accuracy(const Block& b, DeckBuilder& d) {
  std::string set;
  for (std::string_view f : {"OSU", "INN", "PIDOSU", "IACC"})
    if (b.head.integer(f) != 0)
      set += fmt::format("{}{} = {}", set.empty() ? "" : ", ", f, b.head.integer(f));
  if (b.head.real("EXACC") != 0)
    set += fmt::format("{}EXACC = {}", set.empty() ? "" : ", ", b.head.real("EXACC"));
  if (!set.empty())
    warn(d, b,
         fmt::format("{}: no effect in parcae (its shells do not depend on the node "
                     "numbering and its solid stress update is objective); ignored",
                     set));
}

void apply_interface_springback(const Block& b, DeckBuilder& d) {
  warn(d, b, "the springback file (dynain) is not written; ignored");
}

} // namespace parcae::io
