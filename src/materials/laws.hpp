#pragma once
// Functions shared by several material laws' rows (internal to src/materials). A law's own
// functions stay in its file (core/material_laws.def lists the files).
#include "materials/material.hpp"

namespace parcae {

// elastic.cpp: the hypoelastic increment (*MAT_001; *MAT_020's stress is never used)
Real update_elastic_solid(const MaterialParams& m, const Real deps[6], Real dt, Real sig[6],
                          Real back[6], Real& eps_p);

// j2_return.cpp: the von Mises laws' solid and shell updates (003, 024, 100; elastic kinds on
// shells)
Real update_j2_solid(const MaterialParams& m, const Real deps[6], Real dt, Real sig[6],
                     Real back[6], Real& eps_p);
Real update_j2_shell(const MaterialParams& m, const Real deps[5], Real dt, Real sig[5],
                     Real back[3], Real& eps_p, Real& deps_zz);

// piecewise_linear.cpp: *MAT_024's card and constants (also *MAT_123's, which adds failure
// criteria)
/// The keyword's options (Material::law_card; none for a card read without options). A law that
/// reads *MAT_024's card and keeps its own constants in law_card puts this struct first in them.
struct PiecewiseOptions {
  bool log_interpolation = false; ///< _LOG_INTERPOLATION: LCSS table interpolated in ln(rate)
};
/// Reads *MAT_024's fields; the plastic failure strain from fail_field (*MAT_081: EPPFR).
void read_piecewise_linear(const io::Fields& h, LawReader& r, std::string_view fail_field = "FAIL");
void prepare_piecewise_linear(const Material& mat, const Model& model, MaterialParams& m);
/// *MAT_024's cards (title, cards 1-4), card 2 ending with these fields.
std::vector<io::CardSpec> piecewise_linear_cards(const std::vector<io::FieldSpec>& card2_tail);

// material.cpp: the reference dilatational wave speed sqrt((K + 4G/3)/rho)
Real reference_wave_speed(const MaterialParams& m);

} // namespace parcae
