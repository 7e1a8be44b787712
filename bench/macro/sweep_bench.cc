// What the sweep machinery costs on top of its runs (docs/performance.md, "Sweeps"): the 1,015
// short runs of bench/macro/sweep-1015.json (the seven benchmark scenarios x five policies x seeds
// 1-29) and the 120 longer ones of scenarios/sweeps/planner.json, on one thread, first as bare
// RunScenario calls on scenarios loaded once, then as a whole sweep as `fleetsim sweep` does it —
// spec loading, expansion (each point's document built and loaded), the runs with their metrics and
// journal records, and results.csv, results.json, summary.csv and report.html rendered and
// committed (the layout file aside). The ratio of the two is the machinery's overhead; run both
// in one process with --benchmark_enable_random_interleaving and repetitions, which shuffles their
// repetitions so that both see the same machine, and compare the `_min` rows (the fastest
// repetition) as well as the medians. (Each in its own process, with --benchmark_filter, avoids
// the heap a process's earlier benchmarks leave, but two processes see different moments of a
// shared machine.) Besides milliseconds, each phase of the whole sweep reports its page faults
// (`*_faults`), which on a virtual machine cost microseconds each; `teardown_ms` is the time to
// free the spec, the points and the records.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "fleetsim/core/file_system.h"
#include "fleetsim/sweep/sweep_report.h"
#include "fleetsim/sweep/sweep_results.h"
#include "fleetsim/sweep/sweep_runner.h"
#include "fleetsim/sweep/sweep_spec.h"

namespace fleetsim {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::string SpecPath(const std::string& relative = "bench/macro/sweep-1015.json") {
  return (fs::path(FLEETSIM_SOURCE_DIR) / relative).string();
}

// The page faults the process has taken so far (minor ones: pages the kernel hands out or maps
// again). On a virtual machine each costs microseconds, so they are part of what a phase costs.
double PageFaults() {
  rusage usage{};
  return getrusage(RUSAGE_SELF, &usage) == 0 ? static_cast<double>(usage.ru_minflt) : 0.0;
}

// Where a phase's cost goes: its milliseconds and page faults, summed over iterations.
struct PhaseCost {
  double ms = 0;
  double faults = 0;
};

// A point in time and the faults taken by then.
struct Mark {
  Clock::time_point at = Clock::now();
  double faults = PageFaults();
};

// Adds what passed since `start` to `total`; returns now.
Mark AddElapsed(const Mark& start, PhaseCost& total) {
  const Mark now;
  total.ms += std::chrono::duration<double, std::milli>(now.at - start.at).count();
  total.faults += now.faults - start.faults;
  return now;
}

// The fastest repetition, reported beside the mean and median (`_min` rows): interference from
// other guests and processes only ever adds time, so the minimum over repetitions is the estimate
// of a benchmark's own cost least moved by it.
double Fastest(const std::vector<double>& times) {
  return times.empty() ? 0.0 : *std::min_element(times.begin(), times.end());
}

void BM_SweepRunsAlone(benchmark::State& state, const std::string& spec) {
  const PolicyRegistry registry = BuiltinPolicies();
  const SweepLoad load = LoadSweepSpec(DiskFileSystem(), SpecPath(spec), registry, true);
  if (!load.spec) {
    state.SkipWithError((spec + " does not load").c_str());
    return;
  }
  const SweepExpansion expansion = ExpandSweep(*load.spec, registry, {});
  const double faults_before = PageFaults();
  for (auto _ : state) {
    for (const SweepPoint& point : expansion.points) {
      RunOptions options;
      options.seed = point.seed;
      const RunOutcome outcome =
          RunScenario(*point.scenario_loaded, registry, point.scenario_loaded->policy, options);
      benchmark::DoNotOptimize(outcome.report.accounting.utilization);
    }
  }
  state.counters["runs"] = static_cast<double>(expansion.points.size());
  state.counters["runs_faults"] =
      benchmark::Counter(PageFaults() - faults_before, benchmark::Counter::kAvgIterations);
}
BENCHMARK_CAPTURE(BM_SweepRunsAlone, sweep_1015, std::string("bench/macro/sweep-1015.json"))
    ->Unit(benchmark::kMillisecond)
    ->ComputeStatistics("min", Fastest);
BENCHMARK_CAPTURE(BM_SweepRunsAlone, planner, std::string("scenarios/sweeps/planner.json"))
    ->Unit(benchmark::kMillisecond)
    ->ComputeStatistics("min", Fastest);

void BM_SweepWhole(benchmark::State& state, const std::string& spec) {
  const PolicyRegistry registry = BuiltinPolicies();
  const std::string dir = (fs::temp_directory_path() / "fleetsim-sweep-bench").string();
  PhaseCost expand;
  PhaseCost runs;
  PhaseCost results;
  PhaseCost teardown;
  for (auto _ : state) {
    state.PauseTiming();  // the bench's cleanup between iterations, not the machinery's work
    fs::remove_all(dir);
    state.ResumeTiming();
    Mark at;
    {
      const SweepLoad load = LoadSweepSpec(DiskFileSystem(), SpecPath(spec), registry, true);
      const SweepExpansion expansion = ExpandSweep(*load.spec, registry, {});
      std::vector<const SweepPoint*> points;
      for (const SweepPoint& p : expansion.points) {
        points.push_back(&p);
      }
      const SweepLayout layout = MakeLayout(*load.spec, expansion);
      std::vector<std::string> warnings;
      SweepRecords records = ReadRecords(dir, warnings);  // none: as `fleetsim sweep` starts
      at = AddElapsed(at, expand);
      JournalWriter journal(dir, JournalName(1, 1));
      RunSweepPoints(points, registry, {.threads = 1, .check_invariants = false},
                     [&](const SweepPoint&, SweepRecord&& record, const RunReport*) {
                       journal.Append(records[record.id] = std::move(record));
                     });
      journal.Flush();
      at = AddElapsed(at, runs);
      if (!WriteSweepResults(dir, layout, records).ok() || records.size() != points.size()) {
        state.SkipWithError("the sweep did not write its results");
        break;
      }
      at = AddElapsed(at, results);
    }  // the spec, the points and the records freed, as the command frees them before it exits
    AddElapsed(at, teardown);
  }
  // Where the time goes, per sweep: milliseconds and page faults loading and expanding the spec,
  // in the runs with their metrics and journal, rendering and committing the result files, and
  // freeing what the sweep held (teardown).
  const auto per_sweep = [](double total) {
    return benchmark::Counter(total, benchmark::Counter::kAvgIterations);
  };
  state.counters["expand_ms"] = per_sweep(expand.ms);
  state.counters["runs_ms"] = per_sweep(runs.ms);
  state.counters["results_ms"] = per_sweep(results.ms);
  state.counters["teardown_ms"] = per_sweep(teardown.ms);
  state.counters["expand_faults"] = per_sweep(expand.faults);
  state.counters["runs_faults"] = per_sweep(runs.faults);
  state.counters["results_faults"] = per_sweep(results.faults);
  state.counters["teardown_faults"] = per_sweep(teardown.faults);
  fs::remove_all(dir);
}
BENCHMARK_CAPTURE(BM_SweepWhole, sweep_1015, std::string("bench/macro/sweep-1015.json"))
    ->Unit(benchmark::kMillisecond)
    ->ComputeStatistics("min", Fastest);
BENCHMARK_CAPTURE(BM_SweepWhole, planner, std::string("scenarios/sweeps/planner.json"))
    ->Unit(benchmark::kMillisecond)
    ->ComputeStatistics("min", Fastest);

// The machinery's parts on their own: loading and expanding the spec; rendering the four result
// files and the 1,015 journal lines from the records.
void BM_Sweep1015Expand(benchmark::State& state) {
  const PolicyRegistry registry = BuiltinPolicies();
  for (auto _ : state) {
    const SweepLoad load = LoadSweepSpec(DiskFileSystem(), SpecPath(), registry, true);
    const SweepExpansion expansion = ExpandSweep(*load.spec, registry, {});
    benchmark::DoNotOptimize(expansion.points.size());
  }
}
BENCHMARK(BM_Sweep1015Expand)->Unit(benchmark::kMillisecond);

void BM_Sweep1015Render(benchmark::State& state) {
  const PolicyRegistry registry = BuiltinPolicies();
  const SweepLoad load = LoadSweepSpec(DiskFileSystem(), SpecPath(), registry, true);
  const SweepExpansion expansion = ExpandSweep(*load.spec, registry, {});
  SweepRecords records;
  for (const SweepPoint& point : expansion.points) {
    FormatMetricTexts(records[point.id] = RunSweepPoint(point, registry, {}, nullptr));
  }
  const SweepLayout layout = MakeLayout(*load.spec, expansion);
  for (auto _ : state) {
    std::size_t bytes = ResultsCsv(layout, records).size();
    bytes += ResultsJson(layout, records).size();
    const std::vector<SweepCell> cells = SummarizeCells(layout, records);
    bytes += SummaryCsv(layout, cells).size();
    bytes += SweepHtml(layout, records, cells, {}).size();
    for (const auto& [id, record] : records) {
      bytes += RecordLine(record).size();
    }
    benchmark::DoNotOptimize(bytes);
  }
}
BENCHMARK(BM_Sweep1015Render)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace fleetsim
