// The CSV importers' shared skeleton: header, rows, row errors, the unused-columns note.
#include "trace/csv_job_source.h"

#include <fmt/format.h>

#include "fleetsim/core/diagnostics.h"

namespace fleetsim {

CsvJobSource::CsvJobSource(const FileSystem& files, const std::string& path,
                           std::vector<std::string> required, std::vector<std::string> used)
    : lines_(files, path), required_(std::move(required)), used_(std::move(used)) {
  if (used_.empty()) {
    used_ = required_;
  }
}

Status CsvJobSource::Open() {
  if (Status status = ReadCsvHeader(lines_, required_, header_); !status.ok()) {
    return status;
  }
  return OnHeader();
}

JobSource::RowStatus CsvJobSource::Next(Job& job, RowError& error) {
  FieldError problem;
  if (!NextCsvRow(lines_, header_, fields_, problem)) {
    return RowStatus::kEnd;
  }
  job = Job{};
  if (problem.ok()) {
    FillJob(job, problem);
  }
  const RowStatus status = FinishRow(job, problem, lines_.path(), lines_.line_number(), error);
  if (status == RowStatus::kJob) {
    Accepted(job);
  }
  return status;
}

std::vector<std::string> CsvJobSource::Notes() const {
  std::vector<std::string> notes = FormatNotes();
  if (const std::vector<std::string> unused = UnusedColumns(header_, used_); !unused.empty()) {
    notes.push_back(fmt::format("columns not used: {}", QuotedInputNames(unused)));
  }
  return notes;
}

}  // namespace fleetsim
