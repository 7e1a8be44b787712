// Simulated time: a signed 64-bit count of milliseconds since the start of a simulation.
//
// Time is an integer so that event order never depends on floating-point rounding. One
// millisecond is finer than any scheduling decision needs (spot notices are 30-120 s) and the
// int64 range (+-292 million years) is far beyond any scenario; scenario inputs are limited to
// kMaxScenarioSeconds so that GPU-time products stay inside int64 as well.
// Value type; thread-compatible.
#pragma once

#include <cstdint>
#include <limits>
#include <string>

namespace fleetsim {

using SimTime = std::int64_t;      // milliseconds since simulation start
using SimDuration = std::int64_t;  // milliseconds

inline constexpr SimTime kMillisPerSecond = 1000;
inline constexpr SimTime kTimeNever = std::numeric_limits<SimTime>::max();

// The largest time or duration a scenario may state: 100 years, in seconds.
inline constexpr double kMaxScenarioSeconds = 100.0 * 365.25 * 24 * 3600;

// Seconds (as written in scenario files) to simulated time, rounded to the nearest millisecond.
// Precondition: 0 <= seconds <= kMaxScenarioSeconds (callers validate first).
SimTime SecondsToTime(double seconds);

// Simulated time to seconds, for reports.
double TimeToSeconds(SimTime t);

// "1d 02:03:04.005" style rendering used in logs; negative values get a leading '-'.
std::string FormatTime(SimTime t);

}  // namespace fleetsim
