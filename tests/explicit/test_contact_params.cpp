// Contact parameters from the deck (contact_setup.hpp): the contact's own card C IGNORE
// overrides *CONTROL_CONTACT's; blank takes it.
#include <gtest/gtest.h>

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

} // namespace
} // namespace parcae::test
