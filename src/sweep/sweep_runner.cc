// Running sweep points on a pool of threads that take the next point as they finish one.
#include "fleetsim/sweep/sweep_runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>

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
    if (!outcome.ok) {
      record.status = SweepRunStatus::kIllegalDecision;
      record.error = outcome.error;
      return record;
    }
    record.metrics = SweepMetrics(outcome.report);
    if (report != nullptr) {
      *report = std::move(outcome.report);
    }
  } catch (const std::exception& e) {
    record.status = SweepRunStatus::kError;
    record.error = fmt::format("internal error: {}", e.what());
  }
  return record;
}

void RunSweepPoints(const std::vector<const SweepPoint*>& points, const PolicyRegistry& registry,
                    const SweepRunOptions& options, const SweepRunDone& done) {
  std::atomic<std::size_t> next{0};
  std::mutex done_mutex;
  const auto worker = [&] {
    for (std::size_t i = next++; i < points.size(); i = next++) {
      RunReport report;
      const SweepRecord record = RunSweepPoint(*points[i], registry, options, &report);
      const std::lock_guard<std::mutex> lock(done_mutex);
      done(*points[i], record, record.status == SweepRunStatus::kOk ? &report : nullptr);
    }
  };
  // If the system refuses a thread, the ones started (and this one) share the points.
  const std::size_t wanted = std::min<std::size_t>(std::max(options.threads, 1U), points.size());
  std::vector<std::thread> threads;
  for (std::size_t t = 1; t < wanted; ++t) {
    try {
      threads.emplace_back(worker);
    } catch (const std::system_error&) {
      break;
    }
  }
  worker();
  for (std::thread& thread : threads) {
    thread.join();
  }
}

}  // namespace fleetsim
