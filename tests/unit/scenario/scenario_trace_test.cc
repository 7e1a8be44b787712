// Scenarios that replay a trace ("trace": {"format", "path", "options", "on_bad_row"}): paths
// relative to the scenario file, options, the bad-row policies, GPU-model names checked against
// the scenario's catalog, id collisions with listed and generated jobs, and the workload built;
// and the trace cache a sweep loads its points with (one read per trace, the same jobs). The
// scenario and trace files are in a MemoryFileSystem (LoadOptions::files).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "fleetsim/core/file_system.h"
#include "fleetsim/scenario/load_cache.h"
#include "fleetsim/scenario/scenario.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

namespace fs = std::filesystem;

class ScenarioTraceTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    EXPECT_TRUE(files_.CreateDirectories(fs::path(path).parent_path().string()).ok());
    EXPECT_TRUE(files_.WriteFile(path, text).ok());
    return path;
  }
  // Loads a scenario file written beside the trace, with `trace` as its "trace" object.
  LoadResult Load(const std::string& trace, const std::string& extra = "") {
    const std::string path =
        Write("s.json", R"({"format_version": 1, "name": "t", "fleet": {"gpus": 8}, "trace": )" +
                            trace + extra + "}");
    return LoadScenarioFile(path, BuiltinPolicies(), {.files = &files_});
  }
  std::string Messages(const LoadResult& r) const {
    return r.file_status.ok() ? r.diagnostics.Format("s.json") : r.file_status.message();
  }

  MemoryFileSystem files_;
  std::string dir_ = "work";
};

constexpr char kTwoJobs[] = R"({"id":"b","submit_s":5,"gpus":2,"duration_s":10,"tenant":"x"}
{"id":"a","submit_s":1,"gpus":1,"duration_s":20}
)";

TEST_F(ScenarioTraceTest, ReadsATraceRelativeToTheScenarioFile) {
  Write("traces/t.jsonl", kTwoJobs);
  const LoadResult r = Load(R"({"format": "jsonl", "path": "traces/t.jsonl"})");
  ASSERT_TRUE(r.scenario) << Messages(r);
  const TraceSource& trace = *r.scenario->trace;
  EXPECT_EQ(trace.path, "traces/t.jsonl");
  EXPECT_EQ(trace.resolved_path, dir_ + "/traces/t.jsonl");
  EXPECT_EQ(trace.jobs->jobs.size(), 2u);
  EXPECT_EQ(r.notes.front(), dir_ + "/traces/t.jsonl: read 2 jobs (jsonl)");
  const Workload workload = BuildWorkload(*r.scenario, r.scenario->seed);
  ASSERT_EQ(workload.jobs.size(), 2u);
  EXPECT_EQ(workload.jobs[0].request.id, "a");
  EXPECT_EQ(workload.jobs[1].request.tenant, "x");
}

TEST_F(ScenarioTraceTest, OptionsReachTheFormat) {
  Write("p.csv", "timestamp,duration,num_gpus,gpu_time,cluster\n2017-10-01 00:00:10,60,1,60,vc1\n");
  const LoadResult r =
      Load(R"({"format": "philly", "path": "p.csv", "options": {"epoch": "2017-10-01 00:00:00"}})");
  ASSERT_TRUE(r.scenario) << Messages(r);
  EXPECT_EQ(r.scenario->trace->jobs->jobs.at(0).request.submit, 10'000);
  EXPECT_EQ(r.scenario->trace->options.at("epoch"), "2017-10-01 00:00:00");
}

TEST_F(ScenarioTraceTest, BadRowFailsTheScenarioWithFileAndLine) {
  Write("t.jsonl", R"({"id":"a","submit_s":0,"gpus":1,"duration_s":5}
{"id":"b","submit_s":0,"gpus":"two","duration_s":5}
)");
  const LoadResult r = Load(R"({"format": "jsonl", "path": "t.jsonl"})");
  EXPECT_FALSE(r.scenario);
  EXPECT_NE(Messages(r).find("s.json: /trace: error: " + dir_ + "/t.jsonl:2: field 'gpus'"),
            std::string::npos)
      << Messages(r);
}

TEST_F(ScenarioTraceTest, SkipLoadsTheGoodRowsAndNotesTheSkippedOnes) {
  Write("t.jsonl", R"({"id":"a","submit_s":0,"gpus":1,"duration_s":5}
{"id":"b","submit_s":0,"gpus":"two","duration_s":5}
)");
  const LoadResult r = Load(R"({"format": "jsonl", "path": "t.jsonl", "on_bad_row": "skip"})");
  ASSERT_TRUE(r.scenario) << Messages(r);
  EXPECT_EQ(r.scenario->trace->jobs->jobs.size(), 1u);
  EXPECT_EQ(r.scenario->trace->report.skipped_rows(), 1);
  EXPECT_EQ(r.notes.at(1), dir_ + "/t.jsonl: skipped 1 bad rows:");
}

TEST_F(ScenarioTraceTest, ReportsBadTraceSettingsTogether) {
  const LoadResult r =
      Load(R"({"format": "phily", "path": 3, "on_bad_row": "ignore", "option": {}})");
  EXPECT_FALSE(r.scenario);
  const std::string m = Messages(r);
  EXPECT_NE(m.find("/trace/option: warning: unknown key 'option', did you mean 'options'?"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("/trace/path: error: expected a string"), std::string::npos) << m;
  EXPECT_NE(m.find("/trace/format: error: unknown trace format 'phily', did you mean 'philly'?"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("/trace/on_bad_row: error: expected 'fail' or 'skip', found \"ignore\""),
            std::string::npos)
      << m;
}

TEST_F(ScenarioTraceTest, UnknownFormatOptionAndMissingFile) {
  Write("p.csv", "timestamp,duration,num_gpus,gpu_time,cluster\n");
  LoadResult r = Load(R"({"format": "philly", "path": "p.csv", "options": {"epok": "x"}})");
  EXPECT_NE(Messages(r).find("/trace/options: error: trace format 'philly' has no option 'epok', "
                             "did you mean 'epoch'?"),
            std::string::npos)
      << Messages(r);
  r = Load(R"({"format": "philly", "path": "none.csv"})");
  EXPECT_NE(Messages(r).find("/trace: error: " + dir_ + "/none.csv: cannot read"),
            std::string::npos)
      << Messages(r);
}

TEST_F(ScenarioTraceTest, GpuModelsAreCheckedAgainstTheCatalog) {
  Write("t.jsonl", R"({"id":"a","submit_s":0,"gpus":1,"gpu_models":["Z9"],"duration_s":5}
)");
  const LoadResult r = Load(R"({"format": "jsonl", "path": "t.jsonl"})");
  EXPECT_NE(Messages(r).find("t.jsonl:1: field 'gpu_models': unknown GPU model 'Z9'"),
            std::string::npos)
      << Messages(r);
}

TEST_F(ScenarioTraceTest, TraceIdsMustNotCollideWithListedOrGeneratedIds) {
  Write("t.jsonl", R"({"id":"g000001","submit_s":0,"gpus":1,"duration_s":5}
)");
  LoadResult r =
      Load(R"({"format": "jsonl", "path": "t.jsonl"})",
           R"(, "jobs": [{"id": "g000001", "submit_s": 0, "gpus": 1, "duration_s": 1}])");
  EXPECT_NE(Messages(r).find("/trace: error: trace job id 'g000001' collides with /jobs/0/id"),
            std::string::npos)
      << Messages(r);
}

}  // namespace
}  // namespace fleetsim

namespace fleetsim {
namespace {

std::vector<std::string> Summaries(const Workload& w) {
  std::vector<std::string> out;
  for (const Job& job : w.jobs) {
    out.push_back(fmt::format("{} {} {} {}", job.request.id, job.request.submit, job.request.gpus,
                              job.request.tenant));
  }
  return out;
}

// Two scenarios on different fleets replaying one trace read it once through a cache, share its
// jobs and get what reading it each time gives; another bad-row policy is another read.
TEST_F(ScenarioTraceTest, ACacheReadsEachTraceOnceAndGivesTheSameJobsAndNotes) {
  Write("traces/t.jsonl", kTwoJobs);
  const std::string trace = R"({"format": "jsonl", "path": "traces/t.jsonl"})";
  const LoadResult uncached = Load(trace);
  ASSERT_TRUE(uncached.scenario) << Messages(uncached);
  LoadCache cache;
  const auto load = [&](const std::string& fleet, const std::string& on_bad_row) {
    const std::string text = R"({"format_version": 1, "name": "t", "fleet": )" + fleet +
                             R"(, "trace": {"format": "jsonl", "path": "traces/t.jsonl",
                             "on_bad_row": ")" +
                             on_bad_row + R"("}})";
    return ParseScenario(text, dir_ + "/s.json", BuiltinPolicies(),
                         {.cache = &cache, .files = &files_});
  };
  const LoadResult first = load(R"({"gpus": 8})", "fail");
  const LoadResult second = load(R"({"gpus": 16})", "fail");
  ASSERT_TRUE(first.scenario && second.scenario) << Messages(first) << Messages(second);
  EXPECT_EQ(cache.trace_reads(), 1U);
  EXPECT_EQ(first.scenario->trace->jobs.get(), second.scenario->trace->jobs.get()) << "shared";
  for (const LoadResult* r : {&first, &second}) {
    EXPECT_EQ(Summaries(*r->scenario->trace->jobs), Summaries(*uncached.scenario->trace->jobs));
    EXPECT_EQ(r->notes, uncached.notes);
  }
  EXPECT_EQ(second.scenario->fleet.gpus, 16);
  ASSERT_TRUE(load(R"({"gpus": 8})", "skip").scenario);
  EXPECT_EQ(cache.trace_reads(), 2U);
}

}  // namespace
}  // namespace fleetsim
