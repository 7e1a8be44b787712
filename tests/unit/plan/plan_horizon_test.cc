// The multi-year view priced by hand: a fleet reserved now against rented and re-planned at
// falling prices, period by period, with the break-even change; and the problems CheckHorizon
// reports (plan_spec_test.cc checks the loader's).
#include "plan/plan_horizon.h"

#include <gtest/gtest.h>

#include <cmath>

namespace fleetsim {
namespace {

// `nodes` 8-GPU nodes of `model` at `tier`, on-demand at 10 USD per GPU-hour, spot at 3.
PoolSpec Pool(const std::string& model, std::int64_t nodes, PriceTier tier) {
  PoolSpec pool;
  pool.name = model + "-pool";
  pool.node.gpus_per_node = 8;
  pool.gpu.name = model;
  pool.gpu.prices = {.on_demand = 10.0, .reserved = std::nullopt, .spot = 3.0};
  pool.nodes = nodes;
  pool.tier = tier;
  return pool;
}

TEST(PlanHorizonTest, ReserveNowAgainstReplanningAtFallingPricesByHand) {
  const FleetSpec fleet{.gpus = 16, .pools = {Pool("H100-SXM", 2, PriceTier::kOnDemand)}};
  const HorizonSpec horizon{.months = 30,
                            .replan_every_months = 12,
                            .yearly_price_change = {{"H100-SXM", -0.2}},
                            .reserved_price_per_gpu_hour = {{"H100-SXM", 6.0}}};
  const HorizonCost cost = CostOverHorizon(horizon, fleet);
  EXPECT_DOUBLE_EQ(cost.reserve_now_usd, 16 * 6.0 * 30 * 730);  // 2,102,400
  ASSERT_EQ(cost.periods.size(), 3U);
  EXPECT_EQ(cost.periods[2].start_month, 24);
  EXPECT_EQ(cost.periods[2].months, 6);  // the last period ends with the horizon
  EXPECT_DOUBLE_EQ(cost.periods[0].cost_usd, 16 * 10.0 * 12 * 730);
  EXPECT_NEAR(cost.periods[1].price_factor, 0.8, 1e-12);
  EXPECT_NEAR(cost.periods[1].cost_usd, 16 * 8.0 * 12 * 730, 1e-6);
  EXPECT_NEAR(cost.periods[2].cost_usd, 16 * 6.4 * 6 * 730, 1e-6);
  EXPECT_NEAR(cost.replan_usd, 2'971'392, 1e-6);
  // Break-even: 1 + f + f^2 / 2 = 2,102,400 / 1,401,600 with f = 1 + change: f = sqrt(2) - 1.
  ASSERT_TRUE(cost.break_even_yearly_change);
  EXPECT_NEAR(*cost.break_even_yearly_change, std::sqrt(2.0) - 2, 1e-9);
}

// Spot capacity cannot be reserved: both paths rent the spot pool, re-priced yearly. A pool
// planned as reserved keeps its own price when reserved now, and is re-priced when re-planned.
TEST(PlanHorizonTest, SpotPoolsAreRentedOnBothPathsAndAReservedPoolKeepsItsOwnPrice) {
  PoolSpec reserved = Pool("H200", 1, PriceTier::kReserved);
  reserved.price_per_gpu_hour = 4.0;
  const FleetSpec fleet{.gpus = 16,
                        .pools = {Pool("H100-SXM", 1, PriceTier::kSpot), reserved,
                                  Pool("B200", 0, PriceTier::kOnDemand)}};
  const HorizonSpec horizon{.months = 24, .yearly_price_change = {{"default", -0.5}}};
  const HorizonCost cost = CostOverHorizon(horizon, fleet);
  const double year = 12 * 730;
  const double spot = 8 * 3.0 * year * (1 + 0.5);
  EXPECT_DOUBLE_EQ(cost.reserve_now_usd, 8 * 4.0 * 2 * year + spot);
  EXPECT_DOUBLE_EQ(cost.replan_usd, 8 * 4.0 * year * (1 + 0.5) + spot);
  // Renting the H200 pool costs what reserving it does when its price stays put.
  ASSERT_TRUE(cost.break_even_yearly_change);
  EXPECT_NEAR(*cost.break_even_yearly_change, 0, 1e-9);
  EXPECT_TRUE(CheckHorizon(horizon, {&fleet}).empty())
      << "neither the spot pool nor the empty B200 pool needs a reserved price";
}

TEST(PlanHorizonTest, AModelWithoutAReservedPriceAndAMisspeltModelAreNamedWithTheFix) {
  const FleetSpec fleet{.gpus = 16,
                        .pools = {Pool("B200", 1, PriceTier::kOnDemand),
                                  Pool("H100-SXM", 1, PriceTier::kOnDemand)}};
  HorizonSpec horizon{.months = 24,
                      .yearly_price_change = {{"H100", -0.2}, {"default", -0.1}},
                      .reserved_price_per_gpu_hour = {{"H100-SXM", 5.0}}};
  const std::vector<std::string> problems = CheckHorizon(horizon, {&fleet});
  ASSERT_EQ(problems.size(), 2U);
  EXPECT_NE(problems[0].find("the catalog gives B200 no reserved price"), std::string::npos);
  EXPECT_NE(problems[0].find(R"("reserved_price_per_gpu_hour": {"B200": USD})"),
            std::string::npos)
      << problems[0];
  EXPECT_NE(problems[1].find("/horizon/yearly_price_change/H100: expected a GPU model of the "
                             "candidate fleets (B200, H100-SXM, or \"default\"), found 'H100'"),
            std::string::npos)
      << problems[1];
  horizon.yearly_price_change.erase("H100");
  horizon.reserved_price_per_gpu_hour["B200"] = 9.0;
  EXPECT_TRUE(CheckHorizon(horizon, {&fleet}).empty());

  FleetSpec unpriced = fleet;
  unpriced.pools[0].gpu.prices.on_demand = std::nullopt;
  const std::vector<std::string> rent = CheckHorizon(horizon, {&unpriced});
  ASSERT_EQ(rent.size(), 1U);
  EXPECT_NE(rent[0].find("pool 'B200-pool' has no price at its tier"), std::string::npos)
      << rent[0];
}

}  // namespace
}  // namespace fleetsim
