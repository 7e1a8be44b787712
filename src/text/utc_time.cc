// UTC calendar timestamps and Slurm durations, read and written.
#include "text/utc_time.h"

#include <fmt/format.h>

#include <array>

namespace fleetsim {

namespace {

constexpr std::int64_t kSecondsPerDay = 86'400;

bool IsLeapYear(std::int64_t year) { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0); }

std::int64_t DaysInMonth(std::int64_t year, std::int64_t month) {
  constexpr std::array<std::int64_t, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : kDays[static_cast<std::size_t>(month - 1)];
}

// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's
// days_from_civil).
std::int64_t DaysFromCivil(std::int64_t year, std::int64_t month, std::int64_t day) {
  year -= month <= 2 ? 1 : 0;
  const std::int64_t era = (year >= 0 ? year : year - 399) / 400;
  const std::int64_t year_of_era = year - era * 400;
  const std::int64_t day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  const std::int64_t day_of_era =
      year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

struct CivilDate {
  std::int64_t year = 0;
  std::int64_t month = 0;
  std::int64_t day = 0;
};

// The inverse of DaysFromCivil (H. Hinnant's civil_from_days).
CivilDate CivilFromDays(std::int64_t days) {
  days += 719468;
  const std::int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const std::int64_t day_of_era = days - era * 146097;
  const std::int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const std::int64_t day_of_year =
      day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const std::int64_t month_index = (5 * day_of_year + 2) / 153;
  const std::int64_t day = day_of_year - (153 * month_index + 2) / 5 + 1;
  const std::int64_t month = month_index < 10 ? month_index + 3 : month_index - 9;
  return {year_of_era + era * 400 + (month <= 2 ? 1 : 0), month, day};
}

// Whether `text` is one or more digits.
bool AllDigits(std::string_view text) {
  if (text.empty()) {
    return false;
  }
  for (const char c : text) {
    if (c < '0' || c > '9') {
      return false;
    }
  }
  return true;
}

std::int64_t Digits(std::string_view text) {
  std::int64_t value = 0;
  for (const char c : text) {
    value = value * 10 + (c - '0');
  }
  return value;
}

// "HH:MM:SS" or "MM:SS" as seconds. After a day count (`after_days`) hours are at most 23 and
// "HH:MM" means hours and minutes. Minutes and seconds are at most 59.
std::optional<std::int64_t> ClockSeconds(std::string_view text, bool after_days) {
  std::array<std::int64_t, 3> parts{};
  std::size_t count = 0;
  while (true) {
    const std::size_t colon = text.find(':');
    const std::string_view part = text.substr(0, colon);
    if (count == parts.size() || !AllDigits(part) || part.size() > 9) {
      return std::nullopt;
    }
    parts[count++] = Digits(part);
    if (colon == std::string_view::npos) {
      break;
    }
    text.remove_prefix(colon + 1);
  }
  if (count == 3) {
    const bool ok = parts[1] <= 59 && parts[2] <= 59 && (!after_days || parts[0] <= 23);
    return ok ? std::optional(parts[0] * 3600 + parts[1] * 60 + parts[2]) : std::nullopt;
  }
  if (count == 2 && after_days) {
    const bool ok = parts[0] <= 23 && parts[1] <= 59;
    return ok ? std::optional(parts[0] * 3600 + parts[1] * 60) : std::nullopt;
  }
  if (count == 2) {
    const bool ok = parts[0] <= 59 && parts[1] <= 59;
    return ok ? std::optional(parts[0] * 60 + parts[1]) : std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::int64_t> ParseUtcTimestamp(std::string_view text, char separator) {
  constexpr std::string_view kShape = "dddd-dd-ddXdd:dd:dd";
  if (text.size() != kShape.size()) {
    return std::nullopt;
  }
  for (std::size_t i = 0; i < kShape.size(); ++i) {
    const bool digit = text[i] >= '0' && text[i] <= '9';
    const char expected = kShape[i] == 'X' ? separator : kShape[i];
    if (kShape[i] == 'd' ? !digit : text[i] != expected) {
      return std::nullopt;
    }
  }
  const std::int64_t year = Digits(text.substr(0, 4));
  const std::int64_t month = Digits(text.substr(5, 2));
  const std::int64_t day = Digits(text.substr(8, 2));
  const std::int64_t hour = Digits(text.substr(11, 2));
  const std::int64_t minute = Digits(text.substr(14, 2));
  const std::int64_t second = Digits(text.substr(17, 2));
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, month) || hour > 23 ||
      minute > 59 || second > 59) {
    return std::nullopt;
  }
  return DaysFromCivil(year, month, day) * kSecondsPerDay + hour * 3600 + minute * 60 + second;
}

std::string FormatUtcTimestamp(std::int64_t seconds, char separator) {
  std::int64_t days = seconds / kSecondsPerDay;
  std::int64_t rest = seconds % kSecondsPerDay;
  if (rest < 0) {
    rest += kSecondsPerDay;
    --days;
  }
  const CivilDate date = CivilFromDays(days);
  return fmt::format("{:04}-{:02}-{:02}{}{:02}:{:02}:{:02}", date.year, date.month, date.day,
                     separator, rest / 3600, rest / 60 % 60, rest % 60);
}

std::optional<std::int64_t> ParseSlurmDuration(std::string_view text) {
  const std::size_t dash = text.find('-');
  if (dash == std::string_view::npos) {
    return ClockSeconds(text, false);
  }
  const std::string_view days = text.substr(0, dash);
  const std::string_view clock = text.substr(dash + 1);
  if (!AllDigits(days) || days.size() > 9) {
    return std::nullopt;
  }
  std::optional<std::int64_t> time;
  if (AllDigits(clock) && clock.size() <= 2) {
    const std::int64_t hours = Digits(clock);
    time = hours <= 23 ? std::optional<std::int64_t>(hours * 3600) : std::nullopt;
  } else {
    time = ClockSeconds(clock, true);
  }
  if (!time) {
    return std::nullopt;
  }
  return Digits(days) * kSecondsPerDay + *time;
}

std::int64_t MidnightUtc(std::int64_t seconds) {
  return seconds - ((seconds % kSecondsPerDay) + kSecondsPerDay) % kSecondsPerDay;
}

std::string FormatSlurmDuration(std::int64_t seconds) {
  const std::int64_t days = seconds / kSecondsPerDay;
  const std::string clock = fmt::format("{:02}:{:02}:{:02}", seconds % kSecondsPerDay / 3600,
                                        seconds % 3600 / 60, seconds % 60);
  return days > 0 ? fmt::format("{}-{}", days, clock) : clock;
}

}  // namespace fleetsim
