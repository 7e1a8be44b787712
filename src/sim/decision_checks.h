// What the engine checks of a policy's decision before applying it, beside its placement
// (start_check.h): the job it names exists and is in a state the decision applies to (a start or
// a rejection: queued; a preemption or a resize: running), rejections and preemptions give a
// reason, only preemptible jobs are preempted, a resize names a running job with a range of whole
// GPUs that is not leaving a node and keeps its swap cap, and a wake-up is in the future. Each
// check returns OK or the first problem, refused; the engine words the illegal-decision error
// around it with DescribeDecision.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "fleetsim/core/status.h"
#include "fleetsim/core/time.h"
#include "fleetsim/policy/policy.h"
#include "fleetsim/sim/simulation.h"

namespace fleetsim {

// The job a decision names, as the checks see it.
struct NamedJob {
  const JobRequest* request = nullptr;  // nullptr: there is no such job
  JobState state = JobState::kPending;
  bool leaving = false;  // taking an emergency checkpoint to leave a node being reclaimed
};

Status WhyNotStart(const NamedJob& job);
Status WhyNotReject(const NamedJob& job, const RejectJob& reject);
Status WhyNotPreempt(const NamedJob& job, const PreemptJob& preempt);
// Everything but the swap cap and the new placement.
Status WhyNotResize(const NamedJob& job);
Status WhyNotWake(const WakeAt& wake, SimTime now);

// A job with a demand curve and a swap cap ends each demand step holding at most swap_cap GPUs
// more or fewer than it held when the step began: `base_gpus` (what it held at the step's first
// resize, or what it holds now when this is the step's first).
Status WhyNotSwap(const JobRequest& request, std::int64_t base_gpus, std::int64_t new_gpus);

// A decision in words, as error messages show it: "start job 'a' on GPUs [0, 1]",
// "preempt job #7 (no such job) ('make room')", "wake at 0d 01:00:00.000", ...
std::string DescribeDecision(const Decision& decision, std::span<const JobRequest> requests);

// The whole-GPU grants of an allocation.
std::int64_t WholeGpuCount(const Allocation& allocation);

}  // namespace fleetsim
