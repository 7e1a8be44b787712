// The generator, named streams and distributions: reproducibility, stream independence, and
// moments within statistical bounds (tolerances are several standard errors wide; the seeds are
// fixed, so these tests are deterministic).
#include "fleetsim/core/random.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <vector>

namespace fleetsim {
namespace {

constexpr int kDraws = 200'000;

struct Moments {
  double mean = 0;
  double variance = 0;
};

template <typename Draw>
Moments Measure(Draw draw) {
  double sum = 0;
  double sum_sq = 0;
  for (int i = 0; i < kDraws; ++i) {
    const double x = draw();
    sum += x;
    sum_sq += x * x;
  }
  const double mean = sum / kDraws;
  return {mean, sum_sq / kDraws - mean * mean};
}

TEST(RngTest, SameSeedSameSequence) {
  Rng a(7);
  Rng b(7);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(a.NextU64(), b.NextU64());
  }
}

TEST(RngTest, KnownFirstValuesPinTheAlgorithm) {
  // xoshiro256** seeded by SplitMix64(0): if these change, every published result changes.
  Rng rng(0);
  EXPECT_EQ(rng.NextU64(), 0x99ec5f36cb75f2b4ULL);
  EXPECT_EQ(rng.NextU64(), 0xbf6e1f784956452aULL);
}

TEST(RandomStreamsTest, StreamsDependOnSeedRunAndName) {
  const RandomStreams base(1, 0);
  std::set<std::uint64_t> firsts;
  firsts.insert(base.Stream("workload.generator").NextU64());
  firsts.insert(base.Stream("spot.pool-a").NextU64());
  firsts.insert(RandomStreams(2, 0).Stream("workload.generator").NextU64());
  firsts.insert(RandomStreams(1, 1).Stream("workload.generator").NextU64());
  EXPECT_EQ(firsts.size(), 4U);
  EXPECT_EQ(base.Stream("x").NextU64(), RandomStreams(1, 0).Stream("x").NextU64());
}

TEST(RandomStreamsTest, AddingAStreamDoesNotShiftAnother) {
  const RandomStreams streams(99, 3);
  Rng alone = streams.Stream("a");
  const std::uint64_t expected = alone.NextU64();
  Rng other = streams.Stream("b");
  other.NextU64();
  Rng again = streams.Stream("a");
  EXPECT_EQ(again.NextU64(), expected);
}

TEST(RandomStreamsTest, StreamsAreUncorrelated) {
  const RandomStreams streams(5, 0);
  Rng a = streams.Stream("a");
  Rng b = streams.Stream("b");
  double sum_ab = 0;
  for (int i = 0; i < kDraws; ++i) {
    sum_ab += (a.NextDouble() - 0.5) * (b.NextDouble() - 0.5);
  }
  // Correlation of independent U(0,1): 0 with standard error 1/sqrt(n).
  const double correlation = (sum_ab / kDraws) / (1.0 / 12.0);
  EXPECT_LT(std::fabs(correlation), 5.0 / std::sqrt(kDraws));
}

TEST(DistributionsTest, UniformRealMoments) {
  Rng rng(11);
  const Moments m = Measure([&] { return UniformReal(rng, 2.0, 6.0); });
  EXPECT_NEAR(m.mean, 4.0, 0.02);
  EXPECT_NEAR(m.variance, 16.0 / 12.0, 0.02);
}

TEST(DistributionsTest, UniformIntCoversRangeEvenly) {
  Rng rng(12);
  std::vector<int> counts(6, 0);
  for (int i = 0; i < 60'000; ++i) {
    const std::int64_t x = UniformInt(rng, -2, 3);
    ASSERT_GE(x, -2);
    ASSERT_LE(x, 3);
    ++counts[static_cast<std::size_t>(x + 2)];
  }
  for (const int c : counts) {
    EXPECT_NEAR(c, 10'000, 500);  // 5 standard errors
  }
}

TEST(DistributionsTest, ExponentialMoments) {
  Rng rng(13);
  const Moments m = Measure([&] { return Exponential(rng, 3.0); });
  EXPECT_NEAR(m.mean, 3.0, 0.04);
  EXPECT_NEAR(m.variance, 9.0, 0.4);
}

TEST(DistributionsTest, NormalMoments) {
  Rng rng(14);
  const Moments m = Measure([&] { return Normal(rng, -1.0, 2.0); });
  EXPECT_NEAR(m.mean, -1.0, 0.03);
  EXPECT_NEAR(m.variance, 4.0, 0.08);
}

TEST(DistributionsTest, LogNormalMedianAndMean) {
  Rng rng(15);
  std::vector<double> xs;
  for (int i = 0; i < kDraws; ++i) {
    xs.push_back(LogNormal(rng, std::log(100.0), 0.5));
  }
  std::nth_element(xs.begin(), xs.begin() + kDraws / 2, xs.end());
  EXPECT_NEAR(xs[kDraws / 2], 100.0, 1.0);
  double sum = 0;
  for (const double x : xs) {
    sum += x;
  }
  EXPECT_NEAR(sum / kDraws, 100.0 * std::exp(0.125), 0.5);
}

TEST(DistributionsTest, PoissonMomentsSmallAndLargeLambda) {
  for (const double lambda : {0.5, 4.0, 9.99, 10.0, 37.5, 1000.0}) {
    Rng rng(16);
    const Moments m = Measure([&] { return static_cast<double>(Poisson(rng, lambda)); });
    const double tolerance = 5 * std::sqrt(lambda / kDraws);
    EXPECT_NEAR(m.mean, lambda, tolerance) << "lambda " << lambda;
    EXPECT_NEAR(m.variance, lambda, 0.03 * lambda + 0.01) << "lambda " << lambda;
  }
  Rng rng(17);
  EXPECT_EQ(Poisson(rng, 0.0), 0);
}

TEST(DistributionsTest, WeightedChoiceFrequenciesAndZeroWeights) {
  Rng rng(18);
  const WeightedChoice choice({1.0, 0.0, 3.0});
  std::vector<int> counts(3, 0);
  for (int i = 0; i < 40'000; ++i) {
    ++counts[choice(rng)];
  }
  EXPECT_EQ(counts[1], 0);
  EXPECT_NEAR(counts[0], 10'000, 450);
  EXPECT_NEAR(counts[2], 30'000, 450);
}

}  // namespace
}  // namespace fleetsim
