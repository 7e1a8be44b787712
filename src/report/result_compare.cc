// Reading benchmark result files and comparing them metric by metric (docs/regression.md).
#include "fleetsim/report/result_compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include "fleetsim/core/diagnostics.h"
#include "fleetsim/core/file_system.h"
#include "fleetsim/core/sample_stats.h"
#include "fleetsim/report/output_sink.h"
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
  std::string axes;  // a sweep's axes but policy and seed, "name=value, ..."; "" elsewhere
  std::uint64_t seed = 0;
  std::map<std::string, json> metrics;  // numbers or nulls, by name
};

struct ResultFile {
  std::string fleetsim_version;  // "" when absent
  std::vector<Entry> entries;    // in file order
};

// What identifies a result within a file, for the duplicate check.
using EntryId = std::tuple<std::string, std::string, std::string, std::uint64_t>;

// `metrics` (numbers or nulls) into `entry`; a value of another type is an error at its path.
bool ReadMetrics(const json& metrics, const std::string& path, JsonChecker& checker, Entry& entry) {
  bool ok = true;
  for (const auto& [name, value] : metrics.items()) {
    if (!value.is_number() && !value.is_null()) {
      checker.Error(ChildPath(path, name),
                    fmt::format("expected a number or null, found {}", Shown(value)));
      ok = false;
      continue;
    }
    entry.metrics.emplace(name, value);
  }
  return ok;
}

// A sweep run's axes as text: "name=value" (strings as written, other values as compact JSON).
std::string AxesText(const json& axes) {
  std::string text;
  for (const auto& [name, value] : axes.items()) {
    text += fmt::format("{}{}={}", text.empty() ? "" : ", ", name,
                        value.is_string() ? value.get<std::string>() : value.dump());
  }
  return text;
}

// One result of a bench file (`results`) or one run of a sweep's results.json (`runs`, whose
// axes are part of its identity). A result identified twice is an error.
void ReadEntry(const json& item, const std::string& path, bool sweep, JsonChecker& checker,
               std::vector<Entry>& entries, std::map<EntryId, std::string>& first_path) {
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
  const json* axes = sweep ? checker.Object(item, path, "axes", true) : nullptr;
  Entry entry;
  bool ok = scenario && policy && seed && metrics != nullptr && (!sweep || axes != nullptr);
  if (metrics != nullptr) {
    ok = ReadMetrics(*metrics, ChildPath(path, "metrics"), checker, entry) && ok;
  }
  if (scenario && policy && (!sweep || (seed && axes != nullptr))) {
    // A bench file has one result per (scenario, policy); a sweep one run per point.
    const std::string axes_text = axes != nullptr ? AxesText(*axes) : "";
    const EntryId id{*scenario, *policy, axes_text, sweep ? *seed : 0};
    if (const auto [it, inserted] = first_path.emplace(id, path); !inserted) {
      checker.Error(path, sweep ? fmt::format("a second run for scenario '{}', policy '{}', "
                                              "axes '{}' and seed {} (the first is {})",
                                              *scenario, *policy, axes_text, *seed, it->second)
                                : fmt::format("a second result for scenario '{}' and policy "
                                              "'{}' (the first is {}); each pair may appear once",
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
  entry.axes = axes != nullptr ? AxesText(*axes) : "";
  entries.push_back(std::move(entry));
}

// Parses and checks one result document, a bench file (`results`) or a sweep's results.json
// (`runs`); on failure appends its problems to `errors`.
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
  const bool sweep = root.is_object() && root.contains("runs");
  if (!root.is_object()) {
    checker.Error("", fmt::format("expected an object with format_version and results (as "
                                  "written by 'fleetsim bench --json') or runs (a sweep's "
                                  "results.json), found {}",
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
    const std::string key = sweep ? "runs" : "results";
    if (const json* results = checker.Array(root, "", key, true); results != nullptr) {
      std::map<EntryId, std::string> first_path;
      for (std::size_t i = 0; i < results->size(); ++i) {
        ReadEntry((*results)[i], ChildPath("/" + key, i), sweep, checker, file.entries, first_path);
      }
    }
  }
  if (diagnostics.HasErrors()) {
    errors += diagnostics.Format(name);
    return std::nullopt;
  }
  return file;
}

// The numbers and nulls under `value`, by dotted path ("wait.p99_s"); other values left out.
void FlattenMetrics(const json& value, const std::string& prefix,
                    std::map<std::string, json>& metrics) {
  if (value.is_object()) {
    for (const auto& [name, child] : value.items()) {
      FlattenMetrics(child, prefix.empty() ? name : prefix + "." + name, metrics);
    }
  } else if ((value.is_number() || value.is_null()) && !prefix.empty()) {
    metrics.emplace(prefix, value);
  }
}

// One run's summary.json: its scenario, policy, seed and every number under `metrics`.
bool ReadSummary(const std::string& text, const std::string& name, std::string& errors,
                 ResultFile& file) {
  json root;
  if (const Status status = ParseJsonText(text, name, root); !status.ok()) {
    errors += status.message() + "\n";
    return false;
  }
  Diagnostics diagnostics;
  JsonChecker checker(diagnostics);
  Entry entry;
  const json* scenario = root.is_object() ? checker.Object(root, "", "scenario", true) : nullptr;
  const json* policy = root.is_object() ? checker.Object(root, "", "policy", true) : nullptr;
  const std::optional<std::uint64_t> seed =
      root.is_object() ? checker.Unsigned(root, "", "seed", true) : std::nullopt;
  const json* metrics = root.is_object() ? checker.Object(root, "", "metrics", true) : nullptr;
  if (!root.is_object()) {
    checker.Error("", fmt::format("expected a run's summary.json object, found {}", Shown(root)));
  }
  const std::optional<std::string> scenario_name =
      scenario != nullptr ? checker.String(*scenario, "/scenario", "name", true) : std::nullopt;
  const std::optional<std::string> policy_name =
      policy != nullptr ? checker.String(*policy, "/policy", "name", true) : std::nullopt;
  if (diagnostics.HasErrors() || !scenario_name || !policy_name || !seed || metrics == nullptr) {
    errors += diagnostics.Format(name);
    return false;
  }
  if (file.fleetsim_version.empty()) {
    file.fleetsim_version = checker.String(root, "", "fleetsim_version", false).value_or("");
  }
  entry.scenario = *scenario_name;
  entry.policy = *policy_name;
  entry.seed = *seed;
  FlattenMetrics(*metrics, "", entry.metrics);
  file.entries.push_back(std::move(entry));
  return true;
}

// A `fleetsim run --out` folder, or a folder inside one: every summary.json under it
// (DIR/summary.json, DIR/SCENARIO/POLICY/summary.json, DIR/SCENARIO/POLICY/seed-N/summary.json)
// that the run's manifest lists, in path order: a folder whose commit does not verify is refused
// (report/output_sink.h), and files of earlier runs left beside the listed ones are not read.
std::optional<ResultFile> ReadRunFolder(const std::string& dir, std::string& errors) {
  namespace fs = std::filesystem;
  std::vector<std::string> problems;
  const std::optional<std::set<std::string>> committed =
      CommittedFiles(DiskFileSystem(), dir, problems);
  if (!committed) {
    errors += fmt::format("{}: not one complete run's results (`fleetsim verify`): {}\n", dir,
                          problems.front());
    return std::nullopt;
  }
  std::error_code error;
  fs::path start = fs::absolute(dir, error).lexically_normal();
  if (start.filename().empty()) {
    start = start.parent_path();  // "DIR/" is DIR
  }
  std::vector<std::string> paths;
  for (const std::string& path : *committed) {  // the manifest's files under `dir`
    const fs::path inside = fs::path(path).lexically_relative(start);
    if (fs::path(path).filename() == "summary.json" && !inside.empty() && *inside.begin() != "..") {
      paths.push_back((fs::path(dir) / inside).string());
    }
  }
  if (paths.empty()) {
    errors += fmt::format(
        "{}: no summary.json of its run under it (expected a 'fleetsim run --out' folder)\n", dir);
    return std::nullopt;
  }
  std::sort(paths.begin(), paths.end());
  ResultFile file;
  bool ok = true;
  std::map<EntryId, std::string> first_path;
  for (const std::string& path : paths) {
    std::string text;
    if (const Status read = DiskFileSystem().ReadFile(path, text); !read.ok()) {
      errors += read.message() + "\n";
      ok = false;
    } else if (ReadSummary(text, path, errors, file)) {
      const Entry& entry = file.entries.back();
      const EntryId id{entry.scenario, entry.policy, "", entry.seed};
      if (const auto [it, inserted] = first_path.emplace(id, path); !inserted) {
        errors += fmt::format(
            "{}: a second run of scenario '{}', policy '{}' and seed {} (the "
            "first is {})\n",
            path, entry.scenario, entry.policy, entry.seed, it->second);
        ok = false;
      }
    } else {
      ok = false;
    }
  }
  return ok ? std::optional<ResultFile>(std::move(file)) : std::nullopt;
}

// A result file, or a run folder when `path` is a directory.
std::optional<ResultFile> ReadResults(const std::string& path, std::string& errors) {
  if (std::filesystem::is_directory(path)) {
    return ReadRunFolder(path, errors);
  }
  std::string text;
  if (const Status read = DiskFileSystem().ReadFile(path, text); !read.ok()) {
    errors += read.message() + "\n";
    return std::nullopt;
  }
  return ReadResultFile(text, path, errors);
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

// What matches a result across the files: scenario, policy, a sweep's axes, and the seed when
// a file holds several seeds of one (scenario, policy, axes).
using MatchKey = std::tuple<std::string, std::string, std::string, std::uint64_t>;
using CellKey = std::tuple<std::string, std::string, std::string>;

CellKey CellOf(const Entry& e) { return {e.scenario, e.policy, e.axes}; }

bool HasSeveralSeeds(const ResultFile& file) {
  std::set<CellKey> cells;
  return std::any_of(file.entries.begin(), file.entries.end(),
                     [&](const Entry& e) { return !cells.insert(CellOf(e)).second; });
}

// Scenarios in the baseline's order, then those only the current file has, in its order.
std::vector<std::string> ScenarioOrder(const ResultFile& baseline, const ResultFile& current) {
  std::vector<std::string> scenarios;
  for (const ResultFile* file : {&baseline, &current}) {
    for (const Entry& e : file->entries) {
      if (std::find(scenarios.begin(), scenarios.end(), e.scenario) == scenarios.end()) {
        scenarios.push_back(e.scenario);
      }
    }
  }
  return scenarios;
}

class Comparison {
 public:
  Comparison(const CompareOptions& options, CompareOutcome& outcome)
      : options_(options), outcome_(outcome) {}

  // Result by result: a metric's values compared under its tolerance.
  void Run(const ResultFile& baseline, const ResultFile& current) {
    const bool by_seed = HasSeveralSeeds(baseline) || HasSeveralSeeds(current);
    const auto key = [by_seed](const Entry& e) {
      return MatchKey{e.scenario, e.policy, e.axes, by_seed ? e.seed : 0};
    };
    std::map<MatchKey, const Entry*> in_current;
    for (const Entry& e : current.entries) {
      in_current.emplace(key(e), &e);
    }
    std::set<MatchKey> in_baseline;
    for (const Entry& e : baseline.entries) {
      in_baseline.insert(key(e));
    }
    for (const std::string& scenario : ScenarioOrder(baseline, current)) {
      for (const Entry& b : baseline.entries) {
        if (b.scenario == scenario) {
          const auto it = in_current.find(key(b));
          if (it == in_current.end()) {
            LoneResult(b, DiffKind::kResultOnlyInBaseline);
          } else {
            CompareEntries(b, *it->second);
          }
        }
      }
      for (const Entry& c : current.entries) {
        if (c.scenario == scenario && !in_baseline.contains(key(c))) {
          LoneResult(c, DiffKind::kResultOnlyInCurrent);
        }
      }
    }
  }

  // Cell by cell (scenario, policy, axes), seeds paired: a metric's mean difference over the
  // seeds both files ran, with its 95 % interval against the tolerance.
  void RunPaired(const ResultFile& baseline, const ResultFile& current) {
    std::vector<CellKey> order;
    std::map<CellKey, std::pair<SeedRuns, SeedRuns>> cells;
    for (const ResultFile* file : {&baseline, &current}) {
      for (const Entry& e : file->entries) {
        auto [it, fresh] = cells.try_emplace(CellOf(e));
        if (fresh) {
          order.push_back(it->first);
        }
        (file == &baseline ? it->second.first : it->second.second).emplace(e.seed, &e);
      }
    }
    for (const std::string& scenario : ScenarioOrder(baseline, current)) {
      for (const CellKey& cell : order) {
        if (std::get<0>(cell) == scenario) {
          ComparePairedCell(cells.at(cell).first, cells.at(cell).second);
        }
      }
    }
  }

 private:
  using SeedRuns = std::map<std::uint64_t, const Entry*>;

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
    check.axes = entry.axes;
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

  // A metric one side lacks: drift when the current lacks it, else an addition.
  void LoneMetric(const Entry& entry, const std::string& name, const json* baseline,
                  const json* current) {
    if (current == nullptr || options_.strict) {
      ++outcome_.metrics_beyond;
    }
    ResultDiff check = Check(
        entry, name,
        current == nullptr ? DiffKind::kMetricOnlyInBaseline : DiffKind::kMetricOnlyInCurrent,
        baseline != nullptr ? baseline->dump() : "", current != nullptr ? current->dump() : "");
    Add(std::move(check));
  }

  static std::set<std::string> MetricNames(const std::vector<const Entry*>& entries) {
    std::set<std::string> names;
    for (const Entry* entry : entries) {
      for (const auto& item : entry->metrics) {
        names.insert(item.first);
      }
    }
    return names;
  }

  void CompareEntries(const Entry& baseline, const Entry& current) {
    ++outcome_.results_compared;
    if (baseline.seed != current.seed) {
      ++outcome_.seeds_differ;
      Add(Check(baseline, "seed", DiffKind::kSeed, fmt::format("{}", baseline.seed),
                fmt::format("{}", current.seed)));
    }
    for (const std::string& name : MetricNames({&baseline, &current})) {
      const auto b = baseline.metrics.find(name);
      const auto c = current.metrics.find(name);
      if (b == baseline.metrics.end() || c == current.metrics.end()) {
        LoneMetric(baseline, name, b == baseline.metrics.end() ? nullptr : &b->second,
                   c == current.metrics.end() ? nullptr : &c->second);
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
    const long double exact = Exact(c) - Exact(b);
    check.difference = static_cast<double>(exact);
    if (b.is_number_integer() && c.is_number_integer() && std::fabs(exact) < 9e18L) {
      check.integer_difference = static_cast<std::int64_t>(exact);
    }
    check.allowed = AllowedDifference(b.get<double>(), c.get<double>(), tolerance);
    // Exact means any difference, even one a double cannot show (integers beyond 2^53).
    check.beyond = tolerance == 0 || !(std::fabs(check.difference) <= check.allowed);
    ++(check.beyond ? outcome_.metrics_beyond : outcome_.metrics_within);
    Add(std::move(check));
  }

  // One cell's seeds: those in one file alone are lone results; over the paired ones, each
  // metric's differences. A single pair is compared as a single result is.
  void ComparePairedCell(const SeedRuns& baseline, const SeedRuns& current) {
    std::vector<const Entry*> base;
    std::vector<const Entry*> cur;
    for (const auto& [seed, entry] : baseline) {
      const auto it = current.find(seed);
      if (it == current.end()) {
        LoneResult(*entry, DiffKind::kResultOnlyInBaseline);
      } else {
        base.push_back(entry);
        cur.push_back(it->second);
      }
    }
    for (const auto& [seed, entry] : current) {
      if (!baseline.contains(seed)) {
        LoneResult(*entry, DiffKind::kResultOnlyInCurrent);
      }
    }
    if (base.size() <= 1) {
      if (!base.empty()) {
        CompareEntries(*base.front(), *cur.front());
      }
      return;
    }
    outcome_.results_compared += base.size();
    std::vector<const Entry*> all = base;
    all.insert(all.end(), cur.begin(), cur.end());
    for (const std::string& name : MetricNames(all)) {
      ComparePairedMetric(base, cur, name);
    }
  }

  // A metric over a cell's pairs. A pair where one side lacks the metric, or has null against
  // a number, is reported with its seed and left out; the paired mean is over the others.
  void ComparePairedMetric(const std::vector<const Entry*>& base,
                           const std::vector<const Entry*>& cur, const std::string& name) {
    std::vector<double> b_values;
    std::vector<double> c_values;
    std::vector<double> differences;
    bool all_same = true;
    for (std::size_t i = 0; i < base.size(); ++i) {
      const auto b = base[i]->metrics.find(name);
      const auto c = cur[i]->metrics.find(name);
      if (b == base[i]->metrics.end() || c == cur[i]->metrics.end()) {
        LoneMetric(*base[i], name, b == base[i]->metrics.end() ? nullptr : &b->second,
                   c == cur[i]->metrics.end() ? nullptr : &c->second);
        continue;
      }
      if (b->second.is_null() != c->second.is_null()) {
        CompareValues(*base[i], name, b->second, c->second);  // null against a number: drift
        continue;
      }
      if (!b->second.is_null()) {
        all_same = all_same && SameNumber(b->second, c->second);
        b_values.push_back(b->second.get<double>());
        c_values.push_back(c->second.get<double>());
        differences.push_back(static_cast<double>(Exact(c->second) - Exact(b->second)));
      }
    }
    if (differences.empty()) {
      return;  // no pair with two numbers: what there was is reported above
    }
    ResultDiff check = Check(*base.front(), name, DiffKind::kPairedMean, "", "");
    check.pairs = differences.size();
    if (all_same) {
      check.kind = DiffKind::kSame;
      check.beyond = false;
      Add(std::move(check));
      return;
    }
    const SampleStats b = StatsOf(b_values);
    const SampleStats c = StatsOf(c_values);
    const SampleStats d = StatsOf(differences);
    check.baseline = json(*b.mean).dump();
    check.current = json(*c.mean).dump();
    check.difference = *d.mean;
    check.ci_low = d.ci_low.value_or(*d.mean);
    check.ci_high = d.ci_high.value_or(*d.mean);
    check.allowed = AllowedDifference(*b.mean, *c.mean, ToleranceFor(name));
    check.beyond = check.ci_low > check.allowed || check.ci_high < -check.allowed;
    ++(check.beyond ? outcome_.metrics_beyond : outcome_.metrics_within);
    Add(std::move(check));
  }

  const CompareOptions& options_;
  CompareOutcome& outcome_;
};

std::string DescribeTolerances(const CompareOptions& options) {
  std::string text =
      options.tolerance == 0
          ? std::string(options.seeds ? "exact (drift when a paired mean's 95% interval excludes 0)"
                                      : "exact (any difference is drift)")
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

namespace {

CompareOutcome CompareRead(const std::optional<ResultFile>& baseline,
                           const std::string& baseline_name,
                           const std::optional<ResultFile>& current,
                           const std::string& current_name, const CompareOptions& options,
                           CompareOutcome outcome) {
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
  outcome.seeds = options.seeds;
  Comparison comparison(options, outcome);
  if (options.seeds) {
    comparison.RunPaired(*baseline, *current);
  } else {
    comparison.Run(*baseline, *current);
  }
  return outcome;
}

}  // namespace

CompareOutcome CompareResults(const std::string& baseline_text, const std::string& baseline_name,
                              const std::string& current_text, const std::string& current_name,
                              const CompareOptions& options) {
  CompareOutcome outcome;
  const std::optional<ResultFile> baseline =
      ReadResultFile(baseline_text, baseline_name, outcome.errors);
  const std::optional<ResultFile> current =
      ReadResultFile(current_text, current_name, outcome.errors);
  return CompareRead(baseline, baseline_name, current, current_name, options, std::move(outcome));
}

CompareOutcome CompareResultFiles(const std::string& baseline_path, const std::string& current_path,
                                  const CompareOptions& options) {
  CompareOutcome outcome;
  // Both are read whatever the first gives: every problem of both is reported.
  const std::optional<ResultFile> baseline = ReadResults(baseline_path, outcome.errors);
  const std::optional<ResultFile> current = ReadResults(current_path, outcome.errors);
  return CompareRead(baseline, baseline_path, current, current_path, options, std::move(outcome));
}

}  // namespace fleetsim
