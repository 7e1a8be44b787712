// `fleetsim plan`: the planner's search, its runs recorded as a sweep's are (so a second call
// resumes), and its report.
#include "cli/plan_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <filesystem>
#include <thread>

#include "cli/exit_status.h"
#include "fleetsim/plan/plan_html.h"
#include "fleetsim/plan/plan_report.h"
#include "fleetsim/plan/plan_search.h"
#include "fleetsim/report/output_sink.h"
#include "fleetsim/sweep/sweep_results.h"
#include "fleetsim/sweep/sweep_runner.h"
#include "fleetsim/sweep/sweep_store.h"

namespace fleetsim::cli {

namespace {

namespace fs = std::filesystem;

// DIR may be new, empty, or hold an earlier plan's runs (records are reused by run id, which
// digests the run's whole scenario and seed, so no other plan's run can be taken for one of
// ours); a sweep's folder or any other content is refused.
std::string CheckPlanFolder(const std::string& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    return "";
  }
  if (!fs::is_directory(dir, ec)) {
    return fmt::format("{}: exists and is not a folder", dir);
  }
  if (fs::exists(fs::path(dir) / kSweepStateDir / "points.json", ec)) {
    return fmt::format("{} holds a sweep's results: choose another --out", dir);
  }
  if (fs::exists(fs::path(dir) / kSweepStateDir, ec) || fs::is_empty(dir, ec)) {
    return "";
  }
  return fmt::format("{}: exists and holds no plan: choose another --out, or an empty folder",
                     dir);
}

class PlanCommand {
 public:
  PlanCommand(const PlanArgs& args, const SweepContext& context) : args_(args), c_(context) {}

  int Run() {
    PlanLoad load = LoadPlanSpec(args_.spec, c_.registry, args_.strict);
    if (!load.file_error.empty()) {
      fmt::print(c_.err, "{}\n", load.file_error);
      return ToInt(ExitStatus::kInvalidInput);
    }
    fmt::print(c_.err, "{}", load.diagnostics.Format(args_.spec));
    if (!load.spec) {
      return ToInt(ExitStatus::kInvalidInput);
    }
    const PlanSpec& plan = *load.spec;
    const SweepExpansion expansion =
        ExpandSweep(plan.runs, c_.registry, {.strict = args_.strict, .catalog = c_.catalog});
    for (const std::string& line : expansion.warnings) {
      fmt::print(c_.err, "{}\n", line);
    }
    for (const std::string& line : expansion.errors) {
      fmt::print(c_.err, "{}\n", line);
    }
    if (!expansion.errors.empty()) {
      return ToInt(ExitStatus::kInvalidInput);
    }
    const PlanCandidates candidates = BuildCandidates(plan, expansion);
    for (const std::string& line : candidates.errors) {
      fmt::print(c_.err, "{}\n", line);
    }
    if (!candidates.errors.empty()) {
      return ToInt(ExitStatus::kInvalidInput);
    }
    if (std::string problem = CheckPlanFolder(args_.out_dir); !problem.empty()) {
      fmt::print(c_.err, "fleetsim: {}\n", problem);
      return ToInt(ExitStatus::kUsage);
    }
    return Search(plan, candidates);
  }

 private:
  int Search(const PlanSpec& plan, const PlanCandidates& candidates) {
    std::vector<std::string> warnings;
    records_ = ReadRecords(args_.out_dir, warnings);
    for (const std::string& line : warnings) {
      fmt::print(c_.err, "{}\n", line);
    }
    JournalWriter journal(args_.out_dir, JournalName(1, 1));
    if (!journal.ok()) {
      fmt::print(c_.err, "fleetsim: cannot record runs: {}\n", journal.error());
      return ToInt(ExitStatus::kOutputError);
    }
    const unsigned threads =
        args_.threads > 0 ? args_.threads : std::max(1U, std::thread::hardware_concurrency());
    std::string write_error;
    const PlanRunner runner = [&](const std::vector<const SweepPoint*>& points) {
      std::vector<const SweepPoint*> todo;
      for (const SweepPoint* p : points) {
        const auto it = records_.find(p->id);
        // A failed run is run again, as a sweep does; so is one recorded without a metric over
        // a group of jobs this plan's targets need.
        if (it == records_.end() || it->second.status != SweepRunStatus::kOk ||
            !HasPlanGroupMetrics(plan, it->second)) {
          todo.push_back(p);
        }
      }
      reused_ += points.size() - todo.size();
      made_ += todo.size();
      RunSweepPoints(todo, c_.registry, {.threads = threads, .check_invariants = false},
                     [&](const SweepPoint&, SweepRecord&& record, const RunReport* report) {
                       if (report != nullptr) {
                         record.group_metrics = PlanGroupMetrics(plan, *report);
                       }
                       if (!journal.Append(record) && write_error.empty()) {
                         write_error = journal.error();
                       }
                       records_[record.id] = std::move(record);
                     });
      std::vector<SweepRecord> out;
      for (const SweepPoint* p : points) {
        out.push_back(records_.at(p->id));
      }
      return out;
    };
    const PlanOutcome outcome =
        SearchPlan(plan, candidates, runner,
                   {.exhaustive = args_.exhaustive, .batch = args_.exhaustive ? 1 : threads});
    if (!journal.Flush() && write_error.empty()) {
      write_error = journal.error();
    }
    const int status = Report(plan, candidates, outcome);
    if (!write_error.empty()) {  // the answer stands; a second call cannot reuse every run
      fmt::print(c_.err, "fleetsim: cannot record runs: {}\n", write_error);
      return ToInt(ExitStatus::kOutputError);
    }
    return status;
  }

  int Report(const PlanSpec& plan, const PlanCandidates& candidates, const PlanOutcome& outcome) {
    DirectorySink sink(args_.out_dir);
    sink.Stage("plan.csv", PlanCsv(plan, candidates, outcome));
    sink.Stage("plan.json", PlanJson(plan, candidates, outcome));
    sink.Stage("plan.html", PlanHtml(plan, candidates, outcome));
    if (std::string error = sink.Commit(); !error.empty()) {
      fmt::print(c_.err, "fleetsim: {}\n", error);
      return ToInt(ExitStatus::kOutputError);
    }
    fmt::print(c_.out, "{}", PlanText(plan, candidates, outcome));
    fmt::print(c_.out, "runs made by this call: {}{}\n", made_,
               reused_ > 0 ? fmt::format(" ({} more were recorded in {} by an earlier call)",
                                         reused_, args_.out_dir)
                           : std::string());
    bool failed = false;
    for (const CandidateResult& r : outcome.results) {
      failed = failed || r.status == CandidateStatus::kFailed;
    }
    if (failed) {
      fmt::print(c_.err, "fleetsim: some runs failed (plan.csv lists them with their causes)\n");
      return ToInt(ExitStatus::kRunsFailed);
    }
    return ToInt(outcome.answer ? ExitStatus::kOk : ExitStatus::kInfeasible);
  }

  const PlanArgs& args_;
  const SweepContext& c_;
  SweepRecords records_;
  std::size_t reused_ = 0;
  std::size_t made_ = 0;
};

}  // namespace

int RunPlanCommand(const PlanArgs& args, const SweepContext& context) {
  return PlanCommand(args, context).Run();
}

}  // namespace fleetsim::cli
