// Card tables of the implicit keywords: *CONTROL_IMPLICIT_{GENERAL, SOLVER, AUTO, DYNAMICS,
// EIGENVALUE, SOLUTION, STABILIZATION}. Field order
// and defaults follow the LS-DYNA keyword manual (R13); the apply functions are in
// deck_apply_implicit.cpp, the solver that uses them in solvers/implicit (docs/implicit.md).
#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

} // namespace

std::vector<KeywordSpec> implicit_keywords() {
  return {
      {.name = "*CONTROL_IMPLICIT_GENERAL",
       .head = {{"Card 1",
                 {I("IMFLAG"), R("DT0"), I("IMFORM", "2"), I("NSBS", "1"), I("IGS", "2"),
                  I("CNSTN"), I("FORM"), I("ZERO_V")}}},
       .summary = "IMFLAG = 1 makes the deck implicit (solvers/implicit; docs/implicit.md), DT0 is "
                  "the first step. IMFLAG 2-6 and negative (curves), IMFORM 1 (seamless "
                  "springback) and IGS -1 are refused; NSBS, CNSTN, FORM, ZERO_V are ignored.",
       .apply = apply_control_implicit_general},
      {.name = "*CONTROL_IMPLICIT_SOLVER",
       .head = {{"Card 1",
                 {I("LSOLVR", "2"), I("LPRINT"), I("NEGEV", "2"), I("ORDER"), I("DRCM", "4"),
                  R("DRCPRM"), I("AUTOSPC", "1"), R("AUTOTOL")}},
                {"Card 2",
                 {I("LCPACK", "2"), I("MTXDMP"), I("IPARM1", "500"), R("RPARM1", "1.0E-9"),
                  R("RPARM2", "1.0E-12"), R("UNUSED"), R("RPARM5"), R("RPARM6")}},
                {"Card 3", {I("EMXDMP"), R("RDCMEM", "0.85"), R("ABSMEM")}}},
       .ignore_extra = true,
       .summary = "LSOLVR 2, 4, 5, 6, 9: direct sparse solver (MUMPS through PETSc); 10, 11, 12: "
                  "conjugate gradients with PETSc's algebraic multigrid (GAMG); 13, 14, 15: "
                  "conjugate gradients with hypre BoomerAMG (relative tolerance RPARM1, at most "
                  "IPARM1 iterations). ABSMEM (8-byte words) > 0: the factorisation runs out of "
                  "core (MUMPS ICNTL(22)) when MUMPS' in-core estimate exceeds it; ABSMEM = -1 "
                  "always out of core (a parcae extension), into the --scratch directory. "
                  "LPRINT 1/2 prints the factorisation statistics. The other fields are "
                  "ignored.",
       .apply = apply_control_implicit_solver},
      {.name = "*CONTROL_IMPLICIT_AUTO",
       .head = {{"Card 1",
                 {I("IAUTO"), I("ITEOPT", "11"), I("ITEWIN", "5"), R("DTMIN"), R("DTMAX"),
                  R("DTEXP"), I("KFAIL"), I("KCYCLE")}}},
       .summary = "IAUTO 1: automatic step size (a step that fails to converge is retried with "
                  "half the step, at least DTMIN = DT0/1000; after a step needing fewer than "
                  "ITEOPT - ITEWIN iterations the step grows by a factor 1.5 up to DTMAX = "
                  "10 DT0; more than ITEOPT + ITEWIN shrinks it). IAUTO 2/3 and negative (curve) "
                  "are refused; DTEXP, KFAIL, KCYCLE are ignored.",
       .apply = apply_control_implicit_auto},
      {.name = "*CONTROL_IMPLICIT_DYNAMICS",
       .head = {{"Card 1",
                 {I("IMASS"), R("GAMMA", "0.5"), R("BETA", "0.25"), R("TDYBIR"),
                  R("TDYDTH", "1.0E+28"), R("TDYBUR", "1.0E+28"), I("IRATE"), R("ALPHA")}}},
       .ignore_extra = true,
       .summary = "IMASS 1: Newmark time integration with GAMMA, BETA (consistent mass); 0: "
                  "static. IMASS 2 (modal), negative (curve) and ALPHA != 0 (HHT) are refused; "
                  "TDYBIR, TDYDTH, TDYBUR, IRATE are ignored.",
       .apply = apply_control_implicit_dynamics},
      {.name = "*CONTROL_IMPLICIT_EIGENVALUE",
       .head = {{"Card 1",
                 {I("NEIG"), R("CENTER"), I("LFLAG"), R("LFTEND", "-1.0E+29"), I("RFLAG"),
                  R("RHTEND", "1.0E+29"), I("EIGMTH", "2"), R("SHFSCL")}},
                {"Card 2",
                 {I("ISOLID"), I("IBEAM"), I("ISHELL"), I("ITSHELL"), I("MSTRES"), I("EVDUMP"),
                  R("MSTRSCL", "0.001")},
                 "",
                 true}},
       .ignore_extra = true,
       .summary = "NEIG > 0: the NEIG eigenvalues nearest CENTER (a frequency, cycles per unit "
                  "time) of K x = omega^2 M x (SLEPc Krylov-Schur with shift-invert through "
                  "MUMPS, the block shift-and-invert Lanczos of EIGMTH 2), written to eigout and "
                  "as d3eigv-like VTK mode shapes. Negative NEIG (curve), LFLAG/RFLAG intervals "
                  "and EIGMTH other than 2 are refused; card 2 is ignored.",
       .apply = apply_control_implicit_eigenvalue},
      {.name = "*CONTROL_IMPLICIT_SOLUTION",
       .head = {{"Card 1",
                 {I("NSOLVR", "12"), I("ILIMIT", "11"), I("MAXREF", "15"), R("DCTOL", "0.001"),
                  R("ECTOL", "0.01"), R("RCTOL", "1.0E+10"), R("LSTOL", "0.9"),
                  R("ABSTOL", "1.0E-10")}},
                {"Card 2",
                 {I("DNORM", "2"), I("DIVERG", "1"), I("ISTIF", "1"), I("NLPRINT"),
                  I("NLNORM", "2"), I("D3ITCTL"), I("CPCHK")},
                 "",
                 true}},
       .ignore_extra = true,
       .summary = "NSOLVR 1: linear (one solve per step); 2, 7, 12: Newton-Raphson with the "
                  "consistent tangent re-formed every iteration (the BFGS updates of 2 and 12 are "
                  "replaced by full Newton) and a line search when LSTOL > 0; others refused. "
                  "MAXREF: iterations per step; converged when the displacement norm ratio < "
                  "DCTOL and the energy ratio < ECTOL (and the residual ratio < RCTOL), or the "
                  "residual norm < ABSTOL. ILIMIT and card 2 are ignored; arc-length cards "
                  "(further cards) are not read.",
       .apply = apply_control_implicit_solution},
      {.name = "*CONTROL_IMPLICIT_STABILIZATION",
       .head = {{"Card 1", {I("IAS"), R("SCALE", "1.0"), R("TSTART"), R("TEND")}}},
       .ignore_extra = true,
       .summary = "Read and warned: parcae adds no artificial stabilisation.",
       .apply = apply_control_implicit_stabilization},
  };
}

} // namespace parcae::io
