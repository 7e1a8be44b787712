// The native JSON Lines and CSV formats: what each reader yields row by row (jobs, and bad rows
// with their exact message and reason, each followed by the next good row), their open errors,
// and the writers' exact output. The conformance kit (tests/conformance) runs the shared
// fixtures; these tests pin down the cases one at a time.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "fleetsim/core/file_system.h"
#include "fleetsim/trace/formats.h"
#include "fleetsim/trace/native.h"
#include "job_json/job_json.h"
#include "testutil/workloads.h"
#include "trace/fields.h"

namespace fleetsim {
namespace {

std::string Replaced(std::string text, const std::string& what, const std::string& with) {
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at)) {
    text.replace(at, what.size(), with);
    at += with.size();
  }
  return text;
}

// What a format yields for `bytes`, one string per Next: "<line>: <job as native JSON>" or
// "<line>: <reason>: <error text>" (the file's path written as FILE), or the open error.
std::vector<std::string> Rows(const std::string& format, const std::string& bytes) {
  const std::string path = "traces/input." + format;
  MemoryFileSystem files;
  EXPECT_TRUE(files.CreateDirectories("traces").ok());
  EXPECT_TRUE(files.WriteFile(path, bytes).ok());
  OpenResult opened = FindTraceFormat(format)->open(files, path, {});
  if (opened.source == nullptr) {
    return {"open: " + Replaced(opened.status.message(), path, "FILE")};
  }
  std::vector<std::string> rows;
  Job job;
  RowError error;
  for (JobSource::RowStatus status;
       (status = opened.source->Next(job, error)) != JobSource::RowStatus::kEnd;) {
    const std::string line = std::to_string(opened.source->line());
    rows.push_back(status == JobSource::RowStatus::kJob
                       ? line + ": " + JobToJson(job).dump()
                       : line + ": " + error.reason + ": " +
                             Replaced(error.Format(), path, "FILE"));
  }
  return rows;
}

// The single row a one-row input yields.
std::string OnlyRow(const std::string& format, const std::string& bytes) {
  const std::vector<std::string> rows = Rows(format, bytes);
  EXPECT_EQ(rows.size(), 1U) << bytes;
  return rows.empty() ? "" : rows.front();
}

std::string Jsonl(const std::vector<Job>& jobs) {
  std::ostringstream out;
  JsonlJobWriter writer(out);
  for (const Job& job : jobs) {
    writer.Write(job);
  }
  return out.str();
}

std::string Csv(const std::vector<Job>& jobs) {
  std::ostringstream out;
  CsvJobWriter writer(out);
  for (const Job& job : jobs) {
    writer.Write(job);
  }
  return out.str();
}

Job SimpleJob(const std::string& id, SimTime submit, std::int64_t gpus, SimDuration duration) {
  Job job;
  job.request.id = id;
  job.request.submit = submit;
  job.request.gpus = gpus;
  job.truth.duration = duration;
  return job;
}

// Every field away from its default, and a tenant that needs CSV quoting.
Job FullJob() {
  Job job = testing::EveryFieldJob();
  job.request.tenant = "search, \"west\"";
  return job;
}

const std::string kHeader = "id,submit_s,gpus,duration_s\n";

// --- JSON Lines ---

TEST(JsonlReaderTest, ABadRowIsFollowedByTheNextGoodRow) {
  EXPECT_EQ(Rows("jsonl", R"({"id": "a", "duration_s": 1}
{"id": "b", "gpus": "two", "duration_s": 1}
{"id": "c", "submit_s": 2, "gpus": 4, "duration_s": 1.5}
)"),
            (std::vector<std::string>{
                R"(1: {"id":"a","submit_s":0,"gpus":1,"duration_s":1})",
                "2: non-numeric field: FILE:2: field 'gpus': expected an integer in [0, 1000000], "
                "found \"two\"",
                R"(3: {"id":"c","submit_s":2,"gpus":4,"duration_s":1.5})"}));
}

TEST(JsonlReaderTest, SkipsBlankLinesButCountsThem) {
  EXPECT_EQ(Rows("jsonl", "\n  \t\n{\"id\": \"a\", \"duration_s\": 1}\r\n\n"),
            (std::vector<std::string>{R"(3: {"id":"a","submit_s":0,"gpus":1,"duration_s":1})"}));
}

TEST(JsonlReaderTest, AnEmptyFileHasNoRows) {
  EXPECT_TRUE(Rows("jsonl", "").empty());
  EXPECT_TRUE(Rows("jsonl", "\n\n").empty());
}

TEST(JsonlReaderTest, ReportsLinesThatAreNotJsonObjects) {
  EXPECT_EQ(OnlyRow("jsonl", R"({"id": "a",})"),
            "1: malformed row: FILE:1: invalid JSON at column 12: syntax error while parsing "
            "object key - unexpected '}'; expected string literal");
  EXPECT_EQ(OnlyRow("jsonl", R"({"id": "a", "duration_s": 1e999})"),
            "1: malformed row: FILE:1: invalid JSON: number overflow parsing '1e999'");
  EXPECT_EQ(OnlyRow("jsonl", R"("just text")"),
            "1: malformed row: FILE:1: expected a JSON object on each line, found \"just text\"");
}

// Issue 19: a row nested 100,000 deep, and a syntax error inside a 100,000-character string,
// are bad rows with a bounded message, and the next good row is still read.
TEST(JsonlReaderTest, HostileRowsAreBadRowsNotCrashes) {
  const std::vector<std::string> rows =
      Rows("jsonl", std::string(100'000, '[') + std::string(100'000, ']') + "\n{\"id\": \"" +
                        std::string(100'000, 'q') + "\n{\"id\": \"a\", \"duration_s\": 1}\n");
  ASSERT_EQ(rows.size(), 3U);
  EXPECT_NE(rows[0].find("invalid JSON at column 513: arrays and objects nested deeper than 512 "
                         "levels"),
            std::string::npos)
      << rows[0];
  EXPECT_NE(rows[1].find("invalid JSON at column"), std::string::npos) << rows[1].substr(0, 300);
  EXPECT_LT(rows[1].size(), 500U);
  EXPECT_EQ(rows[2].rfind("3: ", 0), 0U) << rows[2];
}

TEST(JsonlReaderTest, UnknownFieldsAreBadRowsWithSuggestions) {
  EXPECT_EQ(OnlyRow("jsonl", R"({"id": "a", "duraton_s": 1})"),
            "1: invalid value: FILE:1: unknown field 'duraton_s', did you mean 'duration_s'?");
  EXPECT_EQ(OnlyRow("jsonl", R"({"id": "a", "duration_s": 1, "colour": "red"})"),
            "1: invalid value: FILE:1: unknown field 'colour'");
  EXPECT_EQ(OnlyRow("jsonl", R"({"id": "a", "duration_s": 1, "demand": {"swap_cp": 1}})"),
            "1: invalid value: FILE:1: unknown field 'demand.swap_cp', did you mean "
            "'demand.swap_cap'?");
  EXPECT_EQ(OnlyRow("jsonl",
                    R"({"id": "a", "duration_s": 1, ")" + std::string(100'000, 'f') + R"(": 1})"),
            "1: invalid value: FILE:1: unknown field '" + std::string(61, 'f') + "...'");
}

TEST(JsonlReaderTest, FieldProblemsNameTheFieldAndTheValueFound) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"id": "a", "gpus": 2.5, "duration_s": 1})",
       "invalid value: FILE:1: field 'gpus': expected an integer in [0, 1000000], found 2.5"},
      {R"({"id": "a", "duration_s": "1"})",
       "non-numeric field: FILE:1: field 'duration_s': expected a number > 0 and ≤ 3155760000, "
       "found \"1\""},
      {R"({"id": "a", "duration_s": -1})",
       "negative time or duration: FILE:1: field 'duration_s': expected a number > 0 and ≤ "
       "3155760000, found -1"},
      {R"({"id": "a", "priority": 0, "duration_s": 1})",
       "value out of range: FILE:1: field 'priority': expected an integer ≥ 1, found 0"},
      {R"({"id": "a", "kind": 3, "duration_s": 1})",
       "invalid value: FILE:1: field 'kind': expected a string, found 3"},
      {R"({"id": "a", "preemptible": 1, "duration_s": 1})",
       "invalid value: FILE:1: field 'preemptible': expected true or false, found 1"},
      {R"({"id": "a", "duration_s": 1, "demand": {"step_s": 60, "gpus": [-1]}})",
       "value out of range: FILE:1: field 'demand.gpus[0]': expected an integer ≥ 0, found -1"},
      {R"({"id": "a", "duration_s": 1, "demand": {"gpus": [1]}})",
       "invalid value: FILE:1: field 'demand': missing required key 'step_s'"},
      {R"({"id": "a", "duration_s": 0.0001})",
       "value out of range: FILE:1: field 'duration_s': expected a duration of at least 1 ms "
       "after rounding to the millisecond, found 0.0001"},
      {R"({"submit_s": 1, "duration_s": 1})", "invalid value: FILE:1: missing required key 'id'"},
  };
  for (const auto& [line, expected] : cases) {
    EXPECT_EQ(OnlyRow("jsonl", line), "1: " + expected);
  }
}

TEST(JsonlReaderTest, JobRuleProblemsComeOutAsForEveryReader) {
  EXPECT_EQ(OnlyRow("jsonl", R"({"id": "a", "gpus": 2, "sharing": "fraction", "duration_s": 1})"),
            "1: value out of range: FILE:1: field 'sharing': 'fraction' sharing needs exactly 1 "
            "GPU, found gpus 2 max_gpus 2");
  EXPECT_EQ(OnlyRow("jsonl", R"({"id": "a", "gpus": 0, "duration_s": 1})"),
            "1: zero GPUs: FILE:1: field 'gpus': expected at least 1 GPU (a CPU-only job, gpus 0, "
            "must ask for cpu_milli), found 0");
  EXPECT_EQ(OnlyRow("jsonl", R"({"id": "a", "duration_s": 1, "work_gpu_hours": 2})"),
            "1: value out of range: FILE:1: field 'duration_s': expected either duration_s or "
            "work_gpu_hours, found both");
}

// The import_roundtrip fuzz target's finding (tenth campaign): the CSV writer joins a job's model
// names with '|', so a name holding one came back as two. Every reader now refuses such a name.
TEST(JsonlReaderTest, AModelNameHoldingTheCsvListSeparatorIsABadRow) {
  EXPECT_EQ(
      OnlyRow("jsonl",
              R"({"id":"a","submit_s":0,"gpus":1,"duration_s":60,"gpu_models":["A|B","H100"]})"),
      "1: invalid value: FILE:1: field 'gpu_models': expected GPU model names without '|' "
      "(it separates the names of a CSV cell), found 'A|B'");
}

// Text that a line of native CSV could not carry unchanged (a CSV cell of spaces reads as the
// field's default; a line break ends the row) is refused by every reader, so JSON Lines -> CSV ->
// JSON Lines loses nothing.
TEST(JsonlReaderTest, TextThatTheCsvFormatCouldNotCarryIsABadRow) {
  const std::string job = R"({"id":"a","submit_s":0,"duration_s":60,)";
  const std::string spaces = "expected text that is not spaces alone, found ";
  const std::string controls =
      "expected text without control characters (tabs, line breaks...), found ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"("gpus":1,"tenant":" "})", "field 'tenant': " + spaces + "' '"},
      {R"("gpus":1,"tenant":"x\ny"})", "field 'tenant': " + controls + R"('x\x0ay')"},
      {R"("gpus":1,"priority_class":"\t"})", "field 'priority_class': " + controls + R"('\x09')"},
      {R"("gpus":1,"gpu_models":["  "]})", "field 'gpu_models': " + spaces + "'  '"},
      {R"("gpus":1,"gpu_models":["A100\r"]})", "field 'gpu_models': " + controls + R"('A100\x0d')"},
      {R"("gres":"gpu:a|b:1"})",
       "field 'gres': expected GPU model names without '|' (it "
       "separates the names of a CSV cell), found 'a|b'"},
      {R"("gpus":1,"recorded_state":"\u007f"})",
       "field 'recorded_state': " + controls + R"('\x7f')"},
  };
  for (const auto& [fields, expected] : cases) {
    EXPECT_EQ(OnlyRow("jsonl", job + fields), "1: invalid value: FILE:1: " + expected);
  }
}

TEST(JsonlReaderTest, TextInAJobRuleMessageIsCutTo64Bytes) {
  const std::string model = std::string(70, 'x') + "|";
  EXPECT_EQ(OnlyRow("jsonl", R"({"id":"a","submit_s":0,"gpus":1,"duration_s":60,"gpu_models":[")" +
                                 model + R"("]})"),
            "1: invalid value: FILE:1: field 'gpu_models': expected GPU model names without '|' "
            "(it separates the names of a CSV cell), found '" +
                std::string(61, 'x') + "...'");
}

TEST(CsvWriterTest, TextWithOuterSpacesQuotesAndCommasReadsBackUnchanged) {
  Job job = SimpleJob("a", 0, 1, 60000);
  job.request.tenant = " search, \"west\" ";
  job.request.priority_class = "high ";
  job.request.gpu_models = {" A100", "H100 SXM"};
  job.truth.recorded_state = "CANCELLED by 42";
  EXPECT_EQ(Rows("csv", Csv({job})), (std::vector<std::string>{"2: " + JobToJson(job).dump()}));
}

TEST(JsonlReaderTest, AMissingFileIsAnOpenError) {
  const std::string path = "traces/none.jsonl";
  const MemoryFileSystem files;
  const OpenResult opened = FindTraceFormat("jsonl")->open(files, path, {});
  EXPECT_EQ(opened.source, nullptr);
  EXPECT_EQ(opened.status.message(), path + ": cannot read: No such file or directory");
}

TEST(JsonlWriterTest, WritesOneCompactObjectPerLine) {
  EXPECT_EQ(Jsonl({SimpleJob("a", 0, 1, 60'000), SimpleJob("b", 1'500, 8, 3'600'000)}),
            "{\"id\":\"a\",\"submit_s\":0,\"gpus\":1,\"duration_s\":60}\n"
            "{\"id\":\"b\",\"submit_s\":1.5,\"gpus\":8,\"duration_s\":3600}\n");
  EXPECT_EQ(Jsonl({}), "");
}

TEST(JsonlWriterTest, ReplacesBytesThatAreNotUtf8) {
  Job job = SimpleJob("a", 0, 1, 1'000);
  job.request.tenant = "caf\xE9";
  EXPECT_EQ(Jsonl({job}),
            "{\"id\":\"a\",\"submit_s\":0,\"tenant\":\"caf\xEF\xBF\xBD\","
            "\"gpus\":1,\"duration_s\":1}\n");
}

TEST(JsonlWriterTest, AFullJobReadsBackUnchanged) {
  const std::string text = Jsonl({FullJob()});
  EXPECT_EQ(Rows("jsonl", text), (std::vector<std::string>{"1: " + JobToJson(FullJob()).dump()}));
}

// --- CSV ---

TEST(CsvReaderTest, ColumnsMayComeInAnyOrderAndEmptyCellsMeanTheDefault) {
  EXPECT_EQ(Rows("csv",
                 "duration_s,gpus,tenant,id,submit_s,kind\n"
                 "60,4,,a,1,\n"
                 "1.5, 8 ,\"ops, west\",b,,fine-tuning\n"),
            (std::vector<std::string>{
                R"(2: {"id":"a","submit_s":1,"gpus":4,"duration_s":60})",
                R"(3: {"id":"b","submit_s":0,"tenant":"ops, west","kind":"fine-tuning","gpus":8,)"
                R"("duration_s":1.5})"}));
}

TEST(CsvReaderTest, AHeaderWithNoRowsHasNoJobs) {
  EXPECT_TRUE(Rows("csv", kHeader).empty());
  EXPECT_TRUE(Rows("csv", kHeader + "\n \n").empty());
}

TEST(CsvReaderTest, ABadRowIsFollowedByTheNextGoodRow) {
  EXPECT_EQ(Rows("csv", kHeader + "a,0,1,60\nb,0,x,60\n\nc,0,2,60\n"),
            (std::vector<std::string>{
                R"(2: {"id":"a","submit_s":0,"gpus":1,"duration_s":60})",
                "3: non-numeric field: FILE:3: column 'gpus': expected an integer, found 'x'",
                R"(5: {"id":"c","submit_s":0,"gpus":2,"duration_s":60})"}));
}

TEST(CsvReaderTest, ReportsRowsThatDoNotSplit) {
  EXPECT_EQ(OnlyRow("csv", kHeader + "a,0,1\n"),
            "2: wrong column count: FILE:2: expected 4 columns as in the header, found 3");
  EXPECT_EQ(OnlyRow("csv", kHeader + "a,0,1,60,\n"),
            "2: wrong column count: FILE:2: expected 4 columns as in the header, found 5");
  EXPECT_EQ(OnlyRow("csv", kHeader + "\"a\"b,0,1,60\n"),
            "2: malformed row: FILE:2: field 1 has text after its closing quote");
}

TEST(CsvReaderTest, CellProblemsNameTheColumnAndTheValueFound) {
  const std::string header =
      "id,submit_s,gpus,kind,preemptible,demand_gpus,duration_s,work_gpu_hours\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"a,0,1,,,,0,",
       "value out of range: FILE:2: column 'duration_s': expected seconds > 0, found 0"},
      {"a,0,1,,,,,0",
       "value out of range: FILE:2: column 'work_gpu_hours': expected a number > 0, found '0'"},
      {"a,0,1,fine_tuning,,,1,",
       "invalid value: FILE:2: column 'kind': expected one of 'unspecified', 'pretraining', "
       "'fine-tuning', 'batch-inference', 'realtime-inference', 'quantization', 'interactive', "
       "found 'fine_tuning', did you mean 'fine-tuning'?"},
      {"a,0,1,,yes,,1,",
       "invalid value: FILE:2: column 'preemptible': expected true or false, "
       "found 'yes'"},
      {"a,0,1,realtime-inference,,1|x,1,",
       "non-numeric field: FILE:2: column 'demand_gpus': expected an integer, found 'x'"},
      {"a,-1,1,,,,1,",
       "negative time or duration: FILE:2: column 'submit_s': expected seconds >= 0, found -1"},
  };
  for (const auto& [row, expected] : cases) {
    EXPECT_EQ(OnlyRow("csv", header + row + "\n"), "2: " + expected);
  }
}

TEST(CsvReaderTest, JobRuleProblemsComeOutAsForEveryReader) {
  EXPECT_EQ(OnlyRow("csv", "id,gpus,submit_s,gpu_models,duration_s\na,1,0,A100||H100,1\n"),
            "2: invalid value: FILE:2: field 'gpu_models': expected GPU model names, found an "
            "empty name");
  EXPECT_EQ(OnlyRow("csv", "id,gpus,submit_s,duration_s,work_gpu_hours\na,1,0,1,2\n"),
            "2: value out of range: FILE:2: field 'duration_s': expected either duration_s or "
            "work_gpu_hours, found both");
  EXPECT_EQ(OnlyRow("csv", "id,gpus,submit_s,duration_s\n,1,0,1\n"),
            "2: invalid value: FILE:2: field 'id': expected an id of letters, digits, '.', '_' or "
            "'-', found ''");
}

TEST(CsvReaderTest, TheHeaderMustNameKnownColumnsOnce) {
  EXPECT_EQ(OnlyRow("csv", "id,submit_s,gpus,duraton_s\n"),
            "open: FILE:1: unknown column 'duraton_s' (did you mean 'duration_s'?)");
  const std::string long_name(100'000, 'c');
  const std::string shown = std::string(61, 'c') + "...";
  EXPECT_EQ(OnlyRow("csv", "id,submit_s,gpus,duration_s," + long_name + "\n"),
            "open: FILE:1: unknown column '" + shown + "'");
  EXPECT_EQ(OnlyRow("csv", "id,gpus,duration_s," + long_name + "\n"),
            "open: FILE:1: expected a header with the column 'submit_s', found columns 'id', "
            "'gpus', 'duration_s', '" +
                shown + "'");
  EXPECT_EQ(OnlyRow("csv", "id,submit_s,gpus,gpus,duration_s\n"),
            "open: FILE:1: column 'gpus' appears twice in the header");
  EXPECT_EQ(OnlyRow("csv", "id,duration_s\n"),
            "open: FILE:1: expected a header with the column 'submit_s', found columns 'id', "
            "'duration_s'");
  EXPECT_EQ(OnlyRow("csv", "id,submit_s,duration_s\n"),
            "open: FILE:1: expected a header with a 'gpus', 'gres' or 'resources' column, found "
            "columns 'id', 'submit_s', 'duration_s'");
  EXPECT_EQ(OnlyRow("csv", "\n\nid,\"submit_s\n"),
            "open: FILE:3: header: field 2 has an opening quote but no closing quote");
}

TEST(CsvReaderTest, AFileWithoutAHeaderIsAnOpenError) {
  const std::string empty =
      "open: FILE: empty file: expected a header line with the columns 'id', 'submit_s'";
  EXPECT_EQ(OnlyRow("csv", ""), empty);
  EXPECT_EQ(OnlyRow("csv", "\n \r\n"), empty);
}

TEST(CsvReaderTest, ReadsRequestsInSlurmAndKubernetesWords) {
  EXPECT_EQ(Rows("csv",
                 "id,submit_s,gres,resources,gpus,duration_s\n"
                 "a,0,gpu:h100:8,,,60\n"
                 "b,0,,\"cpu=8,nvidia.com/gpu=2\",,60\n"
                 "c,0,,,4,60\n"),
            (std::vector<std::string>{
                R"(2: {"id":"a","submit_s":0,"gres":"gpu:h100:8","duration_s":60})",
                R"(3: {"id":"b","submit_s":0,"resources":{"cpu":8,"nvidia.com/gpu":2},)"
                R"("duration_s":60})",
                R"(4: {"id":"c","submit_s":0,"gpus":4,"duration_s":60})"}));
  EXPECT_EQ(OnlyRow("csv", "id,submit_s,gres,duration_s\na,0,gpu:1g.10gb,60\n"),
            R"(2: {"id":"a","submit_s":0,"gres":"gpu:1g.10gb","duration_s":60})");
  // Resources in any order are one request, kept in name order as JSON keeps them.
  const std::string unsorted =
      OnlyRow("csv", "id,submit_s,resources,duration_s\na,0,\"nvidia.com/gpu=2,cpu=8\",60\n");
  EXPECT_EQ(unsorted, R"(2: {"id":"a","submit_s":0,"resources":{"cpu":8,"nvidia.com/gpu":2},)"
                      R"("duration_s":60})");
}

TEST(CsvReaderTest, RequestWordsMustStandAlone) {
  EXPECT_EQ(OnlyRow("csv", "id,submit_s,gres,gpus,duration_s\na,0,gpu:h100:8,8,60\n"),
            "2: invalid value: FILE:2: column 'gpus': expected no 'gpus' beside 'gres', which "
            "sets it, found '8'");
  EXPECT_EQ(OnlyRow("csv", "id,submit_s,gres,resources,duration_s\na,0,gpu,cpu=1,60\n"),
            "2: invalid value: FILE:2: column 'resources': expected either 'gres' or "
            "'resources', found both");
  EXPECT_EQ(OnlyRow("csv", "id,submit_s,resources,duration_s\na,0,nvidia.com/gpu,60\n"),
            "2: invalid value: FILE:2: column 'resources': expected name=value entries "
            "separated by ',', found 'nvidia.com/gpu'");
  EXPECT_EQ(OnlyRow("csv", "id,submit_s,gres,duration_s\na,0,gpu:0,60\n"),
            "2: invalid value: FILE:2: column 'gres': expected a GPU request as "
            "gpu[:TYPE][:COUNT] (one GRES, count >= 1), found 'gpu:0'");
}

TEST(CsvWriterTest, RequestWordsReadBackUnchanged) {
  Job gres = SimpleJob("a", 0, 1, 60'000);
  gres.request.gres = "gpu:a100_3g.20gb:1";
  gres.request.gpus = 1;
  gres.request.sharing = GpuSharing::kMig;
  gres.request.gpu_memory_gb = 20;
  gres.request.gpu_models = {"A100-80GB", "A100-40GB"};  // as the catalog expands "a100"
  Job resources = SimpleJob("b", 0, 2, 60'000);
  resources.request.resources = "memory=64Gi,nvidia.com/gpu=2";
  resources.request.memory_mib = 65536;
  const std::string csv = Csv({gres, resources});
  EXPECT_EQ(Rows("csv", csv),
            (std::vector<std::string>{
                R"(2: {"id":"a","submit_s":0,"gres":"gpu:a100_3g.20gb:1","duration_s":60})",
                R"(3: {"id":"b","submit_s":0,"resources":{"memory":"64Gi","nvidia.com/gpu":2},)"
                R"("duration_s":60})"}));
  EXPECT_EQ(Rows("jsonl", Jsonl({gres, resources})),
            (std::vector<std::string>{
                R"(1: {"id":"a","submit_s":0,"gres":"gpu:a100_3g.20gb:1","duration_s":60})",
                R"(2: {"id":"b","submit_s":0,"resources":{"memory":"64Gi","nvidia.com/gpu":2},)"
                R"("duration_s":60})"}));
}

TEST(CsvWriterTest, WritesEveryColumnInDocumentedOrder) {
  const std::string header =
      "id,submit_s,tenant,priority_class,priority,kind,gres,resources,gpus,max_gpus,pow2_block,"
      "gpu_models,nvlink,sharing,gpu_milli,gpu_memory_gb,cpu_milli,memory_mib,preemptible,"
      "spot_eligible,checkpoint_interval_s,checkpoint_cost_s,checkpoint_sharded,restart_cost_s,"
      "walltime_s,deadline_s,demand_step_s,demand_gpus,demand_swap_cap,duration_s,"
      "work_gpu_hours,recorded_state\n";
  EXPECT_EQ(Csv({}), header);
  EXPECT_EQ(Csv({SimpleJob("a", 1'500, 8, 60'000), FullJob()}),
            header +
                "a,1.5,,,,,,,8,,,,,,,,,,,,,,,,,,,,,60,,\n"
                "serve-3,60.5,\"search, \"\"west\"\"\",LS,5,realtime-inference,,,1,1,true,"
                "A100-80GB|H100-SXM,required,mig,500,19.5,4000,16384,true,false,900,30.25,"
                "false,90.5,86400,90000.001,3600,0|1|1,1,,2.5,TIMEOUT\n");
}

TEST(CsvWriterTest, TheColumnsAreTheJsonKeysWithTheDemandSpreadOut) {
  std::vector<std::string> expected;
  for (const std::string& key : JobObjectKeys()) {
    if (key != "demand") {
      expected.push_back(key);
      continue;
    }
    for (const std::string& part : DemandObjectKeys()) {
      expected.push_back("demand_" + part);
    }
  }
  EXPECT_EQ(NativeCsvColumns(), expected);
}

TEST(CsvWriterTest, AFullJobReadsBackUnchanged) {
  EXPECT_EQ(Rows("csv", Csv({FullJob()})),
            (std::vector<std::string>{"2: " + JobToJson(FullJob()).dump()}));
}

TEST(MakeJobWriterTest, KnowsTheNativeFormatsOnly) {
  std::ostringstream out;
  EXPECT_NE(dynamic_cast<JsonlJobWriter*>(MakeJobWriter("jsonl", out).get()), nullptr);
  EXPECT_NE(dynamic_cast<CsvJobWriter*>(MakeJobWriter("csv", out).get()), nullptr);
  EXPECT_EQ(MakeJobWriter("philly", out), nullptr);
}

TEST(NativeFormatsTest, AreRegisteredWithoutOptions) {
  for (const char* name : {"jsonl", "csv"}) {
    const TraceFormat* format = FindTraceFormat(name);
    ASSERT_NE(format, nullptr) << name;
    EXPECT_TRUE(format->options.empty());
    TraceOptionValues resolved;
    EXPECT_EQ(ResolveTraceOptions(*format, {{"delimiter", ";"}}, resolved).message(),
              fmt::format("trace format '{}' has no option 'delimiter' (it has none)", name));
  }
}

}  // namespace
}  // namespace fleetsim
