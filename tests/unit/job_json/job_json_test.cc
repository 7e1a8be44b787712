// The native job object: the exact text JobToJson writes for a job with every field set and for
// a minimal one (defaults left out, documented key order), the time format, a round trip that
// loses nothing, and ParseJobObject's diagnostics — types, ranges, enum names, unknown keys with
// suggestions, and job-rule problems at the JSON pointer of their field.
#include "job_json/job_json.h"

#include <gtest/gtest.h>

#include <string>

#include "fleetsim/core/diagnostics.h"
#include "testutil/workloads.h"

namespace fleetsim {
namespace {

using nlohmann::json;

// Every field away from its default (a job has either a duration or work: this one has work).
constexpr char kFullJobText[] =
    R"({"id":"serve-3","submit_s":60.5,"tenant":"search","priority_class":"LS","priority":5,)"
    R"("kind":"realtime-inference","gpus":1,"max_gpus":1,"pow2_block":true,)"
    R"("gpu_models":["A100-80GB","H100-SXM"],"nvlink":"required","sharing":"mig",)"
    R"("gpu_milli":500,"gpu_memory_gb":19.5,"cpu_milli":4000,"memory_mib":16384,)"
    R"("preemptible":true,"spot_eligible":false,"checkpoint_interval_s":900,)"
    R"("checkpoint_cost_s":30.25,"checkpoint_sharded":false,"restart_cost_s":90.5,)"
    R"("walltime_s":86400,"deadline_s":90000.001,)"
    R"("demand":{"step_s":3600,"gpus":[0,1,1],"swap_cap":1},"work_gpu_hours":2.5,)"
    R"("recorded_state":"TIMEOUT"})";

Job MinimalJob() {
  Job job;
  job.request.id = "a";
  job.truth.duration = 60'000;
  return job;
}

// Parses `text` as the job at `path`; returns the job and the formatted diagnostics.
std::pair<Job, std::string> Parse(const std::string& text, const std::string& path = "/jobs/3") {
  Diagnostics diagnostics;
  JsonChecker check(diagnostics);
  Job job = ParseJobObject(json::parse(text), path, check);
  return {job, diagnostics.Format("s.json")};
}

TEST(JobToJsonTest, WritesEveryFieldInDocumentedOrder) {
  EXPECT_EQ(JobToJson(testing::EveryFieldJob()).dump(), kFullJobText);
}

TEST(JobToJsonTest, LeavesFieldsAtTheirDefaultOut) {
  EXPECT_EQ(JobToJson(MinimalJob()).dump(), R"({"id":"a","submit_s":0,"gpus":1,"duration_s":60})");
}

TEST(JobToJsonTest, WritesTheTruthTheJobHas) {
  Job job = MinimalJob();
  job.truth = {0, 3.0, ""};
  job.request.gpu_memory_gb = 80;
  EXPECT_EQ(JobToJson(job).dump(),
            R"({"id":"a","submit_s":0,"gpus":1,"gpu_memory_gb":80,"work_gpu_hours":3})");
  job.truth = {};
  EXPECT_EQ(JobToJson(job).dump(),
            R"({"id":"a","submit_s":0,"gpus":1,"gpu_memory_gb":80,"duration_s":0})");
}

TEST(JobToJsonTest, AGpuCountOfZeroAndADeadlineAtZeroAreWritten) {
  Job job = MinimalJob();
  job.request.gpus = 0;
  job.request.cpu_milli = 500;
  job.request.deadline = 0;
  EXPECT_EQ(JobToJson(job).dump(),
            R"({"id":"a","submit_s":0,"gpus":0,"cpu_milli":500,"deadline_s":0,"duration_s":60})");
}

TEST(SecondsTextTest, WholeSecondsAsIntegersElseUpToThreeDecimals) {
  EXPECT_EQ(SecondsText(0), "0");
  EXPECT_EQ(SecondsText(12'000), "12");
  EXPECT_EQ(SecondsText(12'500), "12.5");
  EXPECT_EQ(SecondsText(12'050), "12.05");
  EXPECT_EQ(SecondsText(1), "0.001");
  EXPECT_EQ(SecondsText(3'600'250), "3600.25");
  EXPECT_EQ(SecondsText(3'155'760'000'000), "3155760000");
  EXPECT_EQ(SecondsText(3'155'759'999'999), "3155759999.999");
  EXPECT_EQ(SecondsText(-1'500), "-1.5");
  EXPECT_EQ(SecondsText(-500), "-0.5");
  EXPECT_EQ(SecondsText(-3'000), "-3");
}

TEST(SecondsTextTest, TheJsonNumbersReadTheSame) {
  for (SimDuration t = 0; t < 3'155'760'000'000; t = t * 7 + 13) {
    Job job = MinimalJob();
    job.request.submit = t;
    EXPECT_EQ(JobToJson(job)["submit_s"].dump(), SecondsText(t)) << t;
  }
}

TEST(ParseJobObjectTest, ReadsBackEveryFieldThatWasWritten) {
  const auto [job, problems] = Parse(kFullJobText);
  EXPECT_EQ(problems, "");
  EXPECT_EQ(JobToJson(job).dump(), kFullJobText);
}

TEST(ParseJobObjectTest, FieldsLeftOutTakeTheirDefaults) {
  const auto [job, problems] = Parse(R"({"id": "a", "duration_s": 60})");
  EXPECT_EQ(problems, "");
  EXPECT_EQ(JobToJson(job).dump(), JobToJson(MinimalJob()).dump());
  EXPECT_EQ(job.request.deadline, kTimeNever);
  EXPECT_FALSE(job.request.demand.has_value());
}

TEST(ParseJobObjectTest, RoundsTimesToTheNearestMillisecond) {
  const auto [job, problems] = Parse(R"({"id": "a", "submit_s": 12.3456, "duration_s": 0.0006})");
  EXPECT_EQ(problems, "");
  EXPECT_EQ(job.request.submit, 12'346);
  EXPECT_EQ(job.truth.duration, 1);
}

TEST(ParseJobObjectTest, ReportsEveryBadFieldAtItsPointer) {
  const auto [job, problems] = Parse(
      R"({"id": "x", "submit_s": "soon", "gpus": -1, "kind": "fine_tuning", "pow2_block": "yes",
          "gpu_models": ["A100", 7], "demand": {"step_s": 0, "gpus": [1, "x"], "steps": 2},
          "gpu": 2, "duration_s": 0.0004})");
  EXPECT_EQ(problems,
            "s.json: /jobs/3/gpu: warning: unknown key 'gpu', did you mean 'gpus'?\n"
            "s.json: /jobs/3/demand/steps: warning: unknown key 'steps', did you mean 'step_s'?\n"
            "s.json: /jobs/3/submit_s: error: expected a number ≥ 0 and ≤ 3155760000, found "
            "\"soon\"\n"
            "s.json: /jobs/3/kind: error: expected one of 'unspecified', 'pretraining', "
            "'fine-tuning', 'batch-inference', 'realtime-inference', 'quantization', "
            "'interactive', found \"fine_tuning\", did you mean 'fine-tuning'?\n"
            "s.json: /jobs/3/gpus: error: expected an integer ≥ 0, found -1\n"
            "s.json: /jobs/3/pow2_block: error: expected true or false, found \"yes\"\n"
            "s.json: /jobs/3/gpu_models/1: error: expected a GPU model name, found 7\n"
            "s.json: /jobs/3/demand/step_s: error: expected a number > 0 and ≤ 3155760000, "
            "found 0\n"
            "s.json: /jobs/3/demand/gpus/1: error: expected an integer in [0, 1000000], found "
            "\"x\"\n"
            "s.json: /jobs/3/duration_s: error: expected a duration of at least 1 ms after "
            "rounding to the millisecond, found 0.0004\n");
}

TEST(ParseJobObjectTest, ReportsWrongContainerTypes) {
  const auto [job, problems] = Parse(
      R"({"id": 7, "gpu_models": "A100", "demand": [1], "deadline_s": null, "duration_s": 1})");
  EXPECT_EQ(problems,
            "s.json: /jobs/3/id: error: expected a string, found 7\n"
            "s.json: /jobs/3/gpu_models: error: expected an array, found \"A100\"\n"
            "s.json: /jobs/3/deadline_s: error: expected a number ≥ 0 and ≤ 3155760000, found "
            "null\n"
            "s.json: /jobs/3/demand: error: expected an object, found [1]\n");
}

TEST(ParseJobObjectTest, ReportsJobRulesAtTheirFieldsPointers) {
  const auto [job, problems] = Parse(
      R"({"id": "x", "gpus": 2, "max_gpus": 1, "demand": {"step_s": 60, "gpus": [1, 3]},
          "duration_s": 10})",
      "/jobs/0");
  EXPECT_EQ(problems,
            "s.json: /jobs/0/max_gpus: error: expected 0 (fixed size) or an integer in [gpus = 2, "
            "1000000], found 1\n"
            "s.json: /jobs/0/demand: error: a demand curve needs kind 'realtime-inference', "
            "found 'unspecified'\n"
            "s.json: /jobs/0/demand/gpus: error: expected demands in [0, max_gpus = 1], found 3\n");
}

TEST(ParseJobObjectTest, ChecksNoRuleUntilEveryFieldReads) {
  EXPECT_EQ(Parse(R"({"gpus": 0})", "/jobs/1").second,
            "s.json: /jobs/1: error: missing required key 'id'\n");
  EXPECT_EQ(Parse(R"({"id": "a", "demand": {"gpus": [1]}})", "/jobs/1").second,
            "s.json: /jobs/1/demand: error: missing required key 'step_s'\n");
}

TEST(ParseJobObjectTest, ReportsAJobThatIsNotAnObject) {
  Diagnostics diagnostics;
  JsonChecker check(diagnostics);
  ParseJobObject(json::parse("[3]"), "/jobs/2", check);
  EXPECT_EQ(diagnostics.Format("s.json"),
            "s.json: /jobs/2: error: expected a job object, found [3]\n");
}

TEST(ReadJobFieldsTest, IgnoresUnknownKeysAndChecksNoRule) {
  Diagnostics diagnostics;
  JsonChecker check(diagnostics);
  Job job;
  EXPECT_TRUE(ReadJobFields(json::parse(R"({"id": "a b", "colour": 1})"), "", check, job));
  EXPECT_TRUE(diagnostics.empty());
  EXPECT_EQ(job.request.id, "a b");
  EXPECT_FALSE(ReadJobFields(json::parse(R"({"id": "a", "gpus": "2"})"), "", check, job));
  EXPECT_EQ(diagnostics.Format("s.json"),
            "s.json: /gpus: error: expected an integer in [0, 1000000], found \"2\"\n");
}

}  // namespace
}  // namespace fleetsim
