// `fleetsim export`.
#include "cli/export_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <charconv>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <vector>

#include "cli/exit_status.h"
#include "cli/output_targets.h"
#include "cli/staged_outputs.h"
#include "fleetsim/core/file_system.h"
#include "fleetsim/core/time.h"
#include "fleetsim/report/dcgm_export.h"
#include "fleetsim/report/output_sink.h"
#include "fleetsim/report/outputs.h"
#include "fleetsim/report/sacct_export.h"
#include "fleetsim/scenario/runner.h"
#include "fleetsim/scenario/scenario.h"
#include "json/json_checker.h"
#include "json/json_text.h"
#include "text/utc_time.h"

namespace fleetsim::cli {

namespace {

// An error and the exit status it ends the command with.
struct Failure {
  std::string message;
  ExitStatus status = ExitStatus::kInvalidInput;
};

// What summary.json says was run.
struct RunFacts {
  std::string scenario_name;
  PolicyChoice policy;
  std::uint64_t seed = 0;
  std::int64_t window_end_s = 0;  // the metrics window's end, whole seconds
};

// A JSON value as an error message quotes it.
std::string Shown(const nlohmann::json& value) { return value.dump(); }

// The value at `pointer` of `summary`, checked by `is`; a failure names the file and pointer.
std::optional<Failure> Expect(const nlohmann::json& summary, const std::string& file,
                              const std::string& pointer, bool (nlohmann::json::*is)() const,
                              const char* expected) {
  const nlohmann::json::json_pointer at(pointer);
  if (!summary.contains(at)) {
    return Failure{fmt::format("{}: {}: expected {}, found nothing", file, pointer, expected)};
  }
  if (!(summary.at(at).*is)()) {
    return Failure{fmt::format("{}: {}: expected {}, found {}", file, pointer, expected,
                               Shown(summary.at(at)))};
  }
  return std::nullopt;
}

std::optional<Failure> ReadRunFacts(const std::string& file, const PolicyRegistry& registry,
                                    RunFacts& facts) {
  std::string text;
  if (const Status status = DiskFileSystem().ReadFile(file, text); !status.ok()) {
    return Failure{status.message()};
  }
  nlohmann::json summary;
  if (const Status status = ParseJsonText(text, file, summary); !status.ok()) {
    return Failure{status.message()};
  }
  if (!summary.is_object()) {
    return Failure{fmt::format("{}: expected the JSON object 'fleetsim run --out' writes, found {}",
                               file, Shown(summary))};
  }
  for (const auto& [pointer, is, expected] :
       {std::tuple{"/scenario/name", &nlohmann::json::is_string, "a string"},
        std::tuple{"/seed", &nlohmann::json::is_number_unsigned, "an integer >= 0"},
        std::tuple{"/policy", &nlohmann::json::is_object, "an object"},
        std::tuple{"/metrics/window_end_s", &nlohmann::json::is_number, "a number"}}) {
    if (auto failure = Expect(summary, file, pointer, is, expected)) {
      return failure;
    }
  }
  facts.scenario_name = summary["scenario"]["name"].get<std::string>();
  facts.seed = summary["seed"].get<std::uint64_t>();
  const double window_end_s = summary["metrics"]["window_end_s"].get<double>();
  if (!(window_end_s >= 0 && window_end_s <= 1e15)) {
    return Failure{
        fmt::format("{}: /metrics/window_end_s: expected a time in seconds from 0 to "
                    "1e15, found {}",
                    file, Shown(summary["metrics"]["window_end_s"]))};
  }
  facts.window_end_s = static_cast<std::int64_t>(window_end_s);
  PolicyLoad policy = ParsePolicyChoice(summary["policy"].dump(), file, registry);
  if (!policy.policy) {
    const nlohmann::json& asked = summary["policy"];
    const bool unknown = !asked.contains("name") || !asked["name"].is_string() ||
                         registry.Find(asked["name"].get<std::string>()) == nullptr;
    std::string message = policy.diagnostics.Format(file);
    if (unknown) {
      message += "(a policy written in Python needs its --policy-module)";
    } else if (message.ends_with('\n')) {
      message.pop_back();
    }
    return Failure{message};
  }
  facts.policy = *policy.policy;
  return std::nullopt;
}

// The first line where `expected` (the rerun's jobs.csv) and `found` (the run's) differ, or
// nullopt when they are equal.
std::optional<std::string> FirstDifference(const std::string& expected, const std::string& found) {
  std::size_t line = 1;
  std::size_t a = 0;
  std::size_t b = 0;
  while (a < expected.size() || b < found.size()) {
    const std::size_t a_end = std::min(expected.find('\n', a), expected.size());
    const std::size_t b_end = std::min(found.find('\n', b), found.size());
    const std::string_view mine(expected.data() + a, a_end - a);
    const std::string_view theirs(found.data() + b, b_end - b);
    if (mine != theirs || (a_end == expected.size()) != (b_end == found.size())) {
      return fmt::format("line {}: the run directory has '{}', the rerun gives '{}'", line,
                         b < found.size() ? theirs : "(end of file)",
                         a < expected.size() ? mine : "(end of file)");
    }
    a = a_end + 1;
    b = b_end + 1;
    ++line;
  }
  return std::nullopt;
}

// The scenario, checked against the run directory's facts.
std::optional<Failure> LoadScenario(const ExportArgs& args, const PolicyRegistry& registry,
                                    const Catalog& catalog, const RunFacts& facts,
                                    std::ostream& err, std::optional<Scenario>& scenario) {
  LoadResult result = LoadScenarioFile(args.scenario, registry, {.catalog = &catalog});
  if (!result.file_status.ok()) {
    return Failure{result.file_status.message()};
  }
  fmt::print(err, "{}", result.diagnostics.Format(args.scenario));
  if (!result.scenario) {
    return Failure{fmt::format("{}: the scenario has errors (above)", args.scenario)};
  }
  if (result.scenario->name != facts.scenario_name) {
    return Failure{
        fmt::format("{}: /name: expected '{}', the scenario of {}/summary.json, found "
                    "'{}'",
                    args.scenario, facts.scenario_name, args.run_dir, result.scenario->name),
        ExitStatus::kUsage};
  }
  scenario = std::move(result.scenario);
  return std::nullopt;
}

// Runs the scenario as the run directory says it ran and checks its jobs.csv.
std::optional<Failure> Rerun(const ExportArgs& args, const Scenario& scenario,
                             const PolicyRegistry& registry, const RunFacts& facts,
                             RunReport& report) {
  RunOptions options;
  options.seed = facts.seed;
  options.record_timeline = true;
  RunOutcome outcome = RunScenario(scenario, registry, facts.policy, options);
  if (!outcome.status.ok()) {
    return Failure{
        fmt::format("fleetsim export: scenario '{}', policy '{}', seed {}: {}", scenario.name,
                    facts.policy.name, facts.seed, outcome.status.message()),
        ExitStatus::kPolicyError};
  }
  const std::string jobs_file = (std::filesystem::path(args.run_dir) / "jobs.csv").string();
  std::string jobs;
  if (const Status status = DiskFileSystem().ReadFile(jobs_file, jobs); !status.ok()) {
    return Failure{status.message()};
  }
  if (const auto difference = FirstDifference(JobsCsv(outcome.report), jobs)) {
    return Failure{
        fmt::format("{}: not what '{}' gives under policy '{}' with seed {} (a "
                    "different scenario file, fleetsim version or catalog?): {}",
                    jobs_file, args.scenario, facts.policy.name, facts.seed, *difference),
        ExitStatus::kUsage};
  }
  report = std::move(outcome.report);
  return std::nullopt;
}

// The run folder's summary.json and jobs.csv must be those its manifest lists (the folder
// verifies: report/output_sink.h), not files of an interrupted commit or changed after the run.
std::optional<Failure> CheckCommitted(const std::string& run_dir) {
  std::vector<std::string> problems;
  const std::optional<std::set<std::string>> committed =
      CommittedFiles(DiskFileSystem(), run_dir, problems);
  if (!committed) {
    return Failure{
        fmt::format("fleetsim export: {}: not one complete run's results (`fleetsim "
                    "verify`): {}",
                    run_dir, problems.front())};
  }
  for (const char* name : {"summary.json", "jobs.csv"}) {
    std::error_code error;
    const std::string path = std::filesystem::absolute(std::filesystem::path(run_dir) / name, error)
                                 .lexically_normal()
                                 .string();
    if (!committed->contains(path)) {
      return Failure{
          fmt::format("fleetsim export: {}: not a file of the run its folder's "
                      "manifest lists (expected a one-run 'fleetsim run --out' folder)",
                      path)};
    }
  }
  return std::nullopt;
}

std::optional<Failure> Export(const ExportArgs& args, const PolicyRegistry& registry,
                              const Catalog& catalog, std::ostream& err,
                              std::vector<std::pair<std::string, std::string>>& files) {
  const std::optional<std::int64_t> epoch = ParseUtcTimestamp(args.epoch, 'T');
  if (!epoch) {
    return Failure{fmt::format("fleetsim export: --epoch: expected a UTC time as "
                               "YYYY-MM-DDTHH:MM:SS, found '{}'",
                               args.epoch),
                   ExitStatus::kUsage};
  }
  const std::optional<std::int64_t> interval = ParseInterval(args.interval);
  if (!interval) {
    return Failure{fmt::format("fleetsim export: --interval: expected a whole number of seconds "
                               "above 0, with an optional unit s, m, h or d (60, 60s, 5m), found "
                               "'{}'",
                               args.interval),
                   ExitStatus::kUsage};
  }
  if (auto failure = CheckCommitted(args.run_dir)) {
    return failure;
  }
  RunFacts facts;
  if (auto failure = ReadRunFacts((std::filesystem::path(args.run_dir) / "summary.json").string(),
                                  registry, facts)) {
    return failure;
  }
  // The rows' times are written as calendar dates of at most four digits' year; checked before
  // the rerun, from the summary's window (the rerun must give that run: its jobs.csv is checked).
  constexpr std::int64_t kLastWritableUtc = 253402300799;  // 9999-12-31T23:59:59
  const std::int64_t run_seconds =  // every time the rows hold, and a sample's rounding
      facts.window_end_s + *interval + 1;
  if (*epoch > kLastWritableUtc - run_seconds) {
    return Failure{fmt::format("fleetsim export: --epoch: {} plus the run's {} s passes "
                               "9999-12-31T23:59:59, the last time the rows can be written in",
                               args.epoch, run_seconds),
                   ExitStatus::kUsage};
  }
  std::optional<Scenario> scenario;
  if (auto failure = LoadScenario(args, registry, catalog, facts, err, scenario)) {
    return failure;
  }
  RunReport report;
  if (auto failure = Rerun(args, *scenario, registry, facts, report)) {
    return failure;
  }
  if (report.metrics.window_end / kMillisPerSecond != facts.window_end_s) {
    return Failure{
        fmt::format("fleetsim export: {}/summary.json: metrics.window_end_s is {}, the "
                    "rerun's window ends at {} s (the summary was changed?)",
                    args.run_dir, facts.window_end_s, report.metrics.window_end / kMillisPerSecond),
        ExitStatus::kUsage};
  }
  if (!args.dcgm.empty()) {
    if (const Status status = CheckDcgmExportSize(report, *interval); !status.ok()) {
      return Failure{fmt::format("fleetsim export: {}", status.message()), ExitStatus::kUsage};
    }
  }
  const Workload workload = BuildWorkload(*scenario, facts.seed);
  if (!args.sacct.empty()) {
    files.emplace_back(args.sacct, SacctExport(report, workload, scenario->fleet, *epoch));
  }
  if (!args.dcgm.empty()) {
    files.emplace_back(args.dcgm, DcgmExport(report, workload, scenario->fleet,
                                             {.epoch = *epoch, .interval_s = *interval}));
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::int64_t> ParseInterval(const std::string& text) {
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc() || stop == text.data() || value <= 0 || value > 1'000'000'000) {
    return std::nullopt;
  }
  const std::string unit(stop, end);
  const std::int64_t scale = unit.empty() || unit == "s" ? 1
                             : unit == "m"               ? 60
                             : unit == "h"               ? 3600
                             : unit == "d"               ? 86400
                                                         : 0;
  if (scale == 0) {
    return std::nullopt;
  }
  return value * scale;
}

CLI::App* AddExportCommand(CLI::App& app, ExportArgs& args) {
  CLI::App* command = app.add_subcommand(
      "export",
      "Write a run directory's jobs as sacct rows and its GPUs as dcgm-exporter telemetry "
      "(OpenMetrics), rerunning its scenario to recover the placements");
  command->add_option("run_dir", args.run_dir, "A one-run folder written by 'fleetsim run --out'")
      ->required();
  command->add_option("--scenario", args.scenario, "The scenario file the run was made from")
      ->required();
  command->add_option("--sacct", args.sacct, "Write the jobs as sacct --parsable2 rows here");
  command->add_option("--dcgm", args.dcgm, "Write per-GPU DCGM telemetry (OpenMetrics text) here");
  command->add_option("--interval", args.interval,
                      "Time between DCGM samples: seconds, or with a unit s, m, h, d. Default: "
                      "60s");
  command->add_option("--epoch", args.epoch,
                      "The UTC time of simulated time 0, YYYY-MM-DDTHH:MM:SS. Default: "
                      "2026-01-01T00:00:00");
  return command;
}

int RunExportCommand(const ExportArgs& args, const PolicyRegistry& registry, const Catalog& catalog,
                     std::ostream& out, std::ostream& err) {
  if (args.sacct.empty() && args.dcgm.empty()) {
    fmt::print(err, "fleetsim export: nothing to write: give --sacct FILE, --dcgm FILE or both\n");
    return ToInt(ExitStatus::kUsage);
  }
  OutputTargets targets(/*dash_is_standard_output=*/false);
  targets.AddFile("--sacct", args.sacct);
  targets.AddFile("--dcgm", args.dcgm);
  targets.AddInput("the run folder", args.run_dir);
  targets.AddInput("the scenario", args.scenario);
  if (!targets.Check("fleetsim export", err)) {
    return ToInt(ExitStatus::kUsage);
  }
  std::vector<std::pair<std::string, std::string>> files;
  if (const auto failure = Export(args, registry, catalog, err, files)) {
    fmt::print(err, "{}\n", failure->message);
    return ToInt(failure->status);
  }
  StagedOutputs staged;
  if (const int status = staged.Stage(files, err); status != ToInt(ExitStatus::kOk)) {
    return status;
  }
  if (const int status = staged.Commit(err); status != ToInt(ExitStatus::kOk)) {
    return status;
  }
  for (const auto& [path, text] : files) {
    fmt::print(out, "{}: wrote {} ({} bytes)\n", args.run_dir, path, text.size());
  }
  return ToInt(ExitStatus::kOk);
}

}  // namespace fleetsim::cli
