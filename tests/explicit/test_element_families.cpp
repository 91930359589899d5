// Element families in the domain (fem/element_family.hpp, solvers/common/domain.hpp): every
// family reports the element count and corner layout the domain has, and a force pass through
// the family interface on the domain's parts is bitwise the direct kernel call.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "input/keyword_reader.hpp"
#include "solvers/common/domain.hpp"
#include "test_support.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

Model two_family_model() {
  const auto dir = make_temp_dir("element_families");
  write_file(dir / "deck.k",
             "*KEYWORD\n*CONTROL_TERMINATION\n1.0e-3\n"
             "*PART\nblock\n1,1,1\n*SECTION_SOLID\n1,1\n*MAT_ELASTIC\n1,7.85e-9,210000.0,0.3\n"
             "*PART\nplate\n2,2,1\n*SECTION_SHELL\n2,2,0.8333,2\n1.0,1.0,1.0,1.0\n" +
                 hex_block_cards(2, 1, 1, 20, 10, 10, 1) +
                 shell_grid_cards(3, 2, 30, 20, 2, 1001, 1001) +
                 // two trusses from the block's corner node 1 out to nodes 2001, 2002
                 "*PART\nwire\n3,3,1\n*SECTION_BEAM\n3,3\n2.0\n"
                 "*NODE\n2001,-10.0,0.0,0.0\n2002,-20.0,5.0,0.0\n"
                 "*ELEMENT_BEAM\n3001,3,1,2001\n3002,3,2001,2002\n"
                 // two integrated beams (ELFORM 1, tube) on from node 2002
                 "*PART\nrod\n4,4,1\n*SECTION_BEAM\n4,1,1.0,2,1\n3.0,3.0,1.0,1.0\n"
                 "*NODE\n2003,-30.0,5.0,2.0\n2004,-40.0,8.0,2.0\n"
                 "*ELEMENT_BEAM\n4001,4,2002,2003\n4002,4,2003,2004\n*END\n");
  return read_deck((dir / "deck.k").string());
}

std::size_t model_count(const Model& m, int family) {
  if (family == SolidFamily::kIndex) return m.solids.size();
  if (family == ShellFamily::kIndex) return m.shells.size();
  // trusses are part 3, integrated beams part 4
  const GlobalId pid = family == TrussFamily::kIndex ? 3 : 4;
  return static_cast<std::size_t>(std::count(m.beams.part.begin(), m.beams.part.end(), pid));
}

bool same_bits(std::span<const Real> a, std::span<const Real> b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Real)) == 0;
}

ElementPassResult direct_kernel(SolidPart& sp, const NodalKinematics& k, CornerSpans c) {
  const HexPassResult r =
      compute_hex_forces(sp.opt, sp.mat, sp.blk, 0, sp.blk.size(), k.x, k.v, k.dt, c.f, k.x0);
  return {r.min_dt, r.min_dt_element, r.bad_element};
}

ElementPassResult direct_kernel(ShellPart& sp, const NodalKinematics& k, CornerSpans c) {
  const ShellPassResult r =
      compute_shell_forces(sp.opt, sp.mat, sp.blk, 0, sp.blk.size(), k.x, k.v, k.w, k.dt, c.f, c.m);
  return {r.min_dt, r.min_dt_element, -1};
}

ElementPassResult direct_kernel(BeamPart& bp, const NodalKinematics& k, CornerSpans c) {
  const BeamPassResult r =
      compute_beam_forces(bp.mat, bp.blk, 0, bp.blk.size(), k.x, k.v, k.w, k.dt, c.f, c.m);
  return {r.min_dt, r.min_dt_element, -1};
}

ElementPassResult direct_kernel(TrussPart& tp, const NodalKinematics& k, CornerSpans c) {
  const TrussPassResult r =
      compute_truss_forces(tp.mat, tp.blk, 0, tp.blk.size(), k.x, k.v, k.dt, c.f);
  return {r.min_dt, r.min_dt_element, -1};
}

TEST(ElementFamilies, CountsAndCornerLayoutAreTheDomains) {
  const Model m = two_family_model();
  Domain d = build_domain(m);
  std::size_t total = 0;
  for_each_element_family([&](auto family) {
    using F = decltype(family);
    const auto& parts = parts_of(d, family);
    ASSERT_EQ(parts.size(), 1U) << F::kName;
    std::size_t n = 0, offset = 0;
    for (const auto& sp : parts) {
      EXPECT_EQ(sp.corner_offset, offset) << F::kName;
      const CornerSpans c = corner_spans_of(d, sp);
      EXPECT_EQ(c.f.size(), 3U * F::kNodes * sp.blk.size());
      EXPECT_EQ(c.m.size(), F::kCornerDofs == 6 ? c.f.size() : 0U);
      for (const auto& conn : sp.blk.conn) EXPECT_EQ(conn.size(), std::size_t{F::kNodes});
      n += sp.blk.size();
      offset += F::kNodes * sp.blk.size();
    }
    EXPECT_EQ(n, model_count(m, F::kIndex)) << F::kName;
    EXPECT_GT(n, 0U);
    const std::size_t corners = F::kIndex == SolidFamily::kIndex   ? d.n_solid_corners
                                : F::kIndex == ShellFamily::kIndex ? d.n_shell_corners
                                : F::kIndex == TrussFamily::kIndex ? d.n_truss_corners
                                                                   : d.n_beam_corners;
    EXPECT_EQ(corners, offset) << F::kName;
    total += n;
  });
  EXPECT_EQ(total, d.element_count());
  EXPECT_EQ(d.corner_f_solid.size(), 3 * d.n_solid_corners);
  EXPECT_EQ(d.corner_f_shell.size(), 3 * d.n_shell_corners);
  EXPECT_EQ(d.corner_m_shell.size(), 3 * d.n_shell_corners);
  EXPECT_EQ(d.corner_f_truss.size(), 3 * d.n_truss_corners);
  EXPECT_EQ(d.corner_f_beam.size(), 3 * d.n_beam_corners);
  EXPECT_EQ(d.corner_m_beam.size(), 3 * d.n_beam_corners);
}

TEST(ElementFamilies, ForcesThroughTheInterfaceAreTheKernelsBitForBit) {
  const Model m = two_family_model();
  Domain d = build_domain(m);
  // a deformed state: nodes moved and moving
  for (std::size_t i = 0; i < d.x.size(); ++i) {
    d.v[i] = 100.0 * std::sin(0.7 * static_cast<Real>(i));
    d.w[i] = 10.0 * std::cos(0.3 * static_cast<Real>(i));
    d.x[i] += 1e-6 * d.v[i];
  }
  const NodalKinematics k{d.x, d.v, d.w, d.x0, 1e-6};
  for_each_element_family([&](auto family) {
    using F = decltype(family);
    for (auto& part : parts_of(d, family)) {
      auto a = part, b = part;
      const std::size_t n = 3 * F::kNodes * part.blk.size();
      std::vector<Real> fa(n), fb(n), ma(F::kCornerDofs == 6 ? n : 0), mb(ma.size());
      const ElementPassResult ra =
          F::compute_forces(a.opt, a.mat, a.blk, 0, a.blk.size(), k, {fa, ma}, false);
      const ElementPassResult rb = direct_kernel(b, k, {fb, mb});
      EXPECT_TRUE(same_bits(fa, fb)) << F::kName;
      EXPECT_TRUE(same_bits(ma, mb)) << F::kName;
      EXPECT_TRUE(same_bits(a.blk.sig, b.blk.sig)) << F::kName;
      EXPECT_TRUE(same_bits(a.blk.e_int, b.blk.e_int)) << F::kName;
      EXPECT_EQ(std::memcmp(&ra.min_dt, &rb.min_dt, sizeof(Real)), 0) << F::kName;
      EXPECT_EQ(ra.min_dt_element, rb.min_dt_element) << F::kName;
      EXPECT_EQ(ra.bad_element, rb.bad_element) << F::kName;
      EXPECT_GE(ra.min_dt_element, 0) << F::kName;
      EXPECT_GT(fa.size(), 0U);
    }
  });
}

TEST(ElementFamilies, MassScalingGivesTheStepItAims) {
  // Every family: the scale factor rescale_for_step returns brings the element's step, as the
  // next force pass computes it at the same coordinates and velocities, to the target (twice the
  // current step). Solids are compressed, so that the bulk viscosity (a part of the step that
  // mass does not change) is in it: the factor solves for it, (target / dt)^2 would fall short.
  const Model m = two_family_model();
  Domain d = build_domain(m);
  for (std::size_t n = 0; n < d.nnode; ++n)
    for (int i = 0; i < 3; ++i) d.v[3 * n + i] = -2e4 * d.x0[3 * n + i] / 20.0;
  for (std::size_t i = 0; i < d.x.size(); ++i) d.x[i] += 1e-6 * d.v[i];
  const NodalKinematics k{d.x, d.v, d.w, d.x0, 1e-6};
  for_each_element_family([&](auto family) {
    using F = decltype(family);
    for (auto& part : parts_of(d, family)) {
      const std::size_t n = 3 * F::kNodes * part.blk.size();
      std::vector<Real> f(n), mo(F::kCornerDofs == 6 ? n : 0);
      F::compute_forces(part.opt, part.mat, part.blk, 0, part.blk.size(), k, {f, mo}, false);
      std::vector<Real> aim(part.blk.size()), naive(part.blk.size());
      for (std::size_t e = 0; e < part.blk.size(); ++e) {
        const Real dte = F::critical_dt(part.mat, part.blk, e, d.x);
        const Real target = 2 * dte;
        const Rescaled rs = F::rescale_for_step(part.opt, part.mat, part.blk, e, d.x, target);
        EXPECT_NEAR(rs.dt, target, 1e-12 * target) << F::kName;
        naive[e] = part.blk.density_scale[e] * 4.0;
        part.blk.density_scale[e] = rs.scale;
        aim[e] = target;
      }
      F::compute_forces(part.opt, part.mat, part.blk, 0, part.blk.size(), k, {f, mo}, false);
      for (std::size_t e = 0; e < part.blk.size(); ++e) {
        EXPECT_NEAR(F::critical_dt(part.mat, part.blk, e, d.x), aim[e], 1e-9 * aim[e])
            << F::kName << " element " << e;
        if constexpr (std::is_same_v<F, SolidFamily>) {
          EXPECT_GT(part.blk.density_scale[e], 1.01 * naive[e]); // the viscosity's share
        } else {
          EXPECT_NEAR(part.blk.density_scale[e], naive[e], 1e-12 * naive[e]);
        }
      }
    }
  });
}

} // namespace
