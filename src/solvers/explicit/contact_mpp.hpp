#pragma once
// Distributed (MPP) penalty contact. Every rank holds the interfaces' index structures (segments,
// passes, adjacency: set up once, identically), but positions are current only for the contact
// nodes it holds (its elements' nodes, and every rigid body's) plus the ghosts it imports, and it
// searches and evaluates only the contact nodes it owns:
//
//   search (when due: every NSBCS cycles, or as soon as some node moved half the capture
//   margin; the decision is global): each rank publishes the box of its own contact nodes, and
//   receives from the other ranks their contact nodes inside that box grown by the largest
//   segment extent + thicknesses + margin, i.e. the nodes of every segment that could be a
//   candidate of one of its nodes ("segments and nodes near the interface exchanged each
//   search"); then a bucket sort of its own nodes against the segments whose nodes it has.
//   plan (after a search, or when a node's tracked segment walks out of the imported region):
//   ghost nodes = nodes of the candidate segments, of the tracked segment and of the two rings
//   of segments around it (all a node's evaluation can look at); requests go to their owners.
//   every cycle: import the ghosts' positions and velocities (owner -> user), evaluate the own
//   nodes, send each force contribution (node force, and its reaction on each segment corner)
//   to every rank that holds the node it acts on; each holder sorts the contributions it
//   receives into the one-rank order (interface, pass, node, corner) and sums them exactly as
//   the one-rank gather does. Contact forces, histories and energies are therefore bitwise those
//   of a one-rank run, for any decomposition and thread count.
//
// Energies: each rank accumulates the interface work of the nodes it owns and the friction of
// the nodes it evaluates (exact sums, reduced for output); resultants are gathered on rank 0 in
// the one-rank order when written.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "contact/contact.hpp"
#include "par/comm.hpp"
#include "solvers/common/contact_setup.hpp"

namespace parcae {

class MppContact {
public:
  /// local[k] / owned[k]: compact contact node k is on this rank / owned by it (every contact
  /// node must be owned by exactly one rank). Collective. Sets the passes' `mine` masks.
  MppContact(const par::Comm& comm, const ContactModel& model,
             std::vector<contact::ContactState>& states, std::vector<std::uint8_t> local,
             std::vector<std::uint8_t> owned);
  ~MppContact();
  MppContact(const MppContact&) = delete;
  MppContact& operator=(const MppContact&) = delete;

  /// Start of a contact cycle (collective). cx, cv (3 per compact node) hold the current
  /// positions and velocities of this rank's local contact nodes. Runs the searches that are
  /// due, re-plans when needed, and imports the ghosts' positions and velocities into cx, cv.
  void begin_cycle(std::int64_t cycle, std::span<Real> cx, std::span<Real> cv);

  /// After contact::evaluate_contacts on every interface (collective, no reduction): gathers
  /// the contact forces: cf (3 per compact node) gets the total contact force of every local
  /// contact node (other entries untouched), and the interface energies of the owned nodes are
  /// accumulated. local: this rank's statuses, kept for add_status / statuses.
  void finish_cycle(std::span<const contact::ContactStatus> local, std::span<const Real> cv,
                    Real dt, std::span<Real> cf);
  /// After finish_cycle: this rank's part of the next cycle's search decisions
  /// (contact::largest_predicted_move over the owned slots; cx, cv as in finish_cycle).
  void predict_searches(std::span<const Real> cx, std::span<const Real> cv, Real dt);
  /// The status counts of the last finish_cycle, the search predictions and the re-plan
  /// request into the cycle's reduction.
  void add_status(par::CycleReduction& red);
  /// After the reduction: the next cycle's searches (ContactState::search_due_next) and
  /// re-plan, as every rank agrees on them.
  void take_schedule(const par::CycleReduction& red);
  /// After the reduction (collective when some rank has records): the global statuses
  /// (records in one-rank order: pass, node).
  std::vector<contact::ContactStatus> statuses(const par::CycleReduction& red);

  /// Output (collective): per interface the global energies (secondary, main, friction) and, on
  /// rank 0, the resultants of the last cycle in the states (resultant_secondary / _main).
  struct InterfaceEnergies {
    Real secondary = 0, main = 0, friction = 0;
  };
  std::vector<InterfaceEnergies> gather_for_output();

  /// The plan is not part of a checkpoint: rebuild it at the next cycle.
  void invalidate_plan() { replan_forced_ = true; }

  /// Figures for the log (this rank): contact nodes evaluated (owned pass nodes), the most ghost
  /// nodes a plan imported per cycle, plans made.
  [[nodiscard]] std::int64_t evaluated_nodes() const { return evaluated_; }
  [[nodiscard]] std::int64_t max_ghost_nodes() const { return max_ghosts_; }
  [[nodiscard]] std::int64_t plans() const { return plans_; }

private:
  void search(std::size_t i, std::int64_t cycle, std::span<Real> cx);
  void plan();

  par::Comm comm_;
  const ContactModel& model_;
  std::vector<contact::ContactState>& states_;
  std::size_t nc_ = 0;
  std::vector<std::uint8_t> local_, owned_;
  std::vector<int> owner_;
  std::vector<std::int64_t> hold_start_; ///< CSR: ranks holding each compact node
  std::vector<int> hold_rank_;
  std::vector<LocalId> local_nodes_;              ///< compact nodes on this rank, ascending
  std::vector<std::vector<LocalId>> held_slots_;  ///< per interface: slots of local nodes
  std::vector<std::vector<LocalId>> owned_slots_; ///< per interface: slots of owned nodes
  std::vector<std::uint8_t> box_search_;          ///< per interface: every segment whole on
                                                  ///< some rank (else: search sends all)
  // plan: forced (start, restart: every rank), requested by this rank (a tracked segment's
  // rings are not all here) and agreed for the next cycle (through the cycle's reduction)
  bool replan_forced_ = true, replan_local_ = false, replan_next_ = false;
  std::vector<std::uint8_t> search_local_; ///< per interface: this rank predicts a search
  std::vector<int> import_rank_, export_rank_;
  std::vector<std::vector<LocalId>> import_nodes_, export_nodes_;
  std::unique_ptr<par::Exchange> ghost_ex_;
  std::vector<int> send_to_, recv_from_; ///< contribution partners (self included)
  std::vector<std::int64_t> send_index_; ///< rank -> index in send_to_ (-1)
  /// per interface, pass, node: the tracked segment whose rings were found available
  std::vector<std::vector<std::vector<LocalId>>> tracked_checked_;
  std::int64_t evaluated_ = 0, max_ghosts_ = 0, plans_ = 0;
  std::vector<contact::ContactStatus> local_status_; ///< of the last finish_cycle
  std::size_t status_slot_ = 0;                      ///< first count slot in the reduction
  std::size_t schedule_slot_ = 0;                    ///< first search/re-plan slot
};

} // namespace parcae
