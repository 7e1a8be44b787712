// The Standard Workload Format importer: the 18 fields and which are used, processors to GPUs,
// the rows the `skip` option filters (counted in the notes), header comments, the exact text of
// every bad-row and option error. SWF fixtures are written by hand (no log is shipped).
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

constexpr const char* kFormat = "swf";

using ReadResult = testing::TraceReadResult;

ReadResult ReadAll(const std::string& path, const std::map<std::string, std::string>& given = {}) {
  return testing::ReadTraceFile(kFormat, path, given);
}

class SwfTest : public testing::TraceFileTest {
 protected:
  SwfTest() : TraceFileTest(kFormat, "trace.swf") {}
};

// A job line: job number, submit, run time, allocated and requested processors, status; the
// other fields are -1 (unknown) except user 3 and queue 1.
std::string Line(const std::string& number, const std::string& submit, const std::string& run,
                 const std::string& allocated, const std::string& requested,
                 const std::string& status) {
  return number + " " + submit + " -1 " + run + " " + allocated + " -1 -1 " + requested +
         " -1 -1 " + status + " 3 -1 -1 1 -1 -1 -1\n";
}

TEST_F(SwfTest, MapsEveryUsedField) {
  const ReadResult result =
      ReadAll(testing::DataPath("traces/swf/good.swf"), {{"processors_per_gpu", "4"}});
  ASSERT_EQ(result.open_error, "");
  ASSERT_EQ(result.errors, std::vector<std::string>{});
  ASSERT_EQ(result.jobs.size(), 5U);  // the partial execution of job 4 is filtered
  const Job& first = result.jobs[0];
  EXPECT_EQ(first.request.id, "swf-1");
  EXPECT_EQ(first.request.submit, 0);
  EXPECT_EQ(first.truth.duration, 3'600'000);
  EXPECT_EQ(first.request.gpus, 2);  // 8 allocated processors / 4
  EXPECT_EQ(first.request.walltime_estimate, 7'200'000);
  EXPECT_EQ(first.request.tenant, "user-3");
  EXPECT_EQ(first.request.priority_class, "queue-1");
  EXPECT_EQ(first.request.kind, JobKind::kUnspecified);
  EXPECT_EQ(first.request.priority, 1);
  const Job& failed = result.jobs[1];  // status 0, allocation -1, user -1, queue 0
  EXPECT_EQ(failed.request.gpus, 2);   // ceil(5 requested / 4)
  EXPECT_EQ(failed.request.walltime_estimate, 0);
  EXPECT_EQ(failed.request.tenant, "default");
  EXPECT_EQ(failed.request.priority_class, "queue-0");
  EXPECT_EQ(failed.request.kind, JobKind::kInteractive);
  const Job& cancelled = result.jobs[2];  // status 5 after running 45.5 s, queue -1
  EXPECT_EQ(cancelled.truth.duration, 45'500);
  EXPECT_EQ(cancelled.request.priority_class, "");
  EXPECT_EQ(cancelled.request.tenant, "user-12");
  EXPECT_EQ(result.jobs[3].request.id, "swf-4");
  EXPECT_EQ(result.jobs[3].truth.duration, 400'000);
  EXPECT_EQ(result.jobs[4].request.gpus, 16);  // a tab-separated line
  EXPECT_EQ(
      result.notes,
      (std::vector<std::string>{
          "GPUs = ceil(processors / 4) (option 'processors_per_gpu'), processors being "
          "allocated_processors (field 5), or requested_processors (field 8) where field 5 "
          "is -1",
          "1 job sized by requested_processors (field 8), allocated_processors (field 5) being "
          "-1",
          "header: MaxProcs 64 (16 GPUs at processors_per_gpu 4)",
          "option 'skip' filtered 1 row: 1 'partial'"}));
}

TEST_F(SwfTest, ProcessorsBecomeGpusRoundingUp) {
  const std::string text = Line("1", "0", "10", "8", "8", "1") +
                           Line("2", "0", "10", "9", "9", "1") +
                           Line("3", "0", "10", "1", "1", "1");
  const ReadResult one_each = ReadAll(WriteTrace(text));
  ASSERT_EQ(one_each.jobs.size(), 3U);
  EXPECT_EQ(one_each.jobs[1].request.gpus, 9);
  const ReadResult four_each = ReadAll(WriteTrace(text), {{"processors_per_gpu", "4"}});
  ASSERT_EQ(four_each.jobs.size(), 3U);
  EXPECT_EQ(four_each.jobs[0].request.gpus, 2);
  EXPECT_EQ(four_each.jobs[1].request.gpus, 3);
  EXPECT_EQ(four_each.jobs[2].request.gpus, 1);
}

TEST_F(SwfTest, SkipOptionFiltersAndCountsRowKinds) {
  const std::string text = Line("1", "0", "10", "8", "8", "2") +   // partial
                           Line("1", "0", "20", "8", "8", "1") +   // its summary line
                           Line("2", "5", "30", "8", "8", "5") +   // cancelled
                           Line("3", "6", "40", "8", "8", "0") +   // failed
                           Line("4", "7", "-1", "8", "8", "-1") +  // unknown run time
                           Line("5", "8", "0", "0", "8", "5");     // cancelled before it ran
  const ReadResult all =
      ReadAll(WriteTrace(text), {{"skip", "partial|cancelled|failed|no-runtime"}});
  ASSERT_EQ(all.jobs.size(), 1U);
  EXPECT_EQ(all.jobs[0].truth.duration, 20'000);
  EXPECT_EQ(
      all.notes.back(),
      "option 'skip' filtered 5 rows: 1 'partial', 2 'cancelled', 1 'failed', 1 'no-runtime'");
  const ReadResult no_runtime = ReadAll(WriteTrace(text), {{"skip", "partial|no-runtime"}});
  EXPECT_EQ(no_runtime.jobs.size(), 3U);
  EXPECT_EQ(no_runtime.errors, std::vector<std::string>{});
  EXPECT_EQ(no_runtime.notes.back(), "option 'skip' filtered 3 rows: 1 'partial', 2 'no-runtime'");
  const ReadResult none = ReadAll(WriteTrace(text), {{"skip", "none"}});
  EXPECT_EQ(none.jobs.size(), 4U);  // both lines of job 1, jobs 2 and 3
  EXPECT_EQ(none.reasons, (std::vector<std::string>{"invalid value", "value out of range"}));
}

// Issue 19: a real Parallel Workloads Archive log imported with default options (the NASA
// iPSC/860 log has 173 rows with run time 0; no PWA log is in ../shared, so this file has the
// archive's shape: a ';' header, then completed rows among rows that never ran or were not
// timed). The default filters and counts those rows instead of failing on the first.
TEST_F(SwfTest, DefaultOptionsFilterRowsWithoutARunTimeAndCountThem) {
  const std::string text = "; Version: 2.2\n; Computer: an iPSC/860-like machine\n"
                           "; MaxJobs: 6\n; MaxProcs: 128\n;\n" +
                           Line("1", "0", "30", "8", "8", "1") + Line("2", "5", "0", "1", "1", "1") +
                           Line("3", "9", "120", "32", "32", "1") +
                           Line("4", "12", "0", "1", "1", "1") +
                           Line("5", "14", "-1", "4", "4", "-1") +
                           Line("6", "20", "60", "128", "128", "1");
  const ReadResult defaults = ReadAll(WriteTrace(text));
  EXPECT_EQ(defaults.errors, std::vector<std::string>{});
  ASSERT_EQ(defaults.jobs.size(), 3U);
  EXPECT_EQ(defaults.jobs[1].request.id, "swf-3");
  EXPECT_EQ(defaults.notes.back(), "option 'skip' filtered 3 rows: 3 'no-runtime'");
  const ReadResult strict = ReadAll(WriteTrace(text), {{"skip", "partial"}});
  EXPECT_EQ(strict.jobs.size(), 3U);
  EXPECT_EQ(strict.errors.size(), 3U);
}

TEST_F(SwfTest, BadRowsNameTheLineFieldAndValue) {
  const std::string good = Line("1", "0", "10", "8", "8", "1");
  EXPECT_EQ(FirstError("; MaxProcs: 8\n" + good + "2 0 10 8 8\n"),
            "FILE:3: expected 18 fields, found 5");
  EXPECT_EQ(FirstError(Line("1", "0", "ten", "8", "8", "1")),
            "FILE:1: column 'run_time (field 4)': expected a number, found 'ten'");
  EXPECT_EQ(FirstError(Line("1", "-5", "10", "8", "8", "1")),
            "FILE:1: column 'submit_time (field 2)': expected seconds >= 0, found -5");
  EXPECT_EQ(FirstError(Line("1", "0", "-10", "8", "8", "1")),
            "FILE:1: column 'run_time (field 4)': expected seconds >= 0, found -10");
  EXPECT_EQ(FirstError(Line("1", "0", "-1", "8", "8", "1"), {{"skip", "partial"}}),
            "FILE:1: column 'run_time (field 4)': expected seconds > 0, found -1 (unknown; add "
            "'no-runtime' to option 'skip' to filter such rows)");
  EXPECT_EQ(FirstError(Line("1", "0", "0", "8", "8", "1"), {{"skip", "partial"}}),
            "FILE:1: column 'run_time (field 4)': expected seconds > 0, found 0 (add "
            "'no-runtime' to option 'skip' to filter such rows)");
  EXPECT_EQ(FirstError(Line("1", "0", "10", "0", "8", "1")),
            "FILE:1: column 'allocated_processors (field 5)': expected a processor count >= 1, "
            "found 0");
  EXPECT_EQ(FirstError(Line("1", "0", "10", "-1", "-1", "1")),
            "FILE:1: column 'requested_processors (field 8)': expected a processor count >= 1, "
            "found -1 and allocated_processors (field 5) is -1 too");
  EXPECT_EQ(FirstError(Line("1", "0", "10", "-1", "0", "1")),
            "FILE:1: column 'requested_processors (field 8)': expected a processor count >= 1, "
            "found 0");
  EXPECT_EQ(FirstError(Line("1", "0", "10", "2000000", "8", "1")),
            "FILE:1: column 'allocated_processors (field 5)': expected an integer in [-1, "
            "1000000], found 2000000");
  EXPECT_EQ(FirstError(Line("1", "0", "10", "8", "8", "7")),
            "FILE:1: column 'status (field 11)': expected an integer in [-1, 5], found 7");
  EXPECT_EQ(FirstError(Line("-3", "0", "10", "8", "8", "1")),
            "FILE:1: column 'job_number (field 1)': expected an integer in [0, "
            "9223372036854775807], found -3");
}

TEST_F(SwfTest, ReasonsAndTheRowsAfterABadRow) {
  const ReadResult result = ReadAll(WriteTrace(Line("1", "0", "10", "0", "8", "1") + "x\n" +
                                               Line("3", "0", "10", "8", "8", "1")));
  EXPECT_EQ(result.reasons, (std::vector<std::string>{"zero GPUs", "wrong column count"}));
  ASSERT_EQ(result.jobs.size(), 1U);
  EXPECT_EQ(result.jobs[0].request.id, "swf-3");
}

TEST_F(SwfTest, CommentsBlankLinesAndLineEndings) {
  const ReadResult result = ReadAll(
      WriteTrace("\xEF\xBB\xBF; Version: 2.2\r\n;\r\n\r\n  " + Line("7", "1", "10", "8", "8", "1") +
                 "; a comment between jobs\n\t" + Line("8", "2", "10", "8", "8", "1")));
  ASSERT_EQ(result.errors, std::vector<std::string>{});
  ASSERT_EQ(result.jobs.size(), 2U);
  EXPECT_EQ(result.jobs[0].request.id, "swf-7");
  EXPECT_EQ(result.jobs[1].request.id, "swf-8");
  EXPECT_EQ(result.notes.size(), 1U);  // no MaxProcs in the header
}

TEST_F(SwfTest, EmptyFileHasNoJobs) {
  for (const std::string text : {"", "; Version: 2.2\n; MaxProcs: 64\n"}) {
    const ReadResult result = ReadAll(WriteTrace(text));
    EXPECT_EQ(result.open_error, "");
    EXPECT_TRUE(result.jobs.empty());
    EXPECT_TRUE(result.errors.empty());
  }
}

TEST_F(SwfTest, IdPrefixOption) {
  const ReadResult result =
      ReadAll(WriteTrace(Line("12", "0", "10", "8", "8", "1")), {{"id_prefix", ""}});
  ASSERT_EQ(result.jobs.size(), 1U);
  EXPECT_EQ(result.jobs[0].request.id, "12");
}

TEST_F(SwfTest, BadOptionsAreOpenErrors) {
  EXPECT_EQ(FirstError("", {{"processors_per_gpu", "0"}}),
            "FILE: option 'processors_per_gpu': expected an integer in [1, 1000000], found '0'");
  EXPECT_EQ(FirstError("", {{"processors_per_gpu", "1.5"}}),
            "FILE: option 'processors_per_gpu': expected an integer in [1, 1000000], found '1.5'");
  EXPECT_EQ(FirstError("", {{"skip", "partial|canceled"}}),
            "FILE: option 'skip': expected 'none' or names from 'partial', 'cancelled', 'failed', "
            "'no-runtime' separated by '|', found 'canceled', did you mean 'cancelled'?");
  EXPECT_EQ(FirstError("", {{"id_prefix", "job #"}}),
            "FILE: option 'id_prefix': expected an id of letters, digits, '.', '_' or '-', found "
            "'job #'");
  EXPECT_EQ(FirstError(""), "");
}

}  // namespace
}  // namespace fleetsim
