// *MAT_STRAIN_RATE_DEPENDENT_PLASTICITY (019): von Mises plasticity whose initial yield stress
// depends on the effective strain rate, with linear hardening (the theory manual's material 19):
//   sigma_y = sigma_0(rate) + Ep eps_p,   Ep = E ETAN / (E - ETAN),
// sigma_0 the curve LC1 (yield stress against the effective strain rate), ETAN the tangent
// modulus of the uniaxial curve (as *MAT_003 and *MAT_024 read it). VP = 0 takes the total
// effective strain rate (the yield stress scaled at each step), VP = 1 the plastic strain rate
// (viscoplastic).
//
// The law is *MAT_024's rate table built from LC1: at each of LC1's rates a straight yield curve
// sigma_0(rate_k) + Ep eps_p, interpolated linearly between the rates (so sigma_0 is LC1's
// piecewise-linear curve) and held at the first and last rate beyond them; the shared radial
// return (j2_return.cpp) does the rest, on solids and shells.
//
// Refused at their field: LC2 (Young's modulus against rate), LC3 (tangent modulus against rate),
// LC4 (failure stress against rate; RDEF is read with it). TDEL deletes elements whose step falls
// below it, as for *MAT_024.
//
// This file is the whole law; core/material_laws.def has its one line.
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

struct RateDependent {
  GlobalId lc1 = 0;
};

void read_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  read_elastic(h, m);
  auto p = std::make_shared<RateDependent>();
  p->lc1 = h.id("LC1");
  m.etan = h.real("ETAN");
  m.vp = h.real("VP");
  m.tdel = h.real("TDEL");
  if (p->lc1 <= 0)
    fail(h.loc("LC1"), fmt::format("material {}: LC1 = {}: the curve of yield stress against "
                                   "strain rate is required",
                                   m.id, p->lc1));
  if (m.vp != 0 && m.vp != 1)
    fail(h.loc("VP"), fmt::format("material {}: VP = {} must be 0 (scale the yield stress) or 1 "
                                  "(viscoplastic)",
                                  m.id, m.vp));
  if (!(m.etan >= 0 && m.etan < m.e))
    fail(h.loc("ETAN"), fmt::format("material {}: ETAN = {}: the tangent modulus must lie in [0, "
                                    "E = {})",
                                    m.id, m.etan, m.e));
  if (m.tdel < 0)
    fail(h.loc("TDEL"), fmt::format("material {}: TDEL = {} must not be negative", m.id, m.tdel));
  for (const char* f : {"LC2", "LC3", "LC4"})
    if (h.id(f) != 0)
      fail(h.loc(f), fmt::format("material {}: {} = {}: {} as a function of the strain rate is not "
                                 "supported",
                                 m.id, f, h.id(f),
                                 f[2] == '2'   ? "Young's modulus"
                                 : f[2] == '3' ? "the tangent modulus"
                                               : "the failure stress"));
  m.law_card = std::move(p);
}

void prepare(const Material& mat, const Model& model, MaterialParams& m) {
  prepare_elastic_constants(mat, m);
  const auto& p = mat.card<RateDependent>();
  std::vector<Real> rate, s0;
  copy_curve(mat, model, p.lc1, "LC1", rate, s0);
  const Real ep = mat.e * mat.etan / (mat.e - mat.etan);
  for (std::size_t k = 0; k < rate.size(); ++k) {
    if (!(s0[k] > 0))
      fail_card(mat, fmt::format("LC1 curve {}: the yield stress must be positive (point {}: {})",
                                 p.lc1, k + 1, s0[k]));
    if (k > 0 && !(rate[k] > rate[k - 1]))
      fail_card(mat, fmt::format("LC1 curve {}: the strain rates must increase (point {}: {})",
                                 p.lc1, k + 1, rate[k]));
    m.table_rate.push_back(rate[k]);
    m.table_x.push_back({0.0, 1.0}); // a straight line, extended beyond eps_p = 1
    m.table_y.push_back({s0[k], s0[k] + ep});
  }
  m.table_log_rate = false;
  m.beta = 1; // isotropic
  m.sigy = s0.front();
  m.etan = 0;
  m.ep = 0;
  m.c = 0;
  m.vp = mat.vp;
}

} // namespace

const MaterialLaw& law_strain_rate_dependent_plasticity() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::StrainRateDependentPlasticity,
      .card = "*MAT_STRAIN_RATE_DEPENDENT_PLASTICITY",
      .number = "019",
      .summary = "von Mises plasticity, initial yield stress a curve of the strain rate, linear "
                 "hardening",
      .history = 1, // effective plastic strain
      .incremental = true,
      .plastic = true,
      .hyperelastic = false,
      .hydrodynamic = false,
      .rigid = false,
      .keyword = {.name = "*MAT_STRAIN_RATE_DEPENDENT_PLASTICITY",
                  .aliases = {"*MAT_019"},
                  .options = {"TITLE"},
                  .head = {title_card(),
                           {"Card 1", join(mid_ro_e_pr_fields(), {R("VP")})},
                           {"Card 2",
                            {I("LC1"), R("ETAN"), I("LC2"), I("LC3"), I("LC4"), R("TDEL"),
                             R("RDEF", "1.0")}}},
                  .summary =
                      "Rate-dependent plasticity (solids and shells): yield stress LC1(rate) + "
                      "Ep eps_p with Ep = E ETAN / (E - ETAN), the rate the total effective "
                      "strain rate (VP = 0) or the plastic one (VP = 1); LC1 is interpolated "
                      "linearly and held at its first and last rates beyond them. TDEL: an "
                      "element whose step falls below it is deleted. Refused: LC2, LC3, LC4 "
                      "(modulus, tangent modulus and failure stress against rate); RDEF is read "
                      "with LC4 only."},
      .read = read_card,
      .prepare = prepare,
      .update_solid = update_j2_solid,
      .update_shell = update_j2_shell,
      .update_deviator = nullptr,
      .wave_speed = reference_wave_speed};
  return law;
}

} // namespace parcae
