// The Pollux workload importer: the mapping of every column, run times from the duration options
// (required: the files hold none), the exact text of every bad-row and option error, and the four
// published workloads (160 jobs each, no bad row) in ../shared/traces (failing when it is absent).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "fleetsim/trace/formats.h"
#include "testutil/command.h"
#include "testutil/paths.h"
#include "testutil/trace_reading.h"

namespace fleetsim {
namespace {

constexpr const char* kFormat = "pollux";
constexpr const char* kHeader = "name,time,application,num_replicas,batch_size\n";
using ReadResult = testing::TraceReadResult;

ReadResult ReadAll(const std::string& path, const std::map<std::string, std::string>& given = {}) {
  return testing::ReadTraceFile(kFormat, path, given);
}

class PolluxTest : public testing::TraceFileTest {
 protected:
  PolluxTest() : TraceFileTest(kFormat, "trace.csv") {}
};

const std::map<std::string, std::string> kOneHour = {{"duration_s", "3600"}};

TEST_F(PolluxTest, MapsEveryColumn) {
  const ReadResult result =
      ReadAll(testing::DataPath("traces/pollux/good.csv"),
              {{"duration_s", "3600"}, {"application_duration_s", "bert=7200|ncf=600.5"}});
  ASSERT_EQ(result.open_error, "");
  ASSERT_EQ(result.errors, std::vector<std::string>{});
  ASSERT_EQ(result.jobs.size(), 4U);
  const Job& first = result.jobs[0];
  EXPECT_EQ(first.request.id, "cifar10-0");
  EXPECT_EQ(first.request.submit, 107'000);
  EXPECT_EQ(first.request.tenant, "cifar10");
  EXPECT_EQ(first.request.gpus, 6);
  EXPECT_EQ(first.truth.duration, 3'600'000);  // cifar10 is not in the table: duration_s
  EXPECT_EQ(first.truth.work_gpu_hours, 0);
  EXPECT_EQ(first.request.priority_class, "");
  EXPECT_EQ(first.request.priority, 1);
  EXPECT_EQ(first.request.kind, JobKind::kUnspecified);
  EXPECT_EQ(result.jobs[1].truth.duration, 7'200'000);  // bert
  EXPECT_EQ(result.jobs[2].request.submit, 135'500);
  EXPECT_EQ(result.jobs[2].truth.duration, 600'500);  // ncf
  EXPECT_EQ(result.jobs[3].request.gpus, 32);
  EXPECT_EQ(result.notes,
            (std::vector<std::string>{
                "run times are not in Pollux workloads; they come from the options: duration_s "
                "'3600', application_duration_s 'bert=7200|ncf=600.5'",
                "columns not used: 'batch_size'"}));
}

TEST_F(PolluxTest, DurationsAreRequired) {
  EXPECT_EQ(FirstError(kHeader),
            "FILE: option 'duration_s': Pollux workloads hold no job durations: expected "
            "duration_s (seconds for every job) or application_duration_s "
            "('application=seconds|...'), found neither");
}

TEST_F(PolluxTest, ApplicationTableAlone) {
  const std::string path = WriteTrace(std::string(kHeader) + "a-0,1,bert,2,32\nb-1,2,ncf,1,64\n");
  const ReadResult result = ReadAll(path, {{"application_duration_s", "bert=60"}});
  ASSERT_EQ(result.jobs.size(), 1U);
  EXPECT_EQ(result.jobs[0].truth.duration, 60'000);
  EXPECT_EQ(result.errors, std::vector<std::string>{
                               path + ":3: column 'application': expected an application listed "
                                      "in option 'application_duration_s' (option 'duration_s' is "
                                      "not set), found 'ncf'"});
}

TEST_F(PolluxTest, BadDurationOptionsAreOpenErrors) {
  EXPECT_EQ(FirstError(kHeader, {{"duration_s", "0"}}),
            "FILE: option 'duration_s': expected seconds > 0 (at most 3155760000, 100 years), "
            "found '0'");
  EXPECT_EQ(FirstError(kHeader, {{"duration_s", "1h"}}),
            "FILE: option 'duration_s': expected seconds > 0 (at most 3155760000, 100 years), "
            "found '1h'");
  EXPECT_EQ(FirstError(kHeader, {{"application_duration_s", "bert"}}),
            "FILE: option 'application_duration_s': expected 'application=seconds' entries "
            "separated by '|', found 'bert'");
  EXPECT_EQ(FirstError(kHeader, {{"application_duration_s", "bert=60||ncf=6"}}),
            "FILE: option 'application_duration_s': expected 'application=seconds' entries "
            "separated by '|', found ''");
  EXPECT_EQ(FirstError(kHeader, {{"application_duration_s", "bert=-60"}}),
            "FILE: option 'application_duration_s': expected seconds > 0 (at most 3155760000, "
            "100 years), found '-60'");
  EXPECT_EQ(FirstError(kHeader, {{"application_duration_s", "bert=60|bert=70"}}),
            "FILE: option 'application_duration_s': expected each application once, found 'bert' "
            "twice");
}

TEST_F(PolluxTest, BadRowsNameTheLineColumnAndValue) {
  EXPECT_EQ(FirstError(std::string(kHeader) + "a-0,1,bert,2,32\na-1,1,bert,2\n", kOneHour),
            "FILE:3: expected 5 columns as in the header, found 4");
  EXPECT_EQ(FirstError(std::string(kHeader) + "a-0,soon,bert,2,32\n", kOneHour),
            "FILE:2: column 'time': expected a number of seconds, found 'soon'");
  EXPECT_EQ(FirstError(std::string(kHeader) + "a-0,-1,bert,2,32\n", kOneHour),
            "FILE:2: column 'time': expected seconds >= 0, found -1");
  EXPECT_EQ(FirstError(std::string(kHeader) + "a-0,1,bert,two,32\n", kOneHour),
            "FILE:2: column 'num_replicas': expected an integer, found 'two'");
  EXPECT_EQ(FirstError(std::string(kHeader) + "a-0,1,bert,0,32\n", kOneHour),
            "FILE:2: column 'num_replicas': expected an integer in [1, 1000000], found 0");
  EXPECT_EQ(FirstError(std::string(kHeader) + "a-0,1,,2,32\n", kOneHour),
            "FILE:2: column 'application': expected an application name, found ''");
  EXPECT_EQ(FirstError(std::string(kHeader) + "a 0,1,bert,2,32\n", kOneHour),
            "FILE:2: column 'name': expected an id of letters, digits, '.', '_' or '-', found 'a "
            "0'");
}

TEST_F(PolluxTest, BatchSizeIsNotRead) {
  const ReadResult result =
      ReadAll(WriteTrace("name,time,application,num_replicas\na-0,1,bert,2\n"), kOneHour);
  ASSERT_EQ(result.jobs.size(), 1U);
  EXPECT_EQ(result.notes.size(), 1U);  // no unused column to mention
  const ReadResult odd =
      ReadAll(WriteTrace(std::string(kHeader) + "a-0,1,bert,2,lots\n"), kOneHour);
  EXPECT_EQ(odd.jobs.size(), 1U);
}

TEST_F(PolluxTest, EmptyFileAndHeaderOnly) {
  EXPECT_EQ(FirstError("", kOneHour),
            "FILE: empty file: expected a header line with the columns 'name', 'time', "
            "'application', 'num_replicas'");
  const ReadResult header_only = ReadAll(WriteTrace(kHeader), kOneHour);
  EXPECT_EQ(header_only.open_error, "");
  EXPECT_TRUE(header_only.jobs.empty());
  EXPECT_TRUE(header_only.errors.empty());
  EXPECT_EQ(FirstError("name,time,num_replicas,batch_size\n", kOneHour),
            "FILE:1: expected a header with the column 'application', found columns 'name', "
            "'time', 'num_replicas', 'batch_size'");
}

class PolluxPublishedTest : public ::testing::TestWithParam<int> {};

TEST_P(PolluxPublishedTest, Yields160JobsAndNoBadRow) {
  const std::string path = testing::SourcePath("../shared/traces/pollux/workload-" +
                                               std::to_string(GetParam()) + ".csv");
  if (!std::filesystem::exists(path)) {
    GTEST_FAIL() << "the shared traces are not here: " << path
                 << " (../shared is part of the test setup)";
  }
  const ReadResult result = ReadAll(path, kOneHour);
  EXPECT_EQ(result.open_error, "");
  EXPECT_EQ(result.jobs.size(), 160U);
  EXPECT_EQ(result.errors, std::vector<std::string>{});
}

INSTANTIATE_TEST_SUITE_P(Workloads, PolluxPublishedTest, ::testing::Values(1, 2, 3, 4));

}  // namespace
}  // namespace fleetsim
