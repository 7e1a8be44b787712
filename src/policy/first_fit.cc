// first-fit: list scheduling without head-of-line blocking. The queue is scanned in submission
// order and every job the shared placement helper can place (under the configured placement
// strategy) starts at once, even if an older, larger job is still waiting (which may starve large
// jobs; backfill adds the reservation that prevents it). "First fit" names the queue scan, not the
// placement: the default placement is topology-aware. Without a lookahead the scan goes through
// the queue grouped by placement shape, skipping the jobs whose shape already failed in this call
// (they would fail too: queue_groups.h); the decisions are those of the plain scan.
#include "fleetsim/policy/placement_strategy.h"
#include "fleetsim/policy/policy.h"
#include "policy/builtin.h"
#include "policy/queue_groups.h"

namespace fleetsim {

namespace {

class FirstFitPolicy final : public Policy {
 public:
  FirstFitPolicy(std::int64_t lookahead, const PlacementStrategy& placement)
      : lookahead_(lookahead), placement_(placement) {}

  std::vector<Decision> Decide(const ClusterView& view, PlacementPlanner& planner) override {
    std::vector<Decision> decisions;
    const auto try_start = [&](JobIndex job) {
      std::optional<Allocation> placement = planner.Place(view.request(job), placement_);
      if (placement) {
        decisions.push_back(StartJob{job, std::move(*placement)});
      }
      return placement.has_value();
    };
    if (lookahead_ == 0) {
      queue_.Update(view);
      queue_.MergedScan(
          [](JobIndex) {
            return std::pair<std::int64_t, std::int64_t>{0, 0};
          },
          [&](JobIndex job) {
            return try_start(job) ? QueueGroups::Visit::kStarted : QueueGroups::Visit::kSkipGroup;
          });
      return decisions;
    }
    std::int64_t examined = 0;
    for (const JobIndex job : view.queue()) {
      if (examined == lookahead_) {
        break;
      }
      ++examined;
      try_start(job);
    }
    return decisions;
  }

 private:
  std::int64_t lookahead_;
  PlacementStrategy placement_;
  QueueGroups queue_{PlacementShapeKey};  // kept only without a lookahead
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
