// Conversions between scenario seconds and integer simulated time.
#include "fleetsim/core/time.h"

#include <gtest/gtest.h>

namespace fleetsim {
namespace {

TEST(TimeTest, SecondsRoundToNearestMillisecond) {
  EXPECT_EQ(SecondsToTime(0), 0);
  EXPECT_EQ(SecondsToTime(1.5), 1500);
  EXPECT_EQ(SecondsToTime(0.0004), 0);
  EXPECT_EQ(SecondsToTime(0.0006), 1);
  EXPECT_EQ(SecondsToTime(kMaxScenarioSeconds), 3'155'760'000'000);
  EXPECT_DOUBLE_EQ(TimeToSeconds(2500), 2.5);
}

TEST(TimeTest, FormatsForLogs) {
  EXPECT_EQ(FormatTime(0), "0d 00:00:00.000");
  EXPECT_EQ(FormatTime(93'784'005), "1d 02:03:04.005");
  EXPECT_EQ(FormatTime(-1500), "-0d 00:00:01.500");
  EXPECT_EQ(FormatTime(kTimeNever), "never");
}

}  // namespace
}  // namespace fleetsim
