// *DEFINE_ELEMENT_DEATH_SOLID / _SOLID_SET / _SHELL / _SHELL_SET through the explicit solver: a
// block translating freely at v loses the elements named at their TIME, not before; the nodes
// they leave behind carry their kinetic energy into the eroded kinetic energy, exactly (the
// block does not strain), and the energy balance holds.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr double kRho = 7.85e-9, kV = 1000.0; // t/mm^3, mm/s

struct DeathRun {
  std::map<long, double> died; ///< element id -> time of the first sample where it is gone
  GlobalStats last;
  RunSummary sum;
};

template <class Parts> void record(const Parts& parts, double t, std::map<long, double>& died) {
  for (const auto& sp : parts)
    for (std::size_t k = 0; k < sp.blk.size(); ++k)
      if (sp.blk.failed[k] && !died.count(static_cast<long>(sp.elem_id[k])))
        died[static_cast<long>(sp.elem_id[k])] = t;
}

DeathRun run_deck(const std::string& tag, const std::string& body) {
  // TSSFAC 0.6: a block one element thick has light corners (see test_loads_and_walls.cpp)
  Model m = read_deck_text(tag, "*KEYWORD\n*CONTROL_TERMINATION\n    3.0e-4\n"
                                "*CONTROL_TIMESTEP\n              0.6\n" +
                                    body + "*END\n");
  RunOptions opt = quiet_run(tag);
  opt.stats_every_cycle = true;
  DeathRun r;
  opt.on_cycle = [&](const Domain& d, const GlobalStats& s) {
    record(d.solids, s.time, r.died);
    record(d.shells, s.time, r.died);
    r.last = s;
    return true;
  };
  r.sum = run_explicit(m, opt);
  return r;
}

std::string moving(int pid) {
  return fmt::format(
      "*INITIAL_VELOCITY_GENERATION\n{:10d}         2       0.0{:10.1f}       0.0       0.0\n"
      "       0.0       0.0       0.0       0.0       0.0       0.0\n",
      pid, kV);
}

} // namespace

TEST(ElementDeath, SolidsDieAtTheirTimeAndTheirFreeNodesCarryTheKineticEnergyAway) {
  // Four 10 mm hexahedra in a row (x = 0..40) moving at v in x. Element 4 dies at 1e-4 (TIME);
  // of the set {1, 2}, the element whose centroid enters the box 5.2 < x < 14.9 dies: element 1
  // (centroid at 5 + v t) at t = 0.2 mm / v = 2e-4; element 2 (centroid 15) moves away from it.
  // With a box, TIME = 0 deletes nothing by time.
  // Each death frees the 4 end nodes (mass rho V / 8 each): eroded KE = rho V v^2 / 4 each.
  const std::string body =
      "*PART\nblock\n         1         1         1\n*SECTION_SOLID\n         1         1\n"
      "*MAT_ELASTIC\n         1  7.85e-09  210000.0       0.3\n" +
      hex_block_cards(4, 1, 1, 40, 10, 10, 1) + moving(1) +
      "*DEFINE_ELEMENT_DEATH_SOLID\n         4    1.0e-4\n"
      "*SET_SOLID\n         5\n         1         2\n"
      "*DEFINE_ELEMENT_DEATH_SOLID_SET\n         5       0.0         9         0\n"
      "*DEFINE_BOX\n         9       5.2      14.9      -1.0      11.0      -1.0      11.0\n";
  const DeathRun r = run_deck("death_solid", body);
  ASSERT_TRUE(r.sum.normal_termination) << r.sum.error;
  ASSERT_EQ(r.died.size(), 2u);
  ASSERT_TRUE(r.died.count(4) && r.died.count(1));
  // at the first force pass at or after TIME: the sample's time is one step later at most
  EXPECT_GE(r.died.at(4), 1.0e-4);
  EXPECT_LT(r.died.at(4), 1.0e-4 + 2 * r.sum.dt_initial);
  EXPECT_GE(r.died.at(1), 2.0e-4);
  EXPECT_LT(r.died.at(1), 2.0e-4 + 2 * r.sum.dt_initial);
  const double vol = 10.0 * 10.0 * 10.0;
  EXPECT_NEAR(r.last.eroded_kinetic, 2 * kRho * vol * kV * kV / 4, 1e-9 * kRho * vol * kV * kV);
  // the rest (two elements' worth of the 2 rho V v^2 at the start) keeps moving
  EXPECT_NEAR(r.last.kinetic, 1.5 * kRho * vol * kV * kV, 1e-9 * kRho * vol * kV * kV);
  EXPECT_NEAR(r.last.total, r.last.initial_total, 1e-9 * r.last.initial_total);
}

TEST(ElementDeath, ShellsDieAtTheirTimeOutsideTheBox) {
  // Three shells in a strip (x = 0..30) moving at v in x. Shell 2 dies at 1e-4 (_SHELL); of the
  // set {1, 2, 3}, those whose centroid leaves the box x < 25.2 (INOUT = 1) die: shell 3
  // (centroid 25 + v t) at 2e-4. Shell 1 keeps living.
  const std::string body =
      "*PART\nstrip\n         1         1         1\n*SECTION_SHELL\n         1         2"
      "       1.0         5\n       1.0       1.0       1.0       1.0\n"
      "*MAT_ELASTIC\n         1  7.85e-09  210000.0       0.3\n" +
      shell_grid_cards(3, 1, 30, 10, 1) + moving(1) +
      "*DEFINE_ELEMENT_DEATH_SHELL\n         2    1.0e-4\n"
      "*SET_SHELL_LIST\n         5\n         1         2         3\n"
      "*DEFINE_ELEMENT_DEATH_SHELL_SET\n         5       0.0         9         1\n"
      "*DEFINE_BOX\n         9      -1.0      25.2      -1.0      11.0      -1.0       1.0\n";
  const DeathRun r = run_deck("death_shell", body);
  ASSERT_TRUE(r.sum.normal_termination) << r.sum.error;
  ASSERT_EQ(r.died.size(), 2u);
  ASSERT_TRUE(r.died.count(2) && r.died.count(3));
  EXPECT_GE(r.died.at(2), 1.0e-4);
  EXPECT_LT(r.died.at(2), 1.0e-4 + 2 * r.sum.dt_initial);
  EXPECT_GE(r.died.at(3), 2.0e-4);
  EXPECT_LT(r.died.at(3), 2.0e-4 + 2 * r.sum.dt_initial);
  // shell 2's death frees no node (its nodes are shared with shells 1 and 3); shell 3's then
  // frees all its 4: the two at x = 20 carry a quarter of shell 2's mass m and of shell 3's
  // each, the two at x = 30 a quarter of m each: 1.5 m; energy is conserved
  const double m = kRho * 10.0 * 10.0 * 1.0;
  EXPECT_NEAR(r.last.eroded_kinetic, 0.5 * (1.5 * m) * kV * kV, 1e-9 * m * kV * kV);
  EXPECT_NEAR(r.last.kinetic, 0.5 * (1.5 * m) * kV * kV, 1e-9 * m * kV * kV);
  EXPECT_NEAR(r.last.total, r.last.initial_total, 1e-9 * r.last.initial_total);
}

TEST(ElementDeath, NoneDuringDynamicRelaxationThenAtTheTransientsTime) {
  // A relaxation phase (a body load whose curve has SIDR = 1, stopped at DRTERM = 3e-4) runs
  // past TIME = 1e-4 on its own clock: nothing may die then; element 4 dies at the transient's
  // 1e-4.
  std::string d =
      "*KEYWORD\n*CONTROL_TERMINATION\n    2.0e-4\n"
      "*CONTROL_TIMESTEP\n              0.6\n"
      "*CONTROL_DYNAMIC_RELAXATION\n       250     0.001     0.995    3.0e-4\n"
      "*PART\nblock\n         1         1         1\n*SECTION_SOLID\n         1         1\n"
      "*MAT_ELASTIC\n         1  7.85e-09  210000.0       0.3\n" +
      hex_block_cards(4, 1, 1, 40, 10, 10, 1) +
      "*LOAD_BODY_X\n         1    9810.0\n"
      "*DEFINE_CURVE\n         1         1\n0.0,1.0\n1.0,1.0\n"
      "*DEFINE_ELEMENT_DEATH_SOLID\n         4    1.0e-4\n*END\n";
  Model m = read_deck_text("death_dr", d);
  RunOptions opt = quiet_run("death_dr");
  std::ostringstream log;
  opt.log = &log;
  const RunSummary sum = run_explicit(m, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  const std::string text = log.str();
  ASSERT_NE(text.find("relaxation"), std::string::npos) << text;
  const auto at = text.find("eroded at time ");
  ASSERT_NE(at, std::string::npos) << text;
  EXPECT_EQ(text.find("eroded at time ", at + 1), std::string::npos) << text; // once
  const double t = std::stod(text.substr(at + 15));
  EXPECT_GE(t, 1.0e-4) << text;
  EXPECT_LT(t, 1.0e-4 + 2 * sum.dt_initial) << text;
  // the erosion line comes after the relaxation's end (it ran past TIME on its own clock)
  const auto end = text.find("relaxation ended");
  ASSERT_NE(end, std::string::npos) << text;
  EXPECT_GT(at, end) << text;
}

TEST(ElementDeath, BadCardsAreRefusedAtTheirField) {
  const std::string base = "*KEYWORD\n*PART\nblock\n         1         1         1\n"
                           "*SECTION_SOLID\n         1         1\n"
                           "*MAT_ELASTIC\n         1  7.85e-09  210000.0       0.3\n" +
                           hex_block_cards(1, 1, 1, 10, 10, 10, 1);
  for (const auto& [card, what] : std::vector<std::pair<std::string, std::string>>{
           {"*DEFINE_ELEMENT_DEATH_SOLID\n         7    1.0e-4\n", "solid element 7"},
           {"*DEFINE_ELEMENT_DEATH_SOLID_SET\n         7    1.0e-4\n", "solid set 7"},
           {"*DEFINE_ELEMENT_DEATH_SOLID\n         1    1.0e-4         3\n", "BOXID = 3"},
           {"*DEFINE_ELEMENT_DEATH_SOLID\n         1    1.0e-4         0         0         4\n",
            "IDGRP = 4"},
           {"*DEFINE_ELEMENT_DEATH_SOLID\n         1    1.0e-4         0         2\n", "INOUT = 2"},
           {"*DEFINE_ELEMENT_DEATH_SOLID\n         1    1.0e-4\n*PART\nrigid\n         2    "
            "     1         3\n*MAT_RIGID\n         3   7.85e-9  210000.0       0.3\n" +
                hex_block_cards(1, 1, 1, 10, 10, 10, 2, 101, 101, 20, 0, 0) +
                "*DEFINE_ELEMENT_DEATH_SOLID\n       101    1.0e-4\n",
            "rigid part 2"}}) {
    try {
      (void)read_deck_text("death_bad", base + card + "*END\n");
      ADD_FAILURE() << card;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("deck.k:"), std::string::npos) << e.what();
    }
  }
}
