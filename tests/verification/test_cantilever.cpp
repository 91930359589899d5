// Cantilever free vibration: first natural frequency against Euler-Bernoulli,
// f1 = (beta1 L)^2 / (2 pi L^2) sqrt(EI / (rho A)), beta1 L = 1.875104
// (../shared/reference/README.md). The beam starts with the first mode's velocity shape; the
// period is measured from the tip displacement's zero crossings.
#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr double kE = 210000.0, kRho = 7.85e-9, kL = 1000.0;
constexpr double kBeta = 1.875104;

/// First mode shape of the clamped-free beam and its slope, normalised to 1 at the tip.
double mode(double x, double* slope) {
  const double b = kBeta / kL;
  const double s = (std::cosh(kBeta) + std::cos(kBeta)) / (std::sinh(kBeta) + std::sin(kBeta));
  auto phi = [&](double xx) {
    return std::cosh(b * xx) - std::cos(b * xx) - s * (std::sinh(b * xx) - std::sin(b * xx));
  };
  const double tip = phi(kL);
  if (slope)
    *slope =
        b * (std::sinh(b * x) + std::sin(b * x) - s * (std::cosh(b * x) - std::cos(b * x))) / tip;
  return phi(x) / tip;
}

double euler_bernoulli_f1(double h) {
  return kBeta * kBeta / (2 * M_PI * kL * kL) * std::sqrt(kE * h * h / (12 * kRho));
}

/// Run the deck, sampling the tip node's z displacement; return the measured frequency.
double measured_frequency(const std::string& deck, const std::string& tag, long tip_node) {
  Model model = read_deck_text(tag, deck);
  RunOptions opt = quiet_run(tag);
  const LocalId tip = model.node_index(tip_node);
  std::vector<double> t, uz;
  opt.on_cycle = [&](const Domain& d, const GlobalStats& s) {
    t.push_back(s.time);
    uz.push_back(d.x[3 * tip + 2] - d.x0[3 * tip + 2]);
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  EXPECT_TRUE(sum.normal_termination) << sum.error;
  const auto zc = zero_crossings(t, uz);
  EXPECT_GE(zc.size(), 3u);
  if (zc.size() < 3) return 0;
  // Crossings are half a period apart; use the first and last for the mean.
  const double half = (zc.back() - zc.front()) / static_cast<double>(zc.size() - 1);
  return 1.0 / (2 * half);
}

std::string header(double endtim, int ihq, double qm = 0.05) {
  return fmt::format("*KEYWORD\n*CONTROL_TERMINATION\n{:10.3e}\n*CONTROL_TIMESTEP\n"
                     "          0.9\n*CONTROL_HOURGLASS\n{:10d}{:10.3f}\n",
                     endtim, ihq, qm) +
         "*PART\nbeam\n         1         1         1\n" +
         fmt::format("*MAT_ELASTIC\n         1{:10.3e}{:10.1f}       0.0\n", kRho, kE);
}

} // namespace

namespace {

/// The hex cantilever deck: nx x 1 x nz hexahedra, section 50 x 50 mm, started in the first
/// mode's shape; returns the measured first frequency.
double hex_cantilever_frequency(int nx, int nz, int ihq, double qm, const std::string& tag) {
  const int ny = 1;
  const double h = 50.0, v0 = 100.0; // tip velocity amplitude, mm/s
  const double f_eb = euler_bernoulli_f1(h);
  std::string d = header(1.6 / f_eb, ihq, qm);
  d += "*SECTION_SOLID\n         1         1\n";
  d += hex_block_cards(nx, ny, nz, kL, 50.0, h, 1);
  d += node_set_card(1, block_nodes(nx, ny, nz, 1, [](int i, int, int) { return i == 0; }));
  d += "*BOUNDARY_SPC_SET\n         1         0         1         1         1         1"
       "         1         1\n";
  d += "*INITIAL_VELOCITY_NODE\n";
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) {
        const long id = 1 + i + (nx + 1) * (j + (ny + 1) * k);
        double slope = 0;
        const double x = kL * i / nx, z = h * k / nz - h / 2;
        const double w = mode(x, &slope);
        // Plane sections stay plane: axial velocity -z * dw/dx.
        d += fmt::format("{},{:.8e},{:.8e},{:.8e}\n", id, -z * slope * v0, 0.0, w * v0);
      }
  d += "*END\n";
  const long tip = 1 + nx + (nx + 1) * (0 + (ny + 1) * (nz / 2));
  return measured_frequency(d, tag, tip);
}

} // namespace

TEST(Cantilever, HexFirstFrequencyMatchesEulerBernoulli) {
  // 40 x 1 x 8 hexahedra, section 50 x 50 mm, L/h = 20 (shear correction < 0.5%); nu = 0 so
  // the beam is in uniaxial stress as Euler-Bernoulli assumes. Viscous hourglass control
  // (IHQ 1, QM 0.05): it adds no stiffness, so the frequency is the elements' own.
  const double f_eb = euler_bernoulli_f1(50.0);
  const double f = hex_cantilever_frequency(40, 8, 1, 0.05, "cantilever_hex");
  std::printf("cantilever (hex 40x1x8): f1 = %.4f Hz, Euler-Bernoulli %.4f Hz, ratio %.4f\n", f,
              f_eb, f / f_eb);
  // Expected below Euler-Bernoulli by ~1.1%: one-point hexahedra integrate the bending stress
  // with 8 constant layers (stiffness (1 - 1/64) of the exact: -0.8% in frequency) and shear
  // flexibility at L/h = 20 lowers it by ~0.3%. Tolerance 2%: twice that, and an error in the
  // element (B matrix, mass, hourglass sign) moves the frequency by far more.
  EXPECT_NEAR(f, f_eb, 0.02 * f_eb);
}

// IHQ 6 (assumed-strain stabilisation) with QM = 1: one hexahedron through the thickness. The
// one-point stress carries no bending at all here (it is constant through the thickness), so
// the whole bending stiffness is the hourglass control's: exact beam bending for these
// rectangular elements gives the Euler-Bernoulli frequency up to the beam's shear flexibility
// and the 40-element discretisation (-0.3 %, as above); tolerance 1.5 %. The same mesh with
// the viscous form (IHQ 1) has no bending stiffness at all, and the Flanagan-Belytschko
// stiffness form (IHQ 5) at QM 0.1 a stiffness unrelated to bending (measured: 9 % high).
TEST(Cantilever, HexOneElementThroughTheThicknessBendsWithAssumedStrainHourglass) {
  const double f_eb = euler_bernoulli_f1(50.0);
  const double f6 = hex_cantilever_frequency(40, 1, 6, 1.0, "cantilever_ihq6");
  std::printf("cantilever (hex 40x1x1, IHQ 6): f1 = %.4f Hz, Euler-Bernoulli %.4f Hz, ratio "
              "%.4f\n",
              f6, f_eb, f6 / f_eb);
  EXPECT_NEAR(f6, f_eb, 0.015 * f_eb);
  const double f5 = hex_cantilever_frequency(40, 1, 5, 0.1, "cantilever_ihq5");
  std::printf("cantilever (hex 40x1x1, IHQ 5 QM 0.1): f1 = %.4f Hz, ratio %.4f\n", f5, f5 / f_eb);
  EXPECT_GT(std::abs(f5 / f_eb - 1), 0.05);
}

TEST(Cantilever, ShellFirstFrequencyMatchesEulerBernoulli) {
  // 40 x 1 Belytschko-Tsay shells, 50 mm wide, t = 10 mm, NIP 5 (Gauss, exact for the linear
  // bending stress), nu = 0 (plate and beam stiffness coincide).
  const int nx = 40, ny = 1;
  const double t = 10.0, v0 = 100.0;
  const double f_eb = euler_bernoulli_f1(t);
  std::string d = header(1.6 / f_eb, 1);
  d += "*SECTION_SHELL\n         1         2       1.0         5\n"
       "      10.0      10.0      10.0      10.0\n";
  d += shell_grid_cards(nx, ny, kL, 50.0, 1);
  std::vector<long> root;
  for (int j = 0; j <= ny; ++j) root.push_back(1 + (nx + 1) * j);
  d += node_set_card(1, root);
  d += "*BOUNDARY_SPC_SET\n         1         0         1         1         1         1"
       "         1         1\n";
  d += "*INITIAL_VELOCITY_NODE\n";
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) {
      double slope = 0;
      const double w = mode(kL * i / nx, &slope);
      // rotation about y: theta_y = -dw/dx
      d += fmt::format("{},{:.8e},{:.8e},{:.8e},{:.8e},{:.8e},{:.8e}\n", 1 + i + (nx + 1) * j, 0.0,
                       0.0, w * v0, 0.0, -slope * v0, 0.0);
    }
  d += "*END\n";
  const double f = measured_frequency(d, "cantilever_shell", 1 + nx);
  std::printf("cantilever (shell 40x1): f1 = %.4f Hz, Euler-Bernoulli %.4f Hz, ratio %.4f\n", f,
              f_eb, f / f_eb);
  // Tolerance 2%: the shell has no through-thickness discretisation error (NIP 5 is exact),
  // 40 one-point elements along the span and L/t = 100 leave well under 1%.
  EXPECT_NEAR(f, f_eb, 0.02 * f_eb);
}
