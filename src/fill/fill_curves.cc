// Binning fill steps by arrived demand, and statistics over seeds.
#include "fleetsim/fill/fill_curves.h"

#include "fleetsim/core/check.h"
#include "fleetsim/core/sample_stats.h"

namespace fleetsim {

std::int64_t ArrivedPercentBin(std::int64_t arrived_milli, std::int64_t capacity_milli) {
  FLEETSIM_CHECK(capacity_milli > 0 && arrived_milli >= 0, "ArrivedPercentBin: bad arguments");
  const std::int64_t scaled = 100 * arrived_milli;
  const std::int64_t quotient = scaled / capacity_milli;
  const std::int64_t twice_remainder = 2 * (scaled % capacity_milli);
  if (twice_remainder > capacity_milli ||
      (twice_remainder == capacity_milli && quotient % 2 == 1)) {
    return quotient + 1;
  }
  return quotient;
}

namespace {

FillPoint PointOf(const FillStep& step, std::int64_t capacity_milli) {
  const auto capacity = static_cast<double>(capacity_milli);
  return {.allocation_pct = 100 * static_cast<double>(step.allocated_milli) / capacity,
          .fragmentation_pct = 100 * step.fragmented_milli / capacity,
          .fragmentation_ratio_pct =
              step.idle_milli > 0
                  ? 100 * step.fragmented_milli / static_cast<double>(step.idle_milli)
                  : 0};
}

struct PointSum {
  FillPoint sum;
  std::int64_t steps = 0;

  void Add(const FillPoint& point) {
    sum.allocation_pct += point.allocation_pct;
    sum.fragmentation_pct += point.fragmentation_pct;
    sum.fragmentation_ratio_pct += point.fragmentation_ratio_pct;
    ++steps;
  }
  void Add(const PointSum& other) {
    sum.allocation_pct += other.sum.allocation_pct;
    sum.fragmentation_pct += other.sum.fragmentation_pct;
    sum.fragmentation_ratio_pct += other.sum.fragmentation_ratio_pct;
    steps += other.steps;
  }
  FillPoint Mean() const {
    const auto n = static_cast<double>(steps);
    return {sum.allocation_pct / n, sum.fragmentation_pct / n, sum.fragmentation_ratio_pct / n};
  }
};

}  // namespace

FillCurve BinByArrivedShare(std::span<const FillStep> steps, std::int64_t capacity_milli,
                            int max_x) {
  FLEETSIM_CHECK(max_x >= 0, "BinByArrivedShare: max_x must be >= 0");
  const auto bins = static_cast<std::size_t>(max_x) + 1;
  std::vector<PointSum> sums(bins + 1);  // one past max_x, for the neighbour fallback
  for (const FillStep& step : steps) {
    const auto x = static_cast<std::size_t>(ArrivedPercentBin(step.arrived_milli, capacity_milli));
    if (x <= bins) {
      sums[x].Add(PointOf(step, capacity_milli));
    }
  }
  FillCurve curve(bins);
  for (std::size_t x = 0; x < bins; ++x) {
    if (sums[x].steps > 0) {
      curve[x] = sums[x].Mean();
      continue;
    }
    PointSum around;
    around.Add(sums[x + 1]);
    if (x > 0) {
      around.Add(sums[x - 1]);
    }
    if (around.steps > 0) {
      curve[x] = around.Mean();
    }
  }
  return curve;
}

double MetricOf(const FillPoint& point, FillMetric metric) {
  switch (metric) {
    case FillMetric::kAllocation:
      return point.allocation_pct;
    case FillMetric::kFragmentation:
      return point.fragmentation_pct;
    case FillMetric::kFragmentationRatio:
      return point.fragmentation_ratio_pct;
  }
  return 0;
}

SeedStats StatsAt(std::span<const FillCurve> curves, int x, FillMetric metric) {
  std::vector<double> values;
  for (const FillCurve& curve : curves) {
    const auto at = static_cast<std::size_t>(x);
    if (at < curve.size() && curve[at]) {
      values.push_back(MetricOf(*curve[at], metric));
    }
  }
  return SeedStatsOf(values);
}

SeedStats SeedStatsOf(const std::vector<double>& values) {
  const SampleStats sample = StatsOf(values);
  return {.mean = sample.mean.value_or(0),
          .sd = sample.sd.value_or(0),
          .seeds = static_cast<std::int64_t>(sample.n)};
}

}  // namespace fleetsim
