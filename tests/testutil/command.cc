// Shell command runner and temp directories for CLI tests.
#include "testutil/command.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "testutil/paths.h"

namespace fleetsim::testing {

CommandResult RunCommand(const std::string& command, const std::string& scratch_dir) {
  const std::string out_path = scratch_dir + "/.stdout";
  const std::string err_path = scratch_dir + "/.stderr";
  // In a subshell, so that a list ("a & b & wait") is redirected whole, not its last command.
  const std::string full =
      fmt::format("( {} ) >'{}' 2>'{}' </dev/null", command, out_path, err_path);
  const int status = std::system(full.c_str());
  CommandResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = ReadFile(out_path);
  result.err = ReadFile(err_path);
  std::filesystem::remove(out_path);
  std::filesystem::remove(err_path);
  return result;
}

namespace {

// Removes the temp directories a test made once it has passed; a failed test's are kept, to be
// looked at (their paths name the process and the test).
class TempDirCleaner : public ::testing::EmptyTestEventListener {
 public:
  static void Track(const std::filesystem::path& dir) {
    static TempDirCleaner* const cleaner = [] {
      auto* made = new TempDirCleaner;  // owned by gtest's listener list from here on
      ::testing::UnitTest::GetInstance()->listeners().Append(made);
      return made;
    }();
    cleaner->dirs_.push_back(dir);
  }

  void OnTestEnd(const ::testing::TestInfo& info) override {
    if (info.result() != nullptr && info.result()->Passed()) {
      for (const std::filesystem::path& dir : dirs_) {
        std::error_code ignored;
        std::filesystem::remove_all(dir, ignored);
      }
    }
    dirs_.clear();
  }

 private:
  std::vector<std::filesystem::path> dirs_;
};

}  // namespace

std::string FreshTempDir() {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name =
      fmt::format("fleetsim-{}-{}.{}", getpid(), info->test_suite_name(), info->name());
  for (char& c : name) {
    if (c == '/') {
      c = '_';
    }
  }
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  TempDirCleaner::Track(dir);
  return dir.string();
}

}  // namespace fleetsim::testing
