// Autoscaled on-demand pools, worked by hand: a pool of four HGX H100 nodes keeping one starts
// with three released, provisions two after its 10-minute delay when a 16-GPU job queues,
// releases idle nodes after 30 minutes while more than one is kept, and is billed for the hours
// its nodes were up; from zero nodes, jobs that name an alias or need no GPU still bring a node,
// and only one of two pools serves a job; a pool whose min_nodes is all its nodes runs as if it
// did not scale; and
// the scenario checks refuse autoscaling a spot pool, a rack, a static MIG layout and more
// nodes than the pool has.
#include <gtest/gtest.h>

#include <string>

#include "fleetsim/policy/registry.h"
#include "fleetsim/scenario/runner.h"
#include "fleetsim/scenario/scenario.h"

namespace fleetsim {
namespace {

std::string ScenarioText(const std::string& autoscale) {
  return R"({"format_version": 1, "name": "autoscale", "seed": 1,
    "fleet": {"pools": [{"name": "h100", "template": "hgx-h100", "nodes": 4, "tier": "on-demand")" +
         autoscale + R"(}]},
    "policy": {"name": "fifo"},
    "jobs": [{"id": "a", "submit_s": 0, "gpus": 8, "duration_s": 3600},
             {"id": "b", "submit_s": 0, "gpus": 16, "duration_s": 3600},
             {"id": "c", "submit_s": 20000, "gpus": 8, "duration_s": 600}]})";
}

RunReport RunText(const std::string& text) {
  const PolicyRegistry registry = BuiltinPolicies();
  LoadResult load = ParseScenario(text, "s.json", registry, {});
  EXPECT_TRUE(load.scenario) << load.diagnostics.Format("s.json");
  RunOptions options;
  options.check_invariants = true;
  const RunOutcome outcome =
      RunScenario(*load.scenario, registry, ChoosePolicy(*load.scenario, registry, ""), options);
  EXPECT_TRUE(outcome.status.ok()) << outcome.status.message();
  return outcome.report;
}

TEST(AutoscalingTest, NodesComeUpAfterTheDelayAndIdleOnesAreReleasedAndNotBilled) {
  const RunReport r = RunText(ScenarioText(R"(, "autoscale": {"min_nodes": 1,
      "provisioning_delay_s": 600, "idle_release_s": 1800})"));
  ASSERT_EQ(r.jobs.size(), 3U);
  EXPECT_EQ(r.jobs[0].start, 0);           // a: on the one node kept
  EXPECT_EQ(r.jobs[1].start, 600'000);     // b: on two nodes provisioned at 0
  EXPECT_EQ(r.jobs[2].start, 20'000'000);  // c: on the node kept
  // Up: node 0 from 0 until released at 5,400 s (idle since a ended at 3,600 s); nodes 1 and 2
  // from 600 s, node 2 released at 6,000 s (idle since b ended at 4,200 s), node 1 kept to the
  // end at 20,600 s; node 3 never. 30,800 node-seconds of 8 GPUs.
  const double up_gpu_hours = 30'800.0 * 8 / 3600;
  const AccountingSummary& a = r.accounting;
  EXPECT_NEAR(a.total.capacity - a.total.down, up_gpu_hours, 1e-9);
  ASSERT_TRUE(r.cost.total_usd);
  EXPECT_NEAR(*r.cost.total_usd, up_gpu_hours * 6.88, 1e-6);  // the catalog's on-demand H100
  EXPECT_NEAR(a.total.Accounted(), a.total.capacity, 1e-9);
}

// From zero nodes: a job naming the model by an alias, and one that needs no GPU, still bring a
// node up; two pools that both accept a job do not both provision for it.
TEST(AutoscalingTest, FromNothingEveryQueuedJobBringsANodeAndOnlyOnePoolServesIt) {
  const RunReport r = RunText(R"({"format_version": 1, "name": "zero", "seed": 1,
    "fleet": {"pools": [
      {"name": "a", "template": "hgx-h100", "nodes": 2, "autoscale": {"provisioning_delay_s": 60}},
      {"name": "b", "template": "hgx-h100", "nodes": 2, "autoscale": {"provisioning_delay_s": 60}}]},
    "policy": {"name": "fifo"},
    "jobs": [{"id": "alias", "submit_s": 0, "gpus": 8, "gpu_models": ["H100"], "duration_s": 600},
             {"id": "cpu", "submit_s": 3600, "gpus": 0, "cpu_milli": 1000, "duration_s": 600}]})");
  ASSERT_EQ(r.jobs.size(), 2U);
  EXPECT_EQ(r.jobs[0].start, 60'000);
  EXPECT_GE(r.jobs[1].start, 3'600'000);
  EXPECT_LE(r.jobs[1].start, 3'660'000);
  // One node up for each job, from its provisioning until idle_release_s (600 s) after it ended;
  // had both pools provisioned, the first job would have brought two nodes up.
  const double node_hours = r.accounting.total.capacity - r.accounting.total.down;
  EXPECT_LE(node_hours, 2 * 8 * (600.0 + 600.0 + 60.0) / 3600 + 1e-9);
}

TEST(AutoscalingTest, KeepingEveryNodeRunsAsAFixedPool) {
  const RunReport fixed = RunText(ScenarioText(""));
  const RunReport kept = RunText(ScenarioText(R"(, "autoscale": {"min_nodes": 4})"));
  ASSERT_EQ(fixed.jobs.size(), kept.jobs.size());
  for (std::size_t j = 0; j < fixed.jobs.size(); ++j) {
    EXPECT_EQ(fixed.jobs[j].start, kept.jobs[j].start) << j;
  }
  EXPECT_EQ(fixed.cost.total_usd, kept.cost.total_usd);
  EXPECT_EQ(kept.accounting.total.down, 0);
}

TEST(AutoscalingTest, OnlyOnDemandPoolsOfSingleNodesOfWholeGpusScaleWithinTheirNodes) {
  const PolicyRegistry registry = BuiltinPolicies();
  const LoadResult load = ParseScenario(
      R"({"format_version": 1, "name": "bad", "fleet": {"pools": [
        {"name": "spot", "template": "hgx-h100", "nodes": 2, "tier": "spot", "autoscale": {}},
        {"name": "rack", "template": "gb200-nvl72", "nodes": 18, "autoscale": {}},
        {"name": "od", "template": "hgx-h100", "nodes": 2, "autoscale": {"min_nodes": 3,
         "idle": 60}},
        {"name": "mig", "template": "hgx-h100", "nodes": 2, "mig": {"static": {"7g.80gb": 1}},
         "autoscale": {}}]},
        "jobs": [{"id": "a", "submit_s": 0, "gpus": 1, "duration_s": 60}]})",
      "s.json", registry, {});
  EXPECT_FALSE(load.scenario);
  const std::string m = load.diagnostics.Format("s.json");
  EXPECT_NE(m.find("/fleet/pools/0/autoscale: error: autoscaling needs \"tier\": \"on-demand\""),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("/fleet/pools/1/autoscale: error: autoscaling adds and releases single "
                   "nodes; gb200-nvl72 is built from 18-node NVLink domains"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("/fleet/pools/2/autoscale/min_nodes: error: expected at most the pool's 2 "
                   "nodes, found 3"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("/fleet/pools/2/autoscale/idle: warning: unknown key"), std::string::npos) << m;
  EXPECT_NE(m.find("/fleet/pools/3/autoscale: error: autoscaling counts whole free GPUs, which a "
                   "static MIG layout never has"),
            std::string::npos)
      << m;
}

}  // namespace
}  // namespace fleetsim
