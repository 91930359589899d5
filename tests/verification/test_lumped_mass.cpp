// Lumped masses (*ELEMENT_MASS, *ELEMENT_MASS_NODE_SET, *ELEMENT_INERTIA) through the whole
// solver:
//   - a mass on the end of an elastic truss vibrates at omega = sqrt(k / m), k = E A / L, m the
//     lumped mass plus the node's half of the bar (the discrete system is exactly that
//     one-degree-of-freedom oscillator);
//   - masses and an inertia tensor on a rigid body's nodes join its mass and inertia: a moment
//     about z spins it at M t / I_zz with I_zz summed from the point masses and the tensor;
//   - an anisotropic tensor on a deformable shell node is refused (its rotary inertia is a
//     scalar).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr double kE = 2.0e5, kRho = 7.85e-9; // mm, t, s, MPa

} // namespace

// L = 100 mm, A = 10 mm^2: k = 2e4 N/mm; tip mass 1e-3 t (the bar is 7.85e-6 t, its lumped
// half at the tip counts too). Period 2 pi sqrt(m / k) = 1.41 ms, about 80 steps: the central
// difference lengthens it by (omega dt)^2 / 24 = 2.6e-4; tolerance 1e-3 of the period. Without
// the lumped mass the period would be 18 times shorter.
TEST(LumpedMass, MassOnAnElasticBarVibratesAtSqrtKOverM) {
  const double len = 100.0, area = 10.0, tip = 1e-3, v0 = 100.0;
  const double k = kE * area / len, m = tip + 0.5 * kRho * area * len;
  const double period = 2 * std::numbers::pi * std::sqrt(m / k);
  const std::string d = bar_with_tip_mass_deck(len, area, tip, v0, 2.2 * period);
  Model model = read_deck_text("lumped_bar", d);
  RunOptions opt = quiet_run("lumped_bar");
  std::vector<double> t, u;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
    t.push_back(s.time);
    u.push_back(dom.x[3] - len);
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  const auto zc = zero_crossings(t, u);
  ASSERT_GE(zc.size(), 4U);
  // u = (v0 / omega) sin(omega t): crossings at T/2, T, 3T/2, 2T (the first at t = 0 is not
  // counted: u starts at 0 and grows)
  const double measured = zc[3] - zc[1];
  std::printf("bar with a tip mass: period %.6e (sqrt(m/k): %.6e, %.2e)\n", measured, period,
              measured / period - 1);
  EXPECT_NEAR(measured, period, 1e-3 * period);
}

// A rigid unit cube (7.85e-9 t, an eighth of it at each corner) with 4e-8 t spread
// over its four top nodes (*ELEMENT_MASS_NODE_SET) and a tensor I_zz = 1e-8 at a bottom node
// (*ELEMENT_INERTIA, no mass): the masses are symmetric about the vertical axis through the
// centre, so I_zz = 0.5 (M_cube + M_set) + 1e-8 and the products with z vanish. A moment M_z
// (*LOAD_RIGID_BODY DOF 7) spins it at M_z t / I_zz to round-off (t: the half step after the
// last force).
TEST(LumpedMass, MassesAndInertiaJoinARigidBody) {
  const double mset = 4e-8, izz_node = 1e-8, mz = 0.3, tend = 1e-4;
  std::string d = "*KEYWORD\n";
  d += fmt::format("*CONTROL_TERMINATION\n{:10.3e}\n*CONTROL_TIMESTEP\n{:10.3e}\n", tend, 1e-6);
  d += "*PART\ncube\n         1         1         1\n*SECTION_SOLID\n         1         1\n";
  d += fmt::format("*MAT_RIGID\n         1{:10.3e}{:10.1f}       0.3\n", kRho, kE);
  d += hex_block_cards(1, 1, 1, 1.0, 1.0, 1.0, 1);
  d += node_set_card(2, {5, 6, 7, 8});
  d += fmt::format("*ELEMENT_MASS_NODE_SET\n     101       2{:16.6e}\n", mset);
  d += fmt::format("*ELEMENT_INERTIA\n     102       1\n{:10.3e}{:10.3e}{:10.3e}{:10.3e}{:10.3e}"
                   "{:10.3e}{:10.3e}\n",
                   izz_node, 0.0, 0.0, izz_node, 0.0, izz_node, 0.0);
  d += fmt::format("*LOAD_RIGID_BODY\n         1         7         7{:10.4f}\n", mz);
  d += "*DEFINE_CURVE\n         7\n0.0,1.0\n1.0,1.0\n*END\n";
  Model model = read_deck_text("lumped_rigid", d);
  RunOptions opt = quiet_run("lumped_rigid");
  opt.stats_every_cycle = true;
  RigidBody body;
  GlobalStats last;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& st) {
    body = dom.bodies.at(0);
    last = st;
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  const double mcube = kRho * 1.0;
  const double izz = 0.5 * (mcube + mset) + izz_node;
  const double t = last.time - 0.5 * last.dt;
  std::printf("rigid body with lumped masses: mass %.6e (%.6e), I_zz %.6e (%.6e), omega_z "
              "%.9e (%.9e)\n",
              body.mass, mcube + mset, body.inertia0[8], izz, body.omega[2], mz * t / izz);
  EXPECT_NEAR(body.mass, mcube + mset, 1e-12 * body.mass);
  EXPECT_NEAR(body.inertia0[8], izz, 1e-12 * izz);
  EXPECT_NEAR(body.inertia0[2], 0.0, 1e-12 * izz); // xz
  EXPECT_NEAR(body.omega[2], mz * t / izz, 1e-9 * mz * t / izz);
  EXPECT_NEAR(last.energy_ratio(), 1.0, 1e-9);
}

// A shell node's rotary inertia is a scalar: an anisotropic tensor there is refused at its
// card; an isotropic one is taken.
TEST(LumpedMass, AnisotropicInertiaOnAShellNodeIsRefused) {
  auto deck = [](double iyy) {
    std::string d = "*KEYWORD\n*CONTROL_TERMINATION\n 1.000e-05\n";
    d += "*PART\nplate\n         1         1         1\n";
    d += "*SECTION_SHELL\n         1         2\n       1.0       1.0       1.0       1.0\n";
    d += fmt::format("*MAT_ELASTIC\n         1{:10.3e}{:10.1f}       0.3\n", kRho, kE);
    d += shell_grid_cards(2, 2, 10.0, 10.0, 1);
    d += fmt::format("*ELEMENT_INERTIA\n     102       5\n{:10.3e}{:10.3e}{:10.3e}{:10.3e}"
                     "{:10.3e}{:10.3e}{:10.3e}\n*END\n",
                     1e-6, 0.0, 0.0, iyy, 0.0, 1e-6, 1e-6);
    return d;
  };
  {
    Model model = read_deck_text("lumped_shell_ok", deck(1e-6));
    const RunSummary sum = run_explicit(model, quiet_run("lumped_shell_ok"));
    EXPECT_TRUE(sum.normal_termination) << sum.error;
  }
  Model model = read_deck_text("lumped_shell_bad", deck(2e-6));
  std::string message;
  try {
    const RunSummary sum = run_explicit(model, quiet_run("lumped_shell_bad"));
    message = sum.error;
  } catch (const std::exception& e) {
    message = e.what();
  }
  EXPECT_NE(message.find("*ELEMENT_INERTIA 102: node 5"), std::string::npos) << message;
  EXPECT_NE(message.find("deck.k"), std::string::npos) << message;
}

// *ELEMENT_MASS_PART on a 10 x 10 x 1 mm plate of 2 x 2 shells (7.85e-7 t):
// ADDMASS adds exactly that mass in proportion to the nodal masses (the centre node, shared by
// four elements, takes four times a corner's); FINMASS brings the part to that mass.
TEST(LumpedMass, PartMassAddsOrCompletesThePartsMass) {
  auto run_mass = [](const std::string& card) {
    std::string d = "*KEYWORD\n*CONTROL_TERMINATION\n 1.000e-06\n";
    d += "*PART\nplate\n         1         1         1\n";
    d += "*SECTION_SHELL\n         1         2\n       1.0       1.0       1.0       1.0\n";
    d += fmt::format("*MAT_ELASTIC\n         1{:10.3e}{:10.1f}       0.3\n", kRho, kE);
    d += shell_grid_cards(2, 2, 10.0, 10.0, 1) + card + "*END\n";
    Model model = read_deck_text("part_mass", d);
    RunOptions opt = quiet_run("part_mass");
    std::vector<double> mass;
    opt.on_cycle = [&](const Domain& dom, const GlobalStats&) {
      mass = dom.mass;
      return false;
    };
    run_explicit(model, opt);
    return mass;
  };
  const double plate = kRho * 10 * 10 * 1;
  const auto base = run_mass("");
  const auto added = run_mass("*ELEMENT_MASS_PART\n         1   4.0e-08\n");
  const auto final = run_mass("*ELEMENT_MASS_PART\n         1       0.0   1.0e-06\n");
  auto sum = [](const std::vector<double>& m) {
    double s = 0;
    for (double v : m) s += v;
    return s;
  };
  EXPECT_NEAR(sum(base), plate, 1e-12 * plate);
  EXPECT_NEAR(sum(added), plate + 4e-8, 1e-12 * plate);
  EXPECT_NEAR(sum(final), 1e-6, 1e-12 * plate);
  // a FINMASS below the part's own mass is an error at the card
  std::string message;
  try {
    run_mass("*ELEMENT_MASS_PART\n         1       0.0   1.0e-07\n");
  } catch (const std::exception& e) {
    message = e.what();
  }
  EXPECT_NE(message.find("more than FINMASS"), std::string::npos) << message;
  EXPECT_NE(message.find("deck.k:"), std::string::npos) << message;
  // node 5 is the centre (4 elements), node 1 a corner (1 element)
  EXPECT_NEAR(added[4] / added[0], base[4] / base[0], 1e-12);
  EXPECT_NEAR(added[4] - base[4], 4e-8 / 4, 1e-12 * plate);
}

// *ELEMENT_INERTIA on a spinning rigid body: the body keeps the angular velocity its nodes were
// given (*INITIAL_VELOCITY_GENERATION), its momentum takes the added inertia.
TEST(LumpedMass, InertiaKeepsTheGivenSpin) {
  const double w0 = 50.0, izz_node = 2e-8;
  std::string d = "*KEYWORD\n*CONTROL_TERMINATION\n 1.000e-05\n*CONTROL_TIMESTEP\n 1.000e-06\n";
  d += "*PART\ncube\n         1         1         1\n*SECTION_SOLID\n         1         1\n";
  d += fmt::format("*MAT_RIGID\n         1{:10.3e}{:10.1f}       0.3\n", kRho, kE);
  d += hex_block_cards(1, 1, 1, 1.0, 1.0, 1.0, 1);
  d += fmt::format("*ELEMENT_INERTIA\n     102       1\n{:10.3e}{:10.3e}{:10.3e}{:10.3e}{:10.3e}"
                   "{:10.3e}{:10.3e}\n",
                   izz_node, 0.0, 0.0, izz_node, 0.0, izz_node, 0.0);
  d += fmt::format("*INITIAL_VELOCITY_GENERATION\n         1         2{:10.4f}\n"
                   "       0.5       0.5       0.5       0.0       0.0       1.0\n*END\n",
                   w0);
  Model model = read_deck_text("lumped_spin", d);
  RunOptions opt = quiet_run("lumped_spin");
  RigidBody body;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats&) {
    body = dom.bodies.at(0);
    return false;
  };
  run_explicit(model, opt);
  EXPECT_NEAR(body.omega[2], w0, 1e-12 * w0);
  EXPECT_NEAR(body.l[2], body.inertia0[8] * w0, 1e-12 * body.inertia0[8] * w0);
  EXPECT_NEAR(body.inertia0[8], 0.5 * kRho + izz_node, 1e-12 * izz_node);
}
