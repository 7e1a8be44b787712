// Fill scenario files: a valid one with every field, defaults, every problem reported at once
// with its JSON pointer; and the paper artifact's result files read by workload and policy.
#include "fleetsim/fill/fill_scenario.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "fleetsim/fill/published_fill.h"
#include "testutil/command.h"

namespace fleetsim {
namespace {

namespace fs = std::filesystem;

class FillScenarioTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::FreshTempDir();
    Write("nodes.csv", "sn,cpu_milli,memory_mib,gpu,model\nn1,8000,32768,2,T4\n");
    Write("pods.csv", "name,cpu_milli,memory_mib,num_gpu,gpu_milli\np1,1000,1024,1,500\n");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  std::string dir_;
};

TEST_F(FillScenarioTest, AValidScenarioLoadsWithPathsBesideIt) {
  const std::string path = Write("fill.json", R"({
    "format_version": 1, "kind": "fill", "name": "tiny", "description": "d",
    "nodes": "nodes.csv", "pods": "pods.csv", "policies": ["fgd", "random"],
    "seeds": {"first": 7, "count": 3}, "target_share": 1.5, "typical_popularity": 0.9})");
  const FillLoadResult result = LoadFillScenarioFile(DiskFileSystem(), path);
  ASSERT_TRUE(result.scenario.has_value()) << result.diagnostics.Format(path);
  const FillScenario& s = *result.scenario;
  EXPECT_EQ(s.name, "tiny");
  EXPECT_EQ(s.nodes, dir_ + "/nodes.csv");
  EXPECT_EQ(s.policies, (std::vector{GpuSharePolicy::kFgd, GpuSharePolicy::kRandom}));
  EXPECT_EQ(s.first_seed, 7U);
  EXPECT_EQ(s.seeds, 3);
  EXPECT_DOUBLE_EQ(s.target_share, 1.5);
  EXPECT_DOUBLE_EQ(s.typical_popularity, 0.9);
  EXPECT_FALSE(s.published.has_value());
  EXPECT_TRUE(IsFillScenarioText(R"({"kind": "fill"})"));
  EXPECT_FALSE(IsFillScenarioText(R"({"name": "x"})"));
  EXPECT_FALSE(IsFillScenarioText("not json"));
}

TEST_F(FillScenarioTest, EveryProblemIsReportedAtOnceWithItsPointer) {
  const std::string path = Write("bad.json", R"({
    "format_version": 1, "kind": "fil", "name": "bad",
    "nodes": "missing.csv", "pods": "pods.csv", "policies": ["fdg", "random", "random"],
    "seeds": {"count": 0}, "target_share": -1, "colour": 1})");
  const FillLoadResult result = LoadFillScenarioFile(DiskFileSystem(), path);
  EXPECT_FALSE(result.scenario.has_value());
  const std::string report = result.diagnostics.Format(path);
  EXPECT_NE(report.find("/kind"), std::string::npos) << report;
  EXPECT_NE(report.find("/nodes"), std::string::npos) << report;
  EXPECT_NE(report.find("missing.csv"), std::string::npos) << report;
  EXPECT_NE(report.find("/policies/0"), std::string::npos) << report;
  EXPECT_NE(report.find("did you mean 'fgd'"), std::string::npos) << report;
  EXPECT_NE(report.find("/policies/2"), std::string::npos) << report;
  EXPECT_NE(report.find("/seeds/count"), std::string::npos) << report;
  EXPECT_NE(report.find("/target_share"), std::string::npos) << report;
  EXPECT_NE(report.find("colour"), std::string::npos) << report;
}

TEST_F(FillScenarioTest, AnUnreadableOrInvalidFileIsAFileError) {
  EXPECT_FALSE(LoadFillScenarioFile(DiskFileSystem(), dir_ + "/none.json").file_status.ok());
  const FillLoadResult invalid =
      LoadFillScenarioFile(DiskFileSystem(), Write("x.json", "{\"kind\": "));
  EXPECT_NE(invalid.file_status.message().find(":1:"), std::string::npos) << invalid.file_status;
}

TEST_F(FillScenarioTest, PublishedResultsAreReadByWorkloadAndPolicy) {
  const std::string header = "workload,sc_policy,tune,seed,total_gpus,0,1,2\n";
  const PublishedFillFiles files{
      .workload = "w1",
      .allocation = Write("allo.csv", header + "w1,06-FGD,1.3,42,4,0.5,1.0,2.0\n"
                                               "w1,06-FGD,1.3,43,4,0.5,3.0,\n"
                                               "w2,06-FGD,1.3,42,4,9,9,9\n"
                                               "w1,01-Random,1.3,42,4,0,0,1\n"),
      .fragmentation_ratio = Write("ratio.csv",
                                   "workload,sc_policy,tune,seed,0,1,2\n"
                                   "w1,06-FGD,1.3,42,10,20,30\n")};
  PublishedFill published;
  ASSERT_EQ(LoadPublishedFill(DiskFileSystem(), files, published).message(), "");
  const SeedStats fgd = PublishedStatsAt(published.allocation.at(GpuSharePolicy::kFgd), 1);
  EXPECT_DOUBLE_EQ(fgd.mean, 2.0);
  EXPECT_EQ(fgd.seeds, 2);
  EXPECT_EQ(PublishedStatsAt(published.allocation.at(GpuSharePolicy::kFgd), 2).seeds, 1);
  EXPECT_DOUBLE_EQ(PublishedStatsAt(published.fragmentation_ratio.at(GpuSharePolicy::kFgd), 2).mean,
                   30);
  EXPECT_EQ(PolicyOfArtifactName("03-GpuClustering"), GpuSharePolicy::kGpuClustering);
  EXPECT_EQ(PolicyOfArtifactName("07-Gandiva"), std::nullopt);
}

TEST_F(FillScenarioTest, BadPublishedFilesNameTheFileAndLine) {
  PublishedFill published;
  const std::string unknown =
      LoadPublishedFill(
          DiskFileSystem(),
          {.workload = "w1",
           .allocation = Write("a.csv", "workload,sc_policy,seed,0\nw1,09-Magic,42,1\n"),
           .fragmentation_ratio = Write("r.csv", "workload,sc_policy,seed,0\nw1,06-FGD,42,1\n")},
          published)
          .message();
  EXPECT_NE(unknown.find("a.csv:2:"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("09-Magic"), std::string::npos) << unknown;
  const std::string bad_number =
      LoadPublishedFill(
          DiskFileSystem(),
          {.workload = "w1",
           .allocation = Write("b.csv", "workload,sc_policy,seed,0\nw1,06-FGD,42,abc\n"),
           .fragmentation_ratio = Write("r2.csv", "workload,sc_policy,seed,0\nw1,06-FGD,42,1\n")},
          published)
          .message();
  EXPECT_NE(bad_number.find("b.csv:2:"), std::string::npos) << bad_number;
  const std::string none =
      LoadPublishedFill(
          DiskFileSystem(),
          {.workload = "w9",
           .allocation = Write("c.csv", "workload,sc_policy,seed,0\nw1,06-FGD,42,1\n"),
           .fragmentation_ratio = Write("r3.csv", "workload,sc_policy,seed,0\nw1,06-FGD,42,1\n")},
          published)
          .message();
  EXPECT_NE(none.find("w9"), std::string::npos) << none;
}

}  // namespace
}  // namespace fleetsim
