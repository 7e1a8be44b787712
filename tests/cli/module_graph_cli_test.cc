// tools/module-graph, end to end: the source tree as it is passes (its include graph matches the
// links of src/CMakeLists.txt and the block of docs/architecture.md, and each library's compile
// flags reach only the src/ headers they should), and each kind of fault, planted in a copy of
// the tree or of the build's compile commands, is found and named.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "testutil/command.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;
using testing::ReadFile;
using testing::SourcePath;

// The build folder of the tests' own build: FLEETSIM_CLI_PATH is BUILD/src/fleetsim.
std::string BuildDir() { return fs::path(FLEETSIM_CLI_PATH).parent_path().parent_path().string(); }

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// Replaces the first `from` in the file with `to`; fails the test when `from` is not there.
void Edit(const std::string& path, const std::string& from, const std::string& to) {
  std::string text = ReadFile(path);
  const std::size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos) << from << " not in " << path;
  WriteText(path, text.replace(at, from.size(), to));
}

class ModuleGraphCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::FreshTempDir();
    tree_ = dir_ + "/tree";
    fs::create_directories(tree_ + "/docs");
    for (const char* part : {"src", "include"}) {
      fs::copy(SourcePath(part), tree_ + "/" + part, fs::copy_options::recursive);
    }
    fs::copy_file(SourcePath("docs/architecture.md"), tree_ + "/docs/architecture.md");
  }

  CommandResult Check(const std::string& args) {
    return testing::RunCommand(
        fmt::format("python3 '{}' {}", SourcePath("tools/module-graph"), args), dir_);
  }

  std::string dir_;
  std::string tree_;
};

TEST_F(ModuleGraphCliTest, TheTreeAndTheBuildAsTheyAreAgree) {
  const CommandResult r = Check(fmt::format("--probe-build '{}'", BuildDir()));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("each library's flags probed"), std::string::npos) << r.out;
  const CommandResult copy = Check(fmt::format("--root '{}'", tree_));
  EXPECT_EQ(copy.exit_code, 0) << copy.out << copy.err;
}

TEST_F(ModuleGraphCliTest, AHeaderOfAModuleAboveIsAnUnlinkedUseAndACycle) {
  Edit(tree_ + "/src/core/time.cc", "#include <",
       "#include \"fleetsim/plan/plan_spec.h\"\n#include <");
  const CommandResult r = Check(fmt::format("--root '{}'", tree_));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("src/core/time.cc:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("module 'core' includes a header of 'plan', which it does not link"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("the modules use each other in a cycle: "), std::string::npos) << r.err;
}

TEST_F(ModuleGraphCliTest, ALinkNothingUsesIsReported) {
  Edit(tree_ + "/src/CMakeLists.txt", "SOURCES engine/event_queue.cc\n  PUBLIC_DEPS fleetsim::core",
       "SOURCES engine/event_queue.cc\n  PUBLIC_DEPS fleetsim::core fleetsim::fleet");
  const CommandResult r = Check(fmt::format("--root '{}'", tree_));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("'engine' links fleetsim::fleet but includes none of its headers"),
            std::string::npos)
      << r.err;
}

TEST_F(ModuleGraphCliTest, ADiagramThatNoLongerMatchesTheCodeIsReportedWithTheRightOne) {
  Edit(tree_ + "/docs/architecture.md", "\nengine: core\n", "\nengine: core fleet\n");
  const CommandResult r = Check(fmt::format("--root '{}'", tree_));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("the module graph block differs from the code"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\nengine: core\n"), std::string::npos) << r.err;
}

TEST_F(ModuleGraphCliTest, FlagsThatShowAnotherModulesPrivateHeadersAreAHole) {
  // fill's sources compiled with the whole src/ folder in reach, as every library was before
  // the build enforced the layering: trace's private headers become reachable from fill.
  nlohmann::json commands = nlohmann::json::parse(ReadFile(BuildDir() + "/compile_commands.json"));
  bool planted = false;
  for (nlohmann::json& entry : commands) {
    std::string command = entry.at("command");
    if (command.find("/fleetsim_fill.dir/") != std::string::npos) {
      entry["command"] = command.insert(command.find(' '), fmt::format(" -I{}", SourcePath("src")));
      planted = true;
    }
  }
  ASSERT_TRUE(planted);
  fs::create_directories(dir_ + "/build");
  WriteText(dir_ + "/build/compile_commands.json", commands.dump());
  const CommandResult r = Check(fmt::format("--probe-build '{}/build'", dir_));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("src/fill/ is compiled with src/trace/'s headers in reach"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("src/scenario/ is compiled with"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace fleetsim
