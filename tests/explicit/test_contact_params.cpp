// Contact parameters from the deck (contact_setup.hpp): the contact's own card C IGNORE
// overrides *CONTROL_CONTACT's; blank takes it. *CONTACT_AUTOMATIC_GENERAL: the beams' contact
// diameters (SST, OPTT, section) and stiffness, CPARM8, and the single-surface interface of the
// set's shells and solids. Shell contact thickness: SFST, SST, OPTT and the single-surface limit
// (SSTHK).
#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>

#include "../input/keyword_test_util.hpp"
#include "solvers/common/contact_setup.hpp"

namespace parcae::test {
namespace {

std::string contact_deck(const std::string& control, const std::string& card_c) {
  return cube_deck(control + "*CONTACT_AUTOMATIC_SINGLE_SURFACE\n0,,5\n\n\n\n\n" + card_c + "\n");
}

int ignore_of(const std::string& control, const std::string& card_c) {
  const Model m = read_text(contact_deck(control, card_c));
  return contact_params(m.contacts.at(0), m.control).ignore;
}

TEST(ContactParams, IgnoreFromCardCOverridesControlContact) {
  // *CONTROL_CONTACT card 4 field 1 is IGNORE
  const std::string control0 = "*CONTROL_CONTACT\n0.1\n\n\n0\n";
  const std::string control1 = "*CONTROL_CONTACT\n0.1\n\n\n1\n";
  EXPECT_EQ(ignore_of(control0, ""), 0);
  EXPECT_EQ(ignore_of(control1, ""), 1);
  EXPECT_EQ(ignore_of(control0, ",1"), 1);
  EXPECT_EQ(ignore_of(control0, ",2"), 1);
  EXPECT_EQ(ignore_of(control1, ",0"), 1) << "0 takes *CONTROL_CONTACT's";
}

/// Three truss parts (A = 16: sqrt(A) = 4; beams 10 long) in part set 9: part 1 plain, part 2
/// with *PART_CONTACT OPTT = 3, part 3 a two-beam chain; E = 2e5, SLSFAC 0.1.
std::string beam_contact_deck(const std::string& card3, const std::string& mpp = "") {
  return cube_deck("*NODE\n11,0,0,5\n12,10,0,5\n21,0,5,5\n22,10,5,5\n31,0,9,5\n32,10,9,5\n"
                   "33,20,9,5\n*ELEMENT_BEAM\n1,11,11,12\n2,12,21,22\n3,13,31,32\n4,13,32,33\n"
                   "*PART\nplain\n11,2,2\n*PART_CONTACT\nthick\n12,2,2\n,,,,3.0\n"
                   "*PART\nchain\n13,2,2\n*SECTION_BEAM\n2,3\n16.0\n"
                   "*MAT_ELASTIC\n2,7.85e-9,2.0e5,0.3\n*SET_PART_LIST\n9\n11,12,13\n" +
                   std::string(mpp.empty() ? "*CONTACT_AUTOMATIC_GENERAL\n"
                                           : "*CONTACT_AUTOMATIC_GENERAL_MPP\n" + mpp + "\n") +
                   "9,,2\n\n" + card3 + "\n");
}

// LS-DYNA's *CONTACT_AUTOMATIC_SINGLE_SURFACE_MORTAR includes beams (cylinders around their
// axes): parcae gives it the beam-to-beam contact of *CONTACT_AUTOMATIC_GENERAL, the same edge
// set; the plain single surface contact has none.
TEST(BeamContactSetup, SingleSurfaceMortarIncludesTheBeams) {
  std::string deck = beam_contact_deck(",,,,2.0");
  const std::size_t at = deck.find("*CONTACT_AUTOMATIC_GENERAL");
  ASSERT_NE(at, std::string::npos);
  const ContactModel general = build_contact_model(read_text(deck));
  std::string mortar = deck;
  mortar.replace(at, 26, "*CONTACT_AUTOMATIC_SINGLE_SURFACE_MORTAR");
  const Model mm = read_text(mortar);
  EXPECT_TRUE(mm.contacts.at(0).general);
  const ContactModel cm = build_contact_model(mm);
  ASSERT_EQ(cm.edge_sets.size(), 1u);
  ASSERT_EQ(cm.edge_sets[0].size(), general.edge_sets.at(0).size());
  for (std::size_t i = 0; i < cm.edge_sets[0].size(); ++i) {
    EXPECT_DOUBLE_EQ(cm.edge_sets[0].radius[i], general.edge_sets[0].radius[i]);
    EXPECT_DOUBLE_EQ(cm.edge_sets[0].k0[i], general.edge_sets[0].k0[i]);
  }
  std::string plain = deck;
  plain.replace(at, 26, "*CONTACT_AUTOMATIC_SINGLE_SURFACE");
  // a segment set holds no beams: the mortar contact on one stays the plain surface contact
  const Model seg = read_text(cube_deck("*SET_SEGMENT\n7\n5,6,7,8\n"
                                        "*CONTACT_AUTOMATIC_SINGLE_SURFACE_MORTAR\n7,,0\n\n\n"));
  EXPECT_FALSE(seg.contacts.at(0).general);
  // the plain contact has no beams: the part set of beams is an empty surface for it
  EXPECT_THROW(read_text(plain), std::exception);
}

TEST(BeamContactSetup, DiameterFromSstOpttOrSectionAndStiffnessFromEAOverL) {
  {
    // no SST: part 1 and 3 sqrt(A) x SFST (SFST = 2 doubles it), part 2 its OPTT (not scaled)
    const Model m = read_text(beam_contact_deck(",,,,2.0"));
    const ContactModel cm = build_contact_model(m);
    ASSERT_EQ(cm.edge_sets.size(), 1u);
    EXPECT_TRUE(cm.interfaces.empty()) << "beams only: no surface interface";
    const contact::EdgeSet& es = cm.edge_sets[0];
    ASSERT_EQ(es.size(), 4u);
    EXPECT_DOUBLE_EQ(es.radius[0], 0.5 * 4.0 * 2.0);
    EXPECT_DOUBLE_EQ(es.radius[1], 0.5 * 3.0);
    EXPECT_DOUBLE_EQ(es.radius[2], 0.5 * 4.0 * 2.0);
    // k = SLSFAC SFS E A / L = 0.1 x 1 x 2e5 x 16 / 10
    EXPECT_DOUBLE_EQ(es.k0[0], 0.1 * 2.0e5 * 16 / 10);
    EXPECT_FALSE(es.exclude_same_group);
  }
  {
    // SST overrides the section, OPTT (part 2) overrides SST (LS-DYNA's order); SFS scales the
    // stiffness
    const Model m = read_text(beam_contact_deck("3.0,,0.8"));
    const contact::EdgeSet es = build_contact_model(m).edge_sets.at(0);
    for (std::size_t i = 0; i < es.size(); ++i) EXPECT_DOUBLE_EQ(es.radius[i], i == 1 ? 1.5 : 0.4);
    EXPECT_DOUBLE_EQ(es.k0[3], 3.0 * 0.1 * 2.0e5 * 16 / 10);
  }
  {
    // CPARM8 = 2: no pairs within a part
    const Model m = read_text(beam_contact_deck("", ",,,,,,,2"));
    const contact::EdgeSet es = build_contact_model(m).edge_sets.at(0);
    EXPECT_TRUE(es.exclude_same_group);
    EXPECT_EQ(es.group[2], 13);
    EXPECT_EQ(es.group[3], 13);
  }
}

TEST(BeamContactSetup, ShellsAndSolidsOfTheSetGetASingleSurfaceInterface) {
  // the cube (part 1) in the set too: its faces are a single-surface interface of the same card
  const std::string deck = beam_contact_deck("").replace(
      beam_contact_deck("").find("*SET_PART_LIST\n9\n11,12,13"),
      std::string("*SET_PART_LIST\n9\n11,12,13").size(), "*SET_PART_LIST\n9\n11,12,13,1");
  const Model m = read_text(deck);
  const ContactModel cm = build_contact_model(m);
  ASSERT_EQ(cm.interfaces.size(), 1u);
  EXPECT_EQ(cm.interfaces[0].p.type, contact::ContactType::single_surface);
  EXPECT_EQ(cm.interfaces[0].secondary.size(), 6u) << "the cube's six faces";
  ASSERT_EQ(cm.edge_sets.size(), 1u);
  EXPECT_EQ(cm.defs[0], cm.edge_defs[0]);
}

/// Two 4 x 1 strips of 1 x 1 shells 0.5 apart (parts 11, 12; t = 2.0, shortest edge 1.0), part
/// 12 optionally a *PART_CONTACT with OPTT; one contact card over both parts.
std::string strips_deck(const std::string& control, const std::string& contact,
                        const std::string& optt) {
  std::string nodes = "*NODE\n", shells = "*ELEMENT_SHELL\n";
  for (int s = 0; s < 2; ++s) {
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 5; ++i)
        nodes += fmt::format("{},{},{},{}\n", 100 * (s + 1) + 5 * j + i + 1, i, j, 0.5 * s);
    for (int i = 0; i < 4; ++i) {
      const int a = 100 * (s + 1) + i + 1;
      shells +=
          fmt::format("{},{},{},{},{},{}\n", 10 * (s + 1) + i, 11 + s, a, a + 1, a + 6, a + 5);
    }
  }
  const std::string part12 =
      optt.empty() ? "*PART\nb\n12,2,2\n" : "*PART_CONTACT\nb\n12,2,2\n,,,," + optt + "\n";
  return cube_deck(control + nodes + shells + "*PART\na\n11,2,2\n" + part12 +
                   "*SECTION_SHELL\n2,2\n2.0,2.0,2.0,2.0\n*MAT_ELASTIC\n2,7.85e-9,2.0e5,0.3\n"
                   "*SET_PART_LIST\n9\n11,12\n" +
                   contact);
}

/// Half contact thickness of each strip's first segment (part 11, part 12).
std::pair<double, double> strip_half_t(const std::string& control, const std::string& contact,
                                       const std::string& optt = "") {
  const Model m = read_text(strips_deck(control, contact, optt));
  const ContactModel cm = build_contact_model(m);
  EXPECT_EQ(cm.interfaces.size(), 1u);
  const contact::Interface& ifc = cm.interfaces.at(0);
  const bool single = ifc.p.type == contact::ContactType::single_surface;
  const contact::Surface& s = single ? ifc.secondary : ifc.main;
  EXPECT_EQ(s.size(), single ? 8u : 4u);
  if (single)
    return {seg_contact_half_t(ifc.p, s, 0, false), seg_contact_half_t(ifc.p, s, 4, false)};
  return {seg_contact_half_t(ifc.p, ifc.secondary, 0, false),
          seg_contact_half_t(ifc.p, s, 0, true)};
}

// LS-DYNA's contact thickness (its manual, "contact thickness"): a shell's thickness (x SFST);
// in single-surface contacts with *CONTROL_CONTACT SSTHK = 0 at most 40 % of the element's
// shortest edge; SST/MST or the part's OPTT override it (OPTT first), without that limit.
TEST(ContactThickness, SingleSurfaceLimitSsthkSstAndOptt) {
  const auto single_c3 = [](const std::string& card3) {
    return "*CONTACT_AUTOMATIC_SINGLE_SURFACE\n9,,2\n\n" + card3 + "\n";
  };
  const std::string single = single_c3("");
  // t = 2 > 0.4 x 1: the limit, 0.4
  EXPECT_DOUBLE_EQ(strip_half_t("", single).first, 0.5 * 0.4);
  // SSTHK = 1 (card 2, field 6): the shell thickness
  EXPECT_DOUBLE_EQ(strip_half_t("*CONTROL_CONTACT\n0.1\n,,,,,1\n", single).first, 0.5 * 2.0);
  // SFST = 0.1 (card 3, field 5): 0.2 < 0.4, so not limited
  EXPECT_DOUBLE_EQ(strip_half_t("", single_c3(",,,,0.1")).first, 0.5 * 0.2);
  // SST = 1.5 (card 3, field 3): as given, not limited
  EXPECT_DOUBLE_EQ(strip_half_t("", single_c3(",,1.5")).first, 0.5 * 1.5);
  // part 12's OPTT = 1.2: as given, before SST; part 11 keeps the rule
  const auto [a, b] = strip_half_t("", single_c3(",,1.5"), "1.2");
  EXPECT_DOUBLE_EQ(a, 0.5 * 1.5);
  EXPECT_DOUBLE_EQ(b, 0.5 * 1.2);
  EXPECT_DOUBLE_EQ(strip_half_t("", single, "1.2").first, 0.5 * 0.4);
  // two-surface contacts: no limit
  const auto [sec, main] =
      strip_half_t("", "*CONTACT_AUTOMATIC_SURFACE_TO_SURFACE\n11,12,3,3\n\n\n");
  EXPECT_DOUBLE_EQ(sec, 0.5 * 2.0);
  EXPECT_DOUBLE_EQ(main, 0.5 * 2.0);
  // NODES_TO_SURFACE: the secondary nodes of part 12 take its OPTT (before SST), else SST
  auto n2s_half_t = [](const std::string& card3, const std::string& optt) {
    const Model m = read_text(
        strips_deck("", "*CONTACT_AUTOMATIC_NODES_TO_SURFACE\n12,11,3,3\n\n" + card3 + "\n", optt));
    const ContactModel cm = build_contact_model(m);
    const contact::Interface& ifc = cm.interfaces.at(0);
    std::vector<Real> x;
    for (LocalId n : cm.node_model)
      x.insert(x.end(),
               {m.nodes.x[static_cast<std::size_t>(n)], m.nodes.y[static_cast<std::size_t>(n)],
                m.nodes.z[static_cast<std::size_t>(n)]});
    const contact::ContactState st = contact::init_state(ifc, cm.node_model.size(), x);
    EXPECT_EQ(st.passes.at(0).node_half_t.size(), 10u);
    return st.passes.at(0).node_half_t.at(0);
  };
  EXPECT_DOUBLE_EQ(n2s_half_t(",,1.5", "1.2"), 0.5 * 1.2);
  EXPECT_DOUBLE_EQ(n2s_half_t(",,1.5", ""), 0.5 * 1.5);
  EXPECT_DOUBLE_EQ(n2s_half_t("", ""), 0.5 * 2.0) << "not limited: not a single-surface contact";
  // SSTHK other than 0 and 1: an error naming the field
  EXPECT_NE(read_error(strips_deck("*CONTROL_CONTACT\n0.1\n,,,,,2\n", single, ""))
                .find("SSTHK = 2 must be 0 or 1"),
            std::string::npos);
}

} // namespace
TEST(ContactStiffness, HydrodynamicSolidsTakeTheirEquationOfStatesBulkModulus) {
  // A *MAT_NULL cube's contact faces are as stiff as an elastic cube's of the same bulk
  // modulus (E = 2.1e5, PR = 0.3: K = 1.75e5) when its EOS gives that K: linear polynomial
  // C1, Gruneisen RO C^2; without E or an EOS bulk modulus they would carry no load.
  auto k0_of = [](const std::string& text) {
    const Model m = read_text(text);
    const ContactModel cm = build_contact_model(m);
    EXPECT_EQ(cm.interfaces.size(), 1u);
    return cm.interfaces.at(0).secondary.k0;
  };
  const std::string card = "*CONTACT_AUTOMATIC_SINGLE_SURFACE\n0,,5\n\n\n";
  const auto elastic = k0_of(cube_deck(card));
  std::string hydro = cube_deck(card);
  const std::string mat = "*MAT_ELASTIC\n1,7.85e-9,210000.,0.3\n";
  const std::string part = "*PART\ncube\n1,1,1\n";
  hydro.replace(hydro.find(mat), mat.size(), "*MAT_NULL\n1,7.85e-9\n");
  hydro.replace(hydro.find(part), part.size(), "*PART\ncube\n1,1,1,7\n");
  auto with_eos = [&](const std::string& eos) {
    std::string d = hydro;
    return d.insert(d.rfind("*END"), eos);
  };
  const auto poly = k0_of(with_eos("*EOS_LINEAR_POLYNOMIAL\n7,0.0,175000.0\n"));
  const double c = std::sqrt(175000.0 / 7.85e-9);
  const auto grun = k0_of(with_eos(fmt::format("*EOS_GRUNEISEN\n7,{:.10g}\n", c)));
  ASSERT_EQ(elastic.size(), 6u);
  ASSERT_EQ(poly.size(), 6u);
  ASSERT_EQ(grun.size(), 6u);
  for (std::size_t k = 0; k < 6; ++k) {
    EXPECT_GT(elastic[k], 0.0);
    EXPECT_NEAR(poly[k], elastic[k], 1e-9 * elastic[k]);
    EXPECT_NEAR(grun[k], elastic[k], 1e-9 * elastic[k]);
  }
}

} // namespace parcae::test
