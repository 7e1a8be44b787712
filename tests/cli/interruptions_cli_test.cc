// Issue 6's acceptance through the command: the spot-heavy example shows interruptions, lost work
// and cost in summary.json and the table, and reruns byte-identically; with its spot rates set to
// zero (and no failures) a scenario gives exactly the results of the same scenario without any
// interruption configuration.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "testutil/command.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::CommandResult;
using testing::ReadFile;
using testing::SourcePath;

class InterruptionsCliTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = testing::FreshTempDir(); }
  void TearDown() override { fs::remove_all(dir_); }

  CommandResult Fleetsim(const std::string& args) {
    return testing::RunCommand(fmt::format("'{}' {}", FLEETSIM_CLI_PATH, args), dir_);
  }
  static json SpotHeavy() {
    return json::parse(ReadFile(SourcePath("scenarios/examples/spot-heavy.json")));
  }
  // Writes `scenario` as <dir>/<name>/s.json and runs it with `policy` into <dir>/<name>/out.
  CommandResult RunVariant(const std::string& name, const json& scenario,
                           const std::string& policy) {
    fs::create_directories(dir_ + "/" + name);
    const std::string path = dir_ + "/" + name + "/s.json";
    std::ofstream(path) << scenario.dump(2);
    return Fleetsim(
        fmt::format("run '{}' --policy {} --out '{}/{}/out'", path, policy, dir_, name));
  }
  json Summary(const std::string& dir) const {
    return json::parse(ReadFile(dir_ + "/" + dir + "/summary.json"));
  }

  std::string dir_;
};

TEST_F(InterruptionsCliTest, SpotHeavyShowsInterruptionsLostWorkAndCostAndRerunsByteIdentical) {
  const std::string example = SourcePath("scenarios/examples/spot-heavy.json");
  const CommandResult a = Fleetsim(fmt::format("run '{}' --out '{}/a'", example, dir_));
  const CommandResult b = Fleetsim(fmt::format("run '{}' --out '{}/b'", example, dir_));
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_EQ(a.out, b.out);
  for (const char* file : {"summary.json", "jobs.csv"}) {
    EXPECT_EQ(ReadFile(dir_ + "/a/" + file), ReadFile(dir_ + "/b/" + file)) << file;
  }
  const json summary = Summary("a");
  const json& metrics = summary.at("metrics");
  EXPECT_GT(metrics.at("spot_reclaims").get<std::int64_t>(), 0);
  EXPECT_GT(metrics.at("jobs_interrupted").get<std::int64_t>(), 0);
  EXPECT_GT(metrics.at("lost_gpu_hours").get<double>(), 0);
  EXPECT_GT(metrics.at("overhead_gpu_hours").get<double>(), 0);
  const json& accounting = summary.at("accounting");
  EXPECT_GT(accounting.at("down_gpu_hours").get<double>(), 0);
  EXPECT_LT(std::abs(accounting.at("identity_gap_gpu_seconds").get<double>()), 1.0);
  const json& cost = summary.at("cost");
  EXPECT_TRUE(cost.at("unpriced_pools").empty());
  EXPECT_GT(cost.at("total_usd").get<double>(), 0);
  EXPECT_GT(cost.at("by_tier_usd").at("spot").get<double>(), 0);
  EXPECT_GT(cost.at("by_tier_usd").at("reserved").get<double>(), 0);
  EXPECT_GT(cost.at("lost_work_usd").get<double>(), 0);
  for (const char* column : {"reclaims", "lost GPU-h", "goodput", "$/useful GPU-h"}) {
    EXPECT_NE(a.out.find(column), std::string::npos) << column;
  }
}

TEST_F(InterruptionsCliTest, ASpotRateOfZeroReproducesTheRunWithoutInterruptions) {
  json without = SpotHeavy();
  without.erase("failures");
  without["fleet"]["pools"][0].erase("spot");
  json zero = without;
  zero["fleet"]["pools"][0]["spot"] = {{"interruptions_per_node_hour", 0}, {"notice_s", 120}};
  for (const char* policy : {"fifo", "backfill", "constraint-aware"}) {
    ASSERT_EQ(RunVariant("without", without, policy).exit_code, 0);
    ASSERT_EQ(RunVariant("zero", zero, policy).exit_code, 0);
    const std::string run = "out";  // one policy: its files directly under --out
    const std::string jobs_without = ReadFile(dir_ + "/without/" + run + "/jobs.csv");
    EXPECT_EQ(jobs_without, ReadFile(dir_ + "/zero/" + run + "/jobs.csv")) << policy;
    json a = Summary("without/" + run);
    json b = Summary("zero/" + run);
    EXPECT_EQ(a.at("metrics"), b.at("metrics")) << policy;
    EXPECT_EQ(a.at("accounting"), b.at("accounting")) << policy;
    EXPECT_EQ(a.at("cost"), b.at("cost")) << policy;
    EXPECT_EQ(b.at("metrics").at("spot_reclaims"), 0);
  }
}

TEST_F(InterruptionsCliTest, TheSeedDrawsTheInterruptions) {
  // Listed jobs only, so the seed changes nothing but the reclaims and failures.
  json listed = SpotHeavy();
  listed.erase("generator");
  listed.erase("transforms");
  listed["jobs"] = json::array();
  for (int i = 0; i < 12; ++i) {
    listed["jobs"].push_back({{"id", fmt::format("train-{}", i)},
                              {"submit_s", i * 3600},
                              {"gpus", 8},
                              {"duration_s", 12 * 3600}});
  }
  fs::create_directories(dir_ + "/listed");
  const std::string path = dir_ + "/listed/s.json";
  std::ofstream(path) << listed.dump(2);
  for (const char* seed : {"1", "2"}) {
    const CommandResult r =
        Fleetsim(fmt::format("run '{}' --seed {} --out '{}/seed-{}'", path, seed, dir_, seed));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const json a = Summary("seed-1");
  const json b = Summary("seed-2");
  EXPECT_EQ(a.at("config").at("workload"), b.at("config").at("workload"));
  EXPECT_NE(a.at("accounting"), b.at("accounting"));
}

}  // namespace
}  // namespace fleetsim
