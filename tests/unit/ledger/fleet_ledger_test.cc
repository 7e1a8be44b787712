// FleetLedger: the whole-GPU view, its index and the pool counts follow every kind of grant
// (static MIG at construction, whole GPUs, MIG instances, shares) and come back on release; pool
// lookups for GPUs, nodes and domains, and the bare fleet read as one pool.
#include "fleetsim/ledger/fleet_ledger.h"

#include <gtest/gtest.h>

#include "fleetsim/policy/policy.h"
#include "testutil/fleets.h"

namespace fleetsim {
namespace {

// GPUs 0-7: HGX H100 with dynamic MIG (node 0, domain 0). GPUs 8-15: H100 NVL pairs with a static
// layout (node 1, domains 1-4). GPUs 16-87: a GB200 NVL72 rack (nodes 2-19, domain 5).
FleetSpec Fleet() {
  PoolSpec dynamic = testing::CatalogPool("hgx-h100", 1, "dynamic");
  dynamic.mig = MigMode::kDynamic;
  PoolSpec fixed = testing::CatalogPool("h100-nvl-pairs", 1, "static");
  fixed.mig = MigMode::kStatic;
  fixed.mig_layout = {{"3g.47gb", 2}};
  return testing::FleetOf({dynamic, fixed, testing::CatalogPool("gb200-nvl72", 18, "nvl72")});
}

TEST(FleetLedgerTest, StaticMigGpusAreNeverFreeWhole) {
  const FleetLedger ledger(Fleet());
  EXPECT_EQ(ledger.whole().free_count(), 80);
  EXPECT_EQ(ledger.wholeable_gpus(), 80);
  EXPECT_EQ(ledger.FreeWholeIn(0), 8);
  EXPECT_EQ(ledger.FreeWholeIn(1), 0);
  EXPECT_EQ(ledger.FreeWholeIn(2), 72);
  EXPECT_EQ(ledger.index().FreeIn(1), 0);
}

TEST(FleetLedgerTest, PoolsOfGpusNodesAndDomains) {
  const FleetLedger ledger(Fleet());
  EXPECT_EQ(ledger.PoolOfGpu(7), 0U);
  EXPECT_EQ(ledger.PoolOfGpu(8), 1U);
  EXPECT_EQ(ledger.PoolOfGpu(87), 2U);
  EXPECT_EQ(ledger.PoolOfNode(1), 1U);
  EXPECT_EQ(ledger.PoolOfNode(19), 2U);
  EXPECT_EQ(ledger.PoolOfDomain(4), 1U);
  EXPECT_EQ(ledger.PoolOfDomain(5), 2U);
  EXPECT_EQ(ledger.FirstGpuOf(2), 16U);
  EXPECT_EQ(ledger.EndGpuOf(2), 88U);
}

TEST(FleetLedgerTest, EveryKindOfGrantTakesTheGpuOutOfTheWholeViewUntilReleased) {
  FleetLedger ledger(Fleet());
  const Allocation whole = WholeGpus(std::vector<GpuId>{16, 17});
  const Allocation mig{{Grant::Mig(0, *ledger.pools()[0].gpu.FindMigProfile("1g.10gb"), 0),
                        Grant::Mig(0, *ledger.pools()[0].gpu.FindMigProfile("1g.10gb"), 1)},
                       {}};
  const Allocation share{{Grant::Fraction(1, 300, 10)}, {}};
  for (const Allocation* a : {&whole, &mig, &share}) {
    ledger.Apply(*a);
  }
  EXPECT_FALSE(ledger.whole().IsFree(0));
  EXPECT_FALSE(ledger.whole().IsFree(1));
  EXPECT_FALSE(ledger.whole().IsFree(16));
  EXPECT_EQ(ledger.FreeWholeIn(0), 6);
  EXPECT_EQ(ledger.FreeWholeIn(2), 70);
  EXPECT_EQ(ledger.index().FreeIn(0), 6);
  EXPECT_EQ(ledger.whole().free_count(), ledger.state().free_whole_gpus());
  for (const Allocation* a : {&share, &mig, &whole}) {
    ledger.Release(*a);
  }
  EXPECT_EQ(ledger.whole().free_count(), 80);
  EXPECT_EQ(ledger.FreeWholeIn(0), 8);
  EXPECT_EQ(ledger.index().FreeIn(5), 72);
}

TEST(FleetLedgerTest, ABareFleetIsOnePoolOnOneNode) {
  const FleetLedger ledger({.gpus = 16, .pools = {}});
  ASSERT_EQ(ledger.pools().size(), 1U);
  EXPECT_EQ(ledger.pools()[0].gpus(), 16);
  EXPECT_EQ(ledger.pools()[0].gpu.name, "");
  EXPECT_EQ(ledger.PoolOfNode(0), 0U);
  EXPECT_EQ(ledger.FreeWholeIn(0), 16);
}

}  // namespace
}  // namespace fleetsim
