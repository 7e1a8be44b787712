// `fleetsim fill`: load, run on threads, compare, write.
#include "cli/fill_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <chrono>
#include <sstream>
#include <thread>

#include "cli/exit_status.h"
#include "cli/output_targets.h"
#include "cli/staged_outputs.h"
#include "fleetsim/core/file_system.h"
#include "fleetsim/fill/fill_scenario.h"
#include "fleetsim/fill/fill_suite.h"
#include "fleetsim/fill/fill_workload.h"
#include "fleetsim/fill/published_fill.h"
#include "json/json_text.h"

namespace fleetsim::cli {

namespace {

std::optional<FillScenario> Load(const std::string& path, bool strict, std::ostream& err) {
  FillLoadResult result = LoadFillScenarioFile(DiskFileSystem(), path);
  if (!result.file_status.ok()) {
    fmt::print(err, "{}\n", result.file_status.message());
    return std::nullopt;
  }
  if (strict) {
    result.diagnostics.PromoteWarnings();
  }
  fmt::print(err, "{}", result.diagnostics.Format(path));
  if (result.diagnostics.HasErrors()) {
    return std::nullopt;
  }
  return std::move(result.scenario);
}

}  // namespace

bool IsFillScenarioFile(const std::string& path) {
  std::string text;
  return DiskFileSystem().ReadFile(path, text).ok() && IsFillScenarioText(text);
}

bool ValidateFillScenario(const std::string& path, bool strict, std::ostream& err) {
  const std::optional<FillScenario> scenario = Load(path, strict, err);
  if (!scenario) {
    return false;
  }
  // The node and pod lists and the paper's results are read as `fleetsim fill` reads them.
  FillWorkload workload;
  Status status = LoadFillWorkload(DiskFileSystem(), scenario->nodes, scenario->pods,
                                   scenario->typical_popularity, workload);
  if (status.ok() && scenario->published) {
    PublishedFill published;
    status = LoadPublishedFill(DiskFileSystem(), *scenario->published, published);
  }
  if (!status.ok()) {
    fmt::print(err, "{}\n", status.message());
    return false;
  }
  return true;
}

int RunFillCommand(const FillArgs& args, std::ostream& out, std::ostream& err) {
  OutputTargets targets(/*dash_is_standard_output=*/false);
  targets.AddFile("--markdown", args.markdown_file);
  targets.AddFile("--curves", args.curves_file);
  targets.AddFile("--steps", args.steps_file);
  for (const std::string& scenario : args.scenarios) {
    targets.AddInput("the fill scenario", scenario);
  }
  targets.AddInput("the orders folder", args.orders_dir);
  if (!targets.Check("fleetsim", err)) {
    return ToInt(ExitStatus::kUsage);
  }
  std::vector<FillScenario> scenarios;
  bool ok = true;
  for (const std::string& path : args.scenarios) {
    if (std::optional<FillScenario> scenario = Load(path, args.strict, err)) {
      scenarios.push_back(std::move(*scenario));
    } else {
      ok = false;
    }
  }
  if (!ok) {
    return ToInt(ExitStatus::kInvalidInput);
  }
  const unsigned threads =
      args.threads > 0 ? args.threads : std::max(1U, std::thread::hardware_concurrency());
  const auto start = std::chrono::steady_clock::now();
  std::vector<FillScenarioResult> results;
  if (const Status status = RunFillSuite(
          DiskFileSystem(), scenarios,
          {.threads = threads,
           .seeds = args.seeds,
           .keep_steps = !args.steps_file.empty(),
           .orders_dir =
               args.orders_dir.empty() ? std::nullopt : std::optional<std::string>(args.orders_dir),
           .streams = args.artifact_streams ? FillStreams::kArtifact : FillStreams::kFleetsim},
          results);
      !status.ok()) {
    fmt::print(err, "{}\n", status.message());
    return ToInt(ExitStatus::kInvalidInput);
  }
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  const FillComparison comparison = CompareWithPublished(results, FillTargets{});
  std::vector<std::pair<std::string, std::string>> files;
  if (!args.markdown_file.empty()) {
    files.emplace_back(args.markdown_file, comparison.markdown);
  }
  if (!args.curves_file.empty()) {
    std::ostringstream curves;
    WriteFillCurvesCsv(results, curves);
    files.emplace_back(args.curves_file, curves.str());
  }
  if (!args.steps_file.empty()) {
    std::ostringstream steps;
    WriteFillStepsCsv(results, steps);
    files.emplace_back(args.steps_file, steps.str());
  }
  StagedOutputs staged;
  if (const int status = staged.Stage(files, err); status != ToInt(ExitStatus::kOk)) {
    return status;
  }
  if (const int status = staged.Commit(err); status != ToInt(ExitStatus::kOk)) {
    return status;
  }
  fmt::print(out, "{}", comparison.markdown);
  const bool targets_hold = comparison.cells_within == comparison.cells && comparison.order_matches;
  if (args.timing) {
    std::int64_t runs = 0;
    for (const FillScenarioResult& result : results) {
      for (const FillPolicyResult& policy : result.policies) {
        runs += static_cast<std::int64_t>(policy.seeds.size());
      }
    }
    fmt::print(err, "fleetsim fill: {} runs in {:.2f} s on {} thread{}\n", runs, took.count(),
               threads, threads == 1 ? "" : "s");
  }
  if (args.check && !targets_hold) {
    fmt::print(err,
               "fleetsim fill: targets missed: {} of {} cells within tolerance, best and worst "
               "policies {}\n",
               comparison.cells_within, comparison.cells,
               comparison.order_matches ? "match" : "do not match");
    return ToInt(ExitStatus::kDrift);
  }
  return ToInt(ExitStatus::kOk);
}

}  // namespace fleetsim::cli
