// The availability profile on hand-checked timelines: building from releases, minimum free
// counts over intervals, taking capacity (step splits), earliest starts for demands spanning pools
// or held in one, the horizon's clipping, and how a demand is split over pools.
#include "policy/availability_profile.h"

#include <gtest/gtest.h>

#include <vector>

namespace fleetsim {
namespace {

// One pool: 2 GPUs free now, 3 more at t = 10, 1 more at t = 30; horizon 100.
AvailabilityProfile OnePool() {
  const std::vector<std::int64_t> free_now = {2};
  return AvailabilityProfile(0, 100, free_now, {{30, 0, 1}, {10, 0, 3}});
}

TEST(AvailabilityProfileTest, BuildsStepsFromReleasesInAnyOrder) {
  const AvailabilityProfile profile = OnePool();
  EXPECT_EQ(profile.steps(), 3U);
  EXPECT_EQ(profile.MinFree(0, 0, 5), 2);
  EXPECT_EQ(profile.MinFree(0, 5, 15), 2);
  EXPECT_EQ(profile.MinFree(0, 10, 40), 5);
  EXPECT_EQ(profile.MinFree(0, 30, 1000), 6);
  EXPECT_EQ(profile.MinFree(0, 500, 600), 6);  // past the horizon: the last step
}

TEST(AvailabilityProfileTest, ReleasesAtNowCountNowAndAtTheHorizonAreDropped) {
  const std::vector<std::int64_t> free_now = {1};
  const AvailabilityProfile profile(50, 100, free_now, {{40, 0, 2}, {50, 0, 1}, {100, 0, 5}});
  EXPECT_EQ(profile.steps(), 1U);
  EXPECT_EQ(profile.MinFree(0, 50, 100), 4);
}

TEST(AvailabilityProfileTest, TakeSplitsStepsAndLowersTheInterval) {
  AvailabilityProfile profile = OnePool();
  profile.Take(0, 5, 20, 1);
  EXPECT_EQ(profile.steps(), 5U);  // 0, 5, 10, 20, 30
  EXPECT_EQ(profile.MinFree(0, 0, 5), 2);
  EXPECT_EQ(profile.MinFree(0, 5, 10), 1);
  EXPECT_EQ(profile.MinFree(0, 10, 20), 4);
  EXPECT_EQ(profile.MinFree(0, 20, 30), 5);
  const std::vector<PoolTake> two = {{0, 2}};
  EXPECT_TRUE(profile.Fits(two, 10, 100));
  EXPECT_FALSE(profile.Fits(two, 0, 10));
}

TEST(AvailabilityProfileTest, EarliestStartIsTheFirstStepWithRoomForTheWholeDuration) {
  AvailabilityProfile profile = OnePool();
  const GpuDemand four_for_10{.gpus = 4, .duration = 10, .pools = {0}};
  EXPECT_EQ(profile.EarliestStart(four_for_10), 10);
  profile.Take(0, 10, 20, 3);  // free: 2 from 0, 2 from 10, 5 from 20, 6 from 30
  EXPECT_EQ(profile.EarliestStart(four_for_10), 20);
  const GpuDemand two_for_long{.gpus = 2, .duration = 1000, .pools = {0}};
  EXPECT_EQ(profile.EarliestStart(two_for_long), 0);
  const GpuDemand too_many{.gpus = 7, .duration = 1, .pools = {0}};
  EXPECT_EQ(profile.EarliestStart(too_many), std::nullopt);
  const GpuDemand none_accepted{.gpus = 1, .duration = 1, .pools = {}};
  EXPECT_EQ(profile.EarliestStart(none_accepted), std::nullopt);
}

TEST(AvailabilityProfileTest, DurationsBeyondTheHorizonAreClipped) {
  const AvailabilityProfile profile = OnePool();
  const GpuDemand six_for_ever{.gpus = 6, .duration = 1'000'000, .pools = {0}};
  EXPECT_EQ(profile.EarliestStart(six_for_ever), 30);
}

// Pool 0: 2 free now; pool 1: 1 free now, 2 more at t = 50.
AvailabilityProfile TwoPools() {
  const std::vector<std::int64_t> free_now = {2, 1};
  return AvailabilityProfile(0, 1000, free_now, {{50, 1, 2}});
}

TEST(AvailabilityProfileTest, DemandsSpanPoolsUnlessHeldInOne) {
  const AvailabilityProfile profile = TwoPools();
  const GpuDemand spanning{.gpus = 3, .duration = 10, .pools = {0, 1}};
  EXPECT_EQ(profile.EarliestStart(spanning), 0);
  EXPECT_EQ(profile.SplitAt(spanning, 0), (std::vector<PoolTake>{{0, 2}, {1, 1}}));
  GpuDemand one_pool = spanning;
  one_pool.one_pool = true;
  EXPECT_EQ(profile.EarliestStart(one_pool), 50);
  EXPECT_EQ(profile.SplitAt(one_pool, 50), (std::vector<PoolTake>{{1, 3}}));
  EXPECT_EQ(profile.SplitAt(one_pool, 0), std::nullopt);
  const GpuDemand pool_zero_only{.gpus = 3, .duration = 10, .pools = {0}};
  EXPECT_EQ(profile.EarliestStart(pool_zero_only), std::nullopt);
}

TEST(AvailabilityProfileTest, OverCommittedPoolsCountAsEmptyNotNegative) {
  AvailabilityProfile profile = TwoPools();
  profile.Take(0, 0, 1000, 5);  // pool 0 at -3
  EXPECT_EQ(profile.MinFree(0, 0, 10), -3);
  const GpuDemand spanning{.gpus = 1, .duration = 10, .pools = {0, 1}};
  EXPECT_EQ(profile.EarliestStart(spanning), 0);
  EXPECT_EQ(profile.SplitAt(spanning, 0), (std::vector<PoolTake>{{1, 1}}));
}

}  // namespace
}  // namespace fleetsim
