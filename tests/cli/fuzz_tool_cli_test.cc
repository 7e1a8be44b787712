// tools/fuzz's command line: bad options and target names are refused before anything is built
// or run, all of them in one message (exit 2), and --help prints the whole header. Every refused
// command also names a build folder that does not exist (or an unknown target), so a check that
// let one through would fail fast instead of starting a build or a campaign.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "testutil/command.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::SourcePath;

class FuzzToolCliTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = testing::FreshTempDir(); }
  void TearDown() override { fs::remove_all(dir_); }

  CommandResult Fuzz(const std::string& args) {
    return testing::RunCommand(fmt::format("bash '{}' {}", SourcePath("tools/fuzz"), args), dir_);
  }

  // `args` after a --build folder that does not exist.
  CommandResult FuzzUnbuilt(const std::string& args) {
    return Fuzz(fmt::format("--build '{}/no-build' {}", dir_, args));
  }

  std::string dir_;
};

TEST_F(FuzzToolCliTest, ASecondsValueThatIsNotAPositiveIntegerIsRefused) {
  for (const char* value : {"abc", "0", "1e3", "-5", "12.5", "123456789"}) {
    const CommandResult r = FuzzUnbuilt(fmt::format("--seconds '{}' scenario", value));
    EXPECT_EQ(r.exit_code, 2) << value << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr(fmt::format(
                           "--seconds takes an integer from 1 to 99999999 (got '{}')", value)));
  }
}

TEST_F(FuzzToolCliTest, ASeedThatIsNotAPositiveIntegerIsRefused) {
  for (const char* value : {"0", "x", "1000000000"}) {
    const CommandResult r = FuzzUnbuilt(fmt::format("--seed '{}' scenario", value));
    EXPECT_EQ(r.exit_code, 2) << value << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr(fmt::format(
                           "--seed takes an integer from 1 to 999999999 (got '{}')", value)));
  }
}

TEST_F(FuzzToolCliTest, AnOptionWithoutItsValueIsRefusedByName) {
  for (const char* option : {"--seconds", "--seed"}) {
    const CommandResult r = FuzzUnbuilt(fmt::format("scenario {}", option));
    EXPECT_EQ(r.exit_code, 2) << option << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr(fmt::format("tools/fuzz: {} needs a value", option)));
  }
  // No build folder to name here: the unknown target keeps a check that let this through from
  // building.
  const CommandResult r = Fuzz("no_such_target --build");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("tools/fuzz: --build needs a value"));
}

TEST_F(FuzzToolCliTest, ATargetNameMustMatchOneTargetExactly) {
  for (const char* name : {"scenario catalog", "trace_philly trace_ms_itp", "scen*", "trace_"}) {
    const CommandResult r = FuzzUnbuilt(fmt::format("'{}'", name));
    EXPECT_EQ(r.exit_code, 2) << name << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr(fmt::format("tools/fuzz: unknown target '{}' (known: ", name)));
  }
}

TEST_F(FuzzToolCliTest, EveryProblemIsReportedInOneMessage) {
  const CommandResult r =
      FuzzUnbuilt("--seconds soon --seed 0 --verbose scenario no_such_target trace_philly --seed");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("tools/fuzz: --seed needs a value"));
  EXPECT_THAT(r.err, HasSubstr("tools/fuzz: unknown option --verbose"));
  EXPECT_THAT(r.err, HasSubstr("(got 'soon')"));
  EXPECT_THAT(r.err, HasSubstr("(got '0')"));
  EXPECT_THAT(r.err, HasSubstr("tools/fuzz: unknown target 'no_such_target' (known: scenario "));
  EXPECT_THAT(r.err, Not(HasSubstr("'scenario'")));
  EXPECT_THAT(r.err, Not(HasSubstr("'trace_philly'")));
  EXPECT_THAT(r.err, Not(HasSubstr("not built")));
}

TEST_F(FuzzToolCliTest, GoodOptionsReachTheBuildCheck) {
  const CommandResult r = FuzzUnbuilt("--seconds 5 --seed 7 trace_philly");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("/no-build/tests/fuzz/fuzz_trace is not built"));
}

TEST_F(FuzzToolCliTest, HelpPrintsTheWholeHeaderAndNothingElse) {
  const CommandResult r = Fuzz("--help");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("Runs fleetsim's libFuzzer targets", 0), 0U) << r.out;
  EXPECT_THAT(r.out, HasSubstr("  --seed N     libFuzzer's random seed"));
  EXPECT_THAT(r.out, HasSubstr("bad ones exit 2, each with a message.\n"));
  EXPECT_THAT(r.out, Not(HasSubstr("#")));
  EXPECT_THAT(r.out, Not(HasSubstr("set -euo")));
}

}  // namespace
}  // namespace fleetsim
