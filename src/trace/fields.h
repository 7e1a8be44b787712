// Typed reads of one text field of a trace row, with the messages every reader gives for a bad
// value: "column 'num_gpus': expected an integer >= 1, found 'abc'". The first problem of a row
// is kept in a FieldError (its `reason` is the short category used to count skipped rows).
// Internal to the trace readers. Thread-compatible.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fleetsim/core/time.h"
#include "fleetsim/trace/job_source.h"
#include "fleetsim/workload/job.h"

namespace fleetsim {

struct FieldError {
  std::string reason;   // "" while the row is fine
  std::string message;  // "column 'x': expected ..., found '...'"

  bool ok() const { return reason.empty(); }
  // Records the problem unless one is already recorded (the first problem of a row wins).
  void Set(std::string why, std::string what);
};

// Reason categories shared by every reader (docs/trace-formats.md lists them).
inline constexpr const char* kReasonColumnCount = "wrong column count";
inline constexpr const char* kReasonNotNumeric = "non-numeric field";
inline constexpr const char* kReasonOutOfRange = "value out of range";
inline constexpr const char* kReasonNegativeTime = "negative time or duration";
inline constexpr const char* kReasonZeroGpus = "zero GPUs";
inline constexpr const char* kReasonBadValue = "invalid value";
inline constexpr const char* kReasonUnknownGpuModel = "unknown GPU model";
inline constexpr const char* kReasonDuplicateId = "duplicate id";
inline constexpr const char* kReasonBadSyntax = "malformed row";

// An integer in [min, max]; the whole field must be the number (surrounding spaces allowed).
std::optional<std::int64_t> IntField(std::string_view text, std::string_view column,
                                     std::int64_t min, std::int64_t max, FieldError& error);
// A finite decimal number in [min, max].
std::optional<double> RealField(std::string_view text, std::string_view column, double min,
                                double max, FieldError& error);
// Seconds in [0, kMaxScenarioSeconds] (negative values get kReasonNegativeTime), as SimTime.
std::optional<SimTime> SecondsField(std::string_view text, std::string_view column,
                                    FieldError& error);
// "true"/"false" (also "1"/"0").
std::optional<bool> BoolField(std::string_view text, std::string_view column, FieldError& error);

// The row error for `error` at file:line.
RowError MakeRowError(const std::string& file, std::int64_t line, const FieldError& error);

// Checks a finished job with ProblemsWith; on a problem fills `error` with the first one
// ("field 'max_gpus': ...") and returns false.
bool CheckJob(const Job& job, FieldError& error);

}  // namespace fleetsim
