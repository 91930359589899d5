#pragma once
// State shared by the keyword apply functions while a deck is read: the Model being filled,
// parameters, where things were defined, and references that can only be checked once the
// whole deck has been read (LS-DYNA decks may use an id before defining it).
#include <array>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/error.hpp"
#include "input/card_parser.hpp"
#include "input/deck_expression.hpp"
#include "input/keyword_reader.hpp"
#include "mesh/model.hpp"

namespace parcae::io {

/// Compact source location: index into DeckBuilder's file list, and a line.
struct SrcRef {
  int file = 0;
  int line = 0;
};

struct PendingSolid {
  GlobalId id = 0, pid = 0;
  std::array<GlobalId, 8> nodes{};
  SrcRef src;
  bool tshell = false; ///< *ELEMENT_TSHELL (its part's section must be a *SECTION_TSHELL)
};

struct PendingShell {
  GlobalId id = 0, pid = 0;
  std::array<GlobalId, 4> nodes{};
  std::array<Real, 4> thickness{};
  std::int32_t layup = -1; ///< Model::shell_layups (*ELEMENT_SHELL_BETA, _OFFSET, _COMPOSITE)
  SrcRef src;
};

/// *ELEMENT_BEAM before its node ids are checked.
struct PendingBeam {
  GlobalId id = 0, pid = 0;
  std::array<GlobalId, 2> nodes{};
  GlobalId n3 = 0;
  std::array<Real, 3> orientation{}; ///< _ORIENTATION VX VY VZ (zero: not given)
  Real area = 0;                     ///< _THICKNESS PARM1 (0: the section's A)
  /// Set fields that integrated beams do not support (refused there, ignored by trusses):
  /// "RT1" .. "RR2" (releases); empty when none.
  std::string unsupported_field;
  bool discrete = false; ///< *ELEMENT_DISCRETE (area: its scale factor S)
  Real offset = 0;       ///< *ELEMENT_DISCRETE OFFSET
  SrcRef src;
};

/// *BOUNDARY_SPC_NODE / _SET before the node (set) ids are checked.
struct PendingSpc {
  bool is_set = false;
  GlobalId id = 0;
  std::array<bool, 6> dof{};
  GlobalId cid = 0; ///< local system of the dofs (0: global)
  SrcRef src;
  Real birth = 0, death = 1e20; ///< _BIRTH_DEATH
  SourceLoc birth_loc;
};

/// A load whose direction is given in a local system (CID), turned into global components once
/// the systems are resolved: index into model.nodal_loads or model.body_loads.
struct LocalLoad {
  std::size_t index = 0;
  GlobalId cid = 0;
};

enum class SetKind : std::uint8_t { Node, Part, Shell, Solid, Beam, Discrete };

/// One line of a *SET_..._GENERAL: OPTION and its ids.
struct SetOperation {
  std::string option; ///< ALL, NODE, PART, ...; RANGE (lo, hi[, increment]), SET, INTERSECT
  std::vector<GlobalId> ids;
  SrcRef src;
};

/// *DEFORMABLE_TO_RIGID: parts (or a part set) made rigid from the start.
struct PendingDeformableToRigid {
  GlobalId id = 0;   ///< PID, or a part set id when is_set
  GlobalId lead = 0; ///< LRB: rigid part to merge into (0: a rigid body of its own)
  bool is_set = false;
  SourceLoc loc;
};

/// *LOAD_SHELL_ELEMENT / _SET before the shells are known (resolve_segment_loads makes one
/// segment load per shell).
struct PendingShellLoad {
  bool is_set = false;
  GlobalId id = 0; ///< EID, or ESID when is_set
  GlobalId lcid = 0;
  Real sf = 1, at = 0;
  SourceLoc loc;
};

struct PendingGeneralSet {
  SetKind kind = SetKind::Node;
  GlobalId sid = 0;
  std::vector<SetOperation> ops;
};

[[noreturn]] void fail(const SourceLoc& loc, const std::string& message);

class DeckBuilder {
public:
  DeckBuilder(Model& model, const ReadOptions& options) : model(model), options(options) {}

  Model& model;
  ReadOptions options;
  Parameters params; ///< global parameters (all of them are read before anything else)
  /// *PARAMETER_LOCAL / _EXPRESSION_LOCAL, by the file that defines them (visible there and in
  /// the files it includes).
  std::map<std::string, Parameters, std::less<>> local_params;
  /// Parameters seen by the file being read: `params`, or params with the locals in scope.
  const Parameters* scope_params = &params;
  /// The parameter pass: only *PARAMETER..., *INCLUDE and *KEYWORD are applied. In the main
  /// pass the *PARAMETER... keywords do nothing (their values are known by then).
  bool parameter_pass = false;
  /// Materials of laws parcae does not support, by MID: where their card is and its keyword.
  /// LS-DYNA reads a material no part uses and ignores it; so does parcae (a warning), and a
  /// part that uses one is refused naming the card (Resolver::check_parts).
  struct UnsupportedMaterial {
    SourceLoc loc;
    std::string keyword;
  };
  std::map<GlobalId, UnsupportedMaterial> unsupported_materials;
  /// In a repeated parameter pass: definitions whose expressions name parameters not yet
  /// known are skipped (counted here) instead of being errors.
  bool defer_unknown_parameters = false;
  int deferred_parameters = 0;
  int duplication = 1; ///< *PARAMETER_DUPLICATION DFLAG (1: first definition wins, warning)
  std::string file;    ///< the file being read (canonical path when it has one)
  std::vector<std::string> file_chain; ///< the files being read, outermost first
  /// Defines parameter `name` (global, or local to the current file) following DFLAG;
  void define_parameter(const std::string& name, Parameter p, bool local);
  /// Points scope_params at the parameters the current file sees.
  void refresh_scope();

  // --- state of the file being read ---
  LineFormat format = LineFormat::Standard; ///< set by *KEYWORD LONG=Y / I10=Y
  bool end_of_file = false;                 ///< set by *END
  /// Reads an included file (set by the reader): name as written, location of the card.
  std::function<void(const std::string&, const SourceLoc&)> include;
  /// *INCLUDE_PATH / _RELATIVE: directories searched, in order, for an included file that is
  /// not beside the file that includes it (relative ones already joined to the main deck's
  /// directory).
  std::vector<std::string> include_paths;
  std::string main_dir; ///< the main deck's directory
  /// For each included file, the *INCLUDE card that first read it.
  std::map<std::string, SourceLoc> included_from;

  // --- where things came from ---
  SrcRef ref(const SourceLoc& loc) { return ref(loc.file, loc.line); }
  SrcRef ref(const std::string& file, int line);
  [[nodiscard]] SourceLoc loc(SrcRef r, std::string card = {}) const;
  /// Registers a new id of some kind ("node", "part", ...); throws on a duplicate.
  void claim_id(std::string_view kind, GlobalId id, const SourceLoc& loc);
  void claim_id(std::string_view kind, GlobalId id, SrcRef where, std::string_view card);
  /// Where an id was defined, if it was.
  [[nodiscard]] const SrcRef* defined(std::string_view kind, GlobalId id) const;
  /// A *DEFINE_CURVE of this id (tables share the curves' ids, and are not curves).
  [[nodiscard]] bool is_curve(GlobalId id) const {
    return defined("curve", id) != nullptr && model.find_table(id) == nullptr;
  }
  void use_keyword(std::string_view name);

  // --- filled by the apply functions, resolved by resolve_model() ---
  std::vector<SrcRef> node_src; ///< parallel to model.nodes
  std::vector<PendingSolid> solids;
  std::vector<PendingShell> shells;
  std::vector<PendingBeam> beams;
  std::vector<PendingSpc> spcs;
  std::vector<PendingGeneralSet> general_sets;
  std::vector<PendingDeformableToRigid> to_rigid;
  std::vector<PendingShellLoad> shell_loads;
  std::vector<LocalLoad> nodal_load_cids, body_load_cids, rigid_body_load_cids;
  /// Where each member of a list set was read: (kind, set id) -> parallel to members.
  std::map<std::pair<SetKind, GlobalId>, std::vector<SrcRef>> set_member_src;
  bool have_termination = false;
  SourceLoc termination_loc;
  SourceLoc timestep_loc;
  SourceLoc deck_end; ///< last line of the main file (for "nothing to run")
  int rigid_wall_count = 0;
  int d3plot_npltc = 0; ///< *DATABASE_BINARY_D3PLOT NPLTC (needs ENDTIM, known at the end)

  /// State a keyword file keeps between its apply and resolve functions
  /// (keywords_<name>.cpp), created empty on first use under the file's own key: keyword files
  /// need no member here.
  template <class T> T& extension(const std::string& key) {
    auto& slot = extensions_[key];
    if (!slot) slot = std::make_shared<T>();
    return *static_cast<T*>(slot.get());
  }

private:
  std::map<std::string, std::shared_ptr<void>> extensions_;
  Parameters scoped_params_;
  std::vector<std::string> files_;
  std::unordered_map<std::string, int> file_index_;
  int last_file_ = -1; ///< cache: most files' lines come in runs
  std::map<std::string, std::unordered_map<GlobalId, SrcRef>, std::less<>> ids_;
  /// The kinds a deck has hundreds of thousands of (nodes, shell and solid elements): their ids
  /// are kept in reading order and checked for duplicates once, by sorting
  /// (check_bulk_ids), instead of one hash-map node per id.
  struct BulkIds {
    std::string card; ///< the keyword that claims them (messages)
    std::vector<GlobalId> id;
    std::vector<SrcRef> src;
    std::vector<std::uint32_t> order; ///< reading positions sorted by (id, position)
    std::size_t sorted = 0;           ///< ids covered by order
  };
  std::map<std::string, BulkIds, std::less<>> bulk_;
  static bool bulk_kind(std::string_view kind);
  /// Sorts kind's ids read so far; throws on the duplicate whose second definition comes first.
  void sort_bulk(BulkIds& b) const;

public:
  /// Checks the bulk kinds' ids for duplicates (end of reading): the error names the second
  /// definition that comes first in reading order and where the id was first defined.
  void check_bulk_ids();
};

/// Check every cross reference, resolve connectivity and sets, expand constraints. Throws
/// InputError on the first problem.
void resolve_model(DeckBuilder& b);

} // namespace parcae::io
