// fifo: strict first-in, first-out with head-of-line blocking. Jobs start in submission order,
// each where the shared placement helper puts it (policy/placement_choice.h); when the job at the
// head of the queue cannot be placed, nothing behind it starts, however small. This is the baseline
// every other policy is compared against.
#include "fleetsim/policy/policy.h"
#include "policy/builtin.h"

namespace fleetsim {

namespace {

class FifoPolicy final : public Policy {
 public:
  std::vector<Decision> Decide(const ClusterView& view) override {
    std::vector<Decision> decisions;
    for (const JobIndex job : view.queue()) {
      std::optional<Allocation> placement = view.planner().Place(view.request(job));
      if (!placement) {
        break;  // head-of-line blocking
      }
      decisions.push_back(StartJob{job, std::move(*placement)});
    }
    return decisions;
  }
};

}  // namespace

PolicyInfo FifoPolicyInfo() {
  return {.name = "fifo",
          .summary =
              "Strict arrival order with head-of-line blocking; the shared placement helper "
              "places each job.",
          .params = {},
          .make = [](const PolicyParams&) { return std::make_unique<FifoPolicy>(); }};
}

}  // namespace fleetsim
