// The Microsoft ITP importer: the mapping of every column, the tenant option, the exact text of
// every bad-row and open error, and the three published clusters (260, 1,595 and 15,802 jobs, no
// bad row) when ../shared/traces is present.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "fleetsim/trace/formats.h"
#include "testutil/command.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

constexpr const char* kFormat = "ms-itp";
constexpr const char* kHeader = "job_id,submission_time,duration,num_gpu\n";
struct ReadResult {
  std::string open_error;
  std::vector<Job> jobs;
  std::vector<std::string> errors;  // RowError::Format() of each bad row
  std::vector<std::string> reasons;
  std::vector<std::string> notes;
};

ReadResult ReadAll(const std::string& path, const std::map<std::string, std::string>& given = {}) {
  const TraceFormat* format = FindTraceFormat(kFormat);
  EXPECT_NE(format, nullptr);
  TraceOptionValues options;
  EXPECT_EQ(ResolveTraceOptions(*format, given, options), "");
  OpenResult opened = format->open(path, options);
  ReadResult result;
  result.open_error = opened.error;
  if (!opened.source) {
    return result;
  }
  Job job;
  RowError error;
  while (true) {
    const JobSource::Status status = opened.source->Next(job, error);
    if (status == JobSource::Status::kEnd) {
      break;
    }
    if (status == JobSource::Status::kJob) {
      result.jobs.push_back(job);
    } else {
      result.errors.push_back(error.Format());
      result.reasons.push_back(error.reason);
    }
  }
  result.notes = opened.source->Notes();
  return result;
}

class ItpTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = testing::FreshTempDir(); }

  std::string WriteTrace(const std::string& text, const std::string& name = "trace.csv") const {
    std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  // The first bad row's message (or the open error), with the file's path written as FILE.
  std::string FirstError(const std::string& text,
                         const std::map<std::string, std::string>& given = {}) const {
    const std::string path = WriteTrace(text);
    const ReadResult result = ReadAll(path, given);
    std::string message = result.errors.empty() ? result.open_error : result.errors.front();
    if (const std::size_t at = message.find(path); at != std::string::npos) {
      message.replace(at, path.size(), "FILE");
    }
    return message;
  }

 private:
  std::string dir_;
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
    GTEST_SKIP() << "the shared traces are not here: " << path;
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
    GTEST_SKIP() << "the shared traces are not here: " << path;
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
