// Lumped masses, card tables beside their apply and resolve functions: *ELEMENT_MASS,
// *ELEMENT_MASS_NODE_SET, *ELEMENT_INERTIA, *ELEMENT_MASS_PART, _PART_SET. The domain adds them to
// the nodal masses after the elements' (solvers/common/domain.cpp): they count as physical mass and
// move with the node (a rigid body's node: with the body, whose mass, centre and inertia include
// them).
#include <fmt/format.h>

#include <cmath>

#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"
#include "input/deck_builder.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

/// Masses before their nodes (or node sets) and systems are checked.
struct PendingMass {
  GlobalId id = 0;
  GlobalId target = 0; ///< NID, or NSID when is_set
  bool is_set = false;
  Real mass = 0;
  GlobalId csid = 0;
  std::array<Real, 6> inertia{}; ///< [xx yy zz xy yz zx] in CSID's axes
  SourceLoc loc;
};

std::vector<PendingMass>& pending(DeckBuilder& d) {
  // one list per deck being read (the builder owns the reader's state)
  return d.extension<std::vector<PendingMass>>("lumped masses");
}

void check_mass(const Fields& row, Real mass) {
  if (!(mass >= 0) || !std::isfinite(mass))
    fail(row.loc("MASS"), fmt::format("MASS = {} must not be negative", mass));
}

void apply_element_mass(const Block& b, DeckBuilder& d) {
  const bool is_set = b.spec->name == "*ELEMENT_MASS_NODE_SET";
  const std::string_view target = is_set ? "NSID" : "NID";
  for (const Fields& row : b.rows) {
    check_mass(row, row.real("MASS"));
    PendingMass m{.id = row.id("EID"),
                  .target = row.id(target),
                  .is_set = is_set,
                  .mass = row.real("MASS"),
                  .loc = row.loc("EID")};
    pending(d).push_back(m);
  }
}

void apply_element_inertia(const Block& b, DeckBuilder& d) {
  for (const Fields& h : b.rows) { // one element per pair of cards
    check_mass(h, h.real("MASS"));
    const Real ixx = h.real("IXX"), iyy = h.real("IYY"), izz = h.real("IZZ");
    if (!(ixx >= 0 && iyy >= 0 && izz >= 0))
      fail(h.loc("IXX"), fmt::format("IXX, IYY, IZZ = {}, {}, {}: the moments of inertia must "
                                     "not be negative",
                                     ixx, iyy, izz));
    PendingMass m{.id = h.id("EID"),
                  .target = h.id("NID"),
                  .mass = h.real("MASS"),
                  .csid = h.id("CSID"),
                  .inertia = {ixx, iyy, izz, h.real("IXY"), h.real("IYZ"), h.real("IXZ")},
                  .loc = h.loc("EID")};
    pending(d).push_back(m);
  }
}

/// The tensor [xx yy zz xy yz zx] given in the frame whose unit axes are a[0..2] (global
/// components), in global components: R I R^T with R's columns the axes.
std::array<Real, 6> to_global(const std::array<Real, 6>& t,
                              const std::array<std::array<Real, 3>, 3>& a) {
  const Real l[3][3] = {{t[0], t[3], t[5]}, {t[3], t[1], t[4]}, {t[5], t[4], t[2]}};
  Real g[3][3] = {};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int p = 0; p < 3; ++p)
        for (int q = 0; q < 3; ++q) g[i][j] += a[p][i] * l[p][q] * a[q][j];
  return {g[0][0], g[1][1], g[2][2], g[0][1], g[1][2], g[2][0]};
}

void resolve_element_masses(DeckBuilder& d) {
  Model& m = d.model;
  for (const PendingMass& p : pending(d)) {
    d.claim_id("lumped mass", p.id, p.loc);
    std::vector<GlobalId> nodes;
    if (p.is_set) {
      const auto it = m.node_sets.find(p.target);
      if (it == m.node_sets.end())
        fail(p.loc, fmt::format("*ELEMENT_MASS_NODE_SET {}: node set NSID = {} is not defined",
                                p.id, p.target));
      nodes = it->second.members;
      if (nodes.empty())
        fail(p.loc, fmt::format("*ELEMENT_MASS_NODE_SET {}: node set {} is empty", p.id, p.target));
    } else {
      nodes.push_back(p.target);
    }
    std::array<Real, 6> inertia = p.inertia;
    if (p.csid != 0)
      inertia = to_global(inertia, referenced_system(m, p.loc, "*ELEMENT_INERTIA", p.csid).axes);
    const Real share = p.mass / static_cast<Real>(nodes.size());
    for (GlobalId nid : nodes) {
      const LocalId n = m.node_index(nid);
      if (n == kInvalidLocal)
        fail(p.loc,
             fmt::format("lumped mass {} references node {}, which is not defined", p.id, nid));
      m.lumped_masses.push_back({p.id, n, share, inertia, p.loc});
    }
  }
}

/// *ELEMENT_MASS_PART / _PART_SET before the parts are known.
struct PendingPartMass {
  GlobalId id = 0; ///< PID, or a part set id
  bool is_set = false;
  Real addmass = 0, finmass = 0;
  SourceLoc loc;
};

void apply_element_mass_part(const Block& b, DeckBuilder& d) {
  const bool is_set = b.spec->name == "*ELEMENT_MASS_PART_SET";
  for (const Fields& row : b.rows) {
    const Real add = row.real("ADDMASS"), fin = row.real("FINMASS");
    if (row.id("LCID") != 0)
      fail(row.loc("LCID"), fmt::format("LCID = {}: a curve-weighted distribution of the added "
                                        "mass is not supported (0: in proportion to the parts' "
                                        "own nodal masses)",
                                        row.id("LCID")));
    if (!(add >= 0) || !(fin >= 0))
      fail(row.loc(add >= 0 ? "FINMASS" : "ADDMASS"),
           fmt::format("ADDMASS = {}, FINMASS = {}: must not be negative", add, fin));
    d.extension<std::vector<PendingPartMass>>("part masses")
        .push_back({row.id("ID"), is_set, add, fin, row.loc("ID")});
  }
}

void resolve_part_masses(DeckBuilder& d) {
  Model& m = d.model;
  for (const PendingPartMass& p : d.extension<std::vector<PendingPartMass>>("part masses")) {
    PartMass pm{.pids = {}, .addmass = p.addmass, .finmass = p.finmass, .loc = p.loc};
    if (p.is_set) {
      const auto it = m.part_sets.find(p.id);
      if (it == m.part_sets.end())
        fail(p.loc, fmt::format("*ELEMENT_MASS_PART_SET: part set {} is not defined", p.id));
      pm.pids = it->second.members;
    } else {
      pm.pids.push_back(p.id);
    }
    for (GlobalId pid : pm.pids)
      if (m.find_part(pid) == nullptr)
        fail(p.loc, fmt::format("*ELEMENT_MASS_PART: part {} is not defined", pid));
    m.part_masses.push_back(std::move(pm));
  }
}

std::vector<KeywordSpec> element_mass_cards() {
  return {
      {.name = "*ELEMENT_MASS",
       .rows = {{"Card 1",
                 {I("EID").req().w(8), I("NID").req().w(8), R("MASS").w(16), I("PID").w(8)}}},
       .stream_rows = true,
       .summary = "Lumped mass MASS at node NID, added to the node's mass from its elements "
                  "(physical mass: it counts in the model's mass, momentum and energies; at a "
                  "rigid body's node it joins the body's mass, centre and inertia). PID (for "
                  "mass output by part) is read and not used.",
       .apply = apply_element_mass},
      {.name = "*ELEMENT_MASS_NODE_SET",
       .rows = {{"Card 1",
                 {I("EID").req().w(8), I("NSID").req().w(8), R("MASS").w(16), I("PID").w(8)}}},
       .stream_rows = true,
       .summary = "As *ELEMENT_MASS, MASS split equally over the nodes of node set NSID.",
       .apply = apply_element_mass},
      {.name = "*ELEMENT_INERTIA",
       .rows = {{"Card 1", {I("EID").req().w(8), I("NID").req().w(8), I("CSID").w(8)}},
                {"Card 2", reals({"IXX", "IXY", "IXZ", "IYY", "IYZ", "IZZ", "MASS"})}},
       .summary = "Lumped mass MASS and rotary inertia tensor at node NID (in system CSID's axes "
                  "when CSID is set, its axes at time 0). At a rigid body's node the tensor "
                  "joins the body's inertia; at a deformable node with rotations (shells, "
                  "beams) it must be isotropic (IXX = IYY = IZZ, no products: parcae's nodal "
                  "rotary inertia is a scalar), else refused; at a node without rotations it "
                  "has nothing to act on and only the mass is used. _OFFSET is not read.",
       .apply = apply_element_inertia},
      {.name = "*ELEMENT_MASS_PART",
       .rows = {{"Card 1", {I("ID").req(), R("ADDMASS"), R("FINMASS"), I("LCID")}}},
       .stream_rows = true,
       .summary = "Mass ADDMASS added to part ID (FINMASS > 0: the mass that brings the part to "
                  "FINMASS), spread over its nodes in proportion to the part's own lumped nodal "
                  "masses: LS-DYNA's area weighting for a shell part of uniform thickness and "
                  "density. Deformable parts only; LCID (a distribution curve) is refused.",
       .apply = apply_element_mass_part},
      {.name = "*ELEMENT_MASS_PART_SET",
       .rows = {{"Card 1", {I("ID").req(), R("ADDMASS"), R("FINMASS"), I("LCID")}}},
       .stream_rows = true,
       .summary = "As *ELEMENT_MASS_PART on the parts of part set ID together (FINMASS: their "
                  "total).",
       .apply = apply_element_mass_part},
  };
}

void resolve_masses(DeckBuilder& d) {
  resolve_element_masses(d);
  resolve_part_masses(d);
}

} // namespace

KeywordFile keywords_element_mass() {
  return {element_mass_cards(), resolve_masses};
}

} // namespace parcae::io
