// The forming keywords as LS-PrePost writes them (the lines of the public pydyna metal-forming
// deck): *MAT_TRANSVERSELY_ANISOTROPIC_ELASTIC_PLASTIC, *CONTACT_FORMING_ONE_WAY_SURFACE_TO_
// SURFACE with its optional cards A-C, the adaptivity / springback / accuracy cards accepted
// with one warning each, and ELFORM 16 run as ELFORM 2 with a warning.
#include <gtest/gtest.h>

#include <algorithm>

#include "keyword_test_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

/// Two shells: element 1 (part 1, the blank, section `secid1`, material 1) and element 2 (part
/// 2, a rigid tool), plus `extra`.
std::string two_shells(const std::string& mat1, const std::string& extra, int elform = 2) {
  return deck("*NODE\n1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n5,0,0,1\n6,1,0,1\n7,1,1,1\n8,0,1,1\n"
              "*ELEMENT_SHELL\n1,1,1,2,3,4\n2,2,5,6,7,8\n"
              "*PART\nblank\n1,1,1\n*PART\ntool\n2,2,2\n"
              "*SECTION_SHELL\n1," +
              std::to_string(elform) +
              ",0.833,5\n1.5,1.5,1.5,1.5\n"
              "*SECTION_SHELL\n2,2\n1.0,1.0,1.0,1.0\n" +
              mat1 + "*MAT_RIGID\n2,7.83e-9,207000.0,0.28\n1.0,7,7\n" + termination() + extra);
}

const char* kMat037 =
    "*MAT_TRANSVERSELY_ANISOTROPIC_ELASTIC_PLASTIC\n"
    "$#     mid        ro         e        pr      sigy      etan         r     hlcid\n"
    "         17.90000E-9  207000.0       0.3     201.3       0.0    -1.593         1\n"
    "*DEFINE_CURVE\n         1\n                 0.0                 0.0\n"
    "                 1.0                13.0\n";

const char* kFormingContact =
    "*CONTACT_FORMING_ONE_WAY_SURFACE_TO_SURFACE\n"
    "$#   surfa     surfb  surfatyp  surfbtyp   saboxid   sbboxid      sapr      sbpr\n"
    "         1         2         3         3         0         0         1         1\n"
    "$#      fs        fd        dc        vc       vdc    penchk        bt        dt\n"
    "     0.125       0.0       0.0       0.0      20.0         0       0.0       0.0\n"
    "$#    sfsa      sfsb      sast      sbst     sfsat     sfsbt       fsf       vsf\n"
    "       1.0       1.0       0.0       0.0       1.0       1.0       1.0       1.0\n"
    "$#    soft    sofscl    lcidab    maxpar     sbopt     depth     bsort    frcfrq\n"
    "         0       0.1         0     1.025         2         2       100         1\n"
    "$#  penmax    thkopt    shlthk     snlog      isym     i2d3d    sldthk    sldstf\n"
    "       0.0         0         0         1         0         0       0.0       0.0\n"
    "$#    igap    ignore    dprfac    dtstif     edgek    unused    flangl   cid_rcf\n"
    "         1         0       0.0       0.0       0.0                 0.0         0\n";

bool has_note(const Model& m, std::string_view keyword, std::string_view text) {
  return std::any_of(m.notes.begin(), m.notes.end(), [&](const KeywordNote& n) {
    return n.keyword == keyword && n.message.find(text) != std::string::npos && !n.error;
  });
}

} // namespace

TEST(FormingCards, Mat037AsLsPrePostWritesIt) {
  const Model m = read_text(two_shells(kMat037, ""));
  const Material* mat = m.find_material(1);
  ASSERT_NE(mat, nullptr);
  EXPECT_EQ(mat->kind, MaterialKind::TransverselyAnisotropic);
  EXPECT_DOUBLE_EQ(mat->ro, 7.9e-9);
  EXPECT_DOUBLE_EQ(mat->e, 207000.0);
  EXPECT_DOUBLE_EQ(mat->pr, 0.3);
  EXPECT_DOUBLE_EQ(mat->sigy, 201.3);
  EXPECT_DOUBLE_EQ(mat->etan, 0.0);
  EXPECT_DOUBLE_EQ(mat->lankford_r, -1.593);
  EXPECT_EQ(mat->lcss, 1);
  const Model a =
      read_text(two_shells("*MAT_037_TITLE\nsheet\n1,7.9e-9,207000,0.3,201.3,500,1.6\n", ""));
  EXPECT_EQ(a.find_material(1)->kind, MaterialKind::TransverselyAnisotropic);
  EXPECT_EQ(a.find_material(1)->title, "sheet");
  EXPECT_DOUBLE_EQ(a.find_material(1)->etan, 500.0);
}

TEST(FormingCards, Mat037RefusedValuesNameTheField) {
  const std::string r0 = read_error(two_shells("*MAT_037\n1,7.9e-9,207000,0.3,201.3,0,0\n", ""));
  EXPECT_NE(r0.find("R must not be 0"), std::string::npos) << r0;
  const std::string sy = read_error(two_shells("*MAT_037\n1,7.9e-9,207000,0.3,0,0,1.5\n", ""));
  EXPECT_NE(sy.find("SIGY"), std::string::npos) << sy;
  const std::string opt =
      read_error(two_shells("*MAT_037_ECHANGE\n1,7.9e-9,207000,0.3,201,0,1.5\n0,0,0\n", ""));
  EXPECT_NE(opt.find("uses material 1, a *MAT_037_ECHANGE"), std::string::npos) << opt;
}

TEST(FormingCards, FormingContactAllCardsFixedFormat) {
  const Model m = read_text(two_shells(kMat037, kFormingContact));
  ASSERT_EQ(m.contacts.size(), 1u);
  const ContactDef& c = m.contacts[0];
  EXPECT_TRUE(c.forming);
  EXPECT_FALSE(c.automatic);
  EXPECT_EQ(c.kind, ContactDef::Kind::NodesToSurface);
  EXPECT_EQ(c.ssid, 1);
  EXPECT_EQ(c.msid, 2);
  EXPECT_EQ(c.sstyp, 3);
  EXPECT_EQ(c.mstyp, 3);
  EXPECT_DOUBLE_EQ(c.fs, 0.125);
  EXPECT_EQ(c.bsort, 100);
  EXPECT_DOUBLE_EQ(c.dt, 1e20);  // 0 means the default
  EXPECT_DOUBLE_EQ(c.vdc, 20.0); // viscous damping, percent of critical
  // SNLOG is not modelled: warned, not refused
  EXPECT_TRUE(has_note(m, "*CONTACT_FORMING_ONE_WAY_SURFACE_TO_SURFACE", "SNLOG = 1"));
  const Model t = read_text(two_shells(
      kMat037, "*CONTACT_FORMING_ONE_WAY_SURFACE_TO_SURFACE_ID\n         7roll\n1,2,3,3\n\n\n"));
  EXPECT_EQ(t.contacts.at(0).id, 7);
  EXPECT_TRUE(t.contacts.at(0).forming);
}

TEST(FormingCards, AdaptivitySpringbackAndAccuracyAreWarnings) {
  const std::string extra =
      "*CONTROL_ACCURACY\n         0         1         0         0       0.0\n"
      "*CONTROL_ADAPSTEP\n       1.0      0.01\n"
      "*CONTROL_ADAPTIVE\n"
      "2.50000E-4       5.0         2         3       0.01.00000E20         0         1\n"
      "      1.83         1         0       5.0       0.0         0         0         0\n"
      "        -1                           0.0         0         0                    \n"
      "          \n"
      "*INTERFACE_SPRINGBACK_LSDYNA\n        11       100         0                   0"
      "         0         0         0\n";
  const Model m = read_text(two_shells(kMat037, extra, 16));
  EXPECT_TRUE(has_note(m, "*CONTROL_ADAPTIVE", "keeps the initial mesh"));
  EXPECT_TRUE(has_note(m, "*CONTROL_ADAPSTEP", "does not refine"));
  EXPECT_TRUE(has_note(m, "*CONTROL_ACCURACY", "INN = 1"));
  EXPECT_TRUE(has_note(m, "*INTERFACE_SPRINGBACK_LSDYNA", "not written"));
  EXPECT_TRUE(has_note(m, "*SECTION_SHELL", "ELFORM 16"));
  // other shell formulations stay errors
  const std::string e = read_error(two_shells(kMat037, "", 4));
  EXPECT_NE(e.find("ELFORM 4 is not supported"), std::string::npos) << e;
}
