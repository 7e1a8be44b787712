// The simulation loop, decision checking and the job life cycle.
#include "fleetsim/sim/simulation.h"

#include <fmt/format.h>

#include <algorithm>

#include "fleetsim/core/check.h"
#include "sim/admission.h"
#include "sim/placement_facts.h"
#include "sim/start_check.h"

namespace fleetsim {

Simulation::Simulation(const FleetSpec& fleet, const Workload& workload,
                       std::unique_ptr<Policy> policy, std::string policy_name,
                       const SimulationOptions& options)
    : ledger_(fleet),
      planner_(ledger_),
      admission_(std::make_unique<Admission>(fleet, ledger_)),
      speed_(options.reference_gpu.value_or(GpuModel{}), options.speed),
      policy_(std::move(policy)),
      policy_name_(std::move(policy_name)) {
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
          RunStarted{now_, ledger_.whole().capacity(), requests_});
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
        HandleCompletion(event->payload.job);
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
  if (limit != kTimeNever) {
    now_ = std::max(now_, limit);
  }
  return {};
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

void Simulation::HandleCompletion(JobIndex job) {
  JobRecord& record = jobs_[job];
  FLEETSIM_CHECK(record.state == JobState::kRunning, "completing a job that is not running");
  // Swap-remove from running_, keeping running_slot indices right.
  RunningJob& slot = running_[record.running_slot];
  ledger_.Release(slot.placement);
  if (record.running_slot != running_.size() - 1) {
    slot = std::move(running_.back());
    jobs_[slot.job].running_slot = record.running_slot;
  }
  running_.pop_back();
  record.state = JobState::kCompleted;
  changes_.finished.push_back(job);
  Publish(&SimulationObserver::OnJobFinished, JobFinished{now_, job, requests_[job], record.start});
  RequestScheduling(now_);
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
  if (now_ == last_call_time_ && changes_.submitted.empty() && changes_.finished.empty()) {
    return {};  // a wake-up at an instant the policy has already seen with nothing new
  }
  last_call_time_ = now_;
  const ClusterView view(now_, ledger_, planner_, std::span(requests_).first(submitted_), queue_,
                         running_, changes_);
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
  return fmt::format("wake at {}", FormatTime(std::get<WakeAt>(decision).time));
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
  const SimDuration run_time =
      RunTime(speed_, ledger_, requests_[start.job], truths_[start.job], start.placement, summary);
  running_.push_back({start.job, now_, std::move(start.placement)});
  events_.Schedule(now_ + run_time, Phase::kRelease, {EventKind::kCompletion, start.job});
  Publish(&SimulationObserver::OnJobStarted,
          JobStarted{now_, start.job, requests_[start.job], running_.back().placement, summary});
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
