// The trace-reading driver: a checking pass, an optional duplicate-confirmation pass, and a
// delivery pass, so that a sorted trace of any length streams through in bounded memory.
#include "fleetsim/trace/import.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "fleetsim/core/diagnostics.h"
#include "trace/fields.h"
#include "trace/id_filter.h"

namespace fleetsim {

namespace {

// One pass over a trace: every row comes back as a job or a row error, with the checks that
// need only the row itself and the catalog applied.
class RowStream {
 public:
  RowStream(const TraceFormat& format, const std::string& path,
            const TraceOptionValues& format_options, const TraceReadOptions& options)
      : path_(path), catalog_(options.catalog) {
    OpenResult opened = format.open(options.files != nullptr ? *options.files : DiskFileSystem(),
                                    path, format_options);
    source_ = std::move(opened.source);
    open_status_ = std::move(opened.status);
  }

  const Status& open_status() const { return open_status_; }
  const JobSource& source() const { return *source_; }

  JobSource::RowStatus Next(Job& job, RowError& error) {
    const JobSource::RowStatus status = source_->Next(job, error);
    if (status == JobSource::RowStatus::kJob && !ResolveModels(job, error)) {
      return JobSource::RowStatus::kBadRow;
    }
    return status;
  }
  std::int64_t line() const { return source_->line(); }

 private:
  // Rewrites the job's GPU models to catalog names (Catalog::CanonicalizeGpuModels); false with
  // the row error for a name the catalog lacks.
  bool ResolveModels(Job& job, RowError& error) const {
    if (catalog_ == nullptr) {
      return true;
    }
    std::string unknown;
    if (!catalog_->CanonicalizeGpuModels(job.request.gpu_models, unknown)) {
      error = RowError{path_, source_->line(), kReasonUnknownGpuModel,
                       fmt::format("field '{}': unknown GPU model '{}'{}",
                                   job.request.gres.empty() ? "gpu_models" : "gres", unknown,
                                   catalog_->SuggestGpu(unknown))};
      return false;
    }
    return true;
  }

  std::string path_;
  const Catalog* catalog_;
  std::unique_ptr<JobSource> source_;
  Status open_status_;
};

class TraceConverter {
 public:
  TraceConverter(const TraceFormat& format, const std::string& path,
                 const TraceOptionValues& format_options, const TraceReadOptions& options)
      : format_(format), path_(path), format_options_(format_options), options_(options) {
    report_.file = path;
    report_.format = format.name;
  }

  TraceReport Run(JobWriter& out) {
    if (CheckPass() && ConfirmDuplicates() && CheckNotEmpty()) {
      DeliverPass(out);
    }
    if (!report_.ok()) {
      report_.jobs = 0;
    }
    return std::move(report_);
  }

 private:
  bool Failing() const { return options_.on_bad_row == BadRowPolicy::kFail; }

  // Pass 1: reads every row, records bad rows (stopping at the first under kFail), order, and
  // ids that may repeat.
  bool CheckPass() {
    RowStream rows(format_, path_, format_options_, options_);
    if (!rows.open_status().ok()) {
      report_.status = rows.open_status();
      return false;
    }
    IdFilter filter;
    Job job;
    RowError error;
    SimTime latest = 0;
    for (auto status = rows.Next(job, error); status != JobSource::RowStatus::kEnd;
         status = rows.Next(job, error)) {
      if (status == JobSource::RowStatus::kBadRow) {
        if (Failing()) {
          first_bad_ = error;
          break;
        }
        Skip(error);
        continue;
      }
      ++good_rows_;
      if (filter.TestAndAdd(job.request.id)) {
        maybe_repeated_.insert(job.request.id);
      }
      if (job.request.submit < latest) {
        ++report_.out_of_order;
      }
      latest = std::max(latest, job.request.submit);
    }
    report_.notes = rows.source().Notes();
    return true;
  }

  // Pass 1b, only when the filter fired: finds the real repeats among the candidates (up to the
  // first bad row under kFail, which a repeat before it pre-empts).
  bool ConfirmDuplicates() {
    if (!maybe_repeated_.empty()) {
      RowStream rows(format_, path_, format_options_, options_);
      std::unordered_map<std::string, std::int64_t> first_line;
      Job job;
      RowError error;
      for (auto status = rows.Next(job, error); status != JobSource::RowStatus::kEnd;
           status = rows.Next(job, error)) {
        if (first_bad_ && rows.line() >= first_bad_->line) {
          break;
        }
        if (status != JobSource::RowStatus::kJob || !maybe_repeated_.contains(job.request.id)) {
          continue;
        }
        const auto [it, inserted] = first_line.emplace(job.request.id, rows.line());
        if (!inserted) {
          RowError repeat{path_, rows.line(), kReasonDuplicateId,
                          fmt::format("field 'id': duplicate id '{}' (first at line {})",
                                      job.request.id, it->second)};
          if (Failing()) {
            first_bad_ = repeat;
            break;
          }
          --good_rows_;
          duplicate_lines_.insert(rows.line());
          Skip(repeat);
        }
      }
    }
    if (first_bad_) {
      report_.status = Status::InvalidInput(first_bad_->Format());
      return false;
    }
    return true;
  }

  bool CheckNotEmpty() {
    if (good_rows_ == 0) {
      report_.status = Status::InvalidInput(
          report_.skipped_rows() == 0
              ? fmt::format("{}: empty trace: no jobs found", path_)
              : fmt::format("{}: no jobs left: all {} rows were bad and skipped", path_,
                            report_.skipped_rows()));
      return false;
    }
    return true;
  }

  // Pass 2: delivers the good rows, streaming when sorted, else sorted stably in memory.
  void DeliverPass(JobWriter& out) {
    RowStream rows(format_, path_, format_options_, options_);
    std::vector<Job> held;
    Job job;
    RowError error;
    for (auto status = rows.Next(job, error); status != JobSource::RowStatus::kEnd;
         status = rows.Next(job, error)) {
      if (status != JobSource::RowStatus::kJob || duplicate_lines_.contains(rows.line())) {
        continue;
      }
      ++report_.jobs;
      if (report_.out_of_order == 0) {
        out.Write(job);
      } else {
        held.push_back(std::move(job));
      }
    }
    if (report_.out_of_order > 0) {
      std::stable_sort(held.begin(), held.end(), [](const Job& a, const Job& b) {
        return a.request.submit < b.request.submit;
      });
      for (const Job& j : held) {
        out.Write(j);
      }
      report_.notes.push_back(
          fmt::format("the input was not sorted by submit time ({} rows "
                      "before an earlier row's time); sorted stably",
                      report_.out_of_order));
    }
  }

  void Skip(const RowError& error) {
    auto it = std::find_if(report_.skipped.begin(), report_.skipped.end(),
                           [&](const SkippedRows& s) { return s.reason == error.reason; });
    if (it == report_.skipped.end()) {
      it = report_.skipped.insert(report_.skipped.end(), SkippedRows{error.reason, 0, {}});
    }
    ++it->rows;
    if (it->examples.size() < kSkipExamples) {
      it->examples.push_back(error.Format());
    }
  }

  const TraceFormat& format_;
  std::string path_;
  const TraceOptionValues& format_options_;
  TraceReadOptions options_;
  TraceReport report_;
  std::optional<RowError> first_bad_;
  std::int64_t good_rows_ = 0;
  std::unordered_set<std::string> maybe_repeated_;
  std::set<std::int64_t> duplicate_lines_;
};

// Collects delivered jobs into a workload.
class WorkloadWriter final : public JobWriter {
 public:
  explicit WorkloadWriter(Workload& workload) : workload_(workload) {}
  void Write(const Job& job) override { workload_.jobs.push_back(job); }

 private:
  Workload& workload_;
};

}  // namespace

std::optional<BadRowPolicy> ParseBadRowPolicy(const std::string& name) {
  if (name == "fail") {
    return BadRowPolicy::kFail;
  }
  if (name == "skip") {
    return BadRowPolicy::kSkip;
  }
  return std::nullopt;
}

std::int64_t TraceReport::skipped_rows() const {
  std::int64_t total = 0;
  for (const SkippedRows& s : skipped) {
    total += s.rows;
  }
  return total;
}

std::vector<std::string> TraceReport::SummaryLines() const {
  std::vector<std::string> lines;
  lines.push_back(fmt::format("{}: read {} jobs ({})", file, jobs, format));
  if (!skipped.empty()) {
    lines.push_back(fmt::format("{}: skipped {} bad rows:", file, skipped_rows()));
    for (const SkippedRows& s : skipped) {
      lines.push_back(fmt::format("  {} rows: {}", s.rows, s.reason));
      for (const std::string& example : s.examples) {
        lines.push_back("    e.g. " + example);
      }
    }
  }
  for (const std::string& note : notes) {
    lines.push_back(fmt::format("{}: note: {}", file, note));
  }
  return lines;
}

TraceReport ConvertTrace(const TraceFormat& format, const std::string& path,
                         const TraceOptionValues& format_options, const TraceReadOptions& options,
                         JobWriter& out) {
  // The conversion reads its input twice (checks, then delivery): a pipe, FIFO or other stream
  // on the disk would be empty the second time, so it is read once, whole, into memory.
  std::error_code error;
  if ((options.files == nullptr || options.files->on_disk()) &&
      std::filesystem::exists(path, error) && !std::filesystem::is_regular_file(path, error) &&
      !std::filesystem::is_directory(path, error)) {
    std::string contents;
    MemoryFileSystem once;
    Status status = DiskFileSystem().ReadFile(path, contents);
    if (status.ok()) {
      status = once.CreateDirectories(std::filesystem::path(path).parent_path().string());
    }
    if (status.ok()) {
      status = once.WriteFile(path, contents);
    }
    if (!status.ok()) {
      TraceReport report;
      report.file = path;
      report.format = format.name;
      report.status = status;
      return report;
    }
    TraceReadOptions from_memory = options;
    from_memory.files = &once;
    return TraceConverter(format, path, format_options, from_memory).Run(out);
  }
  return TraceConverter(format, path, format_options, options).Run(out);
}

TraceReport ReadTrace(const TraceFormat& format, const std::string& path,
                      const TraceOptionValues& format_options, const TraceReadOptions& options,
                      Workload& workload) {
  Workload read;
  WorkloadWriter writer(read);
  TraceReport report = ConvertTrace(format, path, format_options, options, writer);
  if (report.ok()) {
    workload.jobs.insert(workload.jobs.end(), std::make_move_iterator(read.jobs.begin()),
                         std::make_move_iterator(read.jobs.end()));
  }
  return report;
}

}  // namespace fleetsim
