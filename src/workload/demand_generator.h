// Daily demand curves of generated real-time inference services (DemandProfileSpec in
// generator.h): 24 hourly steps from a raised-cosine profile with noise, limited so that no two
// consecutive hours (the last and the first included, the curve being cyclic) differ by more
// than the swap cap. Pure functions; thread-compatible.
#pragma once

#include <cstdint>
#include <vector>

#include "fleetsim/core/random.h"
#include "fleetsim/workload/generator.h"
#include "fleetsim/workload/job.h"

namespace fleetsim {

// The largest curve at or below `target` whose cyclically consecutive values differ by at most
// `swap_cap` (0: `target` unchanged): value i = min over j of target[j] + swap_cap × the
// cyclic distance from i to j. Its values stay in [min(target), max(target)].
std::vector<std::int64_t> LimitSwaps(const std::vector<std::int64_t>& target,
                                     std::int64_t swap_cap);

// One service's hourly demand (24 steps of one hour) for a service peaking at `peak` GPUs
// (>= 1), with values in [0, peak]: step h aims at
//   round(peak × level(h) × (1 + noise × N(0, 1))), clamped to [0, peak], where
//   level(h) = base + (1 − base) × (1 + cos(2π (h − peak_hour) / 24)) / 2,
// drawing one normal per hour when noise > 0, then LimitSwaps with the spec's swap cap.
DemandCurve DailyDemandCurve(const DemandProfileSpec& spec, std::int64_t peak, Rng& rng);

}  // namespace fleetsim
