// parcae_bench_kernels: throughput of the element kernels and of full explicit cycles.
//
//   parcae_bench_kernels [--json PATH] [--threads T] [--quick]
//
// Cases (single-threaded unless --threads is given; see bench/README.md):
//  1. hex kernel: compute_hex_forces over a structured block of one-point hexahedra,
//  2. shell kernels: compute_shell_forces over a Belytschko-Tsay grid, NIP 2 and NIP 5,
//  3. full cycles: run_explicit on generated hex-block and shell-plate decks (element pass,
//     nodal assembly, time integration and time step).
// The material is *MAT_003-like steel; the prescribed velocity fields plasticise the elements
// and excite hourglass modes, so the kernels take their expensive (plastic) path. Results go to
// a JSON file (schema in bench/README.md), which is read back and checked before exit.
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <numbers>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "fem/hex8.hpp"
#include "fem/shell_bt.hpp"
#include "input/keyword_reader.hpp"
#include "materials/material.hpp"
#include "mesh/model.hpp"
#include "solvers/explicit/solver.hpp"

#ifndef PARCAE_GIT_REVISION
#define PARCAE_GIT_REVISION "unknown"
#endif
#ifndef PARCAE_BUILD_TYPE
#define PARCAE_BUILD_TYPE "unknown"
#endif
#ifndef PARCAE_CXX_FLAGS
#define PARCAE_CXX_FLAGS ""
#endif
#ifndef PARCAE_COMPILER_ID
#define PARCAE_COMPILER_ID "unknown"
#endif

namespace parcae::bench {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr Real kTargetUsPerElementCyclePerCore = 0.25;

// *MAT_003-like steel (t, mm, s, N, MPa).
constexpr Real kRho = 7.85e-9, kE = 210000.0, kNu = 0.3, kSigy = 250.0, kEtan = 1000.0, kBeta = 1.0;

/// Problem sizes and repetition counts; --quick shrinks everything for the smoke test.
struct Sizes {
  int hex_nx = 40, hex_ny = 40, hex_nz = 32; ///< 51 200 hexahedra
  int shell_nx = 250, shell_ny = 200;        ///< 50 000 shells
  int warmup = 10;                           ///< untimed kernel passes (material yields here)
  int reps = 30;                             ///< timed kernel passes
  int cycles = 100;                          ///< full-cycle runs (ENDCYC)

  static Sizes quick() {
    Sizes s;
    s.hex_nx = 10;
    s.hex_ny = 10;
    s.hex_nz = 8;
    s.shell_nx = 25;
    s.shell_ny = 20;
    s.warmup = 2;
    s.reps = 3;
    s.cycles = 5;
    return s;
  }
};

struct Options {
  std::string json_path = "bench/kernels.json";
  int threads = 1;
  bool quick = false;
};

// ---------------------------------------------------------------------------------------------
// Meshes and velocity fields

Material steel_card() {
  Material m;
  m.id = 1;
  m.kind = MaterialKind::PlasticKinematic;
  m.title = "steel";
  m.ro = kRho;
  m.e = kE;
  m.pr = kNu;
  m.sigy = kSigy;
  m.etan = kEtan;
  m.beta = kBeta;
  return m;
}

MaterialParams steel_params() {
  const Model empty;
  return make_material_params(steel_card(), empty);
}

/// Structured hexahedral block of nx x ny x nz cubes of side h, centred on the origin.
struct HexGrid {
  int nx, ny, nz;
  Real h;

  [[nodiscard]] std::size_t nodes() const {
    return static_cast<std::size_t>(nx + 1) * (ny + 1) * (nz + 1);
  }
  [[nodiscard]] std::size_t elements() const { return static_cast<std::size_t>(nx) * ny * nz; }
  [[nodiscard]] LocalId node(int i, int j, int k) const {
    return i + (nx + 1) * (j + (ny + 1) * k);
  }
  [[nodiscard]] std::array<Real, 3> position(int i, int j, int k) const {
    return {h * (i - 0.5 * nx), h * (j - 0.5 * ny), h * (k - 0.5 * nz)};
  }
  /// LS-DYNA ordering: bottom face counter-clockwise, then the top face.
  [[nodiscard]] std::array<LocalId, 8> conn(int i, int j, int k) const {
    return {
        node(i, j, k),     node(i + 1, j, k),     node(i + 1, j + 1, k),     node(i, j + 1, k),
        node(i, j, k + 1), node(i + 1, j, k + 1), node(i + 1, j + 1, k + 1), node(i, j + 1, k + 1)};
  }
  template <class F> void for_each_node(F&& f) const {
    for (int k = 0; k <= nz; ++k)
      for (int j = 0; j <= ny; ++j)
        for (int i = 0; i <= nx; ++i) f(node(i, j, k), position(i, j, k));
  }
  template <class F> void for_each_element(F&& f) const {
    std::size_t e = 0;
    for (int k = 0; k < nz; ++k)
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) f(e++, conn(i, j, k));
  }
};

/// Flat quadrilateral grid of nx x ny squares of side h in the z = 0 plane, centred.
struct ShellGrid {
  int nx, ny;
  Real h;

  [[nodiscard]] std::size_t nodes() const { return static_cast<std::size_t>(nx + 1) * (ny + 1); }
  [[nodiscard]] std::size_t elements() const { return static_cast<std::size_t>(nx) * ny; }
  [[nodiscard]] LocalId node(int i, int j) const { return i + (nx + 1) * j; }
  [[nodiscard]] std::array<Real, 3> position(int i, int j) const {
    return {h * (i - 0.5 * nx), h * (j - 0.5 * ny), 0.0};
  }
  [[nodiscard]] std::array<LocalId, 4> conn(int i, int j) const {
    return {node(i, j), node(i + 1, j), node(i + 1, j + 1), node(i, j + 1)};
  }
  template <class F> void for_each_node(F&& f) const {
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) f(node(i, j), position(i, j));
  }
  template <class F> void for_each_element(F&& f) const {
    std::size_t e = 0;
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) f(e++, conn(i, j));
  }
};

// Hex block: 1 mm cubes; velocity gradient L = rate * [[1, 0.5, 0], [0, -0.4, 0], [0, 0, -0.4]]
// (stretching plus shear) and a random part of 10% of rate * h per component, which gives the
// one-point elements hourglass rates. With dt = 1e-7 s (critical step ~1.7e-7 s) the strain
// increment is ~2e-4 per pass: every element yields within the warm-up.
constexpr Real kHexH = 1.0;
constexpr Real kHexRate = 2000.0; // 1/s
constexpr Real kHexDt = 1e-7;
constexpr Real kNoise = 0.1;

/// Nodal velocities of the hex block (3 per node), reproducible (fixed seed).
std::vector<Real> hex_velocity(const HexGrid& g) {
  std::vector<Real> v(3 * g.nodes());
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<Real> u(-1.0, 1.0);
  const Real noise = kNoise * kHexRate * g.h;
  g.for_each_node([&](LocalId n, const std::array<Real, 3>& p) {
    v[3 * n + 0] = kHexRate * (p[0] + 0.5 * p[1]) + noise * u(rng);
    v[3 * n + 1] = kHexRate * (-0.4 * p[1]) + noise * u(rng);
    v[3 * n + 2] = kHexRate * (-0.4 * p[2]) + noise * u(rng);
  });
  return v;
}

// Shell plate: 2 mm squares, t = 1 mm. In-plane stretching at kShellRate, bending waves
// v_z = A sin(kx) sin(ky) of wavelength 40 mm whose surface strain rate is also kShellRate, with
// the matching rotations (theta_x = dw/dy, theta_y = -dw/dx), plus 10% random parts.
constexpr Real kShellH = 2.0;
constexpr Real kShellT = 1.0;
constexpr Real kShellRate = 1000.0; // 1/s
constexpr Real kShellDt = 2e-7;     // critical step ~3.7e-7 s
constexpr Real kShellWave = 40.0;

/// Translational (v) and rotational (w) nodal velocities of the shell plate, 3 per node each.
void shell_velocity(const ShellGrid& g, std::vector<Real>& v, std::vector<Real>& w) {
  v.assign(3 * g.nodes(), 0.0);
  w.assign(3 * g.nodes(), 0.0);
  const Real k = 2 * std::numbers::pi / kShellWave;
  const Real curvature_rate = 2 * kShellRate / kShellT;
  const Real amp = curvature_rate / (k * k);
  const Real noise_v = kNoise * kShellRate * g.h;
  const Real noise_w = kNoise * amp * k;
  std::mt19937_64 rng(54321);
  std::uniform_real_distribution<Real> u(-1.0, 1.0);
  g.for_each_node([&](LocalId n, const std::array<Real, 3>& p) {
    const Real sx = std::sin(k * p[0]), cx = std::cos(k * p[0]);
    const Real sy = std::sin(k * p[1]), cy = std::cos(k * p[1]);
    v[3 * n + 0] = kShellRate * (p[0] + 0.3 * p[1]) + noise_v * u(rng);
    v[3 * n + 1] = kShellRate * (-0.2 * p[1]) + noise_v * u(rng);
    v[3 * n + 2] = amp * sx * sy + noise_v * u(rng);
    w[3 * n + 0] = amp * k * sx * cy + noise_w * u(rng);
    w[3 * n + 1] = -amp * k * cx * sy + noise_w * u(rng);
    w[3 * n + 2] = 0.0;
  });
}

// ---------------------------------------------------------------------------------------------
// Kernel timing

struct KernelTiming {
  std::size_t elements = 0;
  int warmup = 0, reps = 0;
  Real dt = 0;
  Real median_s = 0, min_s = 0; ///< per pass over the whole block
  Real plastic_fraction = 0;    ///< integration points with eps_p > 0 after the last pass

  [[nodiscard]] Real us_per_element_cycle() const {
    return 1e6 * median_s / static_cast<Real>(elements);
  }
};

Real median(std::vector<Real> t) {
  std::sort(t.begin(), t.end());
  const std::size_t n = t.size();
  return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/// Run pass(begin, end) over [0, n) in chunks of 128 elements, as the solver does.
template <class Pass> void for_chunks(std::size_t n, Pass&& pass) {
  constexpr std::size_t kChunk = 128;
  const auto nchunk = static_cast<std::int64_t>((n + kChunk - 1) / kChunk);
#pragma omp parallel for schedule(static)
  for (std::int64_t c = 0; c < nchunk; ++c) {
    const std::size_t b = static_cast<std::size_t>(c) * kChunk;
    pass(b, std::min(n, b + kChunk));
  }
}

/// Initial pass (dt = 0), then warm-up and timed passes: before each, x += dt v (untimed).
KernelTiming time_passes(int warmup, int reps, Real dt, std::vector<Real>& x,
                         const std::vector<Real>& v, const std::function<void(Real)>& pass) {
  KernelTiming t;
  t.warmup = warmup;
  t.reps = reps;
  t.dt = dt;
  pass(0.0);
  std::vector<Real> times;
  for (int r = 0; r < warmup + reps; ++r) {
    for (std::size_t i = 0; i < x.size(); ++i) x[i] += dt * v[i];
    const auto t0 = Clock::now();
    pass(dt);
    const Real s = std::chrono::duration<Real>(Clock::now() - t0).count();
    if (r >= warmup) times.push_back(s);
  }
  t.median_s = median(times);
  t.min_s = *std::min_element(times.begin(), times.end());
  return t;
}

Real plastic_fraction(const std::vector<Real>& eps_p) {
  const auto n = std::count_if(eps_p.begin(), eps_p.end(), [](Real e) { return e > 0; });
  return eps_p.empty() ? 0.0 : static_cast<Real>(n) / static_cast<Real>(eps_p.size());
}

KernelTiming bench_hex_kernel(const Sizes& sz) {
  const HexGrid g{sz.hex_nx, sz.hex_ny, sz.hex_nz, kHexH};
  std::vector<Real> x(3 * g.nodes());
  g.for_each_node([&](LocalId n, const std::array<Real, 3>& p) {
    for (int i = 0; i < 3; ++i) x[3 * n + i] = p[i];
  });
  const std::vector<Real> v = hex_velocity(g);
  HexBlock blk;
  blk.init(g.elements());
  g.for_each_element([&](std::size_t e, const std::array<LocalId, 8>& c) { blk.conn[e] = c; });
  const HexOptions opt; // IHQ 1, QM 0.1, Q1 0.06, Q2 1.5 (LS-DYNA defaults)
  const MaterialParams mat = steel_params();
  std::vector<Real> fe(24 * blk.size());
  const std::size_t n = blk.size();

  auto pass = [&](Real dt) {
    std::int64_t bad = 0;
    const std::span<const Real> xs(x), vs(v);
    const std::span<Real> fs(fe);
    for_chunks(n, [&](std::size_t b, std::size_t e) {
      const HexPassResult r = compute_hex_forces(opt, mat, blk, b, e, xs, vs, dt, fs);
      if (r.bad_element >= 0) {
#pragma omp atomic write
        bad = 1;
      }
    });
    if (bad) throw std::runtime_error("hex kernel: element with non-positive volume");
  };
  KernelTiming t = time_passes(sz.warmup, sz.reps, kHexDt, x, v, pass);
  t.elements = n;
  t.plastic_fraction = plastic_fraction(blk.eps_p);
  return t;
}

KernelTiming bench_shell_kernel(const Sizes& sz, int nip) {
  const ShellGrid g{sz.shell_nx, sz.shell_ny, kShellH};
  std::vector<Real> x(3 * g.nodes()), v, w;
  g.for_each_node([&](LocalId n, const std::array<Real, 3>& p) {
    for (int i = 0; i < 3; ++i) x[3 * n + i] = p[i];
  });
  shell_velocity(g, v, w);
  ShellBlock blk;
  blk.conn.resize(g.elements());
  g.for_each_element([&](std::size_t e, const std::array<LocalId, 4>& c) { blk.conn[e] = c; });
  blk.init(g.elements(), nip, kShellT);
  ShellOptions opt; // Gauss rule, SHRF 1, IHQ 1, QM 0.1 (LS-DYNA defaults)
  opt.nip = nip;
  const MaterialParams mat = steel_params();
  const std::size_t n = blk.size();
  std::vector<Real> fe(12 * n), me(12 * n);

  auto pass = [&](Real dt) {
    const std::span<const Real> xs(x), vs(v), ws(w);
    const std::span<Real> fs(fe), ms(me);
    for_chunks(n, [&](std::size_t b, std::size_t e) {
      compute_shell_forces(opt, mat, blk, b, e, xs, vs, ws, dt, fs, ms);
    });
  };
  KernelTiming t = time_passes(sz.warmup, sz.reps, kShellDt, x, v, pass);
  t.elements = n;
  t.plastic_fraction = plastic_fraction(blk.eps_p);
  if (std::any_of(blk.failed.begin(), blk.failed.end(), [](std::uint8_t f) { return f != 0; }))
    throw std::runtime_error("shell kernel: elements failed");
  return t;
}

// ---------------------------------------------------------------------------------------------
// Full cycles: generated decks (comma-separated free format) run by run_explicit

std::string deck_header(const std::string& title, int cycles) {
  // ENDTIM far beyond what ENDCYC cycles reach: the run stops on the cycle count, and no
  // glstat/plot interval (fractions of ENDTIM) falls inside it.
  return fmt::format("*KEYWORD\n*TITLE\n{}\n*CONTROL_TERMINATION\n1.0,{}\n"
                     "*MAT_PLASTIC_KINEMATIC\n1,{},{},{},{},{},{}\n0.0,0.0,0.0,0.0\n",
                     title, cycles, kRho, kE, kNu, kSigy, kEtan, kBeta);
}

std::string hex_deck(const Sizes& sz) {
  const HexGrid g{sz.hex_nx, sz.hex_ny, sz.hex_nz, kHexH};
  std::string d = deck_header("parcae_bench_kernels: hex block", sz.cycles);
  auto out = std::back_inserter(d);
  d += "*PART\nhex block\n1,1,1\n*SECTION_SOLID\n1,1\n*NODE\n";
  g.for_each_node([&](LocalId n, const std::array<Real, 3>& p) {
    fmt::format_to(out, "{},{},{},{}\n", n + 1, p[0], p[1], p[2]);
  });
  d += "*ELEMENT_SOLID\n";
  g.for_each_element([&](std::size_t e, const std::array<LocalId, 8>& c) {
    fmt::format_to(out, "{},1,{},{},{},{},{},{},{},{}\n", e + 1, c[0] + 1, c[1] + 1, c[2] + 1,
                   c[3] + 1, c[4] + 1, c[5] + 1, c[6] + 1, c[7] + 1);
  });
  d += "*INITIAL_VELOCITY_NODE\n";
  const std::vector<Real> v = hex_velocity(g);
  for (std::size_t n = 0; n < g.nodes(); ++n)
    fmt::format_to(out, "{},{:.9g},{:.9g},{:.9g}\n", n + 1, v[3 * n], v[3 * n + 1], v[3 * n + 2]);
  d += "*END\n";
  return d;
}

std::string shell_deck(const Sizes& sz, int nip) {
  const ShellGrid g{sz.shell_nx, sz.shell_ny, kShellH};
  std::string d = deck_header("parcae_bench_kernels: shell plate", sz.cycles);
  auto out = std::back_inserter(d);
  d += "*PART\nshell plate\n1,1,1\n";
  fmt::format_to(out, "*SECTION_SHELL\n1,2,1.0,{}\n{},{},{},{}\n*NODE\n", nip, kShellT, kShellT,
                 kShellT, kShellT);
  g.for_each_node([&](LocalId n, const std::array<Real, 3>& p) {
    fmt::format_to(out, "{},{},{},{}\n", n + 1, p[0], p[1], p[2]);
  });
  d += "*ELEMENT_SHELL\n";
  g.for_each_element([&](std::size_t e, const std::array<LocalId, 4>& c) {
    fmt::format_to(out, "{},1,{},{},{},{}\n", e + 1, c[0] + 1, c[1] + 1, c[2] + 1, c[3] + 1);
  });
  d += "*INITIAL_VELOCITY_NODE\n";
  std::vector<Real> v, w;
  shell_velocity(g, v, w);
  for (std::size_t n = 0; n < g.nodes(); ++n)
    fmt::format_to(out, "{},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g}\n", n + 1, v[3 * n],
                   v[3 * n + 1], v[3 * n + 2], w[3 * n], w[3 * n + 1], w[3 * n + 2]);
  d += "*END\n";
  return d;
}

struct CycleTiming {
  std::size_t elements = 0;
  int cycles = 0;
  Real elapsed_s = 0;
  Real energy_error = 0;

  [[nodiscard]] Real us_per_element_cycle() const {
    return 1e6 * elapsed_s / (static_cast<Real>(cycles) * static_cast<Real>(elements));
  }
};

/// Write the deck to a scratch directory, read it back and run it without output files.
CycleTiming bench_full_cycle(const std::string& tag, const std::string& deck, int threads) {
  const fs::path dir =
      fs::temp_directory_path() / fmt::format("parcae_bench_{}_{}", ::getpid(), tag);
  fs::create_directories(dir);
  struct Cleanup {
    fs::path p;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(p, ec);
    }
  } cleanup{dir};
  const fs::path path = dir / "deck.k";
  {
    std::ofstream f(path);
    f << deck;
    if (!f) throw std::runtime_error("cannot write " + path.string());
  }
  const Model model = read_deck(path.string());
  RunOptions ro;
  ro.outdir = dir.string();
  ro.threads = threads;
  ro.write_vtk = false;
  ro.write_d3plot = false;
  ro.write_histories = false;
  ro.write_glstat = false;
  const RunSummary sum = run_explicit(model, ro);
  if (!sum.normal_termination)
    throw std::runtime_error(fmt::format("{} full cycle: run stopped: {}", tag, sum.error));
  if (sum.cycles <= 0) throw std::runtime_error(tag + " full cycle: no cycles run");
  CycleTiming t;
  t.elements = model.solids.size() + model.shells.size();
  t.cycles = sum.cycles;
  t.elapsed_s = sum.elapsed_s;
  t.energy_error = sum.energy_error;
  return t;
}

// ---------------------------------------------------------------------------------------------
// Metadata, results, output

std::string cpu_model() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon);
    key.erase(key.find_last_not_of(" \t") + 1);
    if (key == "model name" || key == "Model" || key == "cpu model") {
      const auto start = line.find_first_not_of(" \t", colon + 1);
      if (start != std::string::npos) return line.substr(start);
    }
  }
  return "unknown";
}

std::string hostname() {
  std::array<char, 256> buf{};
  if (::gethostname(buf.data(), buf.size() - 1) != 0) return "unknown";
  return buf.data();
}

/// 1-, 5- and 15-minute load averages: other work on the machine inflates the timings.
json load_average() {
  std::ifstream f("/proc/loadavg");
  std::array<Real, 3> a{};
  if (!(f >> a[0] >> a[1] >> a[2])) return nullptr;
  return a;
}

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  std::array<char, 32> buf{};
  std::strftime(buf.data(), buf.size(), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf.data();
}

json metadata(const Options& o) {
  return {{"hostname", hostname()},
          {"cpu_model", cpu_model()},
          {"cores", std::thread::hardware_concurrency()},
          {"threads", o.threads},
          {"compiler", fmt::format("{} ({})", PARCAE_COMPILER_ID, __VERSION__)},
          {"build_type", PARCAE_BUILD_TYPE},
          {"flags", PARCAE_CXX_FLAGS},
          {"git_revision", PARCAE_GIT_REVISION},
          {"date", utc_now_iso8601()},
          {"load_average", load_average()},
          {"quick", o.quick}};
}

/// One row of the table and two JSON results (time per element-cycle and its rate).
struct Row {
  std::string key; ///< result name prefix, e.g. "shell_nip2_kernel"
  std::string label;
  std::size_t elements;
  std::string samples; ///< e.g. "30 passes" or "100 cycles"
  Real us;             ///< median microseconds per element-cycle
  std::string note;
};

void add_results(json& results, const Row& r) {
  results.push_back({{"name", r.key + "_us_per_element_cycle"}, {"value", r.us}, {"unit", "us"}});
  results.push_back(
      {{"name", r.key + "_element_cycles_per_s"}, {"value", 1e6 / r.us}, {"unit", "1/s"}});
}

void print_row(const Row& r) {
  std::cout << fmt::format("{:<20} {:>9} {:>12} {:>12.4f} {:>14.4g}  {}\n", r.label, r.elements,
                           r.samples, r.us, 1e6 / r.us, r.note)
            << std::flush;
}

Row kernel_row(const std::string& key, const std::string& label, const KernelTiming& t) {
  return {key,
          label,
          t.elements,
          fmt::format("{} passes", t.reps),
          t.us_per_element_cycle(),
          fmt::format("min {:.4f} us, {:.0f}% points plastic", 1e6 * t.min_s / t.elements,
                      100 * t.plastic_fraction)};
}

Row cycle_row(const std::string& key, const std::string& label, const CycleTiming& t) {
  return {key,
          label,
          t.elements,
          fmt::format("{} cycles", t.cycles),
          t.us_per_element_cycle(),
          fmt::format("elapsed {:.3f} s, energy error {:.2f}%", t.elapsed_s, 100 * t.energy_error)};
}

json kernel_case(const KernelTiming& t, int nip = 0) {
  json c = {{"elements", t.elements},
            {"warmup", t.warmup},
            {"repetitions", t.reps},
            {"dt", t.dt},
            {"median_pass_s", t.median_s},
            {"min_pass_s", t.min_s},
            {"plastic_fraction", t.plastic_fraction}};
  if (nip > 0) c["nip"] = nip;
  return c;
}

json cycle_case(const CycleTiming& t) {
  return {{"elements", t.elements},
          {"cycles", t.cycles},
          {"elapsed_s", t.elapsed_s},
          {"energy_error", t.energy_error}};
}

/// Read the written file back and check the schema; throws on any problem.
void check_result_file(const fs::path& path, std::size_t expected_results) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot read back " + path.string());
  const json j = json::parse(f); // throws json::parse_error on invalid JSON
  if (j.value("benchmark", "") != "parcae_kernels")
    throw std::runtime_error("result file: wrong or missing \"benchmark\"");
  for (const char* key : {"hostname", "cpu_model", "cores", "threads", "compiler", "build_type",
                          "flags", "git_revision", "date"})
    if (!j.at("metadata").contains(key))
      throw std::runtime_error(fmt::format("result file: metadata.{} missing", key));
  const json& results = j.at("results");
  if (!results.is_array() || results.size() != expected_results)
    throw std::runtime_error("result file: wrong number of results");
  for (const json& r : results) {
    const Real v = r.at("value").get<Real>();
    if (!r.at("name").is_string() || !r.at("unit").is_string() || !std::isfinite(v) || v <= 0)
      throw std::runtime_error("result file: bad entry " + r.dump());
  }
  if (!j.at("target").at("us_per_element_cycle_per_core").is_number())
    throw std::runtime_error("result file: target missing");
}

void usage(std::ostream& os) {
  os << "usage: parcae_bench_kernels [--json PATH] [--threads T] [--quick]\n"
        "  --json PATH   result file (default bench/kernels.json; directories are created)\n"
        "  --threads T   OpenMP threads (default 1)\n"
        "  --quick       small sizes and few repetitions (smoke test)\n";
}

Options parse_args(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      return argv[++i];
    };
    if (a == "--json") {
      o.json_path = value();
    } else if (a == "--threads") {
      const std::string v = value();
      std::size_t used = 0;
      try {
        o.threads = std::stoi(v, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != v.size() || o.threads < 1)
        throw std::invalid_argument("--threads needs a positive integer, got '" + v + "'");
    } else if (a == "--quick") {
      o.quick = true;
    } else if (a == "--help" || a == "-h") {
      usage(std::cout);
      std::exit(0);
    } else {
      throw std::invalid_argument("unknown argument '" + a + "'");
    }
  }
  return o;
}

int run(const Options& o) {
  omp_set_num_threads(o.threads);
  const Sizes sz = o.quick ? Sizes::quick() : Sizes{};
  json meta = metadata(o);
  std::cout << fmt::format("parcae kernel benchmark: {} thread(s){}, {} build, git {}\n", o.threads,
                           o.quick ? " (quick)" : "", PARCAE_BUILD_TYPE, PARCAE_GIT_REVISION)
            << fmt::format("cpu: {}\n\n", meta["cpu_model"].get<std::string>())
            << fmt::format("{:<20} {:>9} {:>12} {:>12} {:>14}\n", "case", "elements", "samples",
                           "us/elem-cyc", "elem-cyc/s");

  json results = json::array(), cases = json::object();
  auto record = [&](const Row& r, json c) {
    print_row(r);
    add_results(results, r);
    cases[r.key] = std::move(c);
  };

  const KernelTiming hex = bench_hex_kernel(sz);
  record(kernel_row("hex_kernel", "hex kernel", hex), kernel_case(hex));
  for (int nip : {2, 5}) {
    const KernelTiming sh = bench_shell_kernel(sz, nip);
    const std::string key = fmt::format("shell_nip{}_kernel", nip);
    record(kernel_row(key, fmt::format("shell kernel NIP {}", nip), sh), kernel_case(sh, nip));
  }
  const CycleTiming hex_full = bench_full_cycle("hex", hex_deck(sz), o.threads);
  record(cycle_row("hex_full_cycle", "hex full cycle", hex_full), cycle_case(hex_full));
  const CycleTiming shell_full = bench_full_cycle("shell", shell_deck(sz, 2), o.threads);
  json shell_case = cycle_case(shell_full);
  shell_case["nip"] = 2;
  record(cycle_row("shell_full_cycle", "shell full cycle", shell_full), std::move(shell_case));

  const json out = {
      {"benchmark", "parcae_kernels"},
      {"metadata", std::move(meta)},
      {"results", results},
      {"target", {{"us_per_element_cycle_per_core", kTargetUsPerElementCyclePerCore}}},
      {"cases", std::move(cases)}};
  const fs::path path(o.json_path);
  if (path.has_parent_path()) fs::create_directories(path.parent_path());
  {
    std::ofstream f(path);
    f << out.dump(2) << '\n';
    if (!f) throw std::runtime_error("cannot write " + path.string());
  }
  check_result_file(path, results.size());
  std::cout << fmt::format("\ntarget: {} us per element-cycle per core\nwrote {}\n",
                           kTargetUsPerElementCyclePerCore, path.string());
  return 0;
}

} // namespace
} // namespace parcae::bench

int main(int argc, char** argv) {
  using namespace parcae::bench;
  Options o;
  try {
    o = parse_args(argc, argv);
  } catch (const std::invalid_argument& e) {
    std::cerr << "parcae_bench_kernels: " << e.what() << '\n';
    usage(std::cerr);
    return 2;
  }
  try {
    return run(o);
  } catch (const std::exception& e) {
    std::cerr << "parcae_bench_kernels: error: " << e.what() << '\n';
    return 1;
  }
}
