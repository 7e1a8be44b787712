// The job fields restart_cost_s and checkpoint_sharded in the native formats: read from JSON
// Lines and CSV, written only away from their defaults, read back unchanged, and a negative
// restart cost refused as a bad row (readers) or a job-rule problem (ProblemsWith).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "fleetsim/core/file_system.h"
#include "fleetsim/trace/formats.h"
#include "fleetsim/trace/native.h"
#include "job_json/job_json.h"

namespace fleetsim {
namespace {

// What reading `bytes` as `format` yields, one string per row: the job as native JSON, or
// "<reason>: <error>" with the file's path written as FILE.
std::vector<std::string> Rows(const std::string& format, const std::string& bytes) {
  const std::string path = "input." + format;
  MemoryFileSystem files;
  EXPECT_TRUE(files.WriteFile(path, bytes).ok());
  OpenResult opened = FindTraceFormat(format)->open(files, path, {});
  if (opened.source == nullptr) {
    return {"open: " + opened.status.message()};
  }
  std::vector<std::string> rows;
  Job job;
  RowError error;
  for (JobSource::RowStatus status;
       (status = opened.source->Next(job, error)) != JobSource::RowStatus::kEnd;) {
    if (status == JobSource::RowStatus::kJob) {
      rows.push_back(JobToJson(job).dump());
      continue;
    }
    std::string text = error.Format();
    text.replace(text.find(path), path.size(), "FILE");
    rows.push_back(error.reason + ": " + text);
  }
  return rows;
}

template <typename Writer>
std::string Written(const std::vector<Job>& jobs) {
  std::ostringstream out;
  Writer writer(out);
  for (const Job& job : jobs) {
    writer.Write(job);
  }
  return out.str();
}

// A checkpointing job with one writer and a restart cost.
Job OneWriterJob() {
  Job job;
  job.request.id = "train-1";
  job.request.gpus = 16;
  job.request.checkpoint_interval = 3'600'000;
  job.request.checkpoint_cost = 60'000;
  job.request.checkpoint_sharded = false;
  job.request.restart_cost = 150'250;
  job.truth.duration = 86'400'000;
  return job;
}

constexpr char kOneWriterJson[] =
    R"({"id":"train-1","submit_s":0,"gpus":16,"checkpoint_interval_s":3600,)"
    R"("checkpoint_cost_s":60,"checkpoint_sharded":false,"restart_cost_s":150.25,)"
    R"("duration_s":86400})";

TEST(RestartFieldsTest, DefaultsAreShardedCheckpointsAndNoRestartCost) {
  const JobRequest request;
  EXPECT_TRUE(request.checkpoint_sharded);
  EXPECT_EQ(request.restart_cost, 0);
  EXPECT_EQ(Rows("jsonl", R"({"id": "a", "duration_s": 1})"),
            (std::vector<std::string>{R"({"id":"a","submit_s":0,"gpus":1,"duration_s":1})"}));
}

TEST(RestartFieldsTest, JsonLinesWritesThemAwayFromTheirDefaultsAndReadsThemBack) {
  EXPECT_EQ(Written<JsonlJobWriter>({OneWriterJob()}), std::string(kOneWriterJson) + "\n");
  EXPECT_EQ(Rows("jsonl", Written<JsonlJobWriter>({OneWriterJob()})),
            (std::vector<std::string>{kOneWriterJson}));
}

TEST(RestartFieldsTest, JsonLinesReadsExplicitDefaultsAndLeavesThemOut) {
  EXPECT_EQ(Rows("jsonl", R"({"id": "a", "checkpoint_sharded": true, "restart_cost_s": 0, )"
                          R"("duration_s": 1})"),
            (std::vector<std::string>{R"({"id":"a","submit_s":0,"gpus":1,"duration_s":1})"}));
}

TEST(RestartFieldsTest, CsvWritesThemAfterTheCheckpointCostAndReadsThemBack) {
  const std::string csv = Written<CsvJobWriter>({OneWriterJob()});
  EXPECT_NE(csv.find(",checkpoint_interval_s,checkpoint_cost_s,checkpoint_sharded,"
                     "restart_cost_s,walltime_s,"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find(",3600,60,false,150.25,"), std::string::npos) << csv;
  EXPECT_EQ(Rows("csv", csv), (std::vector<std::string>{kOneWriterJson}));
}

TEST(RestartFieldsTest, CsvReadsBothColumnsAndEmptyCellsAsDefaults) {
  EXPECT_EQ(
      Rows("csv",
           "id,submit_s,gpus,duration_s,checkpoint_sharded,restart_cost_s\n"
           "a,0,1,1,0,2.5\n"
           "b,0,1,1,,\n"),
      (std::vector<std::string>{R"({"id":"a","submit_s":0,"gpus":1,"checkpoint_sharded":false,)"
                                R"("restart_cost_s":2.5,"duration_s":1})",
                                R"({"id":"b","submit_s":0,"gpus":1,"duration_s":1})"}));
}

TEST(RestartFieldsTest, ANegativeRestartCostIsABadRow) {
  EXPECT_EQ(Rows("jsonl", R"({"id": "a", "restart_cost_s": -5, "duration_s": 1})"),
            (std::vector<std::string>{
                "negative time or duration: FILE:1: field 'restart_cost_s': expected a number ≥ "
                "0 and ≤ 3155760000, found -5"}));
  EXPECT_EQ(Rows("csv", "id,submit_s,gpus,duration_s,restart_cost_s\na,0,1,1,-5\n"),
            (std::vector<std::string>{"negative time or duration: FILE:2: column "
                                      "'restart_cost_s': expected seconds >= 0, found -5"}));
}

TEST(RestartFieldsTest, ANonBooleanShardingIsABadRow) {
  EXPECT_EQ(Rows("jsonl", R"({"id": "a", "checkpoint_sharded": "no", "duration_s": 1})"),
            (std::vector<std::string>{"invalid value: FILE:1: field 'checkpoint_sharded': "
                                      "expected true or false, found \"no\""}));
  EXPECT_EQ(Rows("csv", "id,submit_s,gpus,duration_s,checkpoint_sharded\na,0,1,1,no\n"),
            (std::vector<std::string>{"invalid value: FILE:2: column 'checkpoint_sharded': "
                                      "expected true or false, found 'no'"}));
}

TEST(RestartFieldsTest, TheJobRulesRefuseANegativeRestartCost) {
  Job job = OneWriterJob();
  job.request.restart_cost = -1'500;
  const std::vector<JobProblem> problems = ProblemsWith(job);
  ASSERT_EQ(problems.size(), 1U);
  EXPECT_EQ(problems[0].field, "restart_cost_s");
  EXPECT_EQ(problems[0].message, "expected a restart cost >= 0, found -1.5");
}

TEST(RestartFieldsTest, NeedNoCheckpointInterval) {
  Job job;
  job.request.id = "a";
  job.request.checkpoint_sharded = false;
  job.request.restart_cost = 30'000;
  job.truth.duration = 1'000;
  EXPECT_TRUE(ProblemsWith(job).empty());
}

}  // namespace
}  // namespace fleetsim
