// CsvJobSource: the skeleton every CSV importer shares (Philly, Pollux, Microsoft ITP, Alibaba
// openb). It reads the header (the format's required columns, found by name in any order), then
// one row per Next call: a row with the wrong column count or a bad field, or a job that breaks a
// rule of the job model, is a RowError at file:line (trace/fields.h, FinishRow); otherwise a job.
// A format says only how a row becomes a job (FillJob), what it checks once the header is read
// (OnHeader), what it tallies of the jobs it hands out (Accepted) and its own notes; the note of
// the columns it does not use is the skeleton's. Internal to the trace module. Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fleetsim/trace/formats.h"
#include "fleetsim/trace/job_source.h"
#include "fleetsim/workload/job.h"
#include "text/csv.h"
#include "text/line_reader.h"
#include "trace/fields.h"

namespace fleetsim {

class CsvJobSource : public JobSource {
 public:
  // Reads the header, then OnHeader; fails with the open error (file:line: message).
  Status Open();

  RowStatus Next(Job& job, RowError& error) final;
  std::int64_t line() const final { return lines_.line_number(); }
  // FormatNotes, then "columns not used: 'a', 'b'" when the header has columns outside `used`.
  std::vector<std::string> Notes() const final;

 protected:
  // `required`: the columns the header must have; `used`: every column the format reads
  // (required or optional). Empty `used` means the required ones.
  CsvJobSource(const FileSystem& files, const std::string& path, std::vector<std::string> required,
               std::vector<std::string> used = {});

  // After the header is read: finds the format's columns and does its other open-time work;
  // fails with the open error.
  virtual Status OnHeader() { return Status::Ok(); }
  // Fills `job` (default-constructed) from the row just read, recording the first problem.
  virtual void FillJob(Job& job, FieldError& problem) = 0;
  // Called with every row that became a job, in file order.
  virtual void Accepted(const Job& /*job*/) {}
  virtual std::vector<std::string> FormatNotes() const { return {}; }

  // A required column's index (precondition: the header was read).
  std::size_t Column(std::string_view name) const { return *header_.Find(name); }
  std::optional<std::size_t> OptionalColumn(std::string_view name) const {
    return header_.Find(name);
  }
  const std::string& Field(std::size_t column) const { return fields_[column]; }
  const std::string& path() const { return lines_.path(); }

 private:
  LineReader lines_;
  std::vector<std::string> required_;
  std::vector<std::string> used_;
  CsvHeader header_;
  std::vector<std::string> fields_;
};

// A CSV source of type `Source` built from `args`, opened: the source, or the open error.
template <typename Source, typename... Args>
OpenResult OpenCsvSource(Args&&... args) {
  auto source = std::make_unique<Source>(std::forward<Args>(args)...);
  if (Status status = source->Open(); !status.ok()) {
    return {nullptr, std::move(status)};
  }
  return {std::move(source), Status::Ok()};
}

}  // namespace fleetsim
