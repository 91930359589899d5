// *MAT_LOW_DENSITY_FOAM (057) through the explicit solver: a unit cube of foam (one hexahedron)
// crushed in uniaxial strain to 70 % by its top face and let back to 40 %. The law is
// hyperelastic with independent principal directions, so sigma_zz = -LCID(1 - h) (h the height)
// with no lateral stress, on loading and unloading alike (no hysteresis: HU = 1), and the run
// conserves energy: the prescribed motion's work is the stored energy, the curve's area. The
// stress of a cycle is that of the geometry the cycle started from (on_cycle sees the nodes
// moved on by v dt): the closed form is bracketed by the heights of the previous and the
// current cycle, to 1e-9. BVFLAG is left at 0, LS-DYNA's default: no bulk viscosity, so nothing
// is dissipated and the internal energy at h = 0.6 is the curve's area to 0.4: the element adds
// up stored-energy differences, which telescope, so to round-off (1e-9 allowed; measured 6e-15).
// The prescribed motion's work is a trapezoid sum: it balances to 1e-3 of the area (measured
// 1.7e-4).
#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

const std::vector<double> kCx = {0.0, 0.05, 0.5, 0.8}, kCy = {0.0, 0.01, 0.02, 0.2};

double curve(double s) {
  if (s <= 0) return 0;
  std::size_t i = 1;
  while (i + 1 < kCx.size() && s > kCx[i]) ++i;
  return kCy[i - 1] + (s - kCx[i - 1]) * (kCy[i] - kCy[i - 1]) / (kCx[i] - kCx[i - 1]);
}

} // namespace

TEST(LowDensityFoam, UniaxialCrushAndReleaseFollowTheCurve) {
  const double t1 = 1.0e-2, t2 = 1.5e-2;
  std::string d = "*KEYWORD\n";
  d += fmt::format("*CONTROL_TERMINATION\n{:10.4e}\n", t2);
  d += "*PART\nfoam\n         1         1         1\n*SECTION_SOLID\n         1         1\n";
  d += "*MAT_LOW_DENSITY_FOAM\n         1   5.0e-11       0.1         7      0.02\n";
  d += "*DEFINE_CURVE\n         7\n";
  for (std::size_t i = 0; i < kCx.size(); ++i)
    d += fmt::format("{:20.6f}{:20.6f}\n", kCx[i], kCy[i]);
  std::string cube = roller_cube_cards(t1, -0.7, true);
  const std::string last = fmt::format("{:20.10e}{:20.10e}\n", t1, -0.7);
  cube.insert(cube.find(last) + last.size(), fmt::format("{:20.10e}{:20.10e}\n", t2, -0.4));
  d += cube + "*END\n";
  Model model = read_deck_text("foam057", d);
  RunOptions opt = quiet_run("foam057");
  double h_prev = 1;
  int checked = 0;
  GlobalStats end;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
    double h = 0;
    for (std::size_t n = 0; n < dom.nnode; ++n)
      if (dom.node_id[n] >= 5) h += 0.25 * dom.x[3 * n + 2];
    const double szz = dom.solids[0].blk.sig[2];
    const double a = curve(1 - h_prev), b = curve(1 - h);
    EXPECT_GE(-szz, std::min(a, b) - 1e-9) << "t = " << s.time;
    EXPECT_LE(-szz, std::max(a, b) + 1e-9) << "t = " << s.time;
    EXPECT_NEAR(dom.solids[0].blk.sig[0], 0.0, 1e-12);
    ++checked;
    h_prev = h;
    end = s;
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  EXPECT_GT(checked, 500);
  // energy: the stored energy at h = 0.6 (the curve's area to 0.4) equals the work done
  const double area = 0.5 * 0.01 * 0.05 + 0.5 * (0.01 + curve(0.4)) * 0.35;
  EXPECT_NEAR(end.internal, area, 1e-9 * area);
  EXPECT_NEAR(end.external_work, end.internal + end.kinetic, 1e-3 * area);
}
