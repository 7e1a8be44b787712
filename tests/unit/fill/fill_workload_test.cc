// Loading a fill experiment's nodes and pods: the cluster from the GPU nodes, pods sorted by
// name with their requests, and the problems that stop a fill with their file and line.
#include "fleetsim/fill/fill_workload.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "testutil/command.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

namespace fs = std::filesystem;

class FillWorkloadTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = testing::FreshTempDir(); }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  std::string dir_;
};

TEST_F(FillWorkloadTest, TheFixtureLoadsAsItsRowsSay) {
  FillWorkload w;
  ASSERT_EQ(LoadFillWorkload(DiskFileSystem(), testing::DataPath("fill/nodes.csv"),
                             testing::DataPath("fill/pods.csv"), 0.95, w)
                .message(),
            "");
  ASSERT_EQ(w.nodes.size(), 3U);
  EXPECT_EQ(w.gpu_capacity_milli, 14000);
  EXPECT_EQ(w.nodes[1].free.gpu_count, 4U);
  EXPECT_EQ(w.nodes[1].free.cpu_free_milli, 32000);
  EXPECT_EQ(w.nodes[1].memory_free_mib, 131072);
  EXPECT_EQ(w.models.names()[static_cast<std::size_t>(w.nodes[1].free.model)], "V100M16");
  ASSERT_EQ(w.pods.size(), 12U);
  EXPECT_EQ(w.pods[0].name, "pod-01");
  EXPECT_TRUE(w.pods[0].request.IsShare());
  EXPECT_EQ(w.pods[4].request.gpus, 0);  // pod-05, CPU-only
  // pod-10 accepts V100M16 or G2: node 1 and node 2, not node 0 (T4).
  const SharePod& constrained = w.pods[9].request;
  EXPECT_FALSE(w.nodes[0].free.Accepts(constrained.models));
  EXPECT_TRUE(w.nodes[1].free.Accepts(constrained.models));
  EXPECT_TRUE(w.nodes[2].free.Accepts(constrained.models));
  double weight = 0;
  for (const WeightedTask& task : w.typical) {
    weight += task.weight;
  }
  EXPECT_DOUBLE_EQ(weight, 1.0);
}

// As the paper's artifact keys typical pods: by the gpu_spec text as written, so a model listed
// twice is another key than the model once — though both accept the same nodes.
TEST_F(FillWorkloadTest, TypicalPodsAreKeyedByTheGpuSpecTextAsWritten) {
  const std::string header =
      "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,"
      "deletion_time,scheduled_time\n";
  const std::string pods =
      Write("pods.csv", header +
                            "a,1000,100,1,1000,V100M16,LS,Running,0,10,0\n"
                            "b,1000,100,1,1000,V100M16|V100M16,LS,Running,0,10,0\n"
                            "c,1000,100,1,1000,V100M16,LS,Running,0,10,0\n");
  FillWorkload w;
  ASSERT_EQ(LoadFillWorkload(DiskFileSystem(), testing::DataPath("fill/nodes.csv"), pods, 1.0, w)
                .message(),
            "");
  EXPECT_EQ(w.pods[0].request.models, w.pods[1].request.models);
  // a and c are one key of count 2, b another.
  ASSERT_EQ(w.typical.size(), 2U);
  EXPECT_DOUBLE_EQ(w.typical[0].weight, (2.0 / 3.0) / (3.0 / 3.0));
  EXPECT_DOUBLE_EQ(w.typical[1].weight, (1.0 / 3.0) / (3.0 / 3.0));
  EXPECT_EQ(w.typical[0].shape, w.typical[1].shape);
}

TEST_F(FillWorkloadTest, ProblemsNameTheFileAndLine) {
  const std::string pods = testing::DataPath("fill/pods.csv");
  FillWorkload w;
  const std::string nine = Write("nine.csv",
                                 "sn,cpu_milli,memory_mib,gpu,model\n"
                                 "n1,8000,32768,2,T4\nn2,8000,32768,9,T4\n");
  const std::string too_many = LoadFillWorkload(DiskFileSystem(), nine, pods, 0.95, w).message();
  EXPECT_NE(too_many.find("nine.csv:3:"), std::string::npos) << too_many;
  EXPECT_NE(too_many.find("at most 8 GPUs"), std::string::npos) << too_many;
  const std::string cpu_pods = Write("cpu.csv",
                                     "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n"
                                     "p1,1000,1024,0,0\np2,2000,1024,0,0\n");
  const std::string no_gpu =
      LoadFillWorkload(DiskFileSystem(), testing::DataPath("fill/nodes.csv"), cpu_pods, 0.95, w)
          .message();
  EXPECT_NE(no_gpu.find("cpu.csv: expected pods asking for GPUs"), std::string::npos) << no_gpu;
  const std::string bad_row = Write("bad.csv",
                                    "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n"
                                    "p1,1000,1024,1,500\np2,x,1024,1,500\n");
  const std::string row =
      LoadFillWorkload(DiskFileSystem(), testing::DataPath("fill/nodes.csv"), bad_row, 0.95, w)
          .message();
  EXPECT_NE(row.find("bad.csv:3:"), std::string::npos) << row;
  EXPECT_TRUE(w.nodes.empty());  // nothing loaded on error
}

}  // namespace
}  // namespace fleetsim
