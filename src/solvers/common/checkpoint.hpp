#pragma once
// Checkpoints for restart: the solver state of every rank, written atomically, checksummed, and
// kept until a newer complete checkpoint exists.
//
// Layout: <outdir>/checkpoints/cycle-NNNNNNNNN/
//   rank-00000.bin ...  one file per rank: header (magic, format version, payload size,
//                       FNV-1a 64 checksum) + payload; written to a temporary name, fsynced,
//                       renamed
//   manifest.json       written by rank 0 last, after every rank's file is in place: a
//                       checkpoint without a manifest is incomplete (a crash during the write)
//                       and is never used
// After a checkpoint is complete, older ones are removed except the previous one.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "core/error.hpp"
#include "par/comm.hpp"
#include "solvers/common/domain.hpp"

namespace parcae {

/// One binary archive for both directions: the same visit function writes the state (saving)
/// and reads it back (loading), so the field lists cannot drift apart.
class StateArchive {
public:
  /// An empty archive to save into.
  StateArchive() = default;
  /// An archive to load from; source names the file in error messages.
  StateArchive(std::vector<char> bytes, std::string source);

  /// An archive that only counts the bytes a save would hold (a first pass, so that the real
  /// one reserves its buffer once instead of growing it: a checkpoint of 300 MB a rank would
  /// otherwise hold up to twice that while it grows).
  static StateArchive sizing() {
    StateArchive a;
    a.sizing_ = true;
    return a;
  }
  /// Saving: room for this many bytes (the size a sizing() pass counted).
  void reserve(std::size_t bytes) { buf_.reserve(bytes); }
  /// The bytes saved so far (counted, for a sizing archive).
  [[nodiscard]] std::size_t size() const { return sizing_ ? counted_ : buf_.size(); }

  [[nodiscard]] bool loading() const { return loading_; }
  [[nodiscard]] const std::vector<char>& bytes() const { return buf_; }

  template <class T> void pod(T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    raw(&value, sizeof(T));
  }
  template <class T> void vec(std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    std::uint64_t n = v.size();
    pod(n);
    if (loading_) {
      check_size(n, sizeof(T));
      v.resize(n);
    }
    if (n > 0) raw(v.data(), n * sizeof(T));
  }
  void str(std::string& s);
  /// Loading: the whole payload must have been consumed.
  void expect_end() const;

private:
  void raw(void* p, std::size_t n);
  void check_size(std::uint64_t count, std::size_t elem) const;
  bool loading_ = false;
  bool sizing_ = false;
  std::size_t counted_ = 0;
  std::vector<char> buf_;
  std::size_t pos_ = 0;
  std::string source_;
};

/// The time-dependent part of a domain (positions, velocities, element state, rigid bodies).
/// Saving and loading into a domain built from the same deck and decomposition restores it
/// exactly.
void visit_domain_state(StateArchive& ar, Domain& d);

/// A fingerprint of the mesh a domain was built from (node count, element count and the initial
/// coordinates): a checkpoint is only loaded into the same model.
std::uint64_t domain_fingerprint(const Domain& d);

/// 64-bit FNV-1a over the bytes.
std::uint64_t checksum64(std::span<const char> bytes);

/// Write header + payload to path atomically (path.tmp, fsync, rename). Throws RuntimeError.
void write_checkpoint_file(const std::filesystem::path& path, std::span<const char> payload);
/// Read and verify a file written by write_checkpoint_file. Throws RuntimeError naming the file
/// and what is wrong (missing, truncated, not a checkpoint, checksum mismatch).
std::vector<char> read_checkpoint_file(const std::filesystem::path& path);

/// What a complete checkpoint says about itself (manifest.json).
struct CheckpointInfo {
  std::filesystem::path dir;
  int cycle = 0;
  double time = 0;
  int ranks = 1;
  std::string deck;                             ///< deck path of the run
  std::uint64_t fingerprint = 0;                ///< domain_fingerprint of rank 0's domain
  std::map<std::string, std::uint64_t> outputs; ///< output file -> size at the checkpoint
};

/// Collective: every rank writes its payload into <outdir>/checkpoints/cycle-N/, then rank 0
/// writes the manifest (info: cycle, time, deck, fingerprint, outputs) and removes checkpoints
/// older than the previous one. Throws RuntimeError on every rank if any rank failed.
std::filesystem::path write_checkpoint(const par::Comm& comm, const std::filesystem::path& outdir,
                                       const CheckpointInfo& info, std::span<const char> payload);

/// The checkpoint to restart from: `path` is a checkpoint directory (cycle-N) or a run's output
/// directory (its newest complete checkpoint is taken). Checks the manifest and that every rank
/// file exists, is complete and has the right checksum. Throws RuntimeError with a clear
/// message (and, for a damaged newest checkpoint, the previous usable one). verify = false
/// only reads the manifest.
CheckpointInfo find_checkpoint(const std::filesystem::path& path, bool verify = true);

/// Output files of a run directory (top level, regular files) and their sizes.
std::map<std::string, std::uint64_t> output_file_sizes(const std::filesystem::path& outdir);

/// Before continuing from a checkpoint: truncate the output files to their sizes at the
/// checkpoint and remove d3plot family members written after it, so the continued run appends
/// exactly what an uninterrupted run would have written.
void rewind_outputs(const std::filesystem::path& outdir, const CheckpointInfo& info);

/// The start of every solver's restart (collective): rank 0 finds and verifies the checkpoint
/// at `path` (find_checkpoint), the others read its manifest; a checkpoint written by another
/// number of ranks is refused, and so is one that `check` (the solver's own test, e.g. of the
/// model's size; it throws) refuses; only then rank 0 rewinds the outputs in `outdir`
/// (rewind_outputs). Throws RuntimeError on every rank when the restart cannot go on.
CheckpointInfo prepare_restart(const par::Comm& comm, const std::filesystem::path& path,
                               const std::filesystem::path& outdir,
                               const std::function<void(const CheckpointInfo&)>& check = {});

} // namespace parcae
