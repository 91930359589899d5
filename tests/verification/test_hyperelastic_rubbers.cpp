// *MAT_OGDEN_RUBBER (077_O) and *MAT_HYPERELASTIC_RUBBER (077_H) through the explicit solver: a
// unit cube of rubber (one hexahedron on rollers, its sides free) pulled slowly to twice its
// height. Its nominal stress (sigma_zz times the current cross-section) must follow the
// incompressible closed forms
//   Ogden:      P = sum_j MU_j (l^(ALPHA_j - 1) - l^(-ALPHA_j/2 - 1)),
//   polynomial: P = 2 (l - 1/l^2)(W1 + W2 / l)  (Treloar),
// to 1 % of the value at l = 2 (PR = 0.4995: K = 1000 G, so the cube is nearly incompressible;
// the pull, 1 ms, is slow against the shear wave's transit, 30 us), and the energy must balance
// (the stored energy is the law's potential: the gap between the work done and the kinetic plus
// stored energy may not drift by more than 1e-3 of the stored energy).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

void pull_follows(const std::string& name, const std::string& mat_card,
                  const std::function<double(double)>& nominal_of) {
  const double t1 = 1e-3;
  std::string d = "*KEYWORD\n";
  d += fmt::format("*CONTROL_TERMINATION\n{:10.4e}\n", t1);
  d += "*PART\nrubber\n         1         1         1\n*SECTION_SOLID\n         1         1\n";
  d += mat_card + roller_cube_cards(t1, 1.0, false) + "*END\n";
  Model model = read_deck_text(name, d);
  RunOptions opt = quiet_run(name);
  opt.stats_every_cycle = true;
  double worst = 0, lmax = 0, gap0 = 0, gap = 0, ie_max = 0;
  int checked = 0;
  const double p2 = nominal_of(2.0);
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
    double h = 0, wx = 0, wy = 0;
    for (std::size_t n = 0; n < dom.nnode; ++n) {
      const GlobalId id = dom.node_id[n];
      if (id >= 5) h += 0.25 * dom.x[3 * n + 2];
      if (id == 2 || id == 4 || id == 6 || id == 8) wx += 0.25 * dom.x[3 * n];
      if (id == 3 || id == 4 || id == 7 || id == 8) wy += 0.25 * dom.x[3 * n + 1];
    }
    lmax = std::max(lmax, h);
    const double nominal = dom.solids[0].blk.sig[2] * wx * wy;
    if (s.time > 1e-4) {
      worst = std::max(worst, std::abs(nominal - nominal_of(h)) / p2);
      ++checked;
    }
    gap = s.kinetic + s.internal - s.external_work;
    if (s.time <= 1e-4) gap0 = gap;
    ie_max = std::max(ie_max, s.internal);
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  std::printf("%s cube: %d cycles, height up to %.4f, worst |nominal - closed form| %.3e of the "
              "value at 2; energy gap drift %.3e of the largest internal energy\n",
              name.c_str(), checked, lmax, worst, (gap - gap0) / ie_max);
  EXPECT_GT(checked, 500);
  EXPECT_NEAR(lmax, 2.0, 1e-3);
  EXPECT_LT(worst, 1e-2);
  EXPECT_LT(std::abs(gap - gap0), 1e-3 * ie_max);
}

} // namespace

TEST(HyperelasticRubbers, OgdenCubePullFollowsTheIncompressibleClosedForm) {
  const double mu1 = 0.63, a1 = 1.3, mu2 = 0.0012, a2 = 5.0, mu3 = -0.01, a3 = -2.0;
  const std::string card = fmt::format("*MAT_OGDEN_RUBBER\n1,1.1e-9,0.4995,0\n{},{},{}\n{},{},{}\n",
                                       mu1, mu2, mu3, a1, a2, a3);
  pull_follows("ogden077", card, [&](double l) {
    double p = 0;
    for (auto [mu, a] : {std::pair{mu1, a1}, std::pair{mu2, a2}, std::pair{mu3, a3}})
      p += mu * (std::pow(l, a - 1) - std::pow(l, -a / 2 - 1));
    return p;
  });
}

TEST(HyperelasticRubbers, PolynomialCubePullFollowsTreloar) {
  const double c10 = 0.28, c01 = 0.07, c11 = 0.004, c20 = -0.002, c02 = 0.001, c30 = 0.0005;
  const std::string card = fmt::format("*MAT_HYPERELASTIC_RUBBER\n1,1.1e-9,0.4995,0\n"
                                       "{},{},{},{},{},{}\n",
                                       c10, c01, c11, c20, c02, c30);
  pull_follows("poly077", card, [&](double l) {
    const double a = l * l + 2 / l - 3, c = 2 * l + 1 / (l * l) - 3;
    const double w1 = c10 + c11 * c + 2 * c20 * a + 3 * c30 * a * a;
    const double w2 = c01 + c11 * a + 2 * c02 * c;
    return 2 * (l - 1 / (l * l)) * (w1 + w2 / l);
  });
}
