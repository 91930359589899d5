// Card tables of the sheet-metal forming keywords: *MAT_TRANSVERSELY_ANISOTROPIC_ELASTIC_PLASTIC
// (037), *CONTACT_FORMING_ONE_WAY_SURFACE_TO_SURFACE / *CONTACT_FORMING_NODES_TO_SURFACE
// [_ID|_TITLE], and the forming controls parcae accepts with a warning (*CONTROL_ADAPTIVE,
// *CONTROL_ADAPSTEP, *CONTROL_ACCURACY, *INTERFACE_SPRINGBACK_LSDYNA). The apply functions are
// in deck_apply_forming.cpp (the contact's in deck_apply_contact.cpp).
#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

constexpr std::string_view kFormingContact =
    "Forming contact (one way): the nodes of the secondary side SSID (the blank; LS-DYNA's "
    "SURFA) against the segments of the main side MSID (the tools; SURFB), penalty as "
    "*CONTACT_NODES_TO_SURFACE (non-automatic: one-sided, the node pushed along the segment "
    "normal) with the main surface oriented automatically, as LS-DYNA does for forming "
    "contacts: its segments are oriented consistently over each edge-connected patch, and each "
    "patch so that its normals face the secondary nodes (the side where most of them lie, each "
    "measured at its nearest segment of the patch). Contact thickness: the blank's shell "
    "thickness; the tools' only when they are not rigid or *CONTROL_CONTACT SHLTHK = 2 "
    "(LS-DYNA's SHLTHK 0 and 1 leave rigid bodies out). The cards and their defaults and "
    "warnings are those of the other contacts (see *CONTACT_NODES_TO_SURFACE).";

} // namespace

std::vector<KeywordSpec> forming_keywords() {
  std::vector<KeywordSpec> out{
      {.name = "*CONTROL_ADAPTIVE",
       .head = {{"Card 1",
                 {R("ADPFREQ"), R("ADPTOL", "1.0E+20"), I("ADPTYP", "1"), I("MAXLVL", "3"),
                  R("TBIRTH"), R("TDEATH", "1.0E+20"), I("LCADP"), I("IOFLAG")}},
                {"Card 2",
                 {R("ADPSIZE"), I("ADPASS"), I("IREFLG"), R("ADPENE"), R("ADPTH"), I("MEMORY"),
                  I("ORIENT"), I("MAXEL")},
                 "",
                 true}},
       .ignore_extra = true,
       .summary = "Adaptive mesh refinement is not supported: parcae keeps the initial mesh for "
                  "the whole run (one warning). The cards are read and ignored.",
       .apply = apply_control_adaptive},
      {.name = "*CONTROL_ADAPSTEP",
       .head = {{"Card 1", {R("FACTIN", "1.0"), R("DFACTR", "0.01")}}},
       .summary = "Contact force smoothing after an adaptive step: no effect, since parcae does "
                  "not refine the mesh (warning).",
       .apply = apply_control_adapstep},
      {.name = "*CONTROL_ACCURACY",
       .head = {{"Card 1", {I("OSU"), I("INN"), I("PIDOSU"), I("IACC"), R("EXACC")}}},
       .ignore_extra = true,
       .summary = "Accuracy options (objective stress update, invariant node numbering, "
                  "implicit accuracy). parcae's formulations are used as they are: the shells' "
                  "local frame does not depend on the node numbering, the solids' stress update "
                  "is objective (Jaumann), so the fields have no effect (a warning lists the "
                  "nonzero ones).",
       .apply = apply_control_accuracy},
      {.name = "*INTERFACE_SPRINGBACK_LSDYNA",
       .options = {"THICKNESS", "NOTHICKNESS"},
       .head = {{"Card 1",
                 {I("PSID").req(), I("NSHV"), I("FTYPE"), S("UNUSED"), I("FTENSR"), I("NTHHSV"),
                  I("RFLAG"), I("INTSTRN")}}},
       .ignore_extra = true,
       .summary = "Springback file (dynain) for a following implicit run: not written "
                  "(warning). Optional cards (nodal constraints) are skipped.",
       .apply = apply_interface_springback},
  };
  static const std::string forming_nodes =
      std::string("As *CONTACT_FORMING_ONE_WAY_SURFACE_TO_SURFACE (parcae treats both the same "
                  "way); SSTYP 4 (a node set) is allowed.") +
      std::string(contact_options_summary());
  static const std::string forming_one_way =
      std::string(kFormingContact) + std::string(contact_options_summary());
  for (const auto& [name, what] :
       {std::pair<std::string_view, std::string_view>{"*CONTACT_FORMING_ONE_WAY_SURFACE_TO_SURFACE",
                                                      forming_one_way},
        {"*CONTACT_FORMING_NODES_TO_SURFACE", forming_nodes}})
    out.push_back({.name = name,
                   .options = {"ID", "TITLE", "MPP"},
                   .head = contact_cards(),
                   .ignore_extra = true,
                   .summary = what,
                   .apply = apply_contact_forming_one_way});
  return out;
}

} // namespace parcae::io
