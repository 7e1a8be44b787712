// Daily demand curves of generated services: the raised-cosine shape, the swap cap between
// consecutive hours (the wrap from 23:00 to 00:00 included), values within [0, peak], and
// reproducible noise.
#include "workload/demand_generator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

namespace fleetsim {
namespace {

using Values = std::vector<std::int64_t>;

TEST(LimitSwapsTest, RisesAndFallsAtMostTheCapPerStep) {
  EXPECT_EQ(LimitSwaps({0, 0, 8, 8, 8, 0}, 3), (Values{0, 0, 3, 6, 3, 0}));
  EXPECT_EQ(LimitSwaps({0, 10, 0, 0}, 2), (Values{0, 2, 0, 0}));
}

TEST(LimitSwapsTest, TheCurveIsCyclic) {
  // The last step is next to the first: 9 -> 1 would be a swap of 8.
  EXPECT_EQ(LimitSwaps({1, 5, 5, 9}, 2), (Values{1, 3, 5, 3}));
}

TEST(LimitSwapsTest, NoCapOrAWideOneLeavesTheTargetAlone) {
  const Values target = {4, 0, 7, 7, 2};
  EXPECT_EQ(LimitSwaps(target, 0), target);
  EXPECT_EQ(LimitSwaps(target, 7), target);
}

TEST(LimitSwapsTest, StaysAtOrBelowTheTargetAndWithinItsRange) {
  Rng rng(5);
  for (int round = 0; round < 200; ++round) {
    Values target;
    for (std::size_t i = 0; i < 24; ++i) {
      target.push_back(UniformInt(rng, 0, 40));
    }
    const std::int64_t cap = UniformInt(rng, 1, 6);
    const Values limited = LimitSwaps(target, cap);
    const std::int64_t lowest = *std::min_element(target.begin(), target.end());
    for (std::size_t i = 0; i < target.size(); ++i) {
      EXPECT_LE(limited[i], target[i]);
      EXPECT_GE(limited[i], lowest);
      EXPECT_LE(std::abs(limited[i] - limited[(i + 23) % 24]), cap);
    }
  }
}

TEST(DailyDemandCurveTest, WithoutNoiseFollowsTheRaisedCosine) {
  Rng rng(1);
  const DemandProfileSpec spec{.base_fraction = 0.25, .peak_hour = 14, .noise = 0, .swap_cap = 0};
  const DemandCurve curve = DailyDemandCurve(spec, 16, rng);
  EXPECT_EQ(curve.step, 3'600'000);
  EXPECT_EQ(curve.swap_cap, 0);
  ASSERT_EQ(curve.gpus.size(), 24U);
  EXPECT_EQ(curve.gpus[14], 16);  // the peak hour
  EXPECT_EQ(curve.gpus[2], 4);    // twelve hours away: the base, 0.25 x 16
  // Six hours away the level is halfway: 16 x (0.25 + 0.75 / 2) = 10.
  EXPECT_EQ(curve.gpus[8], 10);
  EXPECT_EQ(curve.gpus[20], 10);
  for (int offset = 1; offset < 12; ++offset) {
    EXPECT_EQ(curve.gpus[static_cast<std::size_t>(14 + offset) % 24],
              curve.gpus[static_cast<std::size_t>(14 - offset + 24) % 24]);
  }
}

TEST(DailyDemandCurveTest, WithNoiseStaysInRangeAndRespectsTheSwapCap) {
  Rng rng(9);
  const DemandProfileSpec spec{.base_fraction = 0.1, .peak_hour = 3, .noise = 0.8, .swap_cap = 2};
  for (int round = 0; round < 100; ++round) {
    const DemandCurve curve = DailyDemandCurve(spec, 12, rng);
    ASSERT_EQ(curve.gpus.size(), 24U);
    for (std::size_t h = 0; h < 24; ++h) {
      EXPECT_GE(curve.gpus[h], 0);
      EXPECT_LE(curve.gpus[h], 12);
      EXPECT_LE(std::abs(curve.gpus[h] - curve.gpus[(h + 23) % 24]), 2) << "hour " << h;
    }
  }
}

TEST(DailyDemandCurveTest, NoiseIsReproducibleFromTheSameGenerator) {
  const DemandProfileSpec spec{.base_fraction = 0.3, .peak_hour = 20, .noise = 0.5, .swap_cap = 0};
  Rng a(4);
  Rng b(4);
  Rng c(5);
  const DemandCurve first = DailyDemandCurve(spec, 100, a);
  EXPECT_EQ(first.gpus, DailyDemandCurve(spec, 100, b).gpus);
  EXPECT_NE(first.gpus, DailyDemandCurve(spec, 100, c).gpus);
}

}  // namespace
}  // namespace fleetsim
