// A run's report carries what was run by value (results/run_report.h): FactsOf takes the
// scenario's name, description, fleet size, stop time, trace (as asked, and what reading it gave)
// and generator blocks, and the report outlives the scenario; runs of one scenario are told
// apart by name.
#include "fleetsim/results/run_report.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "fleetsim/policy/registry.h"
#include "fleetsim/scenario/runner.h"
#include "fleetsim/scenario/scenario.h"

namespace fleetsim {
namespace {

constexpr char kScenario[] = R"({"format_version": 1, "name": "facts", "seed": 3,
  "description": "two generator blocks on 8 GPUs", "run": {"until_s": 7200},
  "fleet": {"pools": [{"name": "p", "template": "hgx-h100", "nodes": 1}]},
  "policy": {"name": "fifo"},
  "generator": {"jobs": 5, "mean_interarrival_s": 60, "duration_s": {"median": 600, "sigma": 0.5}, "gpus": {"values": [1], "weights": [1]}},
  "generators": [{"jobs": 2, "mean_interarrival_s": 30, "duration_s": {"median": 60, "sigma": 0.5},
                  "gpus": {"values": [1], "weights": [1]},
                  "id_prefix": "b"}]})";

TEST(RunReportTest, FactsOfAScenarioAreWhatSummaryJsonSaysOfIt) {
  const PolicyRegistry registry = BuiltinPolicies();
  const LoadResult loaded = ParseScenario(kScenario, "facts.json", registry, {});
  ASSERT_TRUE(loaded.scenario) << loaded.diagnostics.Format("facts.json");
  const ScenarioFacts facts = FactsOf(*loaded.scenario);
  EXPECT_EQ(facts.name, "facts");
  EXPECT_EQ(facts.description, "two generator blocks on 8 GPUs");
  EXPECT_EQ(facts.fleet_gpus, 8);
  EXPECT_EQ(facts.until, 7200 * kMillisPerSecond);
  EXPECT_FALSE(facts.trace.has_value());
  EXPECT_EQ(facts.generator_blocks, 2U);
  ASSERT_TRUE(facts.generator.has_value());
  EXPECT_EQ(facts.generator->jobs, 5);
}

TEST(RunReportTest, FactsOfAReplayedTraceAreWhatWasAskedAndWhatReadingItGave) {
  const std::string dir = ::testing::TempDir() + "run_report_test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/t.jsonl") << R"({"id":"a","submit_s":1,"gpus":1,"duration_s":20}
{"id":"b","submit_s":0,"gpus":1,"duration_s":20}
not json
)";
  std::ofstream(dir + "/s.json") << R"({"format_version": 1, "name": "replay",
    "fleet": {"pools": [{"name": "p", "template": "hgx-h100", "nodes": 1}]},
    "trace": {"format": "jsonl", "path": "t.jsonl", "on_bad_row": "skip"}})";
  const PolicyRegistry registry = BuiltinPolicies();
  const LoadResult loaded = LoadScenarioFile(dir + "/s.json", registry, {});
  ASSERT_TRUE(loaded.scenario) << loaded.file_status << loaded.diagnostics.Format("s.json");
  const ScenarioFacts facts = FactsOf(*loaded.scenario);
  ASSERT_TRUE(facts.trace.has_value());
  EXPECT_EQ(facts.trace->format, "jsonl");
  EXPECT_EQ(facts.trace->path, "t.jsonl");  // as written, not resolved
  EXPECT_EQ(facts.trace->on_bad_row, BadRowPolicy::kSkip);
  EXPECT_EQ(facts.trace->options, loaded.scenario->trace->options);
  EXPECT_EQ(facts.trace->report.jobs, 2);
  EXPECT_EQ(facts.trace->report.skipped_rows(), 1);
  EXPECT_EQ(facts.trace->report.out_of_order, loaded.scenario->trace->report.out_of_order);
  EXPECT_EQ(facts.generator_blocks, 0U);
  EXPECT_FALSE(facts.generator.has_value());
}

TEST(RunReportTest, AReportOutlivesItsScenario) {
  const PolicyRegistry registry = BuiltinPolicies();
  std::optional<RunOutcome> outcome;
  {
    const LoadResult loaded = ParseScenario(kScenario, "facts.json", registry, {});
    ASSERT_TRUE(loaded.scenario) << loaded.diagnostics.Format("facts.json");
    outcome = RunScenario(*loaded.scenario, registry, loaded.scenario->policy, {});
  }
  ASSERT_TRUE(outcome->status.ok()) << outcome->status;
  EXPECT_EQ(outcome->report.scenario.name, "facts");
  EXPECT_EQ(outcome->report.scenario.generator_blocks, 2U);
  EXPECT_EQ(outcome->report.jobs_generated, 7);
}

TEST(RunReportTest, RunsOfOneScenarioShareItsName) {
  RunReport a;
  a.scenario.name = "x";
  a.policy.name = "fifo";
  RunReport b = a;
  b.policy.name = "backfill";
  b.scenario.description = "another description";
  RunReport c = a;
  c.scenario.name = "y";
  EXPECT_TRUE(SameScenario(a, b));
  EXPECT_FALSE(SameScenario(a, c));
}

}  // namespace
}  // namespace fleetsim
