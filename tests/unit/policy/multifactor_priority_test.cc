// Slurm's multifactor priority on worked examples, each computed by hand here: age capping, job
// size both ways, QOS normalization, the weighted sum and its integer, usage decay, the classic
// fair-share example of SchedMD's classic_fair_share page, and Fair Tree ranks with its ties.
#include "policy/multifactor_priority.h"

#include <gtest/gtest.h>

#include <cmath>

namespace fleetsim {
namespace {

constexpr double kTolerance = 1e-9;
constexpr SimDuration kDay = 86'400'000;

TEST(MultifactorPriorityTest, AgeGrowsLinearlyToMaxAgeThenCaps) {
  EXPECT_NEAR(AgeFactor(3 * kDay + kDay / 2, 7 * kDay), 0.5, kTolerance);
  EXPECT_NEAR(AgeFactor(kDay, 7 * kDay), 1.0 / 7.0, kTolerance);
  EXPECT_EQ(AgeFactor(10 * kDay, 7 * kDay), 1.0);
  EXPECT_EQ(AgeFactor(0, 7 * kDay), 0.0);
}

TEST(MultifactorPriorityTest, JobSizeFavorsLargeOrSmall) {
  const JobSizeInput job{.job_gpus = 16, .min_nodes = 2, .cluster_gpus = 64, .cluster_nodes = 8};
  EXPECT_NEAR(JobSizeFactor(job, false), (2.0 / 8 + 16.0 / 64) / 2, kTolerance);  // 0.25
  EXPECT_NEAR(JobSizeFactor(job, true), (6.0 / 8 + 48.0 / 64) / 2, kTolerance);   // 0.75
  // No GPUs: the node term alone, as Slurm does for a job without CPUs.
  const JobSizeInput cpu_only{
      .job_gpus = 0, .min_nodes = 1, .cluster_gpus = 64, .cluster_nodes = 8};
  EXPECT_NEAR(JobSizeFactor(cpu_only, false), 1.0 / 8, kTolerance);
  EXPECT_NEAR(JobSizeFactor(cpu_only, true), 7.0 / 8, kTolerance);
}

TEST(MultifactorPriorityTest, QosIsPriorityOverTheLargest) {
  EXPECT_NEAR(QosFactor(250, 1000), 0.25, kTolerance);
  EXPECT_EQ(QosFactor(1000, 1000), 1.0);
}

TEST(MultifactorPriorityTest, WeightedSumAndSlurmsInteger) {
  const PriorityWeights weights{.age = 1000, .fairshare = 10000, .job_size = 1000, .qos = 2000};
  const PriorityFactors factors{.age = 0.5, .fairshare = 0.408479, .job_size = 0.25, .qos = 0.1};
  const double expected = 1000 * 0.5 + 10000 * 0.408479 + 1000 * 0.25 + 2000 * 0.1;  // 5034.79
  EXPECT_NEAR(WeightedPriority(weights, factors), expected, kTolerance);
  EXPECT_EQ(SlurmPriority(expected), 5034U);
  EXPECT_EQ(SlurmPriority(0.0), 1U);  // 0 is reserved for held jobs
  EXPECT_EQ(SlurmPriority(1e12), 4294967295U);
}

TEST(MultifactorPriorityTest, UsageDecaysPerSecondByTheCodesFactor) {
  const double half_life = 7 * 86400.0;
  const double d = 1 - 0.693 / half_life;
  EXPECT_NEAR(DecayFactor(half_life), d, 1e-15);
  // 4 GPUs for 600 s, then 300 s idle, then 2 GPUs for 300 s: decayed at every 300 s period.
  double usage = 0;
  usage = DecayUsage(usage, d, 300) + 4 * 300;
  usage = DecayUsage(usage, d, 300) + 4 * 300;
  usage = DecayUsage(usage, d, 300);
  usage = DecayUsage(usage, d, 300) + 2 * 300;
  const double by_hand = 1200 * std::pow(d, 900) + 1200 * std::pow(d, 600) + 600;
  EXPECT_NEAR(usage, by_hand, kTolerance);
  // After one half-life the usage has (nearly: 0.693 ~ ln 2) halved.
  EXPECT_NEAR(DecayUsage(1000, d, half_life), 1000 * std::pow(d, half_life), kTolerance);
  EXPECT_NEAR(DecayUsage(1000, d, half_life), 500, 0.1);
}

// SchedMD's classic_fair_share.shtml example: accounts A (40) and D (60); B (30) and C (10)
// under A, E (25) and F (35) under D; user 1 in B, users 2 and 3 in C (1 share each), user 4 in
// E, user 5 in F. Users 1, 2 and 4 used 0.2, 0.25 and 0.25 of the machine; the other 0.3 was
// used by an association with no shares, which changes no one's shares.
TEST(MultifactorPriorityTest, ClassicMatchesSchedMDsWorkedExample) {
  enum { kA, kD, kB, kC, kE, kF, kUser1, kUser2, kUser3, kUser4, kUser5, kOther };
  const std::vector<ShareNode> nodes = {
      {.parent = -1, .shares = 40, .usage = 0},  {.parent = -1, .shares = 60, .usage = 0},
      {.parent = kA, .shares = 30, .usage = 0},  {.parent = kA, .shares = 10, .usage = 0},
      {.parent = kD, .shares = 25, .usage = 0},  {.parent = kD, .shares = 35, .usage = 0},
      {.parent = kB, .shares = 1, .usage = 0.2}, {.parent = kC, .shares = 1, .usage = 0.25},
      {.parent = kC, .shares = 1, .usage = 0},   {.parent = kE, .shares = 1, .usage = 0.25},
      {.parent = kF, .shares = 1, .usage = 0},   {.parent = -1, .shares = 0, .usage = 0.3}};
  const std::vector<double> f = ClassicFairShare(nodes, 1.0);
  // Effective usage by the page's steps: B 0.3875, C 0.3, E 0.25, F 0.25 * 35 / 60.
  const double ue_f = 0.25 * 35.0 / 60.0;
  EXPECT_NEAR(f[kUser1], std::pow(2.0, -0.3875 / 0.3), kTolerance);
  EXPECT_NEAR(f[kUser2], std::pow(2.0, -(0.25 + (0.3 - 0.25) / 2) / 0.05), kTolerance);
  EXPECT_NEAR(f[kUser3], std::pow(2.0, -0.15 / 0.05), kTolerance);
  EXPECT_NEAR(f[kUser4], 0.5, kTolerance);
  EXPECT_NEAR(f[kUser5], std::pow(2.0, -ue_f / 0.35), kTolerance);
  // The page's printed values (six decimals).
  EXPECT_NEAR(f[kUser1], 0.408479, 1e-6);
  EXPECT_NEAR(f[kUser2], 0.022097, 1e-6);
  EXPECT_NEAR(f[kUser3], 0.125000, 1e-6);
  EXPECT_NEAR(f[kUser5], 0.749154, 1e-6);
  // Accounts have a factor too: A at the top level, UE = UA = 0.45, S = 0.4.
  EXPECT_NEAR(f[kA], std::pow(2.0, -0.45 / 0.4), kTolerance);
  EXPECT_EQ(f[kOther], 0.0);  // no shares
}

TEST(MultifactorPriorityTest, ClassicDampeningAndNoUsage) {
  const std::vector<ShareNode> flat = {{.parent = -1, .shares = 1, .usage = 3},
                                       {.parent = -1, .shares = 3, .usage = 1}};
  const std::vector<double> f = ClassicFairShare(flat, 2.0);
  EXPECT_NEAR(f[0], std::pow(2.0, -(0.75 / 0.25) / 2), kTolerance);
  EXPECT_NEAR(f[1], std::pow(2.0, -(0.25 / 0.75) / 2), kTolerance);
  const std::vector<ShareNode> idle = {{.parent = -1, .shares = 1, .usage = 0}};
  EXPECT_EQ(ClassicFairShare(idle, 1.0)[0], 1.0);
}

TEST(MultifactorPriorityTest, FairTreeRanksUsersDepthFirstByLevelFairshare) {
  // acct1: userA (10), userB (30); acct2: userC (20), userD (0). Level FS: acct1 0.5 / (40/60)
  // = 0.75, acct2 0.5 / (20/60) = 1.5; userD infinity, userC 0.5; userA 2, userB 0.667.
  enum { kAcct1, kAcct2, kUserA, kUserB, kUserC, kUserD };
  const std::vector<ShareNode> nodes = {
      {.parent = -1, .shares = 1, .usage = 0},      {.parent = -1, .shares = 1, .usage = 0},
      {.parent = kAcct1, .shares = 1, .usage = 10}, {.parent = kAcct1, .shares = 1, .usage = 30},
      {.parent = kAcct2, .shares = 1, .usage = 20}, {.parent = kAcct2, .shares = 1, .usage = 0}};
  const std::vector<double> f = FairTreeFairShare(nodes);
  EXPECT_EQ(f[kUserD], 4.0 / 4);
  EXPECT_EQ(f[kUserC], 3.0 / 4);
  EXPECT_EQ(f[kUserA], 2.0 / 4);
  EXPECT_EQ(f[kUserB], 1.0 / 4);
  EXPECT_EQ(f[kAcct2], 1.0);  // an account takes its best user's factor
  EXPECT_EQ(f[kAcct1], 0.5);
}

TEST(MultifactorPriorityTest, FairTreeTiedUsersShareARank) {
  const std::vector<ShareNode> nodes = {{.parent = -1, .shares = 1, .usage = 0},
                                        {.parent = -1, .shares = 1, .usage = 0},
                                        {.parent = -1, .shares = 1, .usage = 5}};
  const std::vector<double> f = FairTreeFairShare(nodes);
  EXPECT_EQ(f[0], 1.0);  // both infinite
  EXPECT_EQ(f[1], 1.0);
  EXPECT_EQ(f[2], 1.0 / 3);  // rank counts the users before it
}

TEST(MultifactorPriorityTest, FairTreeUserTiedWithAccountSharesItsFirstUsersRank) {
  // X (user, usage 1) and Y (account: y1 usage 1, y2 usage 0) both have LF 0.5 / 0.5 = 1.
  enum { kX, kY, kY1, kY2 };
  const std::vector<ShareNode> nodes = {{.parent = -1, .shares = 1, .usage = 1},
                                        {.parent = -1, .shares = 1, .usage = 0},
                                        {.parent = kY, .shares = 1, .usage = 1},
                                        {.parent = kY, .shares = 1, .usage = 0}};
  const std::vector<double> f = FairTreeFairShare(nodes);
  EXPECT_EQ(f[kX], 1.0);
  EXPECT_EQ(f[kY2], 1.0);  // tied with X through its account
  EXPECT_EQ(f[kY1], 1.0 / 3);
}

TEST(MultifactorPriorityTest, FairTreeMergesTiedAccounts) {
  // P {p1: 3, p2: 1} and Q {q1: 2, q2: 2} tie at LF 1; their users are ranked together:
  // p2 (LF 2), q1 and q2 (1, tied), p1 (0.667).
  enum { kP, kQ, kP1, kP2, kQ1, kQ2 };
  const std::vector<ShareNode> nodes = {
      {.parent = -1, .shares = 1, .usage = 0}, {.parent = -1, .shares = 1, .usage = 0},
      {.parent = kP, .shares = 1, .usage = 3}, {.parent = kP, .shares = 1, .usage = 1},
      {.parent = kQ, .shares = 1, .usage = 2}, {.parent = kQ, .shares = 1, .usage = 2}};
  const std::vector<double> f = FairTreeFairShare(nodes);
  EXPECT_EQ(f[kP2], 1.0);
  EXPECT_EQ(f[kQ1], 0.75);
  EXPECT_EQ(f[kQ2], 0.75);
  EXPECT_EQ(f[kP1], 0.25);
}

TEST(MultifactorPriorityTest, SubtreeUsageSumsDescendants) {
  const std::vector<ShareNode> nodes = {{.parent = 1, .shares = 1, .usage = 2},
                                        {.parent = -1, .shares = 1, .usage = 1},
                                        {.parent = 0, .shares = 1, .usage = 4}};
  EXPECT_EQ(SubtreeUsage(nodes), (std::vector<double>{6, 7, 4}));
}

}  // namespace
}  // namespace fleetsim
