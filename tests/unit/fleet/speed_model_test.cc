// The speed model against the catalog's figures: compute-bound work follows BF16 throughput,
// memory-bound work follows bandwidth, MIG instances get their share, and spanning NVLink
// domains costs the configured factor.
#include "fleetsim/fleet/speed_model.h"

#include <gtest/gtest.h>

#include "fleetsim/fleet/catalog_loader.h"

namespace fleetsim {
namespace {

class SpeedModelTest : public ::testing::Test {
 protected:
  const Catalog catalog_ = BuiltinCatalog();
  const SpeedModel model_{*catalog_.FindGpu("H100-SXM"), {.cross_domain_factor = 0.8}};
};

TEST_F(SpeedModelTest, ReferenceRunsAtOne) {
  EXPECT_DOUBLE_EQ(*model_.GpuSpeed(*catalog_.FindGpu("H100"), WorkBound::kCompute), 1.0);
  EXPECT_DOUBLE_EQ(*model_.GpuSpeed(*catalog_.FindGpu("H100"), WorkBound::kMemory), 1.0);
}

TEST_F(SpeedModelTest, ComputeFollowsBf16AndMemoryFollowsBandwidth) {
  const GpuModel& b200 = *catalog_.FindGpu("B200");
  const GpuModel& h100 = *catalog_.FindGpu("H100");
  EXPECT_DOUBLE_EQ(*model_.GpuSpeed(b200, WorkBound::kCompute),
                   *b200.bf16_dense_tflops / *h100.bf16_dense_tflops);
  EXPECT_DOUBLE_EQ(*model_.GpuSpeed(b200, WorkBound::kMemory),
                   *b200.memory_bandwidth_tbs / *h100.memory_bandwidth_tbs);
  // H200 has H100's tensor cores but more bandwidth: same training speed, faster inference.
  const GpuModel& h200 = *catalog_.FindGpu("H200");
  EXPECT_DOUBLE_EQ(*model_.GpuSpeed(h200, WorkBound::kCompute), 1.0);
  EXPECT_GT(*model_.GpuSpeed(h200, WorkBound::kMemory), 1.4);
}

TEST_F(SpeedModelTest, MissingFiguresGiveNoSpeed) {
  EXPECT_FALSE(model_.GpuSpeed(*catalog_.FindGpu("Rubin"), WorkBound::kCompute).has_value());
  EXPECT_FALSE(model_.GpuSpeed(*catalog_.FindGpu("L40S"), WorkBound::kMemory).has_value());
}

TEST_F(SpeedModelTest, MigInstancesRunAtTheirShare) {
  const GpuModel& h100 = *catalog_.FindGpu("H100");
  EXPECT_DOUBLE_EQ(SpeedModel::MigShare(*h100.FindMigProfile("3g.40gb"), WorkBound::kCompute),
                   3.0 / 7);
  EXPECT_DOUBLE_EQ(SpeedModel::MigShare(*h100.FindMigProfile("3g.40gb"), WorkBound::kMemory),
                   4.0 / 8);
  EXPECT_DOUBLE_EQ(SpeedModel::MigShare(*h100.FindMigProfile("7g.80gb"), WorkBound::kCompute), 1.0);
}

TEST_F(SpeedModelTest, DurationDividesWorkAndChargesCrossDomainPlacement) {
  EXPECT_EQ(model_.Duration(8.0, 8, 1.0, 1), 3'600'000);  // 8 GPU-hours on 8 GPUs: one hour
  EXPECT_EQ(model_.Duration(8.0, 8, 2.0, 1), 1'800'000);
  EXPECT_EQ(model_.Duration(8.0, 8, 1.0, 2), 4'500'000);  // 1 h / 0.8
  EXPECT_EQ(model_.Duration(1e-12, 1, 1.0, 1), 1);        // at least a millisecond
}

}  // namespace
}  // namespace fleetsim
