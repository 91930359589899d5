#pragma once
// The functions of the material laws that the catalogue's rows name (internal to
// src/materials; catalogue.cpp). One block per law file. Signatures as in MaterialLaw.
#include "materials/material.hpp"

namespace parcae {

// elastic.cpp: *MAT_ELASTIC (001)
void prepare_elastic(const Material& mat, const Model& model, MaterialParams& m);
Real update_elastic_solid(const MaterialParams& m, const Real deps[6], Real dt, Real sig[6],
                          Real back[6], Real& eps_p);

// plastic_kinematic.cpp: *MAT_PLASTIC_KINEMATIC (003)
void prepare_plastic_kinematic(const Material& mat, const Model& model, MaterialParams& m);

// rigid.cpp: *MAT_RIGID (020)
void prepare_rigid(const Material& mat, const Model& model, MaterialParams& m);

// piecewise_linear.cpp: *MAT_PIECEWISE_LINEAR_PLASTICITY (024)
void prepare_piecewise_linear(const Material& mat, const Model& model, MaterialParams& m);

// mooney_rivlin.cpp: *MAT_MOONEY-RIVLIN_RUBBER (027); solids: hyperelastic_stress; shells: an
// incompressible membrane on the accumulated logarithmic strain (back)
void prepare_mooney_rivlin(const Material& mat, const Model& model, MaterialParams& m);
Real update_mooney_rivlin_shell(const MaterialParams& m, const Real deps[5], Real dt, Real sig[5],
                                Real back[3], Real& eps_p, Real& deps_zz);

// null.cpp: *MAT_NULL (009)
void prepare_null(const Material& mat, const Model& model, MaterialParams& m);
Real update_null_deviator(const MaterialParams& m, const Real deps[6], Real dt, Real r, Real s[6],
                          Real hist[6], Real& eps_p);

// elastic_plastic_hydro.cpp: *MAT_ELASTIC_PLASTIC_HYDRO (010)
void prepare_elastic_plastic_hydro(const Material& mat, const Model& model, MaterialParams& m);
Real update_elastic_plastic_hydro_deviator(const MaterialParams& m, const Real deps[6], Real dt,
                                           Real r, Real s[6], Real hist[6], Real& eps_p);

// johnson_cook.cpp: *MAT_JOHNSON_COOK (015)
void prepare_johnson_cook(const Material& mat, const Model& model, MaterialParams& m);
Real update_johnson_cook_deviator(const MaterialParams& m, const Real deps[6], Real dt, Real r,
                                  Real s[6], Real hist[6], Real& eps_p);

// isotropic_elastic_plastic.cpp: *MAT_ISOTROPIC_ELASTIC_PLASTIC (012)
void prepare_isotropic_elastic_plastic(const Material& mat, const Model& model, MaterialParams& m);
Real update_isotropic_elastic_plastic_solid(const MaterialParams& m, const Real deps[6], Real dt,
                                            Real sig[6], Real back[6], Real& eps_p);

// transversely_anisotropic.cpp: *MAT_TRANSVERSELY_ANISOTROPIC_ELASTIC_PLASTIC (037), shells only
void prepare_transversely_anisotropic(const Material& mat, const Model& model, MaterialParams& m);
void prepare_spotweld(const Material& mat, const Model& model, MaterialParams& m);
Real update_transversely_anisotropic_shell(const MaterialParams& m, const Real deps[5], Real dt,
                                           Real sig[5], Real back[3], Real& eps_p, Real& deps_zz);

// j2_return.cpp: the von Mises laws' solid and shell updates (003, 024; elastic kinds on shells)
Real update_j2_solid(const MaterialParams& m, const Real deps[6], Real dt, Real sig[6],
                     Real back[6], Real& eps_p);
Real update_j2_shell(const MaterialParams& m, const Real deps[5], Real dt, Real sig[5],
                     Real back[3], Real& eps_p, Real& deps_zz);

// material.cpp: the reference dilatational wave speed sqrt((K + 4G/3)/rho)
Real reference_wave_speed(const MaterialParams& m);

} // namespace parcae
