// PriceAccounting, worked by hand: reserved pools pay for every GPU-hour of the window, on-demand
// and spot pools only for the hours their nodes were up; dollars by tier, per useful GPU-hour, on
// lost work and on overhead; the catalog's price for a pool's tier; unpriced pools leave every
// dollar figure empty.
#include "fleetsim/metrics/cost.h"

#include <gtest/gtest.h>

#include "testutil/fleets.h"

namespace fleetsim {
namespace {

PoolSpec Pool(const std::string& name, PriceTier tier, std::optional<double> price) {
  PoolSpec pool = testing::CatalogPool("hgx-h100", 1, name);
  pool.tier = tier;
  pool.price_per_gpu_hour = price;
  return pool;
}

PoolAccounting Hours(const PoolSpec& pool, const GpuTimeSplit& hours) {
  return {.name = pool.name, .tier = pool.tier, .gpus = pool.gpus(), .hours = hours};
}

AccountingSummary Accounting(const std::vector<PoolSpec>& pools,
                             const std::vector<GpuTimeSplit>& hours) {
  AccountingSummary a;
  for (std::size_t i = 0; i < pools.size(); ++i) {
    a.pools.push_back(Hours(pools[i], hours[i]));
    a.total.useful += hours[i].useful;
    a.total.capacity += hours[i].capacity;
  }
  return a;
}

TEST(CostTest, ReservedPaysEveryHourOnDemandAndSpotOnlyTheirUpHours) {
  // capacity 10 GPU-h each. on-demand $2: 2 h down, so billed 8 -> $16; reserved $1: 3 h down but
  // billed all 10 -> $10; spot $0.5: 4 h down, billed 6 -> $3. Total $29.
  // useful 4 + 5 + 1 = 10 GPU-h -> $2.90 per useful GPU-h.
  // lost: 1 x $2 + 0 + 2 x $0.5 = $3; overhead: 0.5 x $2 + 1 x $1 + 0 = $2.
  const std::vector<PoolSpec> pools = {Pool("od", PriceTier::kOnDemand, 2.0),
                                       Pool("res", PriceTier::kReserved, 1.0),
                                       Pool("spot", PriceTier::kSpot, 0.5)};
  const AccountingSummary a =
      Accounting(pools, {{.useful = 4, .lost = 1, .overhead = 0.5, .down = 2, .capacity = 10},
                         {.useful = 5, .overhead = 1, .down = 3, .capacity = 10},
                         {.useful = 1, .lost = 2, .down = 4, .capacity = 10}});
  const CostSummary c = PriceAccounting(a, pools);

  EXPECT_TRUE(c.unpriced_pools.empty());
  ASSERT_EQ(c.pools.size(), 3U);
  EXPECT_DOUBLE_EQ(c.pools[0].billed_gpu_hours, 8);
  EXPECT_DOUBLE_EQ(c.pools[1].billed_gpu_hours, 10);
  EXPECT_DOUBLE_EQ(c.pools[2].billed_gpu_hours, 6);
  EXPECT_DOUBLE_EQ(c.pools[0].usd.value(), 16);
  EXPECT_DOUBLE_EQ(c.pools[1].usd.value(), 10);
  EXPECT_DOUBLE_EQ(c.pools[2].usd.value(), 3);
  EXPECT_DOUBLE_EQ(c.on_demand_usd.value(), 16);
  EXPECT_DOUBLE_EQ(c.reserved_usd.value(), 10);
  EXPECT_DOUBLE_EQ(c.spot_usd.value(), 3);
  EXPECT_DOUBLE_EQ(c.total_usd.value(), 29);
  EXPECT_DOUBLE_EQ(c.per_useful_gpu_hour_usd.value(), 2.9);
  EXPECT_DOUBLE_EQ(c.lost_work_usd.value(), 3);
  EXPECT_DOUBLE_EQ(c.overhead_usd.value(), 2);
}

TEST(CostTest, APoolWithoutAnOverrideUsesTheCatalogPriceForItsTier) {
  // H100-SXM spot in the built-in catalog: $2.3125 per GPU-h. 8 GPU-h up -> $18.50.
  const std::vector<PoolSpec> pools = {Pool("spot", PriceTier::kSpot, std::nullopt)};
  const AccountingSummary a = Accounting(pools, {{.useful = 2, .down = 8, .capacity = 16}});
  const CostSummary c = PriceAccounting(a, pools);
  EXPECT_DOUBLE_EQ(c.pools[0].price_per_gpu_hour.value(), 2.3125);
  EXPECT_DOUBLE_EQ(c.total_usd.value(), 18.5);
  EXPECT_DOUBLE_EQ(c.per_useful_gpu_hour_usd.value(), 9.25);
}

TEST(CostTest, NoUsefulTimeLeavesOnlyTheCostPerUsefulHourEmpty) {
  const std::vector<PoolSpec> pools = {Pool("od", PriceTier::kOnDemand, 3.0)};
  const AccountingSummary a = Accounting(pools, {{.idle = 4, .capacity = 4}});
  const CostSummary c = PriceAccounting(a, pools);
  EXPECT_DOUBLE_EQ(c.total_usd.value(), 12);
  EXPECT_FALSE(c.per_useful_gpu_hour_usd.has_value());
}

TEST(CostTest, AnUnpricedPoolLeavesEveryDollarFigureEmpty) {
  // A100-80GB has no catalog price for any tier; the bare {"gpus": N} fleet's pool has none either.
  PoolSpec a100 = testing::CatalogPool("hgx-a100", 1, "a100");
  PoolSpec bare;
  bare.nodes = 1;
  bare.node.gpus_per_node = 4;
  const std::vector<PoolSpec> pools = {Pool("od", PriceTier::kOnDemand, 2.0), a100, bare};
  const AccountingSummary a = Accounting(
      pools, {{.useful = 1, .capacity = 8}, {.useful = 1, .capacity = 8}, {.capacity = 4}});
  const CostSummary c = PriceAccounting(a, pools);

  EXPECT_EQ(c.unpriced_pools, (std::vector<std::string>{"a100", ""}));
  ASSERT_EQ(c.pools.size(), 3U);
  EXPECT_DOUBLE_EQ(c.pools[0].price_per_gpu_hour.value(), 2.0);
  EXPECT_FALSE(c.pools[1].price_per_gpu_hour.has_value());
  EXPECT_DOUBLE_EQ(c.pools[1].billed_gpu_hours, 8);
  for (const PoolCost& pool : c.pools) {
    EXPECT_FALSE(pool.usd.has_value()) << pool.name;
  }
  EXPECT_FALSE(c.total_usd.has_value());
  EXPECT_FALSE(c.on_demand_usd.has_value());
  EXPECT_FALSE(c.reserved_usd.has_value());
  EXPECT_FALSE(c.spot_usd.has_value());
  EXPECT_FALSE(c.per_useful_gpu_hour_usd.has_value());
  EXPECT_FALSE(c.lost_work_usd.has_value());
  EXPECT_FALSE(c.overhead_usd.has_value());
}

}  // namespace
}  // namespace fleetsim
