// GoMathRand against numbers Go 1.19's math/rand gives (rand.New(rand.NewSource(seed)), and the
// global source after rand.Seed): the same values in the same order, method by method, for
// seeds that exercise the seed folding (0, negative, above 2^31).
#include "fill/go_math_rand.h"

#include <gtest/gtest.h>

#include <numeric>

namespace fleetsim {
namespace {

struct GoDraws {
  std::int64_t seed;
  std::int64_t int63_a, int63_b;
  std::int32_t int31;
  std::int64_t intn_1000, intn_2_20, intn_7;
  std::vector<std::int64_t> perm10;
  std::vector<int> shuffled10;
  std::uint32_t uint32;
};

// Printed by a Go program running the same calls in the same order.
const std::vector<GoDraws>& Expected() {
  static const std::vector<GoDraws> expected = {
      {42,
       3440579354231278675,
       608747136543856411,
       1297281668,
       750,
       776159,
       0,
       {1, 0, 6, 9, 7, 8, 2, 4, 5, 3},
       {2, 3, 5, 4, 1, 0, 8, 9, 6, 7},
       180293723},
      {0,
       8717895732742165505,
       2259404117704393152,
       1408655353,
       506,
       858363,
       1,
       {3, 1, 0, 4, 7, 5, 9, 6, 2, 8},
       {1, 3, 8, 4, 9, 2, 5, 6, 0, 7},
       2976713172},
      {-7,
       747107023976529931,
       7084732931963018726,
       1628817490,
       856,
       1034171,
       1,
       {4, 6, 8, 5, 9, 1, 2, 3, 0, 7},
       {4, 7, 2, 5, 9, 0, 6, 8, 1, 3},
       1220354886},
      {std::int64_t{1} << 40,
       5470237361722394362,
       6322525149314491254,
       274149585,
       73,
       423341,
       1,
       {1, 5, 7, 3, 4, 6, 8, 9, 2, 0},
       {3, 8, 0, 5, 1, 2, 4, 6, 7, 9},
       95244692},
  };
  return expected;
}

TEST(GoMathRandTest, DrawsWhatGoDraws) {
  for (const GoDraws& want : Expected()) {
    SCOPED_TRACE(want.seed);
    GoMathRand r(want.seed);
    EXPECT_EQ(r.Int63(), want.int63_a);
    EXPECT_EQ(r.Int63(), want.int63_b);
    EXPECT_EQ(r.Int31(), want.int31);
    EXPECT_EQ(r.Intn(1000), want.intn_1000);
    EXPECT_EQ(r.Intn(1 << 20), want.intn_2_20);
    EXPECT_EQ(r.Intn(7), want.intn_7);
    EXPECT_EQ(r.Perm(10), want.perm10);
    std::vector<int> items(10);
    std::iota(items.begin(), items.end(), 0);
    r.Shuffle(items);
    EXPECT_EQ(items, want.shuffled10);
    EXPECT_EQ(r.Uint32(), want.uint32);
  }
}

TEST(GoMathRandTest, ALongShuffleAfterSeedingAsTheArtifactDoes) {
  // rand.Seed(42); rand.Int(); rand.Shuffle(9000, ...); rand.Intn(9000).
  GoMathRand r(42);
  r.Int();
  std::vector<int> items(9000);
  std::iota(items.begin(), items.end(), 0);
  r.Shuffle(items);
  EXPECT_EQ(items[0], 7120);
  EXPECT_EQ(items[1], 21);
  EXPECT_EQ(items[8999], 594);
  EXPECT_EQ(r.Intn(9000), 7718);
}

}  // namespace
}  // namespace fleetsim
