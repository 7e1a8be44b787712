// Run times: a duration is the run time wherever the job lands; work in reference GPU-hours is
// converted by the speed model on the GPUs the job got (slowest GPU, MIG and fractional shares,
// compute- or memory-bound by kind, the cross-domain factor, millisecond rounding).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "fleetsim/fleet/catalog_loader.h"
#include "fleetsim/metrics/job_log.h"
#include "fleetsim/policy/registry.h"
#include "fleetsim/sim/simulation.h"
#include "testutil/fleets.h"
#include "testutil/workloads.h"

namespace fleetsim {
namespace {

SimulationOptions WithH100Reference() {
  return {.reference_gpu = *BuiltinCatalog().FindGpu("H100-SXM"), .speed = {}};
}

// Runs the workload under fifo and returns each job's run time in milliseconds.
std::vector<SimDuration> RunTimes(const FleetSpec& fleet, const Workload& w,
                                  const SimulationOptions& options = WithH100Reference()) {
  const PolicyRegistry registry = BuiltinPolicies();
  const PolicyInfo* fifo = registry.Find("fifo");
  Simulation sim(fleet, w, fifo->make(DefaultParams(*fifo)), "fifo", options);
  JobLog log;
  sim.AddObserver(&log);
  const Status status = sim.RunUntilIdle();
  EXPECT_TRUE(status.ok()) << status.message();
  sim.Finish();
  std::vector<SimDuration> times;
  for (const JobRecordRow& row : log.rows()) {
    EXPECT_EQ(row.state, FinalState::kCompleted) << row.id << ": " << row.reason;
    times.push_back(row.end - row.start);
  }
  return times;
}

FleetSpec Pool(const std::string& template_name, MigMode mig = MigMode::kOff) {
  PoolSpec pool = testing::CatalogPool(template_name, 1);
  pool.mig = mig;
  return testing::FleetOf({pool});
}

// work / (GPUs x speed x factor) hours, rounded up to the millisecond, as the speed model says.
SimDuration Expected(double work_gpu_hours, double gpus, double speed, double factor = 1.0) {
  return static_cast<SimDuration>(
      std::ceil(work_gpu_hours / (gpus * speed * factor) * 3'600'000.0));
}

TEST(RunTimeTest, WorkOnReferenceGpusTakesWorkOverGpus) {
  Workload w;
  testing::AddWorkJob(w, "one", 0, 1, 2.0);
  testing::AddWorkJob(w, "two", 0, 2, 2.0);
  EXPECT_EQ(RunTimes(Pool("hgx-h100"), w), (std::vector<SimDuration>{7'200'000, 3'600'000}));
}

TEST(RunTimeTest, FasterModelsRunComputeBoundWorkByTensorThroughput) {
  Workload w;
  testing::AddWorkJob(w, "train", 0, 1, 1.0).request.kind = JobKind::kPretraining;
  EXPECT_EQ(RunTimes(Pool("hgx-b200"), w),
            (std::vector<SimDuration>{Expected(1, 1, 2250.0 / 989.0)}));
}

TEST(RunTimeTest, InferenceKindsAreMemoryBound) {
  Workload w;
  testing::AddWorkJob(w, "serve", 0, 1, 1.0).request.kind = JobKind::kBatchInference;
  EXPECT_EQ(RunTimes(Pool("hgx-h200"), w), (std::vector<SimDuration>{Expected(1, 1, 4.8 / 3.35)}));
}

TEST(RunTimeTest, MigInstancesAndSharesRunAtTheirShare) {
  Workload w;
  JobRequest& mig = testing::AddWorkJob(w, "a-mig", 0, 1, 1.0).request;
  mig.sharing = GpuSharing::kMig;
  mig.gpu_memory_gb = 40;  // 3g.40gb: 3 of 7 compute slices
  JobRequest& share = testing::AddWorkJob(w, "b-share", 0, 1, 1.0).request;
  share.sharing = GpuSharing::kFraction;
  share.gpu_milli = 500;
  EXPECT_EQ(RunTimes(Pool("hgx-h100", MigMode::kDynamic), w),
            (std::vector<SimDuration>{Expected(1, 1, 3.0 / 7), 7'200'000}));
}

TEST(RunTimeTest, TheSlowestGpuAndTheCrossDomainFactorSetTheSpeed) {
  // 9 GPUs: 8 H100 (domain 0) + 1 B200 (domain 1): speed 1 (H100) x 9 GPUs x 0.8.
  Workload w;
  testing::AddWorkJob(w, "wide", 0, 9, 9.0);
  const FleetSpec fleet =
      testing::FleetOf({testing::CatalogPool("hgx-h100", 1), testing::CatalogPool("hgx-b200", 1)});
  EXPECT_EQ(RunTimes(fleet, w), (std::vector<SimDuration>{Expected(9, 9, 1, 0.8)}));
}

TEST(RunTimeTest, WithoutAReferenceEveryGpuRunsAtReferenceSpeed) {
  Workload w;
  testing::AddWorkJob(w, "train", 0, 1, 1.0);
  EXPECT_EQ(RunTimes(Pool("hgx-b200"), w, {}), (std::vector<SimDuration>{3'600'000}));
}

TEST(RunTimeTest, DurationsDoNotDependOnWhereTheJobLands) {
  Workload w;
  testing::AddJob(w, "fixed", 0, 1, 100);
  EXPECT_EQ(RunTimes(Pool("hgx-b200"), w), (std::vector<SimDuration>{100'000}));
}

TEST(RunTimeTest, TinyWorkRoundsUpToOneMillisecond) {
  Workload w;
  testing::AddWorkJob(w, "tiny", 0, 1, 1e-9);
  EXPECT_EQ(RunTimes(Pool("hgx-h100"), w), (std::vector<SimDuration>{1}));
}

}  // namespace
}  // namespace fleetsim
