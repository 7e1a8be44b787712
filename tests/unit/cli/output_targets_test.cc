// OutputTargets: a command's outputs checked together before it runs, every problem at once.
#include "cli/output_targets.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "testutil/command.h"

namespace fleetsim::cli {
namespace {

namespace fs = std::filesystem;

class OutputTargetsTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = testing::FreshTempDir(); }
  void TearDown() override { fs::remove_all(dir_); }
  std::string At(const std::string& name) const { return dir_ + "/" + name; }
  std::string dir_;
};

TEST_F(OutputTargetsTest, DistinctFilesBesideTheFolderAndDevicesPass) {
  OutputTargets targets;
  targets.AddFile("--json", At("a.json"));
  targets.AddFile("--html", At("a.html"));
  targets.AddFile("--null", "/dev/null");
  targets.AddFile("--again", "/dev/null");  // devices are written in turn, not one file
  targets.AddFile("--none", "");            // no output
  targets.AddFolder("--out", At("out"));
  EXPECT_TRUE(targets.Problems().empty());
  EXPECT_FALSE(targets.WritesStandardOutput());
}

TEST_F(OutputTargetsTest, EveryProblemIsNamedAtOnce) {
  fs::create_directories(At("d"));
  std::ofstream(At("x.json")) << "{}";
  fs::create_symlink(At("x.json"), At("link.json"));
  OutputTargets targets;
  targets.AddFile("--a", At("d"));
  targets.AddFile("--b", At("x.json"));
  targets.AddFile("--c", At("link.json"));
  targets.AddFile("--d", At("out/r.html"));
  targets.AddFolder("--out", At("out/"));
  const std::vector<std::string> problems = targets.Problems();
  ASSERT_EQ(problems.size(), 3U);
  EXPECT_EQ(problems[0], "--a: '" + At("d") + "' is a directory, not a file");
  EXPECT_EQ(problems[1], "--b and --c name the same file '" + At("link.json") + "'");
  EXPECT_EQ(problems[2], "--d: '" + At("out/r.html") + "' is inside --out '" + At("out/") +
                             "', where it could be one of the run's files; put it beside that "
                             "folder");
}

TEST_F(OutputTargetsTest, StandardOutputByTwoNamesIsOneOutput) {
  OutputTargets targets;
  targets.AddFile("-o", "-");
  targets.AddFile("--parameters-out", "/proc/self/fd/1");
  EXPECT_TRUE(targets.WritesStandardOutput());
  const std::vector<std::string> problems = targets.Problems();
  ASSERT_EQ(problems.size(), 1U);
  EXPECT_EQ(problems[0],
            "-o '-' and --parameters-out '/proc/self/fd/1' both write to standard "
            "output");
  EXPECT_TRUE(IsStandardOutput("/dev/stdout"));
  EXPECT_FALSE(IsStandardOutput(At("file")));
}

}  // namespace
}  // namespace fleetsim::cli
