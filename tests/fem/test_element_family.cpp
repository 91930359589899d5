// Element families (fem/element_family.hpp): the table describes the families' layouts, and a
// force pass through the common interface is bitwise the direct kernel call.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "fem/element_family.hpp"

namespace parcae {
namespace {

MaterialParams elastic_steel() {
  MaterialParams m;
  m.kind = MaterialKind::Elastic;
  m.ro = 7.85e-9;
  m.e = 210000.0;
  m.nu = 0.3;
  m.g = m.e / (2 * (1 + m.nu));
  m.k = m.e / (3 * (1 - 2 * m.nu));
  m.lambda = m.e * m.nu / ((1 + m.nu) * (1 - 2 * m.nu));
  return m;
}

bool same_bits(const std::vector<Real>& a, const std::vector<Real>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Real)) == 0;
}

/// A 2 x 1 x 1 grid of unit cubes (12 nodes), perturbed, with random velocities.
struct SmallMesh {
  std::vector<Real> x, v, w, x0;
  std::vector<std::array<LocalId, 8>> hexes;
  std::vector<std::array<LocalId, 4>> quads;
  SmallMesh() {
    std::mt19937 rng(7);
    std::uniform_real_distribution<Real> jitter(-0.05, 0.05), speed(-1.0, 1.0);
    for (int k = 0; k < 2; ++k)
      for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 3; ++i) {
          x0.insert(x0.end(), {Real(i), Real(j), Real(k)});
          x.insert(x.end(), {i + jitter(rng), j + jitter(rng), k + jitter(rng)});
          v.insert(v.end(), {speed(rng), speed(rng), speed(rng)});
          w.insert(w.end(), {speed(rng), speed(rng), speed(rng)});
        }
    auto id = [](int i, int j, int k) { return static_cast<LocalId>(i + 3 * j + 6 * k); };
    for (int i = 0; i < 2; ++i) {
      hexes.push_back({id(i, 0, 0), id(i + 1, 0, 0), id(i + 1, 1, 0), id(i, 1, 0), id(i, 0, 1),
                       id(i + 1, 0, 1), id(i + 1, 1, 1), id(i, 1, 1)});
      quads.push_back({id(i, 0, 0), id(i + 1, 0, 0), id(i + 1, 1, 0), id(i, 1, 0)});
    }
    quads.push_back({id(0, 0, 1), id(1, 0, 1), id(1, 1, 1), id(1, 1, 1)}); // triangle
  }
};

TEST(ElementFamily, TableDescribesTheFamilies) {
  ASSERT_EQ(kElementFamilies.size(), 4U);
  EXPECT_EQ(kElementFamilies[BeamFamily::kIndex].name, "beam");
  EXPECT_EQ(kElementFamilies[BeamFamily::kIndex].nodes, 2);
  EXPECT_EQ(kElementFamilies[BeamFamily::kIndex].corner_dofs, 6);
  EXPECT_EQ(kElementFamilies[TrussFamily::kIndex].name, "truss");
  EXPECT_EQ(kElementFamilies[TrussFamily::kIndex].nodes, 2);
  EXPECT_EQ(kElementFamilies[TrussFamily::kIndex].corner_dofs, 3);
  EXPECT_EQ(kElementFamilies[SolidFamily::kIndex].name, "solid");
  EXPECT_EQ(kElementFamilies[ShellFamily::kIndex].name, "shell");
  EXPECT_EQ(kElementFamilies[SolidFamily::kIndex].nodes, 8);
  EXPECT_EQ(kElementFamilies[ShellFamily::kIndex].nodes, 4);
  EXPECT_EQ(kElementFamilies[SolidFamily::kIndex].corner_dofs, 3);
  EXPECT_EQ(kElementFamilies[ShellFamily::kIndex].corner_dofs, 6);
  EXPECT_EQ(find_element_family("solid"), 0);
  EXPECT_EQ(find_element_family("shell"), 1);
  EXPECT_EQ(find_element_family("truss"), 2);
  EXPECT_EQ(find_element_family("beam"), 3);
  EXPECT_EQ(find_element_family(""), 4);
  std::vector<std::string_view> seen;
  for_each_element_family([&](auto family) {
    using F = decltype(family);
    EXPECT_EQ(static_cast<std::size_t>(F::kIndex), seen.size()) << "table order";
    EXPECT_EQ(kElementFamilies[F::kIndex].name, F::kName);
    seen.push_back(F::kName);
  });
  EXPECT_EQ(seen.size(), kElementFamilies.size());
}

TEST(ElementFamily, SolidForcesAreTheKernelsBitForBit) {
  const SmallMesh m;
  const MaterialParams mat = elastic_steel();
  for (bool reference : {false, true}) {
    HexBlock a, b;
    a.init(m.hexes.size());
    a.conn = m.hexes;
    b = a;
    std::vector<Real> fa(24 * a.size()), fb(24 * b.size());
    const NodalKinematics k{m.x, m.v, {}, m.x0, 1e-6};
    const ElementPassResult ra =
        SolidFamily::compute_forces(HexOptions{}, mat, a, 0, a.size(), k, {fa, {}}, reference);
    const HexPassResult rb =
        reference ? compute_hex_forces_reference(HexOptions{}, mat, b, 0, b.size(), m.x, m.v, 1e-6,
                                                 fb, m.x0)
                  : compute_hex_forces(HexOptions{}, mat, b, 0, b.size(), m.x, m.v, 1e-6, fb, m.x0);
    EXPECT_TRUE(same_bits(fa, fb));
    EXPECT_TRUE(same_bits(a.sig, b.sig));
    EXPECT_TRUE(same_bits(a.e_int, b.e_int));
    EXPECT_TRUE(same_bits(a.dt, b.dt));
    EXPECT_EQ(std::memcmp(&ra.min_dt, &rb.min_dt, sizeof(Real)), 0);
    EXPECT_EQ(ra.min_dt_element, rb.min_dt_element);
    EXPECT_EQ(ra.bad_element, rb.bad_element);
    ASSERT_GE(ra.min_dt_element, 0);
    EXPECT_EQ(SolidFamily::critical_dt(mat, a, static_cast<std::size_t>(ra.min_dt_element), m.x),
              ra.min_dt);
  }
}

TEST(ElementFamily, ShellForcesAreTheKernelsBitForBit) {
  const SmallMesh m;
  const MaterialParams mat = elastic_steel();
  for (bool reference : {false, true}) {
    ShellBlock a;
    a.conn = m.quads;
    a.init(m.quads.size(), 2, 0.1);
    ShellBlock b = a;
    std::vector<Real> fa(12 * a.size()), fb(12 * b.size()), ma(12 * a.size()), mb(12 * b.size());
    const NodalKinematics k{m.x, m.v, m.w, m.x0, 1e-6};
    const ElementPassResult ra =
        ShellFamily::compute_forces(ShellOptions{}, mat, a, 0, a.size(), k, {fa, ma}, reference);
    const ShellPassResult rb =
        reference ? compute_shell_forces_reference(ShellOptions{}, mat, b, 0, b.size(), m.x, m.v,
                                                   m.w, 1e-6, fb, mb)
                  : compute_shell_forces(ShellOptions{}, mat, b, 0, b.size(), m.x, m.v, m.w, 1e-6,
                                         fb, mb);
    EXPECT_TRUE(same_bits(fa, fb));
    EXPECT_TRUE(same_bits(ma, mb));
    EXPECT_TRUE(same_bits(a.sig, b.sig));
    EXPECT_TRUE(same_bits(a.e_int, b.e_int));
    EXPECT_EQ(std::memcmp(&ra.min_dt, &rb.min_dt, sizeof(Real)), 0);
    EXPECT_EQ(ra.min_dt_element, rb.min_dt_element);
    EXPECT_EQ(ra.bad_element, -1);
    ASSERT_GE(ra.min_dt_element, 0);
    EXPECT_EQ(ShellFamily::critical_dt(mat, a, static_cast<std::size_t>(ra.min_dt_element), m.x),
              ra.min_dt);
  }
}

// Lumped mass through the family interface conserves the element mass (a conservation law):
// hexahedron rho V over its 8 corners, tetrahedron (collapsed hex) rho V over its 4 nodes,
// shell quad rho A t over 4 corners and triangle rho A t over 3 nodes; mass scaling by s adds
// (s - 1) of it, reported as added mass. Tolerance 1e-14 relative: a few roundings.
TEST(ElementFamily, LumpedMassConservesTheElementMass) {
  const SmallMesh m;
  const MaterialParams mat = elastic_steel();
  for (bool tet : {false, true}) {
    HexBlock blk;
    blk.conn = m.hexes;
    if (tet) { // N1 N2 N3 N3 N4 N4 N4 N4 over the first cube: volume 1/6
      const auto& h = m.hexes[0];
      blk.conn = {{h[0], h[1], h[3], h[3], h[4], h[4], h[4], h[4]}};
    }
    blk.init(blk.conn.size());
    HexOptions opt;
    opt.tetrahedra = tet;
    for (std::size_t e = 0; e < blk.size(); ++e) {
      Real x[8], y[8], z[8], bx[8], by[8], bz[8];
      for (int a = 0; a < 8; ++a) {
        const auto n = static_cast<std::size_t>(blk.conn[e][static_cast<std::size_t>(a)]);
        x[a] = m.x0[3 * n];
        y[a] = m.x0[3 * n + 1];
        z[a] = m.x0[3 * n + 2];
      }
      blk.vol[e] = hex_volume_gradient(x, y, z, bx, by, bz);
      EXPECT_NEAR(blk.vol[e], tet ? 1.0 / 6 : 1.0, 1e-14);
      for (Real scale : {1.0, 2.5}) {
        const LumpedMass<8> lm = SolidFamily::lump_mass(opt, mat, blk, e, m.x0, scale);
        Real total = 0, added = 0;
        int loaded = 0;
        for (std::size_t a = 0; a < 8; ++a) {
          total += lm.mass[a];
          added += lm.added[a];
          loaded += lm.mass[a] > 0;
        }
        EXPECT_NEAR(total, scale * mat.ro * blk.vol[e], 1e-14 * total);
        EXPECT_NEAR(added, (scale - 1) * mat.ro * blk.vol[e], 1e-14 * total);
        EXPECT_EQ(loaded, tet ? 4 : 8);
        EXPECT_EQ(blk.density_scale[e], scale);
      }
      // The initial step is the characteristic length over the wave speed: a unit cube's
      // length is V / (largest face area) = 1.
      if (!tet) {
        const Real c = mat.wave_speed_solid();
        EXPECT_NEAR(SolidFamily::initial_dt({}, mat, blk, e, m.x0) * c, 1.0, 1e-12);
      }
    }
  }
  ShellBlock sb;
  sb.conn = m.quads;
  const Real t = 0.1;
  sb.init(m.quads.size(), 2, t);
  for (std::size_t e = 0; e < sb.size(); ++e) {
    const Real area = e < 2 ? 1.0 : 0.5; // unit squares, then a half-square triangle
    for (Real scale : {1.0, 3.0}) {
      const LumpedMass<4> lm = ShellFamily::lump_mass(ShellOptions{}, mat, sb, e, m.x0, scale);
      Real total = 0, added = 0;
      for (std::size_t a = 0; a < 4; ++a) {
        total += lm.mass[a];
        added += lm.added[a];
        EXPECT_GT(lm.inertia[a], 0.0);
      }
      EXPECT_NEAR(total, scale * mat.ro * area * t, 1e-14 * total);
      EXPECT_NEAR(added, (scale - 1) * mat.ro * area * t, 1e-14 * total);
    }
  }
}

} // namespace
} // namespace parcae
