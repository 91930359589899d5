// Apply functions of the implicit keywords (card_tables_implicit.cpp): the controls go to
// Model::control.implicit (the pressure loads are in keywords_pressure.cpp). Unsupported options
// are refused here, each with its own message at the field (file, line, card).
#include <fmt/format.h>

#include <cmath>

#include "input/deck_apply.hpp"

namespace parcae::io {

namespace {

void refuse(const Fields& f, std::string_view field, const std::string& why) {
  const Value& v = f.get(field);
  const std::string value =
      v.spec && v.spec->type == FieldType::Int ? fmt::format("{}", v.i) : fmt::format("{}", v.r);
  fail(f.loc(field), fmt::format("{} = {}: {}", field, value, why));
}

void warn(DeckBuilder& d, const Block& b, const SourceLoc& loc, std::string message) {
  d.model.notes.push_back({std::string(b.spec->name), loc, false, std::move(message)});
}

} // namespace

void apply_control_implicit_general(const Block& b, DeckBuilder& d) {
  ImplicitControls& c = d.model.control.implicit;
  const Fields& h = b.head;
  const int imflag = h.integer("IMFLAG");
  if (imflag != 0 && imflag != 1)
    refuse(h, "IMFLAG",
           "only 0 (explicit) and 1 (implicit) are supported (no switching, springback or "
           "curve-controlled switching)");
  if (h.integer("IMFORM") == 1)
    refuse(h, "IMFORM", "seamless springback element switching is not supported");
  c.imflag = imflag;
  c.dt0 = h.real("DT0");
  if (c.dt0 < 0) refuse(h, "DT0", "must not be negative");
  c.general_given = true;
  c.general_loc = h.loc("IMFLAG");
}

void apply_control_implicit_solver(const Block& b, DeckBuilder& d) {
  ImplicitControls& c = d.model.control.implicit;
  const Fields& h = b.head;
  const int ls = h.integer("LSOLVR");
  const bool known =
      ls == 0 || ls == 2 || ls == 4 || ls == 5 || ls == 6 || ls == 9 || (ls >= 10 && ls <= 15);
  if (!known)
    refuse(h, "LSOLVR",
           "not supported: 2, 4, 5, 6, 9 (direct, MUMPS), 10-12 (CG + GAMG), 13-15 (CG + "
           "BoomerAMG)");
  c.lsolvr = ls == 0 ? 2 : ls;
  c.lprint = h.integer("LPRINT");
  c.absmem = h.real("ABSMEM");
  if (c.absmem < 0 && c.absmem != -1)
    refuse(h, "ABSMEM", "must be >= 0, or -1 (always out of core)");
  c.solver_loc = h.loc("LSOLVR");
}

void apply_control_implicit_auto(const Block& b, DeckBuilder& d) {
  ImplicitControls& c = d.model.control.implicit;
  const Fields& h = b.head;
  const int iauto = h.integer("IAUTO");
  if (iauto != 0 && iauto != 1)
    refuse(h, "IAUTO", "only 0 (fixed step) and 1 (automatic step size) are supported");
  c.iauto = iauto;
  c.iteopt = h.integer("ITEOPT") <= 0 ? 11 : h.integer("ITEOPT");
  c.itewin = h.integer("ITEWIN") <= 0 ? 5 : h.integer("ITEWIN");
  c.dtmin = h.real("DTMIN");
  c.dtmax = h.real("DTMAX");
  if (c.dtmin < 0) refuse(h, "DTMIN", "must not be negative");
  if (c.dtmax < 0) refuse(h, "DTMAX", "a curve of maximum steps is not supported");
}

void apply_control_implicit_dynamics(const Block& b, DeckBuilder& d) {
  ImplicitControls& c = d.model.control.implicit;
  const Fields& h = b.head;
  const int imass = h.integer("IMASS");
  if (imass != 0 && imass != 1)
    refuse(h, "IMASS", "only 0 (static) and 1 (Newmark dynamics) are supported");
  if (h.real("ALPHA") != 0)
    refuse(h, "ALPHA", "Hilber-Hughes-Taylor damping is not supported (use GAMMA > 0.5)");
  c.imass = imass;
  c.gamma = h.real("GAMMA");
  c.beta = h.real("BETA");
  if (!(c.gamma >= 0.5)) refuse(h, "GAMMA", "must be >= 0.5 (unconditional stability)");
  if (!(c.beta >= 0.25 * (0.5 + c.gamma) * (0.5 + c.gamma) - 1e-12))
    refuse(h, "BETA", "must be >= (GAMMA + 0.5)^2 / 4 (unconditional stability)");
  c.dynamics_loc = h.loc("IMASS");
}

void apply_control_implicit_eigenvalue(const Block& b, DeckBuilder& d) {
  ImplicitControls& c = d.model.control.implicit;
  const Fields& h = b.head;
  if (h.integer("NEIG") < 0) refuse(h, "NEIG", "a curve of eigenvalue ranges is not supported");
  if (h.integer("LFLAG") != 0 || h.integer("RFLAG") != 0)
    refuse(h, h.integer("LFLAG") != 0 ? "LFLAG" : "RFLAG",
           "eigenvalue intervals are not supported (use NEIG and CENTER)");
  const int m = h.integer("EIGMTH");
  if (m != 0 && m != 2) refuse(h, "EIGMTH", "only 2 (shift-and-invert Lanczos) is supported");
  c.neig = h.integer("NEIG");
  c.center = h.real("CENTER");
  c.eigmth = 2;
  c.eigen_loc = h.loc("NEIG");
}

void apply_control_implicit_solution(const Block& b, DeckBuilder& d) {
  ImplicitControls& c = d.model.control.implicit;
  const Fields& h = b.head;
  const int ns = h.integer("NSOLVR");
  if (ns != 0 && ns != 1 && ns != 2 && ns != 7 && ns != 12)
    refuse(h, "NSOLVR",
           "only 1 (linear) and 2, 7, 12 (Newton-Raphson, consistent tangent) are supported");
  c.nsolvr = ns == 0 ? 12 : ns;
  c.maxref = h.integer("MAXREF") <= 0 ? 15 : h.integer("MAXREF");
  c.dctol = h.real("DCTOL") <= 0 ? 1e-3 : h.real("DCTOL");
  c.ectol = h.real("ECTOL") <= 0 ? 1e-2 : h.real("ECTOL");
  c.rctol = h.real("RCTOL") <= 0 ? 1e10 : h.real("RCTOL");
  c.lstol = h.real("LSTOL") < 0 ? 0.9 : h.real("LSTOL");
  c.abstol = h.real("ABSTOL") == 0 ? 1e-10 : std::abs(h.real("ABSTOL"));
  if (ns == 2 || ns == 12)
    warn(d, b, h.loc("NSOLVR"),
         fmt::format("NSOLVR = {}: BFGS updates are replaced by full Newton-Raphson (the "
                     "consistent tangent is re-formed every iteration)",
                     ns));
  c.solution_loc = h.loc("NSOLVR");
}

void apply_control_implicit_stabilization(const Block& b, DeckBuilder& d) {
  warn(d, b, b.loc, "read and ignored: parcae's implicit solver adds no artificial stabilisation");
}

void note_unused_implicit_controls(DeckBuilder& d) {
  Model& m = d.model;
  if (m.control.implicit.imflag == 1) return;
  // An explicit deck: the implicit controls are read but not used.
  for (const std::string& k : m.keywords_used)
    if (k.starts_with("*CONTROL_IMPLICIT_") && k != "*CONTROL_IMPLICIT_GENERAL")
      m.notes.push_back({k, m.control.implicit.general_loc, false,
                         "read; used only by the implicit solver (IMFLAG = 0: ignored)"});
}

} // namespace parcae::io
