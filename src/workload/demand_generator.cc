// Daily demand curves for generated real-time inference services.
#include "workload/demand_generator.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "fleetsim/core/check.h"

namespace fleetsim {

namespace {

constexpr SimDuration kHour = 3600 * kMillisPerSecond;

std::int64_t CyclicDistance(std::size_t i, std::size_t j, std::size_t n) {
  const std::size_t forward = i > j ? i - j : j - i;
  return static_cast<std::int64_t>(std::min(forward, n - forward));
}

// Share of the peak wanted in hour `hour`: 1 at the peak hour, `base` twelve hours away.
double Level(const DemandProfileSpec& spec, std::size_t hour) {
  const double phase = 2 * std::numbers::pi *
                       (static_cast<double>(hour) - static_cast<double>(spec.peak_hour)) /
                       static_cast<double>(kHoursPerDay);
  return spec.base_fraction + (1 - spec.base_fraction) * (1 + std::cos(phase)) / 2;
}

}  // namespace

std::vector<std::int64_t> LimitSwaps(const std::vector<std::int64_t>& target,
                                     std::int64_t swap_cap) {
  if (swap_cap == 0) {
    return target;
  }
  const std::size_t n = target.size();
  std::vector<std::int64_t> limited(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::int64_t lowest = target[i];
    for (std::size_t j = 0; j < n; ++j) {
      lowest = std::min(lowest, target[j] + swap_cap * CyclicDistance(i, j, n));
    }
    limited[i] = lowest;
  }
  return limited;
}

DemandCurve DailyDemandCurve(const DemandProfileSpec& spec, std::int64_t peak, Rng& rng) {
  FLEETSIM_CHECK(peak >= 1, "a service peaks at 1 GPU or more");
  std::vector<std::int64_t> target;
  const auto peak_gpus = static_cast<double>(peak);
  for (std::size_t hour = 0; hour < kHoursPerDay; ++hour) {
    const double noise = spec.noise > 0 ? 1 + spec.noise * Normal(rng, 0, 1) : 1;
    const double wanted = std::clamp(peak_gpus * Level(spec, hour) * noise, 0.0, peak_gpus);
    target.push_back(std::llround(wanted));
  }
  return {.step = kHour, .gpus = LimitSwaps(target, spec.swap_cap), .swap_cap = spec.swap_cap};
}

}  // namespace fleetsim
