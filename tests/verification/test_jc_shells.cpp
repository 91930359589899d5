// *MAT_JOHNSON_COOK on shells through the explicit solver: a 100 x 20 x 1.5 mm aluminium strip
// (Johnson-Cook A = 300, B = 430 MPa, N = 0.35) clamped at one end and pulled at the other to
// ~19 % strain in 2 ms, without an equation of state.
//  - Without heating (CP = 0) and rate term (C = 0) its hardening is *MAT_098's at C = 0: the
//    strip's internal energy follows the *MAT_SIMPLIFIED_JOHNSON_COOK strip's to 1e-5 all the
//    way (two different plane-stress returns of the same yield function);
//  - with adiabatic heating (CP = 9e8 mm^2/s^2/K, aluminium's 900 J/kg/K) the strip is softer:
//    the plastic work ~105 MPa heats it by W / (RO CP) ~ 43 K, T* ~ 0.07 at the end, so the
//    internal energy drops by a few per cent (between 1 and 6 %), and the energy balance holds.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

std::string strip_deck(const std::string& material) {
  std::string d = "*KEYWORD\n*CONTROL_TERMINATION\n   2.0e-3\n";
  d += shell_grid_cards(20, 4, 100.0, 20.0, 1);
  d += "*PART\nstrip\n         1         1         1\n*SECTION_SHELL\n         1         2     "
       "0.833         5\n       1.5       1.5       1.5       1.5\n";
  d += material;
  std::vector<long> left, right;
  for (int j = 0; j <= 4; ++j) {
    left.push_back(1 + 21 * j);
    right.push_back(21 + 21 * j);
  }
  d += node_set_card(1, left) + node_set_card(2, right);
  d += "*BOUNDARY_SPC_SET\n         1         0         1         1         1         1         "
       "1         1\n";
  d += "*BOUNDARY_PRESCRIBED_MOTION_SET\n         2         1         0         1       1.0\n";
  d += "*DEFINE_CURVE\n         1\n0.0,0.0\n2.0e-4,10000.0\n1.0,10000.0\n*END\n";
  return d;
}

std::string jc(const char* cp) {
  return fmt::format("*MAT_JOHNSON_COOK\n         1  2.70E-09   26315.8   70000.0      0.33\n"
                     "     300.0     430.0      0.35       0.0       1.0     900.0     293.0\n"
                     "{:>10}\n",
                     cp);
}

struct Energies {
  std::vector<double> internal;
  double ratio = 0;
};

Energies run(const std::string& tag, const std::string& deck) {
  Model model = read_deck_text(tag, deck);
  RunOptions opt = quiet_run(tag);
  Energies e;
  opt.on_cycle = [&](const Domain&, const GlobalStats& g) {
    e.internal.push_back(g.internal);
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  EXPECT_TRUE(sum.normal_termination) << sum.error;
  e.ratio = 1 + sum.energy_error;
  return e;
}

} // namespace

TEST(JohnsonCookShells, StripHardensAsMat098AndSoftensWithHeating) {
  const auto cold = run("jc_cold", strip_deck(jc("0.0")));
  const auto mat098 = run("jc_098", strip_deck("*MAT_SIMPLIFIED_JOHNSON_COOK\n         1  2.70E-09"
                                               "   70000.0      0.33\n     300.0     430.0      "
                                               "0.35       0.0\n"));
  const auto hot = run("jc_hot", strip_deck(jc("9.0E+08")));
  ASSERT_EQ(cold.internal.size(), mat098.internal.size());
  double gap = 0;
  for (std::size_t k = 0; k < cold.internal.size(); ++k)
    gap = std::max(gap, std::abs(cold.internal[k] - mat098.internal[k]));
  gap /= mat098.internal.back();
  const double drop = 1 - hot.internal.back() / cold.internal.back();
  std::printf("internal energy: JC %.6e, MAT_098 %.6e (gap %.2e), heated %.6e (%.2f %% lower); "
              "energy ratios %.6f %.6f\n",
              cold.internal.back(), mat098.internal.back(), gap, hot.internal.back(), 100 * drop,
              cold.ratio, hot.ratio);
  EXPECT_GT(cold.internal.back(), 2e5); // ~ 550 MPa x 0.19 x 3000 mm^3 of plastic work
  EXPECT_LT(gap, 1e-5);
  EXPECT_GT(drop, 0.01);
  EXPECT_LT(drop, 0.06);
  EXPECT_NEAR(cold.ratio, 1.0, 2e-3);
  EXPECT_NEAR(hot.ratio, 1.0, 2e-3);
}
