// Statistics of a sample of numbers: mean, standard deviation, the 95 % confidence interval of
// the mean (Student's t), min and max. Sweeps summarize a cell's seeds with it, and `compare
// --seeds` the paired differences of two sweeps. Pure functions; StudentT95 is thread-safe.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace fleetsim {

// The mean, spread and 95 % interval of a sample (sd and the interval need two values).
struct SampleStats {
  std::size_t n = 0;
  std::optional<double> mean{}, sd{}, ci_low{}, ci_high{}, min{}, max{};
};

// Summed as offsets from the first value, so equal values have exactly that mean and sd 0.
SampleStats StatsOf(const std::vector<double>& values);

// The two-sided 95 % Student's t quantile for `n` samples (n >= 2).
double StudentT95(std::size_t n);

}  // namespace fleetsim
