// Membranes with material axes: a *MAT_FABRIC part on *SECTION_SHELL ELFORM 9 (run as the
// Belytschko-Tsay membrane) with ICOMP = 1 point angles. The optimised shell kernel matches the
// reference one on it (the material axes taken per point in both), a membrane carries no
// moments, and a flat square of the fabric at the angle theta has Jones' off-axis modulus
// along x (probed through the kernel).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "fem/shell_bt.hpp"
#include "input/keyword_reader.hpp"
#include "solvers/common/domain.hpp"
#include "test_support.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr Real kEa = 2.0e9, kEb = 0.8e9, kPrba = 0.12, kGab = 0.3e9;

/// A 4 x 3 grid of warped membrane quads (ICOMP = 1, NIP 3, angles 30, -45, 90 degrees).
Domain membrane_domain() {
  const auto dir = make_temp_dir("membrane");
  write_file(dir / "deck.k",
             "*KEYWORD\n*CONTROL_TERMINATION\n1.0e-3\n"
             "*PART\nbag\n1,1,1\n"
             "*SECTION_SHELL\n1,9,,3,,,1\n0.001,0.001,0.001,0.001\n30.0,-45.0,90.0\n"
             "*MAT_FABRIC\n1,900,2.0e9,0.8e9,2.0e9,0.12,0.12,0.12\n0.3e9\n\n\n\n" +
                 shell_grid_cards(4, 3, 4.0, 3.0, 1, 1, 1) + "*END\n");
  return build_domain(read_deck((dir / "deck.k").string()));
}

} // namespace

TEST(Membrane, OptimisedMatchesReferenceAndCarriesNoMoments) {
  Domain d = membrane_domain();
  ASSERT_EQ(d.shells.size(), 1u);
  ShellPart& sp = d.shells[0];
  EXPECT_TRUE(sp.opt.membrane);
  EXPECT_NEAR(sp.opt.axis[0][1], 0.5, 1e-15); // 30 degrees
  EXPECT_EQ(sp.opt.shrf, 0.0);
  EXPECT_NEAR(sp.opt.axis[2][0], 0.0, 1e-15); // 90 degrees
  EXPECT_NEAR(sp.opt.axis[2][1], 1.0, 1e-15);
  // warp the nodes and give them a stretching, shearing and out-of-plane motion
  std::vector<Real> x = d.x0, v(d.x0.size()), w(d.x0.size(), 0.0);
  for (std::size_t n = 0; n < d.nnode; ++n) {
    const Real px = x[3 * n], py = x[3 * n + 1];
    x[3 * n + 2] += 0.01 * std::sin(1.3 * px + 0.7 * py);
    v[3 * n] = 0.5 * px + 0.2 * py * py;
    v[3 * n + 1] = -0.1 * px * py + 0.3 * py;
    v[3 * n + 2] = 0.05 * std::cos(px);
  }
  ShellBlock a = sp.blk, b = sp.blk;
  const std::size_t ne = a.size();
  std::vector<Real> fa(12 * ne), ma(12 * ne), fb(12 * ne), mb(12 * ne);
  const Real dt = 1e-4;
  for (int s = 0; s < 4; ++s) {
    compute_shell_forces_reference(sp.opt, sp.mat, a, 0, ne, x, v, w, dt, fa, ma);
    compute_shell_forces(sp.opt, sp.mat, b, 0, ne, x, v, w, dt, fb, mb);
    for (std::size_t i = 0; i < fa.size(); ++i) {
      EXPECT_NEAR(fa[i], fb[i], 1e-12 * std::abs(fa[i]) + 1e-9);
      EXPECT_EQ(ma[i], 0.0); // a membrane: no bending, no transverse shear, no moments
      EXPECT_EQ(mb[i], 0.0);
    }
    for (std::size_t i = 0; i < a.sig.size(); ++i)
      EXPECT_NEAR(a.sig[i], b.sig[i], 1e-12 * std::abs(a.sig[i]) + 1e-3);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] += dt * v[i];
  }
}

// One flat unit square of the fabric at a single angle theta (NIP 1): the kernel's in-plane
// tangent in the element frame, probed with three strain rates (x, y, shear), inverted: its
// uniaxial modulus 1 / (Qbar^-1)_11 along x is Jones' E_x(theta).
TEST(Membrane, OffAxisTangentThroughTheKernelIsJones) {
  for (Real deg : {0.0, 30.0, 60.0}) {
    const auto dir = make_temp_dir("membrane_angle");
    write_file(dir / "deck.k", "*KEYWORD\n*CONTROL_TERMINATION\n1.0e-3\n*PART\nbag\n1,1,1\n"
                               "*SECTION_SHELL\n1,9,,1,,,1\n0.001\n" +
                                   std::to_string(deg) +
                                   "\n*MAT_FABRIC\n1,900,2.0e9,0.8e9,2.0e9,0.12\n0.3e9\n\n\n\n" +
                                   shell_grid_cards(1, 1, 1.0, 1.0, 1, 1, 1) + "*END\n");
    Domain d = build_domain(read_deck((dir / "deck.k").string()));
    ShellPart& sp = d.shells.at(0);
    Real q[3][3];
    const Real rate = 1e-3, dt = 1e-3; // strain 1e-6 per probe
    for (int j = 0; j < 3; ++j) {
      ShellBlock blk = sp.blk;
      std::vector<Real> v(d.x0.size(), 0.0), w(d.x0.size(), 0.0), x = d.x0;
      for (std::size_t n = 0; n < d.nnode; ++n) {
        const Real px = d.x0[3 * n], py = d.x0[3 * n + 1];
        // j = 0: eps_x, 1: eps_y, 2: gamma_xy (v_x = rate y)
        v[3 * n] = j == 0 ? rate * px : (j == 2 ? rate * py : 0.0);
        v[3 * n + 1] = j == 1 ? rate * py : 0.0;
        x[3 * n] += dt * v[3 * n];
        x[3 * n + 1] += dt * v[3 * n + 1];
      }
      std::vector<Real> f(12), m(12);
      compute_shell_forces_reference(sp.opt, sp.mat, blk, 0, 1, x, v, w, dt, f, m);
      for (int i = 0; i < 3; ++i) q[i][j] = blk.sig[i] / (rate * dt);
    }
    const Real det = q[0][0] * (q[1][1] * q[2][2] - q[1][2] * q[2][1]) -
                     q[0][1] * (q[1][0] * q[2][2] - q[1][2] * q[2][0]) +
                     q[0][2] * (q[1][0] * q[2][1] - q[1][1] * q[2][0]);
    const Real ex_kernel = det / (q[1][1] * q[2][2] - q[1][2] * q[2][1]);
    const Real th = deg * std::numbers::pi / 180, c = std::cos(th), s = std::sin(th);
    const Real nu_ab = kPrba * kEa / kEb;
    const Real ex = 1.0 / (std::pow(c, 4) / kEa + (1 / kGab - 2 * nu_ab / kEa) * c * c * s * s +
                           std::pow(s, 4) / kEb);
    // the probes' strains are those of the end-of-step geometry (1e-6 relative) and the shear
    // probe rotates the element by 5e-7: 1e-5 relative
    EXPECT_NEAR(ex_kernel, ex, 1e-5 * ex) << deg;
  }
}

// A rigid shell part's formulation does not matter (its elements never compute a stress): any
// ELFORM is taken, as LS-DYNA takes it, while a deformable part with a form parcae does not
// have is refused at its section.
TEST(Membrane, RigidShellsTakeAnyFormulation) {
  auto deck = [](const std::string& mat) {
    const auto dir = make_temp_dir("rigid_form");
    write_file(dir / "deck.k", "*KEYWORD\n*CONTROL_TERMINATION\n1.0e-3\n*PART\ntool\n1,1,1\n"
                               "*SECTION_SHELL\n1,4\n1.0\n" +
                                   mat + shell_grid_cards(2, 2, 2.0, 2.0, 1, 1, 1) + "*END\n");
    return read_deck((dir / "deck.k").string());
  };
  const Domain d = build_domain(deck("*MAT_RIGID\n1,7.85e-9,210000.0,0.3\n"));
  EXPECT_EQ(d.bodies.size(), 1u);
  EXPECT_GT(d.bodies[0].mass, 0.0);
  try {
    (void)build_domain(deck("*MAT_ELASTIC\n1,7.85e-9,210000.0,0.3\n"));
    ADD_FAILURE() << "a deformable ELFORM 4 part was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("ELFORM 4"), std::string::npos) << e.what();
  }
}
