// The conformance suite every registered policy must pass, run on random workloads:
//  - every decision is legal (the engine checks each one; a run must end ok);
//  - liveness: when the run goes idle, no admissible job is left queued;
//  - no GPU is ever held by two jobs, and no job holds fewer or more GPUs than it asked for;
//  - determinism: the same workload gives the same schedule, job by job.
// A new policy is covered by registering it; nothing here names a policy.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "fleetsim/metrics/job_log.h"
#include "fleetsim/policy/registry.h"
#include "fleetsim/sim/simulation.h"
#include "fleetsim/workload/generator.h"

namespace fleetsim {
namespace {

// Replays JobStarted/JobFinished and fails the test if a GPU is double-booked.
class GpuOwnershipChecker final : public SimulationObserver {
 public:
  explicit GpuOwnershipChecker(std::int64_t gpus) : owner_(static_cast<std::size_t>(gpus), kNone) {}

  void OnJobStarted(const JobStarted& e) override {
    EXPECT_EQ(static_cast<std::int64_t>(e.gpus.size()), e.request.gpus) << e.request.id;
    for (const GpuId g : e.gpus) {
      ASSERT_LT(g, owner_.size());
      EXPECT_EQ(owner_[g], kNone) << "GPU " << g << " double-booked by " << e.request.id;
      owner_[g] = e.job;
    }
    held_[e.job] = {e.gpus.begin(), e.gpus.end()};
  }
  void OnJobFinished(const JobFinished& e) override {
    for (const GpuId g : held_[e.job]) {
      EXPECT_EQ(owner_[g], e.job);
      owner_[g] = kNone;
    }
    held_.erase(e.job);
  }

 private:
  static constexpr JobIndex kNone = UINT32_MAX;
  std::vector<JobIndex> owner_;
  std::map<JobIndex, std::vector<GpuId>> held_;
};

struct Case {
  std::string policy;
  std::uint64_t seed;
};

std::string CaseName(const ::testing::TestParamInfo<Case>& info) {
  std::string name = info.param.policy;
  std::replace(name.begin(), name.end(), '-', '_');
  return fmt::format("{}_seed{}", name, info.param.seed);
}

std::vector<Case> AllCases() {
  std::vector<Case> cases;
  for (const std::string& name : BuiltinPolicies().Names()) {
    for (const std::uint64_t seed : {1U, 2U, 3U}) {
      cases.push_back({name, seed});
    }
  }
  return cases;
}

Workload RandomWorkload(std::uint64_t seed) {
  GeneratorSpec spec;
  spec.jobs = 300;
  spec.mean_interarrival_s = 120;
  spec.duration_median_s = 1800;
  spec.duration_sigma = 1.2;
  spec.gpus = {{1, 2, 3, 4, 8, 16, 40}, {30, 20, 5, 15, 15, 10, 1}};  // 40 > fleet: rejected
  spec.priority = {{1, 2, 3}, {5, 3, 1}};
  Workload w;
  GenerateJobs(spec, RandomStreams(seed, 0), w);
  SortBySubmit(w);
  return w;
}

std::vector<JobRecordRow> RunPolicy(const Case& c, const Workload& w, bool check_gpus) {
  const PolicyRegistry registry = BuiltinPolicies();
  const PolicyInfo* info = registry.Find(c.policy);
  Simulation sim({.gpus = 32}, w, info->make(DefaultParams(*info)), c.policy);
  JobLog log;
  GpuOwnershipChecker checker(32);
  sim.AddObserver(&log);
  if (check_gpus) {
    sim.AddObserver(&checker);
  }
  const RunStatus status = sim.RunUntilIdle();
  EXPECT_TRUE(status.ok) << status.error;
  sim.Finish();
  return log.rows();
}

class PolicyConformanceTest : public ::testing::TestWithParam<Case> {};

TEST_P(PolicyConformanceTest, LegalLiveAndExclusive) {
  const Workload w = RandomWorkload(GetParam().seed);
  const std::vector<JobRecordRow> rows = RunPolicy(GetParam(), w, true);
  for (const JobRecordRow& row : rows) {
    if (row.gpus > 32) {
      EXPECT_EQ(row.state, FinalState::kRejected) << row.id;
    } else {
      EXPECT_EQ(row.state, FinalState::kCompleted) << row.id << ": " << row.reason;
      EXPECT_GE(row.start, row.submit) << row.id;
    }
  }
}

TEST_P(PolicyConformanceTest, Deterministic) {
  const Workload w = RandomWorkload(GetParam().seed);
  const std::vector<JobRecordRow> a = RunPolicy(GetParam(), w, false);
  const std::vector<JobRecordRow> b = RunPolicy(GetParam(), w, false);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].start, b[i].start) << a[i].id;
    EXPECT_EQ(a[i].gpu_ids, b[i].gpu_ids) << a[i].id;
  }
}

INSTANTIATE_TEST_SUITE_P(AllPolicies, PolicyConformanceTest, ::testing::ValuesIn(AllCases()),
                         CaseName);

}  // namespace
}  // namespace fleetsim
