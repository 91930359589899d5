// Resident memory from /proc/self/status.
#include "core/memory.hpp"

#include <cstdio>
#include <cstring>
#include <mutex>

namespace parcae {

MemoryUse memory_use() {
  MemoryUse u;
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return u;
  char line[256];
  while (std::fgets(line, sizeof line, f)) {
    long long kb = 0;
    if (std::strncmp(line, "VmRSS:", 6) == 0 && std::sscanf(line + 6, "%lld", &kb) == 1)
      u.rss = kb * 1024;
    else if (std::strncmp(line, "VmHWM:", 6) == 0 && std::sscanf(line + 6, "%lld", &kb) == 1)
      u.peak = kb * 1024;
  }
  std::fclose(f);
  return u;
}

namespace {
std::vector<MemoryMark>& marks() {
  static std::vector<MemoryMark> m;
  return m;
}
std::mutex& marks_mutex() {
  static std::mutex m;
  return m;
}
} // namespace

void mark_memory(std::string_view stage) {
  const MemoryUse u = memory_use();
  const std::lock_guard<std::mutex> lock(marks_mutex());
  marks().push_back({std::string(stage), u});
}

const std::vector<MemoryMark>& memory_marks() {
  return marks();
}

void clear_memory_marks() {
  const std::lock_guard<std::mutex> lock(marks_mutex());
  marks().clear();
}

} // namespace parcae
