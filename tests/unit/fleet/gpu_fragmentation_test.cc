// GPU fragmentation (Weng et al., ATC'23) on hand-worked nodes, the typical-task rule on a small
// list, and the empty openb cluster against the paper artifact's shipped x = 0 values (read from
// ../shared/traces when present; skipped with a message otherwise).
#include "fleetsim/fleet/gpu_fragmentation.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "fleetsim/scenario/catalog_loader.h"
#include "fleetsim/trace/alibaba_openb.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

TaskShape Task(std::int64_t cpu, std::int64_t gpu_milli, std::int64_t gpus,
               std::vector<std::string> models = {}) {
  return {.cpu_milli = cpu, .gpu_milli = gpu_milli, .gpus = gpus, .models = std::move(models)};
}

// A V100 node with 8 CPUs and four GPUs: free 1000, 1000, 600, 200 milli (idle 2800).
NodeFreeState PartlyUsedNode() {
  return {.cpu_free_milli = 8000, .model = "V100M32", .gpu_free = {1000, 1000, 600, 200}};
}

TEST(GpuFragmentationTest, ATaskThatFitsLeavesOnlyTheGpusTooSmallForItFragmented) {
  const NodeFreeState node = PartlyUsedNode();
  EXPECT_EQ(IdleMilli(node), 2800);
  // 500 milli on one GPU fits (three GPUs have >= 500): only the 200 is too small.
  EXPECT_EQ(FragmentedMilli(node, Task(1000, 500, 1)), 200);
  // A whole GPU fits (two free): 600 + 200 are too small.
  EXPECT_EQ(FragmentedMilli(node, Task(1000, 1000, 1)), 800);
  // Two whole GPUs fit too.
  EXPECT_EQ(FragmentedMilli(node, Task(1000, 1000, 2)), 800);
}

TEST(GpuFragmentationTest, ATaskThatCannotRunThereLeavesAllIdleGpuFragmented) {
  const NodeFreeState node = PartlyUsedNode();
  EXPECT_EQ(FragmentedMilli(node, Task(1000, 1000, 4)), 2800);         // too few free GPUs
  EXPECT_EQ(FragmentedMilli(node, Task(9000, 100, 1)), 2800);          // too little CPU
  EXPECT_EQ(FragmentedMilli(node, Task(1000, 100, 1, {"T4"})), 2800);  // wrong model
  EXPECT_EQ(FragmentedMilli(node, Task(1000, 100, 1, {"T4", "V100M32"})), 0);
  EXPECT_EQ(FragmentedMilli(node, Task(1000, 0, 0)), 2800);     // CPU-only: no GPU need at all
  EXPECT_EQ(FragmentedMilli(node, Task(1000, 1000, 8)), 2800);  // more GPUs than the node has
  const NodeFreeState full = {.cpu_free_milli = 0, .model = "T4", .gpu_free = {0, 0}};
  EXPECT_EQ(FragmentedMilli(full, Task(1000, 500, 1)), 0);  // nothing idle, nothing fragmented
}

TEST(GpuFragmentationTest, ANodesFragmentationIsTheExpectationOverTypicalTasks) {
  // 0.5 x 200 (500-milli task) + 0.3 x 800 (whole GPU) + 0.2 x 2800 (CPU-only) = 900.
  const TypicalTasks typical = {
      {Task(1000, 500, 1), 0.5}, {Task(1000, 1000, 1), 0.3}, {Task(2000, 0, 0), 0.2}};
  EXPECT_DOUBLE_EQ(NodeFragmentation(PartlyUsedNode(), typical), 900);
}

TEST(GpuFragmentationTest, TypicalTasksAreTheMostCommonShapesUpToThePopularity) {
  // 10 tasks: A x4, B x3, C x2, D x1. At 0.7 the threshold is 7: A (4) then B (7 reaches it).
  const TaskShape a = Task(1000, 500, 1);
  const TaskShape b = Task(2000, 1000, 1);
  const TaskShape c = Task(4000, 0, 0);
  const TaskShape d = Task(1000, 1000, 2, {"T4"});
  std::vector<TaskShape> tasks = {a, b, a, c, b, a, d, c, b, a};
  const TypicalTasks typical = ComputeTypicalTasks(tasks, 0.7);
  ASSERT_EQ(typical.size(), 2U);
  EXPECT_EQ(typical[0].shape, a);
  EXPECT_DOUBLE_EQ(typical[0].weight, 4.0 / 7);
  EXPECT_EQ(typical[1].shape, b);
  EXPECT_DOUBLE_EQ(typical[1].weight, 3.0 / 7);
  // At 0.75 (7.5) C is needed too: weights over 9. Equal counts go to the larger shape first:
  // with one more D, C (cpu 4000) and D (cpu 1000) both have 2 and C comes first.
  tasks.push_back(d);
  const TypicalTasks more = ComputeTypicalTasks(tasks, 0.75);
  ASSERT_EQ(more.size(), 3U);
  EXPECT_EQ(more[2].shape, c);
  EXPECT_DOUBLE_EQ(more[2].weight, 2.0 / 9);
  EXPECT_TRUE(ComputeTypicalTasks({}, 0.95).empty());
}

// ---- The empty openb cluster -----------------------------------------------------------------

// The task shapes of an openb pod list (name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,...).
std::vector<TaskShape> OpenbTaskShapes(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);  // header
  std::vector<TaskShape> shapes;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) {
      cells.push_back(cell);
    }
    TaskShape shape;
    shape.cpu_milli = std::stoll(cells.at(1));
    shape.gpus = std::stoll(cells.at(3));
    shape.gpu_milli = shape.gpus > 0 ? std::stoll(cells.at(4)) : 0;
    if (shape.gpus > 0 && cells.size() > 5) {
      std::stringstream models(cells[5]);
      for (std::string model; std::getline(models, model, '|');) {
        if (!model.empty()) {
          shape.models.push_back(model);
        }
      }
    }
    shapes.push_back(shape);
  }
  return shapes;
}

// On an empty cluster every GPU is idle, so the fragmentation ratio (over idle GPU) and amount
// (over capacity) are the same number. The paper artifact's x = 0 bin (the mean over its first
// ~0.5 % of pods, so not quite empty) reads 13.88-14.08 % for `default` across its six policies;
// an independent computation from the definitions (docs/fgd-reproduction-spec.md §8) gives 13.94.
TEST(GpuFragmentationTest, TheEmptyOpenbClusterMatchesTheArtifactsStartingPoint) {
  const std::string dir = testing::SourcePath("../shared/traces/alibaba-openb");
  if (!std::filesystem::exists(dir + "/openb_pod_list_default.csv")) {
    GTEST_SKIP() << "the openb trace is not at " << dir << " (../shared/traces); skipped";
  }
  std::vector<OpenbNode> nodes;
  ASSERT_EQ(LoadOpenbNodes(dir + "/openb_node_list_gpu_node.csv", BuiltinCatalog(), nodes), "");
  const TypicalTasks typical =
      ComputeTypicalTasks(OpenbTaskShapes(dir + "/openb_pod_list_default.csv"), 0.95);
  EXPECT_EQ(typical.size(), 35U);
  double fragmented = 0;
  std::int64_t capacity = 0;
  for (const OpenbNode& node : nodes) {
    const NodeFreeState state = {
        .cpu_free_milli = node.cpu_milli,
        .model = node.model,
        .gpu_free = std::vector<std::int64_t>(static_cast<std::size_t>(node.gpus), kGpuMilli)};
    fragmented += NodeFragmentation(state, typical);
    capacity += IdleMilli(state);
  }
  EXPECT_EQ(capacity, 6212 * kGpuMilli);
  const double percent = 100 * fragmented / static_cast<double>(capacity);
  EXPECT_NEAR(percent, 13.94, 0.005);
  EXPECT_GE(percent, 13.88 - 0.2);
  EXPECT_LE(percent, 14.08 + 0.2);
}

}  // namespace
}  // namespace fleetsim
