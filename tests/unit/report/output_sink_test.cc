// DirectorySink's commit and its manifest: a complete commit verifies; a changed, missing or
// extra-listed file does not; a commit that stops between renames leaves a folder without a
// manifest, which VerifyOutputFolder reports even though each file in it is complete (issue 19).
// The folder is in a MemoryFileSystem; the disk's rename and remove are held to the same
// behaviour by the FileSystem conformance suite, and the CLI tests commit to the disk.
#include "fleetsim/report/output_sink.h"

#include <gtest/gtest.h>

#include "fleetsim/core/file_system.h"

namespace fleetsim {
namespace {

class OutputSinkTest : public ::testing::Test {
 protected:
  std::string Commit(const std::map<std::string, std::string>& staged) {
    DirectorySink sink(files_, dir_);
    for (const auto& [path, contents] : staged) {
      sink.Stage(path, contents);
    }
    return sink.Commit().message();
  }

  std::string Read(const std::string& relative) const {
    std::string contents;
    EXPECT_TRUE(files_.ReadFile(dir_ + "/" + relative, contents).ok()) << relative;
    return contents;
  }

  std::vector<std::string> Verify() const { return VerifyOutputFolder(files_, dir_); }

  MemoryFileSystem files_;
  std::string dir_ = "out";
};

TEST_F(OutputSinkTest, ACommitWritesItsFilesAndThenAManifestThatVerifies) {
  ASSERT_EQ(Commit({{"comparison.csv", "a,b\n"}, {"s/fifo/summary.json", "{}\n"}}), "");
  EXPECT_EQ(Read("comparison.csv"), "a,b\n");
  EXPECT_EQ(Read(kOutputManifest),
            OutputManifest({{"comparison.csv", "a,b\n"}, {"s/fifo/summary.json", "{}\n"}}));
  EXPECT_NE(Read(kOutputManifest).find("\"path\": \"s/fifo/summary.json\""), std::string::npos);
  EXPECT_TRUE(Verify().empty());
  EXPECT_EQ(files_.files().size(), 3U);  // no temporary left behind
}

TEST_F(OutputSinkTest, AChangedOrMissingFileFailsVerification) {
  ASSERT_EQ(Commit({{"a.csv", "1\n"}, {"b.csv", "2\n"}}), "");
  ASSERT_TRUE(files_.WriteFile(dir_ + "/a.csv", "3\n").ok());
  ASSERT_TRUE(files_.Remove(dir_ + "/b.csv").ok());
  const std::vector<std::string> problems = Verify();
  ASSERT_EQ(problems.size(), 2U);
  EXPECT_NE(problems[0].find("out/a.csv: not the file the manifest lists (2 bytes"),
            std::string::npos)
      << problems[0];
  EXPECT_NE(problems[1].find("out/b.csv: cannot read"), std::string::npos) << problems[1];
}

TEST_F(OutputSinkTest, ACommitInterruptedBetweenRenamesLeavesNoManifest) {
  ASSERT_EQ(Commit({{"a.csv", "old a\n"}, {"b.csv", "old b\n"}}), "");
  // The second rename cannot happen: a directory stands where b.csv goes. The first file is
  // already replaced, so the folder mixes two commits, each file complete.
  ASSERT_TRUE(files_.Remove(dir_ + "/b.csv").ok());
  ASSERT_TRUE(files_.CreateDirectories(dir_ + "/b.csv/inside").ok());
  const std::string error = Commit({{"a.csv", "new a\n"}, {"b.csv", "new b\n"}});
  EXPECT_NE(error.find("b.csv: cannot rename into place"), std::string::npos) << error;
  EXPECT_EQ(Read("a.csv"), "new a\n");
  const std::vector<std::string> problems = Verify();
  ASSERT_EQ(problems.size(), 1U);
  EXPECT_NE(problems[0].find("no readable manifest"), std::string::npos) << problems[0];
  for (const auto& [path, contents] : files_.files()) {
    EXPECT_EQ(path.find(".tmp"), std::string::npos) << path;
  }
}

TEST_F(OutputSinkTest, AFolderWithoutAManifestOrWithABadOneFailsVerification) {
  ASSERT_TRUE(files_.CreateDirectories(dir_).ok());
  EXPECT_NE(Verify().at(0).find("no readable manifest"), std::string::npos);
  const std::string manifest = dir_ + "/" + kOutputManifest;
  ASSERT_TRUE(files_.WriteFile(manifest, "{\"format\": 3}").ok());
  EXPECT_NE(Verify().at(0).find("not a fleetsim output manifest"), std::string::npos);
  ASSERT_TRUE(
      files_
          .WriteFile(manifest, R"({"format": "fleetsim-output-manifest", "files": [{"path": 1}]})")
          .ok());
  EXPECT_NE(Verify().at(0).find("a files entry is not"), std::string::npos);
}

TEST_F(OutputSinkTest, TheManifestIsTheSameBytesForTheSameFiles) {
  const std::map<std::string, std::string> staged = {{"x", "1"}, {"y/z", "2"}};
  EXPECT_EQ(OutputManifest(staged), OutputManifest(staged));
  EXPECT_NE(OutputManifest(staged), OutputManifest({{"x", "1"}, {"y/z", "3"}}));
}

}  // namespace
}  // namespace fleetsim
