// `fleetsim sweep` and `fleetsim sweep merge`: load and expand, check the output folder, run
// what is not done yet while recording each run, then render the results from the records.
#include "cli/sweep_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <charconv>
#include <chrono>
#include <filesystem>
#include <thread>

#include "cli/exit_status.h"
#include "cli/slurm_submit.h"
#include "fleetsim/report/output_sink.h"
#include "fleetsim/report/outputs.h"
#include "fleetsim/sweep/sweep_report.h"
#include "fleetsim/sweep/sweep_results.h"
#include "fleetsim/sweep/sweep_runner.h"
#include "fleetsim/sweep/sweep_spec.h"
#include "fleetsim/sweep/sweep_store.h"
#include "json/json_text.h"

namespace fleetsim::cli {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// The most failed runs listed one by one at the end; the rest are counted.
constexpr std::size_t kFailuresListed = 20;

std::string DescribeLayoutPoint(const SweepLayout& layout, const LayoutPoint& p) {
  std::string text = fmt::format("scenario={}, policy={}, seed={}", p.scenario, p.policy, p.seed);
  for (std::size_t a = 0; a < layout.axes.size(); ++a) {
    if (!p.labels[a].empty()) {
      text += fmt::format(", {}={}", layout.axes[a], p.labels[a]);
    }
  }
  return text;
}

// "[k/n] f failed, 1m05s elapsed, ETA 2m10s", rewritten in place on a terminal.
class Progress {
 public:
  Progress(std::ostream& err, bool enabled, std::size_t total)
      : err_(err), enabled_(enabled && total > 0), total_(total), start_(Clock::now()) {}

  void Done(bool failed) {
    ++done_;
    failed_ += failed ? 1U : 0U;
    const auto now = Clock::now();
    if (!enabled_ || (now - last_ < std::chrono::milliseconds(200) && done_ < total_)) {
      return;
    }
    last_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const double eta = elapsed / static_cast<double>(done_) * static_cast<double>(total_ - done_);
    fmt::print(err_, "\r\033[K[{}/{}] {} failed, {} elapsed, ETA {}", done_, total_, failed_,
               Duration(elapsed), Duration(eta));
    err_.flush();
  }

  void Finish() {
    if (enabled_) {
      fmt::print(err_, "\r\033[K");
      err_.flush();
    }
  }

 private:
  static std::string Duration(double seconds) {
    const auto s = static_cast<long long>(seconds + 0.5);
    return s >= 60 ? fmt::format("{}m{:02}s", s / 60, s % 60) : fmt::format("{}s", s);
  }

  std::ostream& err_;
  bool enabled_;
  std::size_t total_;
  std::size_t done_ = 0;
  std::size_t failed_ = 0;
  Clock::time_point start_;
  Clock::time_point last_{};
};

// The output folder may be new, empty, or hold this same sweep (by name); anything else is
// refused.
Status CheckOutFolder(const std::string& dir, const std::string& name) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    return Status::Ok();
  }
  if (!fs::is_directory(dir, ec)) {
    return Status::InvalidInput(fmt::format("{}: exists and is not a folder", dir));
  }
  if (fs::exists(fs::path(dir) / kSweepStateDir / "points.json", ec)) {
    Status status;
    const std::optional<SweepLayout> layout = ReadLayout(dir, status);
    if (!layout) {
      return status;
    }
    if (layout->name != name) {
      return Status::InvalidInput(
          fmt::format("{} holds the results of another sweep ('{}', not '{}'): choose another "
                      "--out, or remove it",
                      dir, layout->name, name));
    }
    return Status::Ok();
  }
  // A folder holding only the state folder is one a shard started at the same time is laying
  // out: WriteLayout then finds the same layout there, or refuses another sweep's.
  const auto only_state = [&] {
    for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
      if (entry.path().filename() != kSweepStateDir) {
        return false;
      }
    }
    return !ec;
  };
  if (!fs::is_empty(dir, ec) && !only_state()) {
    return Status::InvalidInput(fmt::format(
        "{}: exists and holds no sweep: choose another --out, or an empty folder", dir));
  }
  return Status::Ok();
}

// Whether DIR already holds exactly this layout.
bool HoldsLayout(const std::string& dir, const std::string& text) {
  std::string held;
  return DiskFileSystem()
             .ReadFile((fs::path(dir) / kSweepStateDir / "points.json").string(), held)
             .ok() &&
         held == text;
}

// Records the layout in DIR. Shards sharing a folder (array tasks starting together) all write
// the same bytes: a layout already there is left alone, and losing the race to write it to
// another process that wrote the same is no failure.
Status WriteLayout(const std::string& dir, const SweepLayout& layout) {
  const std::string text = LayoutJson(layout);
  if (HoldsLayout(dir, text)) {
    return Status::Ok();
  }
  std::error_code ec;
  fs::create_directories(fs::path(dir) / kSweepStateDir, ec);
  if (ec) {
    return Status::IoError(fmt::format("{}: cannot create: {}", dir, ec.message()));
  }
  StagedFile file((fs::path(dir) / kSweepStateDir / "points.json").string());
  if (!file.ok()) {
    return HoldsLayout(dir, text) ? Status::Ok() : file.status();
  }
  file.stream() << text;
  const Status committed = file.Commit();
  if (HoldsLayout(dir, text)) {
    return Status::Ok();
  }
  return committed.ok() ? Status::IoError(fmt::format(
                              "{}: another sweep wrote its layout there at the same time: choose "
                              "another --out",
                              dir))
                        : committed;
}

// Lists the failed runs (the first kFailuresListed) on `err`; returns how many failed.
std::size_t ReportFailures(const SweepLayout& layout, const SweepRecords& records,
                           std::ostream& err) {
  const std::vector<std::size_t> failed = FailedRuns(layout, records);
  for (std::size_t k = 0; k < failed.size() && k < kFailuresListed; ++k) {
    const LayoutPoint& p = layout.points[failed[k]];
    const auto record = records.find(p.id);
    const std::string& error = p.error.empty() ? record->second.error : p.error;
    fmt::print(err, "fleetsim: run {} failed ({}): {}\n", p.index, DescribeLayoutPoint(layout, p),
               error);
  }
  if (failed.size() > kFailuresListed) {
    fmt::print(err, "fleetsim: ... and {} more failed runs (results.csv lists them all)\n",
               failed.size() - kFailuresListed);
  }
  return failed.size();
}

// Writes the results into `dir`, lists the failures; kOk, kRunsFailed or kOutputError.
int WriteAndReport(const std::string& dir, const SweepLayout& layout, const SweepRecords& records,
                   const SweepContext& c) {
  if (Status status = WriteSweepResults(dir, layout, records); !status.ok()) {
    fmt::print(c.err, "fleetsim: cannot write results: {}\n", status.message());
    return ToInt(ExitStatus::kOutputError);
  }
  const std::size_t failed = ReportFailures(layout, records, c.err);
  fmt::print(c.out,
             "sweep '{}': {} runs, {} failed: {}/results.csv, summary.csv, "
             "results.json, report.html\n",
             layout.name, layout.points.size(), failed, dir);
  return failed == 0 ? ToInt(ExitStatus::kOk) : ToInt(ExitStatus::kRunsFailed);
}

class SweepCommand {
 public:
  SweepCommand(const SweepArgs& args, const SweepContext& context) : args_(args), c_(context) {}

  int Run() {
    const std::optional<Shard> shard = ShardOption(args_.shard, c_.err);
    if (!shard) {
      return ToInt(ExitStatus::kUsage);
    }
    const SweepLoad load = LoadSweepSpec(DiskFileSystem(), args_.spec, c_.registry, args_.strict);
    if (!ReportLoad(load, args_.spec, c_.err)) {
      return ToInt(ExitStatus::kInvalidInput);
    }
    const SweepSpec& spec = *load.spec;
    const std::optional<SweepExpansion> expanded = ExpandReported(spec, args_.strict, c_);
    if (!expanded) {
      return ToInt(ExitStatus::kInvalidInput);
    }
    const SweepExpansion& expansion = *expanded;
    if (args_.list) {
      return List(spec, expansion);
    }
    return args_.slurm.enabled ? SubmitToSlurm(spec, expansion)
                               : RunPoints(spec, expansion, *shard);
  }

 private:
  int List(const SweepSpec& spec, const SweepExpansion& expansion) {
    const SweepLayout layout = MakeLayout(spec, expansion);
    fmt::print(c_.out, "{}", ExpansionLine(spec, expansion));
    for (const LayoutPoint& p : layout.points) {
      fmt::print(c_.out, "{} {} {}{}\n", p.index, p.id, DescribeLayoutPoint(layout, p),
                 p.error.empty() ? "" : " (invalid)");
    }
    return ToInt(ExitStatus::kOk);
  }

  static std::string ExpansionLine(const SweepSpec& spec, const SweepExpansion& e) {
    const auto invalid = std::count_if(e.points.begin(), e.points.end(),
                                       [](const SweepPoint& p) { return !p.error.empty(); });
    return fmt::format(
        "sweep '{}': {} runs ({} combinations excluded, {} that repeat a run "
        "listed before them, {} invalid)\n",
        spec.name, e.points.size(), e.excluded, e.duplicates, invalid);
  }

  // Records the layout in DIR, then hands the points to Slurm as shards.
  int SubmitToSlurm(const SweepSpec& spec, const SweepExpansion& expansion) {
    if (Status status = CheckOutFolder(args_.out_dir, spec.name); !status.ok()) {
      fmt::print(c_.err, "fleetsim: {}\n", status.message());
      return ToInt(ExitStatus::kUsage);
    }
    if (Status status = WriteLayout(args_.out_dir, MakeLayout(spec, expansion)); !status.ok()) {
      fmt::print(c_.err, "fleetsim: cannot write the sweep's state: {}\n", status.message());
      return ToInt(ExitStatus::kOutputError);
    }
    std::error_code ec;
    const SlurmSweep sweep{.name = spec.name,
                           .spec_path = fs::absolute(args_.spec, ec).lexically_normal().string(),
                           .out_dir = fs::absolute(args_.out_dir, ec).lexically_normal().string(),
                           .fleetsim = fs::read_symlink("/proc/self/exe", ec).string(),
                           .points = expansion.points.size(),
                           .strict = args_.strict,
                           .policy_modules = c_.policy_modules};
    fmt::print(c_.err, "{}", ExpansionLine(spec, expansion));
    return SubmitSweep(sweep, args_.slurm, c_.out, c_.err);
  }

  int RunPoints(const SweepSpec& spec, const SweepExpansion& expansion, const Shard& shard) {
    if (Status status = CheckOutFolder(args_.out_dir, spec.name); !status.ok()) {
      fmt::print(c_.err, "fleetsim: {}\n", status.message());
      return ToInt(ExitStatus::kUsage);
    }
    const SweepLayout layout = MakeLayout(spec, expansion);
    if (Status status = WriteLayout(args_.out_dir, layout); !status.ok()) {
      fmt::print(c_.err, "fleetsim: cannot write the sweep's state: {}\n", status.message());
      return ToInt(ExitStatus::kOutputError);
    }
    std::vector<std::string> warnings;
    SweepRecords records = ReadRecords(args_.out_dir, warnings);
    for (const std::string& w : warnings) {
      fmt::print(c_.err, "warning: {}\n", w);
    }
    std::vector<const SweepPoint*> todo;
    std::size_t in_shard = 0;
    for (const SweepPoint& p : expansion.points) {
      if (!shard.Has(p.index) || !p.error.empty()) {
        continue;
      }
      ++in_shard;
      const auto it = records.find(p.id);
      if (it == records.end() || it->second.status != SweepRunStatus::kOk) {
        todo.push_back(&p);
      }
    }
    fmt::print(c_.err, "{}", ExpansionLine(spec, expansion));
    if (shard.count > 1) {
      fmt::print(c_.err, "shard {}/{}: {} runs\n", shard.index, shard.count, in_shard);
    }
    fmt::print(c_.err, "{} to run, {} done before\n", todo.size(), in_shard - todo.size());
    if (int status = RunTodo(todo, shard, records); status != ToInt(ExitStatus::kOk)) {
      return status;
    }
    if (shard.count > 1) {
      return FinishShard(layout, shard, records);
    }
    return WriteAndReport(args_.out_dir, layout, records, c_);
  }

  // Runs `todo`, recording each run in the shard's journal and in `records`.
  int RunTodo(const std::vector<const SweepPoint*>& todo, const Shard& shard,
              SweepRecords& records) {
    JournalWriter journal(args_.out_dir, JournalName(shard.index, shard.count));
    if (!journal.ok()) {
      fmt::print(c_.err, "fleetsim: {}\n", journal.status().message());
      return ToInt(ExitStatus::kOutputError);
    }
    Progress progress(c_.err, c_.err_is_terminal, todo.size());
    Status write_status;
    const unsigned threads =
        args_.threads > 0 ? args_.threads : std::max(1U, std::thread::hardware_concurrency());
    RunSweepPoints(todo, c_.registry,
                   {.threads = threads, .check_invariants = args_.check_invariants},
                   [&](const SweepPoint& point, SweepRecord&& record, const RunReport* report) {
                     if (report != nullptr && args_.keep_runs && write_status.ok()) {
                       write_status = KeepRun(point, *report);
                     }
                     progress.Done(record.status != SweepRunStatus::kOk);
                     SweepRecord& kept = records[record.id] = std::move(record);
                     if (!journal.Append(kept) && write_status.ok()) {
                       write_status = journal.status();
                     }
                   });
    progress.Finish();
    if (!journal.Flush() && write_status.ok()) {
      write_status = journal.status();
    }
    if (!write_status.ok()) {
      fmt::print(c_.err, "fleetsim: cannot record runs: {}\n", write_status.message());
      return ToInt(ExitStatus::kOutputError);
    }
    return ToInt(ExitStatus::kOk);
  }

  Status KeepRun(const SweepPoint& point, const RunReport& report) {
    DirectorySink sink(DiskFileSystem(), (fs::path(args_.out_dir) / "runs" / point.id).string());
    StageRunFiles("", report, sink);
    return sink.Commit();
  }

  int FinishShard(const SweepLayout& layout, const Shard& shard, const SweepRecords& records) {
    std::size_t failed = 0;
    for (const LayoutPoint& p : layout.points) {
      const auto it = records.find(p.id);
      if (shard.Has(p.index) && p.error.empty() && it != records.end() &&
          it->second.status != SweepRunStatus::kOk) {
        ++failed;
      }
    }
    fmt::print(c_.out,
               "shard {}/{} of sweep '{}' done ({} failed); when every shard is done: fleetsim "
               "sweep merge {}\n",
               shard.index, shard.count, layout.name, failed, args_.out_dir);
    return failed == 0 ? ToInt(ExitStatus::kOk) : ToInt(ExitStatus::kRunsFailed);
  }

 private:
  const SweepArgs& args_;
  const SweepContext& c_;
};

}  // namespace

std::optional<SweepExpansion> ExpandReported(const SweepSpec& runs, bool strict,
                                             const SweepContext& context) {
  SweepExpansion expansion =
      ExpandSweep(runs, context.registry, {.strict = strict, .catalog = context.catalog});
  for (const std::string& line : expansion.warnings) {
    fmt::print(context.err, "{}\n", line);
  }
  for (const std::string& line : expansion.errors) {
    fmt::print(context.err, "{}\n", line);
  }
  if (!expansion.errors.empty()) {
    return std::nullopt;
  }
  return expansion;
}

int RunSweepCommand(const SweepArgs& args, const SweepContext& context) {
  return SweepCommand(args, context).Run();
}

int RunSweepMerge(const SweepMergeArgs& args, const SweepContext& c) {
  std::optional<SweepLayout> layout;
  std::string layout_text;
  SweepRecords records;
  for (const std::string& dir : args.dirs) {
    Status status;
    std::optional<SweepLayout> read = ReadLayout(dir, status);
    if (!read) {
      fmt::print(c.err, "fleetsim: {}: not a sweep's folder: {}\n", dir, status.message());
      return ToInt(ExitStatus::kInvalidInput);
    }
    if (!layout) {
      layout_text = LayoutJson(*read);
      layout = std::move(read);
    } else if (LayoutJson(*read) != layout_text) {
      fmt::print(c.err,
                 "fleetsim: {} holds another sweep's points than {} (a different spec, "
                 "or the same spec changed since): shards merge only with their own\n",
                 dir, args.dirs.front());
      return ToInt(ExitStatus::kInvalidInput);
    }
    std::vector<std::string> warnings;
    for (auto& [id, record] : ReadRecords(dir, warnings)) {
      auto [it, inserted] = records.try_emplace(id, record);
      if (!inserted && it->second.status != SweepRunStatus::kOk &&
          record.status == SweepRunStatus::kOk) {
        it->second = record;
      }
    }
    for (const std::string& w : warnings) {
      fmt::print(c.err, "warning: {}\n", w);
    }
  }
  const std::vector<std::size_t> missing = MissingRuns(*layout, records);
  if (!missing.empty()) {
    fmt::print(c.err,
               "fleetsim: {} of {} runs have no record yet (first: run {}, {}): rerun the "
               "shards that hold them (finished runs are skipped), then merge again\n",
               missing.size(), layout->points.size(), missing.front(),
               DescribeLayoutPoint(*layout, layout->points[missing.front()]));
    return ToInt(ExitStatus::kInvalidInput);
  }
  const std::string out = args.out_dir.empty() ? args.dirs.front() : args.out_dir;
  // -o OUT is held to the rule of `sweep --out`, and then holds this sweep's layout, so a later
  // merge into it, or a sweep resumed there, finds its own sweep.
  if (Status status = CheckOutFolder(out, layout->name); !status.ok()) {
    fmt::print(c.err, "fleetsim: {}\n", status.message());
    return ToInt(ExitStatus::kUsage);
  }
  if (Status status = WriteLayout(out, *layout); !status.ok()) {
    fmt::print(c.err, "fleetsim: cannot write the sweep's state: {}\n", status.message());
    return ToInt(ExitStatus::kOutputError);
  }
  return WriteAndReport(out, *layout, records, c);
}

}  // namespace fleetsim::cli
