// fifo: strict first-in, first-out with head-of-line blocking. Jobs start in submission order,
// each on the lowest-numbered free GPUs; when the job at the head of the queue does not fit,
// nothing behind it starts, however small. This is the baseline every other policy is compared
// against.
#include "fleetsim/policy/policy.h"
#include "policy/builtin.h"

namespace fleetsim {

namespace {

class FifoPolicy final : public Policy {
 public:
  std::vector<Decision> Decide(const ClusterView& view) override {
    std::vector<Decision> decisions;
    std::int64_t free = view.fleet().free_count();
    std::vector<GpuId> free_gpus;  // fetched once, then consumed from the front
    std::size_t next_free = 0;
    for (const JobIndex job : view.queue()) {
      const std::int64_t need = view.request(job).gpus;
      if (need > free) {
        break;  // head-of-line blocking
      }
      if (free_gpus.empty()) {
        free_gpus = view.fleet().LowestFree(view.fleet().free_count());
      }
      const auto first = free_gpus.begin() + static_cast<std::ptrdiff_t>(next_free);
      decisions.push_back(StartJob{job, std::vector<GpuId>(first, first + need)});
      next_free += static_cast<std::size_t>(need);
      free -= need;
    }
    return decisions;
  }
};

}  // namespace

PolicyInfo FifoPolicyInfo() {
  return {.name = "fifo",
          .summary = "Strict arrival order with head-of-line blocking; lowest-numbered free GPUs.",
          .params = {},
          .make = [](const PolicyParams&) { return std::make_unique<FifoPolicy>(); }};
}

}  // namespace fleetsim
