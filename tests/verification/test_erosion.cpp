// Element erosion through the whole solver: the failure strain of *MAT_003 against the
// one-element closed form, TDEL against the shrinking element's time step, *MAT_ADD_EROSION
// and a projectile perforating a plate with eroding contact (momentum and energy conservation
// with the eroded energies of glstat).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "solvers/explicit/erosion.hpp"
#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr double kE = 210000.0, kSigy = 250.0, kEtan = 2100.0, kRho = 7.85e-9, kNu = 0.3;

struct CubeSample {
  double t, eps_p, ztop, ezz;
  bool failed;
  GlobalStats st;
};

/// The unit cube of test_one_element (rollers on x = 0, y = 0, z = 0) whose top face follows
/// the displacement curve (0, 0), (tend, utop): a constant velocity utop / tend.
std::vector<CubeSample> run_cube(const std::string& material_cards, double tend, double utop,
                                 const std::string& tag, const std::string& extra = "") {
  std::string d = "*KEYWORD\n";
  d += fmt::format("*CONTROL_TERMINATION\n{:10.3e}\n", tend);
  d += "*PART\ncube\n         1         1         1\n*SECTION_SOLID\n         1         1\n";
  d += material_cards + extra;
  d += roller_cube_cards(tend, utop) + "*END\n";
  Model model = read_deck_text(tag, d);
  RunOptions opt = quiet_run(tag);
  const LocalId top = model.node_index(8);
  std::vector<CubeSample> out;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
    const auto& b = dom.solids[0].blk;
    out.push_back({s.time, b.eps_p[0], dom.x[3 * top + 2], b.e_int[0], b.failed[0] != 0, s});
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  EXPECT_TRUE(sum.normal_termination) << sum.error;
  return out;
}

std::size_t first_failed(const std::vector<CubeSample>& run) {
  for (std::size_t i = 0; i < run.size(); ++i)
    if (run[i].failed) return i;
  return run.size();
}

/// |total (with the eroded energies) - initial - external work| over the run, relative to the
/// largest internal + eroded internal energy.
double worst_balance(const std::vector<CubeSample>& run, std::size_t from, std::size_t to) {
  double worst = 0, scale = 0;
  for (const auto& s : run) scale = std::max(scale, s.st.internal + s.st.eroded_internal);
  for (std::size_t i = from; i < to && i < run.size(); ++i) {
    const auto& st = run[i].st;
    worst = std::max(worst, std::abs(st.total - st.initial_total - st.external_work));
  }
  return scale > 0 ? worst / scale : worst;
}

} // namespace

TEST(Erosion, Mat003FailureStrainMatchesUniaxialClosedForm) {
  // Uniaxial stress, isotropic linear hardening: sigma = E (eps - eps_p) = SIGY + Ep eps_p gives
  // eps_p(eps) = (E eps - SIGY) / (E + Ep) with eps = ln(1 + u) (the hypoelastic update of a
  // uniaxial stretch integrates the logarithmic strain). The element erodes in the pass where
  // eps_p reaches FS: eps* = (SIGY + (E + Ep) FS) / E, u* = exp(eps*) - 1, t* = u* / v.
  const double fs = 0.05, ep = kE * kEtan / (kE - kEtan), tend = 2e-3, utop = 0.1;
  const double v = utop / tend;
  const auto run = run_cube(
      fmt::format("*MAT_PLASTIC_KINEMATIC\n         1{:10.3e}{:10.1f}{:10.2f}{:10.1f}{:10.1f}"
                  "       1.0\n                    {:10.4f}\n",
                  kRho, kE, kNu, kSigy, kEtan, fs),
      tend, utop, "er_mat003");
  const std::size_t k = first_failed(run);
  ASSERT_LT(k, run.size()) << "the element never eroded";
  ASSERT_GT(k, 0u);
  // Deleted in the very pass in which its plastic strain reached FS.
  EXPECT_GE(run[k].eps_p, fs);
  EXPECT_LT(run[k - 1].eps_p, fs);
  // Plastic strain history against the closed form before failure.
  double worst = 0;
  for (std::size_t i = 0; i < k; ++i) {
    const double eps = std::log(run[i].ztop);
    const double ref = std::max(0.0, (kE * eps - kSigy) / (kE + ep));
    worst = std::max(worst, std::abs(run[i].eps_p - ref));
  }
  const double eps_star = (kSigy + (kE + ep) * fs) / kE;
  const double t_star = (std::exp(eps_star) - 1.0) / v;
  const double dt = run[k].t - run[k - 1].t;
  std::printf("eps_p worst error %.3e; erosion at t = %.6e (closed form %.6e, step %.3e)\n", worst,
              run[k].t, t_star, dt);
  // Tolerance: the stress path agrees with the 1-D reference to 1% of SIGY (test_one_element),
  // i.e. eps_p to 0.01 SIGY / Ep; the erosion time to the corresponding strain (x (E + Ep)/E,
  // x (1 + u) / v) plus one step.
  const double tol_p = 0.01 * kSigy / ep;
  EXPECT_LT(worst, tol_p);
  EXPECT_NEAR(run[k].t, t_star, tol_p * (kE + ep) / kE * std::exp(eps_star) / v + dt);
  // After deletion: no internal energy left, the element's energy is eroded internal energy,
  // and every node (the element held them all) is a free node whose kinetic energy is eroded.
  const auto& after = run.back().st;
  EXPECT_EQ(after.internal, 0.0);
  EXPECT_EQ(after.hourglass, 0.0);
  EXPECT_EQ(after.kinetic, 0.0);
  EXPECT_DOUBLE_EQ(after.eroded_internal, run[k].ezz);
  EXPECT_GT(after.eroded_kinetic, 0.0);
  // Energy balance (glstat total includes the eroded energies): the error after the erosion
  // is the one before it plus at most the work of the deleted element's last force over half
  // a step (it is zeroed in the pass that deletes it).
  const double before = worst_balance(run, 0, k);
  const double all = worst_balance(run, 0, run.size());
  const double last_work = (run[k].ezz - run[k - 1].ezz) / run[k].ezz;
  std::printf("energy balance: worst %.3e before erosion, %.3e overall (last step %.3e)\n", before,
              all, last_work);
  EXPECT_LT(all, before + last_work);
  EXPECT_LT(all, 1e-3);
  // The free nodes fly on at constant velocity (no element, no force): their (eroded) kinetic
  // energy stays what it was after the deletion, and includes the top face's m v^2 / 2.
  ASSERT_LT(k + 1, run.size());
  EXPECT_NEAR(after.eroded_kinetic, run[k + 1].st.eroded_kinetic, 1e-9 * after.eroded_kinetic);
  EXPECT_GT(after.eroded_kinetic, 4 * 0.5 * kRho / 8 * v * v);
}

TEST(Erosion, Mat024TdelDeletesTheShrinkingElement) {
  // Elastic compression of the cube (uniaxial stress): the characteristic length V / A_max is
  // the current height h (the largest face is the top), and with the linear bulk viscosity
  // q1 = 0.06 under compression the element step is h / (c (q1 + sqrt(1 + q1^2))) (the
  // quadratic term, 1.5 h |tr D| / c ~ 1e-5 here, is left out). TDEL deletes the element in
  // the first pass where TSSFAC x that step < TDEL: at h* = TDEL c (q1 + sqrt(1 + q1^2)) /
  // TSSFAC.
  const double tend = 1e-3, utop = -0.8;
  const double k = kE / (3 * (1 - 2 * kNu)), g = kE / (2 * (1 + kNu));
  const double c = std::sqrt((k + 4.0 * g / 3.0) / kRho);
  const double q1 = 0.06, tssfac = 0.9, h_star = 0.5;
  const double tdel = h_star * tssfac / (c * (q1 + std::sqrt(1 + q1 * q1)));
  const auto run = run_cube(fmt::format("*MAT_PIECEWISE_LINEAR_PLASTICITY\n         1{:10.3e}"
                                        "{:10.1f}{:10.2f}{:10.3e}       0.0       0.0{:10.4e}\n\n"
                                        "\n\n",
                                        kRho, kE, kNu, 1e9, tdel),
                            tend, utop, "er_tdel");
  const std::size_t i = first_failed(run);
  ASSERT_LT(i, run.size()) << "the element was never deleted";
  ASSERT_GT(i, 0u);
  const double dh = run[i - 1].ztop - run[i].ztop;
  std::printf("TDEL: deleted at h = %.6f (closed form %.6f, motion per step %.2e)\n", run[i].ztop,
              h_star, dh);
  EXPECT_LE(run[i].ztop, h_star * (1 + 1e-4));
  EXPECT_GT(run[i - 1].ztop, h_star * (1 - 1e-4));
  // the run goes on without elements (the last step kept) to the end
  EXPECT_NEAR(run.back().t, tend, 1e-12);
}

TEST(Erosion, AddErosionVonMisesAndFailureTime) {
  // *MAT_ADD_EROSION SIGVM on an elastic cube in uniaxial stress: sigma_vm = |sigma_zz| =
  // E ln(1 + u), deleted in the first pass with E ln(h) >= SIGVM.
  const double tend = 1e-3, utop = 0.01, sigvm = 1000.0;
  const auto run = run_cube(
      fmt::format("*MAT_ELASTIC\n         1{:10.3e}{:10.1f}{:10.2f}\n", kRho, kE, kNu), tend, utop,
      "er_sigvm",
      fmt::format("*MAT_ADD_EROSION\n         1\n{:10.1f}{:10.1f}{:10.1f}\n", 0.0, 0.0, sigvm));
  const std::size_t i = first_failed(run);
  ASSERT_LT(i, run.size());
  ASSERT_GT(i, 0u);
  std::printf("SIGVM: deleted at E ln h = %.3f (previous pass %.3f)\n", kE * std::log(run[i].ztop),
              kE * std::log(run[i - 1].ztop));
  // 1% of SIGVM: the dynamic oscillation of the stress about the quasi-static path
  EXPECT_NEAR(kE * std::log(run[i].ztop), sigvm, 0.01 * sigvm);

  // FAILTM alone: deleted in the first pass at t >= FAILTM
  const double failtm = 4e-4;
  const auto run2 = run_cube(
      fmt::format("*MAT_ELASTIC\n         1{:10.3e}{:10.1f}{:10.2f}\n", kRho, kE, kNu), tend, utop,
      "er_failtm", fmt::format("*MAT_ADD_EROSION\n         1\n{:70s}{:10.3e}\n", "", failtm));
  const std::size_t j = first_failed(run2);
  ASSERT_LT(j, run2.size());
  EXPECT_GE(run2[j].t, failtm);
  EXPECT_LT(run2[j - 1].t, failtm);
}

// *MAT_ADD_EROSION's other criteria on the same elastic cube in uniaxial stress (h the height):
// sigma_zz = E ln h, p = -E ln h / 3, principal log strains (ln h, -nu ln h, -nu ln h), the
// effective strain sqrt(2/3 e':e') = 2/3 (1 + nu) ln h. Each criterion alone deletes the
// element where its closed form reaches the threshold (1 % of the value: the dynamic
// oscillation about the quasi-static path, as SIGVM); with NCS = 2, SIGP1 and MXEPS together
// delete it only once both are met (at SIGP1's, the later), NCS = 1 at the earlier (MXEPS).
TEST(Erosion, AddErosionPressureStressAndStrainCriteria) {
  struct Case {
    const char* name;
    std::string card1, card2; // after MID: EXCL MXPRES MNEPS EFFEPS VOLEPS NUMFIP NCS; card 2
    double utop;
    double ln_h; // where the closed form meets the threshold
  };
  auto c1 = [&](double mxpres, double effeps, double ncs) {
    return fmt::format("         1{:10.1f}{:10.3e}{:10.1f}{:10.3e}{:10.1f}{:10.1f}{:10.1f}", 0.0,
                       mxpres, 0.0, effeps, 0.0, 1.0, ncs);
  };
  auto c2 = [&](double mnpres, double sigp1, double mxeps) {
    return fmt::format("{:10.3e}{:10.3e}{:10.1f}{:10.3e}", mnpres, sigp1, 0.0, mxeps);
  };
  const std::vector<Case> cases = {
      {"MXPRES", c1(300, 0, 1), c2(0, 0, 0), -0.01, -900.0 / kE},
      {"MNPRES", c1(0, 0, 1), c2(-300, 0, 0), 0.01, 900.0 / kE},
      {"SIGP1", c1(0, 0, 1), c2(0, 1000, 0), 0.01, 1000.0 / kE},
      {"MXEPS", c1(0, 0, 1), c2(0, 0, 0.004), 0.01, 0.004},
      {"EFFEPS", c1(0, 0.004, 1), c2(0, 0, 0), 0.01, 0.004 / (2.0 / 3.0 * (1 + kNu))},
      {"SIGP1+MXEPS, NCS 2", c1(0, 0, 2), c2(0, 1000, 0.004), 0.01, 1000.0 / kE},
      {"SIGP1+MXEPS, NCS 1", c1(0, 0, 1), c2(0, 1000, 0.004), 0.01, 0.004},
  };
  for (const Case& k : cases) {
    const auto run =
        run_cube(fmt::format("*MAT_ELASTIC\n         1{:10.3e}{:10.1f}{:10.2f}\n", kRho, kE, kNu),
                 1e-3, k.utop, "er_crit", "*MAT_ADD_EROSION\n" + k.card1 + "\n" + k.card2 + "\n");
    const std::size_t i = first_failed(run);
    ASSERT_LT(i, run.size()) << k.name << ": never deleted";
    ASSERT_GT(i, 0u) << k.name;
    const double ln_h = std::log(run[i].ztop);
    std::printf("%s: deleted at ln h = %.6f (closed form %.6f)\n", k.name, ln_h, k.ln_h);
    EXPECT_NEAR(ln_h, k.ln_h, 0.01 * std::abs(k.ln_h)) << k.name;
  }
}

TEST(Erosion, PrincipalValuesAndLogStrains) {
  const Real s[6] = {3, 1, 2, 0.5, 0, 0};
  Real p[3];
  principal_values(s, p);
  EXPECT_NEAR(p[0], 2 + std::sqrt(1.25), 1e-12);
  EXPECT_NEAR(p[1], 2, 1e-12);
  EXPECT_NEAR(p[2], 2 - std::sqrt(1.25), 1e-12);
  // stretch 1.2 along x, rotated 30 degrees about z: F = R U
  const double a = std::acos(-1.0) / 6, cs = std::cos(a), sn = std::sin(a);
  const Real f[9] = {1.2 * cs, -sn, 0, 1.2 * sn, cs, 0, 0, 0, 0.9};
  Real e[3];
  log_principal_strains(f, e);
  EXPECT_NEAR(e[0], std::log(1.2), 1e-12);
  EXPECT_NEAR(e[1], 0, 1e-12);
  EXPECT_NEAR(e[2], std::log(0.9), 1e-12);
}

TEST(Erosion, ProjectilePerforatesPlateWithErodingContact) {
  // tests/mpi/decks/erosion_perforation.k: an elastic steel block at 400 m/s through a free
  // *MAT_003 plate (FS = 0.12) with *CONTACT_ERODING_SURFACE_TO_SURFACE (EROSOP = 1), and the
  // same deck with *CONTACT_ERODING_SINGLE_SURFACE (all parts) and _NODES_TO_SURFACE (the
  // block's nodes on the plate). No external force: the momentum (all nodes, free ones
  // included: nodal masses stay) is conserved to round-off; the energy ratio (with the eroded
  // energies) stays within 5% (the penalty contact's own error at a hard impact, ~3%, comes
  // before any erosion) and an erosion event moves it by less than 0.5% of the initial energy.
  const auto path =
      std::filesystem::path(PARCAE_SOURCE_DIR) / "tests/mpi/decks/erosion_perforation.k";
  std::ifstream in(path);
  const std::string deck((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string s2s = "*CONTACT_ERODING_SURFACE_TO_SURFACE_ID\n         1\n"
                          "         2         1         3         3\n";
  ASSERT_NE(deck.find(s2s), std::string::npos);
  const std::vector<std::pair<std::string, std::string>> variants = {
      {"surface to surface", s2s},
      {"single surface", "*CONTACT_ERODING_SINGLE_SURFACE_ID\n         1\n"
                         "         0         0         5\n"},
      {"nodes to surface", "*CONTACT_ERODING_NODES_TO_SURFACE_ID\n         1\n"
                           "         2         1         3         3\n"}};
  for (const auto& [name, cards] : variants) {
    std::string text = deck;
    text.replace(text.find(s2s), s2s.size(), cards);
    Model model = read_deck_text("er_perforation", text);
    ASSERT_EQ(model.contacts.size(), 1u);
    ASSERT_TRUE(model.contacts[0].eroding) << name;
    RunOptions opt = quiet_run("er_perforation");
    std::vector<GlobalStats> st;
    std::size_t eroded_plate = 0;
    double p0 = 0, worst_p = 0, worst_ratio = 0, worst_jump = 0;
    opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
      double pz = 0;
      for (std::size_t n = 0; n < dom.nnode; ++n) pz += dom.mass[n] * dom.v[3 * n + 2];
      if (st.empty()) p0 = pz;
      worst_p = std::max(worst_p, std::abs(pz - p0));
      worst_ratio = std::max(worst_ratio, std::abs(s.energy_ratio() - 1));
      if (!st.empty() && s.eroded_internal != st.back().eroded_internal)
        worst_jump = std::max(worst_jump, std::abs(s.energy_ratio() - st.back().energy_ratio()));
      eroded_plate = 0;
      for (const auto& sp : dom.solids)
        for (auto f : sp.blk.failed) eroded_plate += f;
      st.push_back(s);
      return true;
    };
    const RunSummary sum = run_explicit(model, opt);
    ASSERT_TRUE(sum.normal_termination) << name << ": " << sum.error;
    ASSERT_FALSE(st.empty());
    const auto& end = st.back();
    std::printf("perforation (%s): %zu elements eroded; |dp| = %.3e of p0 = %.6e; worst |ratio "
                "- 1| %.4f; worst jump at erosion %.2e; eroded KE %.3e IE %.3e HG %.3e\n",
                name.c_str(), eroded_plate, worst_p, p0, worst_ratio, worst_jump,
                end.eroded_kinetic, end.eroded_internal, end.eroded_hourglass);
    EXPECT_GT(eroded_plate, 16u) << name; // a hole at least the projectile's cross-section
    EXPECT_GT(end.eroded_internal, 0.0) << name;
    EXPECT_GT(end.eroded_kinetic, 0.0) << name;
    EXPECT_LT(worst_p, 1e-10 * std::abs(p0)) << name;
    EXPECT_LT(worst_ratio, 0.05) << name;
    EXPECT_LT(worst_jump, 0.005) << name;
  }
}

TEST(Erosion, ReaderRefusesUnsupportedCriteriaAndReadsErodingCard) {
  const std::string head = "*KEYWORD\n*CONTROL_TERMINATION\n   1.0e-03\n*PART\ncube\n         1"
                           "         1         1\n*SECTION_SOLID\n         1         1\n"
                           "*MAT_ELASTIC\n         1   7.85e-9  210000.0       0.3\n" +
                           hex_block_cards(1, 1, 1, 1.0, 1.0, 1.0, 1);
  // MNEPS (card 1, field 4) is not supported: the error names the field
  try {
    read_deck_text("er_mneps", head + "*MAT_ADD_EROSION\n         1       0.0       0.0      -0.1\n"
                                      "\n*END\n");
    ADD_FAILURE() << "MNEPS was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("MNEPS"), std::string::npos) << e.what();
  }
  // ... unless it equals EXCL
  const Model m = read_deck_text(
      "er_excl", head + "*MAT_ADD_EROSION\n         1     -99.0       0.0     -99.0\n"
                        "       0.0       0.0     500.0\n*END\n");
  ASSERT_EQ(m.add_erosions.size(), 1u);
  EXPECT_TRUE(m.add_erosions[0].has_sigvm);
  EXPECT_FALSE(m.add_erosions[0].has_mxpres);
  // the eroding card of *CONTACT_ERODING_...
  const Model c = read_deck_text(
      "er_contact", head + "*CONTACT_ERODING_SINGLE_SURFACE\n         0         0         5\n\n\n"
                           "         0         1         0\n*END\n");
  ASSERT_EQ(c.contacts.size(), 1u);
  EXPECT_TRUE(c.contacts[0].eroding);
  EXPECT_EQ(c.contacts[0].erosop, 1);
}
