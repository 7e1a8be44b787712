// Simulation: one run of a workload on a fleet under a policy. It owns its clock, event queue,
// fleet ledger (every grant, the whole-GPU view policies read, the free-capacity index), job
// states and observer list — no globals, so several simulations can run in one process. The loop:
// arrivals and completions are events; after each instant with changes, and at requested
// wake-ups, the policy is consulted — once per instant unless a wake-up brings it back with
// nothing new — and its decisions are checked against the job's request and the fleet, then
// applied. A job's run time is its duration, or its work converted by the speed model on the GPUs
// it got (sim/placement_facts.h), plus its restart and checkpoint pauses (sim/job_progress.h).
// The workload must be sorted by submit time. Jobs that can never run on the fleet are rejected
// at admission, before the policy sees them.
// Nodes come and go (docs/interruptions.md; sim/node_lifecycle.h says what each node event
// does): a spot notice cordons a node, and jobs that can save within the notice take an
// emergency checkpoint and leave; at the reclaim the jobs still on it are stopped and the node is
// down until its replacement comes; a hardware failure stops its jobs at once and takes it down
// for repair; an autoscaled on-demand pool releases nodes it does not need and provisions them
// again when jobs queue. Stopped jobs go back to the queue. The processes are drawn from the
// run's seed, independently of the policy (except the failures of an autoscaled pool's nodes,
// which are up when the queue has them up). Without an arrival, queued or running job left, the
// run is over even though these processes would go on. The policy protocol (call gating, the
// livelock bound, the changes a call sees) is sim/policy_channel.h's.
// In debug builds every resource's invariants are checked after every event.
// Not thread-safe; one thread per simulation. Not copyable or movable.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "fleetsim/core/status.h"
#include "fleetsim/engine/event_queue.h"
#include "fleetsim/fleet/speed_model.h"
#include "fleetsim/ledger/fleet_ledger.h"
#include "fleetsim/policy/policy.h"
#include "fleetsim/sim/job_progress.h"
#include "fleetsim/sim/observer.h"
#include "fleetsim/workload/job.h"
#include "fleetsim/workload/tenants.h"

namespace fleetsim {

class Admission;
class NodeLifecycle;
class PolicyChannel;
enum class NodeEvent : std::uint8_t;  // sim/node_lifecycle.h
struct NamedJob;                      // sim/decision_checks.h

enum class JobState { kPending, kQueued, kRunning, kCompleted, kRejected };

struct SimulationOptions {
  // The speed model's reference GPU: work_gpu_hours are hours on one of these (the catalog's
  // reference is H100-SXM). Unset, every GPU runs work at reference speed.
  std::optional<GpuModel> reference_gpu{};
  SpeedModelParams speed{};
  // The tenants policies see (fair-share); empty: every tenant has the defaults.
  Organization organization{};
  // Seeds the spot reclaim and hardware failure processes (sim/fleet_processes.h).
  std::uint64_t seed = 1;
  // Checks the engine's invariants after every event (a violation aborts with "fleetsim:
  // internal error at ..."). Debug builds always check; this turns it on in release builds
  // (`--check-invariants`, docs/robustness.md).
  bool check_invariants = false;
};

class Simulation {
 public:
  Simulation(const FleetSpec& fleet, const Workload& workload, std::unique_ptr<Policy> policy,
             std::string policy_name, const SimulationOptions& options = {});
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  // Observers are not owned and must outlive the simulation's last call.
  void AddObserver(SimulationObserver* observer);

  // Processes every event with time <= limit; then the clock reads `limit` (the run observed the
  // fleet until then, even if it went idle earlier). Stops at the first illegal policy decision
  // (or a deadlock the policy left): an illegal-decision error naming the policy, the decision
  // and why.
  Status RunUntil(SimTime limit);
  // Processes events until none is left.
  Status RunUntilIdle() { return RunUntil(kTimeNever); }
  // Processes every event with time <= limit, stopping early, as RunUntilIdle does, once no job
  // is left; the clock reads the last event processed. Stepping a run with it through any rising
  // limits processes exactly the events RunUntilIdle would, so the run ends the same.
  Status RunUntilOrIdle(SimTime limit);
  // Tells observers the run is over, at the current time (having begun it if no event was
  // processed yet). Call once.
  void Finish();

  SimTime now() const { return now_; }
  // Whether a job is still to arrive, queued or running (true before the first event).
  bool jobs_left() const { return !begun_ || AnyJobLeft(); }
  JobState state(JobIndex job) const { return jobs_[job].state; }
  // Which GPUs can be taken whole right now (GPUs of static-MIG pools never can).
  const AllocationState& fleet() const { return ledger_.whole(); }
  const FleetState& fleet_state() const { return ledger_.state(); }
  const Topology& topology() const { return ledger_.topology(); }
  const FleetLedger& ledger() const { return ledger_; }
  // The jobs as the policy would see them now: the requests of the jobs submitted so far (indexed
  // by JobIndex), the queue (submission order) and the running jobs, for looking inside a run
  // between RunUntil calls.
  std::span<const JobRequest> submitted() const { return std::span(requests_).first(submitted_); }
  const JobQueue& queue() const { return queue_; }
  std::span<const RunningJob> running() const { return running_; }

 private:
  enum class EventKind : std::uint8_t {
    kArrival,
    kCompletion,
    kSchedule,
    kJobLeaves,  // a job's emergency checkpoint is done: it leaves its cordoned node
    kNode,       // a NodeLifecycle event (notices, failures, waves, reclaims, nodes back, the
                 // autoscaler's checks)
  };
  // An event: its kind, the job it is about (arrivals, completions, leaves; read through job(),
  // which checks the kind) or, for a node event, which one and its node or pool, and the
  // generation of the job or node when it was scheduled (stale events are ignored).
  class EventPayload {
   public:
    EventPayload() = default;
    // A policy call.
    static EventPayload Call();
    static EventPayload AboutJob(EventKind kind, JobIndex job, std::uint32_t generation = 0);
    static EventPayload AboutNode(NodeEvent event, std::uint32_t subject, std::uint32_t generation);

    EventKind kind() const { return kind_; }
    JobIndex job() const;
    NodeEvent node_event() const;
    std::uint32_t node_subject() const;
    std::uint32_t generation() const { return generation_; }

   private:
    EventPayload(EventKind kind, std::uint8_t node_event, std::uint32_t subject,
                 std::uint32_t generation)
        : kind_(kind), node_event_(node_event), subject_(subject), generation_(generation) {}
    static bool IsAboutJob(EventKind kind);
    EventKind kind_ = EventKind::kSchedule;
    std::uint8_t node_event_ = 0;  // a NodeEvent, for kNode
    std::uint32_t subject_ = 0;
    std::uint32_t generation_ = 0;
  };
  // NodeLifecycle's view of the run (defined in simulation.cc).
  class NodeRun;
  struct JobRecord {
    JobState state = JobState::kPending;
    SimTime start = 0;
    std::size_t running_slot = 0;  // position in running_ while running
    // Bumped whenever the job's completion moves (resize, preemption): older completion events
    // are stale and ignored.
    std::uint32_t generation = 0;
    JobProgress progress{};
    // Swap cap bookkeeping for resizes: the demand step of the last resize, and the GPUs the job
    // held when that step's first resize came.
    std::int64_t cap_step = -1;
    std::int64_t cap_base_gpus = 0;
    PlacementSummary summary{};    // of the current placement, while running
    SimTime completes_at = 0;      // while running and not leaving
    CheckpointPlan checkpoints{};  // on the current placement
    // Taking an emergency checkpoint since `notice` (kTimeNever: not leaving).
    SimTime leaving_since = kTimeNever;
    bool has_live_event = false;  // a completion or leave event of this generation is pending
  };

  template <typename Event>
  void Publish(void (SimulationObserver::*handler)(const Event&), const Event& event);
  void Schedule(SimTime time, Phase phase, EventPayload payload);
  void CountPending(const EventPayload& payload, std::int64_t change);
  std::uint32_t NewJobEvent(JobIndex job);  // returns the generation to schedule it with
  void RetireJobEvent(JobIndex job);
  // Processes events up to `limit`, and with `stop_when_idle` no further than RunUntilIdle
  // would; leaves the clock at the last event.
  Status ProcessEvents(SimTime limit, bool stop_when_idle);
  bool Deadlocked() const;
  bool AnyJobLeft() const;
  void Begin();
  Status Dispatch(const EventPayload& payload);
  void HandleArrival(JobIndex job);
  void HandleCompletion(JobIndex job, std::uint32_t generation);
  Status HandleSchedule();
  void RequestScheduling(SimTime time);
  Status ApplyDecision(Decision& decision, std::size_t number);
  // The job a decision names, for the checks of sim/decision_checks.h.
  NamedJob Named(JobIndex job) const;
  // `held`: the placement is a planner hold the start took over (already in the ledger).
  Status CheckStart(const StartJob& start, bool held) const;
  void StartNow(StartJob& start, bool held);
  void PreemptNow(const PreemptJob& preempt);
  // Checks and, if legal, applies a resize (the ledger is changed only when it is legal).
  Status Resize(ResizeJob& resize);
  void ScheduleCompletion(JobIndex job, SimDuration run_time);
  // The job's checkpoints on `placement`, its restart pause, and its segment's start.
  CheckpointPlan CheckpointsOn(const JobRequest& request, const Allocation& placement) const;
  SimDuration RestartPause(JobIndex job) const;
  void BeginSegment(JobIndex job, SimDuration pause, PauseKind kind);
  void PublishSegmentEnd(JobIndex job, SegmentEnd how, const SegmentAccount& account);
  // Stops a running job now: what it computed since its last checkpoint is lost (a stateless
  // real-time service loses nothing). Emergency-checkpointing jobs lose what was not saved.
  void StopNow(JobIndex job, StopCause cause, const std::string& reason);
  // Requeues a stopped job whose segment account is settled.
  void Requeue(JobIndex job, StopCause cause, const std::string& reason,
               const SegmentAccount& account, bool emergency_checkpoint);
  // ---- What node events do to jobs (NodeLifecycle calls these through NodeRun). ----
  // A job on a node announced for reclaim in `notice` starts its emergency checkpoint if it can
  // save within the notice, is not leaving already and would not finish first.
  void MayLeave(JobIndex job, SimDuration notice);
  void HandleJobLeaves(JobIndex job, std::uint32_t generation);
  // Running jobs holding anything on the node, ascending.
  std::vector<JobIndex> JobsOn(NodeId node) const;
  RunningJob& RunningOf(JobIndex job) { return running_[jobs_[job].running_slot]; }
  void RemoveFromRunning(JobIndex job);
  // The run is over with jobs still queued: the policy left admitted jobs waiting on an idle
  // fleet with nothing left to happen.
  Status DeadlockStatus() const;
  void RejectNow(JobIndex job, RejectedBy by, const std::string& reason);
  void CheckInvariants() const;

  FleetLedger ledger_;
  std::unique_ptr<PolicyChannel> channel_;  // the policy, its planner and what it has not seen
  std::unique_ptr<Admission> admission_;
  SpeedModel speed_;
  std::vector<JobRequest> requests_;
  std::vector<JobTruth> truths_;
  std::vector<JobRecord> jobs_;
  bool check_invariants_;
  std::vector<SimulationObserver*> observers_;

  EventQueue<EventPayload> events_;
  SimTime now_ = 0;
  bool begun_ = false;
  SimTime schedule_pending_at_ = -1;  // time of the pending scheduling event, -1 if none
  JobIndex submitted_ = 0;  // jobs [0, submitted_) have arrived (the workload is in order)
  JobQueue queue_;          // waiting jobs, submission order
  std::vector<RunningJob> running_;

  std::unique_ptr<NodeRun> node_run_;
  std::unique_ptr<NodeLifecycle> nodes_;  // spot notices, reclaims, failures, the autoscaler
  // Scheduled events that move jobs along (arrivals, completions, leaves), policy calls
  // (wake-ups) and events that bring capacity back (reclaims, nodes back); the process draws are
  // none of these. With no job left and no job event pending the run is over once the calls due
  // at this instant are made, whatever later wake-ups are pending (they would only stretch the
  // window past the last event that matters);
  // with jobs queued and none of the three pending, nothing can ever start them.
  std::int64_t pending_job_events_ = 0;
  std::int64_t pending_calls_ = 0;
  std::int64_t pending_node_returns_ = 0;
};

}  // namespace fleetsim
