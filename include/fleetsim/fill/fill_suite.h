// Running fill scenarios: every scenario × policy × seed, on as many threads as asked (each run is
// independent and reads the scenario's workload read-only; results land in a fixed order, so the
// output does not depend on the thread count), then the comparison with the paper's results
// (docs/validation.md): ours vs published at the target points, the differences, whether each
// is within tolerance, and whether the policies' order matches. Thread-safe entry points.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "fleetsim/core/file_system.h"
#include "fleetsim/core/status.h"
#include "fleetsim/fill/fill_curves.h"
#include "fleetsim/fill/fill_scenario.h"
#include "fleetsim/fill/published_fill.h"

namespace fleetsim {

struct FillPolicyResult {
  GpuSharePolicy policy = GpuSharePolicy::kFgd;
  std::vector<std::uint64_t> seeds{};
  std::vector<FillCurve> curves{};             // per seed
  std::vector<std::int64_t> failed_pods{};     // per seed, at the end of the run
  std::vector<std::int64_t> pods{};            // per seed: pods that arrived
  std::vector<std::vector<FillStep>> steps{};  // per seed, when FillSuiteOptions::keep_steps
};

struct FillScenarioResult {
  FillScenario scenario;
  std::int64_t gpu_capacity_milli = 0;
  std::vector<FillPolicyResult> policies;  // in the scenario's order
  std::optional<PublishedFill> published;
  std::vector<std::string> pod_names;  // the workload's pods, when FillSuiteOptions::keep_steps
};

struct FillSuiteOptions {
  unsigned threads = 1;
  std::optional<std::int64_t> seeds;  // overrides every scenario's seed count
  bool keep_steps = false;            // keep every run's steps (for WriteFillStepsCsv)
  // When set, every run takes its arrivals and tie rank from the fill order file
  // FillOrderPath(orders_dir, scenario name, seed) instead of drawing them from the seed.
  std::optional<std::string> orders_dir;
  // Without orders_dir: whose streams draw each run's arrivals and tie rank.
  FillStreams streams = FillStreams::kFleetsim;
};

// The x the curves run to.
inline constexpr int kFillMaxX = 130;

// Loads each scenario's workload and published results from `files`, then runs everything. Fails
// with the first load error ("file:line: message"); on error `out` is left as it was.
Status RunFillSuite(const FileSystem& files, const std::vector<FillScenario>& scenarios,
                    const FillSuiteOptions& options, std::vector<FillScenarioResult>& out);

// The targets of docs/validation.md.
struct FillTargets {
  std::vector<int> allocation_x = {100, 130};
  double allocation_tolerance_pp = 1.0;
  std::vector<int> ratio_x = {50, 80, 90};
  double ratio_tolerance_pp = 2.0;
};

struct FillComparison {
  std::string markdown;  // the table and the order check
  std::int64_t cells = 0;
  std::int64_t cells_within = 0;
  // The best and the worst policy by allocation are the paper's (without the paper's results:
  // FGD best and random worst).
  bool order_matches = true;
};

FillComparison CompareWithPublished(const std::vector<FillScenarioResult>& results,
                                    const FillTargets& targets);

// scenario,policy,seed,step,pod,placed,arrived_pct,allocation_pct,fragmentation_pct,
// fragmentation_ratio_pct,failed_pods: one row per pod of every run, in arrival order (docs/
// outputs.md "fill-steps.csv"). Needs results run with keep_steps.
void WriteFillStepsCsv(const std::vector<FillScenarioResult>& results, std::ostream& out);

// scenario,policy,seed,x,allocation_pct,fragmentation_pct,fragmentation_ratio_pct; one row per
// bin with a value (docs/outputs.md "fill-curves.csv").
void WriteFillCurvesCsv(const std::vector<FillScenarioResult>& results, std::ostream& out);

}  // namespace fleetsim
