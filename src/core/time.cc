// Conversions between simulated time and seconds, and its log rendering.
#include "fleetsim/core/time.h"

#include <fmt/format.h>

#include <cmath>

namespace fleetsim {

SimTime SecondsToTime(double seconds) {
  return static_cast<SimTime>(std::llround(seconds * static_cast<double>(kMillisPerSecond)));
}

double TimeToSeconds(SimTime t) {
  return static_cast<double>(t) / static_cast<double>(kMillisPerSecond);
}

std::string FormatTime(SimTime t) {
  if (t == kTimeNever) {
    return "never";
  }
  const char* sign = t < 0 ? "-" : "";
  const std::uint64_t ms =
      t < 0 ? static_cast<std::uint64_t>(-(t + 1)) + 1 : static_cast<std::uint64_t>(t);
  const std::uint64_t total_s = ms / 1000;
  const std::uint64_t days = total_s / 86400;
  return fmt::format("{}{}d {:02}:{:02}:{:02}.{:03}", sign, days, (total_s / 3600) % 24,
                     (total_s / 60) % 60, total_s % 60, ms % 1000);
}

}  // namespace fleetsim
