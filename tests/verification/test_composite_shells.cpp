// Layered shells (*PART_COMPOSITE, *ELEMENT_SHELL_OFFSET_COMPOSITE, *ELEMENT_SHELL_BETA, NLOC),
// read from decks and set up by build_domain, against classical laminate theory: a flat unit
// square stretched along x (a uniform strain increment, eps_y = gamma = 0) carries the membrane
// forces N = A eps and the moments M = B eps about the nodal plane, with A = sum Qbar_k t_k and
// B = sum Qbar_k (z_top^2 - z_bot^2) / 2 over the layers (each layer one point at its middle,
// exact for a strain constant through the layer); Qbar_k is the layer's plane-stress stiffness
// turned by its angle, computed here by turning the strain into the layer's axes and the stress
// back. Bending (a curvature increment) gives M = D kappa with the layers' one-point rule,
// which the test states and bounds against the exact D. Layers of different laws (orthotropic
// *MAT_002 at +30 and -45 degrees, isotropic *MAT_001) and an offset reference surface are in it.
// A layered element whose points are the section's own rule runs the plain kernel and must
// agree with the optimised kernel of the same part without layers (plastic *MAT_024, random
// motion). The lumped mass is the layers' and the layered shells' rotary inertia is the layers'
// second moment about the nodes.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <numbers>
#include <random>

#include <fmt/format.h>

#include "fem/shell_bt.hpp"
#include "solvers/common/domain.hpp"
#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr Real kEa = 120000, kEb = 9000, kPrba = 0.02, kGab = 4500, kE1 = 70000, kNu1 = 0.3;
constexpr Real kRoOrtho = 1.5e-9, kRoIso = 2.7e-9;

std::string square(int first_node, Real x0) {
  return fmt::format("{:8d}{:16.6f}{:16.6f}{:16.6f}\n{:8d}{:16.6f}{:16.6f}{:16.6f}\n"
                     "{:8d}{:16.6f}{:16.6f}{:16.6f}\n{:8d}{:16.6f}{:16.6f}{:16.6f}\n",
                     first_node, x0, 0.0, 0.0, first_node + 1, x0 + 1, 0.0, 0.0, first_node + 2,
                     x0 + 1, 1.0, 0.0, first_node + 3, x0, 1.0, 0.0);
}

std::string materials() {
  return fmt::format("*MAT_ORTHOTROPIC_ELASTIC\n{:10d}{:10.3e}{:10.1f}{:10.1f}{:10.1f}{:10.4f}\n"
                     "{:10.1f}\n\n\n",
                     2, kRoOrtho, kEa, kEb, kEb, kPrba, kGab) +
         fmt::format("*MAT_ELASTIC\n{:10d}{:10.3e}{:10.1f}{:10.3f}\n", 3, kRoIso, kE1, kNu1);
}

/// Part 1: *PART_COMPOSITE layers (MAT 2 at +30, MAT 3, MAT 2 at -45; 0.3, 0.5, 0.2), element 1;
/// part 2: a *SECTION_SHELL part whose element 2 has its own layers (MAT 2 at 0, 0.4; MAT 2 at
/// 90, 0.6) with its reference surface OFFSET 0.25 above the nodes.
std::string laminate_deck() {
  std::string d = "*KEYWORD\n*CONTROL_TERMINATION\n1.0e-3\n";
  d += "*PART_COMPOSITE\nlaminate\n         1         2    0.8333\n"
       "         2       0.3      30.0         0         3       0.5       0.0         0\n"
       "         2       0.2     -45.0         0\n";
  d += "*PART\nskin\n         2         2         2\n";
  d += "*SECTION_SHELL\n         2         2    0.8333         2\n       1.0       1.0       "
       "1.0       1.0\n";
  d += materials();
  d += "*NODE\n" + square(1, 0.0) + square(5, 3.0);
  d += "*ELEMENT_SHELL\n       1       1       1       2       3       4\n";
  d += "*ELEMENT_SHELL_OFFSET_COMPOSITE\n       2       2       5       6       7       8\n"
       "          0.2500\n"
       "         2       0.4       0.0                   2       0.6      90.0\n";
  return d + "*END\n";
}

struct Layer {
  bool ortho;
  Real thick, angle_deg;
};

/// The plane-stress stress [xx yy xy] of a layer for the strain [xx yy gxy] (engineering), in
/// the element's axes.
std::array<Real, 3> layer_stress(const Layer& l, const std::array<Real, 3>& e) {
  if (!l.ortho) {
    const Real c = kE1 / (1 - kNu1 * kNu1);
    return {c * (e[0] + kNu1 * e[1]), c * (kNu1 * e[0] + e[1]), kE1 / (2 * (1 + kNu1)) * e[2]};
  }
  const Real th = l.angle_deg * std::numbers::pi / 180, c = std::cos(th), s = std::sin(th);
  // strain into the axes (a at +theta): tensor shear ex y = g / 2
  const Real exy = 0.5 * e[2];
  const Real ea = c * c * e[0] + s * s * e[1] + 2 * s * c * exy;
  const Real eb = s * s * e[0] + c * c * e[1] - 2 * s * c * exy;
  const Real gab = 2 * (-s * c * e[0] + s * c * e[1] + (c * c - s * s) * exy);
  const Real prab = kPrba * kEa / kEb, den = 1 - prab * kPrba;
  const Real sa = (kEa * ea + kPrba * kEa * eb) / den, sb = (prab * kEb * ea + kEb * eb) / den,
             tab = kGab * gab;
  return {c * c * sa + s * s * sb - 2 * s * c * tab, s * s * sa + c * c * sb + 2 * s * c * tab,
          s * c * sa - s * c * sb + (c * c - s * s) * tab};
}

/// N [xx yy xy] and M [xx yy] of element e of part p (a unit square in the x-y plane, its axes
/// the global ones) after one step of velocities v (w: angular), from its corner forces.
struct Resultants {
  std::array<Real, 3> n{};
  std::array<Real, 2> m{};
};
Resultants one_step(Domain& d, std::size_t p, const std::vector<Real>& v,
                    const std::vector<Real>& w, Real dt) {
  ShellPart& sp = d.shells[p];
  const std::size_t ne = sp.blk.size();
  std::vector<Real> fe(12 * ne), me(12 * ne);
  (void)compute_shell_forces(sp.opt, sp.mat, sp.blk, 0, ne, d.x0, v, w, dt, fe, me);
  Resultants r;
  for (int a = 0; a < 4; ++a) {
    const auto n = static_cast<std::size_t>(sp.blk.conn[0][static_cast<std::size_t>(a)]);
    const Real x = d.x0[3 * n] - d.x0[3 * sp.blk.conn[0][0]], y = d.x0[3 * n + 1];
    r.n[0] += fe[3 * a] * x;
    r.n[1] += fe[3 * a + 1] * y;
    r.n[2] += fe[3 * a] * y;
    r.m[0] += me[3 * a + 1] * x;
    r.m[1] -= me[3 * a] * y;
  }
  return r;
}

/// Velocities giving element e of part p the strain rate ex along x about its first node (a
/// curvature rate kx about y when bending).
void stretch(const Domain& d, const ShellPart& sp, Real rate, bool bending, std::vector<Real>& v,
             std::vector<Real>& w) {
  v.assign(3 * d.nnode, 0.0);
  w.assign(3 * d.nnode, 0.0);
  const Real x0 = d.x0[3 * static_cast<std::size_t>(sp.blk.conn[0][0])];
  for (auto n : sp.blk.conn[0]) {
    const auto k = static_cast<std::size_t>(n);
    const Real x = d.x0[3 * k] - x0;
    if (bending) {
      w[3 * k + 1] = rate * x; // theta_y = kx x: kappa_xx = d theta_y / dx
      v[3 * k + 2] = -0.5 * rate * x * x;
    } else {
      v[3 * k] = rate * x;
    }
  }
}

void check_membrane(Domain& d, std::size_t p, const std::vector<Layer>& layers, Real offset) {
  const ShellPart& sp = d.shells[p];
  std::vector<Real> v, w;
  const Real rate = 1e-3, dt = 1e-3, de = rate * dt;
  stretch(d, sp, rate, false, v, w);
  const Resultants r = one_step(d, p, v, w, dt);
  Real t = 0;
  for (const Layer& l : layers) t += l.thick;
  std::array<Real, 3> n{};
  std::array<Real, 2> m{};
  Real below = -t / 2 + offset;
  for (const Layer& l : layers) {
    const auto s = layer_stress(l, {de, 0, 0});
    const Real zb = below, zt = below + l.thick;
    for (int i = 0; i < 3; ++i) n[i] += s[i] * l.thick;
    for (int i = 0; i < 2; ++i) m[i] += s[i] * (zt * zt - zb * zb) / 2;
    below = zt;
  }
  const Real scale = std::abs(n[0]);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(r.n[i], n[i], 1e-10 * scale) << "N" << i << " part " << p;
  for (int i = 0; i < 2; ++i) EXPECT_NEAR(r.m[i], m[i], 1e-10 * scale) << "M" << i << " part " << p;
}

} // namespace

TEST(CompositeShells, MembraneStretchGivesLaminateTheorysAAndB) {
  const Model model = read_deck_text("composite_ab", laminate_deck());
  Domain d = build_domain(model);
  ASSERT_EQ(d.shells.size(), 2u);
  ASSERT_TRUE(d.shells[0].blk.layered());
  ASSERT_TRUE(d.shells[1].blk.layered());
  check_membrane(d, 0, {{true, 0.3, 30}, {false, 0.5, 0}, {true, 0.2, -45}}, 0.0);
  check_membrane(d, 1, {{true, 0.4, 0}, {true, 0.6, 90}}, 0.25);
}

// Bending: M = D kappa with each layer's point at its middle (the rule LS-DYNA's composites use
// too): D_one_point = sum Qbar t z_mid^2, which misses each layer's own bending, sum Qbar t^3 /
// 12, of the exact sum Qbar (z_t^3 - z_b^3) / 3 (thin layers make it small).
TEST(CompositeShells, BendingGivesTheLayersOnePointD) {
  Domain d = build_domain(read_deck_text("composite_d", laminate_deck()));
  const std::vector<Layer> layers{{true, 0.3, 30}, {false, 0.5, 0}, {true, 0.2, -45}};
  std::vector<Real> v, w;
  const Real rate = 1e-3, dt = 1e-3, dk = rate * dt;
  stretch(d, d.shells[0], rate, true, v, w);
  const Resultants r = one_step(d, 0, v, w, dt);
  Real below = -0.5, m_point = 0;
  for (const Layer& l : layers) {
    const Real zb = below, zt = below + l.thick, zm = 0.5 * (zb + zt);
    const auto s = layer_stress(l, {dk, 0, 0}); // stress per unit strain at z: s * z
    m_point += s[0] * l.thick * zm * zm;
    below = zt;
  }
  EXPECT_NEAR(r.m[0], m_point, 1e-10 * std::abs(m_point));
}

TEST(CompositeShells, MassAndRotaryInertiaAreTheLayers) {
  const Domain d = build_domain(read_deck_text("composite_mass", laminate_deck()));
  // part 1: areal mass 0.3 + 0.2 of MAT 2, 0.5 of MAT 3; one quarter at each corner
  const Real areal = kRoOrtho * 0.5 + kRoIso * 0.5;
  for (std::size_t n = 0; n < 4; ++n) EXPECT_NEAR(d.mass[n], areal / 4, 1e-12 * areal);
  // part 2 (offset 0.25, unit thickness): layers from -0.25 to 0.15 and 0.15 to 0.75
  const Real areal2 = kRoOrtho * 1.0;
  for (std::size_t n = 4; n < 8; ++n) EXPECT_NEAR(d.mass[n], areal2 / 4, 1e-12 * areal2);
  // part 1: layers [-0.5, -0.2] and [0.3, 0.5] of MAT 2, [-0.2, 0.3] of MAT 3
  auto cube = [](Real a, Real b) { return (b * b * b - a * a * a) / 3; };
  const Real j1 = (kRoOrtho * (cube(-0.5, -0.2) + cube(0.3, 0.5)) + kRoIso * cube(-0.2, 0.3)) /
                  (kRoOrtho * 0.5 + kRoIso * 0.5);
  EXPECT_NEAR(d.shells[0].blk.layer_j[0], j1, 1e-12);
  EXPECT_NEAR(d.shells[0].blk.layer_c[0],
              std::max(std::sqrt(d.shells[0].mat.e / kRoOrtho),
                       std::sqrt(kE1 / (kRoIso * (1 - kNu1 * kNu1)))),
              1e-6);
  const ShellBlock& b = d.shells[1].blk;
  const Real j = (std::pow(0.75, 3) - std::pow(-0.25, 3)) / 3; // int z^2 dz, t = 1
  EXPECT_NEAR(b.layer_j[0], j, 1e-12);
  EXPECT_NEAR(d.shells[1].blk.layer_c[0], std::sqrt(d.shells[1].mat.e / kRoOrtho), 1e-9);
}

// A layered element whose points are the section's (*ELEMENT_SHELL_BETA) runs the plain kernel
// with its per-element points; the same part without _BETA runs the optimised kernel. Random
// motion, 40 steps: the same forces. Twice: a plastic law (BETA 0), and an orthotropic one with
// ICOMP angles whose element BETA equals the material's own (the same axes either way).
TEST(CompositeShells, LayeredPathAgreesWithTheOptimisedKernel) {
  auto deck = [](bool beta, bool ortho) {
    std::string d = "*KEYWORD\n*CONTROL_TERMINATION\n1.0e-3\n";
    d += "*PART\nplate\n         1         1         1\n";
    d += ortho ? "*SECTION_SHELL\n         1         2    0.8333         3                   "
                 "           1\n       0.8       0.8       0.8       0.8\n"
                 "      10.0     -35.0      80.0\n"
               : "*SECTION_SHELL\n         1         2    0.8333         5\n       0.8       0.8"
                 "       0.8       0.8\n";
    d += ortho ? fmt::format("*MAT_ORTHOTROPIC_ELASTIC\n{:10d}{:10.3e}{:10.1f}{:10.1f}{:10.1f}"
                             "{:10.4f}\n{:10.1f}\n\n{:60s}{:10.1f}\n",
                             1, kRoOrtho, kEa, kEb, kEb, kPrba, kGab, "", 25.0)
               : "*MAT_PIECEWISE_LINEAR_PLASTICITY\n         1   7.8e-09  210000.0       0.3     "
                 "300.0    1000.0\n\n\n\n";
    d += "*NODE\n" + square(1, 0.0);
    d += beta ? fmt::format("*ELEMENT_SHELL_BETA\n       1       1       1       2       3       "
                            "4\n{:16.1f}{:16.1f}{:16.1f}{:16.1f}{:16.1f}\n",
                            0.0, 0.0, 0.0, 0.0, ortho ? 25.0 : 0.0)
              : "*ELEMENT_SHELL\n       1       1       1       2       3       4\n";
    return d + "*END\n";
  };
  for (bool ortho : {false, true}) {
    Domain plain = build_domain(read_deck_text("layered_plain", deck(false, ortho)));
    Domain layered = build_domain(read_deck_text("layered_beta", deck(true, ortho)));
    ASSERT_FALSE(plain.shells[0].blk.layered());
    ASSERT_TRUE(layered.shells[0].blk.layered());
    std::mt19937 rng(7);
    std::uniform_real_distribution<Real> u(-1.0, 1.0);
    std::vector<Real> v(3 * plain.nnode), w(3 * plain.nnode);
    std::vector<Real> f1(12), m1(12), f2(12), m2(12);
    Real scale = 0;
    for (int step = 0; step < 40; ++step) {
      for (auto& x : v) x = 20.0 * u(rng);
      for (auto& x : w) x = 2.0 * u(rng);
      auto& a = plain.shells[0];
      auto& b = layered.shells[0];
      (void)compute_shell_forces(a.opt, a.mat, a.blk, 0, 1, plain.x0, v, w, 1e-4, f1, m1);
      (void)compute_shell_forces(b.opt, b.mat, b.blk, 0, 1, layered.x0, v, w, 1e-4, f2, m2);
      for (int k = 0; k < 12; ++k) {
        scale = std::max(scale, std::abs(f1[k]));
        EXPECT_NEAR(f1[k], f2[k], 1e-9 * (1 + std::abs(f1[k]))) << "step " << step;
        EXPECT_NEAR(m1[k], m2[k], 1e-9 * (1 + std::abs(m1[k]))) << "step " << step;
      }
    }
    EXPECT_GT(scale, 1.0); // the motion loads the element
    if (!ortho)
      EXPECT_GT(plain.shells[0].blk.eps_p[0] + plain.shells[0].blk.eps_p[4], 0); // it yielded
  }
}

// NLOC = 1 (the nodes on the top surface) is the offset -t/2: stretching gives M = -N t / 2.
TEST(CompositeShells, NlocMovesTheReferenceSurface) {
  std::string d = "*KEYWORD\n*CONTROL_TERMINATION\n1.0e-3\n";
  d += "*PART\nplate\n         1         1         3\n";
  d += "*SECTION_SHELL\n         1         2    0.8333         3\n       0.6       0.6       0.6"
       "       0.6       1.0\n";
  d += materials() + "*NODE\n" + square(1, 0.0);
  d += "*ELEMENT_SHELL\n       1       1       1       2       3       4\n*END\n";
  Domain dom = build_domain(read_deck_text("nloc", d));
  ASSERT_TRUE(dom.shells[0].blk.layered());
  std::vector<Real> v, w;
  stretch(dom, dom.shells[0], 1e-3, false, v, w);
  const Resultants r = one_step(dom, 0, v, w, 1e-3);
  EXPECT_GT(r.n[0], 0);
  EXPECT_NEAR(r.m[0], -r.n[0] * 0.3, 1e-9 * r.n[0]);
}

TEST(CompositeShells, BadLayersAreRefusedAtTheirCard) {
  auto error = [](const std::string& text) {
    try {
      (void)build_domain(read_deck_text("composite_bad", text));
    } catch (const InputError& e) {
      return std::string(e.what());
    } catch (const DeckErrors& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  std::string deck = laminate_deck();
  // a layer of an undefined material
  std::string undefined = deck;
  undefined.replace(undefined.find("         2       0.4       0.0"), 30,
                    "        99       0.4       0.0");
  EXPECT_NE(error(undefined).find("layer material 99 is not defined"), std::string::npos)
      << error(undefined);
  // a second element card in the same keyword: its fields land in the unused column
  std::string two = deck;
  two.replace(two.find("*END"), 4, "       3       2       5       6       7       8\n*END");
  EXPECT_NE(error(two).find("one element per"), std::string::npos) << error(two);
  // a zero layer thickness
  std::string thin = deck;
  thin.replace(thin.find("       0.6      90.0"), 20, "       0.0      90.0");
  EXPECT_NE(error(thin).find("thickness"), std::string::npos) << error(thin);
}

// Progressive failure of a [0/90]s *MAT_054 laminate (*PART_COMPOSITE) stretched along x with
// eps_y = 0: N_x = (2 t0 Q11 + 2 t90 Q22) eps until the 90-degree plies crack in the matrix at
// Q22 eps = YT (their sigma_x drops to SLIMT2 0), then 2 t0 Q11 eps until the 0-degree plies
// fail in the fibre at Q11 eps = XT (those layers fail), then nothing; the shell keeps its
// cracked 90-degree layers and does not erode. A [0/0] laminate erodes when its fibres fail.
TEST(CompositeShells, Mat054LaminateFailsPlyByPly) {
  constexpr Real ea = 120000, eb = 9000, prba = 0.02, g = 4500, xt = 2000, yt = 50;
  auto laminate = [&](Real outer, Real inner) {
    std::string d = "*KEYWORD\n*CONTROL_TERMINATION\n1.0e-3\n";
    d += fmt::format("*PART_COMPOSITE\nply stack\n         1         2\n"
                     "         5      0.25{:10.1f}         0         5      0.25{:10.1f}\n"
                     "         5      0.25{:10.1f}         0         5      0.25{:10.1f}\n",
                     outer, inner, inner, outer);
    d += fmt::format("*MAT_ENHANCED_COMPOSITE_DAMAGE\n         5   1.5e-09{:10.1f}{:10.1f}{:10.1f}"
                     "{:10.4f}\n{:10.1f}\n\n\n\n{:10.1f}{:10.1f}{:10.1f}{:10.1f}{:10.1f}\n",
                     ea, eb, eb, prba, g, 1200.0, xt, 200.0, yt, 80.0);
    d += "*NODE\n" + square(1, 0.0) +
         "*ELEMENT_SHELL\n       1       1       1       2       3       4\n";
    return d + "*END\n";
  };
  const Real den = 1 - prba * prba * ea / eb, q11 = ea / den, q22 = eb / den;
  Domain d = build_domain(read_deck_text("mat054_plies", laminate(0, 90)));
  ShellPart& sp = d.shells[0];
  std::vector<Real> v, w, fe(12), me(12);
  const Real rate = 1.0, dt = 2e-6, de = rate * dt;
  stretch(d, sp, rate, false, v, w);
  const Real crack = yt / q22, fibre = xt / q11;
  for (int k = 1; k * de < 1.3 * fibre; ++k) {
    (void)compute_shell_forces(sp.opt, sp.mat, sp.blk, 0, 1, d.x0, v, w, dt, fe, me);
    Real nx = 0;
    for (int a = 0; a < 4; ++a)
      nx += fe[3 * a] * (d.x0[3 * static_cast<std::size_t>(sp.blk.conn[0][a])]);
    const Real e = k * de;
    if (std::abs(e - crack) < 1.5 * de || std::abs(e - fibre) < 1.5 * de) continue; // the step
    const Real want = e < crack ? (0.5 * q11 + 0.5 * q22) * e : (e < fibre ? 0.5 * q11 * e : 0.0);
    ASSERT_NEAR(nx, want, 1e-6 * xt) << "eps " << e;
  }
  EXPECT_FALSE(sp.blk.failed[0]); // the 90-degree layers are cracked, not failed
  // [0/0]: every layer fails with its fibres: the shell erodes
  Domain d0 = build_domain(read_deck_text("mat054_uni", laminate(0, 0)));
  ShellPart& s0 = d0.shells[0];
  for (int k = 1; k * de < 1.3 * fibre; ++k)
    (void)compute_shell_forces(s0.opt, s0.mat, s0.blk, 0, 1, d0.x0, v, w, dt, fe, me);
  EXPECT_TRUE(s0.blk.failed[0]);
}

// A full run: a [0/0] *MAT_054 coupon (two shells) pulled along its fibres erodes when they
// fail, its elastic energy booked as eroded (the erosion pass is switched on by the layers' law).
TEST(CompositeShells, FailedCompositeShellsAreDeletedInARun) {
  std::string d = "*KEYWORD\n*CONTROL_TERMINATION\n1.0e-4\n";
  d += "*PART_COMPOSITE\ncoupon\n         1         2\n"
       "         5       0.5       0.0         0         5       0.5       0.0         0\n";
  d += "*MAT_ENHANCED_COMPOSITE_DAMAGE\n         5   1.5e-09  120000.0    9000.0    9000.0"
       "    0.0200\n    4500.0\n\n\n\n    1200.0    2000.0     200.0      50.0      80.0\n";
  d += "*NODE\n";
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 3; ++i)
      d += fmt::format("{:8d}{:16.6f}{:16.6f}{:16.6f}\n", 1 + i + 3 * j, 1.0 * i, 1.0 * j, 0.0);
  d += "*ELEMENT_SHELL\n       1       1       1       2       5       4\n"
       "       2       1       2       3       6       5\n";
  d += "*SET_NODE_LIST\n         1\n         1         4\n*SET_NODE_LIST\n         2\n"
       "         3         6\n";
  d += "*BOUNDARY_SPC_SET\n         1         0         1         1         1         1         1"
       "         1\n";
  d += "*BOUNDARY_PRESCRIBED_MOTION_SET\n         2         1         0         1       1.0\n";
  d += "*DEFINE_CURVE\n         1\n                 0.0              1000.0\n"
       "                 1.0              1000.0\n*END\n";
  const Model model = read_deck_text("composite_run", d);
  RunOptions opt = quiet_run("composite_run");
  bool failed = false;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats&) {
    for (auto f : dom.shells[0].blk.failed) failed = failed || f != 0;
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  EXPECT_TRUE(sum.normal_termination) << sum.error;
  EXPECT_TRUE(failed);
  EXPECT_GT(sum.final_stats.eroded_internal, 0);
}

namespace {

/// One element of part 1 whose *SECTION_SHELL 1 (thickness 1) has QR/IRID = qr; `extra` adds
/// cards (rules, parts that only lend their material).
std::string rule_deck(int qr, int nip, const std::string& extra, GlobalId mid = 2) {
  std::string d = "*KEYWORD\n*CONTROL_TERMINATION\n1.0e-3\n";
  d += fmt::format("*PART\nplate\n         1         1{:10d}\n", mid);
  d += fmt::format("*SECTION_SHELL\n         1         2    0.8333{:10d}{:10.1f}{:10d}\n"
                   "       1.0       1.0       1.0       1.0\n",
                   nip, 1.0, qr);
  d += materials() + extra + "*NODE\n" + square(1, 0.0);
  d += "*ELEMENT_SHELL\n       1       1       1       2       3       4\n";
  return d + "*END\n";
}

} // namespace

// *INTEGRATION_SHELL: three points of equal weight at -2/3, 0, 2/3, the middle one taking part
// 10's material (MAT 3), is the *PART_COMPOSITE of three equal layers MAT 2 / MAT 3 / MAT 2;
// ESOP = 1 places the same points. Stretch and bend: the same N and M as laminate theory's.
TEST(CompositeShells, IntegrationShellRulesAreLayups) {
  const std::string part10 = "*PART\nlender\n        10         1         3\n";
  const std::string points = fmt::format("{:.17g},{:.17g},0\n0,{:.17g},10\n{:.17g},{:.17g},0\n",
                                         -2.0 / 3, 1.0 / 3, 1.0 / 3, 2.0 / 3, 1.0 / 3);
  Domain user = build_domain(read_deck_text(
      "irid", rule_deck(-7, 3, part10 + "*INTEGRATION_SHELL\n         7         3\n" + points)));
  ASSERT_TRUE(user.shells[0].blk.layered());
  const Real third = 1.0 / 3;
  const std::vector<Layer> layers{{true, third, 0}, {false, third, 0}, {true, third, 0}};
  check_membrane(user, 0, layers, 0.0);
  // ESOP = 1 with every point the element's material: equal layers of MAT 2
  Domain eq = build_domain(read_deck_text(
      "esop", rule_deck(-8, 3, "*INTEGRATION_SHELL\n         8         3         1\n")));
  check_membrane(eq, 0, {{true, third, 0}, {true, third, 0}, {true, third, 0}}, 0.0);
  // unsymmetric: MAT 3 (part 10) below, MAT 2 above: the stretch's moment checks the positions
  const std::vector<Layer> two{{false, 0.5, 0}, {true, 0.5, 0}};
  Domain un = build_domain(read_deck_text(
      "irid_unsym",
      rule_deck(-11, 2,
                part10 + "*INTEGRATION_SHELL\n        11         2\n-0.5,0.5,10\n0.5,0.5,0\n")));
  check_membrane(un, 0, two, 0.0);
  // ESOP 1 with point cards: their PIDs only
  Domain es = build_domain(read_deck_text(
      "esop_pid",
      rule_deck(-12, 2,
                part10 + "*INTEGRATION_SHELL\n        12         2         1\n0,0,10\n0,0,0\n")));
  check_membrane(es, 0, two, 0.0);
  // an undefined IRID is refused at the section
  try {
    (void)build_domain(read_deck_text("irid_missing", rule_deck(-9, 3, "")));
    ADD_FAILURE() << "an undefined IRID was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("*INTEGRATION_SHELL 9"), std::string::npos) << e.what();
  }
}

// QR/IRID = 1, the trapezoidal rule: NIP 3 puts points on both surfaces and the middle with
// weights 1/2, 1, 1/2: bending gives M = Q kappa t^3 / 8 (the exact plate gives t^3 / 12).
TEST(CompositeShells, TrapezoidalRuleBendsAsItsPointsSay) {
  for (int nip : {2, 3, 5}) {
    Domain d = build_domain(read_deck_text("trapezoid", rule_deck(1, nip, "", 3)));
    ASSERT_TRUE(d.shells[0].blk.layered());
    std::vector<Real> v, w;
    const Real rate = 1e-3, dt = 1e-3;
    stretch(d, d.shells[0], rate, true, v, w);
    const Resultants r = one_step(d, 0, v, w, dt);
    // M = Q kappa (t/2)^3 sum w zeta^2 over points at -1 + k h, weights h (h/2 at the ends)
    const Real h = 2.0 / (nip - 1);
    Real sum = 0;
    for (int k = 0; k < nip; ++k) {
      const Real zeta = -1 + k * h, wt = (k == 0 || k == nip - 1) ? h / 2 : h;
      sum += wt * zeta * zeta;
    }
    const Real q = kE1 / (1 - kNu1 * kNu1);
    EXPECT_NEAR(r.m[0], q * rate * dt * 0.125 * sum, 1e-10 * q * rate * dt) << "NIP " << nip;
  }
}

// FAILOPT: a rule whose bottom point is a *MAT_054 ply along x and whose other points are
// *MAT_001: stretched past the ply's XT, the shell erodes with FAILOPT 0 (its only point that can
// fail has) and not with FAILOPT 1.
TEST(CompositeShells, FailoptDecidesWhetherTheFailingPointsErodeTheShell) {
  const std::string ply = "*PART\nply\n        20         1         5\n"
                          "*MAT_ENHANCED_COMPOSITE_DAMAGE\n         5   1.5e-09  120000.0    9000.0"
                          "    9000.0    0.0200\n    4500.0\n\n\n\n    1200.0    2000.0     200.0"
                          "      50.0      80.0\n";
  for (int failopt : {0, 1}) {
    const std::string rule =
        fmt::format("*INTEGRATION_SHELL\n         4         3         0{:10d}\n", failopt) +
        fmt::format("{:10.4f}{:10.4f}{:10d}\n{:10.4f}{:10.4f}{:10d}\n{:10.4f}{:10.4f}{:10d}\n",
                    -0.75, 0.25, 20, 0.0, 0.5, 0, 0.75, 0.25, 0);
    Domain d = build_domain(read_deck_text("failopt", rule_deck(-4, 3, ply + rule, 3)));
    ShellPart& sp = d.shells[0];
    std::vector<Real> v, w, fe(12), me(12);
    stretch(d, sp, 1.0, false, v, w);
    for (int k = 0; k < 15000; ++k) // to eps 0.03, past XT / Q11
      (void)compute_shell_forces(sp.opt, sp.mat, sp.blk, 0, 1, d.x0, v, w, 2e-6, fe, me);
    EXPECT_TRUE(sp.blk.eps_p[0] >= 16) << "the ply failed";
    EXPECT_EQ(sp.blk.failed[0] != 0, failopt == 0) << "FAILOPT " << failopt;
  }
}

// *PART_COMPOSITE_LONG (one layer per card) is the same laminate; _CONTACT's OPTT is read.
TEST(CompositeShells, LongAndContactForms) {
  std::string d = laminate_deck();
  const std::string two_per_card =
      "*PART_COMPOSITE\nlaminate\n         1         2    0.8333\n"
      "         2       0.3      30.0         0         3       0.5       0.0         0\n"
      "         2       0.2     -45.0         0\n";
  const auto at = d.find(two_per_card);
  ASSERT_NE(at, std::string::npos);
  d.replace(at, two_per_card.size(),
            "*PART_COMPOSITE_LONG_CONTACT\nlaminate\n         1         2    0.8333\n"
            "       0.2       0.1                           0.7\n"
            "         2       0.3      30.0         0        11\n"
            "         3       0.5       0.0         0        12\n"
            "         2       0.2     -45.0         0        13\n");
  const Model model = read_deck_text("composite_long", d);
  EXPECT_DOUBLE_EQ(model.find_part(1)->contact_optt, 0.7);
  Domain dom = build_domain(model);
  check_membrane(dom, 0, {{true, 0.3, 30}, {false, 0.5, 0}, {true, 0.2, -45}}, 0.0);
}
