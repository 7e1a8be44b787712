// The sacct importer: the mapping of every column of the fixture, rows that are not finished
// jobs passed over and counted, the options (columns presets, delimiter, epoch, tenant,
// cpu_only), Slurm's time forms, and the real dumps in ../shared/traces/configs/sacct (failing
// when they are absent): XDMoD's headerless pipe-separated files and hb-jobinfo's `--parsable`
// dump with a U+2603 delimiter and a trailing one.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "testutil/paths.h"
#include "testutil/trace_reading.h"
#include "text/utc_time.h"

namespace fleetsim {
namespace {

using ReadResult = testing::TraceReadResult;

constexpr const char* kHeader = "JobID|Submit|Start|End|AllocTRES|Timelimit|State\n";

ReadResult ReadAll(const std::string& path, const std::map<std::string, std::string>& given = {}) {
  return testing::ReadTraceFile("sacct", path, given);
}

bool HasNote(const ReadResult& result, const std::string& text) {
  return std::any_of(result.notes.begin(), result.notes.end(),
                     [&](const std::string& note) { return note.find(text) != std::string::npos; });
}

std::string SharedSacct(const std::string& name) {
  return testing::SharedTracePath("configs/sacct/" + name);
}

class SacctTest : public testing::TraceFileTest {
 protected:
  SacctTest() : TraceFileTest("sacct", "sacct.txt") {}
};

TEST_F(SacctTest, MapsEveryColumnOfTheFixture) {
  const ReadResult result = ReadAll(testing::DataPath("traces/sacct/good.txt"));
  ASSERT_EQ(result.open_error, "");
  ASSERT_EQ(result.errors, std::vector<std::string>{});
  ASSERT_EQ(result.jobs.size(), 4U);
  const JobRequest& first = result.jobs[0].request;
  EXPECT_EQ(first.id, "101");
  EXPECT_EQ(first.submit, 8 * 3600 * kMillisPerSecond);  // epoch: midnight of the first Submit
  EXPECT_EQ(first.tenant, "vision");
  EXPECT_EQ(first.priority_class, "normal");
  EXPECT_EQ(first.priority, 1);  // sacct's Priority is not a weight; not read
  EXPECT_EQ(first.gpus, 2);
  EXPECT_EQ(first.gpu_models, std::vector<std::string>{"h100"});
  EXPECT_EQ(first.cpu_milli, 8000);
  EXPECT_EQ(first.memory_mib, 64 * 1024);
  EXPECT_EQ(first.walltime_estimate, 4 * 3600 * kMillisPerSecond);
  EXPECT_EQ(result.jobs[0].truth.duration, 2 * 3600 * kMillisPerSecond);
  const JobRequest& second = result.jobs[1].request;
  EXPECT_EQ(second.tenant, "bob");  // no Account: the User
  EXPECT_EQ(second.gpus, 8);        // only a typed count
  EXPECT_EQ(second.walltime_estimate, 86400 * kMillisPerSecond);
  EXPECT_EQ(result.jobs[2].request.id, "104_2");               // an array task is a job
  EXPECT_EQ(result.jobs[2].request.walltime_estimate, 0);      // UNLIMITED: no estimate
  EXPECT_EQ(result.jobs[2].request.gpu_models.size(), 0U);     // ReqTRES, untyped
  EXPECT_EQ(result.jobs[3].truth.duration, kMillisPerSecond);  // ran 0 s: 1 s
  EXPECT_EQ(result.jobs[3].request.memory_mib, 1024 * 1024);
  std::vector<std::string> states;
  for (const Job& job : result.jobs) {
    states.push_back(job.truth.recorded_state);
  }
  EXPECT_EQ(states, (std::vector<std::string>{"COMPLETED", "TIMEOUT", "FAILED", "NODE_FAIL"}));
  EXPECT_TRUE(HasNote(result, "jobs by final state: COMPLETED 1, FAILED 1, NODE_FAIL 1, TIMEOUT 1"))
      << ::testing::PrintToString(result.notes);
  for (const char* passed :
       {"1 rows passed over: job steps", "1 rows passed over: array records",
        "1 rows passed over: jobs still RUNNING", "1 rows passed over: jobs that never started",
        "1 rows passed over: jobs without GPUs"}) {
    EXPECT_TRUE(HasNote(result, passed)) << passed << "\n"
                                         << ::testing::PrintToString(result.notes);
  }
  EXPECT_TRUE(HasNote(result, "1 jobs ran 0 s"));
}

TEST_F(SacctTest, CpuOnlyJobsAreKeptWhenAskedFor) {
  const ReadResult result =
      ReadAll(testing::DataPath("traces/sacct/good.txt"), {{"cpu_only", "keep"}});
  ASSERT_EQ(result.jobs.size(), 5U);
  EXPECT_EQ(result.jobs[2].request.id, "103");
  EXPECT_EQ(result.jobs[2].request.gpus, 0);
  EXPECT_EQ(result.jobs[2].request.cpu_milli, 4000);
}

TEST_F(SacctTest, TenantsCanBeUsers) {
  const ReadResult result =
      ReadAll(testing::DataPath("traces/sacct/good.txt"), {{"tenant", "user"}});
  ASSERT_EQ(result.jobs.size(), 4U);
  EXPECT_EQ(result.jobs[0].request.tenant, "alice");
}

TEST_F(SacctTest, AGivenEpochAndItsBounds) {
  const std::string path = WriteTrace(std::string(kHeader) +
                                      "1|2024-03-01T08:00:00|2024-03-01T08:00:00|"
                                      "2024-03-01T09:00:00|gres/gpu=1,cpu=1|01:00:00|COMPLETED\n");
  const ReadResult given = ReadAll(path, {{"epoch", "2024-03-01T07:00:00"}});
  ASSERT_EQ(given.jobs.size(), 1U);
  EXPECT_EQ(given.jobs[0].request.submit, 3600 * kMillisPerSecond);
  EXPECT_EQ(FirstError(std::string(kHeader) +
                           "1|2024-03-01T08:00:00|2024-03-01T08:00:00|2024-03-01T09:00:00|"
                           "gres/gpu=1,cpu=1|01:00:00|COMPLETED\n",
                       {{"epoch", "2024-03-02T00:00:00"}}),
            "FILE:2: column 'Submit': expected a time from the epoch 2024-03-02T00:00:00 (option "
            "'epoch') to 100 years after it, found '2024-03-01T08:00:00'");
  EXPECT_EQ(ReadAll(path, {{"epoch", "yesterday"}}).open_error,
            path +
                ": option 'epoch': expected 'auto' or a time as YYYY-mm-ddTHH:MM:SS, found "
                "'yesterday'");
}

TEST_F(SacctTest, BadOptionsAreRefused) {
  const std::string path = WriteTrace(kHeader);
  EXPECT_EQ(ReadAll(path, {{"tenant", "group"}}).open_error,
            path + ": option 'tenant': expected 'account' or 'user', found 'group'");
  EXPECT_EQ(ReadAll(path, {{"cpu_only", "maybe"}}).open_error,
            path + ": option 'cpu_only': expected 'skip' or 'keep', found 'maybe'");
  EXPECT_EQ(ReadAll(path, {{"delimiter", ""}}).open_error,
            path + ": option 'delimiter': expected 'auto' or a non-empty text, found ''");
}

TEST_F(SacctTest, AnExplicitColumnListReadsAHeaderlessFile) {
  const std::string path = WriteTrace(
      "7;2024-03-01T08:00:00;2024-03-01T08:30:00;2024-03-01T09:00:00;gres/gpu:a100=4,cpu=4\n");
  const ReadResult result =
      ReadAll(path, {{"columns", "JobID,Submit,Start,End,AllocTRES"}, {"delimiter", ";"}});
  ASSERT_EQ(result.open_error, "");
  ASSERT_EQ(result.jobs.size(), 1U);
  EXPECT_EQ(result.jobs[0].request.gpus, 4);
  EXPECT_EQ(result.jobs[0].truth.duration, 1800 * kMillisPerSecond);
}

TEST_F(SacctTest, HeaderInAnyOrderHeterogeneousJobsMigTypesAndCpuRowsPassedFirst) {
  const std::string path = WriteTrace(
      "User|JobID|Submit|Start|End|AllocTRES\n"
      "u|1+0|2024-03-01T08:00:00|2024-03-01T08:00:00|2024-03-01T09:00:00|cpu=1,gres/gpu=1\n"
      "u|2|2024-03-01T08:00:00|2024-03-01T08:00:00|2024-03-01T09:00:00|"
      "cpu=1,gres/gpu:a100_1g.10gb=1\n"
      "u|3|not-a-time|2024-03-01T08:00:00|2024-03-01T09:00:00|cpu=1,mem=1G\n");
  const ReadResult result = ReadAll(path);
  ASSERT_EQ(result.open_error, "");
  EXPECT_EQ(result.errors, std::vector<std::string>{});  // row 3 is CPU-only: passed over first
  ASSERT_EQ(result.jobs.size(), 1U);
  const JobRequest& mig = result.jobs[0].request;
  EXPECT_EQ(mig.sharing, GpuSharing::kMig);
  EXPECT_EQ(mig.gpu_memory_gb, 10);
  EXPECT_EQ(mig.gpu_models, std::vector<std::string>{"a100"});
  EXPECT_TRUE(HasNote(result, "1 rows passed over: components of heterogeneous jobs"));
  EXPECT_EQ(FirstError("JobID|Submit|Start|End|AllocTRES\n"
                       "2|2024-03-01T08:00:00|2024-03-01T08:00:00|2024-03-01T09:00:00|"
                       "cpu=1,gres/gpu:a100_1g.10gb=2\n"),
            "FILE:2: gres/gpu: expected one MIG instance alone, found 2 GPUs of types "
            "'a100_1g.10gb'");
  EXPECT_EQ(FirstError("JobID|Submit|jobid\n"), "FILE: the column 'jobid' is named twice");
}

TEST(SlurmTimeTest, ReadsAndWritesSlurmsForms) {
  EXPECT_EQ(ParseSlurmDuration("02:00:00"), 7200);
  EXPECT_EQ(ParseSlurmDuration("1-00:00:00"), 86400);
  EXPECT_EQ(ParseSlurmDuration("3-12"), 3 * 86400 + 12 * 3600);
  EXPECT_EQ(ParseSlurmDuration("1-02:30"), 86400 + 2 * 3600 + 30 * 60);
  EXPECT_EQ(ParseSlurmDuration("30:00"), 1800);
  EXPECT_EQ(ParseSlurmDuration("100:00:00"), 360000);  // hours are not bounded without days
  for (const char* bad : {"", "1", "1-", "-1:00", "1-24:00:00", "00:60:00", "a:00", "1:2:3:4"}) {
    EXPECT_EQ(ParseSlurmDuration(bad), std::nullopt) << bad;
  }
  EXPECT_EQ(MidnightUtc(1709251199), 1709251199 - 86399);
  EXPECT_EQ(MidnightUtc(-1), -86400);
  EXPECT_EQ(ParseUtcTimestamp("2024-02-29T23:59:59", 'T'), 1709251199);
  EXPECT_EQ(ParseUtcTimestamp("2023-02-29T00:00:00", 'T'), std::nullopt);
  EXPECT_EQ(FormatUtcTimestamp(1709251199, 'T'), "2024-02-29T23:59:59");
  EXPECT_EQ(FormatUtcTimestamp(-1), "1969-12-31 23:59:59");
  for (std::int64_t t = -86400 * 800; t < 86400 * 800; t += 86400 * 7 + 3601) {
    EXPECT_EQ(ParseUtcTimestamp(FormatUtcTimestamp(t + 1'700'000'000)), t + 1'700'000'000);
  }
}

// Real dumps: the counts are those of the files as published (see their README).
TEST(SacctRealDumpsTest, XdmodReferenceDump) {
  const std::string path = SharedSacct("xdmod-phillips.log");
  const ReadResult gpu_jobs = ReadAll(path, {{"columns", "xdmod"}});
  ASSERT_EQ(gpu_jobs.open_error, "");
  EXPECT_EQ(gpu_jobs.errors, std::vector<std::string>{});
  ASSERT_EQ(gpu_jobs.jobs.size(), 2U);  // the two jobs with gres/gpu=2
  EXPECT_EQ(gpu_jobs.jobs[0].request.gpus, 2);
  EXPECT_TRUE(HasNote(gpu_jobs, "4283 rows passed over: jobs without GPUs"));
  const ReadResult all = ReadAll(path, {{"columns", "xdmod"}, {"cpu_only", "keep"}});
  EXPECT_EQ(all.errors, std::vector<std::string>{});
  EXPECT_EQ(all.jobs.size(), 4285U);
  EXPECT_TRUE(HasNote(all,
                      "jobs by final state: CANCELLED 243, COMPLETED 2324, FAILED 1717, "
                      "TIMEOUT 1"))
      << ::testing::PrintToString(all.notes);
  EXPECT_TRUE(HasNote(all, "since 2016-12-22 00:00:00 UTC"));
}

TEST(SacctRealDumpsTest, XdmodShredderInputs) {
  const ReadResult arrays = ReadAll(SharedSacct("xdmod-accounting-logs-with-job-arrays.log"),
                                    {{"columns", "xdmod"}, {"cpu_only", "keep"}});
  EXPECT_EQ(arrays.errors, std::vector<std::string>{});
  ASSERT_EQ(arrays.jobs.size(), 1U);
  EXPECT_EQ(arrays.jobs[0].request.id, "4103947_100");
  EXPECT_EQ(arrays.jobs[0].request.cpu_milli, 256'000);  // no TRES: NCPUS
  EXPECT_TRUE(HasNote(arrays, "5 rows passed over: array records"));
  const ReadResult unfinished = ReadAll(SharedSacct("xdmod-non-ended-job-state.log"),
                                        {{"columns", "xdmod"}, {"cpu_only", "keep"}});
  EXPECT_EQ(unfinished.jobs.size(), 0U);
  EXPECT_TRUE(HasNote(unfinished, "1 rows passed over: jobs still RUNNING"));
  EXPECT_TRUE(HasNote(unfinished, "1 rows passed over: jobs still PENDING"));
  const ReadResult logs = ReadAll(SharedSacct("xdmod-accounting-logs.log"),
                                  {{"columns", "xdmod"}, {"cpu_only", "keep"}});
  EXPECT_EQ(logs.errors, std::vector<std::string>{});
  EXPECT_EQ(logs.jobs.size(), 4U);
}

TEST(SacctRealDumpsTest, HbJobinfoSnowmanDump) {
  const ReadResult result =
      ReadAll(SharedSacct("hb-jobinfo-sacct.txt"), {{"columns", "hb-jobinfo"}});
  ASSERT_EQ(result.open_error, "");
  EXPECT_EQ(result.errors, std::vector<std::string>{});
  ASSERT_EQ(result.jobs.size(), 7U);  // the finished jobs with GPUs in AllocTRES
  std::vector<std::string> types;
  for (const Job& job : result.jobs) {
    types.insert(types.end(), job.request.gpu_models.begin(), job.request.gpu_models.end());
  }
  EXPECT_NE(std::find(types.begin(), types.end(), "a100"), types.end());
  EXPECT_NE(std::find(types.begin(), types.end(), "v100"), types.end());
  EXPECT_TRUE(HasNote(result, "142 rows passed over: job steps"));
  const ReadResult all = ReadAll(SharedSacct("hb-jobinfo-sacct.txt"),
                                 {{"columns", "hb-jobinfo"}, {"cpu_only", "keep"}});
  EXPECT_EQ(all.errors, std::vector<std::string>{});
  EXPECT_EQ(all.jobs.size(), 87U);
}

}  // namespace
}  // namespace fleetsim
