// Admission: jobs that can never run on the fleet are rejected at arrival with a reason naming the
// rule; jobs that can run are admitted and, under fifo, run.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "fleetsim/metrics/job_log.h"
#include "fleetsim/policy/registry.h"
#include "fleetsim/sim/simulation.h"
#include "testutil/fleets.h"
#include "testutil/workloads.h"

namespace fleetsim {
namespace {

// GPUs 0-15: two HGX H100 nodes, dynamic MIG, 64 cores and 512 GB per node. GPUs 16-23: HGX H200
// of the spot tier. GPUs 24-31: H100 NVL pairs with the static layout 4g.47gb + 3g.47gb.
FleetSpec Fleet() {
  PoolSpec h100 = testing::DynamicMigH100Pool(2, "h100");
  PoolSpec h200 = testing::CatalogPool("hgx-h200", 1, "h200-spot");
  h200.tier = PriceTier::kSpot;
  h200.cpu_cores = 32;
  h200.memory_gb = 256;
  PoolSpec nvl = testing::CatalogPool("h100-nvl-pairs", 1, "nvl-mig");
  nvl.mig = MigMode::kStatic;
  nvl.mig_layout = {{"4g.47gb", 1}, {"3g.47gb", 1}};
  nvl.cpu_cores = 32;
  nvl.memory_gb = 256;
  return testing::FleetOf({h100, h200, nvl});
}

std::unique_ptr<Policy> Fifo() {
  const PolicyRegistry registry = BuiltinPolicies();
  const PolicyInfo* info = registry.Find("fifo");
  return info->make(DefaultParams(*info));
}

struct Verdict {
  const char* name;
  std::function<void(JobRequest&)> shape;  // turns job 'j' (1 GPU) into the case's job
  const char* reason;                      // "" = admitted (and then completed under fifo)
};

class AdmissionTest : public ::testing::TestWithParam<Verdict> {};

TEST_P(AdmissionTest, RejectsExactlyTheJobsThatCanNeverRun) {
  Workload w;
  GetParam().shape(testing::AddJob(w, "j", 0, 1, 100).request);
  ASSERT_TRUE(ProblemsWith(w.jobs[0]).empty());
  Simulation sim(Fleet(), w, Fifo(), "fifo");
  JobLog log;
  sim.AddObserver(&log);
  const Status status = sim.RunUntilIdle();
  ASSERT_TRUE(status.ok()) << status.message();
  sim.Finish();
  const JobRecordRow& row = log.rows()[0];
  if (std::string(GetParam().reason).empty()) {
    EXPECT_EQ(row.state, FinalState::kCompleted) << row.reason;
  } else {
    EXPECT_EQ(row.state, FinalState::kRejected);
    EXPECT_EQ(row.reason, GetParam().reason);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Requests, AdmissionTest,
    ::testing::Values(
        Verdict{"PlainJobTooLarge", [](JobRequest& r) { r.gpus = 25; },
                "needs 25 GPUs; the fleet has 24 that can be allocated whole (8 more are "
                "MIG-partitioned)"},
        Verdict{"PlainElasticJobWhoseMinimumFits",
                [](JobRequest& r) {
                  r.gpus = 16;
                  r.max_gpus = 64;
                },
                ""},
        Verdict{"ModelAbsentFromTheFleet", [](JobRequest& r) { r.gpu_models = {"A100-80GB"}; },
                "needs a GPU model in [A100-80GB]; the fleet has [H100-NVL, H100-SXM, H200]"},
        Verdict{"ModelByAlias", [](JobRequest& r) { r.gpu_models = {"H100"}; }, ""},
        Verdict{"MoreGpusThanTheAcceptedModelHas",
                [](JobRequest& r) {
                  r.gpus = 9;
                  r.gpu_models = {"H200"};
                },
                "needs 9 GPUs; the fleet has 8 of a model in [H200] that can be allocated whole"},
        Verdict{"OnlySpotGpusForAJobThatIsNotSpotEligible",
                [](JobRequest& r) {
                  r.gpu_models = {"H200"};
                  r.spot_eligible = false;
                },
                "needs GPUs outside spot pools (not spot-eligible); every GPU of a model it "
                "accepts is in a spot pool"},
        Verdict{"TooLargeWithoutSpot",
                [](JobRequest& r) {
                  r.gpus = 17;
                  r.spot_eligible = false;
                },
                "needs 17 GPUs; the fleet has 16 outside spot pools that can be allocated whole"},
        Verdict{"BlockLargerThanAnyDomain",
                [](JobRequest& r) {
                  r.gpus = 16;
                  r.pow2_block = true;
                },
                "needs a block of 16 GPUs in one NVLink domain; the largest domain it can use "
                "has 8"},
        Verdict{"NvlinkRequiredLargerThanAnyDomain",
                [](JobRequest& r) {
                  r.gpus = 12;
                  r.nvlink = NvlinkLocality::kRequired;
                },
                "needs 12 GPUs in one NVLink domain (nvlink 'required'); the largest domain it "
                "can use has 8"},
        Verdict{"MigMemoryBeyondEveryProfile",
                [](JobRequest& r) {
                  r.sharing = GpuSharing::kMig;
                  r.gpu_memory_gb = 100;
                  r.gpu_models = {"H100-SXM", "H100-NVL"};
                },
                "needs a MIG instance with at least 100 GB of memory; the largest profile it can "
                "use is 7g.80gb (80 GB, 7 of 7 compute slices)"},
        Verdict{"MigOnAModelWithoutMigEnabled",
                [](JobRequest& r) {
                  r.sharing = GpuSharing::kMig;
                  r.gpu_memory_gb = 10;
                  r.gpu_models = {"H200"};
                },
                "needs a MIG instance; no GPU it can use has MIG enabled"},
        Verdict{"MigFromAStaticLayout",
                [](JobRequest& r) {
                  r.sharing = GpuSharing::kMig;
                  r.gpu_memory_gb = 40;
                  r.gpu_models = {"H100-NVL"};
                },
                ""},
        Verdict{"FractionWithMoreMemoryThanAnyGpu",
                [](JobRequest& r) {
                  r.sharing = GpuSharing::kFraction;
                  r.gpu_milli = 500;
                  r.gpu_memory_gb = 200;
                },
                "needs 200 GB of GPU memory with its share; the largest GPU it can use has 141 "
                "GB"},
        Verdict{"FractionOnlyOnStaticMigGpus",
                [](JobRequest& r) {
                  r.sharing = GpuSharing::kFraction;
                  r.gpu_milli = 500;
                  r.gpu_models = {"H100-NVL"};
                },
                "needs a fractional GPU share; every GPU it can use is in a static-MIG pool"},
        Verdict{"CpuOnlyBeyondEveryNode",
                [](JobRequest& r) {
                  r.gpus = 0;
                  r.cpu_milli = 100'000;
                },
                "needs 100 CPU cores and 0 GB of host memory on one node; the largest node it can "
                "use has 64 CPU cores and 512 GB"},
        Verdict{"CpuOnlyThatFits",
                [](JobRequest& r) {
                  r.gpus = 0;
                  r.cpu_milli = 48'000;
                  r.memory_mib = 1024 * 300;
                },
                ""},
        Verdict{"OneGpuWithMoreHostCpuThanItsNode",
                [](JobRequest& r) {
                  r.cpu_milli = 80'000;
                  r.gpu_models = {"H100"};
                },
                "needs 80 CPU cores and 0 GB of host memory beside its GPU; the largest node it "
                "can use has 64 CPU cores and 512 GB"},
        Verdict{"EightGpusWithMoreHostCpuThanANode",
                [](JobRequest& r) {
                  r.gpus = 8;
                  r.nvlink = NvlinkLocality::kRequired;
                  r.cpu_milli = 80'000;
                },
                "needs 80 CPU cores and 0 GB of host memory, split over the nodes of its GPUs in "
                "proportion to its GPUs on each; the built-in placement, which sizes every node "
                "for as many of the job's GPUs as it holds, finds none on the empty fleet"},
        Verdict{"SixteenGpusSplittingTheirHostCpuOverTwoNodes",
                [](JobRequest& r) {
                  r.gpus = 16;
                  r.gpu_models = {"H100"};
                  r.cpu_milli = 120'000;
                },
                ""}),
    [](const ::testing::TestParamInfo<Verdict>& param_info) { return param_info.param.name; });

TEST(AdmissionTest, CpuOnlyJobGivenWorkIsRejected) {
  Workload w;
  testing::AddWorkJob(w, "cpu", 0, 0, 1.0).request.cpu_milli = 1000;
  Simulation sim(Fleet(), w, Fifo(), "fifo");
  JobLog log;
  sim.AddObserver(&log);
  ASSERT_TRUE(sim.RunUntilIdle().ok());
  sim.Finish();
  EXPECT_EQ(log.rows()[0].reason,
            "needs duration_s: a CPU-only job has no GPUs to measure work_gpu_hours on");
}

}  // namespace
}  // namespace fleetsim
