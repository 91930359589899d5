// The material catalogue: one row per line of core/material_laws.def in MaterialKind order, card
// names and numbers unique and consistent with the row's own card table, every row with the
// functions its behaviour needs.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "materials/catalogue.hpp"
#include "materials/material.hpp"

using namespace parcae;

TEST(MaterialCatalogue, OneRowPerKindInOrder) {
  const auto laws = material_laws();
  ASSERT_EQ(laws.size(), kMaterialLawCount);
  for (std::size_t i = 0; i < laws.size(); ++i) {
    EXPECT_EQ(laws[i]->kind, static_cast<MaterialKind>(i));
    EXPECT_EQ(&material_law(laws[i]->kind), laws[i]);
  }
}

TEST(MaterialCatalogue, NamesAndBehaviourAreConsistent) {
  std::set<std::string> cards, numbers;
  for (const MaterialLaw* row : material_laws()) {
    const MaterialLaw& law = *row;
    const std::string card = law.card;
    SCOPED_TRACE(card);
    EXPECT_EQ(card.rfind("*MAT_", 0), 0u);
    EXPECT_TRUE(cards.insert(card).second);
    // three characters, or three and a suffix after an underscore (077_H, 077_O, 002_ANIS)
    const std::string number = law.number;
    EXPECT_TRUE(number.size() == 3u || (number.size() >= 5u && number[3] == '_')) << number;
    EXPECT_TRUE(numbers.insert(law.number).second);
    EXPECT_FALSE(std::string(law.summary).empty());
    EXPECT_GE(law.history, 0);
    EXPECT_NE(law.prepare, nullptr);
    // the law's own card table: its name, the *MAT_0nn alias, MID and RO on card 1
    EXPECT_EQ(law.keyword.name, card);
    ASSERT_FALSE(law.keyword.aliases.empty());
    EXPECT_EQ(law.keyword.aliases.front(), "*MAT_" + std::string(law.number));
    EXPECT_NE(law.read, nullptr);
    EXPECT_EQ(law.keyword.apply, nullptr); // the reader's one apply function for every law
    EXPECT_EQ(material_law_of_keyword(card), &law);
    bool mid = false, ro = false;
    for (const auto& c : law.keyword.head)
      for (const auto& f : c.fields) {
        mid |= f.name == "MID" && f.required;
        ro |= f.name == "RO";
      }
    EXPECT_TRUE(mid);
    // discrete (spring and damper) laws: no density, no stress update, both discrete functions
    EXPECT_EQ(law.discrete_force == nullptr, law.discrete_bounds == nullptr);
    if (law.discrete_force != nullptr) {
      EXPECT_FALSE(ro);
      EXPECT_FALSE(law.incremental || law.hyperelastic || law.hydrodynamic || law.rigid);
      EXPECT_EQ(law.update_solid, nullptr);
      EXPECT_EQ(law.update_shell, nullptr);
      EXPECT_EQ(std::string(law.number).front(), 'S');
      continue;
    }
    EXPECT_TRUE(ro);
    EXPECT_NE(law.wave_speed, nullptr);
    // exactly one way to compute the stress (rigid: none is called)
    const int ways = int(law.hyperelastic) + int(law.hydrodynamic) + int(law.rigid) +
                     int(law.incremental && !law.hydrodynamic);
    EXPECT_EQ(ways, 1);
    if (law.hydrodynamic) EXPECT_NE(law.update_deviator, nullptr);
    if (law.incremental && !law.hydrodynamic) // solids, shells or both (*MAT_037: shells)
      EXPECT_TRUE(law.update_solid != nullptr || law.update_shell != nullptr);
    if (law.plastic) EXPECT_TRUE(law.incremental);
    // hydrodynamic laws are solids only, but *MAT_015, which has a plane-stress form for shells
    if (law.hydrodynamic && law.kind != MaterialKind::JohnsonCook)
      EXPECT_EQ(law.update_shell, nullptr) << law.card;
    // hyperelastic laws on shells (*MAT_027: an incompressible membrane) keep their own update
    if (law.hyperelastic) EXPECT_EQ(law.update_solid, nullptr);
    // their stress and energy from the deformation gradient, and only theirs
    EXPECT_EQ(law.hyper_stress != nullptr, law.hyperelastic) << law.card;
    EXPECT_EQ(law.hyper_energy != nullptr, law.hyperelastic) << law.card;
  }
  EXPECT_STREQ(material_law(MaterialKind::PlasticKinematic).card, "*MAT_PLASTIC_KINEMATIC");
  EXPECT_STREQ(material_law(MaterialKind::PlasticKinematic).number, "003");
  EXPECT_STREQ(material_law(MaterialKind::IsotropicElasticPlastic).number, "012");
}
