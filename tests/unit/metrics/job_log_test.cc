// JobLog: what each row records of the request and of the placement the job got (pools, tiers,
// nodes, run time), on a fleet of catalog pools, and moving the rows out.
#include "fleetsim/metrics/job_log.h"

#include <gtest/gtest.h>

#include "fleetsim/policy/registry.h"
#include "fleetsim/sim/simulation.h"
#include "testutil/fleets.h"
#include "testutil/workloads.h"

namespace fleetsim {
namespace {

TEST(JobLogTest, RowsRecordTheRequestAndWhatTheJobGot) {
  // GPUs 0-7: HGX H100, dynamic MIG (domain 0); GPUs 8-15: HGX B200 (domain 1).
  PoolSpec h100 = testing::CatalogPool("hgx-h100", 1);
  h100.mig = MigMode::kDynamic;
  Workload w;
  JobRequest& wide = testing::AddJob(w, "a-wide", 0, 12, 10).request;
  wide.tenant = "llm";
  wide.priority_class = "prod";
  wide.kind = JobKind::kPretraining;
  wide.max_gpus = 16;
  JobRequest& mig = testing::AddJob(w, "b-mig", 100, 1, 10).request;
  mig.sharing = GpuSharing::kMig;
  mig.gpu_memory_gb = 20;
  mig.cpu_milli = 2000;
  const PolicyRegistry registry = BuiltinPolicies();
  const PolicyInfo* fifo = registry.Find("fifo");
  Simulation sim(testing::FleetOf({h100, testing::CatalogPool("hgx-b200", 1)}), w,
                 fifo->make(DefaultParams(*fifo)), "fifo");
  JobLog log;
  sim.AddObserver(&log);
  ASSERT_TRUE(sim.RunUntilIdle().ok());
  sim.Finish();

  const std::vector<JobRecordRow> rows = log.TakeRows();
  EXPECT_TRUE(log.rows().empty());
  ASSERT_EQ(rows.size(), 2U);
  const JobRecordRow& a = rows[0];
  EXPECT_EQ(a.tenant, "llm");
  EXPECT_EQ(a.priority_class, "prod");
  EXPECT_EQ(a.kind, JobKind::kPretraining);
  EXPECT_EQ(a.max_gpus, 16);
  EXPECT_EQ(a.gpus_allocated, 16);  // the largest size of its range
  EXPECT_DOUBLE_EQ(a.gpu_share, 16);
  EXPECT_EQ(a.domains, 2);
  EXPECT_EQ(a.gpu_models, "B200|H100-SXM");
  EXPECT_EQ(a.pools, "hgx-h100|hgx-b200");  // in fleet order
  EXPECT_EQ(a.tiers, "on-demand");          // distinct
  EXPECT_EQ(a.nodes, "0 1");
  EXPECT_EQ(a.run_time, a.end - a.start);
  const JobRecordRow& b = rows[1];
  EXPECT_EQ(b.sharing, GpuSharing::kMig);
  EXPECT_EQ(b.cpu_milli, 2000);
  EXPECT_EQ(b.gpus_allocated, 1);
  EXPECT_DOUBLE_EQ(b.gpu_share, 1.0 / 7);  // 1g.20gb: 1 of 7 compute slices
  EXPECT_EQ(b.gpu_models, "H100-SXM");
  EXPECT_EQ(b.pools, "hgx-h100");
  EXPECT_EQ(b.nodes, "0");
  EXPECT_GT(b.run_time, 0);
  EXPECT_EQ(b.state, FinalState::kCompleted);
}

}  // namespace
}  // namespace fleetsim
