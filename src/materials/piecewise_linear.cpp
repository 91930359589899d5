// *MAT_PIECEWISE_LINEAR_PLASTICITY (024): von Mises plasticity with isotropic hardening, linear
// (SIGY, ETAN) or tabulated (LCSS: effective plastic strain -> yield stress), rate effects by
// Cowper-Symonds (C, P), a scale-factor curve (LCSR) or a table of yield curves over the strain
// rate (LCSS = a *DEFINE_TABLE), VP = 0 (scaled yield stress at the total
// strain rate) or VP = 1 (viscoplastic, at the plastic strain rate), failure at the plastic
// strain FAIL. The stress update is the shared radial return (j2_return.cpp).
#include <cmath>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

/// The EPS1-8 / ES1-8 table as a curve with id -MID (LCSS = -MID).
void add_stress_strain_table(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  static constexpr std::string_view eps[] = {"EPS1", "EPS2", "EPS3", "EPS4",
                                             "EPS5", "EPS6", "EPS7", "EPS8"};
  static constexpr std::string_view es[] = {"ES1", "ES2", "ES3", "ES4", "ES5", "ES6", "ES7", "ES8"};
  Curve c;
  c.id = -m.id;
  c.title = fmt::format("*MAT_024 {} EPS/ES table", m.id);
  c.loc = h.loc("EPS1");
  // The table ends at the first EPS of 0 after EPS1: LS-DYNA ignores trailing zero strains,
  // whatever stresses are written beside them.
  int used = 8;
  for (int k = 1; k < 8; ++k)
    if (h.real(eps[k]) == 0) {
      used = k;
      break;
    }
  for (int k = used; k < 8; ++k)
    if (h.real(eps[k]) != 0)
      fail(h.loc(eps[k]), fmt::format("material {}: {} = {} follows a zero strain ({} = 0); the "
                                      "strains must increase",
                                      m.id, eps[k], h.real(eps[k]), eps[used]));
  for (int k = 0; k < used; ++k) {
    if (!c.x.empty() && !(h.real(eps[k]) > c.x.back()))
      fail(h.loc(eps[k]), fmt::format("material {}: {} = {} must be greater than the previous "
                                      "strain",
                                      m.id, eps[k], h.real(eps[k])));
    c.x.push_back(h.real(eps[k]));
    c.y.push_back(h.real(es[k]));
  }
  if (c.x.size() < 2) {
    // One point is no hardening curve: SIGY and ETAN describe the material.
    r.note(h.loc("EPS1"), fmt::format("material {}: the EPS/ES table has a single point (EPS2 "
                                      "onwards are 0): SIGY = {} and ETAN = {} are used",
                                      m.id, m.sigy, m.etan));
    return;
  }
  m.lcss = c.id;
  r.claim_id("curve", c.id, c.loc);
  r.model.curves.push_back(std::move(c));
}

bool has_stress_table(const io::Fields& h) {
  for (std::string_view es : {"ES1", "ES2", "ES3", "ES4", "ES5", "ES6", "ES7", "ES8"})
    if (h.real(es) != 0) return true;
  return false;
}

void read_card(const io::Fields& h, LawReader& r) {
  read_piecewise_linear(h, r);
}

} // namespace

void read_piecewise_linear(const io::Fields& h, LawReader& r, std::string_view fail_field) {
  Material& m = r.mat;
  if (r.has_option("LOG_INTERPOLATION"))
    m.law_card = std::make_shared<PiecewiseOptions>(PiecewiseOptions{.log_interpolation = true});
  read_elastic(h, m);
  m.sigy = h.real("SIGY");
  m.etan = h.real("ETAN");
  m.fs = read_failure_strain(h, fail_field, m.id);
  m.src = h.real("C");
  m.srp = h.real("P");
  m.lcss = h.id("LCSS");
  m.lcsr = h.id("LCSR");
  m.vp = h.real("VP");
  m.tdel = h.real("TDEL");
  if (m.tdel < 0)
    fail(h.loc("TDEL"), fmt::format("material {}: TDEL = {} must not be negative", m.id, m.tdel));
  if (m.lcss == 0 && has_stress_table(h)) add_stress_strain_table(h, r);
}

namespace {

/// A yield curve of LCSS (a curve, or one of a table's): it starts at a plastic strain >= 0,
/// its yield stresses are positive.
void check_yield_curve(const Material& mat, GlobalId lcid, const std::vector<Real>& x,
                       const std::vector<Real>& y) {
  if (x.front() < 0)
    fail_card(mat, fmt::format("LCSS curve {}: effective plastic strain must start at 0 (got {})",
                               lcid, x.front()));
  // Zero is allowed (LS-DYNA reads such curves: a curve from (0, 0) yields at once and hardens
  // along its points); a negative yield stress is not.
  for (std::size_t i = 0; i < y.size(); ++i)
    if (!(y[i] >= 0))
      fail_card(mat, fmt::format("LCSS curve {}: yield stress must not be negative (point {}: {})",
                                 lcid, i + 1, y[i]));
}

/// LCSS = a *DEFINE_TABLE: a yield curve at each strain rate (C, P and LCSR are not used, as in
/// LS-DYNA); values that start negative are natural logs of the rate.
void prepare_rate_table(const Material& mat, const Model& model, const Table& t,
                        MaterialParams& m) {
  m.table_rate = t.values;
  m.table_log_rate = t.values.front() < 0;
  if (mat.law_card && mat.card<PiecewiseOptions>().log_interpolation) {
    // _LOG_INTERPOLATION: the rates as given, interpolated between their logarithms
    for (std::size_t i = 0; i < t.values.size(); ++i)
      if (!(t.values[i] > 0))
        fail_card(mat, fmt::format("_LOG_INTERPOLATION: the strain rates of LCSS table {} must "
                                   "be positive (value {}: {})",
                                   mat.lcss, i + 1, t.values[i]));
    for (Real& v : m.table_rate) v = std::log(v);
    m.table_log_rate = true;
  }
  for (GlobalId lcid : t.curves) {
    std::vector<Real> x, y;
    copy_curve(mat, model, lcid, "LCSS table", x, y);
    check_yield_curve(mat, lcid, x, y);
    m.table_x.push_back(std::move(x));
    m.table_y.push_back(std::move(y));
  }
  m.sigy = m.table_y.front().front(); // initial yield at the lowest rate (informational)
  m.etan = 0;
  m.ep = 0;
  m.c = 0;
}

void prepare(const Material& mat, const Model& model, MaterialParams& m) {
  prepare_piecewise_linear(mat, model, m);
}

} // namespace

void prepare_piecewise_linear(const Material& mat, const Model& model, MaterialParams& m) {
  auto fail = [&](const std::string& msg) { fail_card(mat, msg); };
  prepare_elastic_constants(mat, m);
  m.beta = 1;
  if (const Table* t = mat.lcss > 0 ? model.find_table(mat.lcss) : nullptr; t != nullptr) {
    prepare_rate_table(mat, model, *t, m);
  } else if (mat.lcss != 0) {
    copy_curve(mat, model, mat.lcss, "LCSS", m.hard_x, m.hard_y);
    check_yield_curve(mat, mat.lcss, m.hard_x, m.hard_y);
    m.sigy = m.hard_y.front(); // initial yield (informational; the curve is used)
    m.etan = 0;
    m.ep = 0;
  } else {
    prepare_linear_hardening(mat, m);
  }
  if (!m.table_rate.empty()) {
    // the table holds the rate effects
  } else if (mat.lcsr != 0) {
    copy_curve(mat, model, mat.lcsr, "LCSR", m.rate_x, m.rate_y);
    for (std::size_t i = 0; i < m.rate_y.size(); ++i)
      if (!(m.rate_y[i] > 0))
        fail(fmt::format("LCSR curve {}: scale factor must be positive (point {}: {})", mat.lcsr,
                         i + 1, m.rate_y[i]));
  } else {
    prepare_cowper_symonds(mat, m, "C", "P");
  }
  if (!(mat.fs >= 0))
    fail(fmt::format("FAIL = {} < 0 (user failure subroutine) is not supported", mat.fs));
  m.fail = mat.fs;
  if (mat.vp != 0 && mat.vp != 1)
    fail(fmt::format("VP = {} is not supported (0: scale yield stress, 1: viscoplastic)", mat.vp));
  m.vp = mat.vp;
}

std::vector<io::CardSpec> piecewise_linear_cards(const std::vector<io::FieldSpec>& card2_tail) {
  using namespace io::card_fields;
  return {title_card(),
          {"Card 1",
           join(mid_ro_e_pr_fields(), {R("SIGY"), R("ETAN"), R("FAIL", "1.0E+21"), R("TDEL")})},
          {"Card 2", join({R("C"), R("P"), I("LCSS"), I("LCSR"), R("VP")}, card2_tail)},
          {"Card 3", reals({"EPS1", "EPS2", "EPS3", "EPS4", "EPS5", "EPS6", "EPS7", "EPS8"})},
          {"Card 4", reals({"ES1", "ES2", "ES3", "ES4", "ES5", "ES6", "ES7", "ES8"})}};
}

const MaterialLaw& law_piecewise_linear() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::PiecewiseLinear,
      .card = "*MAT_PIECEWISE_LINEAR_PLASTICITY",
      .number = "024",
      .summary = "von Mises plasticity, linear or tabulated isotropic hardening, rate effects",
      .history = 1, // effective plastic strain
      .incremental = true,
      .plastic = true,
      .hyperelastic = false,
      .hydrodynamic = false,
      .rigid = false,
      .keyword =
          {.name = "*MAT_PIECEWISE_LINEAR_PLASTICITY",
           .aliases = {"*MAT_024"},
           .options = {"TITLE", "LOG_INTERPOLATION", "STOCHASTIC", "2D"},
           .head = piecewise_linear_cards({I("LCF")}),
           .summary =
               "Tabulated plasticity. Without LCSS, a nonzero ES1-ES8 table becomes a "
               "curve in model.curves with id -MID (LCSS = -MID). LCSS may be a "
               "*DEFINE_TABLE: a yield curve at each strain rate (the total effective "
               "rate for VP = 0, the plastic rate for VP = 1), interpolated linearly "
               "between the rates (between their logarithms when the first value is "
               "negative) and clamped beyond them; C, P and LCSR are then not used. FAIL >= "
               "1e20 or 0 means "
               "no failure (FAIL < 0, a user subroutine, is an error). TDEL > 0: an "
               "element whose time step (critical step x TSSFAC) falls below TDEL is "
               "deleted. LCF is ignored. _LOG_INTERPOLATION: the LCSS table's rates (positive) "
               "are interpolated between their logarithms."
               " _STOCHASTIC: the same card; without *DEFINE_STOCHASTIC_VARIATION (which parcae "
               "refuses) no element varies, so it is the law itself."
               " _2D: LS-DYNA's plane-stress form of the law for shells, the same card and "
               "the same plasticity (parcae's shells are plane stress with this law already)."},
      .read = read_card,
      .prepare = prepare,
      .update_solid = update_j2_solid,
      .update_shell = update_j2_shell,
      .update_deviator = nullptr,
      .wave_speed = reference_wave_speed};
  return law;
}

} // namespace parcae
