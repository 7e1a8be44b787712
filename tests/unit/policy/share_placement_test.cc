// The GPU-sharing placement strategies (`share-*`, placement_strategy.h): on a small hand-built
// fleet, which node and GPU each scorer picks for a fractional share, a CPU-only job and a
// whole-GPU job of one node, with the scores worked out in the comments; the requests that fall
// back to the topology-aware rules; the hard rules (spot, models, GPU memory) the scorers obey; a
// planner's later placements seeing its earlier holds; the ledger's holder kinds and typical
// tasks; and a run feeding the typical tasks from its submissions.
#include <gtest/gtest.h>

#include <set>

#include "fleetsim/fleet/catalog_loader.h"
#include "fleetsim/policy/placement_choice.h"
#include "fleetsim/policy/placement_strategy.h"
#include "fleetsim/policy/policy.h"
#include "fleetsim/policy/registry.h"
#include "fleetsim/sim/simulation.h"
#include "testutil/fleets.h"
#include "testutil/workloads.h"

namespace fleetsim {
namespace {

using testing::CatalogPool;
using testing::FleetOf;
using testing::GpuRange;
using testing::GpusOf;

JobRequest Share(std::int64_t milli, std::int64_t cpu_milli, const std::string& id = "share") {
  JobRequest r;
  r.id = id;
  r.gpus = 1;
  r.sharing = GpuSharing::kFraction;
  r.gpu_milli = milli;
  r.cpu_milli = cpu_milli;
  return r;
}

JobRequest Whole(std::int64_t gpus, std::int64_t cpu_milli) {
  JobRequest r;
  r.id = "whole";
  r.gpus = gpus;
  r.cpu_milli = cpu_milli;
  return r;
}

JobRequest CpuOnly(std::int64_t cpu_milli) {
  JobRequest r = Whole(0, cpu_milli);
  r.id = "cpu";
  return r;
}

// Places with the named strategy and checks the answer is legal.
std::optional<Allocation> Choose(const FleetLedger& ledger, const JobRequest& r,
                                 std::string_view strategy,
                                 std::optional<std::int64_t> exact_gpus = std::nullopt) {
  std::optional<Allocation> a =
      ChoosePlacement(ledger, r, *FindPlacementStrategy(strategy), exact_gpus);
  if (a) {
    EXPECT_EQ(ledger.CheckAllocation(*a).message(), "") << strategy;
  }
  return a;
}

struct Pick {
  NodeId node = 0;
  std::vector<GpuId> gpus;
  bool operator==(const Pick&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Pick& p) {
  out << "node " << p.node << " GPUs";
  for (const GpuId g : p.gpus) {
    out << " " << g;
  }
  return out;
}

// Three HGX H100 nodes (GPUs 0-7, 8-15, 16-23) of 64 cores and 512 GB, as the scorers see them:
//  - node 0: GPU 0 shared 300 (free 700), GPU 1 shared 200 (free 800), each holder with 8
//    cores: 48 cores free, idle GPU 700 + 800 + 6 x 1000 = 7500 milli; holders: shares;
//  - node 1: GPUs 8-11 held whole by one 4-GPU job with 16 cores: 48 cores free, idle 4000;
//    holders: 4-GPU;
//  - node 2: empty (64 cores, idle 8000).
// Scales (the largest node): 64000 milli-CPU, 8000 milli-GPU. Typical tasks for FGD: A = a
// 500-milli share with 4 cores and B = one whole GPU with 8 cores, noted twice each (weights 1/2).
class SharePlacementTest : public ::testing::Test {
 protected:
  SharePlacementTest() {
    PoolSpec pool = CatalogPool("hgx-h100", 3);
    pool.cpu_cores = 64;
    pool.memory_gb = 512;
    fleet_ = FleetOf({pool});
    ledger_ = std::make_unique<FleetLedger>(fleet_);
    ledger_->Apply(Allocation{{Grant::Fraction(0, 300, 10)}, {{0, 8, 0}}});
    ledger_->Apply(Allocation{{Grant::Fraction(1, 200, 10)}, {{0, 8, 0}}});
    Allocation four = WholeGpus(GpuRange(8, 11));
    four.nodes = {{1, 16, 0}};
    ledger_->Apply(four);
    for (int i = 0; i < 2; ++i) {
      ledger_->NoteSubmitted(Share(500, 4000));
      ledger_->NoteSubmitted(Whole(1, 8000));
    }
  }

  Pick PickOf(const JobRequest& r, std::string_view strategy) {
    const std::optional<Allocation> a = Choose(*ledger_, r, strategy);
    EXPECT_TRUE(a) << strategy;
    if (!a) {
      return {};
    }
    if (a->gpus.empty()) {
      return {a->nodes.at(0).node, {}};
    }
    return {ledger_->state().NodeOf(a->gpus[0].gpu), GpusOf(*a)};
  }

  FleetSpec fleet_;
  std::unique_ptr<FleetLedger> ledger_;
};

TEST_F(SharePlacementTest, TheLedgerKnowsEachNodesHolderKindsAndTheTypicalTasks) {
  EXPECT_EQ(ledger_->PodKindsOn(0), kShareKind);
  EXPECT_EQ(ledger_->PodKindsOn(1), kFourGpuKind);
  EXPECT_EQ(ledger_->PodKindsOn(2), 0);
  const TypicalTasks& typical = ledger_->typical_tasks().typical();
  ASSERT_EQ(typical.size(), 2U);  // equal counts: the larger shape (8 cores) first
  EXPECT_EQ(typical[0].shape, (TaskShape{.cpu_milli = 8000, .gpu_milli = 1000, .gpus = 1}));
  EXPECT_EQ(typical[1].shape, (TaskShape{.cpu_milli = 4000, .gpu_milli = 500, .gpus = 1}));
  EXPECT_DOUBLE_EQ(typical[0].weight, 0.5);
}

TEST_F(SharePlacementTest, AShareGoesWhereEachScorerSays) {
  const JobRequest r = Share(300, 4000);  // 300 milli, 4 cores
  // Dot product, d = (cpu_free/64000 x 4000/64000 + idle/8000 x 300/8000) / 2, score
  // trunc(100 (1 - d)): node 0 (0.75 x 0.0625 + 0.9375 x 0.0375) / 2 = 0.0410 -> 95; node 1
  // (0.046875 + 0.5 x 0.0375) / 2 = 0.0328 -> 96; node 2 (0.0625 + 0.0375) / 2 = 0.05 -> 95.
  // Node 1; its best-fit GPU among 12-15 (all free): the lowest.
  EXPECT_EQ(PickOf(r, "share-dot-product"), (Pick{1, {12}}));
  // Best fit, r = 0.5 (cpu_free - 4000)/64000 + 0.5 (idle - 300)/8000, score trunc(100 (1 - r)):
  // node 0 0.34375 + 0.45 -> 20; node 1 0.34375 + 0.23125 -> 42; node 2 0.46875 + 0.48125 -> 5.
  EXPECT_EQ(PickOf(r, "share-best-fit"), (Pick{1, {12}}));
  // GPU clustering, base = 25 (8000 - idle) / 8000: node 0 holds only shares: 1 + 75 = 76;
  // node 1 holds only other kinds: 12; node 2 is empty: 0 + 25. Node 0, best-fit GPU: GPU 0
  // (700 free, the least that holds 300).
  EXPECT_EQ(PickOf(r, "share-gpu-clustering"), (Pick{0, {0}}));
  // GPU packing: node 0 fits on a partly used GPU (GPU 0, 70 % free): 100 - 70/10 = 93; node 1
  // needs a free GPU of a used node: 50 - 1 = 49; node 2 is untouched: 33 - 8 = 25.
  EXPECT_EQ(PickOf(r, "share-gpu-packing"), (Pick{0, {0}}));
  // FGD, F = 1/2 A + 1/2 B (milli fragmented for each), score trunc(100 sigma((F - F') / 1000)).
  // Node 0: F = 1/2 x 0 + 1/2 x (700 + 800) = 750. On GPU 0 (-> 400): A 400, B 400 + 800,
  // F' = 800, sigma(-0.05) -> 48; on GPU 1 (-> 500): A 0, B 700 + 500, F' = 600, sigma(0.15)
  // -> 53; on a free GPU (-> 700): F' = 1100 -> 41. Nodes 1 and 2: F = 0, F' = 1/2 x 700 -> 41.
  // Node 0, GPU 1 — not the best-fit GPU 0, which would leave 400 that no 500 share can use.
  EXPECT_EQ(PickOf(r, "share-fgd"), (Pick{0, {1}}));
  // The plain rule for comparison: the least free GPU of the fleet that holds it.
  EXPECT_EQ(PickOf(r, "topology-aware"), (Pick{0, {0}}));
  // Every share carries its whole host need on its node.
  const std::optional<Allocation> a = Choose(*ledger_, r, "share-fgd");
  ASSERT_EQ(a->nodes.size(), 1U);
  EXPECT_EQ(a->nodes[0].node, 0U);
  EXPECT_DOUBLE_EQ(a->nodes[0].cpu_cores, 4);
  EXPECT_EQ(a->gpus[0].kind, Grant::Kind::kFraction);
  EXPECT_EQ(a->gpus[0].milli, 300);
}

TEST_F(SharePlacementTest, RandomIsDrawnPerJobIdAndSpreadsOverTheFeasibleNodes) {
  std::set<NodeId> nodes;
  std::set<GpuId> gpus;
  for (int i = 0; i < 60; ++i) {
    const JobRequest r = Share(300, 4000, "job-" + std::to_string(i));
    const Pick pick = PickOf(r, "share-random");
    EXPECT_EQ(PickOf(r, "share-random"), pick) << r.id;  // the same job, the same draw
    nodes.insert(pick.node);
    gpus.insert(pick.gpus.at(0));
    EXPECT_NE(pick.gpus.at(0), 8U);  // GPUs 8-11 are held whole
  }
  EXPECT_EQ(nodes.size(), 3U);
  EXPECT_GT(gpus.size(), 10U);  // uniform over the GPUs that hold it, not the lowest
}

TEST_F(SharePlacementTest, CpuOnlyJobsByEachScorer) {
  const JobRequest r = CpuOnly(8000);  // 8 cores, no GPU
  // Dot product has only the CPU term: node 0 and 1 (0.75 x 0.125) / 2 -> 95, node 2 -> 93;
  // the tie goes to the lower node.
  EXPECT_EQ(PickOf(r, "share-dot-product"), (Pick{0, {}}));
  // Best fit: node 0 0.3125 + 0.5 x 7500/8000 -> 21; node 1 0.3125 + 0.25 -> 43; node 2 -> 6.
  EXPECT_EQ(PickOf(r, "share-best-fit"), (Pick{1, {}}));
  // Clustering and packing score a CPU-only job 0 everywhere: the lowest node.
  EXPECT_EQ(PickOf(r, "share-gpu-clustering"), (Pick{0, {}}));
  EXPECT_EQ(PickOf(r, "share-gpu-packing"), (Pick{0, {}}));
  // FGD: 40 cores left anywhere still fit both typical tasks: F' = F, 50 everywhere.
  EXPECT_EQ(PickOf(r, "share-fgd"), (Pick{0, {}}));
  // 44 cores: on node 0 or 1 (4 cores left) B no longer fits, so all idle GPU is fragmented for
  // it: node 0 F' = 1/2 x 7500 vs F = 750 -> sigma(-3) -> 4; node 1 F' = 1/2 x 4000 vs 0 -> 11;
  // node 2 (20 cores left) F' = F = 0 -> 50. FGD keeps the GPUs usable; best fit packs CPU:
  // node 0 0.03125 + 0.46875 -> 50, node 1 0.03125 + 0.25 -> 71, node 2 0.15625 + 0.5 -> 34.
  EXPECT_EQ(PickOf(CpuOnly(44000), "share-fgd"), (Pick{2, {}}));
  EXPECT_EQ(PickOf(CpuOnly(44000), "share-best-fit"), (Pick{1, {}}));
  // No node has 65 cores: none, as under the plain rules.
  EXPECT_FALSE(Choose(*ledger_, CpuOnly(65000), "share-fgd"));
}

TEST_F(SharePlacementTest, AWholeGpuJobOfOneNodeByEachScorer) {
  const JobRequest r = Whole(2, 8000);  // 2 GPUs, 8 cores; GPUs: the node's lowest free
  // Dot product (want 0.125 CPU, 0.25 GPU): node 0 (0.09375 + 0.234375) / 2 -> 83; node 1
  // (0.09375 + 0.125) / 2 -> 89; node 2 (0.125 + 0.25) / 2 -> 81.
  EXPECT_EQ(PickOf(r, "share-dot-product"), (Pick{1, {12, 13}}));
  // Best fit: node 0 0.3125 + 0.34375 -> 34; node 1 0.3125 + 0.125 -> 56; node 2 -> 18.
  EXPECT_EQ(PickOf(r, "share-best-fit"), (Pick{1, {12, 13}}));
  // Clustering (kind 2-GPU): node 0 (shares) 1; node 1 (4-GPU) 12; empty node 2 0 + 25.
  EXPECT_EQ(PickOf(r, "share-gpu-clustering"), (Pick{2, {16, 17}}));
  // Packing: nodes 0 and 1 take two free GPUs of a used node, 50 - 2 = 48; node 2 25. Tie: 0.
  EXPECT_EQ(PickOf(r, "share-gpu-packing"), (Pick{0, {2, 3}}));
  // FGD: taking two free GPUs fragments nothing for A or B anywhere (F' = F): 50, lowest node.
  EXPECT_EQ(PickOf(r, "share-fgd"), (Pick{0, {2, 3}}));
  // The host need goes with the GPUs, on the one node.
  const std::optional<Allocation> a = Choose(*ledger_, r, "share-gpu-clustering");
  ASSERT_EQ(a->nodes.size(), 1U);
  EXPECT_EQ(a->nodes[0].node, 2U);
  EXPECT_DOUBLE_EQ(a->nodes[0].cpu_cores, 8);
  // An exact size asked by the policy is a fixed size too.
  JobRequest range = Whole(1, 0);
  range.max_gpus = 4;
  const std::optional<Allocation> exact = Choose(*ledger_, range, "share-gpu-clustering", 2);
  EXPECT_EQ(GpusOf(*exact), (std::vector<GpuId>{16, 17}));
}

TEST_F(SharePlacementTest, OtherRequestsFallBackToTheTopologyAwareRules) {
  const auto same_as_topology_aware = [&](const JobRequest& r, const std::string& what) {
    const std::optional<Allocation> plain = Choose(*ledger_, r, "topology-aware");
    for (const std::string& name : PlacementStrategyNames()) {
      if (name.starts_with("share-")) {
        const std::optional<Allocation> a = Choose(*ledger_, r, name);
        ASSERT_EQ(a.has_value(), plain.has_value()) << what << " " << name;
        if (a) {
          EXPECT_EQ(GpusOf(*a), GpusOf(*plain)) << what << " " << name;
        }
      }
    }
  };
  JobRequest block = Whole(2, 0);
  block.pow2_block = true;
  same_as_topology_aware(block, "a power-of-two block");
  JobRequest elastic = Whole(1, 0);
  elastic.max_gpus = 4;
  same_as_topology_aware(elastic, "a size range");
  same_as_topology_aware(Whole(12, 0), "more GPUs than a node has");
  // With GPUs 16-19 taken no node has 7 free GPUs (6, 4 and 4): the 7 span nodes, as the
  // topology-aware rule puts them.
  ledger_->Apply(WholeGpus(GpuRange(16, 19)));
  same_as_topology_aware(Whole(7, 0), "no node can take it now");
  EXPECT_EQ(Choose(*ledger_, Whole(7, 0), "share-gpu-clustering")->gpus.size(), 7U);
}

TEST(SharePlacementFleetTest, NodesOfSeveralNvlinkDomainsAreLeftToTheTopologyRules) {
  // H100 NVL pairs: a node's 8 GPUs are four NVLink domains of two. NVLink-preferred and
  // -required jobs would not be kept in one domain by "the node's lowest free GPUs".
  FleetLedger ledger(FleetOf({CatalogPool("h100-nvl-pairs", 1), CatalogPool("hgx-h100", 1)}));
  ledger.Apply(WholeGpus(std::vector<GpuId>{0, 3, 8, 9, 10, 11, 12, 13}));
  // Node 1 (GPUs 8-15) has 14 and 15 free; node 0 has 1, 2 (two domains) and 4-7.
  JobRequest r = Whole(2, 0);
  r.nvlink = NvlinkLocality::kPreferred;
  // Packing would take node 0's 1, 2 (lowest free GPUs of a used node, tie to node 0); with
  // NVLink asked for, only node 1 (one domain) is scored.
  EXPECT_EQ(GpusOf(*Choose(ledger, r, "share-gpu-packing")), (std::vector<GpuId>{14, 15}));
  r.nvlink = NvlinkLocality::kNone;
  EXPECT_EQ(GpusOf(*Choose(ledger, r, "share-gpu-packing")), (std::vector<GpuId>{1, 2}));
  // When no one-domain node can take it, the topology-aware rule places it (one pair of node 0).
  r.nvlink = NvlinkLocality::kRequired;
  ledger.Apply(WholeGpus(std::vector<GpuId>{14}));
  EXPECT_EQ(GpusOf(*Choose(ledger, r, "share-gpu-packing")),
            GpusOf(*Choose(ledger, r, "topology-aware")));
}

TEST(SharePlacementFleetTest, AFleetWithNodesOfMoreThanEightGpusUsesThePlainRules) {
  // FGD prefers GPU 1 for the 300 share (as in AShareGoesWhereEachScorerSays, CPU aside), best
  // fit GPU 0. A bare {"gpus": N} fleet is one node of N GPUs: scored for 8, not for 16.
  for (const std::int64_t gpus : {8, 16}) {
    FleetLedger ledger({.gpus = gpus, .pools = {}});
    ledger.Apply(Allocation{{Grant::Fraction(0, 300, 0)}, {}});
    ledger.Apply(Allocation{{Grant::Fraction(1, 200, 0)}, {}});
    ledger.NoteSubmitted(Share(500, 0));
    ledger.NoteSubmitted(Whole(1, 0));
    const GpuId gpu = Choose(ledger, Share(300, 0), "share-fgd")->gpus.at(0).gpu;
    EXPECT_EQ(gpu, gpus == 8 ? 1U : 0U) << gpus;
  }
}

TEST(SharePlacementFleetTest, ScorersObeySpotModelsAndGpuMemory) {
  PoolSpec spot = CatalogPool("hgx-h100", 1, "h100-spot");
  spot.tier = PriceTier::kSpot;
  FleetLedger ledger(FleetOf({spot, CatalogPool("hgx-h100", 1), CatalogPool("hgx-b200", 1)}));
  // GPU 0 (spot) and GPU 8 are partly used: packing scores them 9x, untouched nodes 25.
  ledger.Apply(Allocation{{Grant::Fraction(0, 500, 40)}, {}});
  ledger.Apply(Allocation{{Grant::Fraction(8, 500, 40)}, {}});
  ledger.Apply(Allocation{{Grant::Fraction(9, 200, 10)}, {}});
  JobRequest r = Share(300, 0);
  r.gpu_memory_gb = 20;
  EXPECT_EQ(Choose(ledger, r, "share-gpu-packing")->gpus[0].gpu, 0U);  // spot is fine
  r.spot_eligible = false;
  EXPECT_EQ(Choose(ledger, r, "share-gpu-packing")->gpus[0].gpu, 8U);  // 500 free, 40 GB
  // 50 GB: GPU 8 has 40 GB left, so the share goes to GPU 9 (800 free, 70 GB).
  r.gpu_memory_gb = 50;
  EXPECT_EQ(Choose(ledger, r, "share-gpu-packing")->gpus[0].gpu, 9U);
  EXPECT_EQ(Choose(ledger, r, "share-fgd")->gpus[0].gpu, 9U);
  // Only B200: the untouched node 2.
  r.gpu_models = {"B200"};
  EXPECT_EQ(Choose(ledger, r, "share-gpu-packing")->gpus[0].gpu, 16U);
}

TEST(SharePlacementFleetTest, APlannerSeesItsEarlierHolds) {
  PoolSpec pool = CatalogPool("hgx-h100", 3);
  pool.cpu_cores = 64;
  FleetLedger ledger(FleetOf({pool}));
  EnginePlanner planner(ledger);
  const PlacementStrategy clustering = *FindPlacementStrategy("share-gpu-clustering");
  // Empty fleet: every node scores 25 for a 2-GPU job; node 0 takes it (GPUs 0, 1).
  EXPECT_EQ(GpusOf(*planner.Place(Whole(2, 0), clustering)), (std::vector<GpuId>{0, 1}));
  // A share: node 0 now holds a 2-GPU job, base 25 x 2000/8000 = 6 (other kind); the empty
  // nodes 25: node 1, GPU 8.
  EXPECT_EQ(GpusOf(*planner.Place(Share(300, 0), clustering)), (std::vector<GpuId>{8}));
  // Another 2-GPU job: node 0 holds only that kind, 6 + 75 = 81: GPUs 2, 3.
  EXPECT_EQ(GpusOf(*planner.Place(Whole(2, 0), clustering)), (std::vector<GpuId>{2, 3}));
  // Packing sees the share held on GPU 8 (700 free, 100 - 70/10 = 93 against 49 for a free GPU
  // of node 0 and 25 for the empty node 2): 300-milli shares fill it, to 400 then 100.
  const PlacementStrategy packing = *FindPlacementStrategy("share-gpu-packing");
  EXPECT_EQ(GpusOf(*planner.Place(Share(300, 0), packing)), (std::vector<GpuId>{8}));
  EXPECT_EQ(GpusOf(*planner.Place(Share(300, 0), packing)), (std::vector<GpuId>{8}));
  // GPU 8 cannot hold 300 more: nodes 0 and 1 both offer a free GPU of a used node (49); the
  // tie goes to node 0, GPU 4.
  EXPECT_EQ(GpusOf(*planner.Place(Share(300, 0), packing)), (std::vector<GpuId>{4}));
  EXPECT_EQ(ledger.PodKindsOn(0), kTwoGpuKind | kShareKind);
  EXPECT_EQ(ledger.PodKindsOn(1), kShareKind);
  planner.Rollback();
  EXPECT_EQ(ledger.PodKindsOn(0), 0);
  EXPECT_EQ(ledger.state().FreeMilli(8), 1000);
}

TEST(TypicalTaskTallyTest, CountsWholeShareAndCpuOnlyShapesButNotMigOrWideJobs) {
  const FleetSpec fleet = FleetOf({CatalogPool("hgx-h100", 1), CatalogPool("hgx-b200", 1)});
  FleetLedger ledger(fleet);
  EXPECT_TRUE(ledger.typical_tasks().typical().empty());
  JobRequest mig = Share(300, 0);
  mig.sharing = GpuSharing::kMig;
  ledger.NoteSubmitted(mig);
  ledger.NoteSubmitted(Whole(16, 0));
  EXPECT_EQ(ledger.typical_tasks().noted(), 0);
  JobRequest b200 = Whole(2, 1000);
  b200.gpu_models = {"B200"};
  ledger.NoteSubmitted(b200);
  ledger.NoteSubmitted(CpuOnly(2000));
  ledger.NoteSubmitted(CpuOnly(2000));
  EXPECT_EQ(ledger.typical_tasks().noted(), 3);
  const TypicalTasks& typical = ledger.typical_tasks().typical();
  ASSERT_EQ(typical.size(), 2U);
  EXPECT_EQ(typical[0].shape, (TaskShape{.cpu_milli = 2000}));
  EXPECT_DOUBLE_EQ(typical[0].weight, 2.0 / 3);
  // Model masks are over the fleet's models in pool order: H100-SXM 0, B200 1.
  EXPECT_EQ(typical[1].shape,
            (TaskShape{.cpu_milli = 1000, .gpu_milli = 1000, .gpus = 2, .models = 0b10}));
  ledger.NoteSubmitted(Share(250, 0));  // recomputed on the next read
  EXPECT_EQ(ledger.typical_tasks().typical().size(), 3U);
}

TEST(TypicalTaskTallyTest, FragmentationIsTheMeasureMemoisedUntilTheTasksChange) {
  const FleetSpec fleet = FleetOf({CatalogPool("hgx-h100", 1)});
  FleetLedger ledger(fleet);
  ledger.NoteSubmitted(Share(500, 0));
  ledger.NoteSubmitted(Whole(1, 0));
  const TypicalTaskTally& tally = ledger.typical_tasks();
  NodeFreeState node{
      .cpu_free_milli = 8000, .model = 0, .gpu_count = 4, .gpu_free = {700, 800, 1000, 0}};
  // 1/2 x 0 (500 fits on 700, 800, 1000) + 1/2 x (700 + 800) = 750.
  EXPECT_DOUBLE_EQ(tally.Fragmentation(node), 750);
  NodeFreeState permuted = node;
  permuted.gpu_free = {0, 1000, 800, 700};
  EXPECT_DOUBLE_EQ(tally.Fragmentation(permuted), 750);  // the same state, GPU order aside
  // Two more whole-GPU jobs: weights 1/4 and 3/4, 3/4 x 1500 = 1125, not the memoised 750.
  ledger.NoteSubmitted(Whole(1, 0));
  ledger.NoteSubmitted(Whole(1, 0));
  EXPECT_DOUBLE_EQ(tally.Fragmentation(node), 1125);
  EXPECT_DOUBLE_EQ(tally.Fragmentation(node), NodeFragmentation(node, tally.typical()));
}

// The placement policy, recording at every call how many jobs the engine's typical tasks have
// noted (read from the simulation: policies cannot see its ledger) and how many were submitted
// (and admitted) so far.
class TallySpy final : public Policy {
 public:
  explicit TallySpy(std::unique_ptr<Policy> inner) : inner_(std::move(inner)) {}
  std::vector<Decision> Decide(const ClusterView& view, PlacementPlanner& planner) override {
    submitted_ += static_cast<std::int64_t>(view.changes().submitted.size());
    noted.push_back(sim->ledger().typical_tasks().noted());
    submitted.push_back(submitted_);
    return inner_->Decide(view, planner);
  }
  const Simulation* sim = nullptr;
  std::vector<std::int64_t> noted;
  std::vector<std::int64_t> submitted;

 private:
  std::unique_ptr<Policy> inner_;
  std::int64_t submitted_ = 0;
};

TEST(SharePlacementRunTest, TheEngineNotesEveryAdmittedJobAsItArrives) {
  Workload w;
  for (int i = 0; i < 20; ++i) {
    fleetsim::Job& job = testing::AddJob(w, "j" + std::to_string(i), 60.0 * i, 1, 600);
    job.request.sharing = i % 2 == 0 ? GpuSharing::kFraction : GpuSharing::kNone;
    job.request.gpu_milli = i % 2 == 0 ? 250 : 1000;
  }
  testing::AddJob(w, "too-big", 1, 64, 600);  // rejected at admission: not noted
  SortBySubmit(w);
  const PolicyRegistry registry = BuiltinPolicies();
  const PolicyInfo* info = registry.Find("fifo");
  PolicyParams params = DefaultParams(*info);
  params["placement"] = std::string("share-fgd");
  auto spy = std::make_unique<TallySpy>(info->make(params));
  TallySpy& seen = *spy;
  Simulation sim(FleetOf({CatalogPool("hgx-h100", 1)}), w, std::move(spy), "fifo",
                 {.reference_gpu = *BuiltinCatalog().FindGpu("H100-SXM"), .speed = {}});
  seen.sim = &sim;
  ASSERT_TRUE(sim.RunUntilIdle().ok());
  // At every call the jobs submitted so far are noted — the one being placed included — and the
  // job rejected at admission (never submitted to the policy) is not.
  ASSERT_FALSE(seen.noted.empty());
  EXPECT_EQ(seen.noted, seen.submitted);
  EXPECT_EQ(seen.noted.back(), 20);
}

}  // namespace
}  // namespace fleetsim
