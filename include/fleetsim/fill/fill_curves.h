// From a fill run's steps to curves over the arrived GPU demand, as the paper's artifact
// aggregates them (docs/validation.md#the-experiment, step 6): each step falls in the bin x = its
// arrived demand in % of GPU capacity, rounded half to even; a bin's value is the mean over its
// steps (every step weighs the same, failed and CPU-only pods included), and an empty bin takes the
// steps of x-1..x+1. Then the mean and sample standard deviation of a bin over seeds.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "fleetsim/fill/fill_run.h"

namespace fleetsim {

struct FillPoint {
  double allocation_pct = 0;           // allocated GPU share, % of capacity
  double fragmentation_pct = 0;        // fragmented GPU share, % of capacity
  double fragmentation_ratio_pct = 0;  // fragmented / idle, %; 0 when nothing is idle
};

// Index x = 0..max_x; nullopt where neither x nor its neighbours have a step.
using FillCurve = std::vector<std::optional<FillPoint>>;

// 100 × arrived / capacity, rounded half to even, exactly (integer arithmetic).
std::int64_t ArrivedPercentBin(std::int64_t arrived_milli, std::int64_t capacity_milli);

FillCurve BinByArrivedShare(std::span<const FillStep> steps, std::int64_t capacity_milli,
                            int max_x);

enum class FillMetric { kAllocation, kFragmentation, kFragmentationRatio };
double MetricOf(const FillPoint& point, FillMetric metric);

struct SeedStats {
  double mean = 0;
  double sd = 0;  // sample standard deviation (n - 1); 0 for one seed
  std::int64_t seeds = 0;
};

// The mean and sample standard deviation of `values` (core/sample_stats.h's), as fill tables
// show them.
SeedStats SeedStatsOf(const std::vector<double>& values);
// The metric at x over the curves that have it; seeds == 0 if none has.
SeedStats StatsAt(std::span<const FillCurve> curves, int x, FillMetric metric);

}  // namespace fleetsim
