// The fill experiment (`fleetsim fill`, PlaceArrivals on a SharedCluster) and a scheduling run's
// `share-*` placement strategies (ChoosePlacement on a FleetLedger) are two entry points to one
// node choice (GpuSharePlacer). On real openb nodes and pods, the same arrivals, scorer, typical
// tasks and tie order (lowest node first) must give the same node and GPUs at every step, for
// every deterministic scorer.
#include <gtest/gtest.h>

#include <map>
#include <tuple>

#include "fleetsim/fill/fill_run.h"
#include "fleetsim/fill/fill_workload.h"
#include "fleetsim/ledger/fleet_ledger.h"
#include "fleetsim/policy/placement_choice.h"
#include "fleetsim/policy/placement_strategy.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

// Nodes of the openb list taken (the first ones of the list): enough for every node shape and
// model the list starts with, small enough for a sanitizer build.
constexpr std::size_t kNodesTaken = 120;

// Both sides of the comparison, built from one openb workload: the fleet (one pool per node
// shape, in order of first appearance) and the fill workload with its nodes in that pool order.
struct BothSides {
  FleetSpec fleet;
  FillWorkload fill;
  std::vector<JobRequest> requests;  // by pod index
};

PoolSpec PoolOf(const SharedNode& node, const std::string& model, std::size_t index) {
  PoolSpec pool;
  pool.name = "openb-" + std::to_string(index);
  pool.gpu.name = model;
  pool.gpu.memory_gb = 32;
  pool.node.name = pool.name;
  pool.node.gpu = model;
  pool.node.gpus_per_node = static_cast<int>(node.free.gpu_count);
  pool.node.nvlink_domain_gpus = pool.node.gpus_per_node;
  pool.node.nodes_per_rack = 1;
  pool.cpu_cores = static_cast<double>(node.cpu_capacity_milli) / 1000;
  return pool;
}

JobRequest RequestOf(const FillPod& pod, std::size_t index, const GpuModelNames& models) {
  JobRequest r;
  r.id = pod.name + "#" + std::to_string(index);
  r.cpu_milli = pod.request.cpu_milli;
  r.gpus = pod.request.gpus;
  if (pod.request.IsShare()) {
    r.sharing = GpuSharing::kFraction;
    r.gpu_milli = pod.request.gpu_milli;
  }
  for (int m = 0; m < kMaxGpuModels; ++m) {
    if ((pod.request.models >> m & 1U) != 0) {
      r.gpu_models.push_back(models.names()[static_cast<std::size_t>(m)]);
    }
  }
  return r;
}

BothSides Build(const FillWorkload& openb) {
  BothSides both;
  std::map<std::tuple<std::int64_t, int, std::size_t>, std::size_t> pool_of_shape;
  std::vector<std::vector<SharedNode>> nodes_of_pool;
  for (std::size_t n = 0; n < kNodesTaken; ++n) {
    SharedNode node = openb.nodes[n];
    node.memory_free_mib = std::int64_t{1} << 40;  // memory is left out: units differ
    const auto key = std::make_tuple(node.cpu_capacity_milli, node.free.model, node.free.gpu_count);
    const auto [it, added] = pool_of_shape.try_emplace(key, both.fleet.pools.size());
    if (added) {
      const std::string& model = openb.models.names()[static_cast<std::size_t>(node.free.model)];
      both.fleet.pools.push_back(PoolOf(node, model, it->second));
      nodes_of_pool.emplace_back();
    }
    ++both.fleet.pools[it->second].nodes;
    nodes_of_pool[it->second].push_back(node);
  }
  for (std::size_t p = 0; p < nodes_of_pool.size(); ++p) {
    both.fleet.gpus += both.fleet.pools[p].gpus();
    for (const SharedNode& node : nodes_of_pool[p]) {
      both.fill.nodes.push_back(node);
      both.fill.gpu_capacity_milli += static_cast<std::int64_t>(node.free.gpu_count) * kGpuMilli;
    }
  }
  both.fill.models = openb.models;
  for (std::size_t i = 0; i < openb.pods.size(); ++i) {
    FillPod pod = openb.pods[i];
    pod.request.memory_mib = 0;
    both.fill.pods.push_back(pod);
    both.requests.push_back(RequestOf(pod, i, openb.models));
  }
  return both;
}

const FillWorkload& Openb() {
  static const FillWorkload openb = [] {
    FillWorkload w;
    const std::string dir = testing::SourcePath("../shared/traces/alibaba-openb/");
    const std::string error =
        LoadFillWorkload(DiskFileSystem(), dir + "openb_node_list_gpu_node.csv",
                         dir + "openb_pod_list_gpuspec33.csv", 0.95, w)
            .message();
    EXPECT_EQ(error, "") << "this test needs the openb trace in ../shared/traces";
    return w;
  }();
  return openb;
}

class OnePlacementPathTest : public ::testing::TestWithParam<GpuSharePolicy> {};

TEST_P(OnePlacementPathTest, FillAndScheduleRunPlaceEveryPodAlike) {
  const FillWorkload& openb = Openb();
  ASSERT_GE(openb.nodes.size(), kNodesTaken);
  BothSides both = Build(openb);
  ASSERT_GT(both.fleet.pools.size(), 1U) << "the nodes taken should have several shapes";

  // The scheduling side: every pod noted first, so the ledger's typical tasks are the fill's.
  FleetLedger ledger(both.fleet);
  for (const JobRequest& r : both.requests) {
    ledger.NoteSubmitted(r);
  }
  both.fill.typical = ledger.typical_tasks().typical();
  // The pods' model masks index openb's model list; the ledger indexes models in pool order.
  // Both orders are first appearance in the node list, so they agree.
  for (std::size_t p = 0, n = 0; p < both.fleet.pools.size(); ++p) {
    for (std::int64_t i = 0; i < both.fleet.pools[p].nodes; ++i, ++n) {
      ASSERT_EQ(both.fill.nodes[n].free.model, ledger.typical_tasks().ModelOfPool(p));
    }
  }

  const FillRunOptions options{.policy = GetParam(), .seed = 7, .target_share = 1.3};
  const std::vector<std::size_t> arrivals = FillArrivals(both.fill, options);
  GpuSharePlacer placer(GetParam(), /*tie_rank=*/{}, Rng(1));
  const std::vector<FillStep> steps = PlaceArrivals(both.fill, arrivals, placer);
  ASSERT_EQ(steps.size(), arrivals.size());

  const std::string strategy = "share-" + std::string(GpuSharePolicyName(GetParam()));
  const PlacementStrategy rules = *FindPlacementStrategy(strategy);
  std::int64_t placed = 0;
  for (std::size_t i = 0; i < arrivals.size(); ++i) {
    const JobRequest& r = both.requests[arrivals[i]];
    const std::optional<Allocation> a = ChoosePlacement(ledger, r, rules, std::nullopt);
    ASSERT_EQ(a.has_value(), steps[i].placed) << "pod " << r.id << " at step " << i;
    if (!a) {
      continue;
    }
    ++placed;
    const NodeId node =
        a->gpus.empty() ? a->nodes.at(0).node : ledger.state().NodeOf(a->gpus[0].gpu);
    std::uint32_t gpus = 0;
    for (const Grant& g : a->gpus) {
      gpus |= 1U << (g.gpu - ledger.state().FirstGpuOfNode(node));
    }
    ASSERT_EQ(node, steps[i].node) << "pod " << r.id << " at step " << i;
    ASSERT_EQ(gpus, steps[i].gpus) << "pod " << r.id << " at step " << i;
    ASSERT_EQ(ledger.CheckAllocation(*a).message(), "");
    ledger.Apply(*a);
  }
  EXPECT_GT(placed, static_cast<std::int64_t>(arrivals.size()) / 2);
  EXPECT_LT(placed, static_cast<std::int64_t>(arrivals.size()));  // the cluster filled up
}

std::string NameOf(const ::testing::TestParamInfo<GpuSharePolicy>& info) {
  std::string name(GpuSharePolicyName(info.param));
  std::erase(name, '-');
  return name;
}

INSTANTIATE_TEST_SUITE_P(DeterministicScorers, OnePlacementPathTest,
                         ::testing::Values(GpuSharePolicy::kDotProduct,
                                           GpuSharePolicy::kGpuClustering,
                                           GpuSharePolicy::kGpuPacking, GpuSharePolicy::kBestFit,
                                           GpuSharePolicy::kFgd),
                         NameOf);

}  // namespace
}  // namespace fleetsim
