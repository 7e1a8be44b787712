// `fleetsim plan`: the planner's search, its runs recorded as a sweep's are (so a second call
// resumes), and its report; or one shard of the whole grid's runs; or the grid handed to Slurm.
#include "cli/plan_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <filesystem>
#include <thread>

#include "cli/exit_status.h"
#include "cli/slurm_submit.h"
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
Status CheckPlanFolder(const std::string& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    return Status::Ok();
  }
  if (!fs::is_directory(dir, ec)) {
    return Status::InvalidInput(fmt::format("{}: exists and is not a folder", dir));
  }
  if (fs::exists(fs::path(dir) / kSweepStateDir / "points.json", ec)) {
    return Status::InvalidInput(
        fmt::format("{} holds a sweep's results: choose another --out", dir));
  }
  // Empty first, then our state folder: shards started together (array tasks) create that folder
  // in one another's way, and in this order a folder seen non-empty is then seen holding it.
  if (fs::is_empty(dir, ec) || fs::exists(fs::path(dir) / kSweepStateDir, ec)) {
    return Status::Ok();
  }
  return Status::InvalidInput(
      fmt::format("{}: exists and holds no plan: choose another --out, or an empty folder", dir));
}

class PlanCommand {
 public:
  PlanCommand(const PlanArgs& args, const SweepContext& context) : args_(args), c_(context) {}

  int Run() {
    shard_ = ShardOption(args_.shard, c_.err);
    if (!shard_) {
      return ToInt(ExitStatus::kUsage);
    }
    const PlanLoad load = LoadPlanSpec(DiskFileSystem(), args_.spec, c_.registry, args_.strict);
    if (!ReportLoad(load, args_.spec, c_.err)) {
      return ToInt(ExitStatus::kInvalidInput);
    }
    const PlanSpec& plan = *load.spec;
    const std::optional<SweepExpansion> expansion = ExpandReported(plan.runs, args_.strict, c_);
    if (!expansion) {
      return ToInt(ExitStatus::kInvalidInput);
    }
    const PlanCandidates candidates = BuildCandidates(plan, *expansion);
    for (const std::string& line : candidates.errors) {
      fmt::print(c_.err, "{}\n", line);
    }
    if (!candidates.errors.empty()) {
      return ToInt(ExitStatus::kInvalidInput);
    }
    if (Status status = CheckPlanFolder(args_.out_dir); !status.ok()) {
      fmt::print(c_.err, "fleetsim: {}\n", status.message());
      return ToInt(ExitStatus::kUsage);
    }
    if (args_.slurm.enabled) {
      return SubmitToSlurm(plan, candidates);
    }
    return args_.shard.empty() ? Search(plan, candidates) : RunShard(plan, candidates);
  }

 private:
  // Reads what earlier calls recorded and opens this call's journal; false after saying why not.
  bool OpenRecords(const std::string& journal_name) {
    std::vector<std::string> warnings;
    records_ = ReadRecords(args_.out_dir, warnings);
    for (const std::string& line : warnings) {
      fmt::print(c_.err, "{}\n", line);
    }
    journal_.emplace(args_.out_dir, journal_name);
    if (!journal_->ok()) {
      fmt::print(c_.err, "fleetsim: cannot record runs: {}\n", journal_->status().message());
      return false;
    }
    return true;
  }

  unsigned Threads() const {
    return args_.threads > 0 ? args_.threads : std::max(1U, std::thread::hardware_concurrency());
  }

  // The records of `points`, running (and recording) those not recorded yet.
  std::vector<SweepRecord> RunOrReuse(const PlanSpec& plan,
                                      const std::vector<const SweepPoint*>& points) {
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
    RunSweepPoints(todo, c_.registry, {.threads = Threads(), .check_invariants = false},
                   [&](const SweepPoint&, SweepRecord&& record, const RunReport* report) {
                     if (report != nullptr) {
                       record.group_metrics = PlanGroupMetrics(plan, *report);
                     }
                     SweepRecord& kept = records_[record.id] = std::move(record);
                     if (!journal_->Append(kept) && write_status_.ok()) {
                       write_status_ = journal_->status();
                     }
                   });
    std::vector<SweepRecord> out;
    for (const SweepPoint* p : points) {
      out.push_back(records_.at(p->id));
    }
    return out;
  }

  // Flushes the journal; false after saying why it cannot be trusted to hold every run.
  bool CloseRecords() {
    if (!journal_->Flush() && write_status_.ok()) {
      write_status_ = journal_->status();
    }
    if (!write_status_.ok()) {
      fmt::print(c_.err, "fleetsim: cannot record runs: {}\n", write_status_.message());
      return false;
    }
    return true;
  }

  int Search(const PlanSpec& plan, const PlanCandidates& candidates) {
    if (!OpenRecords(JournalName(1, 1))) {
      return ToInt(ExitStatus::kOutputError);
    }
    const PlanRunner runner = [&](const std::vector<const SweepPoint*>& points) {
      return RunOrReuse(plan, points);
    };
    const PlanOutcome outcome =
        SearchPlan(plan, candidates, runner,
                   {.exhaustive = args_.exhaustive, .batch = args_.exhaustive ? 1 : Threads()});
    const bool recorded = CloseRecords();
    const int status = Report(plan, candidates, outcome);
    // Without the journal the answer stands, but a second call cannot reuse every run.
    return recorded ? status : ToInt(ExitStatus::kOutputError);
  }

  // Shard I/N of the whole grid: the runs whose index in grid order (candidate by candidate,
  // seed by seed) is I-1 modulo N, recorded in the shard's own journal; no result is written.
  int RunShard(const PlanSpec& plan, const PlanCandidates& candidates) {
    std::vector<const SweepPoint*> mine;
    std::size_t index = 0;
    for (const PlanCandidate& candidate : candidates.candidates) {
      for (const SweepPoint* run : candidate.runs) {
        if (shard_->Has(index++)) {
          mine.push_back(run);
        }
      }
    }
    if (!OpenRecords(JournalName(shard_->index, shard_->count))) {
      return ToInt(ExitStatus::kOutputError);
    }
    const std::vector<SweepRecord> records = RunOrReuse(plan, mine);
    if (!CloseRecords()) {
      return ToInt(ExitStatus::kOutputError);
    }
    const auto failed = std::count_if(records.begin(), records.end(), [](const SweepRecord& r) {
      return r.status != SweepRunStatus::kOk;
    });
    fmt::print(c_.out,
               "shard {}/{} of plan '{}': {} runs ({} made, {} recorded before), {} failed; when "
               "every shard is done: fleetsim plan {} -o {} --exhaustive\n",
               shard_->index, shard_->count, plan.runs.name, mine.size(), made_, reused_, failed,
               args_.spec, args_.out_dir);
    return failed == 0 ? ToInt(ExitStatus::kOk) : ToInt(ExitStatus::kRunsFailed);
  }

  // The whole grid as a Slurm array of shards, then a job that chooses from every run. The
  // state folder is made first, so the tasks find a plan's folder.
  int SubmitToSlurm(const PlanSpec& plan, const PlanCandidates& candidates) {
    std::error_code ec;
    fs::create_directories(fs::path(args_.out_dir) / kSweepStateDir, ec);
    if (ec) {
      fmt::print(c_.err, "fleetsim: {}: cannot create: {}\n", args_.out_dir, ec.message());
      return ToInt(ExitStatus::kOutputError);
    }
    const SlurmSweep sweep{.work = SlurmWork::kPlan,
                           .name = plan.runs.name,
                           .spec_path = fs::absolute(args_.spec, ec).lexically_normal().string(),
                           .out_dir = fs::absolute(args_.out_dir, ec).lexically_normal().string(),
                           .fleetsim = fs::read_symlink("/proc/self/exe", ec).string(),
                           .points = candidates.candidates.size() * candidates.seeds,
                           .strict = args_.strict,
                           .policy_modules = c_.policy_modules};
    fmt::print(c_.err, "plan '{}': {} candidate fleets x {} seeds, {} runs in the grid\n",
               plan.runs.name, candidates.candidates.size(), candidates.seeds, sweep.points);
    return SubmitSweep(sweep, args_.slurm, c_.out, c_.err);
  }

  int Report(const PlanSpec& plan, const PlanCandidates& candidates, const PlanOutcome& outcome) {
    DirectorySink sink(DiskFileSystem(), args_.out_dir);
    sink.Stage("plan.csv", PlanCsv(plan, candidates, outcome));
    sink.Stage("plan.json", PlanJson(plan, candidates, outcome));
    sink.Stage("plan.html", PlanHtml(plan, candidates, outcome));
    if (Status status = sink.Commit(); !status.ok()) {
      fmt::print(c_.err, "fleetsim: {}\n", status.message());
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
  std::optional<Shard> shard_;
  SweepRecords records_;
  std::optional<JournalWriter> journal_;
  Status write_status_;
  std::size_t reused_ = 0;
  std::size_t made_ = 0;
};

}  // namespace

int RunPlanCommand(const PlanArgs& args, const SweepContext& context) {
  return PlanCommand(args, context).Run();
}

}  // namespace fleetsim::cli
