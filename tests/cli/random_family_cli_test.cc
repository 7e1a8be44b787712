// tools/random-family, end to end on a small family (24 scenarios): every generated scenario
// validates and runs under every policy with no illegal decision or failed run, the report
// states the issue-18 figures over all of them, and generation is deterministic (a second
// `generate` with the same seed writes the same bytes). The full family (240 scenarios, seeds 1
// and 2) and its figures are in docs/random-family.md; this keeps the script working in CI.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "testutil/command.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::CommandResult;
using testing::ReadFile;
using testing::SourcePath;

constexpr int kScenarios = 24;

class RandomFamilyCliTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = testing::FreshTempDir(); }
  void TearDown() override { fs::remove_all(dir_); }

  CommandResult Family(const std::string& args) {
    return testing::RunCommand(
        fmt::format("python3 '{}' --fleetsim '{}' {}", SourcePath("tools/random-family"),
                    FLEETSIM_CLI_PATH, args),
        dir_);
  }

  std::string dir_;
};

TEST_F(RandomFamilyCliTest, EveryScenarioRunsUnderEveryPolicyAndTheReportHasTheFigures) {
  const CommandResult r =
      Family(fmt::format("all '{}/work' --count {} --seed 1", dir_, kScenarios));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json report = json::parse(ReadFile(dir_ + "/work/report.json"));
  EXPECT_EQ(report.at("scenarios"), kScenarios);
  for (const auto& [policy, failed] : report.at("failed_runs").items()) {
    EXPECT_TRUE(failed.empty()) << policy << " failed on " << failed.dump();
  }
  const json& vs_fifo = report.at("constraint_aware_vs_fifo");
  EXPECT_EQ(vs_fifo.at("compared"), kScenarios);
  EXPECT_EQ(vs_fifo.at("wins").get<int>() + vs_fifo.at("ties").get<int>() +
                vs_fifo.at("losses").get<int>(),
            kScenarios);
  // Beating the best of the three means beating each: no policy alone is beaten less often.
  const int wins_vs_best = report.at("constraint_aware_vs_best_other").at("wins").get<int>();
  const json& vs_each = report.at("constraint_aware_vs_each_other");
  EXPECT_EQ(vs_each.size(), 3U);
  for (const auto& [policy, vs] : vs_each.items()) {
    EXPECT_EQ(vs.at("compared"), kScenarios) << policy;
    EXPECT_EQ(vs.at("wins").get<int>() + vs.at("ties").get<int>() + vs.at("losses").get<int>(),
              kScenarios)
        << policy;
    EXPECT_GE(vs.at("wins").get<int>(), wins_vs_best) << policy;
  }
  EXPECT_EQ(report.at("per_policy").size(), 5U);
  EXPECT_TRUE(report.at("wide_vs_fifo").contains("constraint-aware"));
}

TEST_F(RandomFamilyCliTest, GenerationIsDeterministic) {
  ASSERT_EQ(Family(fmt::format("generate '{}/a' --count 6 --seed 3", dir_)).exit_code, 0);
  ASSERT_EQ(Family(fmt::format("generate '{}/b' --count 6 --seed 3", dir_)).exit_code, 0);
  int files = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir_ + "/a")) {
    const fs::path twin = fs::path(dir_) / "b" / entry.path().filename();
    ASSERT_TRUE(fs::exists(twin)) << twin;
    EXPECT_EQ(ReadFile(entry.path().string()), ReadFile(twin.string())) << twin;
    ++files;
  }
  EXPECT_EQ(files, 7);  // six scenarios and the manifest
}

}  // namespace
}  // namespace fleetsim
