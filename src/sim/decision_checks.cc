// The engine's checks of a decision's job, reason and timing, and the decision in words.
#include "sim/decision_checks.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

namespace fleetsim {

namespace {

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

// OK when the job exists and is in `state`.
Status WhyNotIn(const NamedJob& job, JobState state) {
  if (job.request == nullptr) {
    return Status::Refused("no such job");
  }
  if (job.state != state) {
    return Status::Refused(fmt::format("the job is {}", StateName(job.state)));
  }
  return Status::Ok();
}

}  // namespace

Status WhyNotStart(const NamedJob& job) { return WhyNotIn(job, JobState::kQueued); }

Status WhyNotReject(const NamedJob& job, const RejectJob& reject) {
  if (Status status = WhyNotIn(job, JobState::kQueued); !status.ok()) {
    return status;
  }
  return reject.reason.empty() ? Status::Refused("a rejection needs a reason") : Status::Ok();
}

Status WhyNotPreempt(const NamedJob& job, const PreemptJob& preempt) {
  if (Status status = WhyNotIn(job, JobState::kRunning); !status.ok()) {
    return status;
  }
  if (!job.request->preemptible) {
    return Status::Refused("the job is not preemptible");
  }
  return preempt.reason.empty() ? Status::Refused("a preemption needs a reason") : Status::Ok();
}

Status WhyNotResize(const NamedJob& job) {
  if (Status status = WhyNotIn(job, JobState::kRunning); !status.ok()) {
    return status;
  }
  if (job.leaving) {
    return Status::Refused(
        "the job is taking an emergency checkpoint to leave a node being reclaimed");
  }
  if (!job.request->IsElastic() || job.request->sharing != GpuSharing::kNone) {
    return Status::Refused("only jobs with a range of whole GPUs (gpus < max_gpus) can be resized");
  }
  return Status::Ok();
}

Status WhyNotWake(const WakeAt& wake, SimTime now) {
  if (wake.time <= now) {
    return Status::Refused("the wake-up time is not in the future");
  }
  // Times stay in the range every input is held to, so GPU-time products fit in 64 bits.
  if (wake.time > SecondsToTime(kMaxScenarioSeconds)) {
    return Status::Refused(fmt::format("the wake-up time {} is beyond the simulator's range ({})",
                                       wake.time, FormatTime(SecondsToTime(kMaxScenarioSeconds))));
  }
  return Status::Ok();
}

Status WhyNotSwap(const JobRequest& request, std::int64_t base_gpus, std::int64_t new_gpus) {
  if (!request.demand || request.demand->swap_cap == 0 ||
      std::abs(new_gpus - base_gpus) <= request.demand->swap_cap) {
    return Status::Ok();
  }
  return Status::Refused(
      fmt::format("the job held {} GPUs when its demand step began and may change by at "
                  "most swap_cap = {} GPUs per step, so {} GPUs is out of reach",
                  base_gpus, request.demand->swap_cap, new_gpus));
}

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

}  // namespace fleetsim
