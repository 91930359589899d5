// read_deck: walks the files (following *INCLUDE), groups lines into keyword blocks, parses
// each block with the card tables and applies it, then resolves and validates the Model.
#include "input/keyword_reader.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "input/card_number.hpp"
#include "input/card_parser.hpp"
#include "input/deck_builder.hpp"
#include "input/deck_source.hpp"

namespace parcae {

namespace {

std::string join_errors(const std::vector<InputError>& errors) {
  std::string out = fmt::format("{} input error{}:", errors.size(), errors.size() == 1 ? "" : "s");
  for (const InputError& e : errors) out += fmt::format("\n  {}", e.what());
  return out;
}

} // namespace

DeckErrors::DeckErrors(std::vector<InputError> errors)
    : std::runtime_error(join_errors(errors)), errors_(std::move(errors)) {}

namespace io {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxIncludeDepth = 32;
/// Rounds of the parameter pass that may skip definitions naming parameters not known yet.
constexpr int kMaxParameterRounds = 16;
constexpr std::size_t kRowChunk = 4096; ///< row groups parsed per apply() for stream_rows keywords

class DeckReader {
public:
  explicit DeckReader(DeckBuilder& d) : d_(d) {
    d_.include = [this](const std::string& name, const SourceLoc& from) { include(name, from); };
  }

  /// The parameter pass (repeated while definitions that name parameters defined further on
  /// become known, then once more reporting what is still unknown), then the main pass.
  void read_main(const std::string& path) {
    d_.main_dir = fs::path(path).parent_path().string();
    d_.parameter_pass = true;
    const std::size_t notes_before = d_.model.notes.size();
    std::size_t known = 0;
    // Rounds that defer unknown names while they keep adding definitions; the last (strict)
    // round reports what is still unknown.
    bool strict = false;
    for (int round = 0;; ++round) {
      d_.model.notes.resize(notes_before);
      d_.duplication = 1;
      d_.deferred_parameters = 0;
      d_.defer_unknown_parameters = !strict && round < kMaxParameterRounds;
      read_file(path, SourceLoc{path, 0, {}});
      std::size_t now = d_.params.size();
      for (const auto& [file, local] : d_.local_params) now += local.size();
      if (d_.deferred_parameters == 0 || !d_.defer_unknown_parameters) break;
      strict = now == known; // no progress: one strict round next
      known = now;
    }
    d_.parameter_pass = false;
    d_.defer_unknown_parameters = false;
    const int last = read_file(path, SourceLoc{path, 0, {}});
    d_.deck_end = SourceLoc{path, std::max(last, 1), {}};
  }

  std::vector<InputError> unsupported;

private:
  DeckBuilder& d_;
  std::vector<std::string> open_;            ///< canonical paths of the files being read
  std::vector<std::string> names_;           ///< the same, as given (for messages)
  std::map<std::string, std::string> texts_; ///< file texts the parameter pass loaded

  void include(const std::string& name, const SourceLoc& from) {
    if (name.empty()) fail(from, "*INCLUDE without a file name");
    fs::path p(name);
    std::error_code ec;
    if (p.is_relative()) {
      // beside the including file, then in the *INCLUDE_PATH directories, in order
      std::vector<fs::path> tried{(fs::path(from.file).parent_path() / p).lexically_normal()};
      for (const std::string& dir : d_.include_paths)
        tried.push_back((fs::path(dir) / p).lexically_normal());
      for (const fs::path& t : tried)
        if (fs::is_regular_file(t, ec)) {
          read_file(t.string(), from);
          return;
        }
      std::string looked;
      for (const fs::path& t : tried) looked += (looked.empty() ? "" : ", ") + t.string();
      fail(from, fmt::format("included file \"{}\" not found (looked for {})", name, looked));
    }
    p = p.lexically_normal();
    if (!fs::is_regular_file(p, ec))
      fail(from, fmt::format("included file \"{}\" not found (looked for {})", name, p.string()));
    read_file(p.string(), from);
  }

  void check_nesting(const std::string& path, const std::string& canonical,
                     const SourceLoc& from) const {
    if (open_.size() >= kMaxIncludeDepth)
      fail(from, fmt::format("*INCLUDE nested deeper than {} files", kMaxIncludeDepth));
    const auto it = std::find(open_.begin(), open_.end(), canonical);
    if (it == open_.end()) return;
    std::string chain;
    for (auto k = static_cast<std::size_t>(it - open_.begin()); k < names_.size(); ++k)
      chain += names_[k] + " -> ";
    fail(from, fmt::format("include cycle: {}{}", chain, path));
  }

  /// Reads one file; returns the number of its last line read. The parameter pass keeps the
  /// texts it loaded for the main pass.
  int read_file(const std::string& path, const SourceLoc& from) {
    std::error_code ec;
    const std::string canonical = fs::weakly_canonical(path, ec).string();
    const std::string key = ec ? path : canonical;
    check_nesting(path, key, from);
    if (from.line > 0) d_.included_from.try_emplace(path, from);
    std::string text;
    if (const auto it = texts_.find(key); it != texts_.end()) {
      if (d_.parameter_pass) {
        text = it->second;
      } else {
        text = std::move(it->second);
        texts_.erase(it);
      }
    } else {
      text = load_deck_text(path, from);
      if (d_.parameter_pass) texts_.emplace(key, text);
    }
    const std::vector<std::string_view> lines = split_lines(text);
    open_.push_back(key);
    names_.push_back(path);
    const std::string saved_file = d_.file;
    d_.file = key;
    d_.file_chain.push_back(key);
    d_.refresh_scope();
    const LineFormat saved_format = d_.format;
    const int last = read_lines(path, lines);
    d_.format = saved_format;
    d_.end_of_file = false;
    d_.file_chain.pop_back();
    d_.file = saved_file;
    d_.refresh_scope();
    open_.pop_back();
    names_.pop_back();
    return last;
  }

  /// Keywords the parameter pass reads: the ones that say where files and parameters are.
  static bool parameter_pass_keyword(std::string_view keyword) {
    return keyword.starts_with("*PARAMETER") || keyword.starts_with("*INCLUDE") ||
           keyword == "*KEYWORD" || keyword == "*END";
  }

  int read_lines(const std::string& path, const std::vector<std::string_view>& lines) {
    std::optional<RawBlock> block;
    bool keep_lines = true; ///< the parameter pass skips the data of most keywords
    bool any_keyword = false;
    std::string skip_until; ///< "*CASE_END_n" while a case block not selected is skipped
    int n = 0;
    for (const std::string_view text : lines) {
      ++n;
      if (text.starts_with('$')) continue;
      if (text.starts_with('*')) {
        any_keyword = true;
        if (!skip_until.empty()) {
          if (parse_keyword_line(text).keyword == skip_until) skip_until.clear();
          continue;
        }
        if (block && finish(*block)) return block->line;
        block.reset();
        const KeywordLine k = parse_keyword_line(text);
        if (k.keyword.starts_with("*CASE_BEGIN_") || k.keyword.starts_with("*CASE_END_")) {
          case_marker(path, n, k.keyword, skip_until);
          continue;
        }
        block = start_block(path, n, text);
        keep_lines = !d_.parameter_pass || parameter_pass_keyword(block->keyword);
      } else if (!skip_until.empty()) {
        continue;
      } else if (block) {
        if (keep_lines) block->lines.push_back({text, n});
      } else if (!trim(text).empty() && !any_keyword) {
        fail({path, n, {}}, fmt::format("data line before the first keyword: \"{}\"", trim(text)));
      }
    }
    if (block)
      finish(*block);
    else if (open_.size() == 1 && !any_keyword)
      fail({path, 1, {}}, "no keywords found: the deck is empty or not a keyword file");
    return n;
  }

  /// *CASE_BEGIN_n: read the block only when case n was asked for (ReadOptions::case_id);
  /// *CASE_END_n of a block being read ends it.
  void case_marker(const std::string& path, int line, const std::string& keyword,
                   std::string& skip_until) {
    const bool begin = keyword.starts_with("*CASE_BEGIN_");
    const std::string id_text = keyword.substr(begin ? 12 : 10);
    std::int64_t id = 0;
    if (parse_int(id_text, id) != IntStatus::Ok || id <= 0)
      fail({path, line, keyword}, fmt::format("{}: the case number \"{}\" is not a positive "
                                              "integer",
                                              keyword, id_text));
    if (!begin || id == d_.options.case_id) return;
    skip_until = "*CASE_END_" + id_text;
    if (!d_.parameter_pass)
      d_.model.notes.push_back({keyword,
                                {path, line, keyword},
                                false,
                                fmt::format("case {} left out (run it with --case {})", id, id)});
  }

  RawBlock start_block(const std::string& path, int line, std::string_view text) const {
    const KeywordLine k = parse_keyword_line(text);
    return RawBlock{path, line, k.keyword, k.trailing, k.format.value_or(d_.format), {}};
  }

  /// Parses and applies a block; true when reading of this file must stop (*END).
  bool finish(const RawBlock& raw) {
    if (d_.parameter_pass && !parameter_pass_keyword(raw.keyword)) return false;
    const auto match = match_keyword(raw.keyword);
    if (!match) {
      if (!d_.parameter_pass) unsupported_keyword(raw);
      return false;
    }
    if (!d_.parameter_pass) d_.use_keyword(match->spec->name);
    apply_block(*match, raw);
    return d_.end_of_file;
  }

  /// Row groups of stream_rows keywords are applied in chunks (bounded memory for big meshes).
  void apply_block(const KeywordMatch& match, const RawBlock& raw) {
    const KeywordSpec& spec = *match.spec;
    BlockParser parser(match, raw, *d_.scope_params);
    const std::size_t chunk =
        spec.stream_rows ? kRowChunk : std::numeric_limits<std::size_t>::max();
    bool applied = false;
    while (parser.read_rows(chunk)) {
      if (!spec.stream_rows) break;
      spec.apply(parser.block(), d_);
      applied = true;
    }
    parser.finish();
    if (!applied) spec.apply(parser.block(), d_);
    const Block& b = parser.block();
    if (b.blanks_inside > 0 && !d_.parameter_pass)
      d_.model.notes.push_back({raw.keyword, b.blanks_loc, false,
                                b.blanks_inside == 1
                                    ? b.blanks_note
                                    : fmt::format("{} ({} more such fields in this keyword)",
                                                  b.blanks_note, b.blanks_inside - 1)});
  }

  /// The MID of an unsupported material's card (the first field of its first data line, after
  /// the title line of _TITLE), or 0 when it cannot be read as a positive integer.
  static GlobalId unsupported_material_id(const RawBlock& raw) {
    std::size_t k = 0;
    if (raw.keyword.ends_with("_TITLE")) ++k;
    if (k >= raw.lines.size()) return 0;
    std::string_view t = raw.lines[k].text;
    const std::size_t comma = t.find(',');
    const std::size_t width = raw.format == LineFormat::Long ? 20 : 10;
    t = comma != std::string_view::npos ? t.substr(0, comma)
                                        : t.substr(0, std::min(width, t.size()));
    t = trim(t);
    std::int64_t id = 0;
    if (t.empty() || parse_int(t, id) != IntStatus::Ok || id <= 0) return 0;
    return id;
  }

  void unsupported_keyword(const RawBlock& raw) {
    const SourceLoc loc{raw.file, raw.line, raw.keyword};
    auto& notes = d_.model.notes;
    // A material card of a law parcae does not support: refused only if a part uses it (LS-DYNA
    // reads and ignores materials no part uses; decks written by pre-processors carry them).
    if (raw.keyword.starts_with("*MAT_") && !raw.keyword.starts_with("*MAT_ADD_") &&
        !raw.keyword.starts_with("*MAT_THERMAL_") && !raw.keyword.starts_with("*MAT_NONLOCAL")) {
      if (const GlobalId mid = unsupported_material_id(raw); mid > 0) {
        const auto [it, fresh] = d_.unsupported_materials.try_emplace(
            mid, DeckBuilder::UnsupportedMaterial{loc, raw.keyword});
        if (fresh) return;
        fail(loc, fmt::format("duplicate material id {} (first defined at {})", mid,
                              it->second.loc.str()));
      }
    }
    if (const std::string_view why = ignored_keyword_note(raw.keyword); !why.empty()) {
      notes.push_back({raw.keyword, loc, false, std::string(why)});
    } else if (d_.options.ignore_unsupported) {
      notes.push_back({raw.keyword, loc, false, "unsupported keyword ignored"});
    } else {
      notes.push_back({raw.keyword, loc, true, "unsupported keyword"});
      unsupported.emplace_back(loc, fmt::format("unsupported keyword {} (use --ignore-unsupported "
                                                "to skip it)",
                                                raw.keyword));
    }
  }
};

/// The error with " (included from a.k:5, included from main.k:2)" appended when it is in an
/// included file.
InputError with_include_chain(const InputError& e, const DeckBuilder& d) {
  std::string chain;
  std::string file = e.loc().file;
  for (std::size_t depth = 0; depth <= kMaxIncludeDepth; ++depth) {
    const auto it = d.included_from.find(file);
    if (it == d.included_from.end()) break;
    chain += fmt::format("{}included from {}:{}", chain.empty() ? " (" : ", ", it->second.file,
                         it->second.line);
    file = it->second.file;
  }
  return chain.empty() ? e : InputError(e.loc(), e.message() + chain + ")");
}

void read_and_resolve(const std::string& path, DeckBuilder& builder) {
  DeckReader reader(builder);
  reader.read_main(path);
  if (!reader.unsupported.empty()) throw DeckErrors(std::move(reader.unsupported));
  resolve_model(builder);
}

} // namespace
} // namespace io

std::string_view ignored_keyword_note(std::string_view keyword) {
  if (keyword.starts_with("*DATABASE_") || keyword.starts_with("*CONTROL_"))
    return "not supported by parcae; ignored";
  // the thermal solver's materials (*PART TMID): a structural run (*CONTROL_SOLUTION SOLN 0 or
  // the structural part of 2, all parcae runs) does not use them, as LS-DYNA does not
  if (keyword.starts_with("*MAT_THERMAL_"))
    return "thermal material: not used by a structural run; ignored";
  if (keyword.starts_with("*SENSOR")) return "sensors are not supported by parcae; ignored";
  // the strain tensors of a dynain (formed parts): LS-DYNA writes them for strain output and the
  // few laws that read a total strain; parcae's plastic laws start from *INITIAL_STRESS_* (with
  // its plastic strain) and do not read them, and its strain output starts from zero
  if (keyword.starts_with("*INITIAL_STRAIN_SHELL") || keyword.starts_with("*INITIAL_STRAIN_SOLID"))
    return "initial strain tensors are not used (parcae's laws start from *INITIAL_STRESS_* and "
           "its strain output from zero; a law on accumulated strain, such as rubber shells, "
           "would start unstrained); ignored";
  if (keyword == "*KEYWORD_ID") return "the deck's id card is not used; ignored";
  return {};
}

Model read_deck(const std::string& path, const ReadOptions& options) {
  Model model;
  io::DeckBuilder builder(model, options);
  try {
    io::read_and_resolve(path, builder);
  } catch (const InputError& e) {
    throw io::with_include_chain(e, builder);
  } catch (const DeckErrors& e) {
    std::vector<InputError> errors;
    for (const InputError& err : e.errors()) errors.push_back(io::with_include_chain(err, builder));
    throw DeckErrors(std::move(errors));
  }
  return model;
}

} // namespace parcae
