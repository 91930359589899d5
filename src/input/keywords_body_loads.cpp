// *LOAD_BODY_VECTOR, *LOAD_BODY_RX / _RY / _RZ and *LOAD_GRAVITY_PART (_SET): the body loads
// beyond *LOAD_BODY_X/Y/Z, card tables beside their apply and resolve functions. They become
// model.body_loads; the explicit solver applies them (solvers/explicit/nodal_update.cpp), the
// implicit solver refuses body loads.
#include <cmath>

#include <fmt/format.h>

#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

/// The loads whose direction is given in a local system: index into model.body_loads, CID and
/// the direction in that system (resolved once the systems are read).
struct LocalVector {
  std::size_t index = 0;
  GlobalId cid = 0;
  std::array<Real, 3> v{0, 0, 0};
};

BodyLoad head_load(const Fields& h) {
  BodyLoad l;
  l.lcid = h.id("LCID");
  l.sf = h.real("SF");
  l.lciddr = h.id("LCIDDR");
  l.loc = h.loc("LCID");
  return l;
}

/// One acceleration load per nonzero global component of the unit direction v.
void push_along(Model& m, const BodyLoad& base, const std::array<Real, 3>& v, std::size_t replace) {
  bool first = true;
  for (int i = 0; i < 3; ++i) {
    if (v[static_cast<std::size_t>(i)] == 0) continue;
    BodyLoad g = base;
    g.dir = i;
    g.sf = base.sf * v[static_cast<std::size_t>(i)];
    if (first)
      m.body_loads[replace] = g;
    else
      m.body_loads.push_back(g);
    first = false;
  }
}

void apply_load_body_vector(const Block& b, DeckBuilder& d) {
  const Fields& h = b.head;
  std::array<Real, 3> v{h.real("V1"), h.real("V2"), h.real("V3")};
  const Real len = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  if (!(len > 0))
    fail(h.loc("V1"), "*LOAD_BODY_VECTOR: the vector V1, V2, V3 is zero (it gives the direction "
                      "of the acceleration)");
  if (std::abs(len - 1) > 1e-6)
    d.model.notes.push_back({"*LOAD_BODY_VECTOR", h.loc("V1"), false,
                             fmt::format("|V| = {}: V gives the direction only, "
                                         "the acceleration is SF * curve (scale SF if V's length "
                                         "was meant to scale the load)",
                                         len)});
  for (Real& c : v) c /= len;
  const BodyLoad base = head_load(h);
  d.model.body_loads.push_back(base);
  auto& pending = d.extension<std::vector<LocalVector>>("body load vectors");
  if (h.id("CID") != 0)
    pending.push_back({d.model.body_loads.size() - 1, h.id("CID"), v});
  else
    push_along(d.model, base, v, d.model.body_loads.size() - 1);
}

void add_spin(const Block& b, int axis, DeckBuilder& d) {
  const Fields& h = b.head;
  if (h.id("CID") != 0)
    fail(h.loc("CID"), fmt::format("CID = {}: a rotational body load about a local axis is not "
                                   "supported (the axis is the global one through XC, YC, ZC)",
                                   h.id("CID")));
  BodyLoad l = head_load(h);
  l.kind = BodyLoad::Kind::Spin;
  l.dir = axis;
  l.center = {h.real("XC"), h.real("YC"), h.real("ZC")};
  l.axis[static_cast<std::size_t>(axis)] = 1;
  d.model.body_loads.push_back(l);
}

void apply_load_body_rx(const Block& b, DeckBuilder& d) {
  add_spin(b, 0, d);
}
void apply_load_body_ry(const Block& b, DeckBuilder& d) {
  add_spin(b, 1, d);
}
void apply_load_body_rz(const Block& b, DeckBuilder& d) {
  add_spin(b, 2, d);
}

void add_gravity_part(const Block& b, bool is_set, DeckBuilder& d) {
  const std::string_view field = is_set ? "PSID" : "PID";
  for (const Fields& row : b.rows) {
    const int dof = row.integer("DOF");
    if (dof < 1 || dof > 3)
      fail(row.loc("DOF"), fmt::format("DOF = {} is not a direction (1 x, 2 y, 3 z)", dof));
    if (row.integer("STGA") != 0 || row.integer("STGR") != 0)
      fail(row.loc(row.integer("STGA") != 0 ? "STGA" : "STGR"),
           "construction stages (STGA, STGR; *DEFINE_CONSTRUCTION_STAGES) are not supported");
    if (row.id("LC") == 0)
      fail(row.loc("LC"), "LC = 0: the load curve is required (LC = 0 goes with construction "
                          "stages, which are not supported)");
    BodyLoad l;
    l.dir = dof - 1;
    l.lcid = row.id("LC");
    l.sf = row.real("ACCEL");
    l.lciddr = row.id("LCDR");
    l.loc = row.loc(field);
    l.part = row.id(field);
    l.part_is_set = is_set;
    if (l.part <= 0)
      fail(row.loc(field),
           fmt::format("{} = {} must be a {}", field, l.part, is_set ? "part set" : "part"));
    d.model.body_loads.push_back(l);
  }
}

void apply_load_gravity_part(const Block& b, DeckBuilder& d) {
  add_gravity_part(b, false, d);
}
void apply_load_gravity_part_set(const Block& b, DeckBuilder& d) {
  add_gravity_part(b, true, d);
}

std::vector<FieldSpec> body_head() {
  return {I("LCID").req(), R("SF", "1.0"), I("LCIDDR"), R("XC"), R("YC"), R("ZC"), I("CID")};
}

std::vector<FieldSpec> gravity_row(std::string_view target) {
  return {I(target).req(), I("DOF").req(), I("LC"), R("ACCEL"), I("LCDR"), I("STGA"), I("STGR")};
}

std::vector<KeywordSpec> body_load_cards() {
#define PARCAE_SPIN_SUMMARY(AXIS)                                                                  \
  "Angular velocity omega = SF * curve(t) (radians per unit time) about the global " AXIS          \
  " axis through XC, YC, ZC: each node feels the centrifugal force m omega^2 r, r its current "    \
  "distance vector from the axis (the rotating frame's body load; no Coriolis force). During "     \
  "dynamic relaxation omega = SF * LCIDDR(t) (none when LCIDDR = 0, unless LCID has SIDR 1 or "    \
  "2). *LOAD_BODY_PARTS restricts it as the other body loads. CID != 0 is refused."
  return {
      {.name = "*LOAD_BODY_VECTOR",
       .head = {{"Card 1", body_head()}, {"Card 2", {R("V1"), R("V2"), R("V3")}}},
       .summary =
           "Body acceleration SF * curve(t) along the direction of V (V1, V2, V3; in the "
           "local system CID when CID != 0, its axes at time 0); the inertial load is -m a "
           "as for *LOAD_BODY_X. V is normalised: its length does not scale the load (a "
           "warning says so when |V| != 1). During dynamic relaxation SF * LCIDDR(t) (none when "
           "LCIDDR = 0, unless LCID has SIDR 1 or 2). XC, "
           "YC, ZC are not used.",
       .apply = apply_load_body_vector},
      {.name = "*LOAD_BODY_RX",
       .head = {{"Card 1", body_head()}},
       .summary = PARCAE_SPIN_SUMMARY("x"),
       .apply = apply_load_body_rx},
      {.name = "*LOAD_BODY_RY",
       .head = {{"Card 1", body_head()}},
       .summary = PARCAE_SPIN_SUMMARY("y"),
       .apply = apply_load_body_ry},
      {.name = "*LOAD_BODY_RZ",
       .head = {{"Card 1", body_head()}},
       .summary = PARCAE_SPIN_SUMMARY("z"),
       .apply = apply_load_body_rz},
      {.name = "*LOAD_GRAVITY_PART",
       .rows = {{"Card 1", gravity_row("PID")}},
       .stream_rows = true,
       .summary = "Acceleration ACCEL * LC(t) in direction DOF (1 x, 2 y, 3 z) on the nodes of "
                  "part PID's elements, each with its whole nodal mass; the inertial load is -m "
                  "a as for *LOAD_BODY_Z (gravity in -z: DOF 3, ACCEL = +g). LCDR: the curve "
                  "during dynamic relaxation (none when 0, unless LC has SIDR 1 or 2). "
                  "*LOAD_BODY_PARTS does not restrict "
                  "it. Construction stages (STGA, STGR) are refused.",
       .apply = apply_load_gravity_part},
      {.name = "*LOAD_GRAVITY_PART_SET",
       .rows = {{"Card 1", gravity_row("PSID")}},
       .stream_rows = true,
       .summary = "As *LOAD_GRAVITY_PART on the parts of part set PSID.",
       .apply = apply_load_gravity_part_set},
  };
}
#undef PARCAE_SPIN_SUMMARY

void resolve_body_loads(DeckBuilder& d) {
  Model& m = d.model;
  for (const LocalVector& lv : d.extension<std::vector<LocalVector>>("body load vectors")) {
    const CoordinateSystem& cs =
        referenced_system(m, m.body_loads[lv.index].loc, "*LOAD_BODY_VECTOR", lv.cid);
    std::array<Real, 3> g{0, 0, 0};
    for (std::size_t a = 0; a < 3; ++a)
      for (std::size_t i = 0; i < 3; ++i) g[i] += lv.v[a] * cs.axes[a][i];
    const BodyLoad base = m.body_loads[lv.index]; // (a copy: push_along writes the vector)
    push_along(m, base, g, lv.index);
  }
  for (const BodyLoad& l : m.body_loads) {
    if (l.part == 0) continue;
    if (l.part_is_set ? m.part_sets.count(l.part) == 0 : m.find_part(l.part) == nullptr)
      fail(l.loc,
           fmt::format("*LOAD_GRAVITY_PART{}: {} {} is not defined", l.part_is_set ? "_SET" : "",
                       l.part_is_set ? "part set" : "part", l.part));
  }
}

} // namespace

KeywordFile keywords_body_loads() {
  return {body_load_cards(), resolve_body_loads};
}

} // namespace parcae::io
