// The engine's check of every start against the job's request: one illegal start per rule, each
// stopping the run with the exact error text, and legal rich starts going through.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "fleetsim/metrics/job_log.h"
#include "fleetsim/sim/simulation.h"
#include "testutil/fleets.h"
#include "testutil/workloads.h"

namespace fleetsim {
namespace {

// GPUs 0-15: two HGX H100 nodes (nodes 0 and 1, NVLink domains 0 and 1), dynamic MIG, 64 CPU
// cores and 512 GB per node. GPUs 16-23: an HGX H200 node of the spot tier (node 2, domain 2).
FleetSpec Fleet() {
  PoolSpec h100 = testing::DynamicMigH100Pool(2, "h100");
  PoolSpec h200 = testing::CatalogPool("hgx-h200", 1, "h200-spot");
  h200.tier = PriceTier::kSpot;
  return testing::FleetOf({h100, h200});
}

const MigProfile& H100Profile(const std::string& name) {
  static const FleetSpec fleet = Fleet();
  return *fleet.pools[0].gpu.FindMigProfile(name);
}

// A policy that makes one decision at its first call.
class OneDecision final : public Policy {
 public:
  explicit OneDecision(Decision decision) : decision_(std::move(decision)) {}
  std::vector<Decision> Decide(const ClusterView& view, PlacementPlanner& /*planner*/) override {
    if (view.now() > 0) {
      return {};
    }
    return {decision_};
  }

 private:
  Decision decision_;
};

Allocation Gpus(const std::vector<GpuId>& gpus, std::vector<NodeShare> nodes = {}) {
  Allocation a = WholeGpus(gpus);
  a.nodes = std::move(nodes);
  return a;
}

struct IllegalStart {
  const char* name;
  std::function<void(JobRequest&)> shape;  // turns job 'j' (1 GPU, 100 s) into the case's job
  Allocation placement;
  const char* message;  // after "start job 'j' on "
};

class IllegalStartTest : public ::testing::TestWithParam<IllegalStart> {};

TEST_P(IllegalStartTest, StopsTheRunWithTheExactReason) {
  Workload w;
  GetParam().shape(testing::AddJob(w, "j", 0, 1, 100).request);
  ASSERT_TRUE(ProblemsWith(w.jobs[0]).empty());
  Simulation sim(Fleet(), w, std::make_unique<OneDecision>(StartJob{0, GetParam().placement}),
                 "bad");
  const Status status = sim.RunUntilIdle();
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            std::string("policy 'bad' made an illegal decision at 0d 00:00:00.000 "
                        "(decision 1 of this call): start job 'j' on ") +
                GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Rules, IllegalStartTest,
    ::testing::Values(
        IllegalStart{"SizeOutsideTheRange",
                     [](JobRequest& r) {
                       r.gpus = 2;
                       r.max_gpus = 4;
                     },
                     Gpus({0, 1, 2, 3, 4}),
                     "GPUs [0, 1, 2, 3, 4]: the job needs 2 to 4 GPUs, the placement has 5"},
        IllegalStart{"WholeJobGivenAMigInstance", [](JobRequest&) {},
                     Allocation{{Grant::Mig(0, H100Profile("1g.10gb"), 0)}, {}},
                     "MIG 1g.10gb at slice 0 of GPU 0: the job takes whole GPUs (sharing "
                     "'none'), grant 1 is a MIG instance"},
        IllegalStart{"MigJobGivenTwoInstances",
                     [](JobRequest& r) {
                       r.sharing = GpuSharing::kMig;
                       r.gpu_memory_gb = 10;
                     },
                     Allocation{{Grant::Mig(0, H100Profile("1g.10gb"), 0),
                                 Grant::Mig(1, H100Profile("1g.10gb"), 0)},
                                {}},
                     "MIG 1g.10gb at slice 0 of GPU 0 + MIG 1g.10gb at slice 0 of GPU 1: the job "
                     "needs a MIG instance (sharing 'mig'), the placement has 2 GPU grants"},
        IllegalStart{"MigJobGivenAWholeGpu",
                     [](JobRequest& r) {
                       r.sharing = GpuSharing::kMig;
                       r.gpu_memory_gb = 10;
                     },
                     Gpus({0}),
                     "GPUs [0]: the job needs a MIG instance (sharing 'mig'), the grant is a "
                     "whole GPU"},
        IllegalStart{"ShareOfTheWrongSize",
                     [](JobRequest& r) {
                       r.sharing = GpuSharing::kFraction;
                       r.gpu_milli = 500;
                       r.gpu_memory_gb = 10;
                     },
                     Allocation{{Grant::Fraction(0, 300, 10)}, {}},
                     "300 milli-GPU and 10 GB of GPU 0: the job needs a share of 500 milli-GPU "
                     "and 10 GB of GPU memory, the grant has 300 and 10"},
        IllegalStart{"GpuOfAModelTheJobDoesNotAccept",
                     [](JobRequest& r) { r.gpu_models = {"H200"}; }, Gpus({0}),
                     "GPUs [0]: GPU 0 (H100-SXM) is not one of the job's GPU models [H200]"},
        IllegalStart{"SpotGpuForAJobThatIsNotSpotEligible",
                     [](JobRequest& r) { r.spot_eligible = false; }, Gpus({16}),
                     "GPUs [16]: GPU 16 is in spot pool \"h200-spot\" and the job is not "
                     "spot-eligible"},
        IllegalStart{"NvlinkRequiredAcrossTwoDomains",
                     [](JobRequest& r) {
                       r.gpus = 2;
                       r.nvlink = NvlinkLocality::kRequired;
                     },
                     Gpus({7, 8}),
                     "GPUs [7, 8]: the job needs one NVLink domain (nvlink 'required'), its GPUs "
                     "span 2"},
        IllegalStart{"BlockOfThree",
                     [](JobRequest& r) {
                       r.gpus = 2;
                       r.max_gpus = 4;
                       r.pow2_block = true;
                     },
                     Gpus({0, 1, 2}),
                     "GPUs [0, 1, 2]: the job needs a power-of-two block (pow2_block), the "
                     "placement has 3 GPUs"},
        IllegalStart{"BlockWithAGap",
                     [](JobRequest& r) {
                       r.gpus = 2;
                       r.pow2_block = true;
                     },
                     Gpus({0, 2}),
                     "GPUs [0, 2]: the job needs a block of consecutive GPU ids (pow2_block), "
                     "found [0, 2]"},
        IllegalStart{"BlockAcrossDomains",
                     [](JobRequest& r) {
                       r.gpus = 2;
                       r.pow2_block = true;
                     },
                     Gpus({7, 8}),
                     "GPUs [7, 8]: the job needs its block inside one NVLink domain (pow2_block), "
                     "GPUs 7..8 span 2"},
        IllegalStart{"UnalignedBlock",
                     [](JobRequest& r) {
                       r.gpus = 2;
                       r.pow2_block = true;
                     },
                     Gpus({1, 2}),
                     "GPUs [1, 2]: the job needs its block aligned to 2 GPUs within its NVLink "
                     "domain (pow2_block), it starts at position 1 of domain 0"},
        IllegalStart{"MigProfileWithTooLittleMemory",
                     [](JobRequest& r) {
                       r.sharing = GpuSharing::kMig;
                       r.gpu_memory_gb = 20;
                     },
                     Allocation{{Grant::Mig(0, H100Profile("1g.10gb"), 0)}, {}},
                     "MIG 1g.10gb at slice 0 of GPU 0: the job needs a MIG instance with at least "
                     "20 GB of memory, 1g.10gb has 10 GB and 1 of 7 compute slices"},
        IllegalStart{"MigProfileWithTooLittleCompute",
                     [](JobRequest& r) {
                       r.sharing = GpuSharing::kMig;
                       r.gpu_memory_gb = 10;
                       r.gpu_milli = 500;
                     },
                     Allocation{{Grant::Mig(0, H100Profile("2g.20gb"), 0)}, {}},
                     "MIG 2g.20gb at slice 0 of GPU 0: the job needs a MIG instance with at least "
                     "10 GB of memory and 500 milli-GPU of compute, 2g.20gb has 20 GB and 2 of 7 "
                     "compute slices"},
        IllegalStart{"HostNeedNotSplitByGpus",
                     [](JobRequest& r) {
                       r.gpus = 2;
                       r.cpu_milli = 8000;
                     },
                     Gpus({7, 8}, {{0, 8, 0}}),
                     "GPUs [7, 8] + node 0 (8 CPU cores, 0 GB): host CPU and memory are split "
                     "over the job's nodes in proportion to its GPUs there: node 0 should get 4 "
                     "CPU cores and 0 GB (1 of the job's 2 GPUs), the placement gives 8 and 0"},
        IllegalStart{"HostShareOnANodeWithoutTheJobsGpus",
                     [](JobRequest& r) { r.cpu_milli = 8000; }, Gpus({0}, {{1, 8, 0}}),
                     "GPUs [0] + node 1 (8 CPU cores, 0 GB): host CPU and memory are split over "
                     "the job's nodes in proportion to its GPUs there: node 1 holds none of the "
                     "job's GPUs"},
        IllegalStart{"HostShareForAJobWithoutHostNeeds", [](JobRequest&) {},
                     Gpus({0}, {{0, 1, 0}}),
                     "GPUs [0] + node 0 (1 CPU cores, 0 GB): the job asks for no host CPU or "
                     "memory, the placement has 1 node shares"},
        IllegalStart{"CpuOnlyJobGivenAGpu",
                     [](JobRequest& r) {
                       r.gpus = 0;
                       r.cpu_milli = 4000;
                     },
                     Gpus({0}, {{0, 4, 0}}),
                     "GPUs [0] + node 0 (4 CPU cores, 0 GB): a CPU-only job takes no GPUs, the "
                     "placement has 1 GPU grants"},
        IllegalStart{"CpuOnlyJobOnTwoNodes",
                     [](JobRequest& r) {
                       r.gpus = 0;
                       r.cpu_milli = 4000;
                     },
                     Gpus({}, {{0, 2, 0}, {1, 2, 0}}),
                     "node 0 (2 CPU cores, 0 GB) + node 1 (2 CPU cores, 0 GB): a CPU-only job "
                     "takes its host CPU and memory on one node, the placement has 2 node shares"},
        IllegalStart{"CpuOnlyJobGivenTooLittle",
                     [](JobRequest& r) {
                       r.gpus = 0;
                       r.cpu_milli = 4000;
                     },
                     Gpus({}, {{0, 2, 0}}),
                     "node 0 (2 CPU cores, 0 GB): the job needs 4 CPU cores and 0 GB of host "
                     "memory, the placement gives node 0 2 and 0"},
        IllegalStart{"CpuOnlyJobOnASpotNode",
                     [](JobRequest& r) {
                       r.gpus = 0;
                       r.cpu_milli = 4000;
                       r.spot_eligible = false;
                     },
                     Gpus({}, {{2, 4, 0}}),
                     "node 2 (4 CPU cores, 0 GB): node 2 is in spot pool \"h200-spot\" and the "
                     "job is not spot-eligible"},
        IllegalStart{"MigInstanceOnAGpuWithoutMig",
                     [](JobRequest& r) {
                       r.sharing = GpuSharing::kMig;
                       r.gpu_memory_gb = 10;
                     },
                     Allocation{{Grant::Mig(16, H100Profile("1g.10gb"), 0)}, {}},
                     "MIG 1g.10gb at slice 0 of GPU 16: GPU 16 is not a MIG GPU (pool "
                     "\"h200-spot\" has MIG off)"}),
    [](const ::testing::TestParamInfo<IllegalStart>& param_info) { return param_info.param.name; });

TEST(StartCheckTest, LegalRichStartsRunToCompletion) {
  Workload w;
  JobRequest& mig = testing::AddJob(w, "mig", 0, 1, 10).request;
  mig.sharing = GpuSharing::kMig;
  mig.gpu_memory_gb = 10;
  mig.cpu_milli = 2000;
  JobRequest& block = testing::AddJob(w, "block", 0, 4, 10).request;
  block.pow2_block = true;
  block.memory_mib = 8192;
  JobRequest& cpu = testing::AddJob(w, "cpu", 0, 0, 10).request;
  cpu.cpu_milli = 4000;
  SortBySubmit(w);  // block, cpu, mig
  const std::vector<Decision> decisions = {
      StartJob{0, Gpus({12, 13, 14, 15}, {{1, 0, 8}})},
      StartJob{1, Gpus({}, {{0, 4, 0}})},
      StartJob{2, Allocation{{Grant::Mig(0, H100Profile("1g.10gb"), 6)}, {{0, 2, 0}}}},
  };
  class Script final : public Policy {
   public:
    explicit Script(std::vector<Decision> d) : d_(std::move(d)) {}
    std::vector<Decision> Decide(const ClusterView& view, PlacementPlanner& /*planner*/) override {
      return view.now() == 0 ? d_ : std::vector<Decision>{};
    }

   private:
    std::vector<Decision> d_;
  };
  Simulation sim(Fleet(), w, std::make_unique<Script>(decisions), "script");
  JobLog log;
  sim.AddObserver(&log);
  const Status status = sim.RunUntilIdle();
  ASSERT_TRUE(status.ok()) << status.message();
  sim.Finish();
  for (const JobRecordRow& row : log.rows()) {
    EXPECT_EQ(row.state, FinalState::kCompleted) << row.id;
  }
  EXPECT_DOUBLE_EQ(log.rows()[2].gpu_share, 1.0 / 7);
}

}  // namespace
}  // namespace fleetsim
