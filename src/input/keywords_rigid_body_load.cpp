// *LOAD_RIGID_BODY: a force or moment on a rigid body, card table beside its apply and resolve
// functions. The explicit solver adds it to the body's resultant at its centre of mass
// (solvers/explicit/nodal_update.cpp); the implicit solver refuses it.
#include <fmt/format.h>

#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"
#include "materials/catalogue.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

void apply_load_rigid_body(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    const int dof = row.integer("DOF");
    if (dof == 4 || dof == 8)
      fail(row.loc("DOF"), fmt::format("DOF = {}: follower loads (direction from nodes M1-M3) "
                                       "are not supported (1-3 forces, 5-7 moments)",
                                       dof));
    if (dof < 1 || dof > 7)
      fail(row.loc("DOF"),
           fmt::format("DOF = {} is not a load direction (1-3 forces, 5-7 moments)", dof));
    RigidBodyLoad l;
    l.pid = row.id("PID");
    l.dof = dof;
    const int axis = dof <= 3 ? dof - 1 : dof - 5;
    l.dir = {0, 0, 0};
    l.dir[static_cast<std::size_t>(axis)] = 1;
    l.lcid = row.id("LCID");
    l.sf = row.real("SF");
    l.loc = row.loc("PID");
    if (row.id("CID") != 0)
      d.rigid_body_load_cids.push_back({d.model.rigid_body_loads.size(), row.id("CID")});
    d.model.rigid_body_loads.push_back(l);
  }
}

std::vector<KeywordSpec> rigid_body_load_cards() {
  return {
      {.name = "*LOAD_RIGID_BODY",
       .options = {"ID"},
       .head = {{"ID (_ID)", {I("ID"), Line("HEADING")}, "ID"}},
       .rows = {{"Card 1",
                 {I("PID").req(), I("DOF").req(), I("LCID").req(), R("SF", "1.0"), I("CID"),
                  I("M1"), I("M2"), I("M3")}}},
       .stream_rows = true,
       .summary = "Force (DOF 1-3) or moment (DOF 5-7) SF * curve(t) on the rigid body of part "
                  "PID (a *MAT_RIGID part, or the body it is merged into), at its centre of mass, "
                  "along the global axis or, with CID, that local system's axis (its axes at "
                  "time 0). DOF 4 and 8 (follower loads by nodes M1-M3) are refused. Explicit "
                  "solver only.",
       .apply = apply_load_rigid_body},
  };
}

/// Each load's part is a rigid part, its curve exists, its direction global (CID resolved).
void resolve_rigid_body_loads(DeckBuilder& d) {
  Model& m = d.model;
  for (const LocalLoad& ll : d.rigid_body_load_cids) {
    RigidBodyLoad& l = m.rigid_body_loads[ll.index];
    const int axis = l.dof <= 3 ? l.dof - 1 : l.dof - 5;
    l.dir = referenced_system(m, l.loc, "*LOAD_RIGID_BODY", ll.cid)
                .axes[static_cast<std::size_t>(axis)];
  }
  for (const RigidBodyLoad& l : m.rigid_body_loads) {
    const Part* part = m.find_part(l.pid);
    if (part == nullptr)
      fail(l.loc, fmt::format("*LOAD_RIGID_BODY: part PID = {} is not defined", l.pid));
    const Material* mat = m.find_material(part->mid);
    if (mat == nullptr || !material_law(mat->kind).rigid)
      fail(l.loc, fmt::format("*LOAD_RIGID_BODY: part {} is not rigid (its material must be "
                              "*MAT_RIGID)",
                              l.pid));
    if (!d.is_curve(l.lcid))
      fail(l.loc, fmt::format("*LOAD_RIGID_BODY references curve LCID = {}, which is not "
                              "defined",
                              l.lcid));
  }
}

} // namespace

KeywordFile keywords_rigid_body_load() {
  return {rigid_body_load_cards(), resolve_rigid_body_loads};
}

} // namespace parcae::io
