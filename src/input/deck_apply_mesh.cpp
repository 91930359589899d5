// Apply functions: nodes, elements, parts, sections, materials, hourglass sets.
#include <algorithm>
#include <fmt/format.h>
#include <stdexcept>

#include "input/deck_apply.hpp"
#include "materials/catalogue.hpp"

namespace parcae::io {

namespace {

void check_positive_id(const Fields& row, std::string_view field, std::string_view what) {
  if (row.id(field) <= 0)
    fail(row.loc(field), fmt::format("{} id {} = {} must be positive", what, field, row.id(field)));
}

/// TC/RC constraint code 0..7.
std::uint8_t constraint_code(const Fields& row, std::string_view field) {
  const std::int64_t v = row.id(field);
  if (v < 0 || v > 7)
    fail(row.loc(field), fmt::format("node {}: {} = {} must be 0-7", row.id("NID"), field, v));
  return static_cast<std::uint8_t>(v);
}

std::string title_of(const Block& b, const Fields& f) {
  return b.has("TITLE") ? f.text("TITLE") : std::string();
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Nodes and elements

void apply_node(const Block& b, DeckBuilder& d) {
  NodeTable& n = d.model.nodes;
  for (const Fields& row : b.rows) {
    check_positive_id(row, "NID", "node");
    const SrcRef src = d.ref(row.file(), row.line());
    d.claim_id("node", row.id("NID"), src, "*NODE");
    n.id.push_back(row.id("NID"));
    n.x.push_back(row.real("X"));
    n.y.push_back(row.real("Y"));
    n.z.push_back(row.real("Z"));
    n.tc.push_back(constraint_code(row, "TC"));
    n.rc.push_back(constraint_code(row, "RC"));
    d.node_src.push_back(src);
  }
}

namespace {

constexpr std::string_view kNodeFields[] = {"N1", "N2", "N3", "N4", "N5", "N6", "N7", "N8"};

/// Hexahedron connectivity; a tetrahedron (N5-N8 blank) becomes N1 N2 N3 N4 N4 N4 N4 N4.
std::array<GlobalId, 8> solid_nodes(const Fields& row) {
  std::array<GlobalId, 8> n{};
  for (int k = 0; k < 8; ++k) n[k] = row.id(kNodeFields[k]);
  const GlobalId eid = row.id("EID");
  for (int k = 0; k < 4; ++k)
    if (n[k] == 0)
      fail(row.loc(kNodeFields[k]),
           fmt::format("solid element {}: {} is blank", eid, kNodeFields[k]));
  const int upper = static_cast<int>((n[4] != 0) + (n[5] != 0) + (n[6] != 0) + (n[7] != 0));
  if (upper == 0)
    n[4] = n[5] = n[6] = n[7] = n[3];
  else if (upper != 4)
    fail(row.loc("N5"), fmt::format("solid element {} has {} nodes: give N1-N8 (repeat nodes for "
                                    "wedges) or N1-N4 only (tetrahedron)",
                                    eid, 4 + upper));
  for (std::string_view extra : {"N9", "N10"})
    if (const Value* v = row.find(extra); v && v->i != 0)
      fail(row.loc(extra), fmt::format("solid element {}: {} = {}: 10-node elements are not "
                                       "supported",
                                       eid, extra, v->i));
  return n;
}

} // namespace

PendingShell read_shell_card(const Fields& row, DeckBuilder& d) {
  PendingShell s;
  s.id = row.id("EID");
  s.pid = row.id("PID");
  check_positive_id(row, "EID", "shell element");
  for (int k = 0; k < 4; ++k) s.nodes[k] = row.id(kNodeFields[k]);
  for (int k = 0; k < 3; ++k)
    if (s.nodes[k] == 0)
      fail(row.loc(kNodeFields[k]),
           fmt::format("shell element {}: {} is blank", s.id, kNodeFields[k]));
  if (s.nodes[3] == 0) s.nodes[3] = s.nodes[2];
  for (int k = 4; k < 8; ++k)
    if (row.id(kNodeFields[k]) != 0)
      fail(row.loc(kNodeFields[k]), fmt::format("shell element {}: {} is given: 8-node shells are "
                                                "not supported",
                                                s.id, kNodeFields[k]));
  s.src = d.ref(row.file(), row.line());
  d.claim_id("shell element", s.id, s.src, "*ELEMENT_SHELL");
  return s;
}

void apply_element_solid(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    check_positive_id(row, "EID", "solid element");
    PendingSolid s{row.id("EID"), row.id("PID"), solid_nodes(row), d.ref(row.file(), row.line())};
    d.claim_id("solid element", s.id, s.src, "*ELEMENT_SOLID");
    d.solids.push_back(s);
  }
}

void apply_element_shell(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) d.shells.push_back(read_shell_card(row, d));
}

void apply_element_tshell(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    check_positive_id(row, "EID", "thick shell element");
    PendingSolid s{row.id("EID"), row.id("PID"), {}, d.ref(row.file(), row.line()), true};
    for (int k = 0; k < 8; ++k) {
      s.nodes[k] = row.id(kNodeFields[k]);
      if (s.nodes[k] <= 0)
        fail(row.loc(kNodeFields[k]),
             fmt::format("thick shell element {}: {} = {} (all eight nodes are needed: N1-N4 "
                         "the bottom face, N5-N8 the top; repeat N3, N7 for a wedge)",
                         s.id, kNodeFields[k], s.nodes[k]));
    }
    d.claim_id("solid element", s.id, s.src, "*ELEMENT_TSHELL");
    d.solids.push_back(s);
  }
}

void apply_element_shell_thickness(const Block& b, DeckBuilder& d) {
  static constexpr std::string_view thic[] = {"THIC1", "THIC2", "THIC3", "THIC4"};
  for (const Fields& row : b.rows) {
    PendingShell s = read_shell_card(row, d);
    for (int k = 0; k < 4; ++k) {
      s.thickness[k] = row.real(thic[k]);
      if (s.thickness[k] < 0)
        fail(row.loc(thic[k]), fmt::format("shell element {}: negative thickness {} = {}", s.id,
                                           thic[k], s.thickness[k]));
    }
    if (row.real("BETA") != 0 && !d.parameter_pass)
      d.model.notes.push_back({b.loc.card, row.loc("BETA"), false,
                               fmt::format("shell element {}: BETA = {} is not read (the material "
                                           "axes are the element's, turned by the material's "
                                           "BETA and the section's ICOMP angles)",
                                           s.id, row.real("BETA"))});
    d.shells.push_back(s);
  }
}

// ---------------------------------------------------------------------------------------------
// Parts, sections, hourglass

PartInertia read_inertia_cards(const Fields& row, std::string_view who,
                               std::string_view node_field) {
  PartInertia in;
  in.loc = row.loc("TM");
  in.xc = {row.real("XC"), row.real("YC"), row.real("ZC")};
  in.tm = row.real("TM");
  in.nodeid = row.id(node_field);
  if (!(in.tm > 0))
    fail(row.loc("TM"), fmt::format("{}: _INERTIA TM = {}: the mass must be positive", who, in.tm));
  if (row.integer("IRCS") != 0)
    fail(row.loc("IRCS"), fmt::format("{}: _INERTIA IRCS = {}: an inertia tensor in a local "
                                      "frame is not supported (give it in the global frame, "
                                      "IRCS = 0)",
                                      who, row.integer("IRCS")));
  if (in.nodeid < 0)
    fail(row.loc(node_field),
         fmt::format("{}: _INERTIA {} = {} must not be negative", who, node_field, in.nodeid));
  static constexpr std::string_view in_names[] = {"IXX", "IXY", "IXZ", "IYY", "IYZ", "IZZ"};
  static constexpr std::string_view v_names[] = {"VTX", "VTY", "VTZ", "VRX", "VRY", "VRZ"};
  for (std::size_t k = 0; k < 6; ++k) {
    in.inertia[k] = row.real(in_names[k]);
    in.vel[k] = row.real(v_names[k]);
  }
  // positive definite (Sylvester: the leading minors of [[xx xy xz] [xy yy yz] [xz yz zz]])
  const auto& i = in.inertia;
  const Real m1 = i[0], m2 = i[0] * i[3] - i[1] * i[1];
  const Real m3 = i[0] * (i[3] * i[5] - i[4] * i[4]) - i[1] * (i[1] * i[5] - i[4] * i[2]) +
                  i[2] * (i[1] * i[4] - i[3] * i[2]);
  if (!(m1 > 0 && m2 > 0 && m3 > 0))
    fail(row.loc("IXX"), fmt::format("{}: _INERTIA: the inertia tensor (IXX {} IXY {} IXZ "
                                     "{} IYY {} IYZ {} IZZ {}) is not positive definite",
                                     who, i[0], i[1], i[2], i[3], i[4], i[5]));
  return in;
}

void read_part_contact(const Block& b, const Fields& row, std::string_view who, bool note, Part& p,
                       DeckBuilder& d) {
  p.contact_optt = row.real("OPTT");
  if (p.contact_optt < 0)
    fail(row.loc("OPTT"), fmt::format("{}: OPTT = {} must not be negative", who, p.contact_optt));
  for (std::string_view f : {"FS", "FD", "DC", "VC", "SFT", "SSF", "CPARM8"})
    if (row.real(f) != 0 && note)
      d.model.notes.push_back({std::string(b.spec->name), row.loc(f), false,
                               fmt::format("{}: _CONTACT {} = {} ignored (the *CONTACT values "
                                           "are used)",
                                           who, f, row.real(f))});
}

void apply_part(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    Part p;
    p.id = row.id("PID");
    p.title = row.text("HEADING");
    p.secid = row.id("SECID");
    p.mid = row.id("MID");
    p.hgid = row.id("HGID");
    p.loc = row.loc("PID");
    p.eosid = row.id("EOSID");
    check_positive_id(row, "PID", "part");
    if (p.eosid < 0)
      fail(row.loc("EOSID"),
           fmt::format("part {}: EOSID = {} must not be negative", p.id, p.eosid));
    if (b.has("CONTACT")) read_part_contact(b, row, fmt::format("part {}", p.id), true, p, d);
    if (b.has("INERTIA"))
      p.inertia = read_inertia_cards(row, fmt::format("part {}", p.id), "NODEID");
    d.claim_id("part", p.id, p.loc);
    d.model.parts.push_back(std::move(p));
  }
}

namespace {

Section new_section(const Block& b, const Fields& row, SectionKind kind, DeckBuilder& d) {
  Section s;
  s.id = row.id("SECID");
  s.kind = kind;
  s.title = title_of(b, row);
  s.elform = row.integer("ELFORM");
  s.loc = row.loc("SECID");
  check_positive_id(row, "SECID", "section");
  d.claim_id("section", s.id, s.loc);
  return s;
}

void read_shell_thickness(const Fields& row, Section& s) {
  static constexpr std::string_view names[] = {"T1", "T2", "T3", "T4"};
  for (int k = 0; k < 4; ++k) {
    s.t[k] = row.real(names[k]);
    if (s.t[k] < 0)
      fail(row.loc(names[k]),
           fmt::format("section {}: negative thickness {} = {}", s.id, names[k], s.t[k]));
    if (s.t[k] == 0) s.t[k] = s.t[0]; // LS-DYNA: T2-T4 default to T1
  }
}

} // namespace

void apply_section_solid(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows)
    d.model.sections.push_back(new_section(b, row, SectionKind::Solid, d));
}

void apply_section_tshell(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    Section s = new_section(b, row, SectionKind::TShell, d);
    s.elform_loc = row.loc("ELFORM");
    s.shrf = row.real("SHRF") == 0 ? 1.0 : row.real("SHRF");
    s.nip = row.integer("NIP") == 0 ? 2 : row.integer("NIP");
    if (s.nip < 1 || s.nip > 10)
      fail(row.loc("NIP"), fmt::format("section {}: NIP = {} must be 1-10", s.id, s.nip));
    s.qr_irid = row.integer("QR");
    if (s.qr_irid != 0)
      fail(row.loc("QR"), fmt::format("section {}: QR = {}: only Gauss points (0) are supported "
                                      "through the thickness of thick shells",
                                      s.id, s.qr_irid));
    if (row.integer("ICOMP") != 0)
      fail(row.loc("ICOMP"), fmt::format("section {}: ICOMP = {}: layered thick shells (point "
                                         "angles) are not supported",
                                         s.id, row.integer("ICOMP")));
    if (s.shrf < 0)
      fail(row.loc("SHRF"),
           fmt::format("section {}: SHRF = {} must not be negative", s.id, s.shrf));
    d.model.sections.push_back(std::move(s));
  }
}

void apply_section_shell(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    Section s = new_section(b, row, SectionKind::Shell, d);
    s.shrf = row.real("SHRF");
    s.nip = row.integer("NIP") == 0 ? 2 : row.integer("NIP");
    if (s.nip < 1 || s.nip > 10)
      fail(row.loc("NIP"), fmt::format("section {}: NIP = {} must be 1-10", s.id, s.nip));
    s.qr_irid = row.integer("QR/IRID");
    s.icomp = row.integer("ICOMP");
    if (s.icomp != 0 && s.icomp != 1)
      fail(row.loc("ICOMP"), fmt::format("section {}: ICOMP = {} must be 0 or 1", s.id, s.icomp));
    if (s.icomp == 1) {
      static constexpr std::string_view kB[] = {"B1", "B2", "B3", "B4", "B5",
                                                "B6", "B7", "B8", "B9", "B10"};
      for (int i = 0; i < s.nip; ++i) s.angles.push_back(row.real(kB[i]));
    }
    read_shell_thickness(row, s);
    s.nloc = row.real("NLOC");
    d.model.sections.push_back(s);
  }
}

void apply_hourglass(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    Hourglass h;
    h.id = row.id("HGID");
    h.title = title_of(b, row);
    h.ihq = row.integer("IHQ"); // 0: *CONTROL_HOURGLASS IHQ (resolved at the end)
    h.qm = row.real("QM");
    h.ibq = row.integer("IBQ");
    h.bulk_quadratic = row.real("Q1");
    h.bulk_linear = row.real("Q2");
    h.qb = row.real("QB/VDC");
    h.qw = row.real("QW");
    h.loc = row.loc("HGID");
    check_positive_id(row, "HGID", "hourglass");
    d.claim_id("hourglass", h.id, h.loc);
    d.model.hourglass.push_back(h);
  }
}

// ---------------------------------------------------------------------------------------------
// Materials

void apply_material(const Block& b, DeckBuilder& d) {
  const MaterialLaw* law = material_law_of_keyword(b.spec->name);
  if (law == nullptr || law->read == nullptr)
    throw std::logic_error(fmt::format("{}: not a material law's card", b.spec->name));
  const Fields& h = b.head;
  Material m;
  m.id = h.id("MID");
  m.kind = law->kind;
  m.title = title_of(b, h);
  const bool discrete = law->discrete_force != nullptr; // springs and dampers: no density
  m.ro = discrete ? 0.0 : h.real("RO");
  m.loc = h.loc("MID");
  check_positive_id(h, "MID", "material");
  if (!discrete && !(m.ro > 0))
    fail(h.loc("RO"), fmt::format("material {}: density RO = {} must be positive", m.id, m.ro));
  LawReader reader{m, d.model, [&d](std::string_view what, GlobalId id, const SourceLoc& loc) {
                     d.claim_id(what, id, loc);
                   }};
  reader.options = b.options;
  for (const Fields& row : b.rows) reader.rows.push_back(&row);
  law->read(h, reader);
  d.claim_id("material", m.id, m.loc);
  d.model.materials.push_back(std::move(m));
}

void apply_mat_add_erosion(const Block& b, DeckBuilder& d) {
  const Fields& h = b.head;
  MatAddErosion a;
  a.mid = h.id("MID");
  a.loc = h.loc("MID");
  check_positive_id(h, "MID", "material");
  const double excl = h.real("EXCL");
  // A criterion is used when its field is nonzero and not the exclusion number.
  auto used = [&](std::string_view f) {
    const double v = h.real(f);
    return v != 0 && v != excl;
  };
  for (std::string_view f :
       {"MNEPS",  "VOLEPS",  "EPSSH",  "SIGTH",  "IMPULSE", "IDAM",    "DMGTYP",
        "LCSDG",  "ECRIT",   "DMGEXP", "DCRIT",  "FADEXP",  "LCREGD",  "LCFLD",
        "NSFF",   "EPSTHIN", "ENGCRT", "RADCRT", "LCEPS12", "LCEPS13", "LCEPSMX",
        "DTEFLT", "VOLFRAC", "MXTMP",  "DTMIN"})
    if (used(f))
      fail(h.loc(f), fmt::format("*MAT_ADD_EROSION of material {}: {} = {} is not supported "
                                 "(supported criteria: MXPRES, MNPRES, SIGP1, SIGVM, MXEPS, "
                                 "EFFEPS, FAILTM with NUMFIP and NCS; set {} to 0 or to EXCL)",
                                 a.mid, f, h.real(f), f));
  auto take = [&](std::string_view f, bool& has, Real& v, bool positive) {
    if (!used(f)) return;
    v = h.real(f);
    if (positive && !(v > 0))
      fail(h.loc(f),
           fmt::format("*MAT_ADD_EROSION of material {}: {} = {} must be positive", a.mid, f, v));
    has = true;
  };
  take("MXPRES", a.has_mxpres, a.mxpres, false);
  take("MNPRES", a.has_mnpres, a.mnpres, false);
  take("SIGP1", a.has_sigp1, a.sigp1, true);
  take("SIGVM", a.has_sigvm, a.sigvm, true);
  take("MXEPS", a.has_mxeps, a.mxeps, true);
  take("EFFEPS", a.has_effeps, a.effeps, true);
  take("FAILTM", a.has_failtm, a.failtm, true);
  a.numfip = h.real("NUMFIP");
  if (a.numfip == 0) a.numfip = 1;
  if (a.numfip < -100)
    fail(h.loc("NUMFIP"), fmt::format("*MAT_ADD_EROSION of material {}: NUMFIP = {}: a "
                                      "percentage below -100 is not supported",
                                      a.mid, a.numfip));
  const double ncs = h.real("NCS");
  a.ncs = ncs <= 0 ? 1 : static_cast<int>(ncs);
  if (ncs > 0 && a.ncs != ncs)
    fail(h.loc("NCS"), fmt::format("*MAT_ADD_EROSION of material {}: NCS = {} must be a whole "
                                   "number",
                                   a.mid, ncs));
  for (const auto& o : d.model.add_erosions)
    if (o.mid == a.mid)
      fail(a.loc, fmt::format("*MAT_ADD_EROSION: material {} already has one", a.mid));
  d.model.add_erosions.push_back(a);
}

// ---------------------------------------------------------------------------------------------
// Hydrodynamic materials (009, 010, 015) and equations of state

namespace {

Eos new_eos(const Block& b, EosKind kind, DeckBuilder& d) {
  const Fields& h = b.head;
  Eos e;
  e.id = h.id("EOSID");
  e.kind = kind;
  e.title = title_of(b, h);
  e.e0 = h.real("E0");
  e.v0 = h.real("V0");
  e.loc = h.loc("EOSID");
  check_positive_id(h, "EOSID", "equation of state");
  if (!(e.v0 == 1.0 || e.v0 == 0.0))
    fail(h.loc("V0"), fmt::format("equation of state {}: V0 = {}: an initial relative volume "
                                  "other than 1 is not supported",
                                  e.id, e.v0));
  e.v0 = 1.0;
  d.claim_id("eos", e.id, e.loc);
  return e;
}

} // namespace

void apply_eos_linear_polynomial(const Block& b, DeckBuilder& d) {
  const Fields& h = b.head;
  Eos e = new_eos(b, EosKind::LinearPolynomial, d);
  static constexpr std::string_view names[] = {"C0", "C1", "C2", "C3", "C4", "C5", "C6"};
  for (int k = 0; k < 7; ++k) e.c[static_cast<std::size_t>(k)] = h.real(names[k]);
  if (e.c[1] < 0)
    fail(h.loc("C1"), fmt::format("equation of state {}: C1 = {} (the bulk modulus) must not be "
                                  "negative",
                                  e.id, e.c[1]));
  d.model.eos.push_back(e);
}

void apply_eos_gruneisen(const Block& b, DeckBuilder& d) {
  const Fields& h = b.head;
  Eos e = new_eos(b, EosKind::Gruneisen, d);
  e.gr_c = h.real("C");
  e.s1 = h.real("S1");
  e.s2 = h.real("S2");
  e.s3 = h.real("S3");
  e.gamma0 = h.real("GAMAO");
  e.gr_a = h.real("A");
  if (!(e.gr_c > 0))
    fail(h.loc("C"), fmt::format("equation of state {}: C = {} must be positive", e.id, e.gr_c));
  if (h.id("LCID") != 0)
    fail(h.loc("LCID"), fmt::format("equation of state {}: LCID = {}: energy deposition is not "
                                    "supported",
                                    e.id, h.id("LCID")));
  d.model.eos.push_back(e);
}

} // namespace parcae::io

namespace parcae::io {

namespace {

void apply_tabulated(const Block& b, EosKind kind, DeckBuilder& d) {
  const Fields& h = b.head;
  Eos e = new_eos(b, kind, d);
  e.tab_gamma = h.real("GAMA");
  for (std::string_view f : {"LCC", "LCT", "LCK"})
    if (h.id(f) != 0)
      fail(h.loc(f), fmt::format("equation of state {}: {} = {}: tabulated curves are not "
                                 "supported (give the points EV, C, T{})",
                                 e.id, f, h.id(f), kind == EosKind::Tabulated ? "" : ", K"));
  if (h.id("LCID") != 0)
    fail(h.loc("LCID"), fmt::format("equation of state {}: LCID = {}: energy deposition is not "
                                    "supported",
                                    e.id, h.id("LCID")));
  const bool compaction = kind == EosKind::TabulatedCompaction;
  struct Point {
    Real ev, c, t, k;
    int i;
  };
  std::vector<Point> pts;
  for (int i = 1; i <= 10; ++i) {
    const Point p{h.real(fmt::format("EV{}", i)), h.real(fmt::format("C{}", i)),
                  h.real(fmt::format("T{}", i)), compaction ? h.real(fmt::format("K{}", i)) : 0, i};
    pts.push_back(p);
  }
  // trailing blank points (all zero) after the second are left out
  bool dropped = false;
  while (pts.size() > 2 && pts.back().ev == 0 && pts.back().c == 0 && pts.back().t == 0 &&
         pts.back().k == 0) {
    pts.pop_back();
    dropped = true;
  }
  // A table listed in ascending order (the manual's is descending: trailing zeros there are
  // unused points) ends with its point at EV = 0: keep (0, 0, 0) when no other point has EV 0.
  const bool ascending = std::is_sorted(pts.begin(), pts.end(),
                                        [](const Point& a, const Point& b) { return a.ev < b.ev; });
  if (dropped && ascending &&
      std::none_of(pts.begin(), pts.end(), [](const Point& p) { return p.ev == 0; }))
    pts.push_back({0, 0, 0, 0, static_cast<int>(pts.size()) + 1});
  std::stable_sort(pts.begin(), pts.end(),
                   [](const Point& a, const Point& p) { return a.ev < p.ev; });
  for (std::size_t i = 1; i < pts.size(); ++i)
    if (!(pts[i].ev > pts[i - 1].ev))
      fail(h.loc(fmt::format("EV{}", std::max(pts[i].i, pts[i - 1].i))),
           fmt::format("equation of state {}: EV{} = EV{} = {}: the volumetric strains must "
                       "differ",
                       e.id, std::min(pts[i].i, pts[i - 1].i), std::max(pts[i].i, pts[i - 1].i),
                       pts[i].ev));
  for (const Point& p : pts) {
    if (compaction && p.k < 0)
      fail(h.loc(fmt::format("K{}", p.i)),
           fmt::format("equation of state {}: K{} = {} (an unloading bulk modulus) must not be "
                       "negative",
                       e.id, p.i, p.k));
    e.tab_ev.push_back(p.ev);
    e.tab_c.push_back(p.c);
    e.tab_t.push_back(p.t);
    e.tab_k.push_back(p.k);
  }
  d.model.eos.push_back(e);
}

} // namespace

void apply_eos_tabulated(const Block& b, DeckBuilder& d) {
  apply_tabulated(b, EosKind::Tabulated, d);
}

void apply_eos_tabulated_compaction(const Block& b, DeckBuilder& d) {
  apply_tabulated(b, EosKind::TabulatedCompaction, d);
}

} // namespace parcae::io
