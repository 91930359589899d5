// *DEFINE_TRANSFORMATION and *NODE_TRANSFORM: node sets moved by a sequence of translations,
// rotations and scalings, card tables beside their apply and resolve functions. The nodes move
// once the deck's sets are resolved, before anything else is computed from their coordinates
// (deck_resolve.cpp calls resolve_node_transforms, then makes the coordinate systems defined by
// nodes again), in the order of the *NODE_TRANSFORM cards.
#include <cmath>
#include <map>
#include <numbers>

#include <fmt/format.h>

#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"
#include "input/deck_builder.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

/// One line of a *DEFINE_TRANSFORMATION.
struct TransformOp {
  enum class Kind : std::uint8_t { Translate, Rotate, Scale } kind = Kind::Translate;
  std::array<Real, 7> a{};
};

struct Transformation {
  std::vector<TransformOp> ops;
  SourceLoc loc;
};

struct PendingNodeTransform {
  GlobalId tranid = 0, nsid = 0;
  SourceLoc loc;
};

void apply_define_transformation(const Block& b, DeckBuilder& d) {
  const GlobalId id = b.head.id("TRANID");
  const SourceLoc loc = b.head.loc("TRANID");
  if (id <= 0) fail(loc, fmt::format("TRANID = {} must be positive", id));
  d.claim_id("transformation", id, loc);
  Transformation t;
  t.loc = loc;
  for (const Fields& row : b.rows) {
    std::string option = row.text("OPTION");
    for (char& c : option) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    TransformOp op;
    static constexpr std::string_view names[] = {"A1", "A2", "A3", "A4", "A5", "A6", "A7"};
    for (std::size_t k = 0; k < 7; ++k) op.a[k] = row.real(names[k]);
    if (option == "TRANSL") {
      op.kind = TransformOp::Kind::Translate;
    } else if (option == "SCALE") {
      op.kind = TransformOp::Kind::Scale;
      for (std::size_t k = 0; k < 3; ++k)
        if (op.a[k] == 0)
          fail(row.loc(names[k]), fmt::format("transformation {}: SCALE {} = 0 collapses the "
                                              "nodes (a scale factor must be nonzero)",
                                              id, names[k]));
    } else if (option == "ROTATE") {
      op.kind = TransformOp::Kind::Rotate;
      if (op.a[3] == 0 && op.a[4] == 0 && op.a[5] == 0 && op.a[6] == 0)
        fail(row.loc("A4"), fmt::format("transformation {}: ROTATE with A4-A7 blank (the form "
                                        "whose axis is given by nodes and whose angle is A3) is "
                                        "not supported: give the axis A1-A3, a point A4-A6 and "
                                        "the angle A7",
                                        id));
      if (op.a[0] == 0 && op.a[1] == 0 && op.a[2] == 0)
        fail(row.loc("A1"), fmt::format("transformation {}: ROTATE needs the axis direction A1, "
                                        "A2, A3 (the point A4, A5, A6 and the angle A7 in "
                                        "degrees follow)",
                                        id));
    } else {
      fail(row.loc("OPTION"),
           fmt::format("transformation {}: OPTION {} is not supported (TRANSL, ROTATE and SCALE "
                       "are)",
                       id, option.empty() ? "(blank)" : option));
    }
    t.ops.push_back(op);
  }
  if (t.ops.empty())
    fail(loc, fmt::format("transformation {} has no TRANSL, ROTATE or SCALE line", id));
  d.extension<std::map<GlobalId, Transformation>>("transformations").emplace(id, std::move(t));
}

void apply_node_transform(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows)
    d.extension<std::vector<PendingNodeTransform>>("node transforms")
        .push_back({row.id("TRSID"), row.id("NSID"), row.loc("TRSID")});
}

/// p moved by op.
void transform_point(const TransformOp& op, Real p[3]) {
  switch (op.kind) {
  case TransformOp::Kind::Translate:
    for (int i = 0; i < 3; ++i) p[i] += op.a[static_cast<std::size_t>(i)];
    return;
  case TransformOp::Kind::Scale:
    for (int i = 0; i < 3; ++i) p[i] *= op.a[static_cast<std::size_t>(i)];
    return;
  case TransformOp::Kind::Rotate: {
    // Rodrigues: about the unit axis e through point c by the angle (degrees, right hand)
    const Real len = std::sqrt(op.a[0] * op.a[0] + op.a[1] * op.a[1] + op.a[2] * op.a[2]);
    const Real e[3] = {op.a[0] / len, op.a[1] / len, op.a[2] / len};
    const Real th = op.a[6] * std::numbers::pi / 180.0;
    const Real c = std::cos(th), s = std::sin(th);
    const Real r[3] = {p[0] - op.a[3], p[1] - op.a[4], p[2] - op.a[5]};
    const Real ed = e[0] * r[0] + e[1] * r[1] + e[2] * r[2];
    const Real ex[3] = {e[1] * r[2] - e[2] * r[1], e[2] * r[0] - e[0] * r[2],
                        e[0] * r[1] - e[1] * r[0]};
    for (int i = 0; i < 3; ++i)
      p[i] = op.a[static_cast<std::size_t>(3 + i)] + r[i] * c + ex[i] * s + e[i] * ed * (1 - c);
    return;
  }
  }
}

} // namespace

bool resolve_node_transforms(DeckBuilder& d) {
  Model& m = d.model;
  const auto& pending = d.extension<std::vector<PendingNodeTransform>>("node transforms");
  const auto& defs = d.extension<std::map<GlobalId, Transformation>>("transformations");
  for (const PendingNodeTransform& p : pending) {
    const auto t = defs.find(p.tranid);
    if (t == defs.end())
      fail(p.loc, fmt::format("*NODE_TRANSFORM references transformation TRSID = {}, which is "
                              "not defined",
                              p.tranid));
    const auto set = m.node_sets.find(p.nsid);
    if (set == m.node_sets.end())
      fail(p.loc, fmt::format("*NODE_TRANSFORM references node set NSID = {}, which is not "
                              "defined",
                              p.nsid));
    for (GlobalId nid : set->second.members) {
      const LocalId n = m.node_index(nid);
      if (n == kInvalidLocal)
        fail(p.loc, fmt::format("*NODE_TRANSFORM: node {} of set {} is not defined", nid, p.nsid));
      const auto k = static_cast<std::size_t>(n);
      Real x[3] = {m.nodes.x[k], m.nodes.y[k], m.nodes.z[k]};
      for (const TransformOp& op : t->second.ops) transform_point(op, x);
      m.nodes.x[k] = x[0];
      m.nodes.y[k] = x[1];
      m.nodes.z[k] = x[2];
    }
  }
  return !pending.empty();
}

namespace {

std::vector<KeywordSpec> transform_cards() {
  return {
      {.name = "*DEFINE_TRANSFORMATION",
       .options = {"TITLE"},
       .head = {title_card(), {"Card 1", {I("TRANID").req()}}},
       .rows = {{"Transformation",
                 {S("OPTION"), R("A1"), R("A2"), R("A3"), R("A4"), R("A5"), R("A6"), R("A7")}}},
       .summary = "A sequence of transformations, applied in the order of the lines: TRANSL "
                  "(translation A1, A2, A3), ROTATE (about the axis of direction A1, A2, A3 "
                  "through the point A4, A5, A6 by A7 degrees, right-handed) and SCALE (the "
                  "coordinates times A1, A2, A3). Used by *NODE_TRANSFORM. The other options "
                  "(MIRROR, POINT, POS6N, POS6P, ROTATE3NA, TRANSL2ND, ...) and ROTATE with A4-A7 "
                  "blank are refused at the line.",
       .apply = apply_define_transformation},
      {.name = "*NODE_TRANSFORM",
       .rows = {{"Card 1", {I("TRSID").req(), I("NSID").req(), I("IMMED")}}},
       .stream_rows = true,
       .summary = "Moves the nodes of node set NSID by transformation TRSID, once the deck's "
                  "sets are resolved (several cards: in their order); the coordinate systems "
                  "defined by nodes follow, but sets selected by a box (*SET_..._GENERAL BOX) "
                  "are chosen on the coordinates before the move. IMMED is not needed (no keyword "
                  "reads coordinates while the "
                  "deck is read).",
       .apply = apply_node_transform},
  };
}

} // namespace

KeywordFile keywords_transform() {
  return {transform_cards(), nullptr}; // resolve_node_transforms runs early (deck_resolve.cpp)
}

} // namespace parcae::io
