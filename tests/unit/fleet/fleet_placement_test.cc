// Placement over the full fleet state: fractional best fit packs shares onto the fullest GPU
// that fits, and MIG slots are found in static layouts first, then on GPUs already in MIG mode,
// then on idle dynamic GPUs.
#include <gtest/gtest.h>

#include "fleetsim/fleet/catalog_loader.h"
#include "fleetsim/fleet/placement.h"
#include "testutil/fleets.h"

namespace fleetsim {
namespace {

PoolSpec H100Pool(const std::string& name, MigMode mig) {
  PoolSpec pool = testing::CatalogPool("hgx-h100", 1, name);
  pool.mig = mig;
  if (mig == MigMode::kStatic) {
    pool.mig_layout = {{"3g.40gb", 2}};
  }
  return pool;
}

class FleetPlacementTest : public ::testing::Test {
 protected:
  FleetPlacementTest()
      : catalog_(BuiltinCatalog()), spec_(Spec()), topology_(spec_), state_(spec_, topology_) {}

  // GPUs 0-7: plain; 8-15: dynamic MIG; 16-23: static 2 x 3g.40gb.
  static FleetSpec Spec() {
    return testing::FleetOf({H100Pool("plain", MigMode::kOff),
                             H100Pool("dynamic", MigMode::kDynamic),
                             H100Pool("static", MigMode::kStatic)});
  }

  void Take(const Allocation& a) {
    ASSERT_EQ(state_.CheckAllocation(a).message(), "");
    state_.Apply(a);
  }

  const MigProfile& Profile(const std::string& name) const {
    return *catalog_.FindGpu("H100-SXM")->FindMigProfile(name);
  }

  Catalog catalog_;
  FleetSpec spec_;
  Topology topology_;
  FleetState state_;
};

TEST_F(FleetPlacementTest, FractionalBestFitPacksOntoTheFullestGpuThatFits) {
  EXPECT_EQ(FindFractionalBestFit(state_, 500, 10), 0U);  // all free: lowest GPU
  Take({{Grant::Fraction(3, 700, 40)}, {}});
  Take({{Grant::Fraction(5, 400, 10)}, {}});
  EXPECT_EQ(FindFractionalBestFit(state_, 300, 10), 3U);  // 300 free on GPU 3: tightest
  EXPECT_EQ(FindFractionalBestFit(state_, 300, 50), 5U);  // GPU 3 has only 40 GB left
  EXPECT_EQ(FindFractionalBestFit(state_, 500, 10), 5U);
  EXPECT_EQ(FindFractionalBestFit(state_, 1000, 81), std::nullopt);  // more than a GPU's memory
}

TEST_F(FleetPlacementTest, MigSlotsComeFromStaticLayoutsFirst) {
  const auto slot = FindMigSlot(state_, "3g.40gb");
  ASSERT_TRUE(slot.has_value());
  EXPECT_EQ(slot->gpu, 16U);
  EXPECT_EQ(slot->start, 0);
  Take({{Grant::Mig(16, Profile("3g.40gb"), 0)}, {}});
  EXPECT_EQ(FindMigSlot(state_, "3g.40gb")->start, 4);
}

TEST_F(FleetPlacementTest, MigSlotsPackOntoGpusAlreadyInMigModeBeforeIdleOnes) {
  const auto first = FindMigSlot(state_, "1g.10gb");  // no static 1g: an idle dynamic GPU
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->gpu, 8U);
  Take({{Grant::Mig(9, Profile("2g.20gb"), 0)}, {}});  // GPU 9 enters MIG mode
  const auto packed = FindMigSlot(state_, "1g.10gb");
  ASSERT_TRUE(packed.has_value());
  EXPECT_EQ(packed->gpu, 9U);
  EXPECT_EQ(state_.CheckAllocation({{Grant::Mig(packed->gpu, *packed->profile, packed->start)}, {}})
                .message(),
            "");
}

TEST_F(FleetPlacementTest, NoSlotForAProfileNoGpuHasOrWhenAllAreTaken) {
  EXPECT_EQ(FindMigSlot(state_, "3g.4gb"), std::nullopt);
  for (GpuId gpu = 8; gpu < 16; ++gpu) {
    Take({{Grant::Whole(gpu)}, {}});
  }
  Take({{Grant::Mig(16, Profile("3g.40gb"), 0), Grant::Mig(16, Profile("3g.40gb"), 4)}, {}});
  EXPECT_EQ(FindMigSlot(state_, "7g.80gb"), std::nullopt);  // static GPUs hold 3g only
  EXPECT_EQ(FindMigSlot(state_, "3g.40gb")->gpu, 17U);
}

}  // namespace
}  // namespace fleetsim
