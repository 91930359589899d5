#include "test_support.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

namespace parcae::test {

std::filesystem::path source_dir() {
  return PARCAE_SOURCE_DIR;
}
std::filesystem::path reference_dir() {
  return PARCAE_REFERENCE_DIR;
}
std::filesystem::path parcae_binary() {
  return PARCAE_BINARY;
}

namespace {
/// The directories make_temp_dir() made in this process, removed when it exits unless a test
/// failed (then they are kept for a look, and named) or PARCAE_KEEP_TEST_DIRS is set.
class TempDirs {
public:
  void add(const std::filesystem::path& p) {
    const std::lock_guard lock(mutex_);
    dirs_.push_back(p);
  }
  ~TempDirs() {
    const auto* unit = ::testing::UnitTest::GetInstance();
    const bool keep = std::getenv("PARCAE_KEEP_TEST_DIRS") != nullptr || (unit && unit->Failed());
    for (const auto& d : dirs_) {
      if (keep) {
        std::fprintf(stderr, "kept test directory %s\n", d.c_str());
        continue;
      }
      std::error_code ec;
      std::filesystem::remove_all(d, ec);
    }
  }

private:
  std::mutex mutex_;
  std::vector<std::filesystem::path> dirs_;
};
TempDirs& temp_dirs() {
  static TempDirs dirs;
  return dirs;
}
} // namespace

std::filesystem::path make_temp_dir(const std::string& tag) {
  static std::atomic<int> counter{0};
  auto p =
      std::filesystem::temp_directory_path() /
      ("parcae_test_" + tag + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  temp_dirs().add(p);
  return p;
}

void write_file(const std::filesystem::path& p, const std::string& text) {
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
  std::ofstream f(p, std::ios::binary);
  f << text;
  if (!f) throw std::runtime_error("cannot write " + p.string());
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + p.string());
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

CommandResult run_command(const std::string& cmd, int timeout_s) {
  CommandResult r;
  const std::string full = "timeout " + std::to_string(timeout_s) + " " + cmd + " 2>&1";
  FILE* pipe = ::popen(full.c_str(), "r");
  if (!pipe) throw std::runtime_error("popen failed: " + cmd);
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.output.append(buf.data(), n);
  const int status = ::pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

} // namespace parcae::test

#include <fmt/format.h>

namespace parcae::test {

std::string hex_block_cards(int nx, int ny, int nz, double lx, double ly, double lz, int pid,
                            long first_node, long first_elem, double x0, double y0, double z0) {
  std::string s = "*NODE\n";
  auto nid = [&](int i, int j, int k) { return first_node + i + (nx + 1) * (j + (ny + 1) * k); };
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i)
        s += fmt::format("{:8d}{:16.9g}{:16.9g}{:16.9g}\n", nid(i, j, k), x0 + lx * i / nx,
                         y0 + ly * j / ny, z0 + lz * k / nz);
  s += "*ELEMENT_SOLID\n";
  long e = first_elem;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        s += fmt::format("{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}\n", e++, pid,
                         nid(i, j, k), nid(i + 1, j, k), nid(i + 1, j + 1, k), nid(i, j + 1, k),
                         nid(i, j, k + 1), nid(i + 1, j, k + 1), nid(i + 1, j + 1, k + 1),
                         nid(i, j + 1, k + 1));
  return s;
}

std::string shell_grid_cards(int nx, int ny, double lx, double ly, int pid, long first_node,
                             long first_elem) {
  std::string s = "*NODE\n";
  auto nid = [&](int i, int j) { return first_node + i + (nx + 1) * j; };
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i)
      s += fmt::format("{:8d}{:16.9g}{:16.9g}{:16.9g}\n", nid(i, j), lx * i / nx, ly * j / ny, 0.0);
  s += "*ELEMENT_SHELL\n";
  long e = first_elem;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      s += fmt::format("{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}\n", e++, pid, nid(i, j), nid(i + 1, j),
                       nid(i + 1, j + 1), nid(i, j + 1));
  return s;
}

std::string node_set_card(int sid, const std::vector<long>& ids) {
  std::string s = fmt::format("*SET_NODE_LIST\n{:10d}\n", sid);
  for (std::size_t k = 0; k < ids.size(); ++k)
    s += fmt::format("{:10d}{}", ids[k], (k + 1) % 8 == 0 || k + 1 == ids.size() ? "\n" : "");
  return s;
}

double max_eigenvalue(std::vector<double> a, int n) {
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0;
    for (int p = 0; p < n; ++p)
      for (int q = p + 1; q < n; ++q) off += a[p * n + q] * a[p * n + q];
    if (off < 1e-30) break;
    for (int p = 0; p < n; ++p)
      for (int q = p + 1; q < n; ++q) {
        const double apq = a[p * n + q];
        if (std::abs(apq) < 1e-300) continue;
        const double theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        const double tt = (theta >= 0 ? 1 : -1) / (std::abs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(tt * tt + 1), s = tt * c;
        for (int k = 0; k < n; ++k) { // columns p, q
          const double akp = a[k * n + p], akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (int k = 0; k < n; ++k) { // rows p, q
          const double apk = a[p * n + k], aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
      }
  }
  double mx = -1e300;
  for (int i = 0; i < n; ++i) mx = std::max(mx, a[i * n + i]);
  return mx;
}

} // namespace parcae::test
