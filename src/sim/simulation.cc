// The simulation loop, the application of decisions (decision_checks.h and start_check.h check
// them) and the job life cycle.
#include "fleetsim/sim/simulation.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "fleetsim/core/check.h"
#include "sim/admission.h"
#include "sim/autoscaler.h"
#include "sim/decision_checks.h"
#include "sim/fleet_processes.h"
#include "sim/nodes_at_start.h"
#include "sim/placement_facts.h"
#include "sim/start_check.h"

namespace fleetsim {

namespace {
// A policy that preempts is called again at the same instant to use what it freed; this bounds
// how often that can repeat before the run is stopped as a livelock.
constexpr std::int64_t kMaxCallsPerInstant = 1000;

#ifdef NDEBUG
constexpr bool kDebugBuild = false;
#else
constexpr bool kDebugBuild = true;  // invariants are checked after every event
#endif
}  // namespace

Simulation::Simulation(const FleetSpec& fleet, const Workload& workload,
                       std::unique_ptr<Policy> policy, std::string policy_name,
                       const SimulationOptions& options)
    : ledger_(fleet),
      planner_(ledger_),
      pools_(PoolInfosOf(ledger_)),
      admission_(std::make_unique<Admission>(fleet, ledger_)),
      speed_(options.reference_gpu.value_or(GpuModel{}), options.speed),
      policy_(std::move(policy)),
      policy_name_(std::move(policy_name)),
      organization_(options.organization),
      check_invariants_(options.check_invariants || kDebugBuild),
      processes_(std::make_unique<FleetProcesses>(ledger_, options.seed)),
      autoscaler_(std::make_unique<Autoscaler>(ledger_)) {
  FLEETSIM_CHECK(policy_ != nullptr, "a simulation needs a policy");
  requests_.reserve(workload.jobs.size());
  truths_.reserve(workload.jobs.size());
  for (const Job& job : workload.jobs) {
    FLEETSIM_CHECK((job.truth.duration > 0) != (job.truth.work_gpu_hours > 0),
                   "a job needs exactly one of a positive duration and positive work");
    FLEETSIM_CHECK(requests_.empty() || requests_.back().submit <= job.request.submit,
                   "the workload must be sorted by submit time (SortBySubmit)");
    requests_.push_back(job.request);
    truths_.push_back(job.truth);
  }
  jobs_.resize(requests_.size());
  node_generation_.assign(static_cast<std::size_t>(ledger_.topology().nodes()), 0);
  events_.Reserve(requests_.size() + 16);
}

Simulation::~Simulation() = default;

void Simulation::AddObserver(SimulationObserver* observer) { observers_.push_back(observer); }

template <typename Event>
void Simulation::Publish(void (SimulationObserver::*handler)(const Event&), const Event& event) {
  for (SimulationObserver* observer : observers_) {
    (observer->*handler)(event);
  }
}

bool Simulation::EventPayload::IsAboutJob(EventKind kind) {
  return kind == EventKind::kArrival || kind == EventKind::kCompletion ||
         kind == EventKind::kJobLeaves;
}

bool Simulation::EventPayload::IsAboutNode(EventKind kind) {
  return kind == EventKind::kSpotNotice || kind == EventKind::kFailure ||
         kind == EventKind::kReclaim || kind == EventKind::kNodeBack;
}

Simulation::EventPayload Simulation::EventPayload::About(EventKind kind) {
  FLEETSIM_CHECK(
      kind == EventKind::kSchedule || kind == EventKind::kAutoscale,
      "an event about no job, node or pool must be a policy call or an autoscaler check");
  return {kind, 0, 0};
}

Simulation::EventPayload Simulation::EventPayload::AboutJob(EventKind kind, JobIndex job,
                                                            std::uint32_t generation) {
  FLEETSIM_CHECK(IsAboutJob(kind), "a job event of a kind that is not about a job");
  return {kind, job, generation};
}

Simulation::EventPayload Simulation::EventPayload::AboutNode(EventKind kind, NodeId node,
                                                             std::uint32_t generation) {
  FLEETSIM_CHECK(IsAboutNode(kind), "a node event of a kind that is not about a node");
  return {kind, node, generation};
}

Simulation::EventPayload Simulation::EventPayload::AboutPool(EventKind kind, PoolIndex pool) {
  FLEETSIM_CHECK(kind == EventKind::kWave, "a pool event of a kind that is not about a pool");
  return {kind, pool, 0};
}

JobIndex Simulation::EventPayload::job() const {
  FLEETSIM_CHECK(IsAboutJob(kind_), "the job of an event that is not about a job");
  return subject_;
}

NodeId Simulation::EventPayload::node() const {
  FLEETSIM_CHECK(IsAboutNode(kind_), "the node of an event that is not about a node");
  return subject_;
}

PoolIndex Simulation::EventPayload::pool() const {
  FLEETSIM_CHECK(kind_ == EventKind::kWave, "the pool of an event that is not about a pool");
  return subject_;
}

void Simulation::Schedule(SimTime time, Phase phase, EventPayload payload) {
  CountPending(payload.kind(), 1);
  events_.Schedule(time, phase, payload);
}

void Simulation::CountPending(EventKind kind, std::int64_t change) {
  switch (kind) {
    case EventKind::kArrival:
      pending_job_events_ += change;
      break;
    case EventKind::kSchedule:
      pending_calls_ += change;
      break;
    case EventKind::kCompletion:
    case EventKind::kJobLeaves:
      break;  // counted while live (NewJobEvent, RetireJobEvent): stale ones keep nothing alive
    case EventKind::kReclaim:
    case EventKind::kNodeBack:
      pending_node_returns_ += change;
      break;
    case EventKind::kSpotNotice:
    case EventKind::kFailure:
    case EventKind::kWave:
    case EventKind::kAutoscale:
      break;  // the processes go on forever; an idle node's release brings nothing back
  }
}

// A job has at most one live completion or leave event; a new one makes the old one stale.
std::uint32_t Simulation::NewJobEvent(JobIndex job) {
  RetireJobEvent(job);
  JobRecord& record = jobs_[job];
  record.has_live_event = true;
  ++pending_job_events_;
  return ++record.generation;
}

void Simulation::RetireJobEvent(JobIndex job) {
  JobRecord& record = jobs_[job];
  if (record.has_live_event) {
    record.has_live_event = false;
    --pending_job_events_;
  }
}

bool Simulation::AnyJobLeft() const {
  return submitted_ < requests_.size() || !queue_.empty() || !running_.empty();
}

void Simulation::Begin() {
  begun_ = true;
  for (JobIndex job = 0; job < requests_.size(); ++job) {
    Schedule(requests_[job].submit, Phase::kArrival,
             EventPayload::AboutJob(EventKind::kArrival, job));
  }
  if (processes_->any()) {
    for (NodeId node = 0; node < node_generation_.size(); ++node) {
      ScheduleNodeProcesses(node);
    }
    for (PoolIndex pool = 0; pool < ledger_.pools().size(); ++pool) {
      ScheduleNextWave(pool);
    }
  }
  const std::vector<NodeAtStart> nodes = NodesAtStart(ledger_);
  Publish(&SimulationObserver::OnRunStarted,
          RunStarted{now_, ledger_.whole().capacity(), requests_, ledger_.pools(), nodes});
  for (const NodeId node : autoscaler_->InitialReleases()) {
    TakeDown(node, NodeDownCause::kReleased, kTimeNever);
  }
}

RunStatus Simulation::RunUntil(SimTime limit) {
  if (!begun_) {
    Begin();
  }
  while (true) {
    const std::optional<EventKey> next = events_.PeekKey();
    if (!next || next->time() > limit ||
        (limit == kTimeNever && !AnyJobLeft() && pending_job_events_ == 0 &&
         (pending_calls_ == 0 || next->time() > now_))) {
      break;
    }
    if (Deadlocked()) {  // only the processes are left, and they would never start the queue
      return DeadlockStatus();
    }
    const auto event = events_.Pop();
    FLEETSIM_CHECK(event->key.time() >= now_, "time went backwards");
    now_ = event->key.time();
    CountPending(event->payload.kind(), -1);
    if (RunStatus status = Dispatch(event->payload); !status.ok) {
      return status;
    }
    if (check_invariants_) {
      CheckInvariants();
    }
  }
  if (Deadlocked()) {
    return DeadlockStatus();
  }
  if (limit != kTimeNever) {
    now_ = std::max(now_, limit);
  }
  return {};
}

RunStatus Simulation::Dispatch(const EventPayload& payload) {
  switch (payload.kind()) {
    case EventKind::kArrival:
      HandleArrival(payload.job());
      break;
    case EventKind::kCompletion:
      HandleCompletion(payload.job(), payload.generation());
      break;
    case EventKind::kSchedule:
      return HandleSchedule();
    case EventKind::kJobLeaves:
      HandleJobLeaves(payload.job(), payload.generation());
      break;
    case EventKind::kSpotNotice:
      HandleSpotNotice(payload.node(), payload.generation());
      break;
    case EventKind::kFailure:
      HandleFailure(payload.node(), payload.generation());
      break;
    case EventKind::kWave:
      HandleWave(payload.pool());
      break;
    case EventKind::kReclaim:
      HandleReclaim(payload.node(), payload.generation());
      break;
    case EventKind::kNodeBack:
      HandleNodeBack(payload.node(), payload.generation());
      break;
    case EventKind::kAutoscale:
      if (autoscale_check_at_ == now_) {
        autoscale_check_at_ = kTimeNever;
      }
      Autoscale();
      break;
  }
  return {};
}

bool Simulation::Deadlocked() const {
  return !queue_.empty() && pending_job_events_ == 0 && pending_calls_ == 0 &&
         pending_node_returns_ == 0;
}

RunStatus Simulation::DeadlockStatus() const {
  std::vector<std::string> names;
  for (const JobIndex job : queue_) {
    if (names.size() == 3) {
      break;
    }
    names.push_back(fmt::format("'{}'", requests_[job].id));
  }
  return {false,
          fmt::format("policy '{}' left {} admitted job(s) queued ({}{}) on an idle fleet at {} "
                      "with nothing left to happen: no arrival, completion, wake-up or node "
                      "coming back is pending, so they would wait forever (deadlock). Every "
                      "admitted job fits the empty fleet; a policy must start it or reject it",
                      policy_name_, queue_.size(), fmt::join(names, ", "),
                      queue_.size() > names.size() ? ", ..." : "", FormatTime(now_))};
}

void Simulation::Finish() {
  std::vector<JobIndex> running;
  for (const RunningJob& job : running_) {
    running.push_back(job.job);
  }
  std::sort(running.begin(), running.end());
  for (const JobIndex job : running) {
    JobRecord& record = jobs_[job];
    SegmentAccount account;
    if (record.leaving_since == kTimeNever) {
      account = record.progress.EndSegment(now_, Keep::kAll);
    } else {  // still checkpointing: what it computed is kept, the checkpoint so far is overhead
      account = record.progress.EndSegment(record.leaving_since, Keep::kAll);
      account.overhead += now_ - record.leaving_since;
    }
    PublishSegmentEnd(job, SegmentEnd::kRunEnded, account);
  }
  Publish(&SimulationObserver::OnRunEnded, RunEnded{now_});
}

void Simulation::HandleArrival(JobIndex job) {
  const JobRequest& request = requests_[job];
  FLEETSIM_CHECK(job == submitted_, "jobs must arrive in workload order");
  ++submitted_;
  jobs_[job].state = JobState::kQueued;
  Publish(&SimulationObserver::OnJobSubmitted, JobSubmitted{now_, job, request});
  if (const std::string why = admission_->WhyNever(request, truths_[job]); !why.empty()) {
    RejectNow(job, RejectedBy::kAdmission, why);
    return;
  }
  ledger_.NoteSubmitted(request);  // the typical tasks of the share-fgd placement rule
  queue_.PushBack(job);
  changes_.submitted.push_back(job);
  RequestScheduling(now_);
}

void Simulation::HandleCompletion(JobIndex job, std::uint32_t generation) {
  JobRecord& record = jobs_[job];
  if (generation != record.generation) {
    return;  // the job was resized or preempted after this completion was scheduled
  }
  RetireJobEvent(job);
  FLEETSIM_CHECK(record.state == JobState::kRunning, "completing a job that is not running");
  PublishSegmentEnd(job, SegmentEnd::kFinished, record.progress.EndSegment(now_, Keep::kAll));
  RemoveFromRunning(job);
  record.state = JobState::kCompleted;
  changes_.finished.push_back(job);
  Publish(&SimulationObserver::OnJobFinished, JobFinished{now_, job, requests_[job], record.start});
  RequestScheduling(now_);
}

// Swap-remove from running_ (keeping running_slot indices right) and release the placement.
void Simulation::RemoveFromRunning(JobIndex job) {
  const std::size_t index = jobs_[job].running_slot;
  RunningJob& slot = running_[index];
  ledger_.Release(slot.placement);
  changes_.placements.push_back({.job = job, .start = slot.start, .placement = {}});
  if (index != running_.size() - 1) {
    slot = std::move(running_.back());
    jobs_[slot.job].running_slot = index;
  }
  running_.pop_back();
}

void Simulation::RequestScheduling(SimTime time) {
  if (schedule_pending_at_ == time) {
    return;
  }
  Schedule(time, Phase::kSchedule, EventPayload::About(EventKind::kSchedule));
  schedule_pending_at_ = time;
}

RunStatus Simulation::HandleSchedule() {
  if (schedule_pending_at_ == now_) {
    schedule_pending_at_ = -1;
  }
  if (now_ == last_call_time_ && changes_.submitted.empty() && changes_.finished.empty() &&
      changes_.preempted.empty() && changes_.nodes_changed.empty()) {
    return {};  // a wake-up at an instant the policy has already seen with nothing new
  }
  calls_this_instant_ = now_ == last_call_time_ ? calls_this_instant_ + 1 : 1;
  if (calls_this_instant_ > kMaxCallsPerInstant) {
    return {false, fmt::format("policy '{}' preempted jobs in each of {} calls at {} without "
                               "time moving on (livelock)",
                               policy_name_, kMaxCallsPerInstant, FormatTime(now_))};
  }
  last_call_time_ = now_;
  const ClusterView view(now_, ledger_, pools_, std::span(requests_).first(submitted_), queue_,
                         running_, changes_, organization_);
  std::vector<Decision> decisions = policy_->Decide(view, planner_);
  Publish(&SimulationObserver::OnPolicyCalled, PolicyCalled{now_, queue_.size(), decisions.size()});
  changes_ = {};
  RunStatus status;
  for (std::size_t i = 0; i < decisions.size() && status.ok; ++i) {
    status = ApplyDecision(decisions[i], i + 1);
  }
  planner_.Rollback();
  if (status.ok) {
    Autoscale();
  }
  return status;
}

RunStatus Simulation::ApplyDecision(Decision& decision, std::size_t number) {
  std::string problem;
  if (auto* start = std::get_if<StartJob>(&decision)) {
    const bool held = planner_.TakeOver(start->placement);
    problem = CheckStart(*start, held);
    if (problem.empty()) {
      StartNow(*start, held);
    } else if (held) {
      ledger_.Release(start->placement);
    }
  } else if (const auto* reject = std::get_if<RejectJob>(&decision)) {
    problem = WhyNotReject(Named(reject->job), *reject);
    if (problem.empty()) {
      queue_.Remove(reject->job);
      RejectNow(reject->job, RejectedBy::kPolicy, reject->reason);
    }
  } else if (const auto* preempt = std::get_if<PreemptJob>(&decision)) {
    problem = WhyNotPreempt(Named(preempt->job), *preempt);
    if (problem.empty()) {
      PreemptNow(*preempt);
    }
  } else if (auto* resize = std::get_if<ResizeJob>(&decision)) {
    problem = Resize(*resize);
  } else {
    const WakeAt wake = std::get<WakeAt>(decision);
    problem = WhyNotWake(wake, now_);
    if (problem.empty()) {
      Schedule(wake.time, Phase::kSchedule, EventPayload::About(EventKind::kSchedule));
    }
  }
  if (problem.empty()) {
    return {};
  }
  return {false, fmt::format("policy '{}' made an illegal decision at {} (decision {} of this "
                             "call): {}: {}",
                             policy_name_, FormatTime(now_), number,
                             DescribeDecision(decision, requests_), problem)};
}

NamedJob Simulation::Named(JobIndex job) const {
  if (job >= requests_.size()) {
    return {};
  }
  return {.request = &requests_[job],
          .state = jobs_[job].state,
          .leaving = jobs_[job].leaving_since != kTimeNever};
}

std::string Simulation::CheckStart(const StartJob& start, bool held) const {
  if (std::string why = WhyNotStart(Named(start.job)); !why.empty()) {
    return why;
  }
  const JobRequest& request = requests_[start.job];
  return held ? CheckAgainstRequest(ledger_, request, start.placement)
              : CheckPlacement(ledger_, request, start.placement);
}

void Simulation::StartNow(StartJob& start, bool held) {
  queue_.Remove(start.job);
  JobRecord& record = jobs_[start.job];
  record.state = JobState::kRunning;
  record.start = now_;
  record.running_slot = running_.size();
  if (!held) {
    ledger_.Apply(start.placement);
  }
  running_.push_back({start.job, now_, std::move(start.placement)});
  changes_.placements.push_back(running_.back());
  BeginSegment(start.job, RestartPause(start.job), PauseKind::kRestart);
  Publish(&SimulationObserver::OnJobStarted, JobStarted{now_, start.job, requests_[start.job],
                                                        running_.back().placement, record.summary});
}

// A segment on the job's current placement (running_) begins now, after `pause`.
void Simulation::BeginSegment(JobIndex job, SimDuration pause, PauseKind kind) {
  JobRecord& record = jobs_[job];
  const RunningJob& running = RunningOf(job);
  record.summary = Summarize(ledger_, running.placement);
  record.checkpoints = CheckpointsOn(requests_[job], running.placement);
  const SimDuration full =
      RunTime(speed_, ledger_, requests_[job], truths_[job], running.placement, record.summary);
  record.summary.work_rate = WorkRate(truths_[job], record.summary, full);
  ScheduleCompletion(job,
                     record.progress.StartSegment(now_, full, pause, kind, record.checkpoints));
}

// Checkpoints every interval; a checkpoint written through one writer (not sharded) costs its
// cost once per node the job spans. Real-time services keep no state and take none.
CheckpointPlan Simulation::CheckpointsOn(const JobRequest& request,
                                         const Allocation& placement) const {
  if (request.demand || request.checkpoint_interval == 0) {
    return {};
  }
  std::vector<NodeId> nodes;
  for (const Grant& grant : placement.gpus) {
    nodes.push_back(ledger_.state().NodeOf(grant.gpu));
  }
  for (const NodeShare& share : placement.nodes) {
    nodes.push_back(share.node);
  }
  std::sort(nodes.begin(), nodes.end());
  const auto spanned = static_cast<SimDuration>(
      std::max<std::ptrdiff_t>(1, std::unique(nodes.begin(), nodes.end()) - nodes.begin()));
  return {request.checkpoint_interval,
          request.checkpoint_cost * (request.checkpoint_sharded ? 1 : spanned)};
}

// A job resuming with progress saved pays its restart cost first.
SimDuration Simulation::RestartPause(JobIndex job) const {
  return jobs_[job].progress.done() > 0 ? requests_[job].restart_cost : 0;
}

void Simulation::PublishSegmentEnd(JobIndex job, SegmentEnd how, const SegmentAccount& account) {
  const JobRecord& record = jobs_[job];
  Publish(&SimulationObserver::OnJobSegmentEnded,
          JobSegmentEnded{now_, job, requests_[job], record.progress.segment_start(),
                          record.summary, how, account});
}

void Simulation::ScheduleCompletion(JobIndex job, SimDuration run_time) {
  JobRecord& record = jobs_[job];
  const std::uint32_t generation = NewJobEvent(job);
  // Saturated: an absurd run time (a huge duration at a tiny speed) ends at the end of time.
  record.completes_at = run_time < kTimeNever - now_ ? now_ + run_time : kTimeNever - 1;
  Schedule(record.completes_at, Phase::kRelease,
           EventPayload::AboutJob(EventKind::kCompletion, job, generation));
}

// A job taking an emergency checkpoint is leaving anyway: preempting it changes nothing.
void Simulation::PreemptNow(const PreemptJob& preempt) {
  if (jobs_[preempt.job].leaving_since == kTimeNever) {
    StopNow(preempt.job, StopCause::kPolicy, preempt.reason);
  }
}

void Simulation::StopNow(JobIndex job, StopCause cause, const std::string& reason) {
  JobRecord& record = jobs_[job];
  const Keep keep = requests_[job].demand ? Keep::kAll : Keep::kSaved;
  SegmentAccount account;
  if (record.leaving_since == kTimeNever) {
    account = record.progress.EndSegment(now_, keep);
  } else {  // the emergency checkpoint did not finish: it saved nothing
    account = record.progress.EndSegment(record.leaving_since, keep);
    account.overhead += now_ - record.leaving_since;
  }
  Requeue(job, cause, reason, account, false);
}

void Simulation::Requeue(JobIndex job, StopCause cause, const std::string& reason,
                         const SegmentAccount& account, bool emergency_checkpoint) {
  JobRecord& record = jobs_[job];
  PublishSegmentEnd(job, SegmentEnd::kStopped, account);
  RemoveFromRunning(job);
  RetireJobEvent(job);
  ++record.generation;  // its completion (or leave) event is stale now
  record.state = JobState::kQueued;
  record.cap_step = -1;
  record.leaving_since = kTimeNever;
  queue_.Insert(job);
  changes_.preempted.push_back(job);
  RequestScheduling(now_);
  Publish(&SimulationObserver::OnJobPreempted,
          JobPreempted{now_, job, requests_[job], record.start, account.lost, reason, cause,
                       emergency_checkpoint});
}

std::string Simulation::Resize(ResizeJob& resize) {
  const JobIndex job = resize.job;
  if (std::string why = WhyNotResize(Named(job)); !why.empty()) {
    return why;
  }
  JobRecord& record = jobs_[job];
  const JobRequest& request = requests_[job];
  RunningJob& running = RunningOf(job);
  const auto held = static_cast<std::int64_t>(running.placement.gpus.size());
  const bool step_resized = request.demand && record.cap_step == request.demand->StepIndex(now_);
  if (std::string why = WhyNotSwap(request, step_resized ? record.cap_base_gpus : held,
                                   WholeGpuCount(resize.placement));
      !why.empty()) {
    return why;
  }
  ledger_.Release(running.placement);
  if (std::string why = CheckPlacement(ledger_, request, resize.placement); !why.empty()) {
    ledger_.Restore(running.placement);
    return why;
  }
  ledger_.Apply(resize.placement);
  if (request.demand && record.cap_step != request.demand->StepIndex(now_)) {
    record.cap_step = request.demand->StepIndex(now_);
    record.cap_base_gpus = held;
  }
  PublishSegmentEnd(job, SegmentEnd::kResized, record.progress.EndSegment(now_, Keep::kAll));
  running.placement = std::move(resize.placement);
  changes_.placements.push_back(running);
  BeginSegment(job, request.restart_cost, PauseKind::kReconfiguration);
  Publish(&SimulationObserver::OnJobResized,
          JobResized{now_, job, request, running.placement, record.summary});
  return "";
}

// ---- Nodes: spot notices and reclaims, waves, failures, repairs. ----

void Simulation::ScheduleNodeProcesses(NodeId node) {
  const std::uint32_t generation = node_generation_[node];
  if (const SimTime notice = processes_->NextSpotNotice(node, now_); notice != kTimeNever) {
    Schedule(notice, Phase::kFleet,
             EventPayload::AboutNode(EventKind::kSpotNotice, node, generation));
  }
  if (const SimTime failure = processes_->NextFailure(node, now_); failure != kTimeNever) {
    Schedule(failure, Phase::kFleet,
             EventPayload::AboutNode(EventKind::kFailure, node, generation));
  }
}

void Simulation::HandleSpotNotice(NodeId node, std::uint32_t generation) {
  if (generation != node_generation_[node] || !ledger_.state().IsUp(node)) {
    return;  // the node went down since, or a wave already announced it
  }
  GiveNotice(node, false);
}

void Simulation::ScheduleNextWave(PoolIndex pool) {
  if (const SimTime wave = processes_->NextWave(pool, now_); wave != kTimeNever) {
    Schedule(wave, Phase::kFleet, EventPayload::AboutPool(EventKind::kWave, pool));
  }
}

// A wave announces the reclaim of up to wave_nodes of the pool's up nodes at once.
void Simulation::HandleWave(PoolIndex pool) {
  std::vector<NodeId> up;
  const FleetState& state = ledger_.state();
  for (NodeId node = 0; node < node_generation_.size(); ++node) {
    if (ledger_.PoolOfNode(node) == pool && state.IsUp(node)) {
      up.push_back(node);
    }
  }
  for (const NodeId node : processes_->PickWaveNodes(pool, std::move(up))) {
    GiveNotice(node, true);
  }
  ScheduleNextWave(pool);
}

void Simulation::GiveNotice(NodeId node, bool wave) {
  const PoolSpec& pool = ledger_.pools()[ledger_.PoolOfNode(node)];
  const SimTime reclaim_at = now_ + pool.spot.notice;
  ledger_.SetNodeAvailability(node, NodeAvailability::kCordoned,
                              reclaim_at + pool.spot.replacement_delay);
  changes_.nodes_changed.push_back(node);
  RequestScheduling(now_);
  Publish(&SimulationObserver::OnNodeNoticed,
          NodeNoticed{now_, node, ledger_.PoolOfNode(node), reclaim_at, wave});
  for (const JobIndex job : JobsOn(node)) {
    JobRecord& record = jobs_[job];
    const SimDuration cost = record.checkpoints.cost;
    const bool can_save = record.checkpoints.interval > 0 && cost <= pool.spot.notice;
    if (!can_save || record.leaving_since != kTimeNever || record.completes_at <= now_ + cost) {
      continue;  // runs on until the reclaim (or its finish), or is already leaving
    }
    record.leaving_since = now_;
    RunningOf(job).leaving = true;
    changes_.placements.push_back(RunningOf(job));
    const std::uint32_t job_generation = NewJobEvent(job);  // its completion is off
    Schedule(now_ + cost, Phase::kFleet,
             EventPayload::AboutJob(EventKind::kJobLeaves, job, job_generation));
  }
  Schedule(reclaim_at, Phase::kFleet,
           EventPayload::AboutNode(EventKind::kReclaim, node, node_generation_[node]));
}

void Simulation::HandleJobLeaves(JobIndex job, std::uint32_t generation) {
  JobRecord& record = jobs_[job];
  if (generation != record.generation) {
    return;  // stopped by a failure first
  }
  RetireJobEvent(job);
  SegmentAccount account = record.progress.EndSegment(record.leaving_since, Keep::kAll);
  account.overhead += now_ - record.leaving_since;
  Requeue(job, StopCause::kSpotReclaim, "spot reclaim (emergency checkpoint taken)", account, true);
}

void Simulation::HandleReclaim(NodeId node, std::uint32_t generation) {
  if (generation != node_generation_[node]) {
    return;  // it failed during the notice
  }
  for (const JobIndex job : JobsOn(node)) {
    StopNow(job, StopCause::kSpotReclaim, "spot reclaim");
  }
  const PoolSpec& pool = ledger_.pools()[ledger_.PoolOfNode(node)];
  TakeDown(node, NodeDownCause::kSpotReclaim, now_ + pool.spot.replacement_delay);
}

void Simulation::HandleFailure(NodeId node, std::uint32_t generation) {
  if (generation != node_generation_[node]) {
    return;  // the node was down in between
  }
  for (const JobIndex job : JobsOn(node)) {
    StopNow(job, StopCause::kHardwareFailure, "hardware failure");
  }
  const PoolSpec& pool = ledger_.pools()[ledger_.PoolOfNode(node)];
  TakeDown(node, NodeDownCause::kHardwareFailure, now_ + pool.failures.repair);
}

void Simulation::TakeDown(NodeId node, NodeDownCause cause, SimTime back_at) {
  const std::uint32_t generation = ++node_generation_[node];  // pending draws are off
  ledger_.SetNodeAvailability(node, NodeAvailability::kDown, back_at);
  changes_.nodes_changed.push_back(node);
  RequestScheduling(now_);
  Publish(&SimulationObserver::OnNodeWentDown,
          NodeWentDown{now_, node, ledger_.PoolOfNode(node), cause, back_at});
  if (back_at != kTimeNever) {
    Schedule(back_at, Phase::kFleet,
             EventPayload::AboutNode(EventKind::kNodeBack, node, generation));
  }
}

void Simulation::HandleNodeBack(NodeId node, std::uint32_t generation) {
  FLEETSIM_CHECK(generation == node_generation_[node], "a node came back twice");
  ledger_.SetNodeAvailability(node, NodeAvailability::kUp, 0);
  changes_.nodes_changed.push_back(node);
  RequestScheduling(now_);
  Publish(&SimulationObserver::OnNodeCameBack, NodeCameBack{now_, node, ledger_.PoolOfNode(node)});
  ScheduleNodeProcesses(node);
  autoscaler_->CameUp(node);
}

void Simulation::Autoscale() {
  if (!autoscaler_->any()) {
    return;
  }
  const Autoscaler::Moves moves = autoscaler_->Decide(now_, queue_, requests_);
  for (const NodeId node : moves.provision) {
    const SimTime back_at =
        now_ + ledger_.pools()[ledger_.PoolOfNode(node)].autoscale.provisioning_delay;
    ledger_.SetNodeAvailability(node, NodeAvailability::kDown, back_at);
    changes_.nodes_changed.push_back(node);
    Schedule(back_at, Phase::kFleet,
             EventPayload::AboutNode(EventKind::kNodeBack, node, node_generation_[node]));
  }
  for (const NodeId node : moves.release) {
    TakeDown(node, NodeDownCause::kReleased, kTimeNever);
  }
  if (moves.next_check != kTimeNever &&
      (autoscale_check_at_ == kTimeNever || moves.next_check < autoscale_check_at_)) {
    autoscale_check_at_ = moves.next_check;
    Schedule(moves.next_check, Phase::kFleet, EventPayload::About(EventKind::kAutoscale));
  }
}

std::vector<JobIndex> Simulation::JobsOn(NodeId node) const {
  const FleetState& state = ledger_.state();
  std::vector<JobIndex> jobs;
  for (const RunningJob& running : running_) {
    const bool on_node = std::any_of(running.placement.gpus.begin(), running.placement.gpus.end(),
                                     [&](const Grant& g) { return state.NodeOf(g.gpu) == node; }) ||
                         std::any_of(running.placement.nodes.begin(), running.placement.nodes.end(),
                                     [&](const NodeShare& share) { return share.node == node; });
    if (on_node) {
      jobs.push_back(running.job);
    }
  }
  std::sort(jobs.begin(), jobs.end());
  return jobs;
}

void Simulation::RejectNow(JobIndex job, RejectedBy by, const std::string& reason) {
  jobs_[job].state = JobState::kRejected;
  Publish(&SimulationObserver::OnJobRejected, JobRejected{now_, job, requests_[job], by, reason});
}

// After every event in debug builds and with `check_invariants`: every resource adds up, the
// whole-GPU view agrees with the fleet state (a GPU is free in it exactly when it can be taken
// whole) and with the pool counts, and no policy hold is left.
void Simulation::CheckInvariants() const {
  ledger_.state().CheckInvariants();
  FLEETSIM_CHECK(ledger_.whole().free_count() == ledger_.state().free_whole_gpus(),
                 "the whole-GPU view disagrees with the fleet state");
  std::int64_t free_in_pools = 0;
  for (PoolIndex pool = 0; pool < ledger_.pools().size(); ++pool) {
    free_in_pools += ledger_.FreeWholeIn(pool);
  }
  FLEETSIM_CHECK(free_in_pools == ledger_.whole().free_count(),
                 "the pools' free whole-GPU counts disagree with the whole-GPU view");
  FLEETSIM_CHECK(planner_.holds() == 0, "a policy's hold outlived its call");
}

}  // namespace fleetsim
