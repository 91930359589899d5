// *CONTACT_FORMING_ONE_WAY_SURFACE_TO_SURFACE: a *MAT_037 blank pressed by nodal loads onto a
// fixed rigid die whose segments are ordered inconsistently (two of the four face away from
// the blank). The forming contact orients the die towards the blank and holds it:
//  - force balance: the mean contact force over the run, F_c = F - P(T)/T (P: the blank's
//    z momentum, F the applied load), equals the load within 1 %: the blank rests on the die,
//    only its contact vibration (amplitude ~ the static penetration F_node/k ~ 1e-6 mm) is left
//    in P(T), worth ~0.1 % of F T over this run;
//  - penetration bound: no blank node goes below the contact surface (the blank's half
//    thickness above the die, z = 0.5: forming contacts leave out the rigid tool's thickness
//    under *CONTROL_CONTACT SHLTHK 0 or 1) by more than 1e-3 mm (the static penetration is ~2e-6
//    mm; 1e-3 allows for the dynamic overshoot of the suddenly applied load by far).
// The same deck with *CONTACT_NODES_TO_SURFACE and *CONTROL_CONTACT ORIEN = 3 (non-automatic,
// no reorientation: the die is taken as ordered) lets the blank through where the die faces
// away: the check can fail. At the default ORIEN = 1 the plain contact reorients the die too.
#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr int kN = 4;            // blank: kN x kN shells on [0,10]^2
constexpr Real kNodeForce = 0.4; // N per blank node, -z
constexpr Real kBlankZ = 0.5;    // touching: the blank's half thickness (rigid die: none)

std::string forming_deck(const std::string& contact_keyword) {
  std::string d = "*KEYWORD\n";
  d += "*CONTROL_TERMINATION\n    2.0e-4\n";
  d += "*PART\nblank\n         1         1         1\n";
  d += "*SECTION_SHELL\n         1         2     0.833         3\n       1.0       1.0       "
       "1.0       1.0\n";
  d += "*MAT_TRANSVERSELY_ANISOTROPIC_ELASTIC_PLASTIC\n"
       "         1   7.85e-9  210000.0       0.3     200.0    1000.0       1.5\n";
  d += "*PART\ndie\n         2         2         2\n";
  d += "*SECTION_SHELL\n         2         2     0.833         3\n       1.0       1.0       "
       "1.0       1.0\n";
  d += "*MAT_RIGID\n         2   7.85e-9  210000.0       0.3\n       1.0         7         7\n";
  d += "*NODE\n";
  for (int j = 0; j <= kN; ++j)
    for (int i = 0; i <= kN; ++i)
      d += fmt::format("{:8d}{:16.6f}{:16.6f}{:16.6f}\n", 1 + i + (kN + 1) * j, 10.0 * i / kN,
                       10.0 * j / kN, kBlankZ);
  for (int j = 0; j <= 2; ++j) // die: 2 x 2 on [-5, 15]^2 at z = 0
    for (int i = 0; i <= 2; ++i)
      d += fmt::format("{:8d}{:16.6f}{:16.6f}{:16.6f}\n", 101 + i + 3 * j, -5.0 + 10.0 * i,
                       -5.0 + 10.0 * j, 0.0);
  d += "*ELEMENT_SHELL\n";
  for (int j = 0; j < kN; ++j)
    for (int i = 0; i < kN; ++i) {
      const int a = 1 + i + (kN + 1) * j;
      d += fmt::format("{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}\n", 1 + i + kN * j, 1, a, a + 1, a + kN + 2,
                       a + kN + 1);
    }
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 2; ++i) {
      const int a = 101 + i + 3 * j;
      const bool up = (i + j) % 2 == 0; // a checkerboard of +z and -z normals
      if (up)
        d += fmt::format("{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}\n", 101 + i + 2 * j, 2, a, a + 1, a + 4,
                         a + 3);
      else
        d += fmt::format("{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}\n", 101 + i + 2 * j, 2, a, a + 3, a + 4,
                         a + 1);
    }
  std::vector<long> blank;
  for (long n = 1; n <= (kN + 1) * (kN + 1); ++n) blank.push_back(n);
  d += node_set_card(1, blank);
  d += "*LOAD_NODE_SET\n         1         3         1" + fmt::format("{:10.4f}\n", -kNodeForce);
  d += "*DEFINE_CURVE\n         1\n                 0.0                 1.0\n"
       "                 1.0                 1.0\n";
  d += contact_keyword + "\n         1         2         3         3\n\n\n";
  d += "*END\n";
  return d;
}

struct Outcome {
  bool ok = false;
  std::string error;
  Real min_z = 1e30;   ///< lowest blank node over the run
  Real mean_force = 0; ///< F - P(T)/T
  Real applied = 0;    ///< F
};

Outcome run_forming(const std::string& keyword, const std::string& tag) {
  Model model = read_deck_text(tag, forming_deck(keyword));
  RunOptions opt = quiet_run(tag);
  const std::size_t nb = (kN + 1) * (kN + 1);
  Outcome out;
  Real p = 0, t = 0;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
    p = 0;
    for (std::size_t k = 0; k < dom.node_id.size(); ++k) {
      if (dom.node_id[k] > static_cast<GlobalId>(nb)) continue;
      out.min_z = std::min(out.min_z, dom.x[3 * k + 2]);
      p += dom.mass[k] * dom.v[3 * k + 2];
    }
    t = s.time;
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  out.ok = sum.normal_termination;
  out.error = sum.error;
  out.applied = kNodeForce * static_cast<Real>(nb);
  // blank momentum: dP/dt = -F + F_c (v is half a step behind x; negligible against F T)
  out.mean_force = t > 0 ? out.applied + p / t : 0;
  return out;
}

} // namespace

TEST(FormingContact, BlankRestsOnAnInconsistentlyOrientedDie) {
  const Outcome o = run_forming("*CONTACT_FORMING_ONE_WAY_SURFACE_TO_SURFACE", "forming");
  ASSERT_TRUE(o.ok) << o.error;
  EXPECT_NEAR(o.mean_force, o.applied, 0.01 * o.applied);
  EXPECT_GT(o.min_z, 0.5 - 1e-3);
  EXPECT_LT(o.min_z, kBlankZ); // the load did bring it into contact
}

// With *CONTROL_CONTACT ORIEN = 3 (no reorientation for non-forming contacts) a plain
// NODES_TO_SURFACE takes the die as ordered and lets the blank through where the die faces
// away: either the run stops or blank nodes end up below the die.
TEST(FormingContact, NonFormingContactWithoutReorientationLetsTheBlankThrough) {
  const Outcome o = run_forming("*CONTROL_CONTACT\n       0.1         0         0         0"
                                "         0         0         3\n*CONTACT_NODES_TO_SURFACE",
                                "forming_plain");
  if (o.ok) EXPECT_LT(o.min_z, 0.0);
}

// At LS-DYNA's default ORIEN = 1 the die, given by parts, is reoriented at set-up like the
// forming contact's, consistently and facing the blank: the blank rests on it, at the sum of
// the half thicknesses (a plain contact keeps the rigid die's: 0.5 + 0.5; the initial overlap is
// moved out), and carries the load (1 %, as above).
TEST(FormingContact, NonFormingContactReorientsPartInput) {
  const Outcome o = run_forming("*CONTACT_NODES_TO_SURFACE", "forming_orien");
  ASSERT_TRUE(o.ok) << o.error;
  EXPECT_GT(o.min_z, 1.0 - 1e-3);
  EXPECT_NEAR(o.mean_force, o.applied, 0.01 * o.applied);
}
