// OutputTargets: a command's outputs checked together before it runs, every problem at once.
#include "cli/output_targets.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
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
  OutputTargets targets(/*dash_is_standard_output=*/true);
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
  OutputTargets targets(/*dash_is_standard_output=*/true);
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

// Standard output a file, as under ctest or a redirection (descriptor 1 is pointed at one,
// whatever it was, and put back).
class StandardOutputTo {
 public:
  explicit StandardOutputTo(const std::string& path) {
    std::fflush(stdout);
    saved_ = dup(STDOUT_FILENO);
    const int file = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(file, STDOUT_FILENO);
    close(file);
  }
  ~StandardOutputTo() {
    std::fflush(stdout);
    dup2(saved_, STDOUT_FILENO);
    close(saved_);
  }
  StandardOutputTo(const StandardOutputTo&) = delete;
  StandardOutputTo& operator=(const StandardOutputTo&) = delete;

 private:
  int saved_;
};

TEST_F(OutputTargetsTest, StandardOutputByTwoNamesIsOneOutput) {
  bool writes = false;
  std::vector<std::string> problems;
  bool dev_stdout = false;
  bool by_file_name = false;
  bool other = true;
  {
    const StandardOutputTo redirected(At("stdout.txt"));
    OutputTargets targets(/*dash_is_standard_output=*/true);
    targets.AddFile("-o", "-");
    targets.AddFile("--parameters-out", "/proc/self/fd/1");
    writes = targets.WritesStandardOutput();
    problems = targets.Problems();
    dev_stdout = IsStandardOutput("/dev/stdout");
    by_file_name = IsStandardOutput(At("stdout.txt"));
    other = IsStandardOutput(At("file"));
  }
  EXPECT_TRUE(writes);
  ASSERT_EQ(problems.size(), 1U);
  EXPECT_EQ(problems[0],
            "-o '-' and --parameters-out '/proc/self/fd/1' both write to standard output");
  EXPECT_TRUE(dev_stdout);
  EXPECT_TRUE(by_file_name);
  EXPECT_FALSE(other);
}

// For the commands that write "-" as a file of that name, it is one like any other: "-" and
// "./-" are one file.
TEST_F(OutputTargetsTest, ADashIsAFileWhereTheCommandWritesItAsOne) {
  OutputTargets targets(/*dash_is_standard_output=*/false);
  targets.AddFile("--json", "-");
  targets.AddFile("--html", "./-");
  EXPECT_FALSE(targets.WritesStandardOutput());
  const std::vector<std::string> problems = targets.Problems();
  ASSERT_EQ(problems.size(), 1U);
  EXPECT_EQ(problems[0], "--json and --html name the same file './-'");
}

// A device is not standard output because standard output is that device: /dev/null twice is
// two outputs written in turn, whatever descriptor 1 is.
TEST_F(OutputTargetsTest, ADeviceIsNeverStandardOutput) {
  bool writes = true;
  std::vector<std::string> problems;
  {
    const StandardOutputTo redirected("/dev/null");
    OutputTargets targets(/*dash_is_standard_output=*/false);
    targets.AddFile("--json", "/dev/null");
    targets.AddFile("--html", "/dev/null");
    writes = targets.WritesStandardOutput();
    problems = targets.Problems();
  }
  EXPECT_FALSE(writes);
  EXPECT_TRUE(problems.empty()) << problems.front();
}

}  // namespace
}  // namespace fleetsim::cli
