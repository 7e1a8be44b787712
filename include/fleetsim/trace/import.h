// Reading a whole trace: the driver around a format's JobSource. It applies the bad-row policy
// (stop at the first bad row, or skip and count bad rows by reason), the checks that need more
// than one row (duplicate ids, GPU-model names against the catalog, an empty trace) and sorts an
// unsorted trace stably by submit time, saying so. Two entry points:
//  - ConvertTrace streams the jobs into a JobWriter with memory bounded independently of the
//    trace's length when the input is sorted: it reads the file in passes (check, then write),
//    finding duplicate ids with an exact set for the first ids, then a fixed-size Bloom filter,
//    confirmed exactly on a second pass;
//  - ReadTrace collects the jobs into a Workload (for scenarios).
// docs/trace-formats.md ("Bad rows") documents the behaviour. Thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fleetsim/fleet/catalog.h"
#include "fleetsim/trace/formats.h"
#include "fleetsim/trace/native.h"
#include "fleetsim/workload/job.h"

namespace fleetsim {

enum class BadRowPolicy { kFail, kSkip };

std::optional<BadRowPolicy> ParseBadRowPolicy(const std::string& name);  // "fail", "skip"

struct TraceReadOptions {
  BadRowPolicy on_bad_row = BadRowPolicy::kFail;
  // GPU models named in jobs' gpu_models must be in this catalog (names or aliases); nullptr
  // skips the check.
  const Catalog* catalog = nullptr;
  // Where the trace is read from; nullptr: the disk.
  const FileSystem* files = nullptr;
};

// Rows skipped for one reason, with the first few messages as examples.
struct SkippedRows {
  std::string reason;
  std::int64_t rows = 0;
  std::vector<std::string> examples;  // "file:line: message", at most kSkipExamples
};

inline constexpr std::size_t kSkipExamples = 3;

struct TraceReport {
  std::string file;
  std::string format;
  std::int64_t jobs = 0;             // jobs delivered
  std::int64_t out_of_order = 0;     // rows whose submit time is before an earlier row's
  std::vector<SkippedRows> skipped;  // by reason, in order of first occurrence
  std::vector<std::string> notes;    // the reader's notes, then the driver's
  Status status;                     // failed when the trace could not be read; nothing delivered

  bool ok() const { return status.ok(); }
  std::int64_t skipped_rows() const;
  // Human-readable lines: "read 82247 jobs from FILE (philly)", skips by reason with examples,
  // notes. When ok() only.
  std::vector<std::string> SummaryLines() const;
};

// Streams the trace at `path` into `out`, in submit-time order (stable). On error nothing has
// been written to `out`.
TraceReport ConvertTrace(const TraceFormat& format, const std::string& path,
                         const TraceOptionValues& format_options, const TraceReadOptions& options,
                         JobWriter& out);

// Reads the trace at `path` into `workload` (appending, in submit-time order).
TraceReport ReadTrace(const TraceFormat& format, const std::string& path,
                      const TraceOptionValues& format_options, const TraceReadOptions& options,
                      Workload& workload);

}  // namespace fleetsim
