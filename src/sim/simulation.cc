// The simulation loop, decision checking and the job life cycle.
#include "fleetsim/sim/simulation.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <unordered_set>

#include "fleetsim/core/check.h"

namespace fleetsim {

namespace {

Allocation WholeGpus(std::span<const GpuId> gpus) {
  Allocation allocation;
  for (const GpuId gpu : gpus) {
    allocation.gpus.push_back(Grant::Whole(gpu));
  }
  return allocation;
}

}  // namespace

Simulation::Simulation(const FleetSpec& fleet, const Workload& workload,
                       std::unique_ptr<Policy> policy, std::string policy_name)
    : topology_(fleet),
      fleet_state_(fleet, topology_),
      whole_gpus_(fleet),
      policy_(std::move(policy)),
      policy_name_(std::move(policy_name)) {
  // GPUs that can never be taken whole (static MIG layouts) are shown to policies as busy.
  std::vector<GpuId> partitioned;
  for (GpuId gpu = 0; gpu < fleet_state_.gpus(); ++gpu) {
    if (!fleet_state_.CanTakeWhole(gpu)) {
      partitioned.push_back(gpu);
    }
  }
  whole_gpus_.Allocate(partitioned);
  wholeable_gpus_ = whole_gpus_.free_count();
  FLEETSIM_CHECK(policy_ != nullptr, "a simulation needs a policy");
  requests_.reserve(workload.jobs.size());
  truths_.reserve(workload.jobs.size());
  for (const Job& job : workload.jobs) {
    FLEETSIM_CHECK(job.truth.duration > 0, "job durations must be positive");
    FLEETSIM_CHECK(requests_.empty() || requests_.back().submit <= job.request.submit,
                   "the workload must be sorted by submit time (SortBySubmit)");
    requests_.push_back(job.request);
    truths_.push_back(job.truth);
  }
  jobs_.resize(requests_.size());
  events_.Reserve(requests_.size() + 16);
}

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
  Publish(&SimulationObserver::OnRunStarted, RunStarted{now_, whole_gpus_.capacity(), requests_});
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
  if (request.gpus > wholeable_gpus_) {
    const std::int64_t partitioned = whole_gpus_.capacity() - wholeable_gpus_;
    RejectNow(
        job, RejectedBy::kAdmission,
        partitioned == 0
            ? fmt::format("needs {} GPUs; the whole fleet has {}", request.gpus, wholeable_gpus_)
            : fmt::format("needs {} GPUs; the fleet has {} that can be allocated whole "
                          "({} more are MIG-partitioned)",
                          request.gpus, wholeable_gpus_, partitioned));
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
  fleet_state_.Release(WholeGpus(slot.gpus));
  whole_gpus_.Release(slot.gpus);
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
  const ClusterView view(now_, whole_gpus_, topology_, fleet_state_,
                         std::span(requests_).first(submitted_), queue_, running_, changes_);
  const std::vector<Decision> decisions = policy_->Decide(view);
  Publish(&SimulationObserver::OnPolicyCalled, PolicyCalled{now_, queue_.size(), decisions.size()});
  changes_ = {};
  for (std::size_t i = 0; i < decisions.size(); ++i) {
    if (RunStatus status = ApplyDecision(decisions[i], i + 1); !status.ok) {
      return status;
    }
  }
  return {};
}

namespace {

std::string DescribeDecision(const Decision& decision, std::span<const JobRequest> requests) {
  const auto job_name = [&](JobIndex job) {
    return job < requests.size() ? fmt::format("'{}'", requests[job].id)
                                 : fmt::format("#{} (no such job)", job);
  };
  if (const auto* start = std::get_if<StartJob>(&decision)) {
    return fmt::format("start job {} on GPUs [{}]", job_name(start->job),
                       fmt::join(start->gpus, ", "));
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

RunStatus Simulation::ApplyDecision(const Decision& decision, std::size_t number) {
  std::string problem;
  if (const auto* start = std::get_if<StartJob>(&decision)) {
    problem = CheckStart(*start);
    if (problem.empty()) {
      StartNow(*start);
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

std::string Simulation::CheckStart(const StartJob& start) const {
  if (start.job >= requests_.size()) {
    return "no such job";
  }
  if (jobs_[start.job].state != JobState::kQueued) {
    return fmt::format("the job is {}", StateName(jobs_[start.job].state));
  }
  const std::int64_t need = requests_[start.job].gpus;
  if (static_cast<std::int64_t>(start.gpus.size()) != need) {
    return fmt::format("the job needs {} GPUs, the placement has {}", need, start.gpus.size());
  }
  std::unordered_set<GpuId> seen;
  for (const GpuId gpu : start.gpus) {
    if (!whole_gpus_.IsValid(gpu)) {
      return fmt::format("GPU {} does not exist (the fleet has GPUs 0..{})", gpu,
                         whole_gpus_.capacity() - 1);
    }
    if (!seen.insert(gpu).second) {
      return fmt::format("GPU {} is listed twice", gpu);
    }
    if (fleet_state_.IsHeldWhole(gpu)) {
      return fmt::format("GPU {} is busy", gpu);
    }
  }
  return fleet_state_.WhyNot(WholeGpus(start.gpus));
}

void Simulation::StartNow(const StartJob& start) {
  RemoveFromQueue(start.job);
  JobRecord& record = jobs_[start.job];
  record.state = JobState::kRunning;
  record.start = now_;
  record.running_slot = running_.size();
  fleet_state_.Apply(WholeGpus(start.gpus));
  whole_gpus_.Allocate(start.gpus);
  running_.push_back({start.job, now_, start.gpus});
  events_.Schedule(now_ + truths_[start.job].duration, Phase::kRelease,
                   {EventKind::kCompletion, start.job});
  Publish(&SimulationObserver::OnJobStarted,
          JobStarted{now_, start.job, requests_[start.job], start.gpus});
}

void Simulation::RejectNow(JobIndex job, RejectedBy by, const std::string& reason) {
  jobs_[job].state = JobState::kRejected;
  Publish(&SimulationObserver::OnJobRejected, JobRejected{now_, job, requests_[job], by, reason});
}

// Debug builds, after every event: every resource adds up, and the whole-GPU view agrees with
// the fleet state (a GPU is free in it exactly when it can be taken whole).
void Simulation::CheckInvariants() const {
  fleet_state_.CheckInvariants();
  FLEETSIM_CHECK(whole_gpus_.free_count() == fleet_state_.free_whole_gpus(),
                 "the whole-GPU view disagrees with the fleet state");
}

void Simulation::RemoveFromQueue(JobIndex job) {
  const auto it = std::find(queue_.begin(), queue_.end(), job);
  FLEETSIM_CHECK(it != queue_.end(), "a queued job is missing from the queue");
  queue_.erase(it);
}

}  // namespace fleetsim
