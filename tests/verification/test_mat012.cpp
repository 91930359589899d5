// *MAT_ISOTROPIC_ELASTIC_PLASTIC (012) through the whole solver: a unit cube in quasi-static
// uniaxial stress against the 1-D bilinear path (yield, hardening with slope ETAN, elastic
// unloading, reverse yield at the current radius), and the copper Taylor bar of
// examples/taylor_bar with the *MAT_003 card (BETA = 1) replaced by the same material given as
// *MAT_012 (G = E/(2(1 + nu)), BULK = E/(3(1 - 2 nu))): the same isotropic linear hardening, so
// the same final shape (to round-off of the moduli) and the energy balanced to 1%. Shell parts
// are refused with an error naming the card.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr double kE = 210000.0, kNu = 0.3, kSigy = 250.0, kEtan = 2100.0;

/// *MAT_012 card with E = 210000, nu = 0.3 given as G and BULK.
std::string mat012_card(double sigy = kSigy, double etan = kEtan) {
  return fmt::format("*MAT_ISOTROPIC_ELASTIC_PLASTIC\n1,7.85e-9,{:.17g},{},{},{:.17g}\n",
                     kE / (2 * (1 + kNu)), sigy, etan, kE / (3 * (1 - 2 * kNu)));
}

/// Unit cube (roller supports on x = 0, y = 0, z = 0), top face moved by the curve (t_k, u_k);
/// samples (log strain, sigma_zz).
std::vector<std::pair<double, double>> run_cube(const std::vector<double>& tk,
                                                const std::vector<double>& uk) {
  std::string d = "*KEYWORD\n";
  d += fmt::format("*CONTROL_TERMINATION\n{:10.3e}\n", tk.back());
  d += "*PART\ncube\n         1         1         1\n*SECTION_SOLID\n         1         1\n";
  d += mat012_card();
  d += hex_block_cards(1, 1, 1, 1.0, 1.0, 1.0, 1);
  d += node_set_card(1, {1, 3, 5, 7});
  d += node_set_card(2, {1, 2, 5, 6});
  d += node_set_card(3, {1, 2, 3, 4});
  d += node_set_card(4, {5, 6, 7, 8});
  d += "*BOUNDARY_SPC_SET\n         1         0         1\n"
       "         2         0         0         1\n"
       "         3         0         0         0         1\n";
  d += "*BOUNDARY_PRESCRIBED_MOTION_SET\n         4         3         2         1       1.0\n";
  d += "*DEFINE_CURVE\n         1\n";
  for (std::size_t k = 0; k < tk.size(); ++k)
    d += fmt::format("{:20.10e}{:20.10e}\n", tk[k], uk[k]);
  d += "*END\n";
  Model model = read_deck_text("mat012_cube", d);
  RunOptions opt = quiet_run("mat012_cube");
  const LocalId top = model.node_index(8);
  std::vector<std::pair<double, double>> out;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats&) {
    out.emplace_back(std::log(dom.x[3 * top + 2]), dom.solids[0].blk.sig[2]);
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  EXPECT_TRUE(sum.normal_termination) << sum.error;
  return out;
}

} // namespace

TEST(Mat012OneElement, UniaxialStressBilinearPathWithUnloading) {
  const auto run = run_cube({0, 1e-3, 2e-3, 3e-3}, {0, 0.01, 0.005, -0.01});
  ASSERT_GT(run.size(), 100u);
  // 1-D reference: sigma = E (eps - eps_p), |sigma| <= sigy + Ep eps_p (isotropic hardening)
  const double ep_mod = kE * kEtan / (kE - kEtan);
  double sigma = 0, eps = 0, epsp = 0, worst = 0;
  for (const auto& [e, s] : run) {
    const double tr = sigma + kE * (e - eps);
    eps = e;
    const double r = kSigy + ep_mod * epsp;
    if (std::abs(tr) > r) {
      const double dl = (std::abs(tr) - r) / (kE + ep_mod);
      sigma = tr - kE * dl * (tr > 0 ? 1 : -1);
      epsp += dl;
    } else {
      sigma = tr;
    }
    worst = std::max(worst, std::abs(s - sigma));
    ASSERT_NEAR(s, sigma, 0.01 * kSigy) << "at strain " << e;
  }
  EXPECT_GT(epsp, 0.01);
  std::printf("worst stress error %.4f MPa over %zu samples\n", worst, run.size());
}

namespace {

struct TaylorResult {
  double length = 0, foot = 0, max_epsp = 0, energy_error = 0;
};

TaylorResult run_taylor(const std::string& material, const std::string& tag) {
  const auto dir = source_dir() / "examples" / "taylor_bar";
  std::string deck = read_file(dir / "taylor_bar.k");
  const auto a = deck.find("*MAT_PLASTIC_KINEMATIC_TITLE");
  const auto b = deck.find("*INITIAL_VELOCITY_GENERATION");
  EXPECT_NE(a, std::string::npos);
  if (!material.empty()) deck = deck.substr(0, a) + material + deck.substr(b);
  const std::string mesh = (dir / "taylor_bar_mesh.k").string();
  const auto inc = deck.find("taylor_bar_mesh.k");
  deck.replace(inc, std::string("taylor_bar_mesh.k").size(), mesh);
  Model model = read_deck_text(tag, deck);
  RunOptions opt = quiet_run(tag);
  std::vector<Real> x_end;
  TaylorResult r;
  const Real endtim = model.control.endtim;
  opt.on_cycle = [&](const Domain& d, const GlobalStats& s) {
    if (s.time >= endtim * (1 - 1e-12)) {
      x_end = d.x;
      for (const auto& p : d.solids)
        for (Real e : p.blk.eps_p) r.max_epsp = std::max<double>(r.max_epsp, e);
    }
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  EXPECT_TRUE(sum.normal_termination) << sum.error;
  double ymin = 1e30, ymax = -1e30;
  for (std::size_t n = 0; n < x_end.size() / 3; ++n) {
    ymin = std::min<double>(ymin, x_end[3 * n + 1]);
    ymax = std::max<double>(ymax, x_end[3 * n + 1]);
    r.foot = std::max<double>(r.foot, std::hypot(x_end[3 * n], x_end[3 * n + 2]));
  }
  r.length = ymax - ymin;
  r.energy_error = sum.energy_error;
  return r;
}

} // namespace

TEST(Mat012TaylorBar, SameAsMat003IsotropicAndEnergyBalanced) {
  // examples/taylor_bar: E = 117000, nu = 0.35, SIGY = 400, ETAN = 100, BETA = 1.
  const std::string mat012 =
      fmt::format("*MAT_ISOTROPIC_ELASTIC_PLASTIC_TITLE\nOFHC copper (bilinear, *MAT_012)\n"
                  "1,8.93e-9,{:.17g},400.0,100.0,{:.17g}\n",
                  117000.0 / 2.7, 117000.0 / 0.9);
  const TaylorResult ref = run_taylor("", "mat012_taylor_003");
  const TaylorResult r = run_taylor(mat012, "mat012_taylor_012");
  std::printf("Taylor bar *MAT_012: length %.6f mm (003: %.6f), foot %.6f (%.6f), max eps_p "
              "%.6f (%.6f), energy error %.4f%%\n",
              r.length, ref.length, r.foot, ref.foot, r.max_epsp, ref.max_epsp,
              100 * r.energy_error);
  EXPECT_NEAR(r.length, ref.length, 1e-6 * ref.length);
  EXPECT_NEAR(r.foot, ref.foot, 1e-6 * ref.foot);
  EXPECT_NEAR(r.max_epsp, ref.max_epsp, 1e-5 * ref.max_epsp);
  EXPECT_NEAR(r.length, 21.45, 0.015 * 21.45);
  EXPECT_LT(r.energy_error, 0.01);
}

TEST(Mat012OneElement, ShellPartIsRefusedNamingTheCard) {
  std::string d = "*KEYWORD\n*CONTROL_TERMINATION\n1.0e-4\n";
  d += "*NODE\n1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n*ELEMENT_SHELL\n1,1,1,2,3,4\n";
  d += "*PART\nplate\n1,1,1\n*SECTION_SHELL\n1,2\n0.1,0.1,0.1,0.1\n";
  d += mat012_card();
  d += "*END\n";
  Model model = read_deck_text("mat012_shell", d);
  std::string error;
  try {
    const RunSummary sum = run_explicit(model, quiet_run("mat012_shell"));
    EXPECT_FALSE(sum.normal_termination);
    error = sum.error;
  } catch (const std::exception& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("*MAT_ISOTROPIC_ELASTIC_PLASTIC 1: shells (part 1) are not supported"),
            std::string::npos)
      << error;
}
