// first-fit: list scheduling without head-of-line blocking. The queue is scanned in submission
// order and every job the shared placement helper can place (under the configured placement
// strategy) starts at once, even if an older, larger job is still waiting (which may starve large
// jobs; backfill adds the reservation that prevents it). "First fit" names the queue scan, not the
// placement: the default placement is topology-aware.
#include "fleetsim/policy/placement_strategy.h"
#include "fleetsim/policy/policy.h"
#include "policy/builtin.h"

namespace fleetsim {

namespace {

class FirstFitPolicy final : public Policy {
 public:
  FirstFitPolicy(std::int64_t lookahead, const PlacementStrategy& placement)
      : lookahead_(lookahead), placement_(placement) {}

  std::vector<Decision> Decide(const ClusterView& view) override {
    std::vector<Decision> decisions;
    std::int64_t examined = 0;
    for (const JobIndex job : view.queue()) {
      if (lookahead_ > 0 && examined == lookahead_) {
        break;
      }
      ++examined;
      if (std::optional<Allocation> placement =
              view.planner().Place(view.request(job), placement_)) {
        decisions.push_back(StartJob{job, std::move(*placement)});
      }
    }
    return decisions;
  }

 private:
  std::int64_t lookahead_;
  PlacementStrategy placement_;
};

}  // namespace

PolicyInfo FirstFitPolicyInfo() {
  return {.name = "first-fit",
          .summary =
              "Arrival order, but any queued job that can be placed starts now (no head-of-line "
              "blocking, no reservation).",
          .params = {{.name = "lookahead",
                      .type = ParamType::kInt,
                      .default_value = std::int64_t{0},
                      .min = 0,
                      .max = 1e9,
                      .doc = "Queued jobs examined per call, oldest first; 0 examines the whole "
                             "queue (Slurm's bf_max_job_test plays this role for backfill)."},
                     PlacementParam()},
          .make = [](const PolicyParams& params) {
            return std::make_unique<FirstFitPolicy>(IntParam(params, "lookahead"),
                                                    PlacementFromParams(params));
          }};
}

}  // namespace fleetsim
