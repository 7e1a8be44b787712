// The shared placement helper on ledgers of catalog fleets: what it picks for each kind of request
// (sizes, models, spot, blocks, NVLink, MIG profiles, shares, host needs, CPU-only jobs), and the
// planner's holds within one call. Every answer is also checked legal by the fleet state.
#include "fleetsim/policy/placement_choice.h"

#include <gtest/gtest.h>

#include "fleetsim/ledger/fleet_ledger.h"
#include "fleetsim/ledger/placement_rules.h"
#include "fleetsim/policy/policy.h"
#include "testutil/fleets.h"

namespace fleetsim {
namespace {

using testing::CatalogPool;
using testing::FleetOf;
using testing::GpuRange;
using testing::GpusOf;

JobRequest Job(std::int64_t gpus) {
  JobRequest r;
  r.id = "j";
  r.gpus = gpus;
  return r;
}

// Chooses and checks the answer is legal.
std::optional<Allocation> Choose(const FleetLedger& ledger, const JobRequest& r) {
  std::optional<Allocation> a = ChoosePlacement(ledger, r);
  if (a) {
    EXPECT_EQ(ledger.CheckAllocation(*a).message(), "");
  }
  return a;
}

TEST(PlacementChoiceTest, PlainJobsOnABareFleetTakeTheLowestFreeGpus) {
  FleetLedger ledger({.gpus = 8, .pools = {}});
  ledger.Apply(WholeGpus(std::vector<GpuId>{0, 2}));
  EXPECT_EQ(GpusOf(*Choose(ledger, Job(3))), (std::vector<GpuId>{1, 3, 4}));
  EXPECT_FALSE(Choose(ledger, Job(7)));
}

TEST(PlacementChoiceTest, WholeJobsGoToTheTightestDomain) {
  FleetLedger ledger(FleetOf({CatalogPool("hgx-h100", 2)}));
  ledger.Apply(WholeGpus(GpuRange(8, 13)));  // domain 1 has 2 free
  EXPECT_EQ(GpusOf(*Choose(ledger, Job(2))), (std::vector<GpuId>{14, 15}));
  EXPECT_EQ(GpusOf(*Choose(ledger, Job(3))), (std::vector<GpuId>{0, 1, 2}));
}

TEST(PlacementChoiceTest, ElasticJobsTakeTheLargestSizeThatFits) {
  FleetLedger ledger(FleetOf({CatalogPool("hgx-h100", 2)}));
  ledger.Apply(WholeGpus(GpuRange(0, 9)));
  JobRequest r = Job(2);
  r.max_gpus = 8;
  EXPECT_EQ(GpusOf(*Choose(ledger, r)), GpuRange(10, 15));
}

TEST(PlacementChoiceTest, ModelListsMatchNamesAndAliasesAndSpotIsAvoided) {
  PoolSpec spot = CatalogPool("hgx-h100", 1, "h100-spot");
  spot.tier = PriceTier::kSpot;
  FleetLedger ledger(FleetOf({spot, CatalogPool("hgx-b200", 1), CatalogPool("hgx-h100", 1)}));
  JobRequest r = Job(2);
  r.gpu_models = {"H100"};  // an alias of H100-SXM
  EXPECT_EQ(GpusOf(*Choose(ledger, r)), (std::vector<GpuId>{0, 1}));
  r.spot_eligible = false;
  EXPECT_EQ(GpusOf(*Choose(ledger, r)), (std::vector<GpuId>{16, 17}));
  r.gpu_models = {"A100-80GB"};
  EXPECT_FALSE(Choose(ledger, r));
}

TEST(PlacementChoiceTest, RestrictedJobsSpanTheFewestAcceptedDomains) {
  // GPUs 0-7 and 16-23: H100 (domains 0 and 2); GPUs 8-15: B200 (domain 1), all free.
  FleetLedger ledger(FleetOf({CatalogPool("hgx-h100", 1, "h100-a"), CatalogPool("hgx-b200", 1),
                              CatalogPool("hgx-h100", 1, "h100-b")}));
  ledger.Apply(WholeGpus(std::vector<GpuId>{0, 1}));  // domain 0 has 6 free, domain 2 has 8
  JobRequest r = Job(10);
  r.gpu_models = {"H100-SXM"};
  // The fullest accepted domain whole (domain 2), the rest where it fits most exactly (domain 0).
  std::vector<GpuId> expected = {2, 3};
  for (GpuId g = 16; g <= 23; ++g) {
    expected.push_back(g);
  }
  EXPECT_EQ(GpusOf(*Choose(ledger, r)), expected);
  r.gpus = 15;
  EXPECT_FALSE(Choose(ledger, r));  // 14 H100 GPUs free; the B200s do not count
}

TEST(PlacementChoiceTest, BlocksAreAlignedAndTheLargestPowerOfTwoThatFits) {
  FleetLedger ledger(FleetOf({CatalogPool("hgx-h100", 1)}));
  ledger.Apply(WholeGpus(std::vector<GpuId>{1}));
  JobRequest r = Job(2);
  r.max_gpus = 8;
  r.pow2_block = true;
  EXPECT_EQ(GpusOf(*Choose(ledger, r)), GpuRange(4, 7));  // 8 is broken by GPU 1; 4 at 4
}

TEST(PlacementChoiceTest, NvlinkRequiredNeedsOneDomainWithEnoughFree) {
  FleetLedger ledger(FleetOf({CatalogPool("hgx-h100", 2)}));
  ledger.Apply(WholeGpus(GpuRange(0, 3)));
  ledger.Apply(WholeGpus(GpuRange(8, 11)));  // 4 + 4 free, in two domains
  JobRequest r = Job(6);
  r.nvlink = NvlinkLocality::kRequired;
  EXPECT_FALSE(Choose(ledger, r));
  r.nvlink = NvlinkLocality::kPreferred;
  EXPECT_EQ(GpusOf(*Choose(ledger, r)), (std::vector<GpuId>{4, 5, 6, 7, 12, 13}));
}

TEST(PlacementChoiceTest, MigJobsGetTheSmallestFittingProfile) {
  PoolSpec pool = CatalogPool("hgx-h100", 1);
  pool.mig = MigMode::kDynamic;
  FleetLedger ledger(FleetOf({pool}));
  JobRequest r = Job(1);
  r.sharing = GpuSharing::kMig;
  r.gpu_memory_gb = 15;
  std::optional<Allocation> a = Choose(ledger, r);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->gpus[0].profile->name, "1g.20gb");
  r.gpu_milli = 500;  // at least 4 of 7 compute slices
  a = Choose(ledger, r);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->gpus[0].profile->name, "4g.40gb");
  r.gpu_memory_gb = 90;
  EXPECT_FALSE(Choose(ledger, r));
}

TEST(PlacementChoiceTest, SharesPackOntoGpusAlreadyShared) {
  FleetLedger ledger(FleetOf({CatalogPool("hgx-h100", 1)}));
  ledger.Apply(Allocation{{Grant::Fraction(5, 600, 10)}, {}});
  JobRequest r = Job(1);
  r.sharing = GpuSharing::kFraction;
  r.gpu_milli = 400;
  r.gpu_memory_gb = 20;
  std::optional<Allocation> a = Choose(ledger, r);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->gpus[0].gpu, 5U);
  EXPECT_EQ(a->gpus[0].milli, 400);
}

TEST(PlacementChoiceTest, HostNeedsAvoidBusyNodesAndSplitByGpus) {
  PoolSpec pool = CatalogPool("hgx-h100", 2);
  pool.cpu_cores = 64;
  FleetLedger ledger(FleetOf({pool}));
  ledger.Apply(Allocation{{}, {{0, 60, 0}}});  // node 0 has 4 cores left
  JobRequest r = Job(2);
  r.cpu_milli = 8000;
  std::optional<Allocation> a = Choose(ledger, r);
  ASSERT_TRUE(a);
  EXPECT_EQ(GpusOf(*a), (std::vector<GpuId>{8, 9}));
  ASSERT_EQ(a->nodes.size(), 1U);
  EXPECT_EQ(a->nodes[0].node, 1U);
  EXPECT_DOUBLE_EQ(a->nodes[0].cpu_cores, 8);

  FleetLedger empty(FleetOf({pool}));
  r.gpus = 16;
  r.cpu_milli = 100'000;  // 50 cores per node
  a = Choose(empty, r);
  ASSERT_TRUE(a);
  ASSERT_EQ(a->nodes.size(), 2U);
  EXPECT_DOUBLE_EQ(a->nodes[0].cpu_cores, 50);
  EXPECT_DOUBLE_EQ(a->nodes[1].cpu_cores, 50);
}

TEST(PlacementChoiceTest, CpuOnlyJobsTakeTheTightestNode) {
  PoolSpec small = CatalogPool("hgx-h100", 1, "small");
  small.cpu_cores = 16;
  PoolSpec large = CatalogPool("hgx-h100", 1, "large");
  large.cpu_cores = 128;
  FleetLedger ledger(FleetOf({large, small}));
  JobRequest r = Job(0);
  r.cpu_milli = 8000;
  std::optional<Allocation> a = Choose(ledger, r);
  ASSERT_TRUE(a);
  EXPECT_TRUE(a->gpus.empty());
  EXPECT_EQ(a->nodes[0].node, 1U);
  r.cpu_milli = 32'000;
  EXPECT_EQ(Choose(ledger, r)->nodes[0].node, 0U);
}

TEST(PlacementPlannerTest, HoldsAreSeenByLaterSearchesAndUndoneByRollback) {
  FleetLedger ledger({.gpus = 4, .pools = {}});
  EnginePlanner planner(ledger);
  EXPECT_EQ(GpusOf(*planner.Place(Job(2))), (std::vector<GpuId>{0, 1}));
  EXPECT_EQ(GpusOf(*planner.Place(Job(2))), (std::vector<GpuId>{2, 3}));
  EXPECT_FALSE(planner.Place(Job(1)));
  EXPECT_EQ(planner.Hold(WholeGpus(std::vector<GpuId>{0})).message(),
            "GPU 0 is already taken whole");
  EXPECT_EQ(ledger.whole().free_count(), 0);
  planner.Rollback();
  EXPECT_EQ(ledger.whole().free_count(), 4);
  EXPECT_EQ(planner.holds(), 0U);
}

}  // namespace
}  // namespace fleetsim
