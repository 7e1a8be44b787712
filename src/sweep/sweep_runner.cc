// Running sweep points on a pool of threads that take the next point as they finish one.
#include "fleetsim/sweep/sweep_runner.h"

#include <fmt/format.h>

#include <exception>
#include <mutex>

#include "fleetsim/core/parallel.h"
namespace fleetsim {

SweepRecord RunSweepPoint(const SweepPoint& point, const PolicyRegistry& registry,
                          const SweepRunOptions& options, RunReport* report) {
  SweepRecord record;
  record.id = point.id;
  try {
    const Scenario& scenario = *point.scenario_loaded;
    RunOptions run_options;
    run_options.seed = point.seed;
    run_options.check_invariants = options.check_invariants;
    RunOutcome outcome = RunScenario(scenario, registry, scenario.policy, run_options);
    if (!outcome.status.ok()) {
      record.status = SweepRunStatus::kIllegalDecision;
      record.error = outcome.status.message();
      return record;
    }
    record.metrics = SweepMetrics(outcome.report);
    if (report != nullptr) {
      *report = std::move(outcome.report);
    }
  } catch (const std::bad_alloc&) {
    throw;  // out of memory ends the command (exit 8), it is no result of this run
  } catch (const std::exception& e) {
    record.status = SweepRunStatus::kError;
    record.error = fmt::format("internal error: {}", e.what());
  }
  return record;
}

void RunSweepPoints(const std::vector<const SweepPoint*>& points, const PolicyRegistry& registry,
                    const SweepRunOptions& options, const SweepRunDone& done) {
  std::mutex done_mutex;
  ParallelFor(points.size(), options.threads, [&](std::size_t i) {
    RunReport report;
    SweepRecord record = RunSweepPoint(*points[i], registry, options, &report);
    const bool ok = record.status == SweepRunStatus::kOk;
    const std::lock_guard<std::mutex> lock(done_mutex);
    done(*points[i], std::move(record), ok ? &report : nullptr);
  });
}

}  // namespace fleetsim
