// Thick shells: *ELEMENT_TSHELL (eight-node bricks computed as shells, held with the solids) and
// *SECTION_TSHELL. The explicit solver runs ELFORM 1 (fem/tshell.hpp); the implicit solver and
// the other forms are refused (input/deck_resolve.cpp, check_formulations).
#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

std::vector<KeywordSpec> tshell_cards() {
  return {
      {.name = "*ELEMENT_TSHELL",
       .rows = {{"Element", join({I("EID").req().w(8), I("PID").req().w(8)},
                                 ints({"N1", "N2", "N3", "N4", "N5", "N6", "N7", "N8"}, 8))}},
       .stream_rows = true,
       .summary = "Thick shells: eight nodes, N1-N4 the bottom face and N5-N8 the top (a wedge "
                  "repeats N3 and N7), in a part whose section is a *SECTION_TSHELL. They are "
                  "held with the solids (d3plot and VTK show them as hexahedra; contact sees "
                  "their faces).",
       .apply = apply_element_tshell},
      {.name = "*SECTION_TSHELL",
       .options = {"TITLE"},
       .rows = {title_card(),
                {"Card 1",
                 {I("SECID").req(), I("ELFORM", "1"), R("SHRF", "1.0"), I("NIP", "2"), R("PROPT"),
                  I("QR"), I("ICOMP"), I("TSHEAR")}}},
       .min_rows = 1,
       .summary =
           "Thick-shell sections. The explicit solver runs ELFORM 1 (one point in the plane, "
           "NIP Gauss points through the thickness, 1-10, default 2; plane stress with the "
           "shell form of the part's law, transverse shear scaled by SHRF, 0 meaning 1; the "
           "fibre's stretch held to the law's thickness strain by one elastic stress E per "
           "element; "
           "hourglass control of the two in-plane modes by the part's IHQ: 1-3 viscous, 4-6 "
           "stiffness) and ELFORM 2 (selective reduced, fully integrated in the plane) as 1, "
           "with a warning; the other forms are refused, as are the implicit solver, QR other "
           "than 0, ICOMP = 1 and laws without a shell form or with material axes. PROPT and "
           "TSHEAR are ignored. The critical step is (1 / l^2 + 1 / t^2)^(-1/2) (l the in-plane "
           "length, area / longest diagonal; t the thickness) over the dilatational wave "
           "speed.",
       .apply = apply_section_tshell},
  };
}

} // namespace

KeywordFile keywords_tshell() {
  return {tshell_cards(), nullptr};
}

} // namespace parcae::io
