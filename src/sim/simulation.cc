// The simulation loop, the application of decisions (decision_checks.h and start_check.h check
// them) and the job life cycle.
#include "fleetsim/sim/simulation.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <utility>

#include "fleetsim/core/check.h"
#include "sim/admission.h"
#include "sim/decision_checks.h"
#include "sim/node_lifecycle.h"
#include "sim/nodes_at_start.h"
#include "sim/placement_facts.h"
#include "sim/policy_channel.h"
#include "sim/start_check.h"

namespace fleetsim {

namespace {
#ifdef NDEBUG
constexpr bool kDebugBuild = false;
#else
constexpr bool kDebugBuild = true;  // invariants are checked after every event
#endif
}  // namespace

// What NodeLifecycle reaches of the run: the jobs on a node, stopping them or letting them leave,
// the event queue and the policy's changes.
class Simulation::NodeRun final : public NodeLifecycle::Run {
 public:
  explicit NodeRun(Simulation& sim) : sim_(sim) {}
  SimTime now() const override { return sim_.now_; }
  const JobQueue& queue() const override { return sim_.queue_; }
  std::span<const JobRequest> requests() const override { return sim_.requests_; }
  std::vector<JobIndex> JobsOn(NodeId node) const override { return sim_.JobsOn(node); }
  void StopJob(JobIndex job, StopCause cause, const std::string& reason) override {
    sim_.StopNow(job, cause, reason);
  }
  void MayLeave(JobIndex job, SimDuration notice) override { sim_.MayLeave(job, notice); }
  void ScheduleNodeEvent(SimTime time, NodeEvent event, std::uint32_t subject,
                         std::uint32_t generation) override {
    sim_.Schedule(time, Phase::kFleet, EventPayload::AboutNode(event, subject, generation));
  }
  void NodeChanged(NodeId node, bool call_now) override {
    sim_.channel_->NoteNodeChanged(node);
    if (call_now) {
      sim_.RequestScheduling(sim_.now_);
    }
  }

 private:
  Simulation& sim_;
};

Simulation::Simulation(const FleetSpec& fleet, const Workload& workload,
                       std::unique_ptr<Policy> policy, std::string policy_name,
                       const SimulationOptions& options)
    : ledger_(fleet),
      channel_(std::make_unique<PolicyChannel>(ledger_, std::move(policy), std::move(policy_name),
                                               options.organization)),
      admission_(std::make_unique<Admission>(fleet, ledger_)),
      speed_(options.reference_gpu.value_or(GpuModel{}), options.speed),
      check_invariants_(options.check_invariants || kDebugBuild),
      node_run_(std::make_unique<NodeRun>(*this)),
      nodes_(std::make_unique<NodeLifecycle>(ledger_, options.seed, *node_run_, observers_)) {
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

Simulation::EventPayload Simulation::EventPayload::Call() {
  return {EventKind::kSchedule, 0, 0, 0};
}

Simulation::EventPayload Simulation::EventPayload::AboutJob(EventKind kind, JobIndex job,
                                                            std::uint32_t generation) {
  FLEETSIM_CHECK(IsAboutJob(kind), "a job event of a kind that is not about a job");
  return {kind, 0, job, generation};
}

Simulation::EventPayload Simulation::EventPayload::AboutNode(NodeEvent event, std::uint32_t subject,
                                                             std::uint32_t generation) {
  return {EventKind::kNode, static_cast<std::uint8_t>(event), subject, generation};
}

JobIndex Simulation::EventPayload::job() const {
  FLEETSIM_CHECK(IsAboutJob(kind_), "the job of an event that is not about a job");
  return subject_;
}

NodeEvent Simulation::EventPayload::node_event() const {
  FLEETSIM_CHECK(kind_ == EventKind::kNode, "the node event of an event that is not one");
  return static_cast<NodeEvent>(node_event_);
}

std::uint32_t Simulation::EventPayload::node_subject() const {
  FLEETSIM_CHECK(kind_ == EventKind::kNode, "the node or pool of an event that is not about one");
  return subject_;
}

void Simulation::Schedule(SimTime time, Phase phase, EventPayload payload) {
  CountPending(payload, 1);
  events_.Schedule(time, phase, payload);
}

void Simulation::CountPending(const EventPayload& payload, std::int64_t change) {
  switch (payload.kind()) {
    case EventKind::kArrival:
      pending_job_events_ += change;
      break;
    case EventKind::kSchedule:
      pending_calls_ += change;
      break;
    case EventKind::kCompletion:
    case EventKind::kJobLeaves:
      break;  // counted while live (NewJobEvent, RetireJobEvent): stale ones keep nothing alive
    case EventKind::kNode:
      // Reclaims and nodes back bring capacity back; the processes go on forever, and an idle
      // node's release brings nothing back.
      if (payload.node_event() == NodeEvent::kReclaim ||
          payload.node_event() == NodeEvent::kNodeBack) {
        pending_node_returns_ += change;
      }
      break;
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
  nodes_->ScheduleProcesses();
  const std::vector<NodeAtStart> nodes = NodesAtStart(ledger_);
  Publish(&SimulationObserver::OnRunStarted,
          RunStarted{now_, ledger_.whole().capacity(), requests_, ledger_.pools(), nodes});
  nodes_->ReleaseUnneeded();
}

Status Simulation::RunUntil(SimTime limit) {
  if (Status status = ProcessEvents(limit, limit == kTimeNever); !status.ok()) {
    return status;
  }
  if (limit != kTimeNever) {
    now_ = std::max(now_, limit);
  }
  return Status::Ok();
}

Status Simulation::RunUntilOrIdle(SimTime limit) { return ProcessEvents(limit, true); }

Status Simulation::ProcessEvents(SimTime limit, bool stop_when_idle) {
  if (!begun_) {
    Begin();
  }
  while (true) {
    const std::optional<EventKey> next = events_.PeekKey();
    if (!next || next->time() > limit ||
        (stop_when_idle && !AnyJobLeft() && pending_job_events_ == 0 &&
         (pending_calls_ == 0 || next->time() > now_))) {
      break;
    }
    if (Deadlocked()) {  // only the processes are left, and they would never start the queue
      return DeadlockStatus();
    }
    const auto event = events_.Pop();
    FLEETSIM_CHECK(event->key.time() >= now_, "time went backwards");
    now_ = event->key.time();
    CountPending(event->payload, -1);
    if (Status status = Dispatch(event->payload); !status.ok()) {
      return status;
    }
    if (check_invariants_) {
      CheckInvariants();
    }
  }
  if (Deadlocked()) {
    return DeadlockStatus();
  }
  return Status::Ok();
}

Status Simulation::Dispatch(const EventPayload& payload) {
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
    case EventKind::kNode:
      nodes_->Handle(payload.node_event(), payload.node_subject(), payload.generation());
      break;
  }
  return Status::Ok();
}

bool Simulation::Deadlocked() const {
  return !queue_.empty() && pending_job_events_ == 0 && pending_calls_ == 0 &&
         pending_node_returns_ == 0;
}

Status Simulation::DeadlockStatus() const {
  std::vector<std::string> names;
  for (const JobIndex job : queue_) {
    if (names.size() == 3) {
      break;
    }
    names.push_back(fmt::format("'{}'", requests_[job].id));
  }
  return Status::IllegalDecision(
      fmt::format("policy '{}' left {} admitted job(s) queued ({}{}) on an idle fleet at {} "
                  "with nothing left to happen: no arrival, completion, wake-up or node "
                  "coming back is pending, so they would wait forever (deadlock). Every "
                  "admitted job fits the empty fleet; a policy must start it or reject it",
                  channel_->policy_name(), queue_.size(), fmt::join(names, ", "),
                  queue_.size() > names.size() ? ", ..." : "", FormatTime(now_)));
}

void Simulation::Finish() {
  if (!begun_) {
    Begin();  // a run ended before its first event: its observers still see it start
  }
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
  if (const Status admissible = admission_->CheckAdmissible(request, truths_[job]);
      !admissible.ok()) {
    RejectNow(job, RejectedBy::kAdmission, admissible.message());
    return;
  }
  ledger_.NoteSubmitted(request);  // the typical tasks of the share-fgd placement rule
  queue_.PushBack(job);
  channel_->NoteSubmitted(job);
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
  channel_->NoteFinished(job);
  Publish(&SimulationObserver::OnJobFinished, JobFinished{now_, job, requests_[job], record.start});
  RequestScheduling(now_);
}

// Swap-remove from running_ (keeping running_slot indices right) and release the placement.
void Simulation::RemoveFromRunning(JobIndex job) {
  const std::size_t index = jobs_[job].running_slot;
  RunningJob& slot = running_[index];
  ledger_.Release(slot.placement);
  channel_->NotePlacement({.job = job, .start = slot.start, .placement = {}});
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
  Schedule(time, Phase::kSchedule, EventPayload::Call());
  schedule_pending_at_ = time;
}

Status Simulation::HandleSchedule() {
  if (schedule_pending_at_ == now_) {
    schedule_pending_at_ = -1;
  }
  if (!channel_->Due(now_)) {
    return Status::Ok();  // a wake-up at an instant the policy has already seen with nothing new
  }
  std::vector<Decision> decisions;
  const JobsAtCall jobs{std::span(requests_).first(submitted_), queue_, running_};
  if (Status status = channel_->Call(now_, jobs, decisions); !status.ok()) {
    return status;
  }
  Publish(&SimulationObserver::OnPolicyCalled, PolicyCalled{now_, queue_.size(), decisions.size()});
  Status status;
  for (std::size_t i = 0; i < decisions.size() && status.ok(); ++i) {
    status = ApplyDecision(decisions[i], i + 1);
  }
  channel_->Rollback();
  if (status.ok()) {
    nodes_->Autoscale();
  }
  return status;
}

Status Simulation::ApplyDecision(Decision& decision, std::size_t number) {
  Status problem;
  if (auto* start = std::get_if<StartJob>(&decision)) {
    const bool held = channel_->TakeOver(start->placement);
    problem = CheckStart(*start, held);
    if (problem.ok()) {
      StartNow(*start, held);
    } else if (held) {
      ledger_.Release(start->placement);
    }
  } else if (const auto* reject = std::get_if<RejectJob>(&decision)) {
    problem = WhyNotReject(Named(reject->job), *reject);
    if (problem.ok()) {
      queue_.Remove(reject->job);
      RejectNow(reject->job, RejectedBy::kPolicy, reject->reason);
    }
  } else if (const auto* preempt = std::get_if<PreemptJob>(&decision)) {
    problem = WhyNotPreempt(Named(preempt->job), *preempt);
    if (problem.ok()) {
      PreemptNow(*preempt);
    }
  } else if (auto* resize = std::get_if<ResizeJob>(&decision)) {
    problem = Resize(*resize);
  } else {
    const WakeAt wake = std::get<WakeAt>(decision);
    problem = WhyNotWake(wake, now_);
    if (problem.ok()) {
      Schedule(wake.time, Phase::kSchedule, EventPayload::Call());
    }
  }
  if (problem.ok()) {
    return Status::Ok();
  }
  return Status::IllegalDecision(
      fmt::format("policy '{}' made an illegal decision at {} (decision {} of this call): {}: {}",
                  channel_->policy_name(), FormatTime(now_), number,
                  DescribeDecision(decision, requests_), problem.message()));
}

NamedJob Simulation::Named(JobIndex job) const {
  if (job >= requests_.size()) {
    return {};
  }
  return {.request = &requests_[job],
          .state = jobs_[job].state,
          .leaving = jobs_[job].leaving_since != kTimeNever};
}

Status Simulation::CheckStart(const StartJob& start, bool held) const {
  if (Status status = WhyNotStart(Named(start.job)); !status.ok()) {
    return status;
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
  channel_->NotePlacement(running_.back());
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
  channel_->NotePreempted(job);
  RequestScheduling(now_);
  Publish(&SimulationObserver::OnJobPreempted,
          JobPreempted{now_, job, requests_[job], record.start, account.lost, reason, cause,
                       emergency_checkpoint});
}

Status Simulation::Resize(ResizeJob& resize) {
  const JobIndex job = resize.job;
  if (Status status = WhyNotResize(Named(job)); !status.ok()) {
    return status;
  }
  JobRecord& record = jobs_[job];
  const JobRequest& request = requests_[job];
  RunningJob& running = RunningOf(job);
  const auto held = static_cast<std::int64_t>(running.placement.gpus.size());
  const bool step_resized = request.demand && record.cap_step == request.demand->StepIndex(now_);
  if (Status status = WhyNotSwap(request, step_resized ? record.cap_base_gpus : held,
                                 WholeGpuCount(resize.placement));
      !status.ok()) {
    return status;
  }
  ledger_.Release(running.placement);
  if (Status status = CheckPlacement(ledger_, request, resize.placement); !status.ok()) {
    ledger_.Restore(running.placement);
    return status;
  }
  ledger_.Apply(resize.placement);
  if (request.demand && record.cap_step != request.demand->StepIndex(now_)) {
    record.cap_step = request.demand->StepIndex(now_);
    record.cap_base_gpus = held;
  }
  PublishSegmentEnd(job, SegmentEnd::kResized, record.progress.EndSegment(now_, Keep::kAll));
  running.placement = std::move(resize.placement);
  channel_->NotePlacement(running);
  BeginSegment(job, request.restart_cost, PauseKind::kReconfiguration);
  Publish(&SimulationObserver::OnJobResized,
          JobResized{now_, job, request, running.placement, record.summary});
  return Status::Ok();
}

// ---- What node events do to jobs (sim/node_lifecycle.h has the events). ----

void Simulation::MayLeave(JobIndex job, SimDuration notice) {
  JobRecord& record = jobs_[job];
  const SimDuration cost = record.checkpoints.cost;
  const bool can_save = record.checkpoints.interval > 0 && cost <= notice;
  if (!can_save || record.leaving_since != kTimeNever || record.completes_at <= now_ + cost) {
    return;  // runs on until the reclaim (or its finish), or is already leaving
  }
  record.leaving_since = now_;
  RunningOf(job).leaving = true;
  channel_->NotePlacement(RunningOf(job));
  const std::uint32_t job_generation = NewJobEvent(job);  // its completion is off
  Schedule(now_ + cost, Phase::kFleet,
           EventPayload::AboutJob(EventKind::kJobLeaves, job, job_generation));
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
  FLEETSIM_CHECK(channel_->holds() == 0, "a policy's hold outlived its call");
}

}  // namespace fleetsim
