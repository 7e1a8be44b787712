// Typed field reads for the trace readers.
#include "trace/fields.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

namespace fleetsim {

namespace {

std::string_view Trim(std::string_view text) {
  const std::size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos) {
    return {};
  }
  const std::size_t end = text.find_last_not_of(" \t");
  return text.substr(begin, end - begin + 1);
}

template <typename T>
bool ParseWhole(std::string_view text, T& value) {
  text = Trim(text);
  if (!text.empty() && text.front() == '+') {
    text.remove_prefix(1);
  }
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return !text.empty() && ec == std::errc() && ptr == end;
}

}  // namespace

void FieldError::Set(std::string why, std::string what) {
  if (ok()) {
    reason = std::move(why);
    message = std::move(what);
  }
}

std::optional<std::int64_t> IntField(std::string_view text, std::string_view column,
                                     std::int64_t min, std::int64_t max, FieldError& error) {
  std::int64_t value = 0;
  if (!ParseWhole(text, value)) {
    double real = 0;
    const bool is_number = ParseWhole(text, real) && std::isfinite(real);
    error.Set(is_number ? kReasonBadValue : kReasonNotNumeric,
              fmt::format("column '{}': expected an integer, found '{}'", column, text));
    return std::nullopt;
  }
  if (value < min || value > max) {
    error.Set(value < 0 && min >= 0 ? kReasonNegativeTime : kReasonOutOfRange,
              fmt::format("column '{}': expected an integer in [{}, {}], found {}", column, min,
                          max, value));
    return std::nullopt;
  }
  return value;
}

std::optional<double> RealField(std::string_view text, std::string_view column, double min,
                                double max, FieldError& error) {
  double value = 0;
  if (!ParseWhole(text, value) || !std::isfinite(value)) {
    error.Set(kReasonNotNumeric,
              fmt::format("column '{}': expected a number, found '{}'", column, text));
    return std::nullopt;
  }
  if (value < min || value > max) {
    error.Set(kReasonOutOfRange, fmt::format("column '{}': expected a number in [{}, {}], found {}",
                                             column, min, max, Trim(text)));
    return std::nullopt;
  }
  return value;
}

std::optional<SimTime> SecondsField(std::string_view text, std::string_view column,
                                    FieldError& error) {
  double value = 0;
  if (!ParseWhole(text, value) || !std::isfinite(value)) {
    error.Set(kReasonNotNumeric,
              fmt::format("column '{}': expected a number of seconds, found '{}'", column, text));
    return std::nullopt;
  }
  if (value < 0) {
    error.Set(kReasonNegativeTime,
              fmt::format("column '{}': expected seconds >= 0, found {}", column, Trim(text)));
    return std::nullopt;
  }
  if (value > kMaxScenarioSeconds) {
    error.Set(kReasonOutOfRange, fmt::format("column '{}': expected seconds <= {} (100 years), "
                                             "found {}",
                                             column, kMaxScenarioSeconds, Trim(text)));
    return std::nullopt;
  }
  return SecondsToTime(value);
}

std::optional<bool> BoolField(std::string_view text, std::string_view column, FieldError& error) {
  const std::string_view t = Trim(text);
  if (t == "true" || t == "1") {
    return true;
  }
  if (t == "false" || t == "0") {
    return false;
  }
  error.Set(kReasonBadValue,
            fmt::format("column '{}': expected true or false, found '{}'", column, text));
  return std::nullopt;
}

RowError MakeRowError(const std::string& file, std::int64_t line, const FieldError& error) {
  return RowError{file, line, error.reason, error.message};
}

bool CheckJob(const Job& job, FieldError& error) {
  const std::vector<JobProblem> problems = ProblemsWith(job);
  if (problems.empty()) {
    return true;
  }
  const JobProblem& first = problems.front();
  const char* reason = first.field == "gpus" && job.request.gpus == 0 ? kReasonZeroGpus
                       : first.field == "id"                          ? kReasonBadValue
                                                                      : kReasonOutOfRange;
  error.Set(reason, fmt::format("field '{}': {}", first.field, first.message));
  return false;
}

}  // namespace fleetsim
