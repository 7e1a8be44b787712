// The simulation loop, decision checking and the job life cycle.
#include "fleetsim/sim/simulation.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>

#include "fleetsim/core/check.h"
#include "sim/admission.h"
#include "sim/placement_facts.h"
#include "sim/start_check.h"

namespace fleetsim {

namespace {
// A policy that preempts is called again at the same instant to use what it freed; this bounds
// how often that can repeat before the run is stopped as a livelock.
constexpr std::int64_t kMaxCallsPerInstant = 1000;
}  // namespace

Simulation::Simulation(const FleetSpec& fleet, const Workload& workload,
                       std::unique_ptr<Policy> policy, std::string policy_name,
                       const SimulationOptions& options)
    : ledger_(fleet),
      planner_(ledger_),
      admission_(std::make_unique<Admission>(fleet, ledger_)),
      speed_(options.reference_gpu.value_or(GpuModel{}), options.speed),
      policy_(std::move(policy)),
      policy_name_(std::move(policy_name)),
      organization_(options.organization) {
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

void Simulation::Begin() {
  begun_ = true;
  for (JobIndex job = 0; job < requests_.size(); ++job) {
    events_.Schedule(requests_[job].submit, Phase::kArrival, {EventKind::kArrival, job});
  }
  Publish(&SimulationObserver::OnRunStarted,
          RunStarted{now_, ledger_.whole().capacity(), requests_, ledger_});
}

RunStatus Simulation::RunUntil(SimTime limit) {
  if (!begun_) {
    Begin();
  }
  while (true) {
    const std::optional<EventKey> next = events_.PeekKey();
    if (!next || next->time() > limit) {
      break;
    }
    const auto event = events_.Pop();
    FLEETSIM_CHECK(event->key.time() >= now_, "time went backwards");
    now_ = event->key.time();
    switch (event->payload.kind) {
      case EventKind::kArrival:
        HandleArrival(event->payload.job);
        break;
      case EventKind::kCompletion:
        HandleCompletion(event->payload.job, event->payload.generation);
        break;
      case EventKind::kSchedule:
        if (RunStatus status = HandleSchedule(); !status.ok) {
          return status;
        }
        break;
    }
#ifndef NDEBUG
    CheckInvariants();
#endif
  }
  if (!events_.PeekKey() && !queue_.empty()) {
    return DeadlockStatus();
  }
  if (limit != kTimeNever) {
    now_ = std::max(now_, limit);
  }
  return {};
}

RunStatus Simulation::DeadlockStatus() const {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < queue_.size() && i < 3; ++i) {
    names.push_back(fmt::format("'{}'", requests_[queue_[i]].id));
  }
  return {false,
          fmt::format("policy '{}' left {} admitted job(s) queued ({}{}) on an idle fleet at {} "
                      "with nothing left to happen: no arrival, completion or wake-up is "
                      "pending, so they would wait forever (deadlock). Every admitted job fits the "
                      "empty fleet; a policy must start it or reject it",
                      policy_name_, queue_.size(), fmt::join(names, ", "),
                      queue_.size() > names.size() ? ", ..." : "", FormatTime(now_))};
}

void Simulation::Finish() { Publish(&SimulationObserver::OnRunEnded, RunEnded{now_}); }

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
  queue_.push_back(job);
  changes_.submitted.push_back(job);
  RequestScheduling(now_);
}

void Simulation::HandleCompletion(JobIndex job, std::uint32_t generation) {
  JobRecord& record = jobs_[job];
  if (generation != record.generation) {
    return;  // the job was resized or preempted after this completion was scheduled
  }
  FLEETSIM_CHECK(record.state == JobState::kRunning, "completing a job that is not running");
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
  events_.Schedule(time, Phase::kSchedule, {EventKind::kSchedule, 0});
  schedule_pending_at_ = time;
}

RunStatus Simulation::HandleSchedule() {
  if (schedule_pending_at_ == now_) {
    schedule_pending_at_ = -1;
  }
  if (now_ == last_call_time_ && changes_.submitted.empty() && changes_.finished.empty() &&
      changes_.preempted.empty()) {
    return {};  // a wake-up at an instant the policy has already seen with nothing new
  }
  calls_this_instant_ = now_ == last_call_time_ ? calls_this_instant_ + 1 : 1;
  if (calls_this_instant_ > kMaxCallsPerInstant) {
    return {false, fmt::format("policy '{}' preempted jobs in each of {} calls at {} without "
                               "time moving on (livelock)",
                               policy_name_, kMaxCallsPerInstant, FormatTime(now_))};
  }
  last_call_time_ = now_;
  const ClusterView view(now_, ledger_, planner_, std::span(requests_).first(submitted_), queue_,
                         running_, changes_, organization_);
  std::vector<Decision> decisions = policy_->Decide(view);
  Publish(&SimulationObserver::OnPolicyCalled, PolicyCalled{now_, queue_.size(), decisions.size()});
  changes_ = {};
  RunStatus status;
  for (std::size_t i = 0; i < decisions.size() && status.ok; ++i) {
    status = ApplyDecision(decisions[i], i + 1);
  }
  planner_.Rollback();
  return status;
}

namespace {

std::string DescribeDecision(const Decision& decision, std::span<const JobRequest> requests) {
  const auto job_name = [&](JobIndex job) {
    return job < requests.size() ? fmt::format("'{}'", requests[job].id)
                                 : fmt::format("#{} (no such job)", job);
  };
  if (const auto* start = std::get_if<StartJob>(&decision)) {
    return fmt::format("start job {} on {}", job_name(start->job),
                       DescribeAllocation(start->placement));
  }
  if (const auto* reject = std::get_if<RejectJob>(&decision)) {
    return fmt::format("reject job {} ('{}')", job_name(reject->job), reject->reason);
  }
  if (const auto* preempt = std::get_if<PreemptJob>(&decision)) {
    return fmt::format("preempt job {} ('{}')", job_name(preempt->job), preempt->reason);
  }
  if (const auto* resize = std::get_if<ResizeJob>(&decision)) {
    return fmt::format("resize job {} to {}", job_name(resize->job),
                       DescribeAllocation(resize->placement));
  }
  return fmt::format("wake at {}", FormatTime(std::get<WakeAt>(decision).time));
}

std::int64_t WholeGpuCount(const Allocation& allocation) {
  return std::count_if(allocation.gpus.begin(), allocation.gpus.end(),
                       [](const Grant& g) { return g.kind == Grant::Kind::kWhole; });
}

const char* StateName(JobState state) {
  switch (state) {
    case JobState::kPending:
      return "not yet submitted";
    case JobState::kQueued:
      return "queued";
    case JobState::kRunning:
      return "already running";
    case JobState::kCompleted:
      return "already completed";
    case JobState::kRejected:
      return "already rejected";
  }
  return "?";
}

}  // namespace

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
    if (reject->job >= requests_.size()) {
      problem = "no such job";
    } else if (jobs_[reject->job].state != JobState::kQueued) {
      problem = fmt::format("the job is {}", StateName(jobs_[reject->job].state));
    } else if (reject->reason.empty()) {
      problem = "a rejection needs a reason";
    } else {
      RemoveFromQueue(reject->job);
      RejectNow(reject->job, RejectedBy::kPolicy, reject->reason);
    }
  } else if (const auto* preempt = std::get_if<PreemptJob>(&decision)) {
    problem = CheckPreempt(*preempt);
    if (problem.empty()) {
      PreemptNow(*preempt);
    }
  } else if (auto* resize = std::get_if<ResizeJob>(&decision)) {
    problem = Resize(*resize);
  } else {
    const SimTime wake = std::get<WakeAt>(decision).time;
    if (wake <= now_) {
      problem = "the wake-up time is not in the future";
    } else {
      events_.Schedule(wake, Phase::kSchedule, {EventKind::kSchedule, 0});
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

std::string Simulation::CheckStart(const StartJob& start, bool held) const {
  if (start.job >= requests_.size()) {
    return "no such job";
  }
  if (jobs_[start.job].state != JobState::kQueued) {
    return fmt::format("the job is {}", StateName(jobs_[start.job].state));
  }
  const JobRequest& request = requests_[start.job];
  return held ? CheckAgainstRequest(ledger_, request, start.placement)
              : CheckPlacement(ledger_, request, start.placement);
}

void Simulation::StartNow(StartJob& start, bool held) {
  RemoveFromQueue(start.job);
  JobRecord& record = jobs_[start.job];
  record.state = JobState::kRunning;
  record.start = now_;
  record.running_slot = running_.size();
  if (!held) {
    ledger_.Apply(start.placement);
  }
  const PlacementSummary summary = Summarize(ledger_, start.placement);
  const SimDuration full =
      RunTime(speed_, ledger_, requests_[start.job], truths_[start.job], start.placement, summary);
  running_.push_back({start.job, now_, std::move(start.placement)});
  ScheduleCompletion(start.job, record.progress.StartRun(now_, full));
  Publish(&SimulationObserver::OnJobStarted,
          JobStarted{now_, start.job, requests_[start.job], running_.back().placement, summary});
}

void Simulation::ScheduleCompletion(JobIndex job, SimDuration run_time) {
  const std::uint32_t generation = ++jobs_[job].generation;
  events_.Schedule(now_ + run_time, Phase::kRelease, {EventKind::kCompletion, job, generation});
}

std::string Simulation::CheckPreempt(const PreemptJob& preempt) const {
  if (preempt.job >= requests_.size()) {
    return "no such job";
  }
  if (jobs_[preempt.job].state != JobState::kRunning) {
    return fmt::format("the job is {}", StateName(jobs_[preempt.job].state));
  }
  if (!requests_[preempt.job].preemptible) {
    return "the job is not preemptible";
  }
  if (preempt.reason.empty()) {
    return "a preemption needs a reason";
  }
  return "";
}

void Simulation::PreemptNow(const PreemptJob& preempt) {
  const JobIndex job = preempt.job;
  JobRecord& record = jobs_[job];
  RemoveFromRunning(job);
  const SimDuration lost = record.progress.Preempt(now_, requests_[job].checkpoint_interval);
  ++record.generation;  // its completion event is stale now
  record.state = JobState::kQueued;
  record.cap_step = -1;
  ReturnToQueue(job);
  changes_.preempted.push_back(job);
  RequestScheduling(now_);
  Publish(&SimulationObserver::OnJobPreempted,
          JobPreempted{now_, job, requests_[job], record.start, lost, preempt.reason});
}

// Back in the queue at its place in submission order (the workload is sorted, so by index).
void Simulation::ReturnToQueue(JobIndex job) {
  queue_.insert(std::lower_bound(queue_.begin(), queue_.end(), job), job);
}

std::string Simulation::Resize(ResizeJob& resize) {
  const JobIndex job = resize.job;
  if (job >= requests_.size()) {
    return "no such job";
  }
  JobRecord& record = jobs_[job];
  if (record.state != JobState::kRunning) {
    return fmt::format("the job is {}", StateName(record.state));
  }
  const JobRequest& request = requests_[job];
  if (!request.IsElastic() || request.sharing != GpuSharing::kNone) {
    return "only jobs with a range of whole GPUs (gpus < max_gpus) can be resized";
  }
  RunningJob& running = RunningOf(job);
  const auto held = static_cast<std::int64_t>(running.placement.gpus.size());
  if (std::string why = CheckSwapCap(record, request, WholeGpuCount(resize.placement));
      !why.empty()) {
    return why;
  }
  ledger_.Release(running.placement);
  if (std::string why = CheckPlacement(ledger_, request, resize.placement); !why.empty()) {
    ledger_.Apply(running.placement);
    return why;
  }
  ledger_.Apply(resize.placement);
  if (request.demand && record.cap_step != request.demand->StepIndex(now_)) {
    record.cap_step = request.demand->StepIndex(now_);
    record.cap_base_gpus = held;
  }
  running.placement = std::move(resize.placement);
  const PlacementSummary summary = Summarize(ledger_, running.placement);
  const SimDuration full =
      RunTime(speed_, ledger_, request, truths_[job], running.placement, summary);
  ScheduleCompletion(job, record.progress.Resize(now_, full));
  Publish(&SimulationObserver::OnJobResized,
          JobResized{now_, job, request, running.placement, summary});
  return "";
}

// A job with a demand curve and a swap cap ends each demand step holding at most swap_cap GPUs
// more or fewer than it held when the step began.
std::string Simulation::CheckSwapCap(const JobRecord& record, const JobRequest& request,
                                     std::int64_t new_gpus) const {
  if (!request.demand || request.demand->swap_cap == 0) {
    return "";
  }
  const std::int64_t step = request.demand->StepIndex(now_);
  const std::int64_t base =
      record.cap_step == step
          ? record.cap_base_gpus
          : static_cast<std::int64_t>(running_[record.running_slot].placement.gpus.size());
  if (std::abs(new_gpus - base) > request.demand->swap_cap) {
    return fmt::format(
        "the job held {} GPUs when its demand step began and may change by at "
        "most swap_cap = {} GPUs per step, so {} GPUs is out of reach",
        base, request.demand->swap_cap, new_gpus);
  }
  return "";
}

void Simulation::RejectNow(JobIndex job, RejectedBy by, const std::string& reason) {
  jobs_[job].state = JobState::kRejected;
  Publish(&SimulationObserver::OnJobRejected, JobRejected{now_, job, requests_[job], by, reason});
}

// Debug builds, after every event: every resource adds up, the whole-GPU view agrees with the
// fleet state (a GPU is free in it exactly when it can be taken whole) and with the pool counts,
// and no policy hold is left.
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

void Simulation::RemoveFromQueue(JobIndex job) {
  const auto it = std::find(queue_.begin(), queue_.end(), job);
  FLEETSIM_CHECK(it != queue_.end(), "a queued job is missing from the queue");
  queue_.erase(it);
}

}  // namespace fleetsim
