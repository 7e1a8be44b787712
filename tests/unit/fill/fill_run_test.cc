// A fill run worked by hand on two nodes and five pods under FGD (every step's arrived,
// allocated, fragmented and failed figures), then the arrival list (shuffle, resampling up to the
// target, the cut of a list above it) and determinism per seed.
#include "fleetsim/fill/fill_run.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace fleetsim {
namespace {

constexpr int kT4 = 0;
constexpr int kV100 = 1;

SharedNode Node(std::int64_t cpu, std::int64_t memory, int model, std::size_t gpus) {
  SharedNode node{.free = {.cpu_free_milli = cpu, .model = model, .gpu_count = gpus},
                  .cpu_capacity_milli = cpu,
                  .memory_free_mib = memory};
  std::fill_n(node.free.gpu_free.begin(), gpus, static_cast<std::int32_t>(kGpuMilli));
  return node;
}

FillPod Pod(std::string name, std::int64_t cpu, std::int64_t gpus, std::int64_t milli) {
  return {.name = std::move(name),
          .request = {.cpu_milli = cpu, .memory_mib = 1024, .gpus = gpus, .gpu_milli = milli}};
}

// Node 0: T4 x2, 8 cores; node 1: V100 x4, 16 cores. Typical tasks: half 500-milli shares, half
// whole GPUs, 1 core each. Pods in arrival order: a 500 share, a whole GPU, a 700 share, four
// whole GPUs, a 7-core CPU-only pod.
FillWorkload HandWorkload() {
  FillWorkload w;
  w.nodes = {Node(8000, 32768, kT4, 2), Node(16000, 65536, kV100, 4)};
  w.node_names = {"n0", "n1"};
  w.gpu_capacity_milli = 6000;
  w.typical = {{.shape = {.cpu_milli = 1000, .gpu_milli = 500, .gpus = 1}, .weight = 0.5},
               {.shape = {.cpu_milli = 1000, .gpu_milli = 1000, .gpus = 1}, .weight = 0.5}};
  w.pods = {Pod("p1", 1000, 1, 500), Pod("p2", 2000, 1, 1000), Pod("p3", 1000, 1, 700),
            Pod("p4", 2000, 4, 1000), Pod("p5", 7000, 0, 0)};
  return w;
}

TEST(FillRunTest, FgdFillWorkedByHand) {
  const FillWorkload w = HandWorkload();
  GpuSharePlacer fgd(GpuSharePolicy::kFgd, {0, 1}, Rng(1));
  const std::vector<std::size_t> arrivals = {0, 1, 2, 3, 4};
  const std::vector<FillStep> steps = PlaceArrivals(w, arrivals, fgd);
  ASSERT_EQ(steps.size(), 5U);
  // p1 (500 share): on either empty node the share leaves [500, 1000, ...]: the whole-GPU task
  // still fits with 500 too small, F = 0.5 x 500 = 250, score trunc(100 sigmoid(-0.25)) = 43 on
  // both; the tie goes to node 0 (rank 0).
  EXPECT_EQ(steps[0].arrived_milli, 500);
  EXPECT_EQ(steps[0].allocated_milli, 500);
  EXPECT_EQ(steps[0].idle_milli, 5500);
  EXPECT_DOUBLE_EQ(steps[0].fragmented_milli, 250);
  // p2 (whole GPU): node 0 [500, 1000] -> [500, 0]: the share task fits (nothing too small), the
  // whole task cannot run so the 500 idle count: F stays 250, dF = 0, score 50. Node 1 -> [0,
  // 1000, 1000, 1000]: F 0 -> 0, score 50. Tie: node 0.
  EXPECT_EQ(steps[1].arrived_milli, 1500);
  EXPECT_EQ(steps[1].allocated_milli, 1500);
  EXPECT_DOUBLE_EQ(steps[1].fragmented_milli, 250);
  // p3 (700 share): node 0 has no GPU with 700 free; node 1 is the only one and takes it on
  // GPU 0 -> [300, 1000, 1000, 1000]: 300 too small for both tasks, F = 300. Cluster: 550.
  EXPECT_EQ(steps[2].arrived_milli, 2200);
  EXPECT_EQ(steps[2].allocated_milli, 2200);
  EXPECT_EQ(steps[2].idle_milli, 3800);
  EXPECT_DOUBLE_EQ(steps[2].fragmented_milli, 550);
  EXPECT_EQ(steps[2].failed_pods, 0);
  // p4 (four whole GPUs): node 1 has three fully free GPUs, node 0 none: it fails, yet its
  // demand has arrived.
  EXPECT_EQ(steps[3].arrived_milli, 6200);
  EXPECT_EQ(steps[3].allocated_milli, 2200);
  EXPECT_EQ(steps[3].failed_pods, 1);
  EXPECT_EQ(steps[3].pod, 3U);
  EXPECT_FALSE(steps[3].placed);
  EXPECT_TRUE(steps[2].placed);
  // p5 (7 cores, CPU only): node 0 has 8 - 1 - 2 = 5 cores left, node 1 has 15: node 1, whose
  // 8 cores left still run both typical tasks, so F is unchanged.
  EXPECT_EQ(steps[4].arrived_milli, 6200);
  EXPECT_EQ(steps[4].allocated_milli, 2200);
  EXPECT_DOUBLE_EQ(steps[4].fragmented_milli, 550);
  EXPECT_EQ(steps[4].failed_pods, 1);
}

TEST(FillRunTest, ArrivalsAreTheShuffledListThenResampledCopiesUpToTheTarget) {
  const FillWorkload w = HandWorkload();  // 6200 milli of demand on 6000 of capacity
  // Target 2 x 6000 = 12000: all five pods (6200), then copies while they fit.
  const std::vector<std::size_t> arrivals =
      FillArrivals(w, {.policy = GpuSharePolicy::kFgd, .seed = 42, .target_share = 2.0});
  ASSERT_GT(arrivals.size(), 5U);
  const std::set<std::size_t> first(arrivals.begin(), arrivals.begin() + 5);
  EXPECT_EQ(first.size(), 5U);  // a permutation of the list
  std::int64_t demand = 0;
  for (const std::size_t i : arrivals) {
    demand += w.pods[i].request.GpuDemandMilli();
  }
  EXPECT_LE(demand, 12000);
  EXPECT_GT(demand, 12000 - 4000);  // stopped by a pick that would overshoot (at most 4000)
}

TEST(FillRunTest, AListAboveTheTargetIsCutAfterTheLastPodWithinIt) {
  const FillWorkload w = HandWorkload();
  // The whole shuffle (a target far above the list: nothing cut, copies after it).
  const std::vector<std::size_t> shuffled =
      FillArrivals(w, {.policy = GpuSharePolicy::kFgd, .seed = 42, .target_share = 10});
  const std::vector<std::size_t> cut =
      FillArrivals(w, {.policy = GpuSharePolicy::kFgd, .seed = 42, .target_share = 0.5});
  // A prefix of the same shuffle, within 3000 milli, and the next pod would pass it.
  ASSERT_LT(cut.size(), 5U);
  EXPECT_TRUE(std::equal(cut.begin(), cut.end(), shuffled.begin()));
  std::int64_t demand = 0;
  for (const std::size_t i : cut) {
    demand += w.pods[i].request.GpuDemandMilli();
  }
  EXPECT_LE(demand, 3000);
  EXPECT_GT(demand + w.pods[shuffled[cut.size()]].request.GpuDemandMilli(), 3000);
}

TEST(FillRunTest, TheSameSeedGivesTheSameRunAndAnotherSeedAnother) {
  const FillWorkload w = HandWorkload();
  const auto run = [&](std::uint64_t seed, GpuSharePolicy policy) {
    return RunFill(w, {.policy = policy, .seed = seed, .target_share = 3.0});
  };
  const auto same = [](const std::vector<FillStep>& a, const std::vector<FillStep>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
      return x.arrived_milli == y.arrived_milli && x.allocated_milli == y.allocated_milli &&
             x.fragmented_milli == y.fragmented_milli && x.failed_pods == y.failed_pods;
    });
  };
  for (const GpuSharePolicy policy : GpuSharePolicies()) {
    EXPECT_TRUE(same(run(42, policy), run(42, policy))) << GpuSharePolicyName(policy);
  }
  EXPECT_NE(FillArrivals(w, {.seed = 42, .target_share = 3.0}),
            FillArrivals(w, {.seed = 43, .target_share = 3.0}));
  const std::vector<std::uint32_t> rank = RandomTieRank(5, Rng(3));
  EXPECT_EQ(std::set<std::uint32_t>(rank.begin(), rank.end()).size(), 5U);
}

}  // namespace
}  // namespace fleetsim
