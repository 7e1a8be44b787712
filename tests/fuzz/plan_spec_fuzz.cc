// Fuzz target: a plan spec (`fleetsim plan`), loaded and, when it loads and has few candidates,
// expanded over a small base scenario written beside it (base.json, the name the seeds use),
// priced, and searched both ways with a stand-in runner (metrics drawn from each run's id, so
// no simulation runs): the search must not fail, and whatever answer it gives must be a fleet
// it judged feasible. Each process works in its own folder under $TMPDIR (or /tmp).
#include <cstdlib>
#include <string>

#include "fleetsim/plan/plan_search.h"
#include "fleetsim/sweep/sweep_metrics.h"
#include "fuzz_input.h"

namespace {

constexpr std::size_t kMaxPoints = 64;

const char* kBase = R"({"format_version": 1, "name": "small", "seed": 5,
  "fleet": {"pools": [{"name": "h100", "template": "hgx-h100", "nodes": 2},
                      {"name": "h200", "template": "hgx-h200", "nodes": 0, "tier": "spot"}]},
  "policy": {"name": "fifo"},
  "jobs": [{"id": "a", "submit_s": 0, "gpus": 1, "duration_s": 60}]})";

std::size_t Points(const fleetsim::SweepSpec& spec) {
  std::size_t points = 1;
  for (const fleetsim::SweepAxis& axis : spec.axes) {
    points *= std::max<std::size_t>(axis.values.size(), 1);
    if (points > kMaxPoints) {
      return points;
    }
  }
  return points;
}

// A record whose metrics are drawn from the run's id: some missing, some counts, all >= 0.
fleetsim::SweepRecord StandIn(const fleetsim::SweepPoint& point) {
  fleetsim::SweepRecord record{.id = point.id};
  std::uint64_t state = std::strtoull(point.id.c_str(), nullptr, 16) | 1;
  for (std::size_t m = 0; m < fleetsim::SweepMetricNames().size(); ++m) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    const std::uint64_t draw = state % 1000;
    record.metrics.push_back(
        {.value = draw < 50 ? std::nullopt : std::optional(static_cast<double>(draw) / 10),
         .text = ""});
  }
  return record;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace fleetsim;
  static const PolicyRegistry registry = BuiltinPolicies();
  static const std::string folder = fuzz::ProcessFolder("plan", "base.json", kBase);
  const std::string path = folder + "/plan.json";
  fuzz::WriteBytes(data, size, path);
  const PlanLoad load = LoadPlanSpec(DiskFileSystem(), path, registry, false);
  if (load.spec.has_value() != (load.file_status.ok() && !load.diagnostics.HasErrors())) {
    fuzz::PropertyFailed("a plan spec is returned exactly when there is no error");
  }
  if (!load.spec || Points(load.spec->runs) > kMaxPoints) {
    return 0;
  }
  const SweepExpansion expansion = ExpandSweep(load.spec->runs, registry, {});
  if (!expansion.errors.empty()) {
    return 0;
  }
  const PlanCandidates candidates = BuildCandidates(*load.spec, expansion);
  if (!candidates.errors.empty()) {
    return 0;
  }
  const PlanRunner runner = [](const std::vector<const SweepPoint*>& points) {
    std::vector<SweepRecord> records;
    for (const SweepPoint* p : points) {
      records.push_back(StandIn(*p));
    }
    return records;
  };
  for (const bool exhaustive : {false, true}) {
    const PlanOutcome outcome =
        SearchPlan(*load.spec, candidates, runner, {.exhaustive = exhaustive, .batch = 2});
    if (outcome.answer &&
        outcome.results.at(*outcome.answer).status != CandidateStatus::kFeasible) {
      fuzz::PropertyFailed("the answer is a fleet the search judged feasible");
    }
    if (outcome.runs_asked > outcome.grid_runs) {
      fuzz::PropertyFailed("the search uses no more runs than the grid has");
    }
  }
  return 0;
}
