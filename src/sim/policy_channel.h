// PolicyChannel: the engine's side of the policy protocol in one run. It owns the policy and the
// planner it places with, the pools as policies see them, and what changed since the policy's
// last call; it decides whether a call is due (once per instant, again only when something new
// came, as after a preemption) and stops a run whose policy is called without end at one instant
// (livelock). Simulation notes every change here, calls, and applies the decisions it gets back
// (sim/decision_checks.h), taking each start's hold over from the planner.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "fleetsim/core/status.h"
#include "fleetsim/ledger/fleet_ledger.h"
#include "fleetsim/policy/cluster_view.h"
#include "fleetsim/policy/placement_choice.h"
#include "fleetsim/policy/policy.h"
#include "fleetsim/workload/tenants.h"

namespace fleetsim {

// What the policy reads of the run's jobs at a call: the requests of the jobs submitted so far,
// the queue and the running jobs.
struct JobsAtCall {
  std::span<const JobRequest> submitted;
  const JobQueue& queue;
  std::span<const RunningJob> running;
};

class PolicyChannel {
 public:
  // A policy that preempts is called again at the same instant to use what it freed; this bounds
  // how often that can repeat before the run is stopped as a livelock.
  static constexpr std::int64_t kMaxCallsPerInstant = 1000;

  PolicyChannel(FleetLedger& ledger, std::unique_ptr<Policy> policy, std::string policy_name,
                Organization organization);
  PolicyChannel(const PolicyChannel&) = delete;
  PolicyChannel& operator=(const PolicyChannel&) = delete;

  const std::string& policy_name() const { return policy_name_; }

  // ---- What changed since the last call (ChangesSinceLastCall). ----
  void NoteSubmitted(JobIndex job) { changes_.submitted.push_back(job); }
  void NoteFinished(JobIndex job) { changes_.finished.push_back(job); }
  void NotePreempted(JobIndex job) { changes_.preempted.push_back(job); }
  void NoteNodeChanged(NodeId node) { changes_.nodes_changed.push_back(node); }
  // A running job started, was resized or began to leave (as it now runs), or ended (its
  // placement empty).
  void NotePlacement(RunningJob change) { changes_.placements.push_back(std::move(change)); }

  // Whether the policy is due at `now`: not when it was called at this instant and nothing has
  // changed since (a wake-up that brings nothing new).
  bool Due(SimTime now) const;
  // Calls the policy at `now` (Due(now) must hold) and clears the changes. Fails, without
  // calling it, when it has already been called kMaxCallsPerInstant times at this instant, and
  // with no decisions when the policy reports a failure (Policy::TakeFailure).
  Status Call(SimTime now, const JobsAtCall& jobs, std::vector<Decision>& decisions);

  // For the start decisions of the last call, in order: true if `placement` is the planner's
  // next hold, which the start now owns (fleetsim/policy/placement_choice.h).
  bool TakeOver(const Allocation& placement) { return planner_.TakeOver(placement); }
  // Releases the holds of the last call that no start took over.
  void Rollback() { planner_.Rollback(); }
  // Holds not yet taken over or released (zero between calls).
  std::size_t holds() const { return planner_.holds(); }

 private:
  FleetLedger& ledger_;
  EnginePlanner planner_;        // the policy's holds on ledger_, undone after every call
  std::vector<PoolInfo> pools_;  // the pools as policies see them (PoolInfosOf(ledger_))
  std::unique_ptr<Policy> policy_;
  std::string policy_name_;
  Organization organization_;
  ChangesSinceLastCall changes_;
  SimTime last_call_time_ = std::numeric_limits<SimTime>::min();
  std::int64_t calls_this_instant_ = 0;  // at last_call_time_
  std::int64_t calls_ = 0;               // in the whole run, for messages
};

}  // namespace fleetsim
