// Apply functions: *CONTACT_[AUTOMATIC_]{SINGLE_SURFACE, SURFACE_TO_SURFACE,
// NODES_TO_SURFACE}[_ID|_TITLE], *CONTACT_AUTOMATIC_GENERAL, *CONTROL_CONTACT, *SET_SEGMENT; and
// the check of the contacts' references once the whole deck is read (check_contacts).
//
// Behaviour choices (documented in docs/keywords.md through the card tables):
// - Set types are checked when the card is read (InputError at SSTYP / MSTYP); the sets and
//   parts they name once the whole deck is read (at SSID / MSID).
// - A single-surface contact over all parts (SSID = 0 or SSTYP 5) is stored as SSID 0,
//   SSTYP 5; its MSID / MSTYP are stored as 0.
// - 0 in a scale factor (SFS, SFM, SFST, SFMT, FSF, VSF, SOFSCL), DEPTH or DT means the
//   default, as a blank field does.
// - FS = FD = 0 take *CONTROL_CONTACT SFRIC / DFRIC, DC = 0 takes EDC (applied in
//   check_contacts, since *CONTROL_CONTACT may come after the contacts).
// - Fields parcae does not model give a warning (model.notes) when set, naming the field.
#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "input/deck_apply.hpp"

namespace parcae::io {

namespace {

using Kind = ContactDef::Kind;

void note(DeckBuilder& d, const Block& b, const SourceLoc& loc, std::string message) {
  d.model.notes.push_back({std::string(b.spec->name), loc, false, std::move(message)});
}

double value_of(const Value& v) {
  return v.spec && v.spec->type == FieldType::Int ? static_cast<double>(v.i) : v.r;
}

/// A warning when the field is set to something other than `ok` (blank fields are never
/// warned about).
void warn_unless(DeckBuilder& d, const Block& b, std::string_view field, double ok,
                 std::string_view what) {
  const Value& v = b.head.get(field);
  if (v.blank || value_of(v) == ok) return;
  note(d, b, b.head.loc(field), fmt::format("{} = {}: {} (ignored)", field, value_of(v), what));
}

/// A real field where 0 (as blank) means `def`.
Real real_or(const Fields& h, std::string_view field, Real def) {
  const Real v = h.real(field);
  return v == 0 ? def : v;
}

std::string_view kind_name(Kind k) {
  switch (k) {
  case Kind::NodesToSurface:
    return "NODES_TO_SURFACE";
  case Kind::SurfaceToSurface:
    return "SURFACE_TO_SURFACE";
  case Kind::SingleSurface:
    return "SINGLE_SURFACE";
  }
  return "";
}

void check_set_type(const Fields& h, std::string_view field, int type, Kind kind, bool main) {
  std::vector<int> allowed{0, 2, 3};
  std::string supported = "0 segment set, 2 part set, 3 part";
  if (!main && kind == Kind::NodesToSurface) {
    allowed.push_back(4);
    supported += ", 4 node set";
  }
  if (!main && kind == Kind::SingleSurface) {
    allowed.push_back(5);
    supported += ", 5 all parts";
  }
  if (std::find(allowed.begin(), allowed.end(), type) != allowed.end()) return;
  std::string why;
  if (type == 4 && main)
    why = "a node set cannot be a main surface; ";
  else if (type == 4)
    why = "a node set is only allowed as SSTYP of a NODES_TO_SURFACE contact; ";
  else if (type == 5)
    why = "all parts is only allowed as SSTYP of a SINGLE_SURFACE contact; ";
  fail(h.loc(field), fmt::format("{} = {}: {}set type not supported for {} contacts (supported: "
                                 "{})",
                                 field, type, why, kind_name(kind), supported));
}

void apply_contact(const Block& b, DeckBuilder& d, Kind kind, bool automatic, int tied = 0) {
  const Fields& h = b.head;
  ContactDef c;
  c.kind = kind;
  c.automatic = automatic;
  c.keyword = b.loc.card.empty() ? std::string(b.spec->name) : b.loc.card;
  c.loc = b.loc;
  const GlobalId position = static_cast<GlobalId>(d.model.contacts.size()) + 1;
  c.id = position;
  if (h.find("CID") != nullptr) { // _ID / _TITLE
    const GlobalId cid = h.id("CID");
    if (cid < 0) fail(h.loc("CID"), fmt::format("contact id CID = {} must not be negative", cid));
    if (cid != 0) c.id = cid;
    std::string title = h.text("HEADING");
    while (!title.empty() && (title.back() == ' ' || title.back() == '\t' || title.back() == '\r'))
      title.pop_back();
    const auto first = title.find_first_not_of(" \t");
    c.title = first == std::string::npos ? std::string() : title.substr(first);
  }

  // Card 1
  c.ssid = h.id("SSID");
  c.msid = h.id("MSID");
  c.sstyp = h.integer("SSTYP");
  c.mstyp = h.integer("MSTYP");
  c.ssid_loc = h.loc("SSID");
  c.msid_loc = h.loc("MSID");
  check_set_type(h, "SSTYP", c.sstyp, kind, false);
  if (kind == Kind::SingleSurface) {
    if (c.msid != 0)
      note(
          d, b, h.loc("MSID"),
          fmt::format("MSID = {}: a single-surface contact has no main surface (ignored)", c.msid));
    c.msid = 0;
    c.mstyp = 0;
    if (c.ssid == 0 || c.sstyp == 5) {
      c.ssid = 0;
      c.sstyp = 5;
    }
  } else {
    check_set_type(h, "MSTYP", c.mstyp, kind, true);
  }
  if (c.ssid < 0) fail(h.loc("SSID"), fmt::format("SSID = {} must not be negative", c.ssid));
  if (c.msid < 0) fail(h.loc("MSID"), fmt::format("MSID = {} must not be negative", c.msid));
  warn_unless(d, b, "SBOXID", 0, "contact restricted to a box is not supported");
  warn_unless(d, b, "MBOXID", 0, "contact restricted to a box is not supported");

  // Card 2
  c.fs = h.real("FS");
  c.fd = h.real("FD");
  c.dc = h.real("DC");
  c.vc = h.real("VC");
  c.vdc = h.real("VDC");
  c.penchk = h.integer("PENCHK");
  c.bt = h.real("BT");
  c.dt = real_or(h, "DT", 1e20);
  for (std::string_view f : {"FS", "FD"})
    if (h.real(f) < 0)
      fail(h.loc(f), fmt::format("{} = {}: negative friction coefficients (friction from "
                                 "*PART_CONTACT or tables) are not supported",
                                 f, h.real(f)));
  for (std::string_view f : {"DC", "VC"})
    if (h.real(f) < 0) fail(h.loc(f), fmt::format("{} = {} must not be negative", f, h.real(f)));
  for (std::string_view f : {"BT", "DT"})
    if (h.real(f) < 0)
      fail(h.loc(f), fmt::format("{} = {}: negative birth / death times (dynamic relaxation, "
                                 "curves) are not supported",
                                 f, h.real(f)));
  if (c.dt <= c.bt)
    fail(h.loc("DT"),
         fmt::format("death time DT = {} must be after birth time BT = {}", c.dt, c.bt));
  if (c.vdc < 0 || c.vdc > 100)
    fail(h.loc("VDC"), fmt::format("VDC = {} must lie in [0, 100] (percent of critical)", c.vdc));
  warn_unless(d, b, "PENCHK", 0, "penetration check option is not supported");

  // Card 3
  c.sfs = real_or(h, "SFS", 1);
  c.sfm = real_or(h, "SFM", 1);
  c.sst = h.real("SST");
  c.mst = h.real("MST");
  c.sfst = real_or(h, "SFST", 1);
  c.sfmt = real_or(h, "SFMT", 1);
  c.fsf = real_or(h, "FSF", 1);
  c.vsf = real_or(h, "VSF", 1);
  for (std::string_view f : {"SFS", "SFM", "SFST", "SFMT"})
    if (h.real(f) < 0) fail(h.loc(f), fmt::format("{} = {} must not be negative", f, h.real(f)));
  if (tied != 0 && (c.sst < 0 || c.mst < 0)) { // a tied contact's tie distance
    c.tie_distance = std::max(-std::min(c.sst, 0.0), -std::min(c.mst, 0.0));
    c.sst = std::max(c.sst, 0.0);
    c.mst = std::max(c.mst, 0.0);
  }
  c.tied = tied;
  if (c.sst < 0 || c.mst < 0)
    fail(h.loc(c.sst < 0 ? "SST" : "MST"),
         fmt::format("{} = {}: negative contact thicknesses are not supported",
                     c.sst < 0 ? "SST" : "MST", std::min(c.sst, c.mst)));
  if (c.fsf != 1)
    note(d, b, h.loc("FSF"),
         fmt::format("FSF = {}: friction scale factor is not supported (ignored)", c.fsf));
  if (c.vsf != 1)
    note(d, b, h.loc("VSF"),
         fmt::format("VSF = {}: viscous damping scale factor is not supported (ignored)", c.vsf));

  // Card A
  c.soft = h.integer("SOFT");
  c.sofscl = real_or(h, "SOFSCL", 0.1);
  c.depth = h.integer("DEPTH") == 0 ? 2 : h.integer("DEPTH");
  c.bsort = h.integer("BSORT");
  if (c.soft != 0 && c.soft != 1)
    note(
        d, b, h.loc("SOFT"),
        fmt::format("SOFT = {}: only penalty formulations 0 and 1 are supported (0 used)", c.soft));
  if (c.soft != 0 && c.soft != 1) c.soft = 0;
  if (c.sofscl < 0)
    fail(h.loc("SOFSCL"), fmt::format("SOFSCL = {} must not be negative", c.sofscl));
  if (c.bsort < 0)
    fail(h.loc("BSORT"),
         fmt::format("BSORT = {}: negative (curve) sort intervals are not supported", c.bsort));
  warn_unless(d, b, "LCIDAB", 0, "airbag thickness curve is not supported");
  if (h.real("MAXPAR") != 0) // 0 means the default
    warn_unless(d, b, "MAXPAR", 1.025, "maximum parametric coordinate is not supported");
  if (!h.blank("SBOPT") && h.integer("SBOPT") != 0 && h.integer("SBOPT") != 2)
    note(d, b, h.loc("SBOPT"),
         fmt::format("SBOPT = {}: segment-based contact options are not supported (ignored)",
                     h.integer("SBOPT")));
  if (h.integer("FRCFRQ") > 1)
    note(d, b, h.loc("FRCFRQ"),
         fmt::format("FRCFRQ = {}: contact forces are updated every cycle (ignored)",
                     h.integer("FRCFRQ")));

  // Card B
  c.penmax = h.real("PENMAX");
  if (c.penmax < 0)
    fail(h.loc("PENMAX"), fmt::format("PENMAX = {} must not be negative", c.penmax));
  for (std::string_view f : {"THKOPT", "SHLTHK", "SNLOG", "ISYM", "I2D3D", "SLDTHK", "SLDSTF"})
    warn_unless(d, b, f, 0, "not supported");

  // Card C (MPP card 1's IGNORE is the same flag: used when card C's is 0)
  std::string_view ignore_field = "IGNORE";
  if (h.integer("IGNORE") == 0 && h.find("IGNORE_MPP") != nullptr && h.integer("IGNORE_MPP") != 0)
    ignore_field = "IGNORE_MPP";
  int ignore = h.integer(ignore_field);
  if (ignore < -2 || ignore > 2)
    fail(h.loc(ignore_field),
         fmt::format("IGNORE = {}: supported values are 0 (*CONTROL_CONTACT's IGNORE), 1 and 2 "
                     "(initial penetrations kept as offsets)",
                     ignore));
  if (ignore < 0) {
    note(d, b, h.loc(ignore_field),
         fmt::format("IGNORE = {}: the negative variant is not supported ({} used)", ignore,
                     -ignore));
    ignore = -ignore;
  }
  c.ignore = ignore;
  if (!h.blank("IGAP") && h.integer("IGAP") != 1 && h.integer("IGAP") != 0)
    note(d, b, h.loc("IGAP"),
         fmt::format("IGAP = {}: implicit gap option is not supported (ignored)",
                     h.integer("IGAP")));
  for (std::string_view f : {"DPRFAC", "EDGEK", "FLANGL"}) warn_unless(d, b, f, 0, "not supported");
  // DTSTIF: the step of the SOFT = 1 stiffness (LS-DYNA: 0 the initial step, > 0 the value,
  // -1 < DTSTIF < -0.01 a moving average (SOFT = 2 only), <= -1 a curve of it over time)
  const Real dtstif = h.real("DTSTIF");
  if (dtstif > 0)
    c.dtstif = dtstif;
  else if (dtstif < 0)
    note(d, b, h.loc("DTSTIF"),
         fmt::format("DTSTIF = {}: a moving average or a curve of the stiffness step is not "
                     "supported (the solution step is used)",
                     dtstif));
  warn_unless(d, b, "CID_RCF", 0, "rcforc in a local system is not supported");

  d.model.contacts.push_back(std::move(c));
}

std::string nonzero_list(const Fields& h, std::initializer_list<std::string_view> fields) {
  std::string out;
  for (std::string_view f : fields) {
    const Value& v = h.get(f);
    if (v.blank || !v.present) continue;
    const double def = v.spec->def.empty() ? 0.0 : std::stod(std::string(v.spec->def));
    if (value_of(v) == def) continue;
    out += fmt::format("{}{} = {}", out.empty() ? "" : ", ", f, value_of(v));
  }
  return out;
}

} // namespace

void apply_contact_automatic_single(const Block& b, DeckBuilder& d) {
  apply_contact(b, d, Kind::SingleSurface, true);
}
void apply_contact_automatic_general(const Block& b, DeckBuilder& d) {
  const Fields& h = b.head;
  if (!h.blank("SSTYP") && h.integer("SSTYP") == 0 && h.id("SSID") != 0)
    fail(h.loc("SSTYP"), "SSTYP = 0: a segment set has no beams; *CONTACT_AUTOMATIC_GENERAL "
                         "takes a part set (2), a part (3) or all parts (5, or SSID = 0)");
  apply_contact(b, d, Kind::SingleSurface, true);
  ContactDef& c = d.model.contacts.back();
  c.general = true;
  if (b.has("MPP")) {
    c.cparm8 = h.integer("CPARM8");
    if (c.cparm8 < 0 || c.cparm8 > 2)
      fail(h.loc("CPARM8"), fmt::format("CPARM8 = {}: supported values are 0, 1 and 2 (1, 2: no "
                                        "beam-to-beam contact within a part)",
                                        c.cparm8));
  }
}
void apply_contact_automatic_surface_to_surface(const Block& b, DeckBuilder& d) {
  apply_contact(b, d, Kind::SurfaceToSurface, true);
}
void apply_contact_automatic_surface_to_surface_tiebreak(const Block& b, DeckBuilder& d) {
  apply_contact(b, d, Kind::SurfaceToSurface, true);
  const Fields& h = b.head;
  ContactDef& c = d.model.contacts.back();
  c.tiebreak_option = h.integer("OPTION");
  c.nfls = h.real("NFLS");
  c.sfls = h.real("SFLS");
  c.tb_param = h.real("PARAM");
  if (c.tiebreak_option < 1 || c.tiebreak_option > 3)
    fail(h.loc("OPTION"),
         fmt::format("OPTION = {}: tiebreak response not supported (1: nodes in contact stick "
                     "for good; 2: nodes initially in contact tied until NFLS/SFLS failure; 3: "
                     "as 1 with that failure)",
                     c.tiebreak_option));
  if (c.tiebreak_option >= 2)
    for (std::string_view f : {"NFLS", "SFLS"})
      if (!(h.real(f) > 0))
        fail(h.loc(f), fmt::format("{} = {}: OPTION = {} needs a positive failure stress", f,
                                   h.real(f), c.tiebreak_option));
  for (std::string_view f : {"PARAM", "ERATEN", "ERATES", "CN"})
    warn_unless(d, b, f, 0, "not used by the tiebreak options supported");
  if (h.real("CT2CN") != 0)
    warn_unless(d, b, "CT2CN", 1, "not used by the tiebreak options supported");
}
void apply_contact_automatic_nodes_to_surface(const Block& b, DeckBuilder& d) {
  apply_contact(b, d, Kind::NodesToSurface, true);
}
void apply_contact_single(const Block& b, DeckBuilder& d) {
  apply_contact(b, d, Kind::SingleSurface, false);
}
void apply_contact_surface_to_surface(const Block& b, DeckBuilder& d) {
  apply_contact(b, d, Kind::SurfaceToSurface, false);
}
void apply_contact_tied(const Block& b, DeckBuilder& d) {
  // _OFFSET: penalty ties (as LS-DYNA's); the others: constraints
  const std::string_view name = b.spec->name;
  const bool penalty = name.find("_OFFSET") != std::string_view::npos &&
                       name.find("_CONSTRAINED_OFFSET") == std::string_view::npos;
  apply_contact(b, d, Kind::NodesToSurface, false, penalty ? 1 : 2);
}
void apply_contact_spotweld(const Block& b, DeckBuilder& d) {
  apply_contact(b, d, Kind::NodesToSurface, false, 3);
  d.model.contacts.back().tie_rotations = true;
}
namespace {
/// The automatic contact of the keyword's kind (single surface, nodes to surface / one way,
/// surface to surface), with a note saying what the keyword's option changes.
void apply_as_automatic_contact(const Block& b, DeckBuilder& d, std::string note) {
  const std::string_view name = b.spec->name;
  if (name.find("SINGLE_SURFACE") != std::string_view::npos)
    apply_contact_automatic_single(b, d);
  else if (name.find("NODES_TO_SURFACE") != std::string_view::npos ||
           name.find("ONE_WAY") != std::string_view::npos)
    apply_contact_automatic_nodes_to_surface(b, d);
  else
    apply_contact_automatic_surface_to_surface(b, d);
  d.model.notes.push_back({b.loc.card, b.loc, false, std::move(note)});
}
} // namespace

void apply_contact_smooth(const Block& b, DeckBuilder& d) {
  // the automatic contact of the same kind, on the facetted surface
  apply_as_automatic_contact(b, d,
                             "_SMOOTH: the contact runs on the facetted surface (the curved, "
                             "smoothed surface LS-DYNA fits to the segments is not made)");
}
void apply_contact_mortar(const Block& b, DeckBuilder& d) {
  apply_as_automatic_contact(
      b, d,
      "_MORTAR: run as parcae's automatic penalty contact of the same kind (nodes against "
      "segments, both ways), not LS-DYNA's segment-to-segment mortar: the same surfaces, "
      "thickness offsets and friction; the penalty stiffness and the contact forces' "
      "distribution over the segments differ");
  // LS-DYNA's single-surface mortar contact includes beams (cylinders around their axes):
  // their beam-to-beam part is *CONTACT_AUTOMATIC_GENERAL's (capsules of the same diameter
  // rules), which parcae computes.
  // (a segment set, SSTYP 0, holds no beams: it stays the plain surface contact)
  ContactDef& c = d.model.contacts.back();
  if (b.spec->name.find("SINGLE_SURFACE") != std::string_view::npos && c.sstyp != 0)
    c.general = true;
}
void apply_contact_tied_shell_edge(const Block& b, DeckBuilder& d) {
  // _OFFSET: LS-DYNA's penalty tie of the translations (no moments: _BEAM_OFFSET's beam-like
  // springs would carry them); the plain and _CONSTRAINED_OFFSET forms: constraints with rotations
  // _BEAM_OFFSET: LS-DYNA's penalty beams carry the moments too; their stiff limit, the
  // constraint tie of translations and rotations at the initial offsets, is run (with a note).
  const std::string_view name = b.spec->name;
  const bool beam = name.ends_with("_BEAM_OFFSET");
  const bool penalty = !beam && name.find("_OFFSET") != std::string_view::npos &&
                       name.find("_CONSTRAINED_OFFSET") == std::string_view::npos;
  apply_contact(b, d, Kind::NodesToSurface, false, penalty ? 1 : 2);
  d.model.contacts.back().tie_rotations = !penalty;
  if (beam)
    d.model.notes.push_back(
        {b.loc.card, b.loc, false,
         "_BEAM_OFFSET: run as the constraint tie of translations and rotations at the initial "
         "offsets (_CONSTRAINED_OFFSET), the stiff limit of LS-DYNA's penalty beams; a tied node "
         "may then be in this tie only and not on a rigid body"});
}
void apply_contact_force_transducer(const Block& b, DeckBuilder& d) {
  d.model.notes.push_back({b.loc.card, b.loc, false,
                           "force transducer read: it adds no force; its resultants are not "
                           "written (rcforc has the other contacts)"});
}

void apply_contact_nodes_to_surface(const Block& b, DeckBuilder& d) {
  apply_contact(b, d, Kind::NodesToSurface, false);
}
void apply_contact_forming_one_way(const Block& b, DeckBuilder& d) {
  apply_contact(b, d, Kind::NodesToSurface, false);
  d.model.contacts.back().forming = true;
}

namespace {

void apply_contact_eroding(const Block& b, DeckBuilder& d, Kind kind) {
  apply_contact(b, d, kind, true);
  const Fields& h = b.head;
  ContactDef& c = d.model.contacts.back();
  c.eroding = true;
  c.isym = h.integer("ISYM_ER");
  c.erosop = h.integer("EROSOP");
  c.iadj = h.integer("IADJ");
  if (c.erosop != 0 && c.erosop != 1)
    fail(h.loc("EROSOP"),
         fmt::format("contact {}: EROSOP = {}: supported values are 0 and 1", c.id, c.erosop));
  warn_unless(d, b, "ISYM_ER", 0, "symmetry planes are not supported");
  warn_unless(d, b, "IADJ", 0, "adjacent-material treatment of solids is not supported");
}

} // namespace

void apply_contact_eroding_single(const Block& b, DeckBuilder& d) {
  apply_contact_eroding(b, d, Kind::SingleSurface);
}
void apply_contact_eroding_surface_to_surface(const Block& b, DeckBuilder& d) {
  apply_contact_eroding(b, d, Kind::SurfaceToSurface);
}
void apply_contact_eroding_nodes_to_surface(const Block& b, DeckBuilder& d) {
  apply_contact_eroding(b, d, Kind::NodesToSurface);
}

void apply_control_contact(const Block& b, DeckBuilder& d) {
  const Fields& h = b.head;
  Controls& c = d.model.control;
  c.contact_slsfac = real_or(h, "SLSFAC", 0.1);
  c.contact_shlthk = h.integer("SHLTHK");
  c.contact_ssthk = h.integer("SSTHK");
  if (c.contact_ssthk != 0 && c.contact_ssthk != 1)
    fail(h.loc("SSTHK"), fmt::format("SSTHK = {} must be 0 or 1", c.contact_ssthk));
  c.contact_nsbcs = h.integer("NSBCS");
  c.contact_xpene = real_or(h, "XPENE", 4);
  c.contact_sfric = h.real("SFRIC");
  c.contact_dfric = h.real("DFRIC");
  c.contact_edc = h.real("EDC");
  c.contact_ignore = h.integer("IGNORE");
  c.contact_control_given = true;
  if (c.contact_slsfac < 0)
    fail(h.loc("SLSFAC"), fmt::format("SLSFAC = {}: negative (curve) penalty scales are not "
                                      "supported",
                                      c.contact_slsfac));
  if (c.contact_xpene < 0)
    fail(h.loc("XPENE"), fmt::format("XPENE = {} must not be negative", c.contact_xpene));
  if (c.contact_nsbcs < 0)
    fail(h.loc("NSBCS"), fmt::format("NSBCS = {} must not be negative", c.contact_nsbcs));
  for (std::string_view f : {"SFRIC", "DFRIC", "EDC"})
    if (h.real(f) < 0) fail(h.loc(f), fmt::format("{} = {} must not be negative", f, h.real(f)));
  c.contact_orien = h.integer("ORIEN") == 0 ? 1 : h.integer("ORIEN");
  if (c.contact_orien < 1 || c.contact_orien > 4)
    fail(h.loc("ORIEN"), fmt::format("ORIEN = {} must be 0 to 4", h.integer("ORIEN")));
  c.contact_penopt = h.integer("PENOPT") == 0 ? 1 : h.integer("PENOPT");
  if (c.contact_penopt < 1 || c.contact_penopt > 5)
    fail(h.loc("PENOPT"), fmt::format("PENOPT = {} must be 0 to 5", h.integer("PENOPT")));
  if (c.contact_penopt > 2) { // the node-based (area or mass weighted) stiffness options
    note(d, b, h.loc("PENOPT"),
         fmt::format("PENOPT = {} (node-based penalty stiffness) is not supported: the "
                     "segment's stiffness is used (PENOPT 2)",
                     c.contact_penopt));
    c.contact_penopt = 2;
  }
  const std::string ignored =
      nonzero_list(h, {"RWPNAL", "ISLCHK", "THKCHG", "ENMASS", "USRSTR", "USRFRC", "INTERM", "ECDT",
                       "TIEDPRJ", "VFC", "TH", "TH_SF", "PEN_SF", "FRCENG", "SKIPRWG", "OUTSEG",
                       "SPOTSTP", "SPOTDEL", "SPOTHIN"});
  if (!ignored.empty()) note(d, b, b.loc, fmt::format("not supported (ignored): {}", ignored));
}

void apply_set_segment(const Block& b, DeckBuilder& d) {
  SegmentSet s;
  s.id = b.head.id("SID");
  s.loc = b.head.loc("SID");
  if (s.id <= 0) fail(s.loc, fmt::format("segment set id SID = {} must be positive", s.id));
  // _COLLECT: the cards of one id, all _COLLECT, make one set
  auto& collected = d.extension<std::set<GlobalId>>("collected segment sets");
  const bool more = b.has("COLLECT") && collected.count(s.id) != 0;
  if (!more) d.claim_id("segment set", s.id, s.loc);
  if (b.has("COLLECT")) collected.insert(s.id);
  for (const Fields& row : b.rows) {
    std::array<GlobalId, 4> n{row.id("N1"), row.id("N2"), row.id("N3"), row.id("N4")};
    if (n[3] == 0) n[3] = n[2];
    for (std::string_view f : {"N1", "N2", "N3", "N4"})
      if (row.id(f) < 0)
        fail(row.loc(f),
             fmt::format("segment set {}: node {} = {} is not valid", s.id, f, row.id(f)));
    for (int k = 0; k < 3; ++k)
      for (int l = k + 1; l < 3; ++l)
        if (n[k] == n[l])
          fail(row.loc("N1"), fmt::format("segment set {}: segment {} {} {} {} repeats node {}",
                                          s.id, n[0], n[1], n[2], n[3], n[k]));
    if (n[3] == n[0] || n[3] == n[1])
      fail(row.loc("N4"), fmt::format("segment set {}: segment {} {} {} {} repeats node {}", s.id,
                                      n[0], n[1], n[2], n[3], n[3]));
    s.segments.push_back(n);
    s.lines.push_back(row.line());
  }
  if (more) { // (messages name the first card's file; the lines are those of each segment)
    SegmentSet& first = d.model.segment_sets.at(s.id);
    if (first.loc.file == s.loc.file) {
      first.segments.insert(first.segments.end(), s.segments.begin(), s.segments.end());
      first.lines.insert(first.lines.end(), s.lines.begin(), s.lines.end());
      return;
    }
    fail(s.loc, fmt::format("*SET_SEGMENT_COLLECT {}: its cards are in two files ({} and {}); "
                            "keep a collected segment set in one file",
                            s.id, first.loc.file, s.loc.file));
  }
  d.model.segment_sets.emplace(s.id, std::move(s));
}

// ---------------------------------------------------------------------------------------------
// References, once the whole deck is read

namespace {

class ContactChecker {
public:
  explicit ContactChecker(Model& m) : m_(m) {
    for (const Part& p : m_.parts) parts_.emplace(p.id, &p);
    for (const Section& s : m_.sections) sections_.emplace(s.id, &s);
    for (GlobalId pid : m_.solids.part) ++elements_[pid];
    for (GlobalId pid : m_.shells.part) ++elements_[pid];
    for (GlobalId pid : m_.beams.part) ++beams_[pid];
  }

  void run() {
    check_segment_sets();
    // Ids must be unique for the outputs (rcforc, sleout). Decks that repeat a CID (LS-PrePost
    // copies of one contact card: the paperboard folding box has three contacts with CID 4 and
    // nine with CID 5) run in LS-DYNA; a repeated id is replaced by the next id that no
    // contact uses, with a warning.
    std::map<GlobalId, const ContactDef*> ids;
    GlobalId next_free = 1;
    for (const ContactDef& c : m_.contacts) next_free = std::max(next_free, c.id + 1);
    for (ContactDef& c : m_.contacts) {
      if (const auto it = ids.find(c.id); it != ids.end()) {
        m_.notes.push_back(
            {c.keyword, c.loc, false,
             fmt::format("duplicate contact id {} (also used by the contact at {}; contacts "
                         "without a CID are numbered by their position): this contact is "
                         "numbered {} in the outputs",
                         c.id, it->second->loc.str(), next_free)});
        c.id = next_free++;
      }
      ids.emplace(c.id, &c);
      check_surface(c, false);
      if (c.kind != ContactDef::Kind::SingleSurface) check_surface(c, true);
      const Controls& ctl = m_.control;
      if (c.fs == 0 && c.fd == 0) {
        c.fs = ctl.contact_sfric;
        c.fd = ctl.contact_dfric;
      }
      if (c.dc == 0) c.dc = ctl.contact_edc;
    }
  }

private:
  Model& m_;
  std::unordered_map<GlobalId, const Part*> parts_;
  std::unordered_map<GlobalId, const Section*> sections_;
  std::unordered_map<GlobalId, std::size_t> elements_;
  std::unordered_map<GlobalId, std::size_t> beams_; ///< beams per part (AUTOMATIC_GENERAL)

  /// Whether part pid has elements the contact uses (AUTOMATIC_GENERAL: beams too).
  bool has_elements(const ContactDef& c, GlobalId pid) const {
    // beams: the edges of AUTOMATIC_GENERAL, the welds of SPOTWELD (their nodes are tied)
    return elements_.count(pid) != 0 || ((c.general || c.tied == 3) && beams_.count(pid) != 0);
  }

  void check_segment_sets() const {
    for (const auto& [sid, s] : m_.segment_sets)
      for (std::size_t k = 0; k < s.segments.size(); ++k)
        for (GlobalId nid : s.segments[k])
          if (m_.node_index(nid) == kInvalidLocal)
            fail(SourceLoc{s.loc.file, k < s.lines.size() ? s.lines[k] : s.loc.line, s.loc.card},
                 fmt::format("segment set {} references node {}, which is not defined", sid, nid));
  }

  static std::string what(const ContactDef& c) {
    return fmt::format("contact {} ({})", c.id, c.keyword);
  }

  /// The part, checking that it exists and has elements.
  const Part& part(const ContactDef& c, const SourceLoc& loc, std::string_view field,
                   GlobalId pid) const {
    const auto it = parts_.find(pid);
    if (it == parts_.end())
      fail(loc,
           fmt::format("{} references part {} ({}), which is not defined", what(c), pid, field));
    return *it->second;
  }

  void check_thickness(const ContactDef& c, const SourceLoc& loc, const Part& p,
                       Real override_thickness) const {
    if (override_thickness > 0 || p.contact_optt > 0) return; // (SST/MST, or the part's OPTT)
    const auto it = sections_.find(p.secid);
    if (it == sections_.end() || it->second->kind != SectionKind::Shell) return;
    const auto& t = it->second->t;
    const Real tmax = *std::max_element(t.begin(), t.end());
    const Real tmin = *std::min_element(t.begin(), t.end());
    if (tmax <= 0 || tmin < 0)
      fail(loc, fmt::format("zero-thickness shells in contact {}: part {} (section {}, T1 = {}) "
                            "has no positive section thickness; give the section a thickness "
                            "or SST/MST > 0",
                            c.id, p.id, it->second->id, t[0]));
  }

  void check_surface(const ContactDef& c, bool main) {
    const GlobalId id = main ? c.msid : c.ssid;
    const int type = main ? c.mstyp : c.sstyp;
    const SourceLoc& loc = main ? c.msid_loc : c.ssid_loc;
    const std::string_view field = main ? "MSID" : "SSID";
    const Real thick = main ? c.mst : c.sst;
    switch (type) {
    case 0: {
      const auto it = m_.segment_sets.find(id);
      if (it == m_.segment_sets.end())
        fail(loc, fmt::format("{} references segment set {} ({}), which is not defined", what(c),
                              id, field));
      if (it->second.segments.empty())
        fail(loc, fmt::format("{}: segment set {} ({}) is empty", what(c), id, field));
      break;
    }
    case 2: {
      const auto it = m_.part_sets.find(id);
      if (it == m_.part_sets.end())
        fail(loc, fmt::format("{} references part set {} ({}), which is not defined", what(c), id,
                              field));
      if (it->second.members.empty())
        fail(loc, fmt::format("{}: part set {} ({}) is empty", what(c), id, field));
      bool any = false;
      for (GlobalId pid : it->second.members) {
        const Part& p = part(c, loc, field, pid);
        if (!has_elements(c, pid)) continue;
        any = true;
        check_thickness(c, loc, p, thick);
      }
      if (!any)
        fail(loc, fmt::format("{}: part set {} ({}) has no elements (empty surface)", what(c), id,
                              field));
      break;
    }
    case 3: {
      const Part& p = part(c, loc, field, id);
      if (!has_elements(c, id))
        fail(loc,
             fmt::format("{}: part {} ({}) has no elements (empty surface)", what(c), id, field));
      check_thickness(c, loc, p, thick);
      break;
    }
    case 4: {
      const auto it = m_.node_sets.find(id);
      if (it == m_.node_sets.end())
        fail(loc, fmt::format("{} references node set {} ({}), which is not defined", what(c), id,
                              field));
      if (it->second.members.empty())
        fail(loc, fmt::format("{}: node set {} ({}) is empty", what(c), id, field));
      break;
    }
    case 5: {
      if (elements_.empty() && !(c.general && !beams_.empty()))
        fail(loc, fmt::format("{}: the model has no elements", what(c)));
      for (const Part& p : m_.parts)
        if (elements_.count(p.id)) check_thickness(c, loc, p, thick);
      break;
    }
    default:
      break;
    }
  }
};

} // namespace

void check_contacts(Model& m) {
  ContactChecker(m).run();
}

} // namespace parcae::io
