#pragma once
// Private: the ImplicitSolver class (solver.cpp: set-up and steps; assembly.cpp: element loops;
// output.cpp: d3plot, eigout, glstat, convergence history).
#include <fstream>
#include <memory>
#include <optional>

#include "linalg/libraries.hpp"
#include "linalg/sparse_system.hpp"
#include "output/ascii_hist.hpp"
#include "output/d3plot.hpp"
#include "output/glstat.hpp"
#include "solvers/implicit/dof_map.hpp"
#include "solvers/implicit/hex8_kernels.hpp"
#include "solvers/implicit/implicit_solver.hpp"
#include "solvers/implicit/shell_kernels.hpp"

namespace parcae::implicit {

/// One element of this rank.
struct Element {
  std::size_t model_index = 0;
  int law = 0;               ///< index into ImplicitSolver::laws_
  bool incompatible = false; ///< ELFORM 18
  std::array<int, 8> node{}; ///< local node indices
  std::array<PointState, 8> old{}, now{};
  std::array<Voigt, 8> stress{}, stress_old{}, eps{}, eps_old{};
  std::array<Voigt, 8> cauchy{}, cauchy_old{}; ///< for outputs (= stress in small strain)
};

/// One shell of this rank (MITC4, shell_kernels.hpp); 4 * nip points.
struct ShellElement {
  std::size_t model_index = 0;
  int law = 0;
  ShellSection section;
  std::array<int, 4> node{}; ///< local node indices (a triangle repeats N3)
  std::vector<PlanePointState> old, now;
  std::vector<ShellPoint> stress, stress_old, eps, eps_old; ///< local frame
};

class ImplicitSolver final : public Solver {
public:
  ImplicitSolver(const Model& model, const RunOptions& opt, const ImplicitOptions& iopt,
                 ImplicitResult* result);
  ~ImplicitSolver() override;
  [[nodiscard]] std::string_view name() const override { return "implicit"; }
  void setup() override;
  bool advance() override;
  void visit_state(StateArchive& ar) override;
  [[nodiscard]] GlobalStats global_stats() const override;
  void write_output() override;
  RunSummary finish() override;

  // --- assembly.cpp ---
  enum class Assemble : std::uint8_t { Residual, Tangent, Mass };
  /// Assembles into sys_: the residual f_ext(t) - f_int(u) (- M a(u) in dynamics), and with
  /// Tangent the consistent tangent (+ M / (beta dt^2)); Mass: the consistent mass matrix.
  void assemble(Assemble what, double t, linalg::SparseSystem& sys);
  void external_forces(double t, linalg::SparseSystem& sys) const;
  /// The shells' share of assemble(); acc: M-multiplied accelerations (dynamics) or empty.
  void assemble_shells(Assemble what, const std::vector<double>& acc, linalg::SparseSystem& sys);
  [[nodiscard]] ElemCoords coords(const Element& e) const;
  [[nodiscard]] ElemVector gather(const Element& e, const std::vector<double>& v) const;
  [[nodiscard]] ShellCoords coords(const ShellElement& e) const;
  [[nodiscard]] ShellVector gather(const ShellElement& e, const std::vector<double>& v) const;
  /// Sum over owned nodes (the same on every rank).
  [[nodiscard]] double owned_dot(const std::vector<double>& a, const std::vector<double>& b) const;

  // --- checkpoints (solver.cpp) ---
  void write_checkpoint_now();
  void restore_from_checkpoint();

  // --- output.cpp ---
  /// append: continue the files of a run restarted from a checkpoint (rewound to it).
  void open_outputs(bool append = false);
  void write_state(double time);
  void write_eigen(const linalg::EigenResult& r);
  void log_iteration(const IterationRecord& r);
  /// Whole-model displacements (3 per model node) from the owned nodes of every rank.
  [[nodiscard]] std::vector<double> all_nodes(const std::vector<double>& local) const;
  /// Whole-model stresses (8 per solid) and effective plastic strains (element means).
  void all_elements(std::vector<std::array<double, 6>>& stress, std::vector<double>& epsp) const;
  /// Whole-model shell records: per shell, 3 layers (bottom, middle, top: the element means of
  /// the lowest, middle and highest thickness points) of global stress [6] and effective
  /// plastic strain, then the 8 resultants (local Mxx Myy Mxy Qyz Qxz Nxx Nyy Nxy, per unit
  /// width) and the thickness: kShellRecord values.
  static constexpr std::size_t kShellRecord = 3 * 7 + 8 + 1;
  [[nodiscard]] std::vector<double> all_shells() const;

  const Model& model_;
  RunOptions opt_;
  ImplicitOptions iopt_;
  ImplicitResult* result_;
  par::Comm comm_;
  std::unique_ptr<linalg::Libraries> libs_;
  DofMap map_;
  std::vector<PointLaw> laws_;
  std::vector<Element> elems_;
  std::vector<ShellElement> shells_;
  std::vector<std::size_t> nodes_;                  ///< local -> model node index
  std::vector<int> local_of_;                       ///< model node -> local (-1)
  std::vector<std::uint8_t> owned_;                 ///< per local node
  std::vector<std::int64_t> dofs_;                  ///< 6 per local node: equation (-1 none)
  std::vector<double> u_, u_n_, v_, a_, v_n_, a_n_; ///< 6 per local node (kNodeDofs)
  std::unique_ptr<linalg::SparseSystem> sys_;
  linalg::SolverOptions lin_;
  const ImplicitControls& c_;
  bool dynamic_ = false, eigen_ = false, linear_ = false;
  bool large_strain_ = false; ///< ELFORM 2 total Lagrangian (nonlinear runs)
  double time_ = 0, dt_ = 0, dtmin_ = 0, dtmax_ = 0, end_time_ = 0;
  int step_ = 0;
  double ext_work_ = 0;
  std::vector<double> u_pred_;  ///< Newmark predictor: a = (u - u_pred) / (beta dt^2)
  double mass_coef_ = 0;        ///< 1 / (beta dt^2) in a dynamic step, else 0
  std::vector<double> f_ext_n_; ///< external force at the last converged step (local dofs)
  bool failed_ = false;
  std::string error_;
  double wall0_ = 0;
  // outputs (rank 0)
  std::unique_ptr<D3plotWriter> d3plot_;
  std::unique_ptr<GlstatWriter> glstat_;
  std::unique_ptr<NodoutWriter> nodout_;
  std::vector<std::size_t> nodout_nodes_; ///< model node indices (*DATABASE_HISTORY_NODE / _SET)
  std::ofstream history_;
  std::string scratch_run_, scratch_rank_;
  bool interrupted_ = false;
  std::string last_checkpoint_;
  int restarted_from_ = -1;
};

} // namespace parcae::implicit
