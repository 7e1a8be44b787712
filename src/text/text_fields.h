// Typed reads of one text field of a row, with the messages every reader gives for a bad value:
// "column 'num_gpus': expected an integer >= 1, found 'abc'". The first problem of a row is kept
// in a FieldError (its `reason` is the short category used to count skipped rows). Also the
// typed reads of a reader's option text. Internal to the fleetsim libraries (the trace readers,
// the fill module's reader of published results). Thread-compatible.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "fleetsim/core/status.h"
#include "fleetsim/core/time.h"

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

// A run time: seconds as SecondsField reads them that are still > 0 once rounded to the
// millisecond ("column 'duration': expected seconds > 0, found 0").
std::optional<SimDuration> DurationField(std::string_view text, std::string_view column,
                                         FieldError& error);

// Typed reads of a format option's text, for the readers' open functions. On a bad value they
// return nullopt and set `status` to an invalid-input error "option 'x': expected ..., found
// '...'".
std::optional<std::int64_t> IntOption(std::string_view name, std::string_view text,
                                      std::int64_t min, std::int64_t max, Status& status);
std::optional<bool> BoolOption(std::string_view name, std::string_view text, Status& status);
// Seconds > 0, at most kMaxScenarioSeconds.
std::optional<SimDuration> DurationOption(std::string_view name, std::string_view text,
                                          Status& status);

// Text with its ASCII letters in lower case (other bytes, UTF-8 included, unchanged).
std::string AsciiLower(std::string_view text);

// A size with a binary unit as Slurm writes memory ("199G", "32000M", "1.5T", "512K"), in MiB
// rounded up; nullopt when it is not one.
std::optional<std::int64_t> SizeMib(std::string_view text);

// A Kubernetes quantity ("12", "7910m", "87425380Ki", "64Gi", "500M", "1e3") as a number of
// units (bytes for memory, cores for CPU); nullopt when it is not one or is negative.
std::optional<double> KubernetesQuantity(std::string_view text);

}  // namespace fleetsim
