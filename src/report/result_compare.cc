// Reading benchmark result files and comparing them metric by metric (docs/regression.md).
#include "fleetsim/report/result_compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
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

// "+0.004 (+0.509%)": current − baseline, exact for integers, and relative to the baseline.
std::string DescribeDifference(const json& baseline, const json& current, double difference) {
  std::string text;
  const long double exact = Exact(current) - Exact(baseline);
  if (baseline.is_number_integer() && current.is_number_integer() && std::fabs(exact) < 9e18L) {
    text = fmt::format("{:+}", static_cast<std::int64_t>(exact));
  } else {
    text = fmt::format("{:+.6g}", difference);
  }
  const double base = baseline.get<double>();
  if (base != 0 && std::isfinite(difference)) {
    text += fmt::format(" ({:+.3g}%)", difference / std::fabs(base) * 100);
  }
  return text;
}

std::string FormatTolerance(double tolerance) { return fmt::format("{}", tolerance); }

// ---- The report ----

struct Row {
  std::string policy;
  std::string metric;
  std::string change;  // "0.786 -> 0.79"
  std::string detail;  // the difference, or facts about a lone result
  std::string status;  // "beyond tolerance (exact)", "drift: seeds differ", ...
};

struct Block {
  std::string scenario;
  std::vector<Row> rows;
};

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
      block_ = {scenario, {}};
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
      if (!block_.rows.empty()) {
        blocks_.push_back(std::move(block_));
      }
    }
  }

  std::string Render() const {
    std::size_t policy_width = 0;
    std::size_t metric_width = 0;
    std::size_t change_width = 0;
    std::size_t detail_width = 0;
    for (const Block& block : blocks_) {
      for (const Row& row : block.rows) {
        policy_width = std::max(policy_width, row.policy.size());
        metric_width = std::max(metric_width, row.metric.size());
        change_width = std::max(change_width, row.change.size());
        detail_width = std::max(detail_width, row.detail.size());
      }
    }
    std::string text;
    for (const Block& block : blocks_) {
      text += block.scenario + "\n";
      for (const Row& row : block.rows) {
        text += fmt::format("  {:<{}}  {:<{}}  {:<{}}  {:<{}}  {}\n", row.policy, policy_width,
                            row.metric, metric_width, row.change, change_width, row.detail,
                            detail_width, row.status);
      }
    }
    return text;
  }

 private:
  double ToleranceFor(const std::string& metric) const {
    const auto it = options_.metric_tolerances.find(metric);
    return it == options_.metric_tolerances.end() ? options_.tolerance : it->second;
  }

  // A drift entry; CompareValues fills in the numbers of a kValue one.
  static ResultDiff Diff(const Entry& entry, std::string metric, DiffKind kind,
                         std::string baseline, std::string current) {
    ResultDiff diff;
    diff.scenario = entry.scenario;
    diff.policy = entry.policy;
    diff.metric = std::move(metric);
    diff.kind = kind;
    diff.baseline = std::move(baseline);
    diff.current = std::move(current);
    return diff;
  }

  void Add(ResultDiff diff, Row row) {
    outcome_.diffs.push_back(std::move(diff));
    block_.rows.push_back(std::move(row));
  }

  void LoneResult(const Entry& entry, DiffKind kind) {
    const bool in_baseline = kind == DiffKind::kResultOnlyInBaseline;
    (in_baseline ? outcome_.results_only_in_baseline : outcome_.results_only_in_current)++;
    const std::string where = in_baseline ? "baseline" : "current";
    Add(Diff(entry, "", kind, "", ""),
        {.policy = entry.policy,
         .metric = "(result)",
         .change = in_baseline ? "present -> absent" : "absent -> present",
         .detail = fmt::format("seed {}, {} metric{}", entry.seed, entry.metrics.size(),
                               entry.metrics.size() == 1 ? "" : "s"),
         .status = fmt::format("drift: result only in the {}", where)});
  }

  void CompareEntries(const Entry& baseline, const Entry& current) {
    ++outcome_.results_compared;
    if (baseline.seed != current.seed) {
      ++outcome_.seeds_differ;
      Add(Diff(baseline, "seed", DiffKind::kSeed, fmt::format("{}", baseline.seed),
               fmt::format("{}", current.seed)),
          {.policy = baseline.policy,
           .metric = "seed",
           .change = fmt::format("{} -> {}", baseline.seed, current.seed),
           .detail = "",
           .status = "drift: seeds differ"});
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
        ++outcome_.metrics_beyond;
        Add(Diff(baseline, name,
                 in_baseline ? DiffKind::kMetricOnlyInBaseline : DiffKind::kMetricOnlyInCurrent,
                 in_baseline ? value.dump() : "", in_baseline ? "" : value.dump()),
            {.policy = baseline.policy,
             .metric = name,
             .change = in_baseline ? value.dump() + " -> absent" : "absent -> " + value.dump(),
             .detail = "",
             .status = fmt::format("drift: metric only in the {}",
                                   in_baseline ? "baseline" : "current")});
        continue;
      }
      CompareValues(baseline, name, b->second, c->second);
    }
  }

  void CompareValues(const Entry& entry, const std::string& name, const json& b, const json& c) {
    if (b.is_null() && c.is_null()) {
      return;
    }
    ResultDiff diff = Diff(entry, name, DiffKind::kValue, b.dump(), c.dump());
    Row row{.policy = entry.policy,
            .metric = name,
            .change = fmt::format("{} -> {}", b.dump(), c.dump()),
            .detail = "",
            .status = ""};
    if (b.is_null() || c.is_null()) {
      ++outcome_.metrics_beyond;
      diff.kind = DiffKind::kNullVsNumber;
      row.status = "drift: null vs number";
      Add(std::move(diff), std::move(row));
      return;
    }
    if (SameNumber(b, c)) {
      return;
    }
    const double tolerance = ToleranceFor(name);
    diff.difference = static_cast<double>(Exact(c) - Exact(b));
    diff.allowed = AllowedDifference(b.get<double>(), c.get<double>(), tolerance);
    // Exact means any difference, even one a double cannot show (integers beyond 2^53).
    diff.beyond = tolerance == 0 || !(std::fabs(diff.difference) <= diff.allowed);
    row.detail = DescribeDifference(b, c, diff.difference);
    if (tolerance == 0) {
      row.status = "beyond tolerance (exact)";
    } else {
      row.status =
          fmt::format("{} tolerance (±{:.6g})", diff.beyond ? "beyond" : "within", diff.allowed);
    }
    ++(diff.beyond ? outcome_.metrics_beyond : outcome_.metrics_within);
    Add(std::move(diff), std::move(row));
  }

  const CompareOptions& options_;
  CompareOutcome& outcome_;
  Block block_;
  std::vector<Block> blocks_;
};

std::string Plural(std::size_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string SummaryLine(const CompareOutcome& o) {
  std::string line = Plural(o.results_compared, "result compared", "results compared");
  if (o.diffs.empty()) {
    return line + ", identical\n";
  }
  line += ", " + Plural(o.metrics_beyond, "metric differs beyond tolerance",
                        "metrics differ beyond tolerance");
  if (o.metrics_within > 0) {
    line += fmt::format(" ({} within tolerance)", o.metrics_within);
  }
  if (o.seeds_differ > 0) {
    line += ", " + Plural(o.seeds_differ, "seed differs", "seeds differ");
  }
  if (o.results_only_in_baseline > 0) {
    line += ", " + Plural(o.results_only_in_baseline, "result only in the baseline",
                          "results only in the baseline");
  }
  if (o.results_only_in_current > 0) {
    line += ", " + Plural(o.results_only_in_current, "result only in the current",
                          "results only in the current");
  }
  return line + "\n";
}

std::string DescribeFile(const std::string& name, const ResultFile& file) {
  std::string facts = Plural(file.entries.size(), "result", "results");
  if (!file.fleetsim_version.empty()) {
    facts = fmt::format("fleetsim {}, {}", file.fleetsim_version, facts);
  }
  return fmt::format("{} ({})", name, facts);
}

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
  Comparison comparison(options, outcome);
  comparison.Run(*baseline, *current);
  outcome.report = fmt::format("baseline: {}\ncurrent:  {}\ntolerance: {}\n\n",
                               DescribeFile(baseline_name, *baseline),
                               DescribeFile(current_name, *current), DescribeTolerances(options));
  const std::string body = comparison.Render();
  if (!body.empty()) {
    outcome.report += body + "\n";
  }
  outcome.report += SummaryLine(outcome);
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
