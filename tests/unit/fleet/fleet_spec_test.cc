// What a pool advertises of its spot reclaims: the declared rate per node-hour plus the waves
// spread over the pool's nodes, capped at every node per wave, and nothing for a pool that is not
// spot (whatever its interruption block says).
#include "fleetsim/fleet/fleet_spec.h"

#include <gtest/gtest.h>

namespace fleetsim {
namespace {

PoolSpec SpotPool(std::int64_t nodes) {
  PoolSpec pool;
  pool.tier = PriceTier::kSpot;
  pool.nodes = nodes;
  pool.spot.per_node_hour = 0.01;
  return pool;
}

TEST(PoolSpecTest, AdvertisedReclaimsAreTheDeclaredRate) {
  EXPECT_DOUBLE_EQ(SpotPool(4).AdvertisedReclaimsPerNodeHour(), 0.01);
}

TEST(PoolSpecTest, WavesAddTheirShareOfTheNodesPerHour) {
  PoolSpec pool = SpotPool(4);
  pool.spot.waves_per_day = 2;
  pool.spot.wave_nodes = 1;  // a wave takes one node of four: a quarter of a reclaim per node
  EXPECT_DOUBLE_EQ(pool.AdvertisedReclaimsPerNodeHour(), 0.01 + 2.0 / 24.0 / 4.0);
  pool.spot.wave_nodes = 10;  // more than the pool has: every node, once per wave
  EXPECT_DOUBLE_EQ(pool.AdvertisedReclaimsPerNodeHour(), 0.01 + 2.0 / 24.0);
}

TEST(PoolSpecTest, APoolThatIsNotSpotAdvertisesNoReclaims) {
  PoolSpec pool = SpotPool(4);
  pool.tier = PriceTier::kOnDemand;
  EXPECT_EQ(pool.AdvertisedReclaimsPerNodeHour(), 0);
  PoolSpec empty = SpotPool(0);
  empty.spot.waves_per_day = 2;
  empty.spot.wave_nodes = 1;
  EXPECT_EQ(empty.AdvertisedReclaimsPerNodeHour(), 0.01);  // no nodes: no wave share
}

}  // namespace
}  // namespace fleetsim
