#pragma once
// Basic scalar and id types used everywhere in parcae.
#include <cstdint>

namespace parcae {

using Real = double;
/// Ids as they appear in the input deck (node, element, part, ... numbers): 64-bit.
using GlobalId = std::int64_t;
/// Indices into this process' arrays: 32-bit.
using LocalId = std::int32_t;

inline constexpr LocalId kInvalidLocal = -1;

} // namespace parcae
