#pragma once
// Resident memory of this process (Linux /proc/self/status: VmRSS, VmHWM) and marks of it at
// the stages of a run, for the run summary and the profile (docs/profile.md).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace parcae {

struct MemoryUse {
  std::int64_t rss = 0;  ///< resident set now, bytes (0 where /proc is not available)
  std::int64_t peak = 0; ///< peak resident set so far (high-water mark), bytes
};

/// This process's resident memory now and at its peak.
MemoryUse memory_use();

struct MemoryMark {
  std::string stage;
  MemoryUse use;
};

/// Records memory_use() under `stage` (process-wide list, in call order).
void mark_memory(std::string_view stage);
/// The marks recorded so far.
[[nodiscard]] const std::vector<MemoryMark>& memory_marks();
/// Forget the marks (a run's summary consumes them: the next run in the process starts anew).
void clear_memory_marks();

} // namespace parcae
