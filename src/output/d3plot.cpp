// d3plot writer, after the layout in the LS-DYNA Database Manual (binary plot database):
//
//   base      control words (64), geometry (coordinates, solid and shell connectivity), the
//             user numbering section (NARBS: node, solid, shell and part ids), end-of-file
//             marker, part titles (NTYPE 90001 part titles, 90000 heading), end marker.
//   base01..  states: time, global variables, node coordinates / velocities / accelerations,
//             solid data, shell data, element deletion flags. A member ends with the end
//             marker when the next state would pass the family size; the last one on close().
//
// The states start in the second member because VTK's vtkLSDynaReader goes on with the next
// family member when it meets the end marker behind the geometry; lasso-python finds no state
// behind the titles of the first member and reads the following members from their start.
//
// Choices (both readers accept them): NDIM = 4 (3-D, unpacked connectivity, no material type
// section); ICODE = 6; version 971.0 (VTK tells 4- from 8-byte words by a version between 900
// and 1000); NV3D = 7 (6 stresses, effective plastic strain); NV2D = MAXINT * (6 IOSHL1 +
// IOSHL2) + 8 IOSHL3 + 4 IOSHL4; NEIPH = NEIPS = 0; NGLBV = 6 + 7 NMMAT: KE, IE, TE, VX, VY, VZ,
// then per part IE, KE, (VX, VY, VZ), mass, hourglass energy (no rigid walls); MDLOPT = 2 (one
// flag per element, solids, shells, then beams) is MAXINT = -(MAXINT + 10000). Beams: NEL2
// elements of six connectivity words (N1 N2 N3 0 0 part) between the solids and the shells,
// NV1D = 6 state words each (axial force, shear s/t, moment s/t, torsion) between the solid and
// the shell data; their ids between the solid and the shell ids.
// Shell points: with three points the state's order (bottom, middle, top) is written as
// LS-DYNA does: middle, inner (bottom), outer (top); otherwise in the given order.
#include "output/d3plot.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <limits>

#include <unistd.h>

#include <fmt/format.h>

#include "core/error.hpp"

namespace parcae {

namespace {

constexpr std::int64_t kDefaultFamilyWords = 7LL * 512 * 512;
constexpr double kEndMarker = -999999.0;
constexpr std::size_t kTitleBytes = 72; // part titles: 18 four-byte words

} // namespace

void D3plotWriter::fail(const std::string& what) const {
  throw RuntimeError(fmt::format("d3plot '{}': {}", base_, what));
}

void D3plotWriter::spill() {
  if (streaming_ && buf_.size() >= kSpillBytes) flush_buffer("state");
}

void D3plotWriter::put_int(std::int64_t v) {
  spill();
  if (opt_.word_bytes == 4) {
    if (v > std::numeric_limits<std::int32_t>::max() ||
        v < std::numeric_limits<std::int32_t>::min())
      fail(fmt::format("integer {} does not fit a 4-byte word (use 8-byte words)", v));
    const auto w = static_cast<std::int32_t>(v);
    const auto* b = reinterpret_cast<const unsigned char*>(&w);
    buf_.insert(buf_.end(), b, b + 4);
  } else {
    const auto* b = reinterpret_cast<const unsigned char*>(&v);
    buf_.insert(buf_.end(), b, b + 8);
  }
}

void D3plotWriter::put_real(Real v) {
  spill();
  if (opt_.word_bytes == 4) {
    const auto w = static_cast<float>(v);
    const auto* b = reinterpret_cast<const unsigned char*>(&w);
    buf_.insert(buf_.end(), b, b + 4);
  } else {
    const auto w = static_cast<double>(v);
    const auto* b = reinterpret_cast<const unsigned char*>(&w);
    buf_.insert(buf_.end(), b, b + 8);
  }
}

/// `bytes` characters of `s`, blank padded (bytes is a multiple of the word size).
void D3plotWriter::put_chars(const std::string& s, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; ++i)
    buf_.push_back(i < s.size() ? static_cast<unsigned char>(s[i]) : ' ');
}

void D3plotWriter::flush_buffer(const char* what) {
  if (buf_.empty()) return;
  if (!fp_) fail(fmt::format("no open file for the {}", what));
  const std::string& path = files_.back();
  if (std::fwrite(buf_.data(), 1, buf_.size(), fp_) != buf_.size())
    fail(fmt::format("cannot write the {} to '{}': {}", what, path, std::strerror(errno)));
  words_in_file_ += static_cast<std::int64_t>(buf_.size()) / opt_.word_bytes;
  buf_.clear();
}

void D3plotWriter::open_member(const std::string& path) {
  fp_ = std::fopen(path.c_str(), "wb");
  if (!fp_) fail(fmt::format("cannot open '{}' for writing: {}", path, std::strerror(errno)));
  files_.push_back(path);
  words_in_file_ = 0;
}

void D3plotWriter::close_member() {
  if (!fp_) return;
  buf_.clear();
  put_real(kEndMarker);
  flush_buffer("end marker");
  const bool bad = std::fflush(fp_) != 0;
  const bool bad_close = std::fclose(fp_) != 0;
  fp_ = nullptr;
  if (bad || bad_close)
    fail(fmt::format("cannot write '{}': {}", files_.back(), std::strerror(errno)));
}

D3plotWriter::D3plotWriter(std::string base, D3plotGeometry geometry, D3plotOptions options)
    : base_(std::move(base)), geom_(std::move(geometry)), opt_(options) {
  const auto& g = geom_;
  if (opt_.word_bytes != 4 && opt_.word_bytes != 8)
    fail(fmt::format("word size must be 4 or 8 bytes, not {}", opt_.word_bytes));
  family_limit_ = opt_.family_file_words > 0 ? opt_.family_file_words : kDefaultFamilyWords;
  const std::size_t nn = g.x0.size() / 3;
  if (g.x0.size() % 3 != 0)
    fail(fmt::format("{} initial coordinates is not a multiple of 3", g.x0.size()));
  if (g.node_id.size() != nn) fail(fmt::format("{} node ids for {} nodes", g.node_id.size(), nn));
  const std::size_t ns = g.solid_nodes.size(), nsh = g.shell_nodes.size(), np = g.parts.size();
  const std::size_t nb = g.beam_nodes.size();
  if (g.beam_part.size() != nb || g.beam_id.size() != nb)
    fail(fmt::format("{} beams but {} beam parts and {} beam ids", nb, g.beam_part.size(),
                     g.beam_id.size()));
  for (std::size_t e = 0; e < nb; ++e) {
    for (auto n : g.beam_nodes[e])
      if (n < 0 || static_cast<std::size_t>(n) >= nn)
        fail(fmt::format("beam {} refers to node index {} (of {})", g.beam_id[e], n, nn));
    if (g.beam_part[e] < 0 || static_cast<std::size_t>(g.beam_part[e]) >= np)
      fail(fmt::format("beam {} has part index {} (of {})", g.beam_id[e], g.beam_part[e], np));
  }
  if (g.solid_part.size() != ns || g.solid_id.size() != ns)
    fail(fmt::format("{} solids but {} solid parts and {} solid ids", ns, g.solid_part.size(),
                     g.solid_id.size()));
  if (g.shell_part.size() != nsh || g.shell_id.size() != nsh)
    fail(fmt::format("{} shells but {} shell parts and {} shell ids", nsh, g.shell_part.size(),
                     g.shell_id.size()));
  for (std::size_t e = 0; e < ns; ++e) {
    for (auto n : g.solid_nodes[e])
      if (n < 0 || static_cast<std::size_t>(n) >= nn)
        fail(fmt::format("solid {} refers to node index {} (of {})", g.solid_id[e], n, nn));
    if (g.solid_part[e] < 0 || static_cast<std::size_t>(g.solid_part[e]) >= np)
      fail(fmt::format("solid {} has part index {} (of {})", g.solid_id[e], g.solid_part[e], np));
  }
  for (std::size_t e = 0; e < nsh; ++e) {
    for (auto n : g.shell_nodes[e])
      if (n < 0 || static_cast<std::size_t>(n) >= nn)
        fail(fmt::format("shell {} refers to node index {} (of {})", g.shell_id[e], n, nn));
    if (g.shell_part[e] < 0 || static_cast<std::size_t>(g.shell_part[e]) >= np)
      fail(fmt::format("shell {} has part index {} (of {})", g.shell_id[e], g.shell_part[e], np));
  }
  const int maxint = opt_.shell_layers;
  if (maxint < 1 || maxint > 9999)
    fail(fmt::format("shell_layers must be between 1 and 9999, not {}", maxint));

  const int ioshl1 = opt_.shell_stress ? 1 : 0, ioshl2 = opt_.shell_plastic_strain ? 1 : 0;
  const int ioshl3 = opt_.shell_resultants ? 1 : 0, ioshl4 = opt_.shell_thickness_energy ? 1 : 0;
  nv2d_ = maxint * (6 * ioshl1 + ioshl2) + 8 * ioshl3 + 4 * ioshl4;
  nglbv_ = 6 + 7 * static_cast<int>(np);
  constexpr int kNv3d = 7;
  constexpr int kNv1d = 6;
  const int node_vecs = 1 + (opt_.velocities ? 1 : 0) + (opt_.accelerations ? 1 : 0);
  state_words_ = 1 + nglbv_ + static_cast<std::int64_t>(3 * node_vecs) * nn +
                 kNv3d * static_cast<std::int64_t>(ns) + static_cast<std::int64_t>(nv2d_) * nsh +
                 kNv1d * static_cast<std::int64_t>(nb) +
                 (opt_.deletion_flags ? static_cast<std::int64_t>(ns + nsh + nb) : 0);

  // The geometry section's words, about (ids, connectivity, coordinates, titles): one buffer.
  buf_.reserve(static_cast<std::size_t>(opt_.word_bytes) *
               (256 + 4 * nn + 10 * ns + 6 * nsh + 7 * nb + 40 * np));

  // Materials (parts) used by each element kind.
  std::vector<char> used_solid(np, 0), used_shell(np, 0), used_beam(np, 0);
  for (auto p : g.solid_part) used_solid[p] = 1;
  for (auto p : g.shell_part) used_shell[p] = 1;
  for (auto p : g.beam_part) used_beam[p] = 1;
  std::int64_t nummat8 = 0, nummat4 = 0, nummat2 = 0;
  for (std::size_t p = 0; p < np; ++p) {
    nummat8 += used_solid[p];
    nummat4 += used_shell[p];
    nummat2 += used_beam[p];
  }

  // The first member is assembled in buf_, then written (or, appending, compared).
  buf_.clear();
  // ---- Control words (64).
  put_chars(g.title.substr(0, 40), static_cast<std::size_t>(10 * opt_.word_bytes));
  put_int(static_cast<std::int64_t>(std::time(nullptr)) & 0x7fffffff); // 10 runtime
  put_int(1);                                                          // 11 filetype d3plot
  put_int(0);                                                          // 12 source version
  put_chars("prc1", static_cast<std::size_t>(opt_.word_bytes));        // 13 release
  put_real(971.0);                                                     // 14 version
  put_int(4);                                                          // 15 NDIM
  put_int(static_cast<std::int64_t>(nn));                              // 16 NUMNP
  put_int(6);                                                          // 17 ICODE
  put_int(nglbv_);                                                     // 18 NGLBV
  put_int(0);                                                          // 19 IT
  put_int(1);                                                          // 20 IU
  put_int(opt_.velocities ? 1 : 0);                                    // 21 IV
  put_int(opt_.accelerations ? 1 : 0);                                 // 22 IA
  put_int(static_cast<std::int64_t>(ns));                              // 23 NEL8
  put_int(nummat8);                                                    // 24 NUMMAT8
  put_int(0);                                                          // 25 NUMDS
  put_int(0);                                                          // 26 NUMST
  put_int(kNv3d);                                                      // 27 NV3D
  put_int(static_cast<std::int64_t>(nb));                              // 28 NEL2
  put_int(nummat2);                                                    // 29 NUMMAT2
  put_int(kNv1d);                                                      // 30 NV1D
  put_int(static_cast<std::int64_t>(nsh));                             // 31 NEL4
  put_int(nummat4);                                                    // 32 NUMMAT4
  put_int(nv2d_);                                                      // 33 NV2D
  put_int(0);                                                          // 34 NEIPH
  put_int(0);                                                          // 35 NEIPS
  put_int(opt_.deletion_flags ? -(maxint + 10000) : maxint);           // 36 MAXINT / MDLOPT
  put_int(0);                                                          // 37 NMSPH
  put_int(0);                                                          // 38 NGPSPH
  const std::int64_t narbs = 16 + static_cast<std::int64_t>(nn + ns + nb + nsh + 3 * np);
  put_int(narbs);                           // 39 NARBS
  put_int(0);                               // 40 NELT
  put_int(0);                               // 41 NUMMATT
  put_int(0);                               // 42 NV3DT
  put_int(ioshl1 ? 1000 : 999);             // 43 IOSHL(1)
  put_int(ioshl2 ? 1000 : 999);             // 44 IOSHL(2)
  put_int(ioshl3 ? 1000 : 999);             // 45 IOSHL(3)
  put_int(ioshl4 ? 1000 : 999);             // 46 IOSHL(4)
  put_int(0);                               // 47 IALEMAT
  put_int(0);                               // 48 NCFDV1
  put_int(0);                               // 49 NCFDV2
  put_int(0);                               // 50 NADAPT
  put_int(static_cast<std::int64_t>(np));   // 51 NMMAT
  for (int w = 52; w < 64; ++w) put_int(0); // NUMFLUID, INN, NPEFG, NEL48, IDTDT, EXTRA, spare

  // ---- Geometry.
  for (Real c : g.x0) put_real(c);
  for (std::size_t e = 0; e < ns; ++e) {
    for (auto n : g.solid_nodes[e]) put_int(n + 1);
    put_int(g.solid_part[e] + 1);
  }
  for (std::size_t e = 0; e < nb; ++e) {
    for (auto n : g.beam_nodes[e]) put_int(n + 1);
    put_int(0);
    put_int(0);
    put_int(g.beam_part[e] + 1);
  }
  for (std::size_t e = 0; e < nsh; ++e) {
    for (auto n : g.shell_nodes[e]) put_int(n + 1);
    put_int(g.shell_part[e] + 1);
  }

  // ---- User numbering (NARBS words, NSORT < 0: with the part id arrays).
  const auto start = static_cast<std::int64_t>(buf_.size()) / opt_.word_bytes + 1; // 1-based
  const std::int64_t p_nodes = start + 16, p_solids = p_nodes + static_cast<std::int64_t>(nn);
  const std::int64_t p_beams = p_solids + static_cast<std::int64_t>(ns);
  const std::int64_t p_shells = p_beams + static_cast<std::int64_t>(nb),
                     p_tshells = p_shells + static_cast<std::int64_t>(nsh);
  const std::int64_t p_mat = p_tshells, nmmat = static_cast<std::int64_t>(np);
  for (std::int64_t w :
       {-p_nodes, p_solids, p_beams, p_shells, p_tshells, static_cast<std::int64_t>(nn),
        static_cast<std::int64_t>(ns), static_cast<std::int64_t>(nb),
        static_cast<std::int64_t>(nsh), std::int64_t{0}, p_mat, p_mat + nmmat, p_mat + 2 * nmmat,
        nmmat, std::int64_t{0}, nmmat})
    put_int(w);
  for (auto id : g.node_id) put_int(id);
  for (auto id : g.solid_id) put_int(id);
  for (auto id : g.beam_id) put_int(id);
  for (auto id : g.shell_id) put_int(id);
  for (const auto& p : g.parts) put_int(p.id); // NORDER: part ids by internal number
  for (const auto& p : g.parts) put_int(p.id); // part ids in the order defined
  for (std::size_t p = 0; p < np; ++p) put_int(static_cast<std::int64_t>(p + 1)); // cross ref

  // ---- End of the geometry, part titles, end marker.
  // Part titles first: VTK reads them right behind the end marker (lasso takes either order).
  put_real(kEndMarker);
  put_int(90001);
  put_int(nmmat);
  for (const auto& p : g.parts) {
    put_int(p.id);
    put_chars(p.title, kTitleBytes);
  }
  put_int(90000);
  put_chars(g.title, kTitleBytes);
  put_real(kEndMarker);
  geometry_words_ = static_cast<std::int64_t>(buf_.size()) / opt_.word_bytes;
  // The states need only the counts: the geometry's arrays (a 1 M-element model's are about
  // 60 MB) go now, its words are in buf_ until written.
  counts_ = {nn, ns, nsh, np, nb};
  geom_ = D3plotGeometry{};
  if (opt_.append) {
    resume();
    std::vector<unsigned char>().swap(buf_); // the geometry's words (compared) are done with
    return;
  }
  // Members of an earlier family in the same place would be read as states of this one.
  {
    namespace fs = std::filesystem;
    const fs::path bp(base_);
    const fs::path dir = bp.parent_path().empty() ? fs::path(".") : bp.parent_path();
    const std::string stem = bp.filename().string();
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (name.size() > stem.size() && name.compare(0, stem.size(), stem) == 0 &&
          name.find_first_not_of("0123456789", stem.size()) == std::string::npos) {
        std::error_code rm;
        fs::remove(it->path(), rm);
      }
    }
  }
  open_member(base_);
  flush_buffer("geometry");
  std::vector<unsigned char>().swap(buf_); // the states' buffer is smaller
  const bool bad = std::fflush(fp_) != 0;
  const bool bad_close = std::fclose(fp_) != 0;
  fp_ = nullptr;
  if (bad || bad_close)
    fail(fmt::format("cannot write '{}': {}", files_.back(), std::strerror(errno)));
}

namespace {

std::vector<unsigned char> read_all(const std::string& path) {
  std::vector<unsigned char> b;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return b;
  unsigned char chunk[65536];
  std::size_t n;
  while ((n = std::fread(chunk, 1, sizeof chunk, f)) > 0) b.insert(b.end(), chunk, chunk + n);
  std::fclose(f);
  return b;
}

} // namespace

/// Append mode: the first member must hold exactly this geometry (the run-time word aside);
/// every further member whole states, the completed ones closed by the end marker. Writing
/// goes on in the last member when it is not completed, else in a new one.
void D3plotWriter::resume() {
  namespace fs = std::filesystem;
  const int wb = opt_.word_bytes;
  const auto geo = read_all(base_);
  if (geo.empty()) fail("cannot append: the family's first member is missing or empty");
  bool same = geo.size() == buf_.size();
  for (std::size_t i = 0; same && i < geo.size(); ++i)
    same = (i >= 10u * wb && i < 11u * wb) || geo[i] == buf_[i]; // word 10: run time
  if (!same) fail("cannot append: the existing family was written for another model or layout");
  buf_.clear();
  files_ = {base_};
  states_ = 0;
  bool completed = true;
  for (int m = 1;; ++m) {
    const std::string path = base_ + fmt::format("{:02d}", m);
    std::error_code ec;
    if (!fs::exists(path, ec)) break;
    if (!completed) fail(fmt::format("cannot append: '{}' follows an unfinished member", path));
    const auto words = static_cast<std::int64_t>(fs::file_size(path, ec)) / wb;
    if (ec || words * wb != static_cast<std::int64_t>(fs::file_size(path, ec)))
      fail(fmt::format("cannot append: '{}' is not a whole number of words", path));
    double last = 0;
    if (words > 0) {
      std::FILE* f = std::fopen(path.c_str(), "rb");
      if (!f || std::fseek(f, (words - 1) * wb, SEEK_SET) != 0)
        fail(fmt::format("cannot read '{}': {}", path, std::strerror(errno)));
      if (wb == 4) {
        float v = 0;
        if (std::fread(&v, 4, 1, f) != 1) v = 0;
        last = v;
      } else if (std::fread(&last, 8, 1, f) != 1) {
        last = 0;
      }
      std::fclose(f);
    }
    completed = last == kEndMarker && (words - 1) % state_words_ == 0;
    if (!completed && words % state_words_ != 0)
      fail(fmt::format("cannot append: '{}' holds a partial state ({} words, {} per state)", path,
                       words, state_words_));
    states_ += static_cast<int>((completed ? words - 1 : words) / state_words_);
    files_.push_back(path);
    words_in_file_ = words;
  }
  if (!completed) {
    fp_ = std::fopen(files_.back().c_str(), "ab");
    if (!fp_)
      fail(fmt::format("cannot open '{}' for appending: {}", files_.back(), std::strerror(errno)));
  } else {
    words_in_file_ = 0;
  }
}

D3plotWriter::~D3plotWriter() {
  try {
    close();
  } catch (...) { // destructors must not throw; close() explicitly to see errors
  }
}

void D3plotWriter::write_state(const D3plotState& s) {
  if (closed_) fail("write_state() after close()");
  const std::size_t nn = counts_.nodes, ns = counts_.solids, nsh = counts_.shells;
  const std::size_t np = counts_.parts, nb = counts_.beams;
  const auto L = static_cast<std::size_t>(opt_.shell_layers);
  auto check = [&](const char* name, std::size_t got, std::size_t want, bool may_be_empty) {
    if (got == want || (may_be_empty && got == 0)) return;
    fail(fmt::format("state {} (t = {}): {} has {} values, expected {}{}", states_, s.time, name,
                     got, want, may_be_empty ? " (or none)" : ""));
  };
  check("x", s.x.size(), 3 * nn, false);
  if (opt_.velocities) check("v", s.v.size(), 3 * nn, false);
  if (opt_.accelerations) check("a", s.a.size(), 3 * nn, false);
  check("solid_sig", s.solid_sig.size(), 6 * ns, false);
  check("solid_epsp", s.solid_epsp.size(), ns, false);
  if (opt_.shell_stress) check("shell_sig", s.shell_sig.size(), 6 * L * nsh, false);
  if (opt_.shell_plastic_strain) check("shell_epsp", s.shell_epsp.size(), L * nsh, false);
  if (opt_.shell_resultants) check("shell_resultants", s.shell_resultants.size(), 8 * nsh, false);
  if (opt_.shell_thickness_energy) {
    check("shell_thickness", s.shell_thickness.size(), nsh, false);
    check("shell_energy", s.shell_energy.size(), nsh, true);
  }
  check("part_internal", s.part_internal.size(), np, true);
  check("part_kinetic", s.part_kinetic.size(), np, true);
  check("part_mass", s.part_mass.size(), np, true);
  check("part_hourglass", s.part_hourglass.size(), np, true);
  check("part_velocity", s.part_velocity.size(), 3 * np, true);
  check("solid_active", s.solid_active.size(), ns, true);
  check("shell_active", s.shell_active.size(), nsh, true);
  check("beam_force", s.beam_force.size(), nb, true);
  check("beam_resultants", s.beam_resultants.size(), 5 * nb, true);

  // A new member when this state (and the member's end marker) would pass the family size.
  if (fp_ && words_in_file_ > 0 && words_in_file_ + state_words_ + 1 > family_limit_)
    close_member();
  if (!fp_) {
    const int member = static_cast<int>(files_.size()); // 1, 2, ...
    open_member(base_ + fmt::format("{:02d}", member));
  }

  // The state goes to the file in pieces of kSpillBytes as it is assembled (a whole 1 M-element
  // state would be a 60 MB buffer).
  buf_.clear();
  buf_.reserve(std::min(static_cast<std::size_t>(state_words_ * opt_.word_bytes), kSpillBytes) +
               64);
  const std::int64_t words_before = words_in_file_;
  streaming_ = true;
  try {
    put_real(s.time);
    put_real(s.kinetic);
    put_real(s.internal);
    put_real(s.total);
    for (int i = 0; i < 3; ++i) put_real(s.velocity[i]);
    auto per_part = [&](const std::vector<Real>& v) {
      for (std::size_t p = 0; p < np; ++p) put_real(v.empty() ? 0.0 : v[p]);
    };
    per_part(s.part_internal);
    per_part(s.part_kinetic);
    for (std::size_t p = 0; p < 3 * np; ++p)
      put_real(s.part_velocity.empty() ? 0.0 : s.part_velocity[p]);
    per_part(s.part_mass);
    per_part(s.part_hourglass);
    for (Real c : s.x) put_real(c);
    if (opt_.velocities)
      for (Real c : s.v) put_real(c);
    if (opt_.accelerations)
      for (Real c : s.a) put_real(c);
    for (std::size_t e = 0; e < ns; ++e) {
      for (int i = 0; i < 6; ++i) put_real(s.solid_sig[6 * e + i]);
      put_real(s.solid_epsp[e]);
    }
    for (std::size_t e = 0; e < nb; ++e) {
      put_real(s.beam_force.empty() ? 0.0 : s.beam_force[e]);
      for (int i = 0; i < 5; ++i)
        put_real(s.beam_resultants.empty() ? 0.0 : s.beam_resultants[5 * e + i]);
    }
    for (std::size_t e = 0; e < nsh; ++e) {
      for (std::size_t k = 0; k < L; ++k) {
        const std::size_t l = L == 3 ? (k == 0 ? 1 : (k == 1 ? 0 : 2)) : k; // middle, bottom, top
        if (opt_.shell_stress)
          for (int i = 0; i < 6; ++i) put_real(s.shell_sig[(e * L + l) * 6 + i]);
        if (opt_.shell_plastic_strain) put_real(s.shell_epsp[e * L + l]);
      }
      if (opt_.shell_resultants)
        for (int i = 0; i < 8; ++i) put_real(s.shell_resultants[8 * e + i]);
      if (opt_.shell_thickness_energy) {
        put_real(s.shell_thickness[e]);
        put_real(0.0); // element-dependent variables
        put_real(0.0);
        put_real(s.shell_energy.empty() ? 0.0 : s.shell_energy[e]);
      }
    }
    if (opt_.deletion_flags) {
      for (std::size_t e = 0; e < ns; ++e)
        put_real(s.solid_active.empty() || s.solid_active[e] ? 1.0 : 0.0);
      for (std::size_t e = 0; e < nsh; ++e)
        put_real(s.shell_active.empty() || s.shell_active[e] ? 1.0 : 0.0);
      for (std::size_t e = 0; e < nb; ++e) put_real(1.0); // trusses are not eroded
    }
    streaming_ = false;
    flush_buffer("state");
    if (words_in_file_ - words_before != state_words_)
      fail(fmt::format("internal error: state of {} words, expected {}",
                       words_in_file_ - words_before, state_words_));
  } catch (...) {
    // Part of the state may be in the file already: cut the member back to its last complete
    // state, so that close() ends a valid family and a restart can append to it.
    streaming_ = false;
    buf_.clear();
    if (fp_ && std::fflush(fp_) == 0 &&
        ::ftruncate(::fileno(fp_), static_cast<off_t>(words_before * opt_.word_bytes)) == 0 &&
        std::fseek(fp_, 0, SEEK_END) == 0)
      words_in_file_ = words_before;
    throw;
  }
  if (std::fflush(fp_) != 0)
    fail(fmt::format("cannot write '{}': {}", files_.back(), std::strerror(errno)));
  ++states_;
}

void D3plotWriter::close() {
  closed_ = true;
  close_member();
}

} // namespace parcae
