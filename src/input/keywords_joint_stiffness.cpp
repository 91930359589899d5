// *CONSTRAINED_JOINT_STIFFNESS_GENERALIZED: card table beside its apply and resolve functions.
// The explicit solver adds its moments to the two rigid bodies' resultants
// (solvers/common/joint_stiffness.cpp); the implicit solver refuses it.
#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"
#include "materials/catalogue.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

void apply_joint_stiffness(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    JointStiffness j;
    j.id = row.id("JSID");
    j.pida = row.id("PIDA");
    j.pidb = row.id("PIDB");
    j.cida = row.id("CIDA");
    j.cidb = row.id("CIDB");
    j.loc = row.loc("JSID");
    constexpr const char* lc[3] = {"LCIDPH", "LCIDT", "LCIDPS"};
    constexpr const char* dlc[3] = {"DLCIDPH", "DLCIDT", "DLCIDPS"};
    constexpr const char* es[3] = {"ESPH", "EST", "ESPS"};
    constexpr const char* fm[3] = {"FMPH", "FMT", "FMPS"};
    constexpr const char* nsa[3] = {"NSAPH", "NSAT", "NSAPS"};
    constexpr const char* psa[3] = {"PSAPH", "PSAT", "PSAPS"};
    constexpr Real deg = std::numbers::pi / 180;
    for (std::size_t k = 0; k < 3; ++k) {
      j.lc[k] = row.id(lc[k]);
      j.dlc[k] = row.id(dlc[k]);
      j.es[k] = row.real(es[k]);
      j.fm[k] = row.real(fm[k]);
      if (j.fm[k] < 0)
        fail(row.loc(fm[k]), fmt::format("joint stiffness {}: {} = {}: a curve of the friction "
                                         "moment is not supported (give the limit)",
                                         j.id, fm[k], j.fm[k]));
      if (j.es[k] < 0)
        fail(row.loc(es[k]),
             fmt::format("joint stiffness {}: {} = {} must not be negative", j.id, es[k], j.es[k]));
      j.nsa[k] = -std::abs(row.real(nsa[k])) * deg; // a magnitude or a negative angle
      j.psa[k] = std::abs(row.real(psa[k])) * deg;
      if ((j.fm[k] > 0 || j.nsa[k] != 0 || j.psa[k] != 0) && !(j.es[k] > 0)) {
        // LS-DYNA: ES = 0 makes friction and stops of this rotation inactive
        d.model.notes.push_back(
            {std::string(b.spec->name), row.loc(es[k]), false,
             fmt::format("joint stiffness {}: {} = 0: the friction and the stop angles of this "
                         "rotation are inactive (ignored)",
                         j.id, es[k])});
        j.fm[k] = 0;
        j.nsa[k] = j.psa[k] = 0;
      }
    }
    if (j.id <= 0) fail(row.loc("JSID"), fmt::format("JSID = {} must be positive", j.id));
    if (j.cida <= 0)
      fail(row.loc("CIDA"), fmt::format("joint stiffness {}: CIDA = {}: the first body's "
                                        "coordinate system is required",
                                        j.id, j.cida));
    d.model.joint_stiffnesses.push_back(j);
  }
}

std::vector<KeywordSpec> joint_stiffness_cards() {
  return {
      {.name = "*CONSTRAINED_JOINT_STIFFNESS_GENERALIZED",
       .options = {"TITLE"},
       .rows = {title_card(),
                {"Card 1",
                 {I("JSID").req(), I("PIDA").req(), I("PIDB").req(), I("CIDA").req(), I("CIDB"),
                  I("JID"), R("RPS", "1.0")}},
                {"Card 2",
                 {I("LCIDPH"), I("LCIDT"), I("LCIDPS"), I("DLCIDPH"), I("DLCIDT"), I("DLCIDPS")}},
                {"Card 3", {R("ESPH"), R("FMPH"), R("EST"), R("FMT"), R("ESPS"), R("FMPS")}},
                {"Card 4", {R("NSAPH"), R("PSAPH"), R("NSAT"), R("PSAT"), R("NSAPS"), R("PSAPS")}}},
       .summary =
           "Rotational stiffness between the rigid bodies of parts PIDA and PIDB (usually "
           "joined by a *CONSTRAINED_JOINT). The angles phi, theta, psi are the components, in "
           "the axes of CIDA (which turn with body A), of the rotation vector of CIDB's axes "
           "(CIDB 0: CIDA's, turning with body B) relative to CIDA's since time 0, followed "
           "continuously past half a turn; about a hinge along one of CIDA's axes that "
           "component is the hinge angle. For each: "
           "a moment LC(angle) (radians) and a damping moment DLC(rate), both opposing the "
           "rotation; a friction spring of stiffness ES slipping at the moment FM (FM 0: no "
           "friction); and stops: beyond PSA and below -|NSA| (degrees; NSA as a magnitude or a "
           "negative angle; 0: no stop) an extra moment ES times the excess; ES 0 makes the "
           "friction and stops of its rotation inactive (a note). The stiffness does not limit "
           "the time step: a stop much stiffer than the bodies' step allows is unstable. "
           "Equal and opposite on the two bodies; its work is glstat's spring and damper "
           "energy. A negative FM (a curve) is refused; JID and RPS are not used. Explicit "
           "solver only. _TITLE: a title line before each card 1.",
       .apply = apply_joint_stiffness},
  };
}

/// The parts are rigid, the curves and systems defined; the systems' axes at time 0.
void resolve_joint_stiffnesses(DeckBuilder& d) {
  Model& m = d.model;
  for (JointStiffness& j : m.joint_stiffnesses) {
    for (GlobalId pid : {j.pida, j.pidb}) {
      const Part* part = m.find_part(pid);
      if (part == nullptr)
        fail(j.loc, fmt::format("joint stiffness {}: part {} is not defined", j.id, pid));
      const Material* mat = m.find_material(part->mid);
      if (mat == nullptr || !material_law(mat->kind).rigid)
        fail(j.loc,
             fmt::format("joint stiffness {}: part {} is not rigid (*MAT_RIGID)", j.id, pid));
    }
    for (std::size_t k = 0; k < 3; ++k)
      for (GlobalId c : {j.lc[k], j.dlc[k]})
        if (c != 0 && !d.is_curve(c))
          fail(j.loc, fmt::format("joint stiffness {}: curve {} is not defined", j.id, c));
    j.axes_a = referenced_system(m, j.loc, "*CONSTRAINED_JOINT_STIFFNESS", j.cida).axes;
    j.axes_b = j.cidb == 0
                   ? j.axes_a
                   : referenced_system(m, j.loc, "*CONSTRAINED_JOINT_STIFFNESS", j.cidb).axes;
  }
}

} // namespace

KeywordFile keywords_joint_stiffness() {
  return {joint_stiffness_cards(), resolve_joint_stiffnesses};
}

} // namespace parcae::io
