// The Microsoft ITP importer: the mapping of every column, the tenant option, the exact text of
// every bad-row and open error, and the three published clusters (260, 1,595 and 15,802 jobs, no
// bad row) in ../shared/traces (failing when it is absent).
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

constexpr const char* kFormat = "ms-itp";
constexpr const char* kHeader = "job_id,submission_time,duration,num_gpu\n";
using ReadResult = testing::TraceReadResult;

ReadResult ReadAll(const std::string& path, const std::map<std::string, std::string>& given = {}) {
  return testing::ReadTraceFile(kFormat, path, given);
}

class ItpTest : public testing::TraceFileTest {
 protected:
  ItpTest() : TraceFileTest(kFormat, "trace.csv") {}
};

TEST_F(ItpTest, MapsEveryColumn) {
  const ReadResult result =
      ReadAll(testing::DataPath("traces/ms-itp/good.csv"), {{"tenant", "cluster10"}});
  ASSERT_EQ(result.open_error, "");
  ASSERT_EQ(result.errors, std::vector<std::string>{});
  ASSERT_EQ(result.jobs.size(), 4U);  // the last line has no newline, as published
  const Job& job = result.jobs[1];
  EXPECT_EQ(job.request.id, "ec42aa41-3a0d-71f3-62dc-31b28dfb54c4");
  EXPECT_EQ(job.request.submit, 2'371'685'000);
  EXPECT_EQ(job.truth.duration, 767'500);
  EXPECT_EQ(job.truth.work_gpu_hours, 0);
  EXPECT_EQ(job.request.gpus, 1);
  EXPECT_EQ(job.request.tenant, "cluster10");
  EXPECT_EQ(job.request.priority_class, "");
  EXPECT_EQ(job.request.priority, 1);
  EXPECT_EQ(job.request.kind, JobKind::kUnspecified);
  EXPECT_EQ(result.jobs[2].request.id, "job_3.retry");
  EXPECT_EQ(result.jobs[3].request.submit, 0);
  EXPECT_EQ(result.jobs[3].request.gpus, 64);
  EXPECT_EQ(result.jobs[3].truth.duration, 1);
  EXPECT_TRUE(result.notes.empty());
}

TEST_F(ItpTest, TenantDefaultsToDefault) {
  const ReadResult result = ReadAll(WriteTrace(std::string(kHeader) + "a,1,2,3"));
  ASSERT_EQ(result.jobs.size(), 1U);
  EXPECT_EQ(result.jobs[0].request.tenant, "default");
}

TEST_F(ItpTest, BadRowsNameTheLineColumnAndValue) {
  EXPECT_EQ(FirstError(std::string(kHeader) + "a,1,2,3\nb,1,2,3,4\n"),
            "FILE:3: expected 4 columns as in the header, found 5");
  EXPECT_EQ(FirstError(std::string(kHeader) + "a,1,2,three\n"),
            "FILE:2: column 'num_gpu': expected an integer, found 'three'");
  EXPECT_EQ(FirstError(std::string(kHeader) + "a,soon,2,3\n"),
            "FILE:2: column 'submission_time': expected a number of seconds, found 'soon'");
  EXPECT_EQ(FirstError(std::string(kHeader) + "a,-1,2,3\n"),
            "FILE:2: column 'submission_time': expected seconds >= 0, found -1");
  EXPECT_EQ(FirstError(std::string(kHeader) + "a,1,-2,3\n"),
            "FILE:2: column 'duration': expected seconds >= 0, found -2");
  EXPECT_EQ(FirstError(std::string(kHeader) + "a,1,0,3\n"),
            "FILE:2: column 'duration': expected seconds > 0, found 0");
  EXPECT_EQ(FirstError(std::string(kHeader) + "a,1,2,0\n"),
            "FILE:2: column 'num_gpu': expected an integer in [1, 1000000], found 0");
  EXPECT_EQ(FirstError(std::string(kHeader) + "a,1,2,-4\n"),
            "FILE:2: column 'num_gpu': expected an integer in [1, 1000000], found -4");
  EXPECT_EQ(FirstError(std::string(kHeader) + ",1,2,3\n"),
            "FILE:2: column 'job_id': expected an id of letters, digits, '.', '_' or '-', found "
            "''");
}

TEST_F(ItpTest, ReasonsAndTheRowsAfterABadRow) {
  const ReadResult result = ReadAll(WriteTrace(std::string(kHeader) + "a,1,2,0\nb,1,x,2\nc,1,2,3"));
  EXPECT_EQ(result.reasons, (std::vector<std::string>{"zero GPUs", "non-numeric field"}));
  ASSERT_EQ(result.jobs.size(), 1U);
  EXPECT_EQ(result.jobs[0].request.id, "c");
}

TEST_F(ItpTest, EmptyFileAndHeaderOnly) {
  EXPECT_EQ(FirstError(""),
            "FILE: empty file: expected a header line with the columns 'job_id', "
            "'submission_time', 'duration', 'num_gpu'");
  const ReadResult header_only = ReadAll(WriteTrace("job_id,submission_time,duration,num_gpu"));
  EXPECT_EQ(header_only.open_error, "");
  EXPECT_TRUE(header_only.jobs.empty());
  EXPECT_TRUE(header_only.errors.empty());
  EXPECT_EQ(FirstError("job_id,submission_time,num_gpu\n"),
            "FILE:1: expected a header with the column 'duration', found columns 'job_id', "
            "'submission_time', 'num_gpu'");
}

TEST_F(ItpTest, EmptyTenantIsAnOpenError) {
  EXPECT_EQ(FirstError(kHeader, {{"tenant", ""}}),
            "FILE: option 'tenant': expected a non-empty tenant name, found ''");
}

// Job counts of the clusters shipped in ../shared/traces/ms-itp.
class ItpPublishedTest : public ::testing::TestWithParam<std::pair<std::string, std::size_t>> {};

TEST_P(ItpPublishedTest, YieldsEveryJobAndNoBadRow) {
  const auto& [file, jobs] = GetParam();
  const std::string path = testing::SourcePath("../shared/traces/ms-itp/" + file);
  if (!std::filesystem::exists(path)) {
    GTEST_FAIL() << "the shared traces are not here: " << path
                 << " (../shared is part of the test setup)";
  }
  const ReadResult result = ReadAll(path);
  EXPECT_EQ(result.open_error, "");
  EXPECT_EQ(result.jobs.size(), jobs);
  EXPECT_EQ(result.errors, std::vector<std::string>{});
}

INSTANTIATE_TEST_SUITE_P(
    Clusters, ItpPublishedTest,
    ::testing::Values(std::pair<std::string, std::size_t>{"cluster10.csv", 260},
                      std::pair<std::string, std::size_t>{"cluster01.csv", 1'595},
                      std::pair<std::string, std::size_t>{"cluster04.csv", 15'802}));

TEST(ItpPublishedFirstJobTest, Cluster10StartsWithItsFirstRow) {
  const std::string path = testing::SourcePath("../shared/traces/ms-itp/cluster10.csv");
  if (!std::filesystem::exists(path)) {
    GTEST_FAIL() << "the shared traces are not here: " << path
                 << " (../shared is part of the test setup)";
  }
  const ReadResult result = ReadAll(path);
  ASSERT_FALSE(result.jobs.empty());
  const Job& first = result.jobs.front();
  EXPECT_EQ(first.request.id, "5dc7d9cd-c300-9a4f-c3cd-dc2cc0935548");
  EXPECT_EQ(first.request.submit, 2'266'647'000);
  EXPECT_EQ(first.truth.duration, 604'000);
  EXPECT_EQ(first.request.gpus, 16);
}

}  // namespace
}  // namespace fleetsim
