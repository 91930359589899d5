#include "solvers/common/checkpoint.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>

#include <fmt/format.h>

namespace parcae {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'P', 'A', 'R', 'C', 'A', 'E', 'C', 'K'};
constexpr std::uint64_t kFormatVersion = 9; // 2: contact search schedule; 3: trusses; 4: beams
                                            // 5: masses and scale factors (mass scaling)
                                            // 6: 2-D solid stresses and steps
                                            // 7: the time of the last plot state
                                            // 8: joint failure and couples, joint stiffnesses
                                            // 9: thick shells' through-thickness points
constexpr std::size_t kHeaderBytes = 32;    // magic, version, payload size, checksum

std::string rank_file_name(int rank) {
  return fmt::format("rank-{:05d}.bin", rank);
}

/// Write all bytes to fd (retrying short writes).
bool write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

void fsync_dir(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

/// Test hook: PARCAE_TEST_KILL_IN_CHECKPOINT=N kills the process (SIGKILL) half-way through
/// writing its N-th checkpoint file, as a power cut or `kill -9` would.
bool kill_requested_now() {
  static int remaining = [] {
    const char* s = std::getenv("PARCAE_TEST_KILL_IN_CHECKPOINT");
    return s ? std::atoi(s) : 0;
  }();
  return remaining > 0 && --remaining == 0;
}

/// Write head + body to path.tmp, fsync, rename onto path, fsync the directory: a reader sees
/// the old file or the whole new one. kill_hook: the checkpoint test hook may kill the process
/// half-way through the body.
void write_atomically(const fs::path& path, std::span<const char> head, std::span<const char> body,
                      bool kill_hook = false) {
  const fs::path tmp = path.string() + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0)
    throw RuntimeError(fmt::format("cannot write {}: {}", tmp.string(), std::strerror(errno)));
  bool ok = write_all(fd, head.data(), head.size());
  if (ok && kill_hook && kill_requested_now()) {
    (void)write_all(fd, body.data(), body.size() / 2);
    ::fsync(fd);
    ::raise(SIGKILL);
  }
  ok = ok && write_all(fd, body.data(), body.size()) && ::fsync(fd) == 0;
  const int err = errno;
  ::close(fd);
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int why = ok ? errno : err;
    std::error_code ec;
    fs::remove(tmp, ec); // a partial file would hold on to the space that ran out
    throw RuntimeError(fmt::format("cannot write {}: {}", path.string(), std::strerror(why)));
  }
  fsync_dir(path.parent_path());
}

std::optional<CheckpointInfo> read_manifest(const fs::path& dir) {
  const fs::path mp = dir / "manifest.json";
  std::ifstream in(mp);
  if (!in) return std::nullopt;
  nlohmann::json j;
  try {
    in >> j;
  } catch (const std::exception& e) {
    throw RuntimeError(
        fmt::format("checkpoint manifest {} is not valid JSON ({})", mp.string(), e.what()));
  }
  if (j.value("format", "") != "parcae-checkpoint")
    throw RuntimeError(fmt::format("{} is not a parcae checkpoint manifest", mp.string()));
  CheckpointInfo info;
  info.dir = dir;
  info.cycle = j.at("cycle").get<int>();
  info.time = j.at("time").get<double>();
  info.ranks = j.at("ranks").get<int>();
  info.deck = j.value("deck", "");
  info.fingerprint = std::stoull(j.at("fingerprint").get<std::string>(), nullptr, 16);
  for (const auto& [k, v] : j.at("outputs").items()) info.outputs[k] = v.get<std::uint64_t>();
  return info;
}

/// Complete checkpoints under <outdir>/checkpoints, oldest first.
std::vector<fs::path> complete_checkpoints(const fs::path& outdir) {
  std::vector<fs::path> dirs;
  const fs::path root = outdir / "checkpoints";
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return dirs;
  for (const auto& e : fs::directory_iterator(root, ec)) {
    if (!e.is_directory() || e.path().filename().string().rfind("cycle-", 0) != 0) continue;
    if (fs::exists(e.path() / "manifest.json")) dirs.push_back(e.path());
  }
  std::sort(dirs.begin(), dirs.end()); // zero-padded cycle numbers sort in cycle order
  return dirs;
}

/// Throws if a rank file of the checkpoint is missing or damaged.
void verify_checkpoint(const CheckpointInfo& info) {
  for (int r = 0; r < info.ranks; ++r) (void)read_checkpoint_file(info.dir / rank_file_name(r));
}

} // namespace

// ---------------------------------------------------------------------------------------------

StateArchive::StateArchive(std::vector<char> bytes, std::string source)
    : loading_(true), buf_(std::move(bytes)), source_(std::move(source)) {}

void StateArchive::raw(void* p, std::size_t n) {
  if (loading_) {
    if (pos_ + n > buf_.size())
      throw RuntimeError(fmt::format("checkpoint {} ends early (needs {} more bytes at offset {})",
                                     source_, pos_ + n - buf_.size(), pos_));
    std::memcpy(p, buf_.data() + pos_, n);
    pos_ += n;
  } else if (sizing_) {
    counted_ += n;
  } else {
    const auto* c = static_cast<const char*>(p);
    buf_.insert(buf_.end(), c, c + n);
  }
}

void StateArchive::check_size(std::uint64_t count, std::size_t elem) const {
  if (count > (buf_.size() - pos_) / std::max<std::size_t>(elem, 1))
    throw RuntimeError(fmt::format("checkpoint {}: array of {} entries at offset {} does not fit "
                                   "in the file (damaged, or from another version)",
                                   source_, count, pos_));
}

void StateArchive::str(std::string& s) {
  std::vector<char> v(s.begin(), s.end());
  vec(v);
  if (loading_) s.assign(v.begin(), v.end());
}

void StateArchive::expect_end() const {
  if (loading_ && pos_ != buf_.size())
    throw RuntimeError(fmt::format("checkpoint {} has {} unread bytes (written by another model "
                                   "or version)",
                                   source_, buf_.size() - pos_));
}

void visit_domain_state(StateArchive& ar, Domain& d) {
  std::uint64_t nnode = d.nnode;
  ar.pod(nnode);
  if (ar.loading() && nnode != d.nnode)
    throw RuntimeError(
        fmt::format("checkpoint has {} nodes on this rank, the model {}", nnode, d.nnode));
  for (auto* v : {&d.x, &d.v, &d.a, &d.f, &d.w, &d.m_ext, &d.corner_f_solid, &d.corner_f_shell,
                  &d.corner_m_shell, &d.corner_f_truss, &d.corner_f_beam, &d.corner_m_beam, &d.mass,
                  &d.inertia}) // masses: mass scaling during the run changes them
    ar.vec(*v);
  // Element state arrays keep the sizes this model's blocks have (some are empty when the
  // element's settings need no such state, e.g. hgq for IHQ 1-3): a checkpoint written with
  // other settings is refused, not loaded into arrays the kernels would overrun.
  auto fixed = [&ar](auto& v, const char* what, GlobalId pid) {
    const std::size_t want = v.size();
    ar.vec(v);
    if (ar.loading() && v.size() != want)
      throw RuntimeError(fmt::format("checkpoint holds {} values of '{}' for part {}, this model "
                                     "{} (written with other element or material settings)",
                                     v.size(), what, pid, want));
  };
  for (auto& p : d.solids) {
    auto& b = p.blk;
    fixed(b.sig, "stress", p.pid);
    fixed(b.back, "back stress", p.pid);
    fixed(b.eps_p, "plastic strain", p.pid);
    fixed(b.hgq, "hourglass forces", p.pid);
    for (auto* v : {&b.vol, &b.e_int, &b.e_hg, &b.dt, &b.density_scale})
      fixed(*v, "element state", p.pid);
    fixed(b.failed, "failure flags", p.pid);
    fixed(b.ts, "thick shell points", p.pid);
  }
  for (auto& p : d.shells) {
    auto& b = p.blk;
    for (auto* v : {&b.t, &b.sig, &b.back, &b.eps_p, &b.hg, &b.e_int, &b.e_hg, &b.density_scale,
                    &b.sig2d, &b.back2d, &b.dt2d})
      fixed(*v, "shell state", p.pid);
    fixed(b.failed, "failure flags", p.pid);
  }
  for (auto& p : d.trusses) {
    auto& b = p.blk;
    for (auto* v : {&b.sig, &b.back, &b.eps_p, &b.e_int, &b.force, &b.density_scale}) ar.vec(*v);
  }
  for (auto& p : d.beams) {
    auto& b = p.blk;
    for (auto* v : {&b.sig, &b.back, &b.eps_p, &b.e_int, &b.res, &b.density_scale}) ar.vec(*v);
    ar.vec(b.e2);
  }
  ar.vec(d.rigid_of); // welds that failed released their nodes
  for (auto& b : d.bodies) {
    ar.pod(b.active);
    ar.pod(b.mass); // zero once a weld has failed
    ar.pod(b.fail_time);
    ar.pod(b.fail_fn);
    ar.pod(b.fail_fs);
    ar.pod(b.xc);
    ar.pod(b.v);
    ar.pod(b.l);
    ar.pod(b.omega);
    ar.pod(b.rot);
    ar.pod(b.force);
    ar.pod(b.moment);
  }
  for (auto& j : d.joints) {
    ar.pod(j.k);
    ar.pod(j.dt_k);
    ar.pod(j.failed);
    ar.pod(j.k_rot);
  }
  for (auto& j : d.joint_stiffness) {
    ar.pod(j.slip);
    ar.pod(j.last);
    ar.pod(j.last_m);
    ar.pod(j.work);
  }
}

std::uint64_t domain_fingerprint(const Domain& d) {
  std::vector<char> bytes;
  auto add = [&](const void* p, std::size_t n) {
    const auto* c = static_cast<const char*>(p);
    bytes.insert(bytes.end(), c, c + n);
  };
  const std::uint64_t counts[3] = {d.nnode, d.element_count(), d.bodies.size()};
  add(counts, sizeof(counts));
  add(d.x0.data(), d.x0.size() * sizeof(Real));
  add(d.node_id.data(), d.node_id.size() * sizeof(GlobalId));
  return checksum64(bytes);
}

std::uint64_t checksum64(std::span<const char> bytes) {
  std::uint64_t h = 14695981039346656037ull;
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

void write_checkpoint_file(const fs::path& path, std::span<const char> payload) {
  char header[kHeaderBytes];
  std::memcpy(header, kMagic, 8);
  const std::uint64_t fields[3] = {kFormatVersion, payload.size(), checksum64(payload)};
  std::memcpy(header + 8, fields, sizeof(fields));
  write_atomically(path, header, payload, /*kill_hook=*/true);
}

std::vector<char> read_checkpoint_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw RuntimeError(fmt::format("checkpoint file {} is missing", path.string()));
  std::vector<char> all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (all.size() < kHeaderBytes || std::memcmp(all.data(), kMagic, 8) != 0)
    throw RuntimeError(fmt::format("{} is not a parcae checkpoint file ({} bytes, no header)",
                                   path.string(), all.size()));
  std::uint64_t fields[3];
  std::memcpy(fields, all.data() + 8, sizeof(fields));
  if (fields[0] != kFormatVersion)
    throw RuntimeError(fmt::format("checkpoint {} has format version {}, this parcae reads {}",
                                   path.string(), fields[0], kFormatVersion));
  const std::uint64_t have = all.size() - kHeaderBytes;
  if (have != fields[1])
    throw RuntimeError(fmt::format("checkpoint {} is truncated or damaged: {} payload bytes, the "
                                   "header says {}",
                                   path.string(), have, fields[1]));
  std::vector<char> payload(all.begin() + kHeaderBytes, all.end());
  if (checksum64(payload) != fields[2])
    throw RuntimeError(fmt::format("checkpoint {} is corrupt: checksum mismatch", path.string()));
  return payload;
}

fs::path write_checkpoint(const par::Comm& comm, const fs::path& outdir, const CheckpointInfo& info,
                          std::span<const char> payload) {
  const fs::path dir = outdir / "checkpoints" / fmt::format("cycle-{:09d}", info.cycle);
  const bool was_complete = fs::exists(dir / "manifest.json"); // (rank 0 decides below)
  std::string error;
  try {
    fs::create_directories(dir);
    write_checkpoint_file(dir / rank_file_name(comm.rank()), payload);
  } catch (const std::exception& e) {
    error = e.what();
  }
  // Every rank's file is in place (or some rank failed) before the manifest is written. A failed
  // checkpoint (a full disk) is removed whole; the previous complete one stays the restart point.
  if (comm.any(!error.empty())) {
    std::string previous;
    if (comm.rank() == 0) {
      std::error_code ec;
      if (!was_complete) fs::remove_all(dir, ec); // never a complete checkpoint of this cycle
      const auto complete = complete_checkpoints(outdir);
      previous = complete.empty()
                     ? "; there is no earlier checkpoint to restart from"
                     : fmt::format("; the previous checkpoint {} is kept (restart with --restart "
                                   "{})",
                                   complete.back().filename().string(), outdir.string());
    }
    throw RuntimeError((error.empty() ? "checkpoint failed on another rank" : error) + previous);
  }
  if (comm.rank() == 0) {
    nlohmann::json j;
    j["format"] = "parcae-checkpoint";
    j["version"] = kFormatVersion;
    j["cycle"] = info.cycle;
    j["time"] = info.time;
    j["ranks"] = comm.size();
    j["deck"] = info.deck;
    j["fingerprint"] = fmt::format("{:016x}", info.fingerprint);
    j["outputs"] = info.outputs;
    std::vector<std::string> files;
    for (int r = 0; r < comm.size(); ++r) files.push_back(rank_file_name(r));
    j["files"] = files;
    const std::string text = j.dump(2) + "\n";
    write_atomically(dir / "manifest.json", {}, text);
    // Keep this checkpoint and the previous complete one; remove older ones and incomplete
    // leftovers of crashed writes.
    const auto complete = complete_checkpoints(outdir);
    std::error_code ec;
    for (std::size_t k = 0; k + 2 < complete.size(); ++k) fs::remove_all(complete[k], ec);
    for (const auto& e : fs::directory_iterator(outdir / "checkpoints", ec))
      if (e.is_directory() && !fs::exists(e.path() / "manifest.json") && e.path() != dir &&
          e.path().filename().string() < dir.filename().string())
        fs::remove_all(e.path(), ec);
  }
  return dir;
}

CheckpointInfo find_checkpoint(const fs::path& path, bool verify) {
  std::error_code ec;
  if (!fs::is_directory(path, ec))
    throw RuntimeError(fmt::format("restart: {} is not a directory", path.string()));
  if (fs::exists(path / "manifest.json")) {
    CheckpointInfo info = *read_manifest(path);
    if (verify) verify_checkpoint(info);
    return info;
  }
  if (path.filename().string().rfind("cycle-", 0) == 0)
    throw RuntimeError(fmt::format("restart: checkpoint {} is incomplete (no manifest.json: the "
                                   "run stopped while writing it); use the previous one",
                                   path.string()));
  const auto complete = complete_checkpoints(path);
  if (complete.empty())
    throw RuntimeError(fmt::format("restart: no complete checkpoint in {} (expected "
                                   "{}/checkpoints/cycle-N/manifest.json; checkpoints are written "
                                   "with --checkpoint-every or on SIGTERM/SIGINT)",
                                   path.string(), path.string()));
  CheckpointInfo info = *read_manifest(complete.back());
  try {
    if (verify) verify_checkpoint(info);
  } catch (const RuntimeError& e) {
    std::string hint;
    if (complete.size() > 1)
      hint = fmt::format("; the previous checkpoint {} can be used with --restart {}",
                         complete[complete.size() - 2].string(),
                         complete[complete.size() - 2].string());
    throw RuntimeError(std::string(e.what()) + hint);
  }
  return info;
}

std::map<std::string, std::uint64_t> output_file_sizes(const fs::path& outdir) {
  std::map<std::string, std::uint64_t> sizes;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(outdir, ec))
    if (e.is_regular_file()) sizes[e.path().filename().string()] = e.file_size();
  return sizes;
}

void rewind_outputs(const fs::path& outdir, const CheckpointInfo& info) {
  std::error_code ec;
  static const std::regex family(R"(d3plot\d*)");
  for (const auto& e : fs::directory_iterator(outdir, ec)) {
    if (!e.is_regular_file()) continue;
    const std::string name = e.path().filename().string();
    const auto it = info.outputs.find(name);
    if (it == info.outputs.end()) {
      if (std::regex_match(name, family)) fs::remove(e.path());
      continue;
    }
    if (e.file_size() < it->second)
      throw RuntimeError(fmt::format("restart: output file {} is shorter ({} bytes) than at the "
                                     "checkpoint ({} bytes); it was modified since",
                                     e.path().string(), e.file_size(), it->second));
    fs::resize_file(e.path(), it->second);
  }
}

CheckpointInfo prepare_restart(const par::Comm& comm, const fs::path& path, const fs::path& outdir,
                               const std::function<void(const CheckpointInfo&)>& check) {
  std::string error;
  CheckpointInfo info;
  try {
    // Rank 0 checks every rank's file (present, complete, checksum) before anything is touched.
    if (comm.rank() == 0) info = find_checkpoint(path);
  } catch (const std::exception& e) {
    error = e.what();
  }
  if (comm.any(!error.empty()))
    throw RuntimeError(error.empty() ? "restart failed on rank 0" : error);
  if (comm.rank() != 0) info = find_checkpoint(path, /*verify=*/false);
  if (info.ranks != comm.size())
    throw RuntimeError(fmt::format("checkpoint {} was written by {} rank(s); restart it on {} "
                                   "(--np {})",
                                   info.dir.string(), info.ranks, info.ranks, info.ranks));
  if (check) check(info); // every rank has the same manifest: the same verdict
  // Outputs back to their state at the checkpoint, before any writer opens them.
  if (comm.rank() == 0) rewind_outputs(outdir, info);
  comm.barrier();
  return info;
}

} // namespace parcae
