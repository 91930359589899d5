#pragma once
// Deck checks shared by the material laws' prepare functions (internal to src/materials).
#include <string>
#include <vector>

#include "materials/material.hpp"

namespace parcae {

/// Throws InputError at the material's card: "<card> <id>: msg".
[[noreturn]] void fail_card(const Material& mat, const std::string& msg);

/// Copy a curve into x/y after checking it exists and its abscissae strictly increase.
void copy_curve(const Material& mat, const Model& model, GlobalId lcid, const char* what,
                std::vector<Real>& x, std::vector<Real>& y);

/// Isotropic elasticity from E and PR (checked): G, K and Lame's lambda.
void prepare_elastic_constants(const Material& mat, MaterialParams& m);

/// Linear hardening from SIGY and ETAN (tangent modulus, checked against E):
/// Ep = E Et / (E - Et).
void prepare_linear_hardening(const Material& mat, MaterialParams& m);

/// Cowper-Symonds rate factor from SRC/SRP (the card's names of the two fields for messages).
void prepare_cowper_symonds(const Material& mat, MaterialParams& m, const char* cname,
                            const char* pname);

} // namespace parcae
