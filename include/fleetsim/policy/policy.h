// The policy interface. A policy reads a ClusterView and returns decisions; it never touches
// engine state. The engine checks every decision against the job and the fleet before applying
// it, and stops the run with an error naming the policy and the decision when one is illegal.
// Decisions are applied in the order returned.
// Policies are owned by one simulation; they may keep state between calls.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "fleetsim/policy/cluster_view.h"

namespace fleetsim {

// Start a queued job now on exactly these GPUs (as many as the job requests).
struct StartJob {
  JobIndex job = 0;
  std::vector<GpuId> gpus;
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

using Decision = std::variant<StartJob, RejectJob, WakeAt>;

class Policy {
 public:
  virtual ~Policy() = default;
  virtual std::vector<Decision> Decide(const ClusterView& view) = 0;
};

}  // namespace fleetsim
