// KAI's fair-share division and reclaim choice on worked examples computed by hand: quotas
// first, the rest by over-quota priority level and weight, limits, a two-level tree, quotas
// that exceed the fleet; reclaim victims in KAI's order, never below the victim's fair share,
// and the reclaimerUtilizationMultiplier.
#include "policy/kai_fair_share.h"

#include <gtest/gtest.h>

namespace fleetsim {
namespace {

constexpr double kTolerance = 1e-9;

KaiQueue Leaf(double quota, double requested, double weight = 1) {
  return {.parent = -1,
          .quota = quota,
          .over_quota_weight = weight,
          .limit = kKaiUnlimited,
          .priority = 0,
          .requested = requested};
}

void ExpectShares(const std::vector<double>& actual, const std::vector<double>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) {
    EXPECT_NEAR(actual[i], expected[i], kTolerance) << "queue " << i;
  }
}

TEST(KaiFairShareTest, QuotaFirstThenTheRestByWeightUpToTheRequest) {
  // 10 GPUs; a: quota 4 wants 6, b: quota 2 wants 10. Quotas 4 + 2, then 4 left, 2 each:
  // a is then full (6), b has 4.
  ExpectShares(KaiFairShares({Leaf(4, 6), Leaf(2, 10)}, 10), {6, 4});
}

TEST(KaiFairShareTest, OverQuotaInProportionToWeight) {
  ExpectShares(KaiFairShares({Leaf(0, 100, 1), Leaf(0, 100, 3)}, 12), {3, 9});
  // b wants only 6: it is capped in the first round, a gets the 3 left over in the second.
  ExpectShares(KaiFairShares({Leaf(0, 100, 1), Leaf(0, 6, 3)}, 12), {6, 6});
  // Weight 0: nothing beyond its quota.
  ExpectShares(KaiFairShares({Leaf(2, 100, 0), Leaf(0, 100, 1)}, 12), {2, 10});
}

TEST(KaiFairShareTest, HigherPriorityLevelsAreServedFirst) {
  KaiQueue high = Leaf(0, 8);
  high.priority = 1;
  ExpectShares(KaiFairShares({Leaf(0, 8), high}, 10), {2, 8});
}

TEST(KaiFairShareTest, LimitCapsTheShare) {
  KaiQueue limited = Leaf(0, 10);
  limited.limit = 3;
  ExpectShares(KaiFairShares({limited, Leaf(0, 10)}, 10), {3, 7});
}

TEST(KaiFairShareTest, UnlimitedQuotaDeservesItsRequest) {
  ExpectShares(KaiFairShares({Leaf(kKaiUnlimited, 5), Leaf(0, 10)}, 8), {5, 3});
}

TEST(KaiFairShareTest, QuotasBeyondTheFleetAreScaledAlike) {
  ExpectShares(KaiFairShares({Leaf(6, 6), Leaf(12, 12)}, 6), {2, 4});
}

TEST(KaiFairShareTest, ParentsShareIsDividedAmongItsChildren) {
  // 12 GPUs. Top level: P (quota 6; children want 20) and Q (quota 2, wants 10): 6 + 2, then 4
  // by weight 1:1, so P 8 and Q 4. P's 8: c1 quota 4, c2 quota 0, then 4 left, 2 each.
  const std::vector<KaiQueue> queues = {{.parent = -1,
                                         .quota = 6,
                                         .over_quota_weight = 1,
                                         .limit = kKaiUnlimited,
                                         .priority = 0,
                                         .requested = 0},
                                        {.parent = 0,
                                         .quota = 4,
                                         .over_quota_weight = 1,
                                         .limit = kKaiUnlimited,
                                         .priority = 0,
                                         .requested = 10},
                                        {.parent = 0,
                                         .quota = 0,
                                         .over_quota_weight = 1,
                                         .limit = kKaiUnlimited,
                                         .priority = 0,
                                         .requested = 10},
                                        Leaf(2, 10)};
  ExpectShares(KaiSubtreeRequests(queues), {20, 10, 10, 10});
  ExpectShares(KaiFairShares(queues, 12), {8, 6, 2, 4});
}

TEST(KaiFairShareTest, ReclaimTakesFromTheSaturatedQueueLowestPriorityNewestFirst) {
  // a and b deserve 4 each of 8; b holds all 8, a needs 4.
  const std::vector<KaiQueue> queues = {Leaf(0, 4), Leaf(0, 8)};
  const std::vector<ReclaimCandidate> candidates = {
      {.job = 1, .queue = 1, .gpus = 2, .priority = 1, .start = 0},
      {.job = 2, .queue = 1, .gpus = 2, .priority = 1, .start = 100'000},
      {.job = 3, .queue = 1, .gpus = 4, .priority = 5, .start = 50'000}};
  const std::vector<JobIndex> victims = ChooseReclaimVictims(
      queues, {4, 4}, {0, 8}, candidates, {.queue = 0, .gpus = 4, .utilization_multiplier = 1});
  EXPECT_EQ(victims, (std::vector<JobIndex>{2, 1}));
}

TEST(KaiFairShareTest, ReclaimNeverTakesAQueueBelowItsFairShare) {
  // b holds 5 in one job with a fair share of 4: preempting it would leave b at 0.
  const std::vector<KaiQueue> queues = {Leaf(0, 4), Leaf(0, 5)};
  const std::vector<ReclaimCandidate> candidates = {
      {.job = 7, .queue = 1, .gpus = 5, .priority = 1, .start = 0}};
  EXPECT_TRUE(ChooseReclaimVictims(queues, {4, 4}, {0, 5}, candidates,
                                   {.queue = 0, .gpus = 4, .utilization_multiplier = 1})
                  .empty());
  // Nor from its own queue.
  EXPECT_TRUE(ChooseReclaimVictims(queues, {4, 4}, {0, 5}, candidates,
                                   {.queue = 1, .gpus = 1, .utilization_multiplier = 1})
                  .empty());
}

TEST(KaiFairShareTest, ReclaimerMultiplierMakesReclaimConservative) {
  // a: fair share 2, needs 2 (saturation 1 after); b: fair share 6, holds 8 (1 after losing 2).
  const std::vector<KaiQueue> queues = {Leaf(0, 2), Leaf(0, 8)};
  const std::vector<ReclaimCandidate> candidates = {
      {.job = 4, .queue = 1, .gpus = 2, .priority = 1, .start = 0}};
  EXPECT_EQ(ChooseReclaimVictims(queues, {2, 6}, {0, 8}, candidates,
                                 {.queue = 0, .gpus = 2, .utilization_multiplier = 1}),
            (std::vector<JobIndex>{4}));
  EXPECT_TRUE(ChooseReclaimVictims(queues, {2, 6}, {0, 8}, candidates,
                                   {.queue = 0, .gpus = 2, .utilization_multiplier = 1.5})
                  .empty());
}

TEST(KaiFairShareTest, QuotaReclaimLetsAQueueWithinQuotaTakeFromOneOverIts) {
  // a has quota 4 but a fair share of 2 (say, shares were computed before it asked); b is over
  // its quota of 2. Fair-share reclaim fails (a would be at 2x its share), quota reclaim holds.
  const std::vector<KaiQueue> queues = {Leaf(4, 4), Leaf(2, 8)};
  const std::vector<ReclaimCandidate> candidates = {
      {.job = 9, .queue = 1, .gpus = 4, .priority = 1, .start = 0}};
  EXPECT_EQ(ChooseReclaimVictims(queues, {2, 6}, {0, 8}, candidates,
                                 {.queue = 0, .gpus = 4, .utilization_multiplier = 1}),
            (std::vector<JobIndex>{9}));
}

}  // namespace
}  // namespace fleetsim
