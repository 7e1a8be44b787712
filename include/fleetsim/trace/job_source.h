// JobSource: the interface every trace reader implements. A source reads one file row by row —
// a large file is never loaded whole — and hands out one job or one bad-row error per call, so
// the caller decides whether a bad row stops the import or is skipped and counted.
// Sources are created by the format registry (formats.h). Not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fleetsim/workload/job.h"

namespace fleetsim {

// A row that cannot be read. `reason` is a short category ("non-numeric field", "negative
// duration", ...) used to count skipped rows; `message` names the column and the value found.
struct RowError {
  std::string file;
  std::int64_t line = 0;  // 1-based line of the input file
  std::string reason;
  std::string message;

  std::string Format() const;  // "file:line: message"
};

class JobSource {
 public:
  enum class RowStatus { kJob, kBadRow, kEnd };

  virtual ~JobSource() = default;

  // Reads the next row: kJob fills `job` (already checked by ProblemsWith), kBadRow fills `error`
  // and leaves the source ready for the row after it, kEnd means the input is exhausted.
  virtual RowStatus Next(Job& job, RowError& error) = 0;

  // The 1-based line of the row last returned by Next (job or bad row), so that problems found
  // later (a duplicate id, an unknown GPU model) can be reported at file:line. Every reader
  // implements it (LineReader::line_number() gives it).
  virtual std::int64_t line() const = 0;

  // Remarks about the whole input worth telling a user (for example, how a processor count
  // was turned into GPUs); gathered as the rows are read.
  virtual std::vector<std::string> Notes() const { return {}; }
};

}  // namespace fleetsim
