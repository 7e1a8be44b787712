// The benchmark report: what `fleetsim bench` prints and writes for every scenario x policy run
// of a benchmark suite. Per scenario, a table of the policies side by side with their deltas
// against fifo (utilization in points, priority-weighted output in percent) and, where the
// source post published figures for that scenario, those figures beside ours; and the
// machine-readable results file (`--json`, docs/outputs.md#bench-json). Published figures come
// from a small JSON file next to the scenarios (docs/benchmark.md#published-figures); each
// policy's share of the clairvoyant upper bound on the output, from the bounds file `fleetsim
// bound --json` writes (report/bound_figures.h). Pure functions of their inputs: reruns are
// byte-identical.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fleetsim/core/status.h"
#include "fleetsim/report/bound_figures.h"
#include "fleetsim/results/run_report.h"

namespace fleetsim {

inline constexpr int kBenchFormatVersion = 1;
inline constexpr const char* kBaselinePolicy = "fifo";

// What the source published for one scenario, as it states it (figures or ranges, as text).
struct PublishedFigures {
  std::string fifo_utilization{};
  std::string allocator_utilization{};
  std::string output_gain{};  // the allocator's priority-weighted output vs FIFO
};

struct PublishedSet {
  std::string source{};                                 // where the figures come from
  std::map<std::string, PublishedFigures> scenarios{};  // by scenario name
};

struct PublishedLoad {
  std::optional<PublishedSet> figures;
  Status status;  // "file: /json/path: expected ..., found ..." when the file is bad
};

// Reads a published-figures file (docs/benchmark.md#published-figures).
PublishedLoad LoadPublishedFigures(const std::string& path);

// One of the flat metrics of a run: no value (JSON null) when the run has none, e.g. the cost of
// an unpriced fleet or fairness with one tenant; counts are written as JSON integers. The name is
// a literal of BenchMetrics (a sweep takes 31 of these per run: no copies).
struct BenchMetric {
  std::string_view name{};
  std::optional<double> value{};
  bool count = false;
};

// The metrics of one run, in the order --json writes them; `bound` is its scenario's bound, if
// known (else bound, bound_gap and share_of_bound are null).
std::vector<BenchMetric> BenchMetrics(const RunReport& report, const BoundFigure* bound = nullptr);

// The bound of `report`'s scenario in `bounds`, if any.
const BoundFigure* BoundFor(const RunReport& report, const BoundFigures* bounds);

// The run of `kBaselinePolicy` on the same scenario as `report`, if `reports` has one.
const RunReport* BaselineFor(const RunReport& report, const std::vector<RunReport>& reports);

// The per-scenario tables (reports grouped by scenario, in order of first appearance); a column
// "of bound" (each policy's output as a share of its scenario's bound, marked * when the bound is
// not proven optimal) and a line giving the bound, for the scenarios `bounds` has.
std::string BenchTables(const std::vector<RunReport>& reports, const PublishedSet* published,
                        const BoundFigures* bounds = nullptr);

// {"format_version", "fleetsim_version", "results": [{"scenario", "policy", "seed",
// "metrics": {...}}]} — docs/outputs.md#bench-json.
std::string BenchJson(const std::vector<RunReport>& reports, const BoundFigures* bounds = nullptr);

}  // namespace fleetsim
