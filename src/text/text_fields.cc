// Typed reads of text fields and option values.
#include "text/text_fields.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

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

std::optional<SimDuration> DurationField(std::string_view text, std::string_view column,
                                         FieldError& error) {
  const std::optional<SimTime> duration = SecondsField(text, column, error);
  if (duration && *duration == 0) {
    error.Set(kReasonOutOfRange,
              fmt::format("column '{}': expected seconds > 0, found {}", column, Trim(text)));
    return std::nullopt;
  }
  return duration;
}

std::optional<std::int64_t> IntOption(std::string_view name, std::string_view text,
                                      std::int64_t min, std::int64_t max, Status& status) {
  std::int64_t value = 0;
  if (!ParseWhole(text, value) || value < min || value > max) {
    status = Status::InvalidInput(fmt::format(
        "option '{}': expected an integer in [{}, {}], found '{}'", name, min, max, text));
    return std::nullopt;
  }
  return value;
}

std::optional<bool> BoolOption(std::string_view name, std::string_view text, Status& status) {
  FieldError field_error;
  const std::optional<bool> value = BoolField(text, name, field_error);
  if (!value) {
    status = Status::InvalidInput(
        fmt::format("option '{}': expected true or false, found '{}'", name, text));
  }
  return value;
}

std::optional<SimDuration> DurationOption(std::string_view name, std::string_view text,
                                          Status& status) {
  double seconds = 0;
  if (!ParseWhole(text, seconds) || !std::isfinite(seconds) || seconds < 0 ||
      seconds > kMaxScenarioSeconds || SecondsToTime(seconds) == 0) {
    status = Status::InvalidInput(
        fmt::format("option '{}': expected seconds > 0 (at most {}, 100 years), found '{}'", name,
                    kMaxScenarioSeconds, text));
    return std::nullopt;
  }
  return SecondsToTime(seconds);
}

std::string AsciiLower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') {
      c = static_cast<char>(c - 'A' + 'a');
    }
  }
  return out;
}

std::optional<std::int64_t> SizeMib(std::string_view text) {
  if (text.empty()) {
    return std::nullopt;
  }
  double scale = 1;  // to MiB
  switch (text.back()) {
    case 'K':
      scale = 1.0 / 1024;
      break;
    case 'M':
      scale = 1;
      break;
    case 'G':
      scale = 1024;
      break;
    case 'T':
      scale = 1024.0 * 1024;
      break;
    default:
      return std::nullopt;
  }
  text.remove_suffix(1);
  FieldError ignored;
  const std::optional<double> value = RealField(text, "size", 0, 1e12, ignored);
  if (!value) {
    return std::nullopt;
  }
  return static_cast<std::int64_t>(std::ceil(*value * scale));
}

std::optional<double> KubernetesQuantity(std::string_view text) {
  constexpr double kGib = 1024.0 * 1024.0 * 1024.0;
  static const std::vector<std::pair<std::string_view, double>> kSuffixes = {
      {"Ki", 1024.0}, {"Mi", 1024.0 * 1024},
      {"Gi", kGib},   {"Ti", kGib * 1024},
      {"k", 1e3},     {"M", 1e6},
      {"G", 1e9},     {"T", 1e12},
      {"m", 1e-3}};
  std::string_view number = text;
  double scale = 1;
  for (const auto& [suffix, factor] : kSuffixes) {
    if (number.size() > suffix.size() && number.ends_with(suffix)) {
      number.remove_suffix(suffix.size());
      scale = factor;
      break;
    }
  }
  if (number.empty() || number.find_first_not_of("0123456789.eE+-") != std::string::npos) {
    return std::nullopt;
  }
  if (number.front() == '+') {
    number.remove_prefix(1);  // from_chars takes no '+'
  }
  double value = 0;
  const char* end = number.data() + number.size();
  const auto [stop, error] = std::from_chars(number.data(), end, value);
  if (error != std::errc() || stop != end || !std::isfinite(value * scale) || value < 0) {
    return std::nullopt;
  }
  return value * scale;
}

}  // namespace fleetsim
