// *INITIAL_STRESS_SOLID (_SET) and *INITIAL_STRESS_SHELL (_SET): the initial stress and
// effective plastic strain of solid and shell elements, card tables beside their apply and
// resolve functions. Shells: a stress per point (NPLANE in-plane x NTHICK through-thickness
// points, each at its thickness coordinate T in [-1, 1]); the in-plane points at one T are
// averaged (parcae's shells have one in-plane point) and the explicit solver interpolates in T
// to its section's points, turning the global stress into each element's corotational frame.
// Solids: LS-DYNA gives the stresses in the
// global system, per integration point (NINT: 1, or 8 for fully integrated hexahedra, which
// parcae runs as one-point elements: their mean is taken, with a note), each point's stress card
// followed by its NHISV history values. The explicit solver starts its solid elements from them
// (solvers/explicit/integrator.cpp); the implicit solver refuses them.
#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <string>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"
#include "materials/catalogue.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

constexpr int kPoints = 8;       ///< NINT at most
constexpr int kHistoryLines = 8; ///< history lines per point at most (NHISV <= 64, LARGE: 40)

struct PendingStress {
  GlobalId id = 0; ///< element, or solid set (is_set)
  bool is_set = false;
  std::array<Real, 6> sig{};
  Real eps_p = 0;
  SourceLoc loc;
};

std::vector<PendingStress>& pending(DeckBuilder& d) {
  return d.extension<std::vector<PendingStress>>("initial solid stresses");
}

int points_of(const Fields& f) {
  return std::max(1, f.integer("NINT"));
}

using Pred = bool (*)(const Fields&);
template <int K> bool point_small(const Fields& f) {
  return f.integer("LARGE") == 0 && points_of(f) >= K;
}
template <int K> bool point_large(const Fields& f) {
  return f.integer("LARGE") != 0 && points_of(f) >= K;
}
/// History line L (0-based) after point K's stress card.
template <int I> bool history_line(const Fields& f) {
  constexpr int k = I / kHistoryLines + 1, line = I % kHistoryLines;
  const int per_line = f.integer("LARGE") == 0 ? 8 : 5;
  return points_of(f) >= k && f.integer("NHISV") > line * per_line;
}
template <std::size_t... I>
constexpr std::array<Pred, sizeof...(I)> small_preds(std::index_sequence<I...>) {
  return {&point_small<static_cast<int>(I) + 1>...};
}
template <std::size_t... I>
constexpr std::array<Pred, sizeof...(I)> large_preds(std::index_sequence<I...>) {
  return {&point_large<static_cast<int>(I) + 1>...};
}
template <std::size_t... I>
constexpr std::array<Pred, sizeof...(I)> history_preds(std::index_sequence<I...>) {
  return {&history_line<static_cast<int>(I)>...};
}

constexpr std::array<const char*, 7> kStress = {"SIGXX", "SIGYY", "SIGZZ", "SIGXY",
                                                "SIGYZ", "SIGZX", "EPS"};

constexpr int kShellPoints = 20;      ///< NPLANE x NTHICK at most
constexpr int kShellHistoryLines = 4; ///< history lines per point at most (NHISV <= 32, LARGE: 20)

int shell_points_of(const Fields& f) {
  return std::max(1, f.integer("NPLANE")) * std::max(1, f.integer("NTHICK"));
}
template <int K> bool shell_small(const Fields& f) {
  return f.integer("LARGE") == 0 && shell_points_of(f) >= K;
}
template <int K> bool shell_large(const Fields& f) {
  return f.integer("LARGE") != 0 && shell_points_of(f) >= K;
}
template <int I> bool shell_history(const Fields& f) {
  constexpr int k = I / kShellHistoryLines + 1, line = I % kShellHistoryLines;
  const int per_line = f.integer("LARGE") == 0 ? 8 : 5;
  return shell_points_of(f) >= k && f.integer("NHISV") > line * per_line;
}
template <std::size_t... I>
constexpr std::array<Pred, sizeof...(I)> shell_small_preds(std::index_sequence<I...>) {
  return {&shell_small<static_cast<int>(I) + 1>...};
}
template <std::size_t... I>
constexpr std::array<Pred, sizeof...(I)> shell_large_preds(std::index_sequence<I...>) {
  return {&shell_large<static_cast<int>(I) + 1>...};
}
template <std::size_t... I>
constexpr std::array<Pred, sizeof...(I)> shell_history_preds(std::index_sequence<I...>) {
  return {&shell_history<static_cast<int>(I)>...};
}

/// Field names that live as long as the table: SIGXX_1 ... (LARGE = 0), SIGXX_1L ... (LARGE =
/// 1), HISV_1_1 ... (history lines, read and not used).
std::string_view name(const std::string& n) {
  static std::deque<std::string> names;
  names.push_back(n);
  return names.back();
}

std::string_view stress_name(int c, int k, bool large) {
  return name(fmt::format("{}_{}{}", kStress[static_cast<std::size_t>(c)], k, large ? "L" : ""));
}

/// The same name for a look-up (no new entry in the table's names).
std::string stress_name_of(int c, int k, bool large) {
  return fmt::format("{}_{}{}", kStress[static_cast<std::size_t>(c)], k, large ? "L" : "");
}

std::vector<CardSpec> stress_rows() {
  static const auto small = small_preds(std::make_index_sequence<kPoints>{});
  static const auto large = large_preds(std::make_index_sequence<kPoints>{});
  static const auto history = history_preds(std::make_index_sequence<kPoints * kHistoryLines>{});
  std::vector<CardSpec> rows{{"Card 1",
                              {I("EID").req(), I("NINT", "1"), I("NHISV"), I("LARGE"), I("IVEFLG"),
                               I("IALEGP"), I("NTHINT")}}};
  for (int k = 1; k <= kPoints; ++k) {
    CardSpec s{name(fmt::format("Point {}, LARGE = 0 (NINT >= {})", k, k)), {}};
    for (int c = 0; c < 7; ++c) s.fields.push_back(R(stress_name(c, k, false)));
    s.read_if = small[static_cast<std::size_t>(k - 1)];
    CardSpec a{name(fmt::format("Point {}, LARGE = 1, line 1", k)), {}};
    CardSpec b{name(fmt::format("Point {}, LARGE = 1, line 2", k)), {}};
    for (int c = 0; c < 5; ++c) a.fields.push_back(R(stress_name(c, k, true)).w(16));
    for (int c = 5; c < 7; ++c) b.fields.push_back(R(stress_name(c, k, true)).w(16));
    a.read_if = large[static_cast<std::size_t>(k - 1)];
    b.read_if = a.read_if;
    rows.insert(rows.end(), {s, a, b});
    for (int l = 0; l < kHistoryLines; ++l) {
      CardSpec h{name(fmt::format("History of point {}, line {} (NHISV)", k, l + 1)),
                 {Line(name(fmt::format("HISV_{}_{}", k, l + 1)))}};
      h.read_if = history[static_cast<std::size_t>((k - 1) * kHistoryLines + l)];
      rows.push_back(h);
    }
  }
  return rows;
}

/// The shell cards: card 1, then per point [T SIGXX SIGYY SIGZZ SIGXY SIGYZ SIGZX EPS] (LARGE:
/// T .. SIGXY and SIGYZ SIGZX EPS on two lines) and its history lines.
std::vector<CardSpec> shell_stress_rows() {
  static const auto small = shell_small_preds(std::make_index_sequence<kShellPoints>{});
  static const auto large = shell_large_preds(std::make_index_sequence<kShellPoints>{});
  static const auto history =
      shell_history_preds(std::make_index_sequence<kShellPoints * kShellHistoryLines>{});
  std::vector<CardSpec> rows{{"Card 1",
                              {I("EID").req(), I("NPLANE", "1"), I("NTHICK", "1"), I("NHISV"),
                               I("NTENSR"), I("LARGE"), I("NTHINT"), I("NTHHSV")}}};
  for (int k = 1; k <= kShellPoints; ++k) {
    const auto t = [&](bool l) { return name(fmt::format("T_{}{}", k, l ? "L" : "")); };
    CardSpec s{name(fmt::format("Point {}, LARGE = 0", k)), {R(t(false))}};
    for (int c = 0; c < 7; ++c) s.fields.push_back(R(stress_name(c, k, false)));
    s.read_if = small[static_cast<std::size_t>(k - 1)];
    CardSpec a{name(fmt::format("Point {}, LARGE = 1, line 1", k)), {R(t(true)).w(16)}};
    CardSpec b{name(fmt::format("Point {}, LARGE = 1, line 2", k)), {}};
    for (int c = 0; c < 4; ++c) a.fields.push_back(R(stress_name(c, k, true)).w(16));
    for (int c = 4; c < 7; ++c) b.fields.push_back(R(stress_name(c, k, true)).w(16));
    a.read_if = large[static_cast<std::size_t>(k - 1)];
    b.read_if = a.read_if;
    rows.insert(rows.end(), {s, a, b});
    for (int l = 0; l < kShellHistoryLines; ++l) {
      CardSpec h{name(fmt::format("History of point {}, line {} (NHISV)", k, l + 1)),
                 {Line(name(fmt::format("HISV_{}_{}", k, l + 1)))}};
      h.read_if = history[static_cast<std::size_t>((k - 1) * kShellHistoryLines + l)];
      rows.push_back(h);
    }
  }
  return rows;
}

struct PendingShellStress {
  GlobalId id = 0;
  bool is_set = false;
  std::vector<std::array<Real, 8>> points; ///< [T, 6 stresses, EPS], ascending T, merged
  SourceLoc loc;
};

std::vector<PendingShellStress>& pending_shells(DeckBuilder& d) {
  return d.extension<std::vector<PendingShellStress>>("initial shell stresses");
}

void apply_initial_stress_shell(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    PendingShellStress p;
    p.id = row.id("EID");
    p.is_set = b.has("SET");
    p.loc = row.loc("EID");
    for (const char* f : {"NPLANE", "NTHICK"})
      if (row.integer(f) < 0)
        fail(row.loc(f), fmt::format("{} = {} must not be negative", f, row.integer(f)));
    const int n = shell_points_of(row);
    if (n > kShellPoints)
      fail(row.loc("NTHICK"), fmt::format("NPLANE x NTHICK = {}: up to {} points per element are "
                                          "read",
                                          n, kShellPoints));
    const int per_line = row.integer("LARGE") == 0 ? 8 : 5;
    const int nhisv = row.integer("NHISV");
    if (nhisv < 0 || nhisv > kShellHistoryLines * per_line)
      fail(row.loc("NHISV"), fmt::format("NHISV = {}: 0 to {} history values per point are read",
                                         nhisv, kShellHistoryLines * per_line));
    for (const char* f : {"NTENSR", "NTHINT", "NTHHSV"})
      if (row.integer(f) != 0)
        fail(row.loc(f), fmt::format("{} = {} is not supported (0: no strain tensor or thermal "
                                     "values)",
                                     f, row.integer(f)));
    const bool large = row.integer("LARGE") != 0;
    // merge the in-plane points of each thickness coordinate (their mean)
    std::vector<std::pair<std::array<Real, 8>, int>> by_t;
    for (int k = 1; k <= n; ++k) {
      std::array<Real, 8> v{};
      v[0] = row.real(fmt::format("T_{}{}", k, large ? "L" : ""));
      if (v[0] < -1 || v[0] > 1)
        fail(row.loc(fmt::format("T_{}{}", k, large ? "L" : "")),
             fmt::format("T = {}: the thickness coordinate lies in [-1, 1]", v[0]));
      for (int c = 0; c < 7; ++c)
        v[static_cast<std::size_t>(c + 1)] = row.real(stress_name_of(c, k, large));
      auto at = std::find_if(by_t.begin(), by_t.end(),
                             [&](const auto& e) { return std::abs(e.first[0] - v[0]) < 1e-6; });
      if (at == by_t.end()) {
        by_t.push_back({v, 1});
      } else {
        for (std::size_t c = 1; c < 8; ++c) at->first[c] += v[c];
        ++at->second;
      }
    }
    for (auto& [v, count] : by_t) {
      for (std::size_t c = 1; c < 8; ++c) v[c] /= count;
      p.points.push_back(v);
    }
    std::sort(p.points.begin(), p.points.end(),
              [](const auto& x, const auto& y) { return x[0] < y[0]; });
    if (nhisv > 0)
      d.model.notes.push_back(
          {std::string(b.loc.card), row.loc("NHISV"), false,
           fmt::format("NHISV = {}: the history values are read and not used", nhisv)});
    if (row.integer("NPLANE") > 1)
      d.model.notes.push_back({std::string(b.loc.card), row.loc("NPLANE"), false,
                               fmt::format("NPLANE = {}: the element has one in-plane point (the "
                                           "points' mean at each thickness coordinate)",
                                           row.integer("NPLANE"))});
    pending_shells(d).push_back(std::move(p));
  }
}

void apply_initial_stress_solid(const Block& b, DeckBuilder& d) {
  const bool is_set = b.has("SET");
  for (const Fields& row : b.rows) {
    PendingStress p;
    p.id = row.id("EID");
    p.is_set = is_set;
    p.loc = row.loc("EID");
    const int nint = row.integer("NINT");
    if (nint != 0 && nint != 1 && nint != 8)
      fail(row.loc("NINT"), fmt::format("NINT = {}: 1 (one-point solids) or 8 (fully integrated "
                                        "hexahedra) integration points are supported",
                                        nint));
    const int nhisv = row.integer("NHISV");
    const int per_line = row.integer("LARGE") == 0 ? 8 : 5;
    if (nhisv < 0 || nhisv > kHistoryLines * per_line)
      fail(row.loc("NHISV"), fmt::format("NHISV = {}: 0 to {} history values per point are read",
                                         nhisv, kHistoryLines * per_line));
    for (const char* f : {"IVEFLG", "IALEGP", "NTHINT"})
      if (row.integer(f) != 0)
        fail(row.loc(f), fmt::format("{} = {} is not supported (0: no volume, ALE or thermal "
                                     "initialisation)",
                                     f, row.integer(f)));
    const int n = points_of(row);
    const bool large = row.integer("LARGE") != 0;
    for (int k = 1; k <= n; ++k) {
      for (int c = 0; c < 6; ++c)
        p.sig[static_cast<std::size_t>(c)] += row.real(stress_name_of(c, k, large)) / n;
      p.eps_p += row.real(stress_name_of(6, k, large)) / n;
    }
    if (n > 1)
      d.model.notes.push_back({std::string(b.loc.card), row.loc("NINT"), false,
                               fmt::format("NINT = {}: the element runs with one point (its "
                                           "stress is the points' mean)",
                                           n)});
    if (nhisv > 0)
      d.model.notes.push_back(
          {std::string(b.loc.card), row.loc("NHISV"), false,
           fmt::format("NHISV = {}: the history values are read and not used", nhisv)});
    pending(d).push_back(p);
  }
}

/// Whether the part's law can start from a stress (an error naming the element otherwise).
void check_law(const Model& m, GlobalId pid, GlobalId id, const SourceLoc& loc,
               std::string_view keyword) {
  const Part* part = m.find_part(pid);
  const Material* mat = part ? m.find_material(part->mid) : nullptr;
  if (mat == nullptr) return;
  const MaterialLaw& law = material_law(mat->kind);
  if (law.rigid || law.hyperelastic || law.hydrodynamic || !law.incremental)
    fail(loc, fmt::format("{}: element {} of part {} has {}, which does not start from a stress "
                          "(supported: the incremental laws without an equation of state)",
                          keyword, id, pid, law.card));
}

void resolve_initial_shell_stresses(DeckBuilder& d) {
  const auto& list = pending_shells(d);
  if (list.empty()) return;
  Model& m = d.model;
  std::unordered_map<GlobalId, std::size_t> shell_of;
  for (std::size_t e = 0; e < m.shells.size(); ++e) shell_of[m.shells.id[e]] = e;
  std::unordered_map<std::size_t, std::size_t> slot;
  for (const PendingShellStress& p : list) {
    std::vector<GlobalId> ids{p.id};
    if (p.is_set) {
      const auto set = m.shell_sets.find(p.id);
      if (set == m.shell_sets.end())
        fail(p.loc, fmt::format("*INITIAL_STRESS_SHELL_SET: shell set {} is not defined", p.id));
      ids = set->second.members;
    }
    for (GlobalId id : ids) {
      const auto it = shell_of.find(id);
      if (it == shell_of.end())
        fail(p.loc, fmt::format("*INITIAL_STRESS_SHELL: shell element {} is not defined", id));
      const GlobalId pid = m.shells.part[it->second];
      const Part* part = m.find_part(pid);
      const Section* sec = part ? m.find_section(part->secid) : nullptr;
      if (sec && is_2d_solid(*sec))
        fail(p.loc, fmt::format("*INITIAL_STRESS_SHELL: element {} is a 2-D solid (part {}): "
                                "not supported",
                                id, pid));
      check_law(m, pid, id, p.loc, "*INITIAL_STRESS_SHELL");
      InitialShellStress s{it->second, p.points, p.loc};
      const auto [at, fresh] = slot.try_emplace(it->second, m.initial_shell_stresses.size());
      if (fresh)
        m.initial_shell_stresses.push_back(std::move(s));
      else
        m.initial_shell_stresses[at->second] = std::move(s); // the last wins
    }
  }
}

/// Element (or solid set) ids to model solid indices; the laws that can start from a stress.
void resolve_initial_stresses(DeckBuilder& d) {
  resolve_initial_shell_stresses(d);
  const auto& list = pending(d);
  if (list.empty()) return;
  Model& m = d.model;
  std::unordered_map<GlobalId, std::size_t> solid_of;
  for (std::size_t e = 0; e < m.solids.size(); ++e) solid_of[m.solids.id[e]] = e;
  std::unordered_map<std::size_t, std::size_t> slot; // solid index -> m.initial_stresses entry
  for (const PendingStress& p : list) {
    std::vector<GlobalId> ids{p.id};
    if (p.is_set) {
      const auto set = m.solid_sets.find(p.id);
      if (set == m.solid_sets.end())
        fail(p.loc, fmt::format("*INITIAL_STRESS_SOLID_SET: solid set {} is not defined", p.id));
      ids = set->second.members;
    }
    for (GlobalId id : ids) {
      const auto it = solid_of.find(id);
      if (it == solid_of.end())
        fail(p.loc, fmt::format("*INITIAL_STRESS_SOLID: solid element {} is not defined", id));
      const GlobalId pid = m.solids.part[it->second];
      const Part* part = m.find_part(pid);
      const Section* sec = part ? m.find_section(part->secid) : nullptr;
      const Material* mat = part ? m.find_material(part->mid) : nullptr;
      if (sec && sec->kind == SectionKind::TShell)
        fail(p.loc, fmt::format("*INITIAL_STRESS_SOLID: element {} is a thick shell (part {}): "
                                "not supported",
                                id, pid));
      if (mat && material_law(mat->kind).update_solid == nullptr)
        fail(p.loc, fmt::format("*INITIAL_STRESS_SOLID: element {} of part {} has {}, which has "
                                "no solid update",
                                id, pid, material_law(mat->kind).card));
      check_law(m, pid, id, p.loc, "*INITIAL_STRESS_SOLID");
      const auto [at, fresh] = slot.try_emplace(it->second, m.initial_stresses.size());
      if (fresh)
        m.initial_stresses.push_back({it->second, p.sig, p.eps_p, p.loc});
      else
        m.initial_stresses[at->second] = {it->second, p.sig, p.eps_p, p.loc}; // the last wins
    }
  }
}

std::vector<KeywordSpec> initial_stress_cards() {
  return {
      {.name = "*INITIAL_STRESS_SOLID",
       .options = {"SET"},
       .rows = stress_rows(),
       .summary =
           "Initial stress of solid elements (EID; with _SET the solid set SID), in the global "
           "system [xx yy zz xy yz zx] with the effective plastic strain EPS, per integration "
           "point: NINT 1 (blank 0 too) or 8 (fully integrated hexahedra run as one-point "
           "elements: the points' mean, with a note); LARGE = 1: 16-column fields, each point on "
           "two lines (SIGXX-SIGYZ, SIGZX EPS). Each point's NHISV history values (up to 8 lines) "
           "are read and not used (note). IVEFLG, IALEGP and NTHINT other than 0 are refused; so "
           "are thick shells and laws that do not start from a stress (rigid, hyperelastic, "
           "equation-of-state laws). The explicit solver starts the elements from these stresses "
           "(the internal energy counts from 0 at that state); the implicit solver refuses them. "
           "A later card for the same element replaces an earlier one.",
       .apply = apply_initial_stress_solid},
      {.name = "*INITIAL_STRESS_SHELL",
       .options = {"SET"},
       .rows = shell_stress_rows(),
       .summary =
           "Initial stress of shell elements (EID; with _SET the shell set SID), in the global "
           "system [xx yy zz xy yz zx] with the effective plastic strain EPS, at NPLANE x NTHICK "
           "points (up to 20), each at its thickness coordinate T in [-1, 1]: the in-plane points "
           "at one T are averaged (a note when NPLANE > 1: parcae's shells have one in-plane "
           "point); the explicit solver interpolates linearly in T to its section's points "
           "(constant beyond the first and last T) and turns the stress into each element's "
           "corotational frame (sigma_zz is dropped: plane stress). LARGE = 1: 16-column fields, "
           "T-SIGXY and SIGYZ-EPS on two lines. Each point's NHISV history values (up to 4 "
           "lines) are read and not used (note). NTENSR, NTHINT and NTHHSV other than 0 are "
           "refused; so are 2-D solids, layered (composite) shells and laws that do not start "
           "from a stress. The implicit solver refuses the keyword. A later card for the same "
           "element replaces an earlier one.",
       .apply = apply_initial_stress_shell},
  };
}

} // namespace

KeywordFile keywords_initial_stress() {
  return {initial_stress_cards(), resolve_initial_stresses};
}

} // namespace parcae::io
