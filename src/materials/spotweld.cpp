// *MAT_SPOTWELD (100): elastic (E, PR), von Mises plasticity with the yield stress
// SIGY + EH eps_p (EH: the plastic hardening modulus, as the manual defines it), isotropic. On
// integrated beams the beam kernel returns the axial and transverse shear stresses
// (fem/beam.cpp); solid welds use the shared J2 update (update_j2_solid). The failure fields are
// read by the reader, which refuses nonzero ones (not implemented); DT (mass scaling of the weld)
// likewise.
#include <string>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

void prepare_spotweld(const Material& mat, const Model& /*model*/, MaterialParams& m) {
  auto fail = [&](const std::string& msg) { fail_card(mat, msg); };
  prepare_elastic_constants(mat, m);
  if (!(mat.sigy > 0)) fail(fmt::format("yield stress SIGY must be positive (got {})", mat.sigy));
  if (!(mat.eh >= 0))
    fail(fmt::format("plastic hardening modulus EH must not be negative (got {})", mat.eh));
  m.sigy = mat.sigy;
  m.ep = mat.eh;
  m.etan = mat.e * mat.eh / (mat.e + mat.eh);
  m.beta = 1; // isotropic
}

namespace {

void read_spotweld_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  read_elastic(h, m);
  m.sigy = h.real("SIGY");
  m.eh = h.real("EH");
  if (!(m.sigy > 0))
    fail(h.loc("SIGY"),
         fmt::format("material {}: yield stress SIGY = {} must be positive", m.id, m.sigy));
  if (!(m.eh >= 0))
    fail(h.loc("EH"),
         fmt::format("material {}: hardening modulus EH = {} must not be negative", m.id, m.eh));
  for (std::string_view f :
       {"DT", "TFAIL", "EFAIL", "NRR", "NRS", "NRT", "MRR", "MSS", "MTT", "NF"})
    if (h.real(f) != 0)
      fail(h.loc(f), fmt::format("material {}: {} = {}: the spot weld's {} is not implemented "
                                 "(leave it blank)",
                                 m.id, f, h.real(f), f == "DT" ? "mass scaling" : "failure"));
}

} // namespace

const MaterialLaw& law_spotweld() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::Spotweld,
      .card = "*MAT_SPOTWELD",
      .number = "100",
      .summary = "spot welds and bolts: von Mises plasticity with linear isotropic hardening EH "
                 "(beams: on the axial and shear stresses; solid welds: the J2 update)",
      .history = 1, // effective plastic strain
      .incremental = true,
      .plastic = true,
      .hyperelastic = false,
      .hydrodynamic = false,
      .rigid = false,
      .keyword = {.name = "*MAT_SPOTWELD",
                  .aliases = {"*MAT_100"},
                  .options = {"TITLE"},
                  .head = {title_card(),
                           {"Card 1",
                            join(mid_ro_e_pr_fields(), {R("SIGY"), R("EH"), R("DT"), R("TFAIL")})},
                           {"Card 2",
                            {R("EFAIL"), R("NRR"), R("NRS"), R("NRT"), R("MRR"), R("MSS"), R("MTT"),
                             R("NF")},
                            "",
                            true}},
                  .summary =
                      "Spot weld material on beams (integrated ELFORM 1, 9: von Mises plasticity "
                      "on the axial and shear stresses; trusses) and solids (the J2 update): "
                      "elastic E PR, yield stress SIGY + EH eps_p (isotropic hardening); shells "
                      "are refused. The failure fields (TFAIL, EFAIL, NRR NRS NRT MRR MSS MTT, NF) "
                      "and DT (weld mass scaling) are not implemented: a nonzero value is "
                      "refused."},
      .read = read_spotweld_card,
      .prepare = prepare_spotweld,
      .update_solid = update_j2_solid,
      .update_shell = nullptr,
      .update_deviator = nullptr,
      .wave_speed = reference_wave_speed};
  return law;
}
} // namespace parcae
