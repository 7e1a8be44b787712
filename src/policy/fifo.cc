// fifo: strict first-in, first-out with head-of-line blocking. Jobs start in submission order,
// each where the shared placement helper puts it (policy/placement_choice.h) under the configured
// placement strategy; when the job at the head of the queue cannot be placed, nothing behind it
// starts, however small. A real-time job with a demand curve is started on its peak demand
// (clamped to its size range) and holds it all its life: the static reservation of the source
// post's FIFO baseline. This is the baseline every other policy is compared against.
#include <bit>

#include "fleetsim/policy/placement_strategy.h"
#include "fleetsim/policy/policy.h"
#include "policy/builtin.h"

namespace fleetsim {

namespace {

// The GPUs fifo reserves for a job: its peak demand within [gpus, MaxGpus()] (rounded up to a
// power of two for block jobs, whose MaxGpus() is one), or nullopt to let the helper size it.
std::optional<std::int64_t> ReservedGpus(const JobRequest& request) {
  if (!request.demand || request.sharing != GpuSharing::kNone || request.IsCpuOnly()) {
    return std::nullopt;
  }
  const std::int64_t peak =
      std::min(std::max(request.demand->Peak(), request.gpus), request.MaxGpus());
  return request.pow2_block
             ? static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint64_t>(peak)))
             : peak;
}

class FifoPolicy final : public Policy {
 public:
  explicit FifoPolicy(const PlacementStrategy& placement) : placement_(placement) {}

  std::vector<Decision> Decide(const ClusterView& view, PlacementPlanner& planner) override {
    std::vector<Decision> decisions;
    for (const JobIndex job : view.queue()) {
      const JobRequest& request = view.request(job);
      std::optional<Allocation> placement =
          planner.Place(request, placement_, ReservedGpus(request));
      if (!placement) {
        break;  // head-of-line blocking
      }
      decisions.push_back(StartJob{job, std::move(*placement)});
    }
    return decisions;
  }

 private:
  PlacementStrategy placement_;
};

}  // namespace

PolicyInfo FifoPolicyInfo() {
  return {.name = "fifo",
          .summary =
              "Strict arrival order with head-of-line blocking; real-time jobs reserve their "
              "peak demand for life.",
          .params = {PlacementParam()},
          .make = [](const PolicyParams& params) {
            return std::make_unique<FifoPolicy>(PlacementFromParams(params));
          }};
}

}  // namespace fleetsim
