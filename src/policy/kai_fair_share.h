// KAI Scheduler's hierarchical queues (NVIDIA/KAI-Scheduler docs/fairness, docs/queues), as pure
// functions the fair-share policy composes and tests check on worked examples:
//  - KaiFairShares divides the fleet's GPUs over a queue tree, top-down: at each level every
//    queue first gets its deserved quota, min(quota, requested); what is left of the parent's
//    share then goes to the queues by over-quota priority, highest level first, and within a
//    level in proportion to over_quota_weight, never past a queue's limit or remaining request;
//  - ChooseReclaimVictims picks running preemptible jobs of other queues to free GPUs for a
//    starved job: strategy 1 (fair-share reclaim) lets a queue take from a sibling whose
//    saturation (allocated / fair share) stays at least the reclaimer's times
//    reclaimerUtilizationMultiplier after the transfer, and never below the victim's fair share;
//    strategy 2 (quota reclaim) lets a queue that stays within its quota take from one that
//    stays at or above its own. Victims: most saturated queue first, then lowest priority, then
//    newest.
// GPU amounts are doubles (a fractional share or MIG instance counts as part of a GPU).
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "fleetsim/core/time.h"
#include "fleetsim/workload/job.h"

namespace fleetsim {

inline constexpr double kKaiUnlimited = -1;

// One queue of the tree.
struct KaiQueue {
  int parent = -1;               // index of the parent queue; -1: a top-level queue
  double quota = 0;              // deserved GPUs; kKaiUnlimited: all it requests
  double over_quota_weight = 1;  // share of what is left beyond quotas, >= 0
  double limit = kKaiUnlimited;  // most GPUs it may hold; kKaiUnlimited: no limit
  std::int64_t priority = 0;     // over-quota priority: higher levels are served first
  double requested = 0;          // GPUs its own jobs hold or wait for (not its children's)
};

// The fair share of every queue when `total` GPUs are divided. A queue's request includes its
// descendants' (capped by its limit). When the deserved quotas of siblings exceed what their
// parent has, each gets the same fraction of its deserved quota.
std::vector<double> KaiFairShares(const std::vector<KaiQueue>& queues, double total);

// Each queue's request: its own plus its descendants', capped by its limit.
std::vector<double> KaiSubtreeRequests(const std::vector<KaiQueue>& queues);

// A running job that could be preempted.
struct ReclaimCandidate {
  JobIndex job = 0;
  int queue = 0;  // the queue it is charged to
  double gpus = 0;
  std::int64_t priority = 1;
  SimTime start = 0;
};

struct ReclaimRequest {
  int queue = 0;                      // the starved job's queue
  double gpus = 0;                    // GPUs to free
  double utilization_multiplier = 1;  // reclaimerUtilizationMultiplier, >= 1
};

// The victims, in the order to preempt them, whose GPUs add up to at least request.gpus; empty
// when no such set is allowed. `allocated` is what each queue's own jobs hold (descendants'
// are added here); `fair_shares` as KaiFairShares gives them.
std::vector<JobIndex> ChooseReclaimVictims(const std::vector<KaiQueue>& queues,
                                           const std::vector<double>& fair_shares,
                                           const std::vector<double>& allocated,
                                           const std::vector<ReclaimCandidate>& candidates,
                                           const ReclaimRequest& request);

}  // namespace fleetsim
