// End-to-end tests of `fleetsim bench` on the checked-in benchmark suite: the tables, the --json
// file against its documented schema, the acceptance claims of the constraint-aware allocator,
// the goldens (tests/golden/benchmark.json, compared exactly), byte-identical reruns, silence on a
// non-terminal stderr, and clear errors for bad input. Also recomputes the headline metrics of a
// run from its per-job output, independently of the code that computed them, and checks that
// jobs given work earn their work in the priority-weighted output wherever they ran.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "testutil/command.h"
#include "testutil/json_schema.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::CommandResult;
using testing::ReadFile;
using testing::SourcePath;

const std::vector<std::string> kScenarios = {
    "01-training-heavy",  "02-mixed-control", "03-inference-peak",  "04-quantization-burst",
    "05-deadline-crunch", "06-scale-test",    "07-uniform-priority"};
const std::vector<std::string> kContended = {"01-training-heavy", "02-mixed-control",
                                             "03-inference-peak", "04-quantization-burst",
                                             "05-deadline-crunch"};

class BenchCliTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = testing::FreshTempDir(); }
  void TearDown() override { fs::remove_all(dir_); }

  CommandResult Fleetsim(const std::string& args) {
    return testing::RunCommand(fmt::format("'{}' {}", FLEETSIM_CLI_PATH, args), dir_);
  }
  // Runs the checked-in suite with --json; returns the parsed file.
  json BenchJson(const std::string& name) {
    const std::string file = dir_ + "/" + name;
    const CommandResult r =
        Fleetsim(fmt::format("bench '{}' --json '{}'", SourcePath("scenarios/benchmark"), file));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "") << "no progress or noise when stderr is not a terminal";
    return json::parse(ReadFile(file));
  }

  std::string dir_;
};

// metrics[scenario][policy] -> the run's metrics object.
std::map<std::string, std::map<std::string, json>> ByScenario(const json& results) {
  std::map<std::string, std::map<std::string, json>> out;
  for (const json& r : results.at("results")) {
    out[r.at("scenario").get<std::string>()][r.at("policy").get<std::string>()] = r.at("metrics");
  }
  return out;
}

TEST_F(BenchCliTest, PrintsATablePerScenarioWithThePostsFiguresBesideOurs) {
  const CommandResult r = Fleetsim(fmt::format("bench '{}'", SourcePath("scenarios/benchmark")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const std::string& scenario : kScenarios) {
    EXPECT_NE(r.out.find(scenario + "\n  policy"), std::string::npos) << scenario;
  }
  for (const char* policy : {"fifo", "first-fit", "backfill", "fair-share", "constraint-aware"}) {
    EXPECT_NE(r.out.find(fmt::format("\n  {} ", policy)), std::string::npos) << policy;
  }
  EXPECT_NE(r.out.find("utilization 53.6 % -> 87.0 % (+33.4 pp); priority-weighted output "
                       "+105.1 %"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("Δ pp"), std::string::npos);
}

TEST_F(BenchCliTest, JsonValidatesAgainstItsDocumentedSchema) {
  const json results = BenchJson("bench.json");
  const json schema =
      json::parse(ReadFile(SourcePath("scenarios/schema/bench-results.schema.json")));
  EXPECT_EQ(testing::ValidateAgainstSchema(schema, results), std::vector<std::string>{});
  EXPECT_EQ(results.at("results").size(), kScenarios.size() * 5);
  // The schema is not vacuous: a utilization given in percent is refused.
  json wrong = results;
  wrong["results"][0]["metrics"]["utilization"] = 78.6;
  EXPECT_FALSE(testing::ValidateAgainstSchema(schema, wrong).empty());
}

// The issue's acceptance, checked on every run of the suite so a change to a policy cannot
// quietly undo it: constraint-aware >= fifo on utilization and > fifo on priority-weighted output
// everywhere, and >= backfill and fair-share on output on the five contended scenarios.
TEST_F(BenchCliTest, ConstraintAwareMeetsTheAcceptanceOnEveryScenario) {
  const auto runs = ByScenario(BenchJson("bench.json"));
  for (const std::string& scenario : kScenarios) {
    SCOPED_TRACE(scenario);
    const auto& by_policy = runs.at(scenario);
    const json& ca = by_policy.at("constraint-aware");
    const json& fifo = by_policy.at("fifo");
    EXPECT_GE(ca.at("utilization").get<double>(), fifo.at("utilization").get<double>());
    EXPECT_GT(ca.at("priority_weighted_output").get<double>(),
              fifo.at("priority_weighted_output").get<double>());
  }
  for (const std::string& scenario : kContended) {
    SCOPED_TRACE(scenario);
    const auto& by_policy = runs.at(scenario);
    const double ca = by_policy.at("constraint-aware").at("priority_weighted_output");
    EXPECT_GE(ca, by_policy.at("backfill").at("priority_weighted_output").get<double>());
    EXPECT_GE(ca, by_policy.at("fair-share").at("priority_weighted_output").get<double>());
  }
}

// The regression guard CI relies on: today's results equal the checked-in goldens exactly, for the
// seven scenarios and the extended suite. When a change moves them on purpose, regenerate them
// with tools/update-goldens (docs/regression.md) and say why in the commit.
TEST_F(BenchCliTest, ResultsMatchTheGoldensExactly) {
  for (const auto& [suite, golden] : std::vector<std::pair<std::string, std::string>>{
           {"scenarios/benchmark", "tests/golden/benchmark.json"},
           {"scenarios/benchmark/extended", "tests/golden/extended.json"}}) {
    SCOPED_TRACE(suite);
    const std::string current = dir_ + "/current.json";
    const CommandResult bench =
        Fleetsim(fmt::format("bench '{}' --json '{}'", SourcePath(suite), current));
    ASSERT_EQ(bench.exit_code, 0) << bench.err;
    const CommandResult r =
        Fleetsim(fmt::format("compare --strict '{}' '{}'", SourcePath(golden), current));
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err
                              << "\nIf this change is meant to move the results, run "
                                 "tools/update-goldens (docs/regression.md).";
  }
}

// `bench --check GOLDEN`: the run and the strict comparison in one step.
TEST_F(BenchCliTest, CheckComparesWithGoldensInOneStep) {
  const std::string scenario = SourcePath("scenarios/benchmark/01-training-heavy.json");
  const std::string golden = dir_ + "/golden.json";
  ASSERT_EQ(Fleetsim(fmt::format("bench '{}' --policy fifo,backfill --json '{}'", scenario, golden))
                .exit_code,
            0);
  const CommandResult same =
      Fleetsim(fmt::format("bench '{}' --policy fifo,backfill --check '{}'", scenario, golden));
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  EXPECT_NE(same.out.find("2 results compared, identical\n"), std::string::npos) << same.out;
  // A policy the goldens lack is drift here (--strict), and so is a changed value.
  const CommandResult more = Fleetsim(
      fmt::format("bench '{}' --policy fifo,backfill,first-fit --check '{}'", scenario, golden));
  EXPECT_EQ(more.exit_code, 5) << more.out;
  EXPECT_NE(more.out.find("01-training-heavy  first-fit  seed "), std::string::npos) << more.out;
  EXPECT_NE(more.out.find("drift: result only in the current"), std::string::npos) << more.out;
  nlohmann::json altered = nlohmann::json::parse(testing::ReadFile(golden));
  altered["results"][0]["metrics"]["jobs_completed"] = -1;
  std::ofstream(golden) << altered.dump(1);
  const CommandResult drift =
      Fleetsim(fmt::format("bench '{}' --policy fifo,backfill --check '{}'", scenario, golden));
  EXPECT_EQ(drift.exit_code, 5) << drift.out;
  EXPECT_NE(drift.out.find("01-training-heavy  fifo  seed "), std::string::npos) << drift.out;
  const CommandResult missing =
      Fleetsim(fmt::format("bench '{}' --policy fifo --check '{}'", scenario, dir_ + "/none.json"));
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("fleetsim: --check: "), std::string::npos) << missing.err;
}

TEST_F(BenchCliTest, RerunsAreByteIdentical) {
  const std::string suite = SourcePath("scenarios/benchmark");
  for (const char* run : {"a", "b"}) {
    const CommandResult r = Fleetsim(fmt::format(
        "bench '{}' --json '{}/{}.json' --html '{}/{}.html'", suite, dir_, run, dir_, run));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  EXPECT_EQ(ReadFile(dir_ + "/a.json"), ReadFile(dir_ + "/b.json"));
  EXPECT_EQ(ReadFile(dir_ + "/a.html"), ReadFile(dir_ + "/b.html"));
}

TEST_F(BenchCliTest, BadInputIsAClearErrorAndWritesNothing) {
  const std::string suite = dir_ + "/suite";
  fs::create_directories(suite);
  const CommandResult empty = Fleetsim(fmt::format("bench '{}' --json out.json", suite));
  EXPECT_EQ(empty.exit_code, 1);
  EXPECT_NE(empty.err.find("no scenario files (*.json) in this directory"), std::string::npos)
      << empty.err;
  fs::copy_file(SourcePath("scenarios/benchmark/01-training-heavy.json"),
                suite + "/01-training-heavy.json");
  std::ofstream(suite + "/published-figures.json")
      << R"({"scenarios": {"01-training-heavy": {"fifo_utilization": 53.6}}})";
  const CommandResult bad = Fleetsim(fmt::format("bench '{}' --json out.json", suite));
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("published-figures.json: /scenarios/01-training-heavy/fifo_utilization: "
                         "expected a string, found 53.6"),
            std::string::npos)
      << bad.err;
  EXPECT_FALSE(fs::exists(dir_ + "/out.json"));
  const CommandResult policy = Fleetsim(fmt::format("bench '{}' --policy fifo,nope", suite));
  EXPECT_EQ(policy.exit_code, 2);
}

TEST_F(BenchCliTest, OutputFilesGoIntoNewDirectoriesAndBadTargetsStopBeforeAnyRun) {
  const std::string scenario = SourcePath("scenarios/benchmark/01-training-heavy.json");
  const std::string d = dir_;
  const CommandResult nested = Fleetsim(
      fmt::format("bench '{}' --policy fifo --json '{}/new/dir/r.json' --html '{}/other/r.html'",
                  scenario, d, d));
  ASSERT_EQ(nested.exit_code, 0) << nested.err;
  EXPECT_TRUE(fs::is_regular_file(d + "/new/dir/r.json"));
  EXPECT_TRUE(fs::is_regular_file(d + "/other/r.html"));

  const CommandResult same = Fleetsim(
      fmt::format("bench '{}' --json '{}/same.out' --html '{}/./same.out'", scenario, d, d));
  EXPECT_EQ(same.exit_code, 2);
  EXPECT_NE(same.err.find("--json and --html name the same file"), std::string::npos) << same.err;
  EXPECT_EQ(same.out, "") << "nothing ran";
  EXPECT_FALSE(fs::exists(d + "/same.out"));

  // A file inside --out could be one of the commit's (issue 19: `--json B/comparison.csv`).
  const CommandResult inside = Fleetsim(fmt::format(
      "bench '{}' --policy fifo --out '{}/b' --json '{}/b/comparison.csv'", scenario, d, d));
  EXPECT_EQ(inside.exit_code, 2);
  EXPECT_NE(inside.err.find("--json: '" + d + "/b/comparison.csv' is inside --out"),
            std::string::npos)
      << inside.err;
  EXPECT_FALSE(fs::exists(d + "/b"));

  fs::create_directories(d + "/a-dir");
  const CommandResult directory = Fleetsim(fmt::format(
      "bench '{}' --json '{}/ok.json' --html '{}/a-dir' --out '{}/runs'", scenario, d, d, d));
  EXPECT_EQ(directory.exit_code, 2);
  EXPECT_NE(directory.err.find("/a-dir' is a directory, not a file"), std::string::npos)
      << directory.err;
  EXPECT_FALSE(fs::exists(d + "/ok.json"));
  EXPECT_FALSE(fs::exists(d + "/runs"));
}

TEST_F(BenchCliTest, FiguresFileKeysAreCheckedAndUnmatchedNamesReported) {
  const std::string suite = dir_ + "/suite";
  fs::create_directories(suite);
  fs::copy_file(SourcePath("scenarios/benchmark/01-training-heavy.json"),
                suite + "/01-training-heavy.json");
  std::ofstream(suite + "/published-figures.json")
      << R"({"sources": "x", "scenarios": {"01-trainin-heavy": {"output_gain": "+1 %"}}})";
  const CommandResult unknown = Fleetsim(fmt::format("bench '{}' --policy fifo", suite));
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_NE(unknown.err.find("published-figures.json: /sources: unknown key (expected source, "
                             "scenarios)"),
            std::string::npos)
      << unknown.err;
  std::ofstream(suite + "/published-figures.json")
      << R"({"scenarios": {"01-trainin-heavy": {"output_gain": "+1 %"}}})";
  const CommandResult unmatched = Fleetsim(fmt::format("bench '{}' --policy fifo", suite));
  EXPECT_EQ(unmatched.exit_code, 0) << unmatched.err;
  EXPECT_EQ(unmatched.err,
            "fleetsim: warning: published figures for '01-trainin-heavy', which no scenario here "
            "is named\n");
}

// ---- Headline metrics recomputed from the per-job output ------------------------------------

// One CSV file as rows of name -> value (no quoted commas in these files' fields we read).
std::vector<std::map<std::string, std::string>> ReadCsv(const std::string& path) {
  std::istringstream in(ReadFile(path));
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  std::stringstream names(line);
  for (std::string name; std::getline(names, name, ',');) {
    header.push_back(name);
  }
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    std::stringstream cells(line);
    std::map<std::string, std::string> row;
    std::string cell;
    for (const std::string& name : header) {
      std::getline(cells, cell, ',');
      row[name] = cell;
    }
    rows.push_back(row);
  }
  return rows;
}

// Scenario 1 under fifo and constraint-aware: no job is stopped or checkpoints, so a batch job's
// GPU-time is gpu_share x (end or the window's end - start); a service's counts as the GPU-hours
// of demand it served (realtime.csv). From those alone: utilization, priority-weighted output,
// jobs completed and the p99 wait, compared with summary.json.
TEST_F(BenchCliTest, HeadlineMetricsRecomputeFromJobsCsvAndRealtimeCsv) {
  const std::string out = dir_ + "/out";
  const CommandResult r =
      Fleetsim(fmt::format("run '{}' --policy fifo,constraint-aware --out '{}'",
                           SourcePath("scenarios/benchmark/01-training-heavy.json"), out));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* policy : {"fifo", "constraint-aware"}) {
    SCOPED_TRACE(policy);
    const std::string run = out + "/01-training-heavy/" + policy;
    const json summary = json::parse(ReadFile(run + "/summary.json"));
    const json& m = summary.at("metrics");
    const double window_end = m.at("window_end_s");
    const double capacity_gpu_s = 8 * (window_end - m.at("window_start_s").get<double>());
    std::map<std::string, double> served_gpu_h;
    for (const auto& step : ReadCsv(run + "/realtime.csv")) {
      served_gpu_h[step.at("job")] += std::stod(step.at("served_gpu_hours"));
    }
    double working_gpu_s = 0;
    double weighted_gpu_h = 0;
    std::int64_t completed = 0;
    std::vector<double> waits;
    for (const auto& job : ReadCsv(run + "/jobs.csv")) {
      ASSERT_EQ(job.at("preemptions"), "0");
      const double priority = std::stod(job.at("priority"));
      completed += job.at("state") == "completed" ? 1 : 0;
      if (job.at("start_s").empty()) {
        continue;
      }
      waits.push_back(std::stod(job.at("wait_s")));
      if (served_gpu_h.count(job.at("id")) != 0) {
        working_gpu_s += served_gpu_h.at(job.at("id")) * 3600;
        weighted_gpu_h += priority * served_gpu_h.at(job.at("id"));
        continue;
      }
      const double end = job.at("end_s").empty() ? window_end : std::stod(job.at("end_s"));
      const double gpu_s = std::stod(job.at("gpu_share")) * (end - std::stod(job.at("start_s")));
      working_gpu_s += gpu_s;
      weighted_gpu_h += priority * gpu_s / 3600;
    }
    EXPECT_NEAR(m.at("utilization").get<double>(), working_gpu_s / capacity_gpu_s, 1e-6);
    EXPECT_NEAR(m.at("priority_weighted_output").get<double>(), weighted_gpu_h, 1e-3);
    EXPECT_EQ(m.at("jobs_completed").get<std::int64_t>(), completed);
    std::sort(waits.begin(), waits.end());
    const auto rank = static_cast<std::size_t>(std::ceil(0.99 * static_cast<double>(waits.size())));
    EXPECT_NEAR(m.at("wait_p99_s").get<double>(), waits.at(rank - 1), 1e-3);
  }
}

// The extended spot-heavy scenario lists four jobs given work in reference GPU-hours, which run
// on H100s, H200s or B200s at different speeds and across NVLink domains: each one that completed
// earns exactly its work, whatever GPU-hours it took, and the priority-weighted output is
// Σ priority x useful_work_gpu_hours over jobs.csv. Under constraint-aware the 32-GPU pretraining
// is interrupted and resumes on other GPUs (the frozen scenario's draws), and still earns its work.
TEST_F(BenchCliTest, OutputCountsTheWorkOfJobsGivenWorkWhereverTheyRan) {
  const std::string scenario = SourcePath("scenarios/benchmark/extended/spot-heavy-training.json");
  const json spec = json::parse(ReadFile(scenario));
  std::map<std::string, double> work;
  for (const json& job : spec.at("jobs")) {
    work[job.at("id").get<std::string>()] = job.at("work_gpu_hours").get<double>();
  }
  const std::string out = dir_ + "/out";
  const CommandResult r = Fleetsim(
      fmt::format("run '{}' --policy first-fit,constraint-aware --out '{}'", scenario, out));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* policy : {"first-fit", "constraint-aware"}) {
    SCOPED_TRACE(policy);
    const std::string run = out + "/ext-spot-heavy-training/" + policy;
    double weighted = 0;
    std::int64_t completed_with_work = 0;
    bool took_other_gpu_hours = false;
    bool completed_after_a_stop = false;
    for (const auto& job : ReadCsv(run + "/jobs.csv")) {
      const double useful_work = std::stod(job.at("useful_work_gpu_hours"));
      weighted += std::stod(job.at("priority")) * useful_work;
      const auto listed = work.find(job.at("id"));
      if (listed == work.end() || job.at("state") != "completed") {
        continue;
      }
      ++completed_with_work;
      EXPECT_NEAR(useful_work, listed->second, 1e-3) << job.at("id");
      took_other_gpu_hours |= std::abs(std::stod(job.at("useful_gpu_hours")) - listed->second) > 1;
      completed_after_a_stop |= job.at("interruptions") != "0";
    }
    EXPECT_GE(completed_with_work, 3);
    EXPECT_TRUE(took_other_gpu_hours) << "some listed job ran at other than reference speed";
    if (std::string(policy) == "constraint-aware") {
      EXPECT_TRUE(completed_after_a_stop);
    }
    const json summary = json::parse(ReadFile(run + "/summary.json"));
    EXPECT_NEAR(summary.at("metrics").at("priority_weighted_output").get<double>(), weighted, 1e-2);
  }
}

}  // namespace
}  // namespace fleetsim
