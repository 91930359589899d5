// *CONSTRAINED_INTERPOLATION (an RBE3): card table beside its apply and resolve functions. The
// explicit solver moves the dependent node with the weighted least-squares fit of its
// independent nodes and distributes its force to them (solvers/explicit/interpolation_pass.cpp);
// the implicit solver refuses it.
#include <fmt/format.h>

#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

/// The degrees of freedom of a DDOF / IDOF number (digits 1-6, each once): bit d-1 for digit d.
/// Fails at the field for any other digit or a repeated one.
unsigned dof_digits(const Fields& row, std::string_view field) {
  std::int64_t v = row.id(field);
  if (v == 0) v = 123456; // 0 as blank: every dof
  if (v <= 0)
    fail(row.loc(field), fmt::format("{} = {}: a list of degrees of freedom (digits 1-6, e.g. "
                                     "123456) is required",
                                     field, v));
  unsigned bits = 0;
  for (std::int64_t r = v; r > 0; r /= 10) {
    const int digit = static_cast<int>(r % 10);
    if (digit < 1 || digit > 6 || (bits & (1u << (digit - 1))))
      fail(row.loc(field), fmt::format("{} = {}: each digit must be a degree of freedom 1-6, "
                                       "given once",
                                       field, v));
    bits |= 1u << (digit - 1);
  }
  return bits;
}

/// What the resolve step needs besides the model: per constraint, its independent rows.
struct InterpolationRows {
  struct Row {
    std::size_t constraint = 0;
    GlobalId inid = 0;
    bool is_set = false;
    std::array<Real, 6> w{};
    SourceLoc loc;
  };
  std::vector<Row> rows;
};

void apply_interpolation(const Block& b, DeckBuilder& d) {
  const Fields& h = b.head;
  const unsigned ddof = dof_digits(h, "DDOF");
  if ((ddof & 7u) != 7u)
    fail(h.loc("DDOF"), fmt::format("DDOF = {}: the dependent node's three translations (1, 2 "
                                    "and 3) must all be interpolated (a partial constraint is "
                                    "not supported)",
                                    h.id("DDOF")));
  if ((ddof & 56u) != 0 && (ddof & 56u) != 56u)
    fail(h.loc("DDOF"), fmt::format("DDOF = {}: the rotations 4, 5 and 6 are interpolated all "
                                    "three or none (a partial constraint is not supported)",
                                    h.id("DDOF")));
  if (h.id("CIDD") != 0)
    fail(h.loc("CIDD"), fmt::format("CIDD = {}: a local system for the dependent dofs is not "
                                    "supported (all dofs are interpolated in global axes)",
                                    h.id("CIDD")));
  const int ityp = h.integer("ITYP");
  if (ityp != 0 && ityp != 1)
    fail(h.loc("ITYP"), fmt::format("ITYP = {}: 0 (INID is a node) or 1 (a node set)", ityp));
  const int idnsw = h.integer("IDNSW");
  if (idnsw < 0 || idnsw > 2) fail(h.loc("IDNSW"), fmt::format("IDNSW = {}: 0, 1 or 2", idnsw));
  if (b.rows.empty())
    fail(b.loc, "*CONSTRAINED_INTERPOLATION: no independent node card (INID, IDOF, weights)");
  Interpolation c;
  c.id = h.id("ICID");
  c.node = h.id("DNID");
  c.rotations = (ddof & 56u) != 0;
  c.loc = h.loc("DNID");
  auto& ext = d.extension<InterpolationRows>("interpolation");
  for (const Fields& row : b.rows) {
    const unsigned idof = dof_digits(row, "IDOF");
    InterpolationRows::Row r;
    r.constraint = d.model.interpolations.size();
    r.inid = row.id("INID");
    r.is_set = ityp == 1;
    r.loc = row.loc("INID");
    const Real wx = row.real("TWGHTX");
    const char* names[6] = {"TWGHTX", "TWGHTY", "TWGHTZ", "RWGHTX", "RWGHTY", "RWGHTZ"};
    for (int k = 0; k < 6; ++k) {
      const Real w = row.blank(names[k]) ? wx : row.real(names[k]);
      if (!(w >= 0))
        fail(row.loc(names[k]), fmt::format("{} = {}: a weight must not be negative", names[k], w));
      r.w[static_cast<std::size_t>(k)] = (idof & (1u << k)) ? w : 0.0;
    }
    ext.rows.push_back(r);
  }
  d.model.interpolations.push_back(std::move(c));
}

std::vector<KeywordSpec> interpolation_cards() {
  return {
      {.name = "*CONSTRAINED_INTERPOLATION",
       .head = {{"Card 1",
                 {I("ICID"), I("DNID").req(), I("DDOF", "123456"), I("CIDD"), I("ITYP"),
                  I("IDNSW", "1"), I("FGM")}}},
       .rows = {{"Card 2",
                 {I("INID").req(), I("IDOF", "123456"), R("TWGHTX", "1.0"), R("TWGHTY"),
                  R("TWGHTZ"), R("RWGHTX"), R("RWGHTY"), R("RWGHTZ")}}},
       .summary =
           "An RBE3: the dependent node DNID follows the weighted least-squares rigid motion "
           "of the independent nodes INID (ITYP 1: every node of set INID), and a force or "
           "moment on it is distributed to them by the transpose of that fit (F and the moment "
           "about DNID are carried exactly; the pair does no work). Weights: TWGHTX-Z for the "
           "translations, RWGHTX-Z for the rotations of independent nodes that have them "
           "(shells, beams), times the square of the mean distance of the independent nodes from "
           "DNID "
           "(Nastran's RBE3 convention: no dependence on the length unit); a blank weight is "
           "TWGHTX, a dof not in IDOF weighs 0; DDOF or IDOF 0 is 123456. DDOF must "
           "hold 1, 2 and 3 (and 4, 5, 6 all or none: the rotations of a dependent shell or "
           "beam node follow the fit); CIDD must be 0. The independent nodes must determine a "
           "rigid motion (three nodes not on a line, or rotational weights); an error names "
           "the constraint otherwise. The dependent node's mass goes to the independent nodes "
           "in proportion to their translational weights; its rotary inertia (if it turns with "
           "the fit) is dropped. The dependent node may not be constrained otherwise (rigid "
           "body, SPC, tie, another interpolation), nor may an independent node be a rigid "
           "body's or a constraint-based tie's. IDNSW (node deletion: parcae deletes no "
           "nodes) and FGM (implicit only) are read and not used. A rigid wall does not stop the "
           "dependent node (it follows the fit; forces on it, contact included, go to the "
           "independent nodes). Explicit solver only.",
       .apply = apply_interpolation},
  };
}

/// Independent nodes resolved (node sets expanded, every node defined), the dependent node
/// defined and not among its own independent nodes.
void resolve_interpolations(DeckBuilder& d) {
  Model& m = d.model;
  if (m.interpolations.empty()) return;
  auto& ext = d.extension<InterpolationRows>("interpolation");
  for (const auto& r : ext.rows) {
    Interpolation& c = m.interpolations[r.constraint];
    auto add = [&](GlobalId nid) {
      if (m.node_index(nid) == kInvalidLocal)
        fail(r.loc, fmt::format("*CONSTRAINED_INTERPOLATION {}: independent node {} is not "
                                "defined",
                                c.id, nid));
      if (nid == c.node)
        fail(r.loc, fmt::format("*CONSTRAINED_INTERPOLATION {}: the dependent node {} is also "
                                "one of its independent nodes",
                                c.id, nid));
      c.nodes.push_back({nid, r.w});
    };
    if (!r.is_set) {
      add(r.inid);
      continue;
    }
    const auto set = m.node_sets.find(r.inid);
    if (set == m.node_sets.end())
      fail(r.loc, fmt::format("*CONSTRAINED_INTERPOLATION {}: node set INID = {} (ITYP 1) is "
                              "not defined",
                              c.id, r.inid));
    for (GlobalId nid : set->second.members) add(nid);
  }
  for (const Interpolation& c : m.interpolations)
    if (m.node_index(c.node) == kInvalidLocal)
      fail(c.loc, fmt::format("*CONSTRAINED_INTERPOLATION {}: dependent node DNID = {} is not "
                              "defined",
                              c.id, c.node));
}

} // namespace

KeywordFile keywords_interpolation() {
  return {interpolation_cards(), resolve_interpolations};
}

} // namespace parcae::io
