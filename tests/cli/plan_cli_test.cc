// `fleetsim plan` end to end: the answer printed and plan.csv/plan.json written (exit 0); a plan
// no fleet meets (exit 7, the closest shown); a bad spec (exit 1, nothing written); a sweep's
// folder refused (exit 2); and a second call in the same folder reusing every run.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>
#include <nlohmann/json.hpp>

#include "testutil/command.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;

class PlanCliTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = testing::FreshTempDir(); }

  CommandResult Fleetsim(const std::string& args) {
    return testing::RunCommand(fmt::format("'{}' {}", FLEETSIM_CLI_PATH, args), dir_);
  }

  // A copy of the small test grid with these targets, written as DIR/plan.json.
  std::string PlanWith(const std::string& targets) {
    nlohmann::json plan = nlohmann::json::parse(testing::ReadFile(testing::DataPath("plans/small-grid.json")));
    plan["base"] = testing::SourcePath("scenarios/plans/bases/team-week-doubled.json");
    plan["axes"][0]["values"] = {2, 3, 4};
    plan["axes"][1]["values"] = {0, 2};
    plan["axes"][2]["values"] = {1, 2};
    plan["axes"][3]["values"] = {0};
    plan["targets"] = nlohmann::json::parse(targets);
    const std::string path = dir_ + "/plan.json";
    std::ofstream(path) << plan.dump(2);
    return path;
  }

  std::string dir_;
};

// A grid too large for the memory the process may have (here a 400 x 400 grid, about 1.5 GB
// expanded, under a 700 MB address-space limit) ends with a message and exit 8, nothing
// written: it once ended in "terminate called after throwing an instance of std::bad_alloc"
// (status 134). Not run under ASan, whose shadow memory needs more address space than any such
// limit allows; the ci preset runs it.
TEST_F(PlanCliTest, AGridBeyondTheMemoryLimitSaysSoAndWritesNothing) {
  std::ofstream(dir_ + "/base.json") << R"({"format_version": 1, "name": "tiny", "seed": 1,
    "fleet": {"pools": [{"name": "a", "template": "hgx-h100", "nodes": 1},
                        {"name": "b", "template": "hgx-h100", "nodes": 1, "tier": "spot"}]},
    "policy": {"name": "first-fit"},
    "jobs": [{"id": "a", "submit_s": 0, "gpus": 4, "duration_s": 7200},
             {"id": "b", "submit_s": 60, "gpus": 16, "duration_s": 3600}]})";
  std::ofstream(dir_ + "/grid.json") << R"({"format_version": 1, "kind": "plan", "name": "grid",
    "base": "base.json",
    "axes": [{"name": "a", "pointer": "/fleet/pools/0/nodes", "values": {"first": 1, "last": 400}},
             {"name": "b", "pointer": "/fleet/pools/1/nodes", "values": {"first": 0, "last": 399}}],
    "targets": [{"metric": "jobs_rejected", "at_most": 0}]})";
  const CommandResult r = testing::RunCommand(
      fmt::format("cd '{}' && ulimit -v 700000 && '{}' plan grid.json --out out -j 2", dir_,
                  FLEETSIM_CLI_PATH),
      dir_);
  EXPECT_EQ(r.exit_code, 8) << r.err;
  EXPECT_EQ(r.err,
            "fleetsim: out of memory: the command needed more memory than it could get (a huge "
            "grid, trace or fleet?); no output file was committed\n");
  EXPECT_FALSE(fs::exists(dir_ + "/out/plan.csv"));
}

TEST_F(PlanCliTest, PrintsTheAnswerWritesItsFilesAndASecondCallReusesEveryRun) {
  const std::string plan = PlanWith(R"([{"metric": "wait_p99_s", "at_most": 14400},
                                         {"metric": "jobs_rejected", "at_most": 0}])");
  const CommandResult first = Fleetsim(fmt::format("plan '{}' -o '{}/out' -j 2", plan, dir_));
  ASSERT_EQ(first.exit_code, 0) << first.err << first.out;
  EXPECT_NE(first.out.find("answer:\n  h100_nodes="), std::string::npos) << first.out;
  EXPECT_NE(first.out.find("wait_p99_s <= 14400 (mean over the seeds): "), std::string::npos)
      << first.out;
  EXPECT_NE(first.out.find("search: "), std::string::npos) << first.out;
  const nlohmann::json written =
      nlohmann::json::parse(testing::ReadFile(dir_ + "/out/plan.json"));
  EXPECT_EQ(written["answer"]["status"], "feasible");
  EXPECT_EQ(written["candidates"], 12);
  const std::string csv = testing::ReadFile(dir_ + "/out/plan.csv");
  EXPECT_EQ(csv.rfind("candidate,h100_nodes,h100_spot_nodes,h200_nodes,b200_nodes,"
                      "cost_per_day_usd,status,seeds_run,target0_wait_p99_s,target0_met,"
                      "target1_jobs_rejected,target1_met,error\n",
                      0),
            0U)
      << csv;

  const CommandResult again = Fleetsim(fmt::format("plan '{}' -o '{}/out' -j 1", plan, dir_));
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(testing::ReadFile(dir_ + "/out/plan.json"), written.dump(2) + "\n");
  EXPECT_NE(again.out.find(fmt::format("runs made by this call: 0 ({} more were recorded in",
                                       written["runs"].get<int>())),
            std::string::npos)
      << again.out;
}

// Targets on one tenant's and one kind's waits: named with their group in every output; a
// second call with another group target runs again the runs recorded without it, a third
// reuses them all.
TEST_F(PlanCliTest, GroupTargetsAreNamedRecordedAndRunAgainWhenARecordLacksThem) {
  const std::string one = PlanWith(R"([{"metric": "wait_p99_s", "at_most": 14400,
                                        "tenant": "research"}])");
  const CommandResult first = Fleetsim(fmt::format("plan '{}' -o '{}/out' -j 2", one, dir_));
  ASSERT_EQ(first.exit_code, 0) << first.err << first.out;
  EXPECT_NE(first.out.find(R"(wait_p99_s{tenant="research"} <= 14400 (mean over the seeds): )"),
            std::string::npos)
      << first.out;
  const nlohmann::json written =
      nlohmann::json::parse(testing::ReadFile(dir_ + "/out/plan.json"));
  EXPECT_EQ(written["answer"]["targets"][0]["tenant"], "research");
  EXPECT_EQ(written["answer"]["targets"][0]["name"], R"(wait_p99_s{tenant="research"})");
  EXPECT_NE(testing::ReadFile(dir_ + "/out/plan.csv").find(R"("target0_wait_p99_s{tenant=""research""}")"),
            std::string::npos);

  const std::string two = PlanWith(R"([{"metric": "wait_p99_s", "at_most": 14400,
                                        "tenant": "research"},
                                       {"metric": "wait_p90_s", "at_most": 14400,
                                        "kind": "fine-tuning"}])");
  const CommandResult second = Fleetsim(fmt::format("plan '{}' -o '{}/out' -j 2", two, dir_));
  ASSERT_EQ(second.exit_code, 0) << second.err << second.out;
  EXPECT_NE(second.out.find(R"(wait_p90_s{kind="fine-tuning"} <= 14400)"), std::string::npos)
      << second.out;
  EXPECT_EQ(second.out.find("runs made by this call: 0"), std::string::npos) << second.out;
  const CommandResult third = Fleetsim(fmt::format("plan '{}' -o '{}/out' -j 2", two, dir_));
  ASSERT_EQ(third.exit_code, 0) << third.err;
  EXPECT_NE(third.out.find("runs made by this call: 0 ("), std::string::npos) << third.out;
}

// Output per dollar: measured by the runs, maximized; plan.csv gives every fleet's figure and
// the answer is the feasible fleet with the highest, as the exhaustive pass finds too.
TEST_F(PlanCliTest, OutputPerDollarAnswersWithTheFeasibleFleetOfTheHighestFigure) {
  const std::string plan = PlanWith(R"([{"metric": "wait_p99_s", "at_most": 14400}])");
  nlohmann::json spec = nlohmann::json::parse(testing::ReadFile(plan));
  spec["objective"] = "output_per_dollar";
  std::ofstream(plan) << spec.dump(2);
  const CommandResult r = Fleetsim(fmt::format("plan '{}' -o '{}/out' -j 2", plan, dir_));
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("most output_per_dollar over 12 candidate fleets"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(" output/USD at "), std::string::npos) << r.out;
  const nlohmann::json written = nlohmann::json::parse(testing::ReadFile(dir_ + "/out/plan.json"));
  EXPECT_EQ(written["objective"]["sense"], "maximize");
  const double answer = written["answer"]["objective"].get<double>();
  EXPECT_GT(written["answer"]["cost_per_day_usd"].get<double>(), 0);
  const std::string html = testing::ReadFile(dir_ + "/out/plan.html");
  EXPECT_NE(html.find("<th>output_per_dollar (output/USD)</th>"), std::string::npos);
  EXPECT_NE(html.find("against cost_per_day"), std::string::npos);

  std::istringstream csv(testing::ReadFile(dir_ + "/out/plan.csv"));
  std::string line;
  std::getline(csv, line);
  EXPECT_NE(line.find(",cost_per_day_usd,output_per_dollar,status,"), std::string::npos) << line;
  double best = 0;
  while (std::getline(csv, line)) {  // candidate,4 axes,cost,output per dollar,status,...
    std::vector<std::string> fields;
    std::istringstream row(line);
    for (std::string field; std::getline(row, field, ',');) {
      fields.push_back(field);
    }
    if (fields.at(7) == "feasible") {
      best = std::max(best, std::stod(fields.at(6)));
    }
  }
  EXPECT_EQ(answer, best);

  const CommandResult all =
      Fleetsim(fmt::format("plan '{}' -o '{}/out' --exhaustive -j 2", plan, dir_));
  ASSERT_EQ(all.exit_code, 0) << all.err;
  const nlohmann::json exhaustive =
      nlohmann::json::parse(testing::ReadFile(dir_ + "/out/plan.json"));
  EXPECT_EQ(exhaustive["answer"]["axes"], written["answer"]["axes"]);
}

// Shards of the whole grid, started together in one new folder as array tasks are, then the
// choice from their runs: the files an exhaustive plan on one machine writes, with no run made.
TEST_F(PlanCliTest, ShardsOfTheGridThenTheChoiceWriteWhatAnExhaustivePlanWrites) {
  const std::string plan = PlanWith(R"([{"metric": "wait_p99_s", "at_most": 14400}])");
  const CommandResult shards = Fleetsim(fmt::format(
      "plan '{0}' -o '{1}/shared' --shard 1/3 -j 1 & a=$!; '{2}' plan '{0}' -o '{1}/shared' "
      "--shard 2/3 -j 1 & b=$!; '{2}' plan '{0}' -o '{1}/shared' --shard 3/3 -j 1 & c=$!; "
      "wait $a && wait $b && wait $c",
      plan, dir_, FLEETSIM_CLI_PATH));
  EXPECT_EQ(shards.exit_code, 0) << shards.err;
  EXPECT_EQ(shards.err.find("fleetsim:"), std::string::npos) << shards.err;
  EXPECT_NE(shards.out.find("shard 2/3 of plan 'small-grid': 8 runs (8 made, 0 recorded before)"),
            std::string::npos)
      << shards.out;
  EXPECT_FALSE(fs::exists(dir_ + "/shared/plan.json")) << "a shard writes no result";
  const CommandResult chosen =
      Fleetsim(fmt::format("plan '{}' -o '{}/shared' --exhaustive", plan, dir_));
  ASSERT_EQ(chosen.exit_code, 0) << chosen.err;
  EXPECT_NE(chosen.out.find("runs made by this call: 0 (24 more were recorded"),
            std::string::npos)
      << chosen.out;
  ASSERT_EQ(Fleetsim(fmt::format("plan '{}' -o '{}/one' --exhaustive", plan, dir_)).exit_code, 0);
  for (const char* file : {"plan.csv", "plan.json", "plan.html"}) {
    EXPECT_EQ(testing::ReadFile(dir_ + "/shared/" + file), testing::ReadFile(dir_ + "/one/" + file))
        << file;
  }
}

TEST_F(PlanCliTest, ADryRunOnSlurmWritesAnArrayOverTheGridAndAChoiceAfterIt) {
  const std::string plan = PlanWith(R"([{"metric": "wait_p99_s", "at_most": 14400}])");
  const CommandResult r = Fleetsim(fmt::format(
      "plan '{}' -o '{}/out' --slurm --runs-per-task 5 --partition gpu --dry-run", plan, dir_));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("(5 tasks for 24 runs)"), std::string::npos) << r.out;
  const std::string array = testing::ReadFile(dir_ + "/out/slurm/plan.sbatch");
  EXPECT_NE(array.find("#SBATCH --array=1-5\n"), std::string::npos) << array;
  EXPECT_NE(array.find("#SBATCH --partition=gpu\n"), std::string::npos) << array;
  EXPECT_NE(array.find(fmt::format("plan '{}' --out '{}/out' --shard \"${{SLURM_ARRAY_TASK_ID}}/5\" "
                                   "-j 1",
                                   plan, dir_)),
            std::string::npos)
      << array;
  const std::string choose = testing::ReadFile(dir_ + "/out/slurm/choose.sbatch");
  EXPECT_NE(choose.find(fmt::format("plan '{}' --out '{}/out' --exhaustive -j 1", plan, dir_)),
            std::string::npos)
      << choose;
  EXPECT_FALSE(fs::exists(dir_ + "/out/plan.json"));
  const CommandResult both =
      Fleetsim(fmt::format("plan '{}' -o '{}/out' --slurm --shard 1/2", plan, dir_));
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("--slurm makes the shards itself"), std::string::npos) << both.err;
}

// The whole path on a real Slurm (tools/slurm-local; missing packages fail the test, they never
// skip it), on ports of its own so it may run beside the sweep's Slurm test.
TEST_F(PlanCliTest, AnArrayAndItsChoiceOnARealSlurmWriteWhatAnExhaustivePlanWrites) {
  const std::string plan = PlanWith(R"([{"metric": "wait_p99_s", "at_most": 14400}])");
  std::ofstream(dir_ + "/submit.sh") << fmt::format(
      "'{0}' plan '{1}' -o '{2}/slurm-out' --slurm --runs-per-task 8 || exit 1\n"
      "for i in $(seq 1 600); do [ -z \"$(squeue -h)\" ] && exit 0; sleep 0.2; done\n"
      "echo 'the jobs did not finish in 120 s' >&2; squeue >&2; exit 1\n",
      FLEETSIM_CLI_PATH, plan, dir_);
  const std::string slurm_local = testing::SourcePath("tools/slurm-local");
  const CommandResult slurm = testing::RunCommand(
      fmt::format("SLURM_LOCAL_PORT_BASE=16917 '{}' run '{}/cluster' --nodes 2 --cpus 2 -- bash "
                  "'{}/submit.sh'",
                  slurm_local, dir_, dir_),
      dir_);
  ASSERT_EQ(slurm.exit_code, 0)
      << slurm.out << slurm.err
      << testing::RunCommand(fmt::format("'{}' logs '{}/cluster'", slurm_local, dir_), dir_).out;
  EXPECT_NE(slurm.out.find("submitted plan 'small-grid': array job"), std::string::npos)
      << slurm.out;
  ASSERT_EQ(Fleetsim(fmt::format("plan '{}' -o '{}/local' --exhaustive", plan, dir_)).exit_code, 0);
  for (const char* file : {"plan.csv", "plan.json", "plan.html"}) {
    EXPECT_EQ(testing::ReadFile(dir_ + "/slurm-out/" + file),
              testing::ReadFile(dir_ + "/local/" + file))
        << file << " differs between the Slurm and the local plan";
  }
  EXPECT_EQ(Fleetsim(fmt::format("verify '{}/slurm-out'", dir_)).exit_code, 0);
}

TEST_F(PlanCliTest, APlanNoFleetMeetsExitsSevenAndShowsTheClosest) {
  const std::string plan = PlanWith(R"([{"metric": "wait_p99_s", "at_most": 0.5,
                                         "seeds": "worst"}])");
  const CommandResult r = Fleetsim(fmt::format("plan '{}' -o '{}/out'", plan, dir_));
  EXPECT_EQ(r.exit_code, 7) << r.err << r.out;
  EXPECT_NE(r.out.find("no candidate fleet meets every target.\nthe closest (fewest targets "
                       "missed):\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("misses wait_p99_s <= 0.5 (worst seed): "), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(dir_ + "/out/plan.json"));
}

TEST_F(PlanCliTest, ABadSpecExitsOneAndWritesNothing) {
  const std::string plan = PlanWith(R"([{"metric": "p99_wait", "at_most": 7200}])");
  const CommandResult r = Fleetsim(fmt::format("plan '{}' -o '{}/out'", plan, dir_));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("/targets/0/metric: error: expected a metric"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ + "/out"));
}

TEST_F(PlanCliTest, ASweepsFolderIsRefused) {
  fs::create_directories(dir_ + "/out/.sweep");
  std::ofstream(dir_ + "/out/.sweep/points.json") << "{}";
  const std::string plan = PlanWith(R"([{"metric": "wait_p99_s", "at_most": 7200}])");
  const CommandResult r = Fleetsim(fmt::format("plan '{}' -o '{}/out'", plan, dir_));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("holds a sweep's results: choose another --out"), std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace fleetsim
