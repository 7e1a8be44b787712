// DirectorySink's commit and its manifest: a complete commit verifies; a changed, missing or
// extra-listed file does not; a commit that stops between renames leaves a folder without a
// manifest, which VerifyOutputFolder reports even though each file in it is complete (issue 19).
#include "fleetsim/report/output_sink.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "testutil/command.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;

class OutputSinkTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = testing::FreshTempDir(); }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Commit(const std::map<std::string, std::string>& files) {
    DirectorySink sink(dir_);
    for (const auto& [path, contents] : files) {
      sink.Stage(path, contents);
    }
    return sink.Commit().message();
  }

  std::string dir_;
};

TEST_F(OutputSinkTest, ACommitWritesItsFilesAndThenAManifestThatVerifies) {
  ASSERT_EQ(Commit({{"comparison.csv", "a,b\n"}, {"s/fifo/summary.json", "{}\n"}}), "");
  EXPECT_EQ(ReadFile(dir_ + "/comparison.csv"), "a,b\n");
  EXPECT_EQ(ReadFile(dir_ + "/" + kOutputManifest),
            OutputManifest({{"comparison.csv", "a,b\n"}, {"s/fifo/summary.json", "{}\n"}}));
  EXPECT_NE(ReadFile(dir_ + "/" + kOutputManifest).find("\"path\": \"s/fifo/summary.json\""),
            std::string::npos);
  EXPECT_TRUE(VerifyOutputFolder(dir_).empty());
}

TEST_F(OutputSinkTest, AChangedOrMissingFileFailsVerification) {
  ASSERT_EQ(Commit({{"a.csv", "1\n"}, {"b.csv", "2\n"}}), "");
  std::ofstream(dir_ + "/a.csv") << "3\n";
  fs::remove(dir_ + "/b.csv");
  const std::vector<std::string> problems = VerifyOutputFolder(dir_);
  ASSERT_EQ(problems.size(), 2U);
  EXPECT_NE(problems[0].find(dir_ + "/a.csv: not the file the manifest lists (2 bytes"),
            std::string::npos)
      << problems[0];
  EXPECT_NE(problems[1].find(dir_ + "/b.csv: cannot read"), std::string::npos) << problems[1];
}

TEST_F(OutputSinkTest, ACommitInterruptedBetweenRenamesLeavesNoManifest) {
  ASSERT_EQ(Commit({{"a.csv", "old a\n"}, {"b.csv", "old b\n"}}), "");
  // The second rename cannot happen: a non-empty directory stands where b.csv goes. The first
  // file is already replaced, so the folder mixes two commits, each file complete.
  fs::remove(dir_ + "/b.csv");
  fs::create_directories(dir_ + "/b.csv/inside");
  const std::string error = Commit({{"a.csv", "new a\n"}, {"b.csv", "new b\n"}});
  EXPECT_NE(error.find("b.csv: cannot rename into place"), std::string::npos) << error;
  EXPECT_EQ(ReadFile(dir_ + "/a.csv"), "new a\n");
  const std::vector<std::string> problems = VerifyOutputFolder(dir_);
  ASSERT_EQ(problems.size(), 1U);
  EXPECT_NE(problems[0].find("no readable manifest"), std::string::npos) << problems[0];
  for (const auto& entry : fs::directory_iterator(dir_)) {
    EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << entry.path();
  }
}

TEST_F(OutputSinkTest, AFolderWithoutAManifestOrWithABadOneFailsVerification) {
  EXPECT_NE(VerifyOutputFolder(dir_).at(0).find("no readable manifest"), std::string::npos);
  std::ofstream(dir_ + "/" + kOutputManifest) << "{\"format\": 3}";
  EXPECT_NE(VerifyOutputFolder(dir_).at(0).find("not a fleetsim output manifest"),
            std::string::npos);
  std::ofstream(dir_ + "/" + kOutputManifest)
      << R"({"format": "fleetsim-output-manifest", "files": [{"path": 1}]})";
  EXPECT_NE(VerifyOutputFolder(dir_).at(0).find("a files entry is not"), std::string::npos);
}

TEST_F(OutputSinkTest, TheManifestIsTheSameBytesForTheSameFiles) {
  const std::map<std::string, std::string> files = {{"x", "1"}, {"y/z", "2"}};
  EXPECT_EQ(OutputManifest(files), OutputManifest(files));
  EXPECT_NE(OutputManifest(files), OutputManifest({{"x", "1"}, {"y/z", "3"}}));
}

}  // namespace
}  // namespace fleetsim
