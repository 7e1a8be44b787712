// The six GPU-sharing placement policies (Weng et al., ATC'23) on hand-worked nodes: feasibility,
// each score with its arithmetic in the comments, the GPU each picks for a share, ties by rank,
// and that FGD's cached scores follow the cluster as it changes.
#include "fleetsim/fleet/gpu_share_placement.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace fleetsim {
namespace {

constexpr int kT4 = 0;
constexpr int kV100 = 1;
constexpr GpuModelMask kT4Only = 1U << kT4;

SharedNode Node(std::int64_t cpu_free, int model, std::vector<std::int32_t> gpu_free,
                std::int64_t memory_free = 1'000'000, std::uint8_t kinds = 0) {
  SharedNode node{.free = {.cpu_free_milli = cpu_free, .model = model, .gpu_count = gpu_free.size()},
                  .cpu_capacity_milli = cpu_free,
                  .memory_free_mib = memory_free,
                  .pod_kinds = kinds};
  std::copy(gpu_free.begin(), gpu_free.end(), node.free.gpu_free.begin());
  return node;
}

SharePod Share(std::int64_t cpu, std::int64_t milli) {
  return {.cpu_milli = cpu, .memory_mib = 0, .gpus = 1, .gpu_milli = milli};
}
SharePod Whole(std::int64_t cpu, std::int64_t gpus) {
  return {.cpu_milli = cpu, .memory_mib = 0, .gpus = gpus, .gpu_milli = kGpuMilli};
}
SharePod CpuOnly(std::int64_t cpu) { return {.cpu_milli = cpu}; }

// The scale of the openb cluster: 128 cores and 8 GPUs at most per node.
constexpr ClusterScale kOpenbScale{.max_node_cpu_milli = 128000, .max_node_gpu_milli = 8000};

TEST(GpuSharePlacementTest, APodFitsWhereCpuMemoryModelAndEnoughGpusWithEnoughShareAre) {
  const SharedNode node = Node(8000, kV100, {1000, 600, 200}, 4096);
  EXPECT_TRUE(Fits(node, Share(8000, 600)));
  EXPECT_FALSE(Fits(node, Share(8001, 600)));  // CPU
  SharePod hungry = Share(1000, 100);
  hungry.memory_mib = 4097;
  EXPECT_FALSE(Fits(node, hungry));              // memory
  EXPECT_TRUE(Fits(node, Share(1000, 700)));  // GPU 0 holds it
  EXPECT_FALSE(Fits(Node(8000, kV100, {600, 200}), Share(1000, 700)));
  EXPECT_TRUE(Fits(node, Whole(1000, 1)));
  EXPECT_FALSE(Fits(node, Whole(1000, 2)));      // one fully free GPU
  SharePod t4 = Share(1000, 100);
  t4.models = kT4Only;
  EXPECT_FALSE(Fits(node, t4));                  // model
  EXPECT_TRUE(Fits(node, CpuOnly(8000)));
  EXPECT_TRUE(Fits(Node(8000, -1, {}), CpuOnly(100)));
  EXPECT_FALSE(Fits(Node(8000, -1, {}), Share(100, 100)));
}

TEST(GpuSharePlacementTest, BestFitGpuIsTheLeastFreeGpuThatHoldsTheShare) {
  const SharedNode node = Node(8000, kV100, {1000, 600, 200, 600});
  EXPECT_EQ(BestFitGpu(node.free, 500), 1);  // 600 beats 1000; the lower of the two 600s
  EXPECT_EQ(BestFitGpu(node.free, 200), 2);
  EXPECT_EQ(BestFitGpu(node.free, 700), 0);
  EXPECT_EQ(BestFitGpu(node.free, 1000), 0);
}

TEST(GpuSharePlacementTest, DotProductFavoursNodesWithLittleFreeInTheAskedDimensions) {
  // Free (64000/128000, 4000/8000) = (0.5, 0.5); asked (12800/128000, 1000/8000) = (0.1, 0.125).
  // dot / 2 = (0.05 + 0.0625) / 2 = 0.05625; trunc(100 x 0.94375) = 94.
  const SharedNode node = Node(64000, kV100, {1000, 1000, 1000, 1000});
  EXPECT_EQ(DotProductScore(node, Whole(12800, 1), kOpenbScale), 94);
  // A CPU-only pod: only the CPU term, 0.5 x 0.1 / 2 = 0.025 -> 97.
  EXPECT_EQ(DotProductScore(node, CpuOnly(12800), kOpenbScale), 97);
}

TEST(GpuSharePlacementTest, BestFitScoresTheLeftoverWeightedEquallyOverCpuAndGpu) {
  // Left: (64000 - 12800) / 128000 = 0.4 and (4000 - 1000) / 8000 = 0.375;
  // 0.5 x 0.4 + 0.5 x 0.375 = 0.3875; trunc(100 x 0.6125) = 61.
  const SharedNode node = Node(64000, kV100, {1000, 1000, 1000, 1000});
  EXPECT_EQ(BestFitScore(node, Whole(12800, 1), kOpenbScale), 61);
}

TEST(GpuSharePlacementTest, GpuClusteringPrefersNodesHoldingOnlyPodsOfTheSameKind) {
  // Idle 4000 of 8000: base = floor(25 x 4000 / 8000) = 12.
  const std::vector<std::int32_t> half = {1000, 1000, 1000, 1000};
  EXPECT_EQ(GpuClusteringScore(Node(8000, kV100, half), Share(100, 500), kOpenbScale), 37);
  EXPECT_EQ(GpuClusteringScore(Node(8000, kV100, half, 1'000'000, kShareKind), Share(100, 500),
                               kOpenbScale),
            87);
  EXPECT_EQ(GpuClusteringScore(Node(8000, kV100, half, 1'000'000, kShareKind | kOneGpuKind),
                               Share(100, 500), kOpenbScale),
            62);
  EXPECT_EQ(GpuClusteringScore(Node(8000, kV100, half, 1'000'000, kOneGpuKind), Share(100, 500),
                               kOpenbScale),
            12);
  EXPECT_EQ(GpuClusteringScore(Node(8000, kV100, half), CpuOnly(100), kOpenbScale), 0);
  EXPECT_EQ(PodKindOf(Whole(100, 8)), kEightGpuKind);
  EXPECT_EQ(PodKindOf(Whole(100, 3)), kOtherGpuKind);
}

TEST(GpuSharePlacementTest, GpuPackingPrefersUsedGpusThenUsedNodesThenSmallIdleNodes) {
  const SharedNode used = Node(8000, kV100, {1000, 1000, 600, 200});
  // A share of 500: ascending free 200 (too small), 600 fits and is not fully free; case C:
  // 100 - floor(floor(100 x 600 / 1000) / 10) = 100 - 6 = 94.
  EXPECT_EQ(GpuPackingScore(used, Share(100, 500)), 94);
  // One whole GPU takes one fully free GPU on a used node: max(50 - 1, 33) = 49; two: 48.
  EXPECT_EQ(GpuPackingScore(used, Whole(100, 1)), 49);
  EXPECT_EQ(GpuPackingScore(used, Whole(100, 2)), 48);
  // An untouched node: 33 - its GPU count (fewer GPUs first).
  EXPECT_EQ(GpuPackingScore(Node(8000, kT4, {1000, 1000}), Share(100, 500)), 31);
  EXPECT_EQ(GpuPackingScore(Node(8000, kV100, {1000, 1000, 1000, 1000}), Share(100, 500)), 29);
  EXPECT_EQ(GpuPackingScore(used, CpuOnly(100)), 0);
}

// Typical tasks: half 500-milli shares, half whole GPUs (CPU ample).
TypicalTasks HalfSharesHalfWhole() {
  return {{.shape = {.cpu_milli = 1000, .gpu_milli = 500, .gpus = 1}, .weight = 0.5},
          {.shape = {.cpu_milli = 1000, .gpu_milli = 1000, .gpus = 1}, .weight = 0.5}};
}

TEST(GpuSharePlacementTest, FgdTakesTheGpuThatGrowsExpectedFragmentationLeast) {
  const TypicalTasks typical = HalfSharesHalfWhole();
  const auto fragmentation = [&](const NodeFreeState& s) { return NodeFragmentation(s, typical); };
  // Node B, free [600, 1000]: the 500 share fits (nothing too small); the whole GPU fits with the
  // 600 too small: F = 0.5 x 600 = 300. A 500 share on GPU 0 leaves [100, 1000]: F = 0.5 x 100 +
  // 0.5 x 100 = 100, dF = -200, trunc(100 sigmoid(0.2)) = 54. On GPU 1 it leaves [600, 500]:
  // no whole GPU, so all 1100 idle count for it: F = 550, dF = +250, trunc(100 sigmoid(-0.25))
  // = 43. FGD takes GPU 0 with 54.
  const FgdChoice b = FgdScore(Node(8000, kV100, {600, 1000}), Share(1000, 500), fragmentation);
  EXPECT_EQ(b.score, 54);
  EXPECT_EQ(b.share_gpu, 0);
  // Node A, free [1000, 1000]: F = 0; either GPU leaves [500, 1000]: F = 0.5 x 500 = 250, 43.
  const FgdChoice a = FgdScore(Node(8000, kV100, {1000, 1000}), Share(1000, 500), fragmentation);
  EXPECT_EQ(a.score, 43);
  EXPECT_EQ(a.share_gpu, 0);  // the lowest GPU among equal scores
  // A whole GPU on A leaves [0, 1000]: nothing fragmented, dF = 0: trunc(100 x 0.5) = 50.
  EXPECT_EQ(FgdScore(Node(8000, kV100, {1000, 1000}), Whole(1000, 1), fragmentation).score, 50);
}

TEST(GpuSharePlacementTest, ThePlacerTakesTheBestScoreAndBreaksTiesByRank) {
  // Node 0 = A [1000, 1000], node 1 = B [600, 1000] (see above): FGD prefers B whatever the rank.
  SharedCluster cluster({Node(8000, kV100, {1000, 1000}), Node(8000, kV100, {600, 1000})},
                        HalfSharesHalfWhole());
  GpuSharePlacer fgd(GpuSharePolicy::kFgd, {0, 1}, Rng(1));
  const auto choice = fgd.Choose(cluster, Share(1000, 500));
  ASSERT_TRUE(choice.has_value());
  EXPECT_EQ(choice->node, 1U);
  EXPECT_EQ(choice->share_gpu, 0);
  EXPECT_EQ(choice->gpus, 1U);
  // Under GPU clustering a CPU-only pod scores 0 everywhere: the tie goes to the lower rank.
  GpuSharePlacer clustering(GpuSharePolicy::kGpuClustering, {1, 0}, Rng(1));
  EXPECT_EQ(clustering.Choose(cluster, CpuOnly(100))->node, 1U);
  GpuSharePlacer clustering_other_rank(GpuSharePolicy::kGpuClustering, {0, 1}, Rng(1));
  EXPECT_EQ(clustering_other_rank.Choose(cluster, CpuOnly(100))->node, 0U);
  // Nothing fits: no choice.
  EXPECT_FALSE(fgd.Choose(cluster, Whole(1000, 3)).has_value());
}

TEST(GpuSharePlacementTest, FgdScoresFollowTheClusterAsItChanges) {
  SharedCluster cluster({Node(8000, kV100, {1000, 1000}), Node(8000, kV100, {1000, 1000})},
                        HalfSharesHalfWhole());
  GpuSharePlacer fgd(GpuSharePolicy::kFgd, {0, 1}, Rng(1));
  // Both empty: 43 each (cached now), node 0 by rank.
  auto first = fgd.Choose(cluster, Share(1000, 500));
  ASSERT_EQ(first->node, 0U);
  // The share goes to node 1 instead, GPU 1: node 1 is [1000, 500].
  cluster.Place(1, Share(1000, 500), 1);
  EXPECT_EQ(cluster.allocated_milli(), 500);
  EXPECT_EQ(cluster.version(1), 1U);
  // Another 500 share on node 1's GPU 1 leaves [1000, 0] (F 250 -> 0, score
  // trunc(100 sigmoid(0.25)) = 56), beating node 0's 43. A stale cache would still say 43 for
  // node 1, and the tie would go to node 0.
  auto second = fgd.Choose(cluster, Share(1000, 500));
  EXPECT_EQ(second->node, 1U);
  EXPECT_EQ(second->share_gpu, 1);
}

TEST(GpuSharePlacementTest, RandomChoosesAmongFittingNodesAndGpusOnly) {
  SharedCluster cluster({Node(8000, kV100, {100, 100}), Node(8000, kV100, {1000, 300}),
                         Node(8000, kV100, {300, 1000})});
  GpuSharePlacer random(GpuSharePolicy::kRandom, {0, 1, 2}, Rng(7));
  std::vector<int> seen(3, 0);
  for (int i = 0; i < 200; ++i) {
    const auto choice = random.Choose(cluster, Share(100, 500));
    ASSERT_TRUE(choice.has_value());
    ++seen[choice->node];
    EXPECT_EQ(cluster.nodes()[choice->node].free.gpu_free[static_cast<std::size_t>(
                  choice->share_gpu)],
              1000);
  }
  EXPECT_EQ(seen[0], 0);
  EXPECT_GT(seen[1], 50);
  EXPECT_GT(seen[2], 50);
}

TEST(GpuSharePlacementTest, PolicyNamesRoundTrip) {
  for (const GpuSharePolicy policy : GpuSharePolicies()) {
    EXPECT_EQ(FindGpuSharePolicy(GpuSharePolicyName(policy)), policy);
  }
  EXPECT_EQ(GpuSharePolicyNames().front(), "random");
  EXPECT_EQ(GpuSharePolicyNames().back(), "fgd");
  EXPECT_FALSE(FindGpuSharePolicy("FGD").has_value());
}

}  // namespace
}  // namespace fleetsim
