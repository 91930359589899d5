// *INITIAL_VELOCITY_RIGID_BODY: a rigid body's initial velocity at its centre of mass and its
// angular velocity, card table beside its apply and resolve functions. The domain gives the
// body and its nodes that motion once the bodies are complete (solvers/common/rigid_body.cpp,
// apply_rigid_body_velocities), over the nodes' other initial velocities.
#include <fmt/format.h>

#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"
#include "input/deck_builder.hpp"
#include "materials/catalogue.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

/// The velocities of a card with ICID, before the coordinate systems are known.
struct PendingSystem {
  std::size_t index = 0; ///< in Model::rigid_velocities
  GlobalId icid = 0;
};

void apply_initial_velocity_rigid_body(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    RigidBodyVelocity rv;
    rv.pid = row.id("PID");
    rv.loc = row.loc("PID");
    rv.vel = {row.real("VX"),  row.real("VY"),  row.real("VZ"),
              row.real("VXR"), row.real("VYR"), row.real("VZR")};
    if (row.id("ICID") != 0)
      d.extension<std::vector<PendingSystem>>("rigid body velocity systems")
          .push_back({d.model.rigid_velocities.size(), row.id("ICID")});
    d.model.rigid_velocities.push_back(rv);
  }
}

/// Each card's part is a rigid part (given once), its velocities global (ICID resolved).
void resolve_rigid_body_velocities(DeckBuilder& d) {
  Model& m = d.model;
  for (const PendingSystem& p :
       d.extension<std::vector<PendingSystem>>("rigid body velocity systems")) {
    RigidBodyVelocity& rv = m.rigid_velocities[p.index];
    const auto& axes = referenced_system(m, rv.loc, "*INITIAL_VELOCITY_RIGID_BODY", p.icid).axes;
    std::array<Real, 6> global{};
    for (int k = 0; k < 2; ++k)
      for (int a = 0; a < 3; ++a)
        for (int i = 0; i < 3; ++i)
          global[static_cast<std::size_t>(3 * k + i)] +=
              rv.vel[static_cast<std::size_t>(3 * k + a)] *
              axes[static_cast<std::size_t>(a)][static_cast<std::size_t>(i)];
    rv.vel = global;
  }
  std::map<GlobalId, SourceLoc> seen;
  for (const RigidBodyVelocity& rv : m.rigid_velocities) {
    const Part* part = m.find_part(rv.pid);
    if (part == nullptr)
      fail(rv.loc,
           fmt::format("*INITIAL_VELOCITY_RIGID_BODY: part PID = {} is not defined", rv.pid));
    const Material* mat = m.find_material(part->mid);
    if (mat == nullptr || !material_law(mat->kind).rigid)
      fail(rv.loc, fmt::format("*INITIAL_VELOCITY_RIGID_BODY: part {} is not rigid (its "
                               "material must be *MAT_RIGID)",
                               rv.pid));
    if (!seen.emplace(rv.pid, rv.loc).second)
      fail(rv.loc, fmt::format("*INITIAL_VELOCITY_RIGID_BODY: part {} is given twice (first at "
                               "{}:{})",
                               rv.pid, seen[rv.pid].file, seen[rv.pid].line));
  }
}

std::vector<KeywordSpec> rigid_body_velocity_cards() {
  return {
      {.name = "*INITIAL_VELOCITY_RIGID_BODY",
       .rows = {{"Card 1",
                 {I("PID").req(), R("VX"), R("VY"), R("VZ"), R("VXR"), R("VYR"), R("VZR"),
                  I("ICID")}}},
       .stream_rows = true,
       .summary = "The rigid body of part PID (a *MAT_RIGID part, or the body it is merged into) "
                  "starts with velocity (VX, VY, VZ) at its centre of mass and angular velocity "
                  "(VXR, VYR, VZR), in global axes or those of system ICID; its nodes get v + "
                  "omega x r, over any other initial velocity (constrained body dofs stay 0).",
       .apply = apply_initial_velocity_rigid_body},
  };
}

} // namespace

KeywordFile keywords_rigid_body_velocity() {
  return {rigid_body_velocity_cards(), resolve_rigid_body_velocities};
}

} // namespace parcae::io
