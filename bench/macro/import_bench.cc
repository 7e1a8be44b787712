// Trace-import timing: each real trace in ../shared/traces converted to native JSON Lines in
// memory, the way `fleetsim import` does it (checking pass, duplicate confirmation when needed,
// delivery pass). Skips a trace that is absent. Reports time per import and rows per second.
#include <benchmark/benchmark.h>

#include <sstream>
#include <string>

#include "fleetsim/fleet/catalog_loader.h"
#include "fleetsim/trace/formats.h"
#include "fleetsim/trace/import.h"
#include "fleetsim/trace/native.h"

namespace fleetsim {
namespace {

const std::string kTraces = std::string(FLEETSIM_SOURCE_DIR) + "/../shared/traces/";

void BM_Import(benchmark::State& state, const std::string& format_name,
               const std::string& relative_path) {
  const TraceFormat* format = FindTraceFormat(format_name);
  TraceOptionValues options;
  if (format == nullptr || !ResolveTraceOptions(*format, {}, options).message().empty()) {
    state.SkipWithError(("no trace format " + format_name).c_str());
    return;
  }
  const Catalog catalog = BuiltinCatalog();
  const std::string path = kTraces + relative_path;
  std::int64_t jobs = 0;
  for (auto _ : state) {
    std::ostringstream out;
    JsonlJobWriter writer(out);
    const TraceReport report = ConvertTrace(
        *format, path, options, {.on_bad_row = BadRowPolicy::kFail, .catalog = &catalog}, writer);
    if (!report.ok()) {
      state.SkipWithError(report.status.message().c_str());
      return;
    }
    jobs += report.jobs;
    benchmark::DoNotOptimize(out.str().size());
  }
  state.counters["jobs"] = static_cast<double>(jobs) / static_cast<double>(state.iterations());
  state.counters["jobs_per_s"] =
      benchmark::Counter(static_cast<double>(jobs), benchmark::Counter::kIsRate);
}
BENCHMARK_CAPTURE(BM_Import, philly, std::string("philly"), std::string("philly/philly.csv"))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5);
BENCHMARK_CAPTURE(BM_Import, openb_default, std::string("alibaba-openb"),
                  std::string("alibaba-openb/openb_pod_list_default.csv"))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5);
BENCHMARK_CAPTURE(BM_Import, itp_cluster04, std::string("ms-itp"),
                  std::string("ms-itp/cluster04.csv"))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5);

}  // namespace
}  // namespace fleetsim
