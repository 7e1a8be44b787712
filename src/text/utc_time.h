// Calendar timestamps as accounting logs and traces write them ("2017-10-03 14:05:00",
// "2023-09-01T05:51:10"), read and written as seconds since 1970-01-01 00:00:00 UTC on the
// proleptic Gregorian calendar; and Slurm's durations ("[D-]HH:MM:SS"). Internal to the fleetsim
// libraries (the trace readers, the Slurm configuration importer). Thread-compatible.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fleetsim {

// Exactly "YYYY-mm-dd<separator>HH:MM:SS" with a real date and time of day: seconds since
// 1970-01-01 00:00:00 UTC (the text is taken as UTC); nullopt otherwise.
std::optional<std::int64_t> ParseUtcTimestamp(std::string_view text, char separator = ' ');

// Seconds since 1970-01-01 UTC as "YYYY-mm-dd<separator>HH:MM:SS" (years 0..9999).
std::string FormatUtcTimestamp(std::int64_t seconds, char separator = ' ');

// Slurm's elapsed-time and time-limit forms: "[D-]HH:MM:SS", "MM:SS", "D-HH" and "D-HH:MM", as
// whole seconds; nullopt for anything else (fields at most 59 where they are minutes or seconds,
// hours at most 23 after a day count).
std::optional<std::int64_t> ParseSlurmDuration(std::string_view text);

// Whole seconds (>= 0) as Slurm writes an elapsed time or time limit, "[D-]HH:MM:SS"; what
// ParseSlurmDuration reads back.
std::string FormatSlurmDuration(std::int64_t seconds);

// The start (midnight UTC) of the day holding `seconds` since 1970.
std::int64_t MidnightUtc(std::int64_t seconds);

}  // namespace fleetsim
