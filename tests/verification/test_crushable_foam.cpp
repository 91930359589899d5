// *MAT_CRUSHABLE_FOAM (063) through the explicit solver: a unit cube of foam (one hexahedron,
// PR = 0) crushed in uniaxial strain by its top face at a constant speed to 60 % and then drawn
// back by 10 %. With PR = 0 the lateral stresses vanish, and the foam's volumetric strain is the
// engineering strain of the height: gamma = 1 - h / h0. Closed form: sigma_zz = -Y(gamma) on the
// crush once past the elastic line (E ln(h0/h) > Y); on the way back elastic at E, reaching the
// tensile cutoff TSC after Y / E. The stress is read from the element every cycle. The stress of
// a cycle comes from the strain increments of the step that ended in it (the law integrates
// gamma from them), while on_cycle sees the nodes already moved on, so the closed form is
// bracketed: -sigma_zz must lie between Y at the height of the previous cycle and Y one step
// (v dt = 6e-4) beyond the current one (the curve is increasing). The step beyond covers the
// drift of the integrated volumetric strain from ln(h0 / h): the element's strain increments
// are first-order accurate, and their sum exceeds ln(h0 / h) by about (v dt / 2)(1 / h - 1),
// 4e-4 at the end of the crush. A law that read the curve at a strain off by more than a step,
// or scaled it, fails.
#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr double kEf = 20.0, kTsc = 0.05, kRho = 3.0e-11;
const std::vector<double> kGx = {0.0, 0.05, 0.6, 0.8}, kGy = {0.2, 0.3, 1.0, 5.0};

double yield(double g) {
  if (g <= kGx.front()) return kGy.front();
  std::size_t i = 1;
  while (i + 1 < kGx.size() && g > kGx[i]) ++i;
  return kGy[i - 1] + (g - kGx[i - 1]) * (kGy[i] - kGy[i - 1]) / (kGx[i] - kGx[i - 1]);
}

} // namespace

TEST(CrushableFoam, UniaxialCrushFollowsTheCurveAndUnloadsElastically) {
  const double t1 = 1.0e-3, t2 = 1.2e-3; // crush 0.6 by t1, back to 0.5 by t2
  std::string d = "*KEYWORD\n";
  d += fmt::format("*CONTROL_TERMINATION\n{:10.4e}\n", t2);
  d += "*PART\nfoam\n         1         1         1\n*SECTION_SOLID\n         1         1\n";
  d += fmt::format("*MAT_CRUSHABLE_FOAM\n         1{:10.3e}{:10.3f}       0.0         7{:10.3f}\n",
                   kRho, kEf, kTsc);
  d += "*DEFINE_CURVE\n         7\n";
  for (std::size_t i = 0; i < kGx.size(); ++i)
    d += fmt::format("{:20.6f}{:20.6f}\n", kGx[i], kGy[i]);
  // roller_cube_cards' curve 1 runs (0, 0) -> (t1, -0.6); a third point draws it back
  std::string cube = roller_cube_cards(t1, -0.6, true);
  const std::string last = fmt::format("{:20.10e}{:20.10e}\n", t1, -0.6);
  cube.insert(cube.find(last) + last.size(), fmt::format("{:20.10e}{:20.10e}\n", t2, -0.5));
  d += cube + "*END\n";
  Model model = read_deck_text("foam063", d);
  RunOptions opt = quiet_run("foam063");
  int checked_crush = 0, checked_tension = 0;
  double gamma_max = 0, h_prev = 1;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
    // top face height (nodes 5-8 at z = 1 initially)
    double h = 0;
    for (std::size_t n = 0; n < dom.nnode; ++n)
      if (dom.node_id[n] >= 5) h += 0.25 * dom.x[3 * n + 2];
    const double gamma = 1 - h, gamma_prev = 1 - h_prev;
    h_prev = h;
    const double szz = dom.solids[0].blk.sig[2];
    EXPECT_NEAR(dom.solids[0].blk.sig[0], 0.0, 1e-12);
    EXPECT_NEAR(dom.solids[0].blk.sig[1], 0.0, 1e-12);
    if (s.time <= t1) {
      gamma_max = std::max(gamma_max, gamma);
      if (kEf * std::log(1 / (1 - gamma_prev)) > 1.01 * yield(gamma)) {
        const double lo = yield(gamma_prev), hi = yield(2 * gamma - gamma_prev);
        EXPECT_GE(-szz, lo * (1 - 1e-9)) << "t = " << s.time << " gamma = " << gamma;
        EXPECT_LE(-szz, hi * (1 + 1e-9)) << "t = " << s.time << " gamma = " << gamma;
        ++checked_crush;
      }
    } else if (gamma < gamma_max - 1.2 * yield(gamma_max) / kEf) {
      EXPECT_NEAR(szz, kTsc, 1e-9) << "t = " << s.time;
      ++checked_tension;
    }
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  EXPECT_GT(checked_crush, 500);
  EXPECT_GT(checked_tension, 20);
  EXPECT_NEAR(gamma_max, 0.6, 1e-3);
}

// The foam has no one-dimensional form: trusses of it are refused at set-up, not run as elastic.
TEST(CrushableFoam, TrussesAreRefused) {
  const std::string d =
      "*KEYWORD\n*CONTROL_TERMINATION\n1.0e-3\n*PART\nrod\n1,1,1\n*SECTION_BEAM\n1,3\n1.0\n"
      "*MAT_CRUSHABLE_FOAM\n1,3e-11,20,0,7\n*DEFINE_CURVE\n7\n0,0.2\n1,1\n*NODE\n1,0,0,0\n"
      "2,10,0,0\n*ELEMENT_BEAM\n1,1,1,2\n*END\n";
  Model model = read_deck_text("foam_truss", d);
  std::string err;
  try {
    const RunSummary sum = run_explicit(model, quiet_run("foam_truss"));
    err = sum.error;
  } catch (const InputError& e) {
    err = e.what();
  }
  EXPECT_NE(err.find("trusses (part 1) are not supported"), std::string::npos) << err;
}
