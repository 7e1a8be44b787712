// The native job object: a Job as one JSON object, the form used by the native JSON Lines
// format and by the "jobs" array of scenario files (docs/trace-formats.md, "The job model").
// Reading records every problem as a Diagnostic at its JSON pointer (through JsonChecker), so a
// scenario reports all of them at once and a trace reader can take the first. Writing gives
// one fixed text per job: keys in the documented order, fields at their default left out, times
// in seconds with at most three decimals. Internal to the fleetsim libraries. Thread-compatible.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fleetsim/core/time.h"
#include "fleetsim/workload/job.h"
#include "json/json_checker.h"

namespace fleetsim {

// Limits of the native formats beyond those in job.h.
inline constexpr double kMaxGpuMemoryGb = 1e6;
inline constexpr double kMaxWorkGpuHours = 1e12;
inline constexpr std::int64_t kMaxHostAmount = 1'000'000'000'000;  // cpu_milli and memory_mib

// The keys of a job object in documented order ("demand" holds DemandObjectKeys()).
const std::vector<std::string>& JobObjectKeys();
const std::vector<std::string>& DemandObjectKeys();

// Reads every field of `object` (found at JSON pointer `path`, "" for a whole document) into
// `job`: types, ranges and enum names, each problem recorded at the field's pointer. Keys it does
// not know are not looked at. Returns true when every field was read cleanly.
bool ReadJobFields(const nlohmann::json& object, const std::string& path, JsonChecker& check,
                   Job& job);

// The whole check of a job object: unknown keys (warnings with "did you mean"), the fields
// (ReadJobFields), then — only when every field read cleanly, so that no rule complains about a
// value that was never read — the rules of ProblemsWith, each at the pointer of its field
// ("demand.gpus" is reported at path + "/demand/gpus").
Job ParseJobObject(const nlohmann::json& object, const std::string& path, JsonChecker& check);

// The native object of `job`. id, submit_s, gpus and the truth (duration_s, or work_gpu_hours
// when that is what the job has) are always written; every other field only when it differs
// from its default, a deadline only when there is one. Times follow SecondsText; other numbers
// are written as integers when whole, else in the shortest form that reads back exactly.
// The dump of the result is the same on every run and platform.
nlohmann::ordered_json JobToJson(const Job& job);

// A time or duration in seconds as the native formats write it: the whole number of seconds
// when the millisecond count is a multiple of 1000 ("12", "-3"), else the seconds with one to
// three decimals, trailing zeros dropped ("12.5", "0.001", "3600.25").
std::string SecondsText(SimDuration t);

}  // namespace fleetsim
