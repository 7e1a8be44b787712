// The policy interface. A policy reads a ClusterView (queries, nothing it can change) and returns
// decisions; it never touches engine state. Its one scratch pad is the PlacementPlanner it is
// given: placements it holds there show in the view as taken for the rest of the call, so several
// starts of one call do not collide, and the engine undoes every hold after the call. The engine
// checks every decision against the job's request and the fleet before applying it, and stops
// the run with an error naming the policy and the decision when one is illegal. Decisions are
// applied in the order returned. docs/writing-a-policy.md is the guide.
// Policies are owned by one simulation; they may keep state between calls.
#pragma once

#include <span>
#include <string>
#include <variant>
#include <vector>

#include "fleetsim/policy/cluster_view.h"
#include "fleetsim/policy/placement_choice.h"

namespace fleetsim {

// Start a queued job now with this placement: whole GPUs, one MIG instance or one fractional
// share, plus the job's host CPU and memory per node (rules: placement_rules.h).
struct StartJob {
  JobIndex job = 0;
  Allocation placement;
};

// Refuse a queued job for good; the reason is recorded in the results.
struct RejectJob {
  JobIndex job = 0;
  std::string reason;
};

// Call the policy again at `time` (> now) even if nothing else happens.
struct WakeAt {
  SimTime time = 0;
};

// Stop a running job whose request is `preemptible` and put it back in the queue (in submission
// order). The work done since its last checkpoint is lost (all of it without checkpoints); when
// it starts again it resumes from there. The reason is recorded.
struct PreemptJob {
  JobIndex job = 0;
  std::string reason;
};

// Replace what a running job holds with `placement`. Only for jobs with a size range
// (gpus < max_gpus) that take whole GPUs; the new placement must satisfy the request like a start
// (count in range, block, models, NVLink, host share) and may reuse the job's own GPUs. A job
// with a demand curve and a swap cap may end a step holding at most swap_cap GPUs more or fewer
// than it held when the step began. A job given work keeps the work it has left, which then runs
// at the speed of the new placement.
struct ResizeJob {
  JobIndex job = 0;
  Allocation placement;
};

using Decision = std::variant<StartJob, RejectJob, WakeAt, PreemptJob, ResizeJob>;

class Policy {
 public:
  virtual ~Policy() = default;
  // `planner` places requests on what is free now and holds them for the rest of the call.
  virtual std::vector<Decision> Decide(const ClusterView& view, PlacementPlanner& planner) = 0;
  // Asked after every Decide: why that call gave no decisions the engine can check, for a policy
  // that can fail that way (one written in Python that raised, overran its call budget or
  // returned something that is not a decision: python/python_policy.h). The engine then stops
  // the run with an illegal-decision error naming the policy and the call. The built-in policies
  // never fail.
  virtual Status TakeFailure() { return Status::Ok(); }
};

// An allocation of these GPUs, whole, with no host share.
Allocation WholeGpus(std::span<const GpuId> gpus);

// A placement in words, as error messages and logs show it: "GPUs [0, 1]",
// "MIG 3g.40gb at slice 4 of GPU 3", "500 milli-GPU and 10 GB of GPU 3",
// "node 2 (4 CPU cores, 16 GB)", joined by " + "; "nothing" when empty.
std::string DescribeAllocation(const Allocation& allocation);

}  // namespace fleetsim
