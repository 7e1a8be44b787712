// Binning fill steps by arrived demand as the paper's artifact does: round half to even, the mean
// over a bin's steps, the neighbour fallback for an empty bin; and statistics over seeds.
#include "fleetsim/fill/fill_curves.h"

#include <gtest/gtest.h>

#include <cmath>

namespace fleetsim {
namespace {

TEST(FillCurvesTest, TheArrivedShareIsRoundedHalfToEven) {
  // Capacity 6,212,000 milli: 1 % is 62,120.
  EXPECT_EQ(ArrivedPercentBin(0, 6212000), 0);
  EXPECT_EQ(ArrivedPercentBin(31059, 6212000), 0);
  EXPECT_EQ(ArrivedPercentBin(31060, 6212000), 0);  // 0.5 -> 0 (even)
  EXPECT_EQ(ArrivedPercentBin(31061, 6212000), 1);
  EXPECT_EQ(ArrivedPercentBin(93180, 6212000), 2);  // 1.5 -> 2 (even)
  EXPECT_EQ(ArrivedPercentBin(6212000, 6212000), 100);
  EXPECT_EQ(ArrivedPercentBin(8075600, 6212000), 130);
}

FillStep Step(std::int64_t arrived, std::int64_t allocated, double fragmented) {
  return {.arrived_milli = arrived,
          .allocated_milli = allocated,
          .idle_milli = 1000 - allocated,
          .fragmented_milli = fragmented};
}

TEST(FillCurvesTest, ABinIsTheMeanOfItsStepsAndAnEmptyBinBorrowsItsNeighbours) {
  // Capacity 1000: 1 % = 10 milli. Steps at 0 %, 1 %, 1 %, 4 %.
  const std::vector<FillStep> steps = {Step(0, 0, 0), Step(10, 10, 99), Step(12, 12, 99),
                                       Step(40, 20, 490)};
  const FillCurve curve = BinByArrivedShare(steps, 1000, 5);
  ASSERT_EQ(curve.size(), 6U);
  ASSERT_TRUE(curve[1].has_value());
  EXPECT_DOUBLE_EQ(curve[1]->allocation_pct, 1.1);           // (1.0 + 1.2) / 2
  EXPECT_DOUBLE_EQ(curve[1]->fragmentation_pct, 9.9);        // 99 / 1000
  EXPECT_DOUBLE_EQ(curve[1]->fragmentation_ratio_pct, (99.0 / 990 + 99.0 / 988) * 50);
  // x = 2: empty; its neighbours 1 and 3 hold the two 1 % steps.
  ASSERT_TRUE(curve[2].has_value());
  EXPECT_DOUBLE_EQ(curve[2]->allocation_pct, 1.1);
  // x = 3: neighbours 2 (empty) and 4 (one step).
  EXPECT_DOUBLE_EQ(curve[3]->allocation_pct, 2.0);
  EXPECT_DOUBLE_EQ(curve[4]->fragmentation_ratio_pct, 100 * 490.0 / 980);
  // x = 5: neighbours 4 and 6; 4 has a step.
  EXPECT_TRUE(curve[5].has_value());
  // Nothing near: 0..5 of a run that jumps to 50 %.
  const FillCurve sparse = BinByArrivedShare(std::vector<FillStep>{Step(500, 0, 0)}, 1000, 5);
  EXPECT_FALSE(sparse[3].has_value());
}

TEST(FillCurvesTest, SeedStatisticsUseTheSampleStandardDeviation) {
  const std::vector<double> values = {1, 2, 3, 4};
  const SeedStats stats = SeedStatsOf(values);
  EXPECT_DOUBLE_EQ(stats.mean, 2.5);
  EXPECT_DOUBLE_EQ(stats.sd, std::sqrt(5.0 / 3));
  EXPECT_EQ(stats.seeds, 4);
  EXPECT_EQ(SeedStatsOf(std::vector<double>{7}).sd, 0);
  EXPECT_EQ(SeedStatsOf(std::vector<double>{}).seeds, 0);
}

}  // namespace
}  // namespace fleetsim
