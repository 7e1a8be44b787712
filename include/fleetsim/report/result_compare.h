// Comparing two sets of results for drift: bench files (`fleetsim bench --json`), sweep results
// (results.json) or run folders (`fleetsim run --out`, every summary.json under it). The engine
// of `fleetsim compare BASELINE CURRENT`, which CI runs against the checked-in goldens
// (tests/golden/benchmark.json). Results are matched by scenario, policy, a sweep's axes, and
// the seed when a file holds several seeds of one of those; metrics are compared
// generically, by name, so the metric set may grow. Exact by default, since runs are
// deterministic; a relative tolerance (with an absolute floor near zero) may be given for every
// metric and overridden per metric. Results and metrics only the current file has are additions,
// not drift, unless strict. The outcome lists every check; compare_report.h writes it as text,
// JSON, JUnit or Markdown. Semantics and how to update the goldens on purpose: docs/regression.md.
//
// Pure functions of their inputs (CompareResultFiles only reads the two files); value types;
// thread-compatible.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fleetsim/core/status.h"
#include "fleetsim/report/bench_report.h"

namespace fleetsim {

struct CompareOptions {
  // Relative tolerance for every metric; 0 (the default) is exact: any difference is drift.
  double tolerance = 0;
  // Per-metric tolerances, replacing `tolerance` for that metric; 0 makes one metric exact.
  std::map<std::string, double> metric_tolerances;
  // A result or metric only in the current file (a policy or metric added) is drift too, not
  // only reported as an addition.
  bool strict = false;
  // Seeded results are compared cell by cell (scenario, policy, axes), seeds paired: drift only
  // when a metric's mean difference has a 95 % interval wholly beyond the tolerance.
  bool seeds = false;
};

// Parses the values of every `--tolerance` argument into `options`: "X" sets the tolerance of
// every metric, "METRIC=X" one metric's; X is a number ≥ 0 ("0.01", "1e-6") or a percentage
// ("1%" is 0.01). The default and each metric may be given once. Fails with the problem, e.g.
// "expected a number ≥ 0 (such as 0.01, 1e-6 or 1%) or METRIC=NUMBER, found 'abc'".
Status ParseTolerances(const std::vector<std::string>& args, CompareOptions& options);

// The largest |current − baseline| within relative tolerance t:
// t × max(|baseline|, |current|, 1). Relative for values of magnitude ≥ 1, absolute (t) below,
// so values near zero (0 against 1e-17, say) do not need an exact match under a tolerance.
double AllowedDifference(double baseline, double current, double tolerance);

enum class DiffKind {
  kSame,                  // equal numbers, or null in both: not a difference
  kValue,                 // both numbers, different; `beyond` says whether beyond tolerance
  kNullVsNumber,          // null in one file, a number in the other (always drift)
  kMetricOnlyInBaseline,  // the metric is missing from the current result (always drift)
  kMetricOnlyInCurrent,   // the metric is new in the current result (an addition)
  kSeed,                  // the two results ran with different seeds (always drift)
  kResultOnlyInBaseline,  // no current result for this (scenario, policy) (always drift)
  kResultOnlyInCurrent,   // no baseline result for this (scenario, policy) (an addition)
  kPairedMean,            // --seeds: the mean of the paired differences over a cell's seeds
};

// One check of the comparison: a metric of a result both files have, a seed, or a result only
// one file has.
struct ResultDiff {
  std::string scenario;
  std::string policy;
  std::string axes;        // a sweep's axes but policy and seed, "name=value, ..."; "" elsewhere
  std::uint64_t seed = 0;  // the baseline's (the current's for a result only in the current)
  std::size_t pairs = 0;   // kPairedMean (and a paired cell's other checks): seeds paired
  std::string metric;      // "seed" for kSeed; "" for a whole result
  DiffKind kind = DiffKind::kValue;
  std::string baseline;  // the value as JSON text ("0.786", "null"); "" when absent
  std::string current;
  double difference = 0;  // current − baseline (kValue only)
  // kValue of two integers: current − baseline exactly, when it fits (beyond 2^53 a double
  // cannot show it).
  std::optional<std::int64_t> integer_difference;
  double allowed = 0;  // AllowedDifference(...) (kValue, kPairedMean); 0 when exact
  double ci_low = 0;   // kPairedMean: the 95 % interval of the mean difference
  double ci_high = 0;
  bool beyond = true;     // drift; false for kSame, a kValue within tolerance, an addition
  bool addition = false;  // kResultOnlyInCurrent or kMetricOnlyInCurrent without strict
};

// A result file's facts, for report headers.
struct CompareFileFacts {
  std::string name;
  std::string fleetsim_version;  // "" when absent
  std::size_t results = 0;
};

struct CompareOutcome {
  // Problems that make a file unusable, one line each: "FILE: cannot read: ...",
  // "FILE:LINE:COL: invalid JSON: ...", or "FILE: /results/3/metrics/utilization: error:
  // expected a number or null, found \"abc\"". Every problem of both files is listed. When not
  // empty, nothing was compared and the fields below are empty.
  std::string errors;
  // Options that do not fit the files, e.g. a per-metric tolerance for a metric neither file
  // has (a misspelt name would otherwise be silently ignored). Nothing was compared either.
  std::vector<std::string> usage_errors;

  CompareFileFacts baseline;
  CompareFileFacts current;
  std::string tolerance;  // the tolerances in words: "exact (any difference is drift)", ...
  bool strict = false;
  bool seeds = false;

  // Every check, in report order: by scenario (the baseline's order, then the current's), then
  // policy, then metric; identical metrics included (kSame), for JUnit's passing test cases.
  std::vector<ResultDiff> checks;
  std::size_t results_compared = 0;  // results (runs) present in both files
  std::size_t metrics_beyond = 0;    // kValue beyond tolerance, kNullVsNumber, kMetricOnlyIn*
  std::size_t metrics_within = 0;    // kValue within tolerance
  std::size_t seeds_differ = 0;
  std::size_t results_only_in_baseline = 0;
  std::size_t results_only_in_current = 0;
  std::size_t additions = 0;  // results and metrics only in the current, when not strict

  bool ok() const { return errors.empty() && usage_errors.empty(); }
  // The checks that are not kSame.
  std::vector<ResultDiff> diffs() const;
  // True when anything differs beyond tolerance (the `compare` command then exits 5).
  bool drift() const;
};

// Compares two result documents given as text; the names are used in messages and the report.
CompareOutcome CompareResults(const std::string& baseline_text, const std::string& baseline_name,
                              const std::string& current_text, const std::string& current_name,
                              const CompareOptions& options);

// Reads both (a result file, or a run folder when a path is a directory; one that cannot be read
// is an error naming it) and compares them.
CompareOutcome CompareResultFiles(const std::string& baseline_path, const std::string& current_path,
                                  const CompareOptions& options);

}  // namespace fleetsim
