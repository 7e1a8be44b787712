// Simulation: one run of a workload on a fleet under a policy. It owns its clock, event queue,
// allocation state, job states and observer list — no globals, so several simulations can run
// in one process. The loop: arrivals and completions are events; after each instant with
// changes, and at requested wake-ups, the policy is consulted — once per instant unless a wake-up
// brings it back with nothing new — and its decisions are checked and applied. The workload must
// be sorted by submit time. Jobs larger than the whole fleet are rejected at admission, before the
// policy sees them. The fleet is tracked by a FleetState (every kind of grant) with a whole-GPU
// view kept in step; in debug builds every resource's invariants are checked after every event.
// Not thread-safe; one thread per simulation.
#pragma once

#include <deque>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "fleetsim/engine/event_queue.h"
#include "fleetsim/fleet/fleet.h"
#include "fleetsim/fleet/fleet_state.h"
#include "fleetsim/fleet/topology.h"
#include "fleetsim/policy/policy.h"
#include "fleetsim/sim/observer.h"
#include "fleetsim/workload/job.h"

namespace fleetsim {

enum class JobState { kPending, kQueued, kRunning, kCompleted, kRejected };

// The outcome of running: ok, or the first illegal policy decision.
struct RunStatus {
  bool ok = true;
  std::string error;  // set when !ok: names the policy, the decision and why it is illegal
};

class Simulation {
 public:
  Simulation(const FleetSpec& fleet, const Workload& workload, std::unique_ptr<Policy> policy,
             std::string policy_name);

  // Observers are not owned and must outlive the simulation's last call.
  void AddObserver(SimulationObserver* observer);

  // Processes every event with time <= limit; then the clock reads `limit` (the run observed the
  // fleet until then, even if it went idle earlier).
  RunStatus RunUntil(SimTime limit);
  // Processes events until none is left.
  RunStatus RunUntilIdle() { return RunUntil(kTimeNever); }
  // Tells observers the run is over, at the current time. Call once.
  void Finish();

  SimTime now() const { return now_; }
  JobState state(JobIndex job) const { return jobs_[job].state; }
  // Which GPUs can be taken whole right now (GPUs of static-MIG pools never can).
  const AllocationState& fleet() const { return whole_gpus_; }
  const FleetState& fleet_state() const { return fleet_state_; }
  const Topology& topology() const { return topology_; }

 private:
  enum class EventKind : std::uint8_t { kArrival, kCompletion, kSchedule };
  struct EventPayload {
    EventKind kind = EventKind::kSchedule;
    JobIndex job = 0;
  };
  struct JobRecord {
    JobState state = JobState::kPending;
    SimTime start = 0;
    std::size_t running_slot = 0;  // position in running_ while running
  };

  template <typename Event>
  void Publish(void (SimulationObserver::*handler)(const Event&), const Event& event);
  void Begin();
  void HandleArrival(JobIndex job);
  void HandleCompletion(JobIndex job);
  RunStatus HandleSchedule();
  void RequestScheduling(SimTime time);
  RunStatus ApplyDecision(const Decision& decision, std::size_t number);
  std::string CheckStart(const StartJob& start) const;
  void StartNow(const StartJob& start);
  void RejectNow(JobIndex job, RejectedBy by, const std::string& reason);
  void RemoveFromQueue(JobIndex job);
  void CheckInvariants() const;

  Topology topology_;
  FleetState fleet_state_;           // every resource and grant; validates each start
  AllocationState whole_gpus_;       // the whole-GPU view policies read, kept in step with it
  std::int64_t wholeable_gpus_ = 0;  // GPUs that a whole-GPU job can ever get
  std::vector<JobRequest> requests_;
  std::vector<JobTruth> truths_;
  std::vector<JobRecord> jobs_;
  std::unique_ptr<Policy> policy_;
  std::string policy_name_;
  std::vector<SimulationObserver*> observers_;

  EventQueue<EventPayload> events_;
  SimTime now_ = 0;
  bool begun_ = false;
  SimTime schedule_pending_at_ = -1;  // time of the pending scheduling event, -1 if none
  SimTime last_call_time_ = std::numeric_limits<SimTime>::min();  // of the policy
  JobIndex submitted_ = 0;  // jobs [0, submitted_) have arrived (the workload is in order)
  std::deque<JobIndex> queue_;
  std::vector<RunningJob> running_;
  ChangesSinceLastCall changes_;
};

}  // namespace fleetsim
