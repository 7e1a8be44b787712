// The Philly importer: the mapping of every column, ids from line numbers (the same with CRLF
// endings and a byte-order mark), file order kept, the trailing blank line skipped, the epoch
// and gpu_time options, the exact text of every bad-row and open error, and the published
// trace (82,247 jobs, no bad row) in ../shared/traces (failing when it is absent).
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

constexpr const char* kHeader = "timestamp,duration,num_gpus,gpu_time,cluster\n";

using ReadResult = testing::TraceReadResult;

ReadResult ReadAll(const std::string& path, const std::map<std::string, std::string>& given = {}) {
  return testing::ReadTraceFile("philly", path, given);
}

class PhillyTest : public testing::TraceFileTest {
 protected:
  PhillyTest() : TraceFileTest("philly", "trace.csv") {}
};

TEST_F(PhillyTest, MapsEveryColumn) {
  const ReadResult result = ReadAll(testing::DataPath("traces/philly/good.csv"));
  ASSERT_EQ(result.open_error, "");
  ASSERT_EQ(result.errors, std::vector<std::string>{});
  ASSERT_EQ(result.jobs.size(), 5U);
  const JobRequest& request = result.jobs[1].request;
  EXPECT_EQ(request.id, "philly-3");
  EXPECT_EQ(request.submit, 0);  // 2017-09-04 00:00:00, the default epoch
  EXPECT_EQ(request.tenant, "6214e9");
  EXPECT_EQ(request.gpus, 2);
  EXPECT_EQ(result.jobs[1].truth.duration, 2'951'500);
  EXPECT_EQ(result.jobs[1].truth.work_gpu_hours, 0);
  EXPECT_EQ(request.priority_class, "");
  EXPECT_EQ(request.priority, 1);
  EXPECT_EQ(request.kind, JobKind::kUnspecified);
  EXPECT_EQ(request.max_gpus, 0);
  EXPECT_EQ(request.walltime_estimate, 0);
  // 2017-10-09 07:01:55 is 35 days, 7 h 1 min 55 s after the epoch.
  EXPECT_EQ(result.jobs[0].request.submit, kMillisPerSecond * (35 * 86400 + 7 * 3600 + 60 + 55));
  // 2017-12-22 08:02:11: 109 days after 2017-09-04.
  EXPECT_EQ(result.jobs[2].request.submit,
            kMillisPerSecond * (109 * 86400 + 8 * 3600 + 2 * 60 + 11));
  EXPECT_EQ(result.jobs[3].request.gpus, 128);
  EXPECT_EQ(result.jobs[3].truth.duration, 120'250);
}

TEST_F(PhillyTest, KeepsFileOrderAndSkipsTheTrailingBlankLine) {
  const ReadResult result =
      ReadAll(WriteTrace(std::string(kHeader) + "2017-10-09 07:01:55,66.0,1,66.0,a\n"
                                                "2017-09-29 07:58:32,860662.0,1,860662.0,b\n"
                                                "\n"
                                                "2017-10-09 06:13:36,2759.0,1,2759.0,c\n"
                                                "\n"));
  ASSERT_EQ(result.errors, std::vector<std::string>{});
  ASSERT_EQ(result.jobs.size(), 3U);
  EXPECT_EQ(result.jobs[0].request.id, "philly-2");
  EXPECT_EQ(result.jobs[1].request.id, "philly-3");
  EXPECT_EQ(result.jobs[2].request.id, "philly-5");  // line 4 is blank
  EXPECT_GT(result.jobs[0].request.submit, result.jobs[1].request.submit);
  EXPECT_LT(result.jobs[1].request.submit, result.jobs[2].request.submit);
}

TEST_F(PhillyTest, IdsAreTheSameWithCrlfEndingsAndAByteOrderMark) {
  const std::string rows =
      "2017-10-09 07:01:55,66.0,1,66.0,a\n\n2017-10-09 07:01:56,6.0,2,12.0,b\n";
  std::string crlf = "\xEF\xBB\xBF" + std::string(kHeader) + rows;
  for (std::size_t at = crlf.find('\n'); at != std::string::npos; at = crlf.find('\n', at + 2)) {
    crlf.insert(at, "\r");
  }
  const ReadResult plain = ReadAll(WriteTrace(kHeader + rows, "plain.csv"));
  const ReadResult windows = ReadAll(WriteTrace(crlf, "windows.csv"));
  ASSERT_EQ(plain.jobs.size(), 2U);
  ASSERT_EQ(windows.jobs.size(), 2U);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(plain.jobs[i].request.id, windows.jobs[i].request.id);
    EXPECT_EQ(plain.jobs[i].request.submit, windows.jobs[i].request.submit);
    EXPECT_EQ(plain.jobs[i].request.tenant, windows.jobs[i].request.tenant);
  }
  EXPECT_EQ(windows.jobs[1].request.id, "philly-4");
}

TEST_F(PhillyTest, OptionsSetTheEpochAndIdPrefix) {
  const ReadResult result =
      ReadAll(WriteTrace(std::string(kHeader) + "2017-10-09 07:01:55,66.0,1,66.0,a\n"),
              {{"epoch", "2017-10-09 07:00:00"}, {"id_prefix", "p."}});
  ASSERT_EQ(result.jobs.size(), 1U);
  EXPECT_EQ(result.jobs[0].request.id, "p.2");
  EXPECT_EQ(result.jobs[0].request.submit, 115'000);
  EXPECT_EQ(result.notes.front(),
            "submit times are seconds since 2017-10-09 07:00:00 UTC (option 'epoch'); job ids "
            "are 'p.' + the line number");
}

TEST_F(PhillyTest, EpochCountsLeapDays) {
  const ReadResult result =
      ReadAll(WriteTrace(std::string(kHeader) + "2020-03-01 00:00:00,1,1,1,a\n"),
              {{"epoch", "2020-02-28 00:00:00"}});
  ASSERT_EQ(result.jobs.size(), 1U);
  EXPECT_EQ(result.jobs[0].request.submit, kMillisPerSecond * 2 * 86400);  // 2020-02-29 exists
}

TEST_F(PhillyTest, GpuTimeIsCheckedToWithinOneSecondPerGpu) {
  const std::string rows = std::string(kHeader) +
                           "2017-10-09 07:01:55,10.0,4,44.0,a\n"  // 40 expected: 4 s off, fine
                           "2017-10-09 07:01:55,10.0,4,44.5,a\n";
  EXPECT_EQ(FirstError(rows),
            "FILE:3: column 'gpu_time': expected duration × num_gpus = 40 (to within num_gpus "
            "seconds), found 44.5");
  const ReadResult unchecked = ReadAll(WriteTrace(rows), {{"check_gpu_time", "false"}});
  EXPECT_EQ(unchecked.jobs.size(), 2U);
  EXPECT_EQ(unchecked.errors, std::vector<std::string>{});
}

TEST_F(PhillyTest, BadRowsNameTheLineColumnAndValue) {
  const std::string good = "2017-10-09 07:01:55,66.0,1,66.0,a\n";
  EXPECT_EQ(FirstError(kHeader + good + "2017-10-09 07:01:55,66.0,1,66.0\n"),
            "FILE:3: expected 5 columns as in the header, found 4");
  EXPECT_EQ(FirstError(std::string(kHeader) + "2017-10-09 07:01:55,66.0,one,66.0,a\n"),
            "FILE:2: column 'num_gpus': expected an integer, found 'one'");
  EXPECT_EQ(FirstError(std::string(kHeader) + "2017-10-09 07:01:55,-66.0,1,-66.0,a\n"),
            "FILE:2: column 'duration': expected seconds >= 0, found -66.0");
  EXPECT_EQ(FirstError(std::string(kHeader) + "2017-10-09 07:01:55,0,1,0,a\n"),
            "FILE:2: column 'duration': expected seconds > 0, found 0");
  EXPECT_EQ(FirstError(std::string(kHeader) + "2017-10-09 07:01:55,66.0,0,0,a\n"),
            "FILE:2: column 'num_gpus': expected an integer in [1, 1000000], found 0");
  EXPECT_EQ(FirstError(std::string(kHeader) + "2017-09-03 23:59:59,66.0,1,66.0,a\n"),
            "FILE:2: column 'timestamp': expected a time at or after the epoch 2017-09-04 "
            "00:00:00 (option 'epoch'), found '2017-09-03 23:59:59'");
  EXPECT_EQ(FirstError(std::string(kHeader) + "2017-10-09 07:01:55,66.0,1,66.0,\n"),
            "FILE:2: column 'cluster': expected a virtual cluster id, found ''");
}

TEST_F(PhillyTest, MalformedTimestampsAreBadRows) {
  for (const std::string timestamp :
       {"2017-10-09T07:01:55", "2017-10-09 7:01:55", "2017-13-01 00:00:00", "2017-02-29 00:00:00",
        "2017-04-31 00:00:00", "2017-10-09 24:00:00", "2017-10-09 07:60:00", "2017-10-09 07:01:60",
        "2017/10/09 07:01:55", "2017-10-09 07:01:55 ", ""}) {
    EXPECT_EQ(FirstError(kHeader + timestamp + ",66.0,1,66.0,a\n"),
              "FILE:2: column 'timestamp': expected a time as YYYY-mm-dd HH:MM:SS, found '" +
                  timestamp + "'");
  }
}

TEST_F(PhillyTest, ReasonsCountSkippedRows) {
  const ReadResult result =
      ReadAll(WriteTrace(std::string(kHeader) + "2017-10-09 07:01:55,66.0,0,0,a\n"
                                                "2017-10-09 07:01:55,x,1,66.0,a\n"
                                                "2017-10-09 07:01:55,66.0,1,66.0,a\n"));
  EXPECT_EQ(result.reasons, (std::vector<std::string>{"zero GPUs", "non-numeric field"}));
  ASSERT_EQ(result.jobs.size(), 1U);  // a bad row does not stop the rows after it
  EXPECT_EQ(result.jobs[0].request.id, "philly-4");
}

TEST_F(PhillyTest, EmptyFileAndHeaderOnly) {
  EXPECT_EQ(FirstError(""),
            "FILE: empty file: expected a header line with the columns 'timestamp', 'duration', "
            "'num_gpus', 'gpu_time', 'cluster'");
  EXPECT_EQ(FirstError("\xEF\xBB\xBF\n \r\n"),
            "FILE: empty file: expected a header line with the columns 'timestamp', 'duration', "
            "'num_gpus', 'gpu_time', 'cluster'");
  const ReadResult header_only = ReadAll(WriteTrace(std::string(kHeader) + "\n"));
  EXPECT_EQ(header_only.open_error, "");
  EXPECT_TRUE(header_only.jobs.empty());
  EXPECT_TRUE(header_only.errors.empty());
}

TEST_F(PhillyTest, HeaderIsTheFirstLineThatIsNotBlank) {
  const ReadResult result =
      ReadAll(WriteTrace("\n \n" + std::string(kHeader) + "2017-10-09 07:01:55,66.0,1,66.0,a\n"));
  ASSERT_EQ(result.jobs.size(), 1U);
  EXPECT_EQ(result.jobs[0].request.id, "philly-4");
  EXPECT_EQ(FirstError("\ntimestamp,duration\n"),
            "FILE:2: expected a header with the columns 'num_gpus', 'gpu_time', 'cluster', found "
            "columns 'timestamp', 'duration'");
}

TEST_F(PhillyTest, HeaderNeedsEveryColumn) {
  EXPECT_EQ(FirstError("timestamp,duration,num_gpus,cluster\n"),
            "FILE:1: expected a header with the column 'gpu_time', found columns 'timestamp', "
            "'duration', 'num_gpus', 'cluster'");
}

TEST_F(PhillyTest, ColumnsMayComeInAnyOrderAndExtraOnesAreNoted) {
  const ReadResult result =
      ReadAll(WriteTrace("cluster,user,num_gpus,duration,gpu_time,timestamp\n"
                         "a,alice,2,10,20,2017-09-04 00:00:10\n"));
  ASSERT_EQ(result.jobs.size(), 1U);
  EXPECT_EQ(result.jobs[0].request.tenant, "a");
  EXPECT_EQ(result.jobs[0].request.gpus, 2);
  EXPECT_EQ(result.jobs[0].request.submit, 10'000);
  EXPECT_EQ(result.notes.back(), "columns not used: 'user'");
}

TEST_F(PhillyTest, BadOptionsAreOpenErrors) {
  EXPECT_EQ(FirstError(kHeader, {{"epoch", "2017-09-04"}}),
            "FILE: option 'epoch': expected a time as YYYY-mm-dd HH:MM:SS, found '2017-09-04'");
  EXPECT_EQ(FirstError(kHeader, {{"id_prefix", "a b"}}),
            "FILE: option 'id_prefix': expected an id of letters, digits, '.', '_' or '-', found "
            "'a b'");
  EXPECT_EQ(FirstError(kHeader, {{"check_gpu_time", "yes"}}),
            "FILE: option 'check_gpu_time': expected true or false, found 'yes'");
}

TEST_F(PhillyTest, MissingFileIsAnOpenError) {
  const ReadResult result = ReadAll("/nonexistent/philly.csv");
  EXPECT_EQ(result.open_error, "/nonexistent/philly.csv: cannot read: No such file or directory");
}

TEST_F(PhillyTest, PublishedTraceHas82247JobsAndNoBadRow) {
  const std::string path = testing::SourcePath("../shared/traces/philly/philly.csv");
  if (!std::filesystem::exists(path)) {
    GTEST_FAIL() << "the shared traces are not here: " << path
                 << " (../shared is part of the test setup)";
  }
  const ReadResult result = ReadAll(path);
  EXPECT_EQ(result.open_error, "");
  EXPECT_EQ(result.jobs.size(), 82'247U);
  EXPECT_EQ(result.errors, std::vector<std::string>{});
  ASSERT_FALSE(result.jobs.empty());
  const Job& first = result.jobs.front();
  EXPECT_EQ(first.request.id, "philly-2");
  EXPECT_EQ(first.request.tenant, "11cb48");
  EXPECT_EQ(first.truth.duration, 66'000);
  EXPECT_EQ(result.jobs.back().request.id, "philly-82248");
}

}  // namespace
}  // namespace fleetsim
