// Reading benchmark result files and comparing them metric by metric (docs/regression.md).
#include "fleetsim/report/result_compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include "fleetsim/core/diagnostics.h"
#include "json/json_checker.h"
#include "json/json_text.h"

namespace fleetsim {

namespace {

using nlohmann::json;

// ---- Tolerance arguments ----

std::optional<double> ParseToleranceValue(const std::string& text) {
  std::string number = text;
  double scale = 1;
  if (!number.empty() && number.back() == '%') {
    number.pop_back();
    scale = 100;
  }
  // from_chars takes no '+' and no spaces; reject a leading '-' here so "-0" is refused too.
  if (number.empty() || number[0] == '-') {
    return std::nullopt;
  }
  double value = 0;
  const char* end = number.data() + number.size();
  const auto [ptr, ec] = std::from_chars(number.data(), end, value);
  if (ec != std::errc() || ptr != end || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value / scale;  // "25%" is 25 / 100, exactly 0.25
}

// ---- Reading a result file ----

struct Entry {
  std::string scenario;
  std::string policy;
  std::uint64_t seed = 0;
  std::map<std::string, json> metrics;  // numbers or nulls, by name
};

struct ResultFile {
  std::string fleetsim_version;  // "" when absent
  std::vector<Entry> entries;    // in file order
};

void ReadEntry(const json& item, const std::string& path, JsonChecker& checker,
               std::vector<Entry>& entries,
               std::map<std::pair<std::string, std::string>, std::string>& first_path) {
  if (!item.is_object()) {
    checker.Error(path, fmt::format("expected an object with scenario, policy, seed and "
                                    "metrics, found {}",
                                    Shown(item)));
    return;
  }
  const std::optional<std::string> scenario = checker.String(item, path, "scenario", true);
  const std::optional<std::string> policy = checker.String(item, path, "policy", true);
  const std::optional<std::uint64_t> seed = checker.Unsigned(item, path, "seed", true);
  const json* metrics = checker.Object(item, path, "metrics", true);
  bool ok = scenario && policy && seed && metrics != nullptr;
  Entry entry;
  if (metrics != nullptr) {
    const std::string metrics_path = ChildPath(path, "metrics");
    for (const auto& [name, value] : metrics->items()) {
      if (!value.is_number() && !value.is_null()) {
        checker.Error(ChildPath(metrics_path, name),
                      fmt::format("expected a number or null, found {}", Shown(value)));
        ok = false;
        continue;
      }
      entry.metrics.emplace(name, value);
    }
  }
  if (scenario && policy) {
    const auto [it, inserted] = first_path.emplace(std::make_pair(*scenario, *policy), path);
    if (!inserted) {
      checker.Error(path, fmt::format("a second result for scenario '{}' and policy '{}' (the "
                                      "first is {}); each pair may appear once",
                                      *scenario, *policy, it->second));
      ok = false;
    }
  }
  if (!ok) {
    return;
  }
  entry.scenario = *scenario;
  entry.policy = *policy;
  entry.seed = *seed;
  entries.push_back(std::move(entry));
}

// Parses and checks one result document; on failure appends its problems to `errors`.
std::optional<ResultFile> ReadResultFile(const std::string& text, const std::string& name,
                                         std::string& errors) {
  json root;
  if (const Status status = ParseJsonText(text, name, root); !status.ok()) {
    errors += status.message() + "\n";
    return std::nullopt;
  }
  Diagnostics diagnostics;
  JsonChecker checker(diagnostics);
  ResultFile file;
  if (!root.is_object()) {
    checker.Error("", fmt::format("expected an object with format_version and results (as "
                                  "written by 'fleetsim bench --json'), found {}",
                                  Shown(root)));
  } else if (const auto version = root.find("format_version"); version == root.end()) {
    checker.Error("", "missing required key 'format_version'");
  } else if (!version->is_number_integer() || *version != kBenchFormatVersion) {
    checker.Error("/format_version",
                  fmt::format("unsupported format_version {}; this fleetsim reads "
                              "format_version {}",
                              Shown(*version), kBenchFormatVersion));
  } else {
    file.fleetsim_version = checker.String(root, "", "fleetsim_version", false).value_or("");
    if (const json* results = checker.Array(root, "", "results", true); results != nullptr) {
      std::map<std::pair<std::string, std::string>, std::string> first_path;
      for (std::size_t i = 0; i < results->size(); ++i) {
        ReadEntry((*results)[i], ChildPath("/results", i), checker, file.entries, first_path);
      }
    }
  }
  if (diagnostics.HasErrors()) {
    errors += diagnostics.Format(name);
    return std::nullopt;
  }
  return file;
}

// ---- Comparing values ----

bool SameNumber(const json& a, const json& b) {
  if (a.is_number_float() || b.is_number_float()) {
    return a.get<double>() == b.get<double>();
  }
  if (a.is_number_unsigned() && b.is_number_unsigned()) {
    return a.get<std::uint64_t>() == b.get<std::uint64_t>();
  }
  if (!a.is_number_unsigned() && !b.is_number_unsigned()) {
    return a.get<std::int64_t>() == b.get<std::int64_t>();
  }
  const json& s = a.is_number_unsigned() ? b : a;
  const json& u = a.is_number_unsigned() ? a : b;
  return s.get<std::int64_t>() >= 0 &&
         static_cast<std::uint64_t>(s.get<std::int64_t>()) == u.get<std::uint64_t>();
}

long double Exact(const json& value) {
  if (value.is_number_unsigned()) {
    return static_cast<long double>(value.get<std::uint64_t>());
  }
  if (value.is_number_integer()) {
    return static_cast<long double>(value.get<std::int64_t>());
  }
  return static_cast<long double>(value.get<double>());
}

std::string FormatTolerance(double tolerance) { return fmt::format("{}", tolerance); }

// ---- The comparison ----

class Comparison {
 public:
  Comparison(const CompareOptions& options, CompareOutcome& outcome)
      : options_(options), outcome_(outcome) {}

  void Run(const ResultFile& baseline, const ResultFile& current) {
    std::map<std::pair<std::string, std::string>, const Entry*> in_current;
    for (const Entry& e : current.entries) {
      in_current.emplace(std::make_pair(e.scenario, e.policy), &e);
    }
    std::set<std::pair<std::string, std::string>> in_baseline;
    for (const Entry& e : baseline.entries) {
      in_baseline.emplace(e.scenario, e.policy);
    }
    // Scenarios in the baseline's order, then those only the current file has, in its order.
    std::vector<std::string> scenarios;
    for (const ResultFile* file : {&baseline, &current}) {
      for (const Entry& e : file->entries) {
        if (std::find(scenarios.begin(), scenarios.end(), e.scenario) == scenarios.end()) {
          scenarios.push_back(e.scenario);
        }
      }
    }
    for (const std::string& scenario : scenarios) {
      for (const Entry& b : baseline.entries) {
        if (b.scenario != scenario) {
          continue;
        }
        const auto it = in_current.find({b.scenario, b.policy});
        if (it == in_current.end()) {
          LoneResult(b, DiffKind::kResultOnlyInBaseline);
        } else {
          CompareEntries(b, *it->second);
        }
      }
      for (const Entry& c : current.entries) {
        if (c.scenario == scenario && in_baseline.count({c.scenario, c.policy}) == 0) {
          LoneResult(c, DiffKind::kResultOnlyInCurrent);
        }
      }
    }
  }

 private:
  double ToleranceFor(const std::string& metric) const {
    const auto it = options_.metric_tolerances.find(metric);
    return it == options_.metric_tolerances.end() ? options_.tolerance : it->second;
  }

  // A check of `entry`; CompareValues fills in the numbers of a kValue one.
  static ResultDiff Check(const Entry& entry, std::string metric, DiffKind kind,
                          std::string baseline, std::string current) {
    ResultDiff check;
    check.scenario = entry.scenario;
    check.policy = entry.policy;
    check.seed = entry.seed;
    check.metric = std::move(metric);
    check.kind = kind;
    check.baseline = std::move(baseline);
    check.current = std::move(current);
    return check;
  }

  // What is only in the current file is an addition, not drift, unless strict.
  void Add(ResultDiff check) {
    const bool added = check.kind == DiffKind::kResultOnlyInCurrent ||
                       check.kind == DiffKind::kMetricOnlyInCurrent;
    if (added && !options_.strict) {
      check.addition = true;
      check.beyond = false;
      ++outcome_.additions;
    }
    outcome_.checks.push_back(std::move(check));
  }

  void LoneResult(const Entry& entry, DiffKind kind) {
    const bool in_baseline = kind == DiffKind::kResultOnlyInBaseline;
    (in_baseline ? outcome_.results_only_in_baseline : outcome_.results_only_in_current)++;
    Add(Check(entry, "", kind, "", ""));
  }

  void CompareEntries(const Entry& baseline, const Entry& current) {
    ++outcome_.results_compared;
    if (baseline.seed != current.seed) {
      ++outcome_.seeds_differ;
      Add(Check(baseline, "seed", DiffKind::kSeed, fmt::format("{}", baseline.seed),
                fmt::format("{}", current.seed)));
    }
    std::set<std::string> names;
    for (const Entry* entry : {&baseline, &current}) {
      for (const auto& item : entry->metrics) {
        names.insert(item.first);
      }
    }
    for (const std::string& name : names) {
      const auto b = baseline.metrics.find(name);
      const auto c = current.metrics.find(name);
      if (b == baseline.metrics.end() || c == current.metrics.end()) {
        const bool in_baseline = c == current.metrics.end();
        const json& value = in_baseline ? b->second : c->second;
        if (in_baseline || options_.strict) {
          ++outcome_.metrics_beyond;
        }
        Add(Check(baseline, name,
                  in_baseline ? DiffKind::kMetricOnlyInBaseline : DiffKind::kMetricOnlyInCurrent,
                  in_baseline ? value.dump() : "", in_baseline ? "" : value.dump()));
        continue;
      }
      CompareValues(baseline, name, b->second, c->second);
    }
  }

  void CompareValues(const Entry& entry, const std::string& name, const json& b, const json& c) {
    ResultDiff check = Check(entry, name, DiffKind::kValue, b.dump(), c.dump());
    if ((b.is_null() && c.is_null()) || (!b.is_null() && !c.is_null() && SameNumber(b, c))) {
      check.kind = DiffKind::kSame;
      check.beyond = false;
      Add(std::move(check));
      return;
    }
    if (b.is_null() || c.is_null()) {
      ++outcome_.metrics_beyond;
      check.kind = DiffKind::kNullVsNumber;
      Add(std::move(check));
      return;
    }
    const double tolerance = ToleranceFor(name);
    check.difference = static_cast<double>(Exact(c) - Exact(b));
    check.allowed = AllowedDifference(b.get<double>(), c.get<double>(), tolerance);
    // Exact means any difference, even one a double cannot show (integers beyond 2^53).
    check.beyond = tolerance == 0 || !(std::fabs(check.difference) <= check.allowed);
    ++(check.beyond ? outcome_.metrics_beyond : outcome_.metrics_within);
    Add(std::move(check));
  }

  const CompareOptions& options_;
  CompareOutcome& outcome_;
};

std::string DescribeTolerances(const CompareOptions& options) {
  std::string text =
      options.tolerance == 0
          ? std::string("exact (any difference is drift)")
          : fmt::format("relative {0} (absolute {0} for values below 1 in magnitude)",
                        FormatTolerance(options.tolerance));
  std::string overrides;
  for (const auto& [metric, tolerance] : options.metric_tolerances) {
    overrides += overrides.empty() ? "" : ", ";
    overrides += fmt::format("{} {}", metric,
                             tolerance == 0 ? std::string("exact") : FormatTolerance(tolerance));
  }
  if (!overrides.empty()) {
    text += "; per metric: " + overrides;
  }
  return text;
}

// Per-metric tolerances for metrics that neither file has: most likely misspelt.
std::vector<std::string> UnknownToleranceMetrics(const CompareOptions& options,
                                                 const ResultFile& baseline,
                                                 const ResultFile& current) {
  std::set<std::string> known;
  for (const ResultFile* file : {&baseline, &current}) {
    for (const Entry& e : file->entries) {
      for (const auto& item : e.metrics) {
        known.insert(item.first);
      }
    }
  }
  const std::vector<std::string> names(known.begin(), known.end());
  std::vector<std::string> problems;
  for (const auto& item : options.metric_tolerances) {
    const std::string& metric = item.first;
    if (known.count(metric) > 0) {
      continue;
    }
    if (metric == "seed") {
      problems.push_back(
          "--tolerance: 'seed' is not a metric; seeds are identities and must always match");
    } else {
      problems.push_back(fmt::format("--tolerance: no metric '{}' in either file{}", metric,
                                     DidYouMean(metric, names)));
    }
  }
  return problems;
}

}  // namespace

Status ParseTolerances(const std::vector<std::string>& args, CompareOptions& options) {
  bool default_given = false;
  for (const std::string& arg : args) {
    const std::size_t eq = arg.find('=');
    const std::string metric = eq == std::string::npos ? "" : arg.substr(0, eq);
    const std::string text = eq == std::string::npos ? arg : arg.substr(eq + 1);
    const std::optional<double> value = ParseToleranceValue(text);
    if ((eq != std::string::npos && metric.empty()) || !value) {
      return Status::InvalidInput(fmt::format(
          "expected a number ≥ 0 (such as 0.01, 1e-6 or 1%) or METRIC=NUMBER, found '{}'", arg));
    }
    if (eq == std::string::npos) {
      if (default_given) {
        return Status::InvalidInput(
            fmt::format("the tolerance for every metric is given twice (the second is '{}'); "
                        "use METRIC=NUMBER for one metric",
                        arg));
      }
      default_given = true;
      options.tolerance = *value;
    } else if (!options.metric_tolerances.emplace(metric, *value).second) {
      return Status::InvalidInput(fmt::format("the tolerance for '{}' is given twice", metric));
    }
  }
  return Status::Ok();
}

std::vector<ResultDiff> CompareOutcome::diffs() const {
  std::vector<ResultDiff> differing;
  std::copy_if(checks.begin(), checks.end(), std::back_inserter(differing),
               [](const ResultDiff& check) { return check.kind != DiffKind::kSame; });
  return differing;
}

bool CompareOutcome::drift() const {
  return std::any_of(checks.begin(), checks.end(),
                     [](const ResultDiff& check) { return check.beyond; });
}

double AllowedDifference(double baseline, double current, double tolerance) {
  return tolerance * std::max({std::fabs(baseline), std::fabs(current), 1.0});
}

CompareOutcome CompareResults(const std::string& baseline_text, const std::string& baseline_name,
                              const std::string& current_text, const std::string& current_name,
                              const CompareOptions& options) {
  CompareOutcome outcome;
  const std::optional<ResultFile> baseline =
      ReadResultFile(baseline_text, baseline_name, outcome.errors);
  const std::optional<ResultFile> current =
      ReadResultFile(current_text, current_name, outcome.errors);
  if (!baseline || !current) {
    return outcome;
  }
  outcome.usage_errors = UnknownToleranceMetrics(options, *baseline, *current);
  if (!outcome.usage_errors.empty()) {
    return outcome;
  }
  outcome.baseline = {baseline_name, baseline->fleetsim_version, baseline->entries.size()};
  outcome.current = {current_name, current->fleetsim_version, current->entries.size()};
  outcome.tolerance = DescribeTolerances(options);
  outcome.strict = options.strict;
  Comparison(options, outcome).Run(*baseline, *current);
  return outcome;
}

CompareOutcome CompareResultFiles(const std::string& baseline_path, const std::string& current_path,
                                  const CompareOptions& options) {
  std::string baseline_text;
  std::string current_text;
  const Status baseline_read = DiskFileSystem().ReadFile(baseline_path, baseline_text);
  const Status current_read = DiskFileSystem().ReadFile(current_path, current_text);
  if (!baseline_read.ok() || !current_read.ok()) {
    // Report the readable file's own problems too, file by file.
    CompareOutcome outcome;
    for (const auto& [path, text, read] : {std::tuple(baseline_path, baseline_text, baseline_read),
                                           std::tuple(current_path, current_text, current_read)}) {
      if (!read.ok()) {
        outcome.errors += read.message() + "\n";
      } else {
        ReadResultFile(text, path, outcome.errors);
      }
    }
    return outcome;
  }
  return CompareResults(baseline_text, baseline_path, current_text, current_path, options);
}

}  // namespace fleetsim
