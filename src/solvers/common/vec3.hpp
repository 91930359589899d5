#pragma once
// Small 3-vector helpers for the rigid-body constraints (joints, joint stiffnesses).
#include <array>

#include "core/types.hpp"

namespace parcae::vec3 {

using Vec3 = std::array<Real, 3>;

/// r v for a row-major 3x3 matrix r (a rigid body's rotation).
inline Vec3 rotate(const std::array<Real, 9>& r, const Vec3& v) {
  return {r[0] * v[0] + r[1] * v[1] + r[2] * v[2], r[3] * v[0] + r[4] * v[1] + r[5] * v[2],
          r[6] * v[0] + r[7] * v[1] + r[8] * v[2]};
}
inline Real dot(const Vec3& a, const Vec3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
inline Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
inline Vec3 diff(const Vec3& a, const Vec3& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}

} // namespace parcae::vec3
