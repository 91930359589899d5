// Apply functions: file structure, parameters, controls, output requests, curves.
#include <algorithm>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "input/card_number.hpp"
#include "input/deck_apply.hpp"

namespace parcae::io {

// ---------------------------------------------------------------------------------------------
// File structure

void apply_keyword(const Block& b, DeckBuilder& d) {
  std::string_view rest = b.trailing;
  while (!(rest = trim(rest)).empty()) {
    const std::size_t end = rest.find_first_of(" \t");
    const std::string word = to_upper(rest.substr(0, end));
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end);
    if (word == "LONG=Y")
      d.format = LineFormat::Long;
    else if (word == "LONG=N" || word == "LONG=S")
      d.format = LineFormat::Standard;
    else if (word == "I10=Y")
      d.format = LineFormat::I10;
    // other words (memory sizes, NCPU=...) are for LS-DYNA itself
  }
}

void apply_title(const Block& b, DeckBuilder& d) {
  d.model.control.title = b.head.text("TITLE");
}

void apply_end(const Block&, DeckBuilder& d) {
  d.end_of_file = true;
}

namespace {

/// The names of a file-name card's lines: a line ending in " +" (a space and a plus) goes on
/// in the next one (LS-DYNA's way of writing a name longer than a line), the " +" dropped; each
/// name with the place of its first line.
std::vector<std::pair<std::string, SourceLoc>> continued_names(const Block& b,
                                                               std::string_view field) {
  std::vector<std::pair<std::string, SourceLoc>> out;
  bool open = false;
  for (const Fields& row : b.rows) {
    std::string part = row.text(field);
    while (!part.empty() && (part.back() == ' ' || part.back() == '\t' || part.back() == '\r'))
      part.pop_back();
    const bool goes_on = part.size() >= 2 && part.compare(part.size() - 2, 2, " +") == 0;
    if (goes_on) part.resize(part.size() - 2);
    if (open)
      out.back().first += part;
    else
      out.emplace_back(part, row.loc(field));
    open = goes_on;
  }
  return out;
}

} // namespace

void apply_include(const Block& b, DeckBuilder& d) {
  // LS-DYNA reads an *INCLUDE whose file name lines are all commented out as nothing.
  if (b.rows.empty() && !d.parameter_pass)
    d.model.notes.push_back({b.loc.card, b.loc, false, "no file name given: nothing included"});
  for (const auto& [name, loc] : continued_names(b, "FILENAME")) d.include(name, loc);
}

void apply_include_path(const Block& b, DeckBuilder& d) {
  const bool relative = b.spec->name == "*INCLUDE_PATH_RELATIVE";
  for (const auto& [name, loc] : continued_names(b, "PATH")) {
    std::string dir = name;
    while (!dir.empty() && (dir.back() == ' ' || dir.back() == '\t')) dir.pop_back();
    while (!dir.empty() && (dir.front() == ' ' || dir.front() == '\t')) dir.erase(0, 1);
    if (dir.empty()) continue;
    std::filesystem::path p(dir);
    if (relative || p.is_relative()) p = std::filesystem::path(d.main_dir) / p;
    const std::string norm = p.lexically_normal().string();
    if (std::find(d.include_paths.begin(), d.include_paths.end(), norm) == d.include_paths.end())
      d.include_paths.push_back(norm);
  }
}

void apply_parameter_duplication(const Block& b, DeckBuilder& d) {
  if (!d.parameter_pass) return;
  const int flag = b.head.blank("DFLAG") ? 1 : b.head.integer("DFLAG");
  if (flag < 1 || flag > 5)
    fail(b.head.loc("DFLAG"), fmt::format("DFLAG = {} must be 1 (warn, keep the first), 2 (warn, "
                                          "use the new), 3 (error), 4 (use the new) or 5 (keep "
                                          "the first)",
                                          flag));
  d.duplication = flag;
}

// ---------------------------------------------------------------------------------------------
// Parameters

namespace {

/// "R thick" -> ('R', "thick").
std::pair<char, std::string> parameter_name(const Fields& row, std::string_view field) {
  const std::string& text = row.text(field);
  const char type = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  if (type != 'R' && type != 'I' && type != 'C')
    fail(row.loc(field), fmt::format("field {}: \"{}\" must start with the parameter type R, I "
                                     "or C (e.g. \"R thick\")",
                                     field, text));
  const std::string name(trim(std::string_view(text).substr(1)));
  if (name.empty()) fail(row.loc(field), fmt::format("field {}: parameter name missing", field));
  return {type, name};
}

double parameter_number(const Fields& row, std::string_view field, char type,
                        const std::string& name, const Parameters& params) {
  const std::string& text = row.text(field);
  if (text.empty()) return 0;
  double v = 0;
  try {
    v = evaluate_expression(text, params);
  } catch (const ExpressionError& e) {
    fail(row.loc(field),
         fmt::format("parameter {}: cannot read value \"{}\": {}", name, text, e.what()));
  }
  if (type == 'I' && std::trunc(v) != v)
    fail(row.loc(field), fmt::format("parameter {}: integer parameter has value {}", name, v));
  return v;
}

/// Whether `text` evaluates with the parameters known so far; counts the ones that do not.
bool evaluates(const std::string& text, const Parameters& params, int& deferred) {
  try {
    evaluate_expression(text, params);
    return true;
  } catch (const ExpressionError&) {
    ++deferred;
    return false;
  }
}

} // namespace

/// Values are read in the parameter pass, before everything else (LS-DYNA reads all parameters
/// first, so a file may use one that the including or a later file defines); a definition that
/// names a parameter not known yet is retried in a further round.
void apply_parameter(const Block& b, DeckBuilder& d) {
  static constexpr std::string_view names[] = {"PRMR1", "PRMR2", "PRMR3", "PRMR4"};
  static constexpr std::string_view values[] = {"VAL1", "VAL2", "VAL3", "VAL4"};
  if (!d.parameter_pass) return;
  const bool local = b.has("LOCAL");
  for (const Fields& row : b.rows) {
    for (int k = 0; k < 4; ++k) {
      if (row.blank(names[k])) {
        if (!row.blank(values[k]))
          fail(row.loc(values[k]),
               fmt::format("field {}: value without a parameter name", values[k]));
        continue;
      }
      const auto [type, name] = parameter_name(row, names[k]);
      Parameter p{type, 0, row.text(values[k]), row.loc(names[k])};
      if (type != 'C') {
        if (d.defer_unknown_parameters && !row.text(values[k]).empty() &&
            !evaluates(row.text(values[k]), *d.scope_params, d.deferred_parameters))
          continue;
        p.number = parameter_number(row, values[k], type, name, *d.scope_params);
      }
      d.define_parameter(name, std::move(p), local);
    }
  }
}

void apply_parameter_expression(const Block& b, DeckBuilder& d) {
  if (!d.parameter_pass) return;
  const bool local = b.has("LOCAL");
  for (const Fields& row : b.rows) {
    const auto [type, name] = parameter_name(row, "PRMR1");
    if (type == 'C')
      fail(row.loc("PRMR1"),
           fmt::format("parameter {}: character expressions are not supported", name));
    if (d.defer_unknown_parameters &&
        !evaluates(row.text("EXPRESSION1"), *d.scope_params, d.deferred_parameters))
      continue;
    double v = 0;
    try {
      v = evaluate_expression(row.text("EXPRESSION1"), *d.scope_params);
    } catch (const ExpressionError& e) {
      fail(row.loc("EXPRESSION1"), fmt::format("parameter {}: {}", name, e.what()));
    }
    if (type == 'I') v = std::trunc(v);
    d.define_parameter(name, Parameter{type, v, {}, row.loc("PRMR1")}, local);
  }
}

// ---------------------------------------------------------------------------------------------
// Controls

void apply_control_termination(const Block& b, DeckBuilder& d) {
  Controls& c = d.model.control;
  c.endtim = b.head.real("ENDTIM");
  c.endcyc = b.head.integer("ENDCYC");
  c.dtmin = b.head.real("DTMIN");
  c.endmas = b.head.real("ENDMAS");
  d.have_termination = true;
  d.termination_loc = b.head.loc("ENDTIM");
}

void apply_control_timestep(const Block& b, DeckBuilder& d) {
  Controls& c = d.model.control;
  c.dtinit = b.head.real("DTINIT");
  c.tssfac = b.head.real("TSSFAC") == 0 ? 0.9 : b.head.real("TSSFAC");
  c.dt2ms = b.head.real("DT2MS");
  c.isdo = b.head.integer("ISDO");
  if (c.isdo < 0 || c.isdo > 2)
    fail(b.head.loc("ISDO"),
         fmt::format("ISDO = {}: must be 0 (shell length area / longest side), 1 (area / longest "
                     "diagonal) or 2 (max(shortest side, area / longest side), bar wave speed)",
                     c.isdo));
  c.ms1st = b.head.integer("MS1ST");
  if (c.ms1st != 0 && c.ms1st != 1)
    fail(b.head.loc("MS1ST"),
         fmt::format("MS1ST = {}: must be 0 (mass scaling during the run) or 1 (at set-up only)",
                     c.ms1st));
  c.lctm = b.head.id("LCTM");
  c.erode = b.head.integer("ERODE");
  if (c.erode != 0 && c.erode != 1)
    fail(b.head.loc("ERODE"),
         fmt::format("ERODE = {}: must be 0 (stop when the step falls below DTMIN) or 1 (erode "
                     "those solids)",
                     c.erode));
  d.timestep_loc = b.head.loc("LCTM");
}

void apply_control_hourglass(const Block& b, DeckBuilder& d) {
  d.model.control.ihq = b.head.integer("IHQ");
  d.model.control.hourglass_loc = b.head.loc("IHQ");
  d.model.control.qh = b.head.real("QH");
}

void apply_control_bulk_viscosity(const Block& b, DeckBuilder& d) {
  // LS-DYNA's Q1 is the quadratic coefficient and Q2 the linear one; Controls::q1 is linear.
  d.model.control.q2 = b.head.real("Q1");
  d.model.control.q1 = b.head.real("Q2");
  d.model.control.bulk_type = b.head.integer("TYPE");
}

void apply_control_energy(const Block& b, DeckBuilder& d) {
  Controls& c = d.model.control;
  c.hgen = b.head.integer("HGEN");
  c.rwen = b.head.integer("RWEN");
  c.slnten = b.head.integer("SLNTEN");
  c.rylen = b.head.integer("RYLEN");
}

void apply_control_dynamic_relaxation(const Block& b, DeckBuilder& d) {
  Controls& c = d.model.control;
  const Fields& h = b.head;
  c.dr_nrcyck = h.integer("NRCYCK") > 0 ? h.integer("NRCYCK") : 250;
  c.dr_drtol = h.real("DRTOL") > 0 ? h.real("DRTOL") : 1e-3;
  c.dr_drfctr = h.real("DRFCTR") > 0 ? h.real("DRFCTR") : 0.995;
  c.dr_drterm = h.real("DRTERM");
  c.dr_tssfdr = h.real("TSSFDR");
  c.dr_idrflg = h.integer("IDRFLG");
  if (c.dr_drfctr >= 1)
    fail(h.loc("DRFCTR"), fmt::format("DRFCTR = {} must be below 1 (the velocities are scaled by "
                                      "it every cycle)",
                                      c.dr_drfctr));
  if (c.dr_idrflg != 0 && c.dr_idrflg != 1)
    fail(h.loc("IDRFLG"), fmt::format("IDRFLG = {} is not supported (0 and 1 are)", c.dr_idrflg));
  if (h.integer("IRELAL") != 0)
    d.model.notes.push_back({std::string(b.spec->name), h.loc("IRELAL"), false,
                             "IRELAL = 1 (Papadrakakis' automatic relaxation) is not supported: "
                             "the relaxation uses DRFCTR"});
}

void apply_control_shell(const Block& b, DeckBuilder& d) {
  Controls& c = d.model.control;
  c.shell_wrpang = b.head.real("WRPANG");
  c.shell_istupd = b.head.integer("ISTUPD");
  c.shell_theory = b.head.integer("THEORY");
  c.shell_intgrd = b.head.integer("INTGRD");
}

void apply_control_mpp_decomposition_method(const Block& b, DeckBuilder& d) {
  const std::string given(trim(b.head.text("NAME")));
  const std::string name = to_upper(given);
  if (name.empty() || name == "RCB")
    d.model.control.mpp_decomposition_method = "RCB";
  else if (name == "METIS")
    d.model.control.mpp_decomposition_method = "METIS";
  else
    fail(b.head.loc("NAME"), fmt::format("decomposition method NAME \"{}\" is not supported "
                                         "(RCB or METIS)",
                                         given));
}

void apply_control_mpp_decomposition_transformation(const Block& b, DeckBuilder& d) {
  static constexpr std::string_view kValues[] = {"V1", "V2", "V3", "V4", "V5", "V6"};
  for (const Fields& row : b.rows) {
    Controls::DecompositionTransform t;
    t.type = to_upper(trim(row.text("TYPE")));
    t.loc = row.loc("TYPE");
    for (std::size_t k = 0; k < std::size(kValues); ++k) t.v[k] = row.real(kValues[k]);
    const bool scale = t.type == "SX" || t.type == "SY" || t.type == "SZ";
    const bool rotate = t.type == "RX" || t.type == "RY" || t.type == "RZ";
    if (!scale && !rotate)
      fail(t.loc, fmt::format("transformation TYPE \"{}\" is not supported (SX, SY, SZ, RX, RY, "
                              "RZ are)",
                              row.text("TYPE")));
    if (scale && t.v[0] == 0)
      fail(row.loc("V1"), fmt::format("transformation {}: scale factor V1 must not be 0", t.type));
    d.model.control.mpp_decomposition_transforms.push_back(std::move(t));
  }
}

void apply_nothing(const Block&, DeckBuilder&) {}

void apply_database_glstat(const Block& b, DeckBuilder& d) {
  d.model.control.glstat_dt = b.head.real("DT");
}

void apply_database_d3plot(const Block& b, DeckBuilder& d) {
  Controls& c = d.model.control;
  c.d3plot_dt = b.head.real("DT");
  c.d3plot_lcdt = b.head.id("LCDT");
  c.d3plot_beam = b.head.integer("BEAM");
  c.d3plot_npltc = b.head.integer("NPLTC");
  c.d3plot_psetid = b.head.id("PSETID");
  c.d3plot_ioopt = b.head.integer("IOOPT");
  d.d3plot_npltc = c.d3plot_npltc;
}

namespace {

/// *DATABASE_MATSUM / _NODOUT / _RWFORC card 1. parcae writes ASCII only: a binout request
/// (BINARY 2 or 3) and an output-time curve (LCUR) give one warning each.
void apply_ascii_output(const Block& b, DeckBuilder& d, Controls::AsciiOutput& out) {
  const std::string keyword(b.spec->name);
  out.dt = b.head.real("DT");
  out.binary = b.head.integer("BINARY");
  out.lcur = b.head.id("LCUR");
  out.ioopt = b.head.integer("IOOPT");
  out.given = true;
  out.loc = b.loc;
  if (out.dt < 0)
    fail(b.head.loc("DT"), fmt::format("{}: DT = {} must not be negative", keyword, out.dt));
  if (out.binary != 0 && out.binary != 1)
    d.model.notes.push_back(
        {keyword, b.head.loc("BINARY"), false,
         fmt::format("BINARY = {} (binout) is not supported by parcae; the ASCII file is written",
                     out.binary)});
  if (out.lcur != 0)
    d.model.notes.push_back(
        {keyword, b.head.loc("LCUR"), false,
         fmt::format("LCUR = {} (output times from a curve) is not supported by parcae; DT is "
                     "used",
                     out.lcur)});
}

void add_history_ids(const Block& b, DeckBuilder& d, bool is_set) {
  static constexpr std::string_view kIds[] = {"ID1", "ID2", "ID3", "ID4",
                                              "ID5", "ID6", "ID7", "ID8"};
  for (const Fields& row : b.rows)
    for (std::string_view f : kIds) {
      const GlobalId id = row.id(f);
      if (id == 0) continue;
      if (id < 0)
        fail(row.loc(f), fmt::format("field {}: {} id {} must be positive", f,
                                     is_set ? "node set" : "node", id));
      d.model.control.history_nodes.push_back({id, is_set, row.loc(f)});
    }
}

} // namespace

void apply_database_matsum(const Block& b, DeckBuilder& d) {
  apply_ascii_output(b, d, d.model.control.matsum);
}

void apply_database_nodout(const Block& b, DeckBuilder& d) {
  apply_ascii_output(b, d, d.model.control.nodout);
}

void apply_database_rwforc(const Block& b, DeckBuilder& d) {
  apply_ascii_output(b, d, d.model.control.rwforc);
}

void apply_database_history_node(const Block& b, DeckBuilder& d) {
  add_history_ids(b, d, false);
}

void apply_database_history_node_set(const Block& b, DeckBuilder& d) {
  add_history_ids(b, d, true);
}

void apply_database_extent_binary(const Block& b, DeckBuilder& d) {
  Controls::ExtentBinary& e = d.model.control.extent;
  const Fields& h = b.head;
  e.neiph = h.integer("NEIPH");
  e.neips = h.integer("NEIPS");
  e.maxint = h.integer("MAXINT");
  e.strflg = h.integer("STRFLG");
  e.sigflg = h.integer("SIGFLG");
  e.epsflg = h.integer("EPSFLG");
  e.rltflg = h.integer("RLTFLG");
  e.engflg = h.integer("ENGFLG");
  e.cmpflg = h.integer("CMPFLG");
  e.ieverp = h.integer("IEVERP");
  e.beamip = h.integer("BEAMIP");
  e.dcomp = h.integer("DCOMP");
  e.shge = h.integer("SHGE");
  e.stssz = h.integer("STSSZ");
  e.n3thdt = h.integer("N3THDT");
  e.ialemat = h.integer("IALEMAT");
  e.nintsld = h.integer("NINTSLD");
  e.pkp_sen = h.integer("PKP_SEN");
  e.sclp = h.real("SCLP");
  e.hydro = h.integer("HYDRO");
  e.msscl = h.integer("MSSCL");
  e.therm = h.integer("THERM");
  e.intout = to_upper(trim(h.text("INTOUT")));
  e.nodout = to_upper(trim(h.text("NODOUT")));
  e.dtdt = h.integer("DTDT");
  e.resplt = h.integer("RESPLT");
  e.neipb = h.integer("NEIPB");
  e.quadsld = h.integer("QUADSLD");
  e.cubsld = h.integer("CUBSLD");
  e.deleres = h.integer("DELERES");
  e.given = true;
}

void check_history_references(const Model& m) {
  for (const Controls::HistoryNode& h : m.control.history_nodes) {
    if (h.is_set) {
      if (!m.node_sets.count(h.id))
        fail(h.loc, fmt::format("history node set {}: node set {} is not defined", h.id, h.id));
    } else if (m.node_index(h.id) == kInvalidLocal) {
      fail(h.loc, fmt::format("history node {}: node {} is not defined", h.id, h.id));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Curves

Curve read_curve_header(const Block& b, DeckBuilder& d) {
  const Fields& h = b.head;
  Curve c;
  c.id = h.id("LCID");
  c.loc = h.loc("LCID");
  if (c.id <= 0) fail(c.loc, fmt::format("curve id LCID = {} must be positive", c.id));
  d.claim_id("curve", c.id, c.loc);
  if (b.has("TITLE")) c.title = h.text("TITLE");
  c.sidr = h.integer("SIDR");
  if (c.sidr < 0 || c.sidr > 2)
    fail(h.loc("SIDR"), fmt::format("curve {}: SIDR = {} must be 0, 1 or 2", c.id, c.sidr));
  return c;
}

void apply_define_curve(const Block& b, DeckBuilder& d) {
  const Fields& h = b.head;
  Curve c = read_curve_header(b, d);
  // As in LS-DYNA, a scale factor of 0 means 1.
  const double sfa = h.real("SFA") == 0 ? 1.0 : h.real("SFA");
  const double sfo = h.real("SFO") == 0 ? 1.0 : h.real("SFO");
  for (const Fields& p : b.rows) {
    const double x = sfa * (p.real("A1") + h.real("OFFA"));
    if (!c.x.empty() && !(x > c.x.back()))
      fail(p.loc("A1"), fmt::format("curve {}: abscissae must be strictly increasing, but point "
                                    "{} has x = {} after x = {}",
                                    c.id, c.x.size() + 1, x, c.x.back()));
    c.x.push_back(x);
    c.y.push_back(sfo * (p.real("O1") + h.real("OFFO")));
  }
  if (c.x.empty()) fail(c.loc, fmt::format("curve {} has no points (at least 1 is needed)", c.id));
  d.model.curves.push_back(std::move(c));
}

} // namespace parcae::io
