// 2-D solids against Lame's thick-walled cylinder: the decks of examples/thick_cylinder_* (a
// steel cylinder, radii 10 and 20 mm, held axially, its bore pushed out by 0.01 mm along a
// smooth ramp of about 12 breathing periods, then held) in the axisymmetric formulation
// (ELFORM 15, a radial strip) and in plane strain (ELFORM 13, a quarter of the section). At
// the end every element's radial and hoop stress at its centre must match
//   u = A r + B / r,  sigma_rr = 2 (l + G) A - 2 G B / r^2,  sigma_hoop = 2 (l + G) A + 2 G B /
//   r^2,
// sigma_zz = 2 l A (plane strain), with sigma_rr(b) = 0 and u(a) = 0.01 mm, to 1 % of the
// largest hoop stress (one-point elements, 10 through the wall: 0.3 % and 0.1 % measured; the
// residual vibration of the ramp is below 0.1 %), and the work done on the bore must equal the
// stored energy (energy ratio 1 to 1e-4) and Lame's, 1/2 |sigma_rr(a)| a u0 per radian
// (axisymmetric) or per unit length over the quarter arc (plane strain, whose 12-segment polygon is
// 0.3 % short of the arc: 1 %).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <numbers>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr double kA = 10, kB = 20, kU0 = 0.01, kE = 210000, kNu = 0.3;

struct Lame {
  double lam = kE * kNu / ((1 + kNu) * (1 - 2 * kNu)), g = kE / (2 * (1 + kNu));
  double a_coef = kU0 / (kA + (lam + g) / g * kB * kB / kA);
  double b_coef = (lam + g) / g * a_coef * kB * kB;
  [[nodiscard]] double rr(double r) const {
    return 2 * (lam + g) * a_coef - 2 * g * b_coef / (r * r);
  }
  [[nodiscard]] double hoop(double r) const {
    return 2 * (lam + g) * a_coef + 2 * g * b_coef / (r * r);
  }
};

struct Result {
  double worst = 0;    ///< largest stress error over the elements
  double hoop_max = 0; ///< largest Lame hoop stress (at the bore)
  double zz_worst = 0; ///< largest error of sigma_zz (plane strain: 2 l A)
  GlobalStats last;
};

Result run_cylinder(const std::string& name, bool axisymmetric) {
  const auto deck = std::filesystem::path(PARCAE_SOURCE_DIR) / "examples" / name / (name + ".k");
  const Model m = read_deck(deck.string());
  RunOptions o = quiet_run(name);
  Result res;
  const Lame lame;
  o.on_cycle = [&](const Domain& d, const GlobalStats& s) {
    res.last = s;
    if (s.time < 2.6e-4 * (1 - 1e-9)) return true;
    const ShellPart& sp = d.shells.at(0);
    for (std::size_t k = 0; k < sp.blk.size(); ++k) {
      double cx = 0, cy = 0;
      for (LocalId n : sp.blk.conn[k]) {
        cx += 0.25 * d.x[3 * static_cast<std::size_t>(n)];
        cy += 0.25 * d.x[3 * static_cast<std::size_t>(n) + 1];
      }
      const double* sg = &sp.blk.sig2d[6 * k];
      double srr = sg[0], shoop = sg[2], r = cx;
      if (!axisymmetric) { // polar components at the centre's angle
        r = std::hypot(cx, cy);
        const double c = cx / r, sn = cy / r;
        srr = sg[0] * c * c + sg[1] * sn * sn + 2 * sg[3] * c * sn;
        shoop = sg[0] * sn * sn + sg[1] * c * c - 2 * sg[3] * c * sn;
        res.zz_worst = std::max(res.zz_worst, std::abs(sg[2] - 2 * lame.lam * lame.a_coef));
      }
      res.worst = std::max({res.worst, std::abs(srr - lame.rr(r)), std::abs(shoop - lame.hoop(r))});
    }
    return true;
  };
  const RunSummary sum = run_explicit(m, o);
  EXPECT_TRUE(sum.normal_termination) << sum.error;
  res.hoop_max = lame.hoop(kA);
  std::printf("%s: worst stress error %.3f MPa of %.1f (hoop at the bore), energy ratio %.7f, "
              "internal %.5f\n",
              name.c_str(), res.worst, res.hoop_max, res.last.energy_ratio(), res.last.internal);
  return res;
}

} // namespace

TEST(Solid2dVerification, AxisymmetricThickCylinderIsLame) {
  const Result r = run_cylinder("thick_cylinder_axisymmetric", true);
  EXPECT_LT(r.worst, 0.01 * r.hoop_max);
  EXPECT_NEAR(r.last.energy_ratio(), 1.0, 1e-4);
  const Lame lame;
  const double work = 0.5 * std::abs(lame.rr(kA)) * kA * 1.0 * kU0; // per radian, height 1
  EXPECT_NEAR(r.last.internal, work, 0.01 * work);
}

TEST(Solid2dVerification, PlaneStrainThickCylinderIsLame) {
  const Result r = run_cylinder("thick_cylinder_plane_strain", false);
  EXPECT_LT(r.worst, 0.01 * r.hoop_max);
  EXPECT_LT(r.zz_worst, 0.01 * r.hoop_max);
  EXPECT_NEAR(r.last.energy_ratio(), 1.0, 1e-4);
  const Lame lame;
  const double work = 0.5 * std::abs(lame.rr(kA)) * kA * std::numbers::pi / 2 * kU0;
  EXPECT_NEAR(r.last.internal, work, 0.01 * work);
}

namespace {

std::string strip_deck(int elform, double x0) {
  return fmt::format("*KEYWORD\n*CONTROL_TERMINATION\n    1.0e-5\n*PART\nstrip\n         1         "
                     "1         1\n*SECTION_SHELL\n         1{:10d}\n*MAT_ELASTIC\n         1   "
                     "7.85e-9  210000.0       0.3\n*NODE\n       1{:16.6f}             0.0\n       "
                     "2{:16.6f}             0.0\n       3{:16.6f}             1.0\n       "
                     "4{:16.6f}             1.0\n*ELEMENT_SHELL\n       1       1       1       2  "
                     "     3       4\n*END\n",
                     elform, x0, x0 + 1, x0 + 1, x0);
}

} // namespace

// LS-DYNA's other 2-D forms are refused by name, and an axisymmetric mesh across the axis is
// refused at the node (a clockwise element is the same element, and runs).
TEST(Solid2dVerification, UnsupportedFormsAndBadMeshesAreRefused) {
  for (int elform : {12, 14}) {
    try {
      (void)read_deck_text("solid2d_form", strip_deck(elform, 1.0));
      ADD_FAILURE() << "ELFORM " << elform << " was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(fmt::format("ELFORM {}", elform)), std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("*SECTION_SHELL"), std::string::npos) << e.what();
    }
  }
  const Model across = read_deck_text("solid2d_axis", strip_deck(15, -0.5));
  try {
    (void)build_domain(across);
    ADD_FAILURE() << "a negative radius was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("radius"), std::string::npos) << e.what();
  }
  std::string cw = strip_deck(13, 1.0);
  const auto at = cw.find("       1       2       3       4");
  ASSERT_NE(at, std::string::npos);
  cw.replace(at, 32, "       1       4       3       2");
  const Domain d = build_domain(read_deck_text("solid2d_cw", cw));
  ASSERT_EQ(d.shells.size(), 1u);
  EXPECT_EQ(d.shells[0].blk.planar, Planar::PlaneStrain);
  for (std::size_t n = 0; n < d.nnode; ++n) {
    EXPECT_TRUE(d.spc[n][2]);   // planar: no z motion
    EXPECT_EQ(d.has_rot[n], 0); // and no rotational dofs
  }
}
