// Deck checks shared by the material laws' prepare functions.
#include "materials/law_support.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <fmt/format.h>

namespace parcae {

void fail_card(const Material& mat, const std::string& msg) {
  const std::string who = fmt::format("{} {}", material_law(mat.kind).card, mat.id);
  throw InputError(mat.loc, who + ": " + msg);
}

void copy_curve(const Material& mat, const Model& model, GlobalId lcid, const char* what,
                std::vector<Real>& x, std::vector<Real>& y) {
  const Curve* c = model.find_curve(lcid);
  const std::string who = fmt::format("{} {}", material_law(mat.kind).card, mat.id);
  if (c == nullptr)
    throw InputError(mat.loc, fmt::format("{}: {} curve {} is not defined{}", who, what, lcid,
                                          model.find_table(lcid) != nullptr
                                              ? " (it is a *DEFINE_TABLE; a curve is needed here)"
                                              : ""));
  if (c->x.empty() || c->x.size() != c->y.size())
    throw InputError(mat.loc, fmt::format("{}: {} curve {} has no points", who, what, lcid));
  for (std::size_t i = 1; i < c->x.size(); ++i)
    if (!(c->x[i] > c->x[i - 1]))
      throw InputError(mat.loc, fmt::format("{}: {} curve {}: abscissae must increase strictly "
                                            "(point {} x = {} after x = {})",
                                            who, what, lcid, i + 1, c->x[i], c->x[i - 1]));
  x = c->x;
  y = c->y;
}

Real DiscreteCurve::eval(Real t) const {
  const std::size_t n = x.size();
  if (n == 1) return y[0];
  std::size_t i = 1; // segment [i - 1, i]
  if (t >= x.back())
    i = n - 1;
  else if (t > x.front())
    i = static_cast<std::size_t>(std::upper_bound(x.begin(), x.end(), t) - x.begin());
  const Real w = (t - x[i - 1]) / (x[i] - x[i - 1]);
  return y[i - 1] + w * (y[i] - y[i - 1]);
}

Real DiscreteCurve::max_slope() const {
  Real s = 0;
  for (std::size_t i = 1; i < x.size(); ++i)
    s = std::max(s, std::abs((y[i] - y[i - 1]) / (x[i] - x[i - 1])));
  return s;
}

Real DiscreteCurve::max_abs() const {
  Real s = 0;
  for (Real v : y) s = std::max(s, std::abs(v));
  return s;
}

DiscreteCurve discrete_curve(const Material& mat, const Model& model, GlobalId lcid,
                             const char* what) {
  if (lcid <= 0) fail_card(mat, fmt::format("{} = {}: a curve id is required", what, lcid));
  DiscreteCurve c;
  copy_curve(mat, model, lcid, what, c.x, c.y);
  return c;
}

void symmetric_eigen(const Real s[6], Real lam[3], Real v[3][3]) {
  Real a[3][3] = {{s[0], s[3], s[5]}, {s[3], s[1], s[4]}, {s[5], s[4], s[2]}};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) v[i][j] = i == j ? 1.0 : 0.0;
  const Real scale = std::abs(a[0][0]) + std::abs(a[1][1]) + std::abs(a[2][2]) +
                     2 * (std::abs(a[0][1]) + std::abs(a[1][2]) + std::abs(a[0][2]));
  for (int sweep = 0; sweep < 50 && scale > 0; ++sweep) {
    const Real off = std::abs(a[0][1]) + std::abs(a[1][2]) + std::abs(a[0][2]);
    if (off <= 1e-17 * scale) break;
    for (int p = 0; p < 2; ++p)
      for (int q = p + 1; q < 3; ++q) {
        if (a[p][q] == 0) continue;
        // rotation in the p-q plane that zeroes a[p][q] (the stable tangent of Golub-Van Loan)
        const Real theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        const Real t = std::copysign(1.0, theta) / (std::abs(theta) + std::sqrt(theta * theta + 1));
        const Real c = 1 / std::sqrt(t * t + 1), sn = t * c;
        for (int k = 0; k < 3; ++k) { // A <- A J
          const Real akp = a[k][p], akq = a[k][q];
          a[k][p] = c * akp - sn * akq;
          a[k][q] = sn * akp + c * akq;
        }
        for (int k = 0; k < 3; ++k) { // A <- J^T A
          const Real apk = a[p][k], aqk = a[q][k];
          a[p][k] = c * apk - sn * aqk;
          a[q][k] = sn * apk + c * aqk;
        }
        for (int k = 0; k < 3; ++k) { // V <- V J
          const Real vkp = v[k][p], vkq = v[k][q];
          v[k][p] = c * vkp - sn * vkq;
          v[k][q] = sn * vkp + c * vkq;
        }
      }
  }
  int order[3] = {0, 1, 2};
  std::sort(order, order + 3, [&](int x, int y) { return a[x][x] < a[y][y]; });
  Real w[3][3];
  for (int k = 0; k < 3; ++k) {
    lam[k] = a[order[k]][order[k]];
    for (int i = 0; i < 3; ++i) w[i][k] = v[i][order[k]];
  }
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) v[i][k] = w[i][k];
}

Real deformation_det(const Real h[3][3]) {
  return (1 + h[0][0]) * ((1 + h[1][1]) * (1 + h[2][2]) - h[1][2] * h[2][1]) -
         h[0][1] * (h[1][0] * (1 + h[2][2]) - h[1][2] * h[2][0]) +
         h[0][2] * (h[1][0] * h[2][1] - (1 + h[1][1]) * h[2][0]);
}

void principal_stretches(const Real h[3][3], Real lam[3], Real n[3][3]) {
  Real e[6];
  constexpr int ii[6] = {0, 1, 2, 0, 1, 2}, jj[6] = {0, 1, 2, 1, 2, 0};
  for (int v = 0; v < 6; ++v) {
    const int i = ii[v], j = jj[v];
    Real hh = 0;
    for (int l = 0; l < 3; ++l) hh += h[i][l] * h[j][l];
    e[v] = h[i][j] + h[j][i] + hh;
  }
  Real ev[3];
  symmetric_eigen(e, ev, n);
  for (int k = 0; k < 3; ++k) lam[k] = std::sqrt(std::max<Real>(1.0 + ev[k], 0.0));
}

void prepare_from_card(const Material& /*mat*/, const Model& /*model*/, MaterialParams& /*m*/) {}

io::CardSpec discrete_card(std::vector<io::FieldSpec> fields) {
  using namespace io::card_fields;
  std::vector<io::FieldSpec> all{I("MID").req()};
  all.insert(all.end(), fields.begin(), fields.end());
  return {"Card 1", std::move(all)};
}

void prepare_elastic_constants(const Material& mat, MaterialParams& m) {
  auto fail = [&](const std::string& msg) { fail_card(mat, msg); };
  if (!(mat.e > 0)) fail(fmt::format("Young's modulus E must be positive (got {})", mat.e));
  if (!(mat.pr > -1.0 && mat.pr < 0.5))
    fail(fmt::format("Poisson's ratio PR must lie in (-1, 0.5) (got {})", mat.pr));
  m.g = m.e / (2.0 * (1.0 + m.nu));
  m.k = m.e / (3.0 * (1.0 - 2.0 * m.nu));
  m.lambda = m.e * m.nu / ((1.0 + m.nu) * (1.0 - 2.0 * m.nu));
}

void prepare_linear_hardening(const Material& mat, MaterialParams& m) {
  auto fail = [&](const std::string& msg) { fail_card(mat, msg); };
  if (!(mat.sigy > 0)) fail(fmt::format("yield stress SIGY must be positive (got {})", mat.sigy));
  if (!(mat.etan >= 0))
    fail(fmt::format("tangent modulus ETAN must not be negative (got {})", mat.etan));
  if (!(mat.etan < mat.e))
    fail(fmt::format("tangent modulus ETAN = {} must be smaller than E = {}", mat.etan, mat.e));
  m.sigy = mat.sigy;
  m.etan = mat.etan;
  m.ep = mat.e * mat.etan / (mat.e - mat.etan);
}

void prepare_cowper_symonds(const Material& mat, MaterialParams& m, const char* cname,
                            const char* pname) {
  auto fail = [&](const std::string& msg) { fail_card(mat, msg); };
  if (!(mat.src >= 0)) fail(fmt::format("{} must not be negative (got {})", cname, mat.src));
  if (mat.src > 0 && !(mat.srp > 0))
    fail(fmt::format("{} must be positive when {} > 0 (got {})", pname, cname, mat.srp));
  m.c = mat.src;
  m.p = mat.src > 0 ? mat.srp : 0;
}

} // namespace parcae

// ---------------------------------------------------------------------------------------------
// Reading a law's card

namespace parcae {

std::vector<io::FieldSpec> mid_ro_e_pr_fields() {
  using namespace io::card_fields;
  return {I("MID").req(), R("RO"), R("E"), R("PR")};
}

std::vector<io::FieldSpec> mid_ro_orthotropic_fields() {
  using namespace io::card_fields;
  return {I("MID").req(), R("RO"), R("EA"), R("EB"), R("EC"), R("PRBA"), R("PRCA"), R("PRCB")};
}

void fail(const SourceLoc& loc, const std::string& message) {
  throw InputError(loc, message);
}

void read_elastic(const io::Fields& h, Material& m) {
  m.e = h.real("E");
  m.pr = h.real("PR");
  if (!(m.e > 0))
    fail(h.loc("E"),
         fmt::format("material {}: Young's modulus E = {} must be positive", m.id, m.e));
  if (!(m.pr > -1.0 && m.pr < 0.5))
    fail(h.loc("PR"),
         fmt::format("material {}: Poisson's ratio PR = {} must be in (-1, 0.5)", m.id, m.pr));
}

double read_failure_strain(const io::Fields& h, std::string_view field, GlobalId mid) {
  const double v = h.real(field);
  if (v < 0)
    fail(h.loc(field), fmt::format("material {}: {} = {}: user failure subroutines are not "
                                   "supported",
                                   mid, field, v));
  return v >= 1e20 ? 0.0 : v;
}

void read_pressure_cutoff(const io::Fields& h, Material& m) {
  m.pc = h.real("PC");
  if (!(m.pc <= 0))
    fail(h.loc("PC"),
         fmt::format("material {}: pressure cutoff PC = {} must not be positive", m.id, m.pc));
}

void read_shear_modulus(const io::Fields& h, Material& m) {
  m.g = h.real("G");
  if (!(m.g > 0))
    fail(h.loc("G"), fmt::format("material {}: shear modulus G = {} must be positive", m.id, m.g));
}

Real OrthotropicPlane::bound_e() const {
  return std::max({q11 + q12, q22 + q12, 2.0 * gab});
}

void OrthotropicPlane::update(const Real d[5], Real sig[5], Real& deps_zz) const {
  const Real dsa = q11 * d[0] + q12 * d[1];
  const Real dsb = q12 * d[0] + q22 * d[1];
  sig[0] += dsa;
  sig[1] += dsb;
  sig[2] += gab * d[2];
  sig[3] += gbc * d[3];
  sig[4] += gca * d[4];
  deps_zz = ec > 0 ? -(prca * dsa + prcb * dsb) / ec : 0.0;
}

void refuse_field(const io::Fields& h, const char* field, GlobalId id, std::string_view what) {
  if (h.real(field) != 0)
    fail(h.loc(field),
         fmt::format("material {}: {} = {} is not supported ({})", id, field, h.real(field), what));
}

io::KeywordSpec rubber_077_keyword(std::string_view name, std::string_view alias,
                                   std::vector<io::CardSpec> constants_cards,
                                   std::string_view summary) {
  using namespace io::card_fields;
  std::vector<io::CardSpec> head = {
      title_card(),
      {"Card 1",
       {I("MID").req(), R("RO"), R("PR"), I("N"), I("NV", "6"), R("G"), R("SIGF"), R("REF")}},
      {.label = "Card 2 (PR < 0)",
       .fields = {R("TBHYS"), R("LCBI"), R("LCPL"), R("WBI"), R("WPL"), R("D1"), R("D2"), R("D3")},
       .read_if = [](const io::Fields& f) { return f.real("PR") < 0; }},
      {.label = "Card 3 (N > 0: fit to test curves)",
       .fields = {R("SGL"), R("SW"), R("ST"), I("LCID1"), R("DATA", "1.0"), I("LCID2"), R("BSTART"),
                  R("TRAMP")},
       .read_if = [](const io::Fields& f) { return f.id("N") > 0; }}};
  for (io::CardSpec& c : constants_cards) {
    c.read_if = [](const io::Fields& f) { return f.id("N") <= 0; };
    head.push_back(std::move(c));
  }
  return {.name = name,
          .aliases = {alias},
          .options = {"TITLE"},
          .head = std::move(head),
          .rows = {{"Viscoelastic terms (optional), repeated", {R("GI"), R("BETAI"), I("VFLAG")}}},
          .summary = summary};
}

void read_rubber_077_common(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  const Real pr = h.real("PR");
  if (pr < 0)
    fail(h.loc("PR"), fmt::format("material {}: PR = {} < 0 (card 2: hysteresis table, fitting "
                                  "weights, compliance constants D1-D3) is not supported; give "
                                  "PR in [0, 0.5)",
                                  m.id, pr));
  if (!(pr < 0.5))
    fail(h.loc("PR"), fmt::format("material {}: PR = {} must be below 0.5 (0.49 to 0.4999 for "
                                  "rubber)",
                                  m.id, pr));
  if (h.id("N") > 0)
    fail(h.loc("N"), fmt::format("material {}: N = {}: fitting the constants to test curves is "
                                 "not supported; give them (N = 0)",
                                 m.id, h.id("N")));
  if (h.id("N") < 0)
    fail(h.loc("N"), fmt::format("material {}: N = {}: temperature-dependent constants (load "
                                 "curves) are not supported; give them (N = 0)",
                                 m.id, h.id("N")));
  refuse_field(h, "G", m.id, "frictional damping");
  refuse_field(h, "SIGF", m.id, "frictional damping");
  refuse_field(h, "REF", m.id, "a reference geometry");
  for (const io::Fields* row : r.rows)
    if (row->real("GI") != 0)
      fail(row->loc("GI"), fmt::format("material {}: GI = {}: viscoelastic terms are not "
                                       "supported",
                                       m.id, row->real("GI")));
  m.pr = pr;
}

void tensor_from_principal(const Real t[3], const Real n[3][3], Real out[6]) {
  constexpr int ii[6] = {0, 1, 2, 0, 1, 2}, jj[6] = {0, 1, 2, 1, 2, 0};
  for (int v = 0; v < 6; ++v)
    out[v] = t[0] * n[ii[v]][0] * n[jj[v]][0] + t[1] * n[ii[v]][1] * n[jj[v]][1] +
             t[2] * n[ii[v]][2] * n[jj[v]][2];
}

void set_elastic_from_bulk_shear(Material& m, Real k, Real g) {
  m.e = 9 * k * g / (3 * k + g);
  m.pr = (3 * k - 2 * g) / (2 * (3 * k + g));
}

void set_bulk_shear_moduli(MaterialParams& m, Real k, Real g) {
  m.k = k;
  m.g = g;
  m.lambda = k - 2.0 / 3.0 * g;
}

Real chang_chang_compression(Real sigma_b, Real yc, Real sc) {
  if (!(sc > 0)) return 0;
  const Real q = sigma_b / (2 * sc), c = yc / (2 * sc);
  return q * q + (c * c - 1) * (yc > 0 ? sigma_b / yc : 0.0);
}

Real read_element_axes_angle(const io::Fields& h, GlobalId id) {
  if (h.real("AOPT") != 0)
    fail(h.loc("AOPT"), fmt::format("material {}: AOPT = {} is not supported: the material "
                                    "axes are the element's (AOPT 0), turned by BETA and the "
                                    "section's ICOMP angles",
                                    id, h.real("AOPT")));
  if (h.find("MACF") != nullptr && h.real("MACF") != 0 && h.real("MACF") != 1)
    fail(h.loc("MACF"), fmt::format("material {}: MACF = {}: only 1 (no change of the material "
                                    "axes) is supported",
                                    id, h.real("MACF")));
  return h.real("BETA") * std::numbers::pi / 180.0;
}

Real bar_wave_speed(const MaterialParams& m) {
  return std::sqrt(m.e / m.ro);
}

OrthotropicPlane read_orthotropic_plane(const io::Fields& h, GlobalId id) {
  OrthotropicPlane p;
  const Real ea = h.real("EA"), eb = h.real("EB"), prba = h.real("PRBA");
  if (!(ea > 0)) fail(h.loc("EA"), fmt::format("material {}: EA = {} must be positive", id, ea));
  if (!(eb > 0)) fail(h.loc("EB"), fmt::format("material {}: EB = {} must be positive", id, eb));
  const Real prab = prba * ea / eb;
  const Real den = 1.0 - prab * prba;
  if (!(den > 0) || prba < 0)
    fail(h.loc("PRBA"), fmt::format("material {}: PRBA = {} with EA = {}, EB = {} gives no "
                                    "positive definite plane-stress stiffness (PRBA^2 EA/EB < 1 "
                                    "and PRBA >= 0 needed)",
                                    id, prba, ea, eb));
  p.q11 = ea / den;
  p.q22 = eb / den;
  p.q12 = prba * ea / den;
  p.gab = h.real("GAB");
  if (!(p.gab > 0))
    fail(h.loc("GAB"), fmt::format("material {}: GAB = {} must be positive", id, p.gab));
  p.gbc = h.real("GBC") > 0 ? h.real("GBC") : p.gab;
  p.gca = h.real("GCA") > 0 ? h.real("GCA") : p.gab;
  p.ec = h.real("EC");
  p.prca = h.real("PRCA");
  p.prcb = h.real("PRCB");
  return p;
}

} // namespace parcae
