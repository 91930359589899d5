// Contact work in the decomposition: elements with contact nodes weigh cost_contact x (share of
// their nodes in contact) more, in RCB, METIS and the report; the shares from a deck's *CONTACT
// cards (set_contact_fractions, solvers/common/contact_weights.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "input/keyword_reader.hpp"
#include "mesh/decompose.hpp"
#include "mesh_test_util.hpp"
#include "solvers/common/contact_weights.hpp"
#include "test_support.hpp"

namespace parcae::test {
namespace {

/// 40 x 2 x 2 unit hexahedra along x (160 elements): long in x, so a 2-way RCB cuts across x.
/// The low half (x < 20, 80 elements) is on a contact surface (fraction 1), the rest is not.
struct HalfContactBlock {
  Model m;
  DecompOptions o;
  HalfContactBlock() {
    add_hex_block(m, 40, 2, 2, 40, 2, 2);
    o.nparts = 2;
    o.contact_fraction_solid.resize(m.solids.size());
    for (std::size_t e = 0; e < m.solids.size(); ++e)
      o.contact_fraction_solid[e] = solid_centroid(m, e)[0] < 20 ? 1.0 : 0.0;
  }
  [[nodiscard]] bool contact(std::size_t e) const { return o.contact_fraction_solid[e] == 1.0; }
  /// Element cost as the options define it (independent of the library's arithmetic).
  [[nodiscard]] Real cost(std::size_t e) const {
    return o.cost_solid + (contact(e) ? o.cost_contact : 0.0);
  }
};

TEST(ContactCost, DefaultIsMeasuredShare) {
  // decompose.cpp: contact time / non-contact cycle time of the all-contact tube benchmark
  // (4.899 s / 7.000 s = 0.70) times the shell cost.
  const DecompOptions o;
  EXPECT_NEAR(o.cost_contact, 0.70 * o.cost_shell, 0.01);
  EXPECT_NEAR(o.cost_contact, 0.84, 1e-12);
  EXPECT_TRUE(o.contact_fraction_solid.empty());
  EXPECT_TRUE(o.contact_fraction_shell.empty());
}

TEST(ContactCost, RcbGivesTheContactSideFewerElements) {
  HalfContactBlock b;
  ASSERT_GT(b.o.cost_contact, 0);
  for (const DecompMethod method : {DecompMethod::Rcb, DecompMethod::Metis}) {
    b.o.method = method;
    const Decomposition d = decompose(b.m, b.o);
    // Per rank: elements, contact elements and cost, counted here.
    std::size_t count[2] = {0, 0}, contact[2] = {0, 0};
    Real cost[2] = {0, 0};
    for (std::size_t e = 0; e < b.m.solids.size(); ++e) {
      const auto r = static_cast<std::size_t>(d.solid_rank[e]);
      ++count[r];
      contact[r] += b.contact(e) ? 1 : 0;
      cost[r] += b.cost(e);
    }
    // The rank with most of the contact elements has fewer elements in all.
    const std::size_t c = contact[0] > contact[1] ? 0 : 1;
    EXPECT_LT(count[c], count[1 - c]) << "method " << static_cast<int>(method);
    const Real max_cost = b.o.cost_solid + b.o.cost_contact;
    if (method == DecompMethod::Rcb) {
      // Total 80 x 1.84 + 80 x 1 = 227.2; half = 113.6 = 61.7 contact elements: the contact
      // rank holds 61 or 62 contact elements and nothing else; costs within one element's cost.
      EXPECT_EQ(contact[c], count[c]);
      EXPECT_GE(count[c], 61U);
      EXPECT_LE(count[c], 62U);
      EXPECT_LE(std::abs(cost[0] - cost[1]), max_cost) << cost[0] << " vs " << cost[1];
    } else {
      // METIS: integer weights, 1 % tolerance (UFACTOR 10) plus a few boundary elements.
      EXPECT_LE(std::abs(cost[0] - cost[1]), 0.03 * (cost[0] + cost[1]))
          << cost[0] << " vs " << cost[1];
    }
    // The report with the same options: the same per-rank costs and a small imbalance.
    const DecompReport rep = analyse_decomposition(b.m, d, b.o);
    EXPECT_TRUE(rep.contact_cost);
    for (std::size_t r = 0; r < 2; ++r) EXPECT_NEAR(rep.ranks[r].cost, cost[r], 1e-9);
    EXPECT_LT(rep.imbalance, 0.03) << format_decomposition_report(rep);
  }
}

TEST(ContactCost, WithoutFractionsTheSplitIsEvenByCount) {
  HalfContactBlock b;
  b.o.contact_fraction_solid.clear();
  const Decomposition d = decompose(b.m, b.o);
  const auto on0 =
      static_cast<std::size_t>(std::count(d.solid_rank.begin(), d.solid_rank.end(), 0));
  EXPECT_EQ(on0, 80U);
  // Zero fractions or zero contact cost: the same decomposition as no fractions.
  HalfContactBlock z;
  std::fill(z.o.contact_fraction_solid.begin(), z.o.contact_fraction_solid.end(), 0.0);
  EXPECT_EQ(decompose(z.m, z.o).solid_rank, d.solid_rank);
  HalfContactBlock k;
  k.o.cost_contact = 0;
  EXPECT_EQ(decompose(k.m, k.o).solid_rank, d.solid_rank);
}

TEST(ContactCost, ReportImbalanceIncludesContact) {
  // The count-balanced split (x < 20 | x >= 20) seen with contact costs: rank costs 80 x 1.84
  // = 147.2 and 80, mean 113.6, imbalance 147.2 / 113.6 - 1 = 29.6 %. Without fractions: 0.
  HalfContactBlock b;
  DecompOptions plain = b.o;
  plain.contact_fraction_solid.clear();
  const Decomposition d = decompose(b.m, plain);
  const DecompReport without = analyse_decomposition(b.m, d);
  EXPECT_FALSE(without.contact_cost);
  EXPECT_NEAR(without.imbalance, 0.0, 1e-12);
  EXPECT_NEAR(without.ranks[0].cost, 80.0, 1e-9);
  const DecompReport with = analyse_decomposition(b.m, d, b.o);
  EXPECT_TRUE(with.contact_cost);
  const Real hi = 80 * (1 + b.o.cost_contact), lo = 80;
  EXPECT_NEAR(std::max(with.ranks[0].cost, with.ranks[1].cost), hi, 1e-9);
  EXPECT_NEAR(std::min(with.ranks[0].cost, with.ranks[1].cost), lo, 1e-9);
  EXPECT_NEAR(with.imbalance, hi / ((hi + lo) / 2) - 1, 1e-12);
  EXPECT_NEAR(with.imbalance, 147.2 / 113.6 - 1, 1e-12); // the default cost_contact 0.84
  // The text says so only when contact is included.
  const std::string text_with = format_decomposition_report(with);
  const std::string text_without = format_decomposition_report(without);
  EXPECT_NE(text_with.find("29.58%"), std::string::npos) << text_with;
  EXPECT_NE(text_with.find("includes contact"), std::string::npos) << text_with;
  EXPECT_EQ(text_without.find("contact"), std::string::npos) << text_without;
}

TEST(ContactCost, PartialFractionsShellsAndRigidByHand) {
  // Two unit hexahedra (one per rank) with fractions 0.5 and 0.25; a rigid pair likewise; two
  // shells with 1 and 0.
  const DecompOptions defaults;
  Model m;
  add_hex_block(m, 2, 1, 1, 2, 1, 1);
  DecompOptions o;
  o.nparts = 2;
  o.contact_fraction_solid = {0.5, 0.25};
  DecompReport rep = analyse_decomposition(m, decompose(m, o), o);
  Real c0 = rep.ranks[0].cost, c1 = rep.ranks[1].cost;
  if (c0 < c1) std::swap(c0, c1);
  EXPECT_NEAR(c0, 1 + 0.5 * 0.84, 1e-12);
  EXPECT_NEAR(c1, 1 + 0.25 * 0.84, 1e-12);
  EXPECT_NEAR(defaults.cost_contact, 0.84, 1e-12);

  Model rigid;
  add_hex_block(rigid, 2, 1, 1, 2, 1, 1, 1, MaterialKind::Rigid);
  o.contact_fraction_solid = {1.0, 0.0};
  rep = analyse_decomposition(rigid, decompose(rigid, o), o);
  c0 = rep.ranks[0].cost, c1 = rep.ranks[1].cost;
  if (c0 < c1) std::swap(c0, c1);
  EXPECT_NEAR(c0, 0.05 + 0.84, 1e-12); // rigid nodes in contact are searched like any other
  EXPECT_NEAR(c1, 0.05, 1e-12);

  Model shells;
  add_shell_grid(shells, 2, 1, 2, 1);
  DecompOptions os;
  os.nparts = 2;
  os.contact_fraction_shell = {1.0, 0.0};
  rep = analyse_decomposition(shells, decompose(shells, os), os);
  EXPECT_NEAR(rep.ranks[0].cost + rep.ranks[1].cost, 1.2 + 1.2 + 0.84, 1e-12);
}

TEST(ContactCost, WrongFractionsAreAnError) {
  HalfContactBlock b;
  b.o.contact_fraction_solid.pop_back();
  EXPECT_THROW(decompose(b.m, b.o), RuntimeError);
  EXPECT_THROW(analyse_decomposition(b.m, Decomposition{2, std::vector<int>(160, 0), {}, {}}, b.o),
               RuntimeError);
  HalfContactBlock n;
  n.o.contact_fraction_solid[3] = 1.5;
  EXPECT_THROW(decompose(n.m, n.o), RuntimeError);
  n.o.contact_fraction_solid[3] = std::nan("");
  EXPECT_THROW(decompose(n.m, n.o), RuntimeError);
  HalfContactBlock s; // shell fractions for a model without shells
  s.o.contact_fraction_shell = {1.0};
  EXPECT_THROW(decompose(s.m, s.o), RuntimeError);
}

// ---------------------------------------------------------------------------------------------
// set_contact_fractions on a deck

/// Part 1: a 4 x 4 x 4 block of hexahedra (nodes 1.., elements 1..64); part 2: a 2 x 2 shell
/// plate (nodes 1001.., elements 1001..); part 3: two hexahedra (nodes 2001.., elements
/// 2001..). *CONTACT_AUTOMATIC_SURFACE_TO_SURFACE between part 2 (secondary) and part 1: the
/// block's exterior nodes and all plate nodes are contact nodes; part 3 is in no contact.
std::string contact_deck(bool with_contact) {
  std::string d = "*KEYWORD\n*CONTROL_TERMINATION\n1.0e-3\n";
  d += hex_block_cards(4, 4, 4, 4, 4, 4, 1, 1, 1, 0, 0, 1);
  d += shell_grid_cards(2, 2, 4, 4, 2, 1001, 1001);
  d += hex_block_cards(2, 1, 1, 2, 1, 1, 3, 2001, 2001, 10, 0, 0);
  d += "*PART\nblock\n1,1,1\n*PART\nplate\n2,2,1\n*PART\nother\n3,1,1\n"
       "*SECTION_SOLID\n1,1\n*SECTION_SHELL\n2,2\n0.5,0.5,0.5,0.5\n"
       "*MAT_ELASTIC\n1,7.85e-9,210000.,0.3\n";
  if (with_contact) d += "*CONTACT_AUTOMATIC_SURFACE_TO_SURFACE\n2,1,3,3\n\n\n";
  return d + "*END\n";
}

Model read_contact_deck(bool with_contact) {
  const auto dir = make_temp_dir("contact_cost");
  write_file(dir / "deck.k", contact_deck(with_contact));
  return read_deck((dir / "deck.k").string());
}

TEST(ContactFractions, FromDeck) {
  const Model m = read_contact_deck(true);
  ASSERT_EQ(m.solids.size(), 66U);
  ASSERT_EQ(m.shells.size(), 4U);
  DecompOptions o;
  o.nparts = 2;
  set_contact_fractions(m, o);
  ASSERT_EQ(o.contact_fraction_solid.size(), 66U);
  ASSERT_EQ(o.contact_fraction_shell.size(), 4U);
  for (std::size_t e = 0; e < 4; ++e) EXPECT_EQ(o.contact_fraction_shell[e], 1.0) << e;
  // Block element (i, j, k) (id 1 + i + 4 (j + 4 k)): its corner (i + a, j + b, k + c) is a
  // contact node if it is on the block's exterior (an index 0 or 4).
  int zero = 0, one = 0;
  for (std::size_t e = 0; e < 64; ++e) {
    ASSERT_EQ(m.solids.id[e], static_cast<GlobalId>(e + 1));
    const int i = static_cast<int>(e) % 4, j = static_cast<int>(e) / 4 % 4,
              k = static_cast<int>(e) / 16;
    int on = 0;
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b)
        for (int c = 0; c < 2; ++c) {
          auto ext = [](int x) { return x == 0 || x == 4; };
          on += ext(i + a) || ext(j + b) || ext(k + c) ? 1 : 0;
        }
    EXPECT_DOUBLE_EQ(o.contact_fraction_solid[e], on / 8.0) << "element " << e + 1;
    zero += on == 0 ? 1 : 0;
    one += on == 8 ? 1 : 0;
  }
  EXPECT_EQ(zero, 8); // the 2 x 2 x 2 core: no contact node
  EXPECT_EQ(one, 0);  // every block element has an interior corner
  for (std::size_t e = 64; e < 66; ++e) EXPECT_EQ(o.contact_fraction_solid[e], 0.0) << e;
  // Corner element 1: 7 of 8 nodes on the exterior; face-centre element (1,1,0): 4 of 8.
  EXPECT_DOUBLE_EQ(o.contact_fraction_solid[0], 7.0 / 8);
  EXPECT_DOUBLE_EQ(o.contact_fraction_solid[5], 4.0 / 8);

  // Used by the decomposition: the contact elements weigh more than without fractions.
  DecompOptions plain;
  plain.nparts = 2;
  const Decomposition d = decompose(m, o);
  EXPECT_GT(analyse_decomposition(m, d, o).ranks[0].cost +
                analyse_decomposition(m, d, o).ranks[1].cost,
            analyse_decomposition(m, d, plain).ranks[0].cost +
                analyse_decomposition(m, d, plain).ranks[1].cost + 1.0);
}

TEST(ContactFractions, NoContactCardsLeaveThemEmpty) {
  const Model m = read_contact_deck(false);
  DecompOptions o;
  o.contact_fraction_solid = {0.5}; // stale values are cleared
  set_contact_fractions(m, o);
  EXPECT_TRUE(o.contact_fraction_solid.empty());
  EXPECT_TRUE(o.contact_fraction_shell.empty());
}

TEST(ContactFractions, DegenerateElementsCountDistinctNodes) {
  // A triangle (n3 == n4) with two of its three distinct nodes in contact: 2/3, not 2/4 or 3/4.
  const auto dir = make_temp_dir("contact_cost_tri");
  write_file(dir / "deck.k",
             "*KEYWORD\n*CONTROL_TERMINATION\n1.0e-3\n"
             "*NODE\n1,0,0,0\n2,1,0,0\n3,0,1,0\n11,0,0,1\n12,1,0,1\n13,1,1,1\n14,0,1,1\n"
             "*ELEMENT_SHELL\n1,1,1,2,3,3\n2,2,11,12,13,14\n"
             "*PART\ntri\n1,1,1\n*PART\nquad\n2,1,1\n*SECTION_SHELL\n1,2\n0.5,0.5,0.5,0.5\n"
             "*MAT_ELASTIC\n1,7.85e-9,210000.,0.3\n"
             "*SET_NODE_LIST\n5\n1,2\n"
             "*CONTACT_AUTOMATIC_NODES_TO_SURFACE\n5,2,4,3\n\n\n*END\n");
  const Model m = read_deck((dir / "deck.k").string());
  DecompOptions o;
  set_contact_fractions(m, o);
  ASSERT_EQ(o.contact_fraction_shell.size(), 2U);
  EXPECT_DOUBLE_EQ(o.contact_fraction_shell[0], 2.0 / 3);
  EXPECT_DOUBLE_EQ(o.contact_fraction_shell[1], 1.0);
}

} // namespace
} // namespace parcae::test
