// libFuzzer target for the keyword reader (issue 11): read_deck on arbitrary input must return a
// Model or throw InputError / DeckErrors whose every message starts with "file:line". Anything
// else is a finding: a crash, an ASan/UBSan report, another exception escaping (logic_error,
// out_of_range, ...), a hang (libFuzzer -timeout), or an input error without a location.
//
// Build and run (CMake preset `fuzz`: clang, -fsanitize=fuzzer,address,undefined, build/fuzz):
//   make fuzz        fuzz for FUZZ_SECONDS (600 by default), findings in build/fuzz/findings/
//   make fuzz-smoke  the short deterministic run of `make test` (ctest --preset fuzz, label fuzz)
//   build/fuzz/fuzz_keyword_reader FILE   run one input, e.g. a finding, again
//   (PARCAE_FUZZ_VERBOSE=1 prints the input error of each input run)
// The seed corpus (build/fuzz/seeds, scripts/fuzz_seeds.py) holds examples/**/*.k,
// tests/input/bad_decks/*.k, tests/fuzz/seeds/*.k and the public decks of ../shared/decks when
// present.
//
// Each input is read with the default ReadOptions, and again with ignore_unsupported and
// case_id = 1 when that was rejected for unsupported keywords or has *CASE_BEGIN_ blocks.
//
// Input format: the main deck, optionally followed by files it may *INCLUDE, each introduced by
// a line "$parcae-fuzz-file: NAME" (a comment to the reader). NAME is relative (letters, digits,
// '.', '_', '-', at most one '/'); other names are dropped. The files are written to a private
// temporary directory and the main deck is read from there, so includes, include cycles and
// relative paths behave as with real files.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "input/keyword_reader.hpp"

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kMarker = "$parcae-fuzz-file: ";
constexpr std::size_t kMaxFiles = 8;

struct File {
  std::string name;
  std::string_view text;
};

bool valid_name(std::string_view name) {
  if (name.empty() || name.size() > 64 || name.front() == '/' || name.back() == '/') return false;
  int slashes = 0;
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-' || c == '/';
    if (!ok) return false;
    slashes += c == '/';
  }
  if (slashes > 1) return false;
  const std::size_t slash = name.find('/');
  const std::string_view first = name.substr(0, slash);
  const std::string_view last =
      slash == std::string_view::npos ? std::string_view{} : name.substr(slash + 1);
  return first != "." && first != ".." && last != "." && last != ".." && name != "deck.k";
}

/// The main deck ("deck.k") and the named files that follow it.
std::vector<File> split_input(std::string_view in) {
  std::vector<File> files{{"deck.k", {}}};
  std::size_t start = 0;
  for (;;) {
    std::size_t at = in.find(kMarker, start);
    while (at != std::string_view::npos && at != 0 && in[at - 1] != '\n')
      at = in.find(kMarker, at + 1);
    files.back().text =
        in.substr(start, at == std::string_view::npos ? in.size() - start : at - start);
    if (at == std::string_view::npos) break;
    const std::size_t name_start = at + kMarker.size();
    std::size_t eol = in.find('\n', name_start);
    if (eol == std::string_view::npos) eol = in.size();
    std::string_view name = in.substr(name_start, eol - name_start);
    if (!name.empty() && name.back() == '\r') name.remove_suffix(1);
    start = std::min(eol + 1, in.size());
    bool duplicate = false;
    for (const File& f : files) duplicate = duplicate || f.name == name;
    if (valid_name(name) && !duplicate && files.size() < kMaxFiles)
      files.push_back({std::string(name), {}});
    else
      files.push_back({"", {}}); // text dropped
  }
  return files;
}

const fs::path& work_dir() {
  // Never destroyed: the exit handler below still needs it.
  static const fs::path* const dir = [] {
    // $TMPDIR, else /dev/shm (memory: an input is written and read per run), else /tmp.
    std::error_code ec;
    const fs::path base = std::getenv("TMPDIR")              ? fs::temp_directory_path()
                          : fs::is_directory("/dev/shm", ec) ? fs::path("/dev/shm")
                                                             : fs::temp_directory_path();
    std::string tmpl = (base / "parcae-fuzz-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) {
      std::perror("mkdtemp");
      std::abort();
    }
    return new fs::path(tmpl);
  }();
  // Removed at exit (libFuzzer ends a run through exit()); a crash leaves it in place.
  static const bool cleanup = std::atexit([] {
                                std::error_code ec;
                                fs::remove_all(*dir, ec);
                              }) == 0;
  (void)cleanup;
  return *dir;
}

/// False when the file cannot be written (e.g. "a/b" after a file "a").
bool write(const fs::path& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  return static_cast<bool>(out);
}

/// True when `what` starts with "<file>:<line>" of `e`'s location, line > 0.
bool has_location(const parcae::InputError& e, std::string_view what) {
  const parcae::SourceLoc& loc = e.loc();
  if (loc.file.empty() || loc.line <= 0) return false;
  const std::string prefix = loc.file + ":" + std::to_string(loc.line);
  return what.starts_with(prefix) && what.size() > prefix.size() &&
         (what[prefix.size()] == ':' || what[prefix.size()] == ' ');
}

[[noreturn]] void finding(const char* what, std::string_view message) {
  std::fprintf(stderr, "\nfuzz_keyword_reader: %s:\n%.*s\n", what,
               static_cast<int>(std::min<std::size_t>(message.size(), 4000)), message.data());
  std::abort();
}

void check_location(const parcae::InputError& e) {
  // PARCAE_FUZZ_VERBOSE=1: print each message (triage of a finding or of a corpus).
  static const bool verbose = std::getenv("PARCAE_FUZZ_VERBOSE") != nullptr;
  if (verbose) std::fprintf(stderr, "fuzz_keyword_reader: %s\n", e.what());
  if (!has_location(e, e.what())) finding("input error without file:line", e.what());
}

/// Reads the deck; false when DeckErrors was thrown.
bool read(const fs::path& deck, const parcae::ReadOptions& options) {
  try {
    (void)parcae::read_deck(deck.string(), options);
  } catch (const parcae::InputError& e) {
    check_location(e);
  } catch (const parcae::DeckErrors& e) {
    if (e.errors().empty()) finding("DeckErrors without errors", e.what());
    for (const parcae::InputError& err : e.errors()) check_location(err);
    return false;
  } catch (const std::exception& e) {
    finding("unexpected exception", e.what());
  } catch (...) {
    finding("unexpected exception", "(not a std::exception)");
  }
  return true;
}

bool contains_case(const std::uint8_t* data, std::size_t size) {
  constexpr std::string_view kCase = "CASE_BEGIN";
  for (std::size_t i = 0; i + kCase.size() <= size; ++i) {
    std::size_t k = 0;
    while (k < kCase.size() && (data[i + k] & ~0x20) == kCase[k]) ++k;
    if (k == kCase.size()) return true;
  }
  return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fs::path& dir = work_dir();
  std::error_code ec;
  // A fresh directory per input: files of the previous input must not be found.
  for (const auto& entry : fs::directory_iterator(dir, ec)) fs::remove_all(entry.path(), ec);
  const std::vector<File> files =
      split_input(std::string_view(reinterpret_cast<const char*>(data), size));
  for (const File& f : files) {
    if (f.name.empty()) continue;
    const fs::path path = dir / f.name;
    if (f.name.find('/') != std::string::npos) fs::create_directories(path.parent_path(), ec);
    if (!write(path, f.text) && f.name == "deck.k") {
      std::fprintf(stderr, "fuzz_keyword_reader: cannot write %s\n", path.c_str());
      std::abort();
    }
  }
  // Read with the default options; a deck rejected for unsupported keywords (DeckErrors), or
  // with *CASE blocks, again as `--ignore-unsupported --case 1` would, to get past them.
  if (!read(dir / "deck.k", {}) || contains_case(data, size))
    read(dir / "deck.k", {.ignore_unsupported = true, .case_id = 1});
  return 0;
}
