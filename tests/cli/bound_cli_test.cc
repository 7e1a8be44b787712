// End-to-end tests of `fleetsim bound`: the report of a benchmark scenario (bound, proof, gap,
// solve time, schedule), the --json bounds file and its round trip into `fleetsim bench` (the
// share-of-bound column and the results' bound metrics), and bad input: scenarios the model does
// not fit (exit 1, every reason), bad options (exit 2), unwritable targets (nothing half-written).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "fleetsim/report/bound_figures.h"
#include "testutil/command.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::CommandResult;
using testing::ReadFile;
using testing::SourcePath;

class BoundCliTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = testing::FreshTempDir(); }
  void TearDown() override { fs::remove_all(dir_); }

  CommandResult Fleetsim(const std::string& args) {
    return testing::RunCommand(fmt::format("'{}' {}", FLEETSIM_CLI_PATH, args), dir_);
  }

  // The uniform-priority scenario: every job at priority 3, solved in a fraction of a second.
  const std::string uniform_ = SourcePath("scenarios/benchmark/07-uniform-priority.json");
  std::string dir_;
};

TEST_F(BoundCliTest, PrintsTheBoundItsProofAndTheSchedule) {
  const CommandResult r = Fleetsim(fmt::format("bound '{}'", uniform_));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out.rfind("07-uniform-priority\n  bound 545.8 (proven optimal); best solution "
                        "545.8; gap 0.00 %; LP relaxation ",
                        0),
            0U)
      << r.out;
  EXPECT_NE(r.out.find("\n  solved in "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("model: 24 steps of 3600 s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("    job                      prio  GPUs  start"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("    pretrain-next               3     4  0d 00:01:00.000"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("    svc-chat                    3  service: holds "), std::string::npos)
      << r.out;
}

TEST_F(BoundCliTest, JsonIsTheBoundsFileTheBenchReads) {
  const std::string file = dir_ + "/bounds/bounds.json";
  const CommandResult r = Fleetsim(fmt::format("bound '{}' --json '{}'", uniform_, file));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json root = json::parse(ReadFile(file));
  EXPECT_EQ(root.at("format_version"), 1);
  EXPECT_EQ(root.at("time_limit_s"), 60);
  ASSERT_EQ(root.at("bounds").size(), 1U);
  const json& entry = root.at("bounds")[0];
  EXPECT_EQ(entry.at("scenario"), "07-uniform-priority");
  EXPECT_EQ(entry.at("seed"), 7);
  EXPECT_TRUE(entry.at("proven_optimal").get<bool>());
  EXPECT_EQ(entry.at("gap"), 0);
  EXPECT_NEAR(entry.at("bound").get<double>(), 545.8, 0.05);
  // The jobs started by the optimal solution CBC returns (one thread: the same on every run).
  EXPECT_EQ(entry.at("schedule").size(), 16U);
  EXPECT_EQ(entry.at("services").size(), 1U);

  const BoundFiguresLoad load = LoadBoundFigures(file);
  ASSERT_TRUE(load.figures) << load.status.message();
  EXPECT_TRUE(load.figures->scenarios.at("07-uniform-priority").proven_optimal);

  // The bench finds it in the suite directory's bounds/ and shows each policy's share (its
  // results go beside the suite: not into a folder it reads).
  const std::string suite = dir_;
  fs::copy_file(uniform_, suite + "/07-uniform-priority.json");
  const std::string results = dir_ + "-r.json";
  const CommandResult bench =
      Fleetsim(fmt::format("bench '{}' --policy fifo --json '{}'", suite, results));
  ASSERT_EQ(bench.exit_code, 0) << bench.err;
  EXPECT_NE(bench.out.find("Δ %  of bound  completed"), std::string::npos) << bench.out;
  EXPECT_NE(bench.out.find("  fifo                72.4%              416.9               76.4%"),
            std::string::npos)
      << bench.out;
  EXPECT_NE(bench.out.find("  bound (clairvoyant, fleetsim bound): 545.8, proven optimal\n"),
            std::string::npos)
      << bench.out;
  const json metrics = json::parse(ReadFile(results)).at("results")[0].at("metrics");
  fs::remove(results);
  EXPECT_NEAR(
      metrics.at("share_of_bound").get<double>(),
      metrics.at("priority_weighted_output").get<double>() / metrics.at("bound").get<double>(),
      1e-12);
  EXPECT_EQ(metrics.at("bound_gap"), 0);
}

TEST_F(BoundCliTest, AStoppedSearchSaysSoAndMarksTheShares) {
  const std::string file = dir_ + "/bounds/bounds.json";
  fs::create_directories(dir_ + "/bounds");
  std::ofstream(file) << R"({"format_version": 1, "bounds": [
      {"scenario": "07-uniform-priority", "bound": 560, "gap": 0.05, "proven_optimal": false}]})";
  fs::copy_file(uniform_, dir_ + "/07-uniform-priority.json");
  const CommandResult bench = Fleetsim(fmt::format("bench '{}' --policy fifo", dir_));
  ASSERT_EQ(bench.exit_code, 0) << bench.err;
  EXPECT_NE(bench.out.find("74.4%*"), std::string::npos) << bench.out;
  EXPECT_NE(bench.out.find("bound (clairvoyant, fleetsim bound): 560.0, not proven optimal (gap "
                           "5.00 % to its best solution): * shares are of this bound"),
            std::string::npos)
      << bench.out;
}

// CLI11's range check lets NaN through (no comparison with it is true); these options refuse it.
TEST_F(BoundCliTest, NanIsRefusedForTheTimeLimitAndTheStep) {
  for (const char* option : {"--time-limit nan", "--time-limit -NaN", "--step nan"}) {
    const CommandResult r = Fleetsim(fmt::format("bound '{}' {}", uniform_, option));
    EXPECT_EQ(r.exit_code, 2) << option;
    EXPECT_NE(r.err.find("is not a number"), std::string::npos) << option << ": " << r.err;
  }
}

// CBC only prints "No match" for a parameter it does not know and runs its default search, which
// would pass for the cross-check asked; an unknown name (or an ambiguous abbreviation) is refused,
// and so is an action (export=FILE wrote the model over any file, stop ended the search).
TEST_F(BoundCliTest, AnUnknownCbcParameterIsRefused) {
  for (const char* name : {"zzz", "a", "export", "stop"}) {
    const CommandResult r = Fleetsim(fmt::format("bound '{}' --cbc-option {}=1", uniform_, name));
    EXPECT_EQ(r.exit_code, 2) << name;
    EXPECT_EQ(r.err, fmt::format("fleetsim: --cbc-option: CBC has no parameter named '{}' that "
                                 "sets a value (an action such as export or stop, or an "
                                 "abbreviation of several, is not one)\n",
                                 name));
    EXPECT_EQ(r.out, "");
  }
}

TEST_F(BoundCliTest, ABadBoundsFileIsAClearError) {
  fs::create_directories(dir_ + "/bounds");
  std::ofstream(dir_ + "/bounds/bounds.json")
      << R"({"format_version": 1, "bounds": [{"scenario": "07-uniform-priority", "bound": "x",
            "gap": 0, "proven_optimal": true}, {"scenario": "elsewhere", "bound": 1, "gap": 0,
            "proven_optimal": true}]})";
  fs::copy_file(uniform_, dir_ + "/07-uniform-priority.json");
  const CommandResult bad = Fleetsim(fmt::format("bench '{}' --policy fifo --json out.json", dir_));
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("bounds.json: /bounds/0/bound: expected a number >= 0, found \"x\""),
            std::string::npos)
      << bad.err;
  EXPECT_FALSE(fs::exists(dir_ + "/out.json"));

  std::ofstream(dir_ + "/bounds/bounds.json")
      << R"({"format_version": 1, "bounds": [{"scenario": "elsewhere", "bound": 1, "gap": 0,
            "proven_optimal": true}]})";
  const CommandResult unmatched = Fleetsim(fmt::format("bench '{}' --policy fifo", dir_));
  EXPECT_EQ(unmatched.exit_code, 0) << unmatched.err;
  EXPECT_EQ(unmatched.err,
            "fleetsim: warning: a bound for 'elsewhere', which no scenario here is named\n");
  EXPECT_EQ(unmatched.out.find("of bound"), std::string::npos) << unmatched.out;
}

TEST_F(BoundCliTest, ScenariosTheModelDoesNotFitAreRefusedBeforeAnySolve) {
  const std::string unfit = dir_ + "/unfit.json";
  std::ofstream(unfit) << R"({"format_version": 1, "name": "unfit", "fleet": {"gpus": 8},
      "jobs": [{"id": "w", "submit_s": 0, "gpus": 1, "work_gpu_hours": 2}]})";
  const CommandResult r =
      Fleetsim(fmt::format("bound '{}' '{}' --json '{}/b.json'", uniform_, unfit, dir_));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "") << "nothing was solved";
  EXPECT_EQ(r.err,
            fmt::format("{0}: scenario 'unfit': the bound does not apply: the scenario has no "
                        "window (run.until_s): the bound is on the output inside it\n"
                        "{0}: scenario 'unfit': the bound does not apply: job 'w' is given "
                        "work_gpu_hours: the bound needs true run times (duration_s), which do "
                        "not depend on where a job lands\n",
                        unfit));
  EXPECT_FALSE(fs::exists(dir_ + "/b.json"));
}

TEST_F(BoundCliTest, BadOptionsAndTargetsWriteNothing) {
  EXPECT_EQ(Fleetsim(fmt::format("bound '{}' --time-limit 0", uniform_)).exit_code, 2);
  EXPECT_EQ(Fleetsim(fmt::format("bound '{}' --threads 0", uniform_)).exit_code, 2);
  EXPECT_EQ(Fleetsim("bound").exit_code, 2);
  const CommandResult option = Fleetsim(fmt::format("bound '{}' --cbc-option cuts", uniform_));
  EXPECT_EQ(option.exit_code, 2);
  EXPECT_NE(option.err.find("--cbc-option: expected NAME=VALUE, found 'cuts'"), std::string::npos)
      << option.err;
  EXPECT_EQ(Fleetsim("bound no-such-file.json").exit_code, 1);

  fs::create_directories(dir_ + "/a-dir");
  const CommandResult directory =
      Fleetsim(fmt::format("bound '{}' --json '{}/a-dir'", uniform_, dir_));
  EXPECT_EQ(directory.exit_code, 2);
  EXPECT_NE(directory.err.find("/a-dir' is a directory, not a file"), std::string::npos)
      << directory.err;
  EXPECT_EQ(directory.out, "") << "nothing was solved";

  std::ofstream(dir_ + "/a-file") << "x";
  const CommandResult blocked =
      Fleetsim(fmt::format("bound '{}' --json '{}/a-file/b.json'", uniform_, dir_));
  EXPECT_EQ(blocked.exit_code, 4);
  EXPECT_NE(blocked.err.find("fleetsim: cannot write results: "), std::string::npos) << blocked.err;
  EXPECT_FALSE(fs::exists(dir_ + "/a-file/b.json"));
}

}  // namespace
}  // namespace fleetsim
