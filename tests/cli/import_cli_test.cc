// End-to-end tests of `fleetsim import` and of scenarios that replay a trace: output formats,
// the bad-row policies, exit statuses, that a failed import writes nothing, and the published
// record counts of the real traces (failing when ../shared/traces is absent).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "testutil/command.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;
using testing::DataPath;
using testing::ReadFile;
using testing::SourcePath;

class ImportCliTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = testing::FreshTempDir(); }
  void TearDown() override { fs::remove_all(dir_); }

  CommandResult Fleetsim(const std::string& args) {
    return testing::RunCommand(fmt::format("'{}' {}", FLEETSIM_CLI_PATH, args), dir_);
  }
  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  std::string Out(const std::string& name) const { return dir_ + "/" + name; }

  std::string dir_;
};

std::size_t CountLines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

constexpr char kPhillyHeader[] = "timestamp,duration,num_gpus,gpu_time,cluster\n";

TEST_F(ImportCliTest, ConvertsPhillyToJsonLinesSortedBySubmitTime) {
  const CommandResult r = Fleetsim(fmt::format(
      "import --from philly '{}' -o '{}'", DataPath("traces/philly/good.csv"), Out("jobs.jsonl")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("good.csv: read 5 jobs (philly)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("not sorted by submit time"), std::string::npos) << r.out;
  const std::string jsonl = ReadFile(Out("jobs.jsonl"));
  EXPECT_EQ(jsonl.substr(0, jsonl.find('\n')),
            R"({"id":"philly-3","submit_s":0,"tenant":"6214e9","gpus":2,"duration_s":2951.5})");
  EXPECT_EQ(CountLines(jsonl), 5u);
}

TEST_F(ImportCliTest, CsvOutputIsChosenByExtensionOrByTo) {
  const std::string in = DataPath("traces/ms-itp/good.csv");
  ASSERT_EQ(Fleetsim(fmt::format("import --from ms-itp '{}' -o '{}'", in, Out("a.csv"))).exit_code,
            0);
  ASSERT_EQ(Fleetsim(fmt::format("import --from ms-itp '{}' -o '{}' --to csv", in, Out("b.txt")))
                .exit_code,
            0);
  const std::string csv = ReadFile(Out("a.csv"));
  EXPECT_EQ(csv.rfind("id,submit_s,", 0), 0u) << csv;
  EXPECT_EQ(csv, ReadFile(Out("b.txt")));
}

TEST_F(ImportCliTest, NativeRoundTripIsByteIdentical) {
  const std::string in = DataPath("traces/jsonl/good.jsonl");
  ASSERT_EQ(Fleetsim(fmt::format("import --from jsonl '{}' -o '{}'", in, Out("1.csv"))).exit_code,
            0);
  ASSERT_EQ(Fleetsim(fmt::format("import --from csv '{}' -o '{}'", Out("1.csv"), Out("2.jsonl")))
                .exit_code,
            0);
  ASSERT_EQ(
      Fleetsim(fmt::format("import --from jsonl '{}' -o '{}'", Out("2.jsonl"), Out("3.jsonl")))
          .exit_code,
      0);
  EXPECT_EQ(ReadFile(Out("2.jsonl")), ReadFile(Out("3.jsonl")));
}

// A trace given as a pipe or a FIFO (read twice by the conversion: checks, then delivery) is
// read once into memory: it converts as the file does. Once, "read 0 jobs", exit 0, an empty file.
TEST_F(ImportCliTest, APipeOrAFifoConvertsAsTheFileDoes) {
  const std::string in = DataPath("traces/jsonl/good.jsonl");
  ASSERT_EQ(
      Fleetsim(fmt::format("import --from jsonl '{}' -o '{}'", in, Out("file.csv"))).exit_code, 0);
  const CommandResult piped =
      testing::RunCommand(fmt::format("cat '{}' | '{}' import --from jsonl /dev/stdin -o '{}'", in,
                                      FLEETSIM_CLI_PATH, Out("pipe.csv")),
                          dir_);
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(ReadFile(Out("pipe.csv")), ReadFile(Out("file.csv")));
  const CommandResult fifo = testing::RunCommand(
      fmt::format(
          "mkfifo '{0}' && (cat '{1}' > '{0}' &) && '{2}' import --from jsonl '{0}' -o '{3}'",
          Out("fifo"), in, FLEETSIM_CLI_PATH, Out("fifo.csv")),
      dir_);
  ASSERT_EQ(fifo.exit_code, 0) << fifo.err;
  EXPECT_EQ(ReadFile(Out("fifo.csv")), ReadFile(Out("file.csv")));
}

// By any name of standard output: "-", /dev/stdout, /proc/self/fd/1 (the summary once followed
// the trace into the file given as /dev/stdout).
TEST_F(ImportCliTest, StdoutOutputPutsTheSummaryOnStderr) {
  for (const char* name : {"-", "/dev/stdout", "/proc/self/fd/1"}) {
    const CommandResult r = Fleetsim(
        fmt::format("import --from ms-itp '{}' -o {}", DataPath("traces/ms-itp/good.csv"), name));
    ASSERT_EQ(r.exit_code, 0) << name << ": " << r.err;
    EXPECT_EQ(r.out.rfind("{\"id\":", 0), 0u) << name << ": " << r.out;
    EXPECT_EQ(r.out.find("read "), std::string::npos) << name << ": " << r.out;
    EXPECT_NE(r.err.find("read "), std::string::npos) << name << ": " << r.err;
  }
  // Standard output a pipe (std::filesystem::equivalent cannot compare those).
  const CommandResult piped =
      testing::RunCommand(fmt::format("'{}' import --from ms-itp '{}' -o /dev/stdout | cat",
                                      FLEETSIM_CLI_PATH, DataPath("traces/ms-itp/good.csv")),
                          dir_);
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(piped.out.find("read "), std::string::npos) << piped.out;
  EXPECT_NE(piped.err.find("read "), std::string::npos) << piped.err;
}

TEST_F(ImportCliTest, BadRowFailsWithFileLineAndColumnAndWritesNothing) {
  const std::string in = Write("p.csv", std::string(kPhillyHeader) +
                                            "2017-10-09 07:01:55,66.0,1,66.0,11cb48\n"
                                            "2017-10-09 07:01:56,66.0,four,66.0,11cb48\n");
  std::ofstream(Out("old.jsonl")) << "previous contents\n";
  const CommandResult r =
      Fleetsim(fmt::format("import --from philly '{}' -o '{}'", in, Out("old.jsonl")));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, in + ":3: column 'num_gpus': expected an integer, found 'four'\n");
  EXPECT_EQ(ReadFile(Out("old.jsonl")), "previous contents\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 2)
      << "no temporary file may be left behind";  // p.csv and old.jsonl
}

TEST_F(ImportCliTest, SkipReportsHowManyRowsWereSkippedAndWhy) {
  const std::string in = Write("p.csv", std::string(kPhillyHeader) +
                                            "2017-10-09 07:01:55,66.0,1,66.0,11cb48\n"
                                            "2017-10-09 07:01:56,66.0,four,66.0,11cb48\n"
                                            "2017-10-09 07:01:57,-5,1,66.0,11cb48\n"
                                            "2017-10-09 07:01:58,10,1,10,11cb48\n");
  const CommandResult r = Fleetsim(
      fmt::format("import --from philly '{}' -o '{}' --on-bad-row skip", in, Out("j.jsonl")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("read 2 jobs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("skipped 2 bad rows:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 rows: non-numeric field"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 rows: negative time or duration"), std::string::npos) << r.out;
  EXPECT_EQ(CountLines(ReadFile(Out("j.jsonl"))), 2u);
}

// An import stopped by a signal (here SIGTERM, while it waits for more input from a pipe) leaves
// neither the output nor its staging file (issue 19: it once left a 0-byte ".NAME.tmp"). The
// staging file is ".out.jsonl.PID-N.tmp", PID the import's.
TEST_F(ImportCliTest, ASignalMidImportLeavesNoStagingFile) {
  const std::string script = fmt::format(
      "mkfifo in.jsonl && exec 3<>in.jsonl && "
      "{{ '{}' import --from jsonl in.jsonl -o out.jsonl & }} && pid=$! && "
      "echo '{{\"id\": \"a\", \"submit_s\": 0, \"gpus\": 1, \"duration_s\": 5}}' >&3 && "
      "for i in $(seq 100); do [ -e .out.jsonl.$pid-0.tmp ] && break; sleep 0.05; done && "
      "ls -a | sed \"s/$pid/PID/\" && kill -TERM $pid; wait $pid; echo \"status $?\"; ls -a",
      FLEETSIM_CLI_PATH);
  const CommandResult r = testing::RunCommand("(cd '" + dir_ + "' && " + script + ")", dir_);
  const std::size_t status = r.out.find("status 143\n");
  ASSERT_NE(status, std::string::npos) << r.out << r.err;
  EXPECT_NE(r.out.substr(0, status).find("\n.out.jsonl.PID-0.tmp\n"), std::string::npos)
      << "the staging file should exist while the import runs: " << r.out;
  EXPECT_EQ(r.out.substr(status).find(".tmp"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.substr(status).find("out.jsonl"), std::string::npos) << r.out;
}

TEST_F(ImportCliTest, EmptyTraceIsAnError) {
  const std::string in = Write("p.csv", kPhillyHeader);
  const CommandResult r =
      Fleetsim(fmt::format("import --from philly '{}' -o '{}'", in, Out("j.jsonl")));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, in + ": empty trace: no jobs found\n");
  EXPECT_FALSE(fs::exists(Out("j.jsonl")));
}

TEST_F(ImportCliTest, DuplicateIdsAreBadRows) {
  const std::string in = Write("d.jsonl", R"({"id":"a","submit_s":0,"gpus":1,"duration_s":5}
{"id":"b","submit_s":1,"gpus":1,"duration_s":5}
{"id":"a","submit_s":2,"gpus":1,"duration_s":5}
)");
  const CommandResult r =
      Fleetsim(fmt::format("import --from jsonl '{}' -o '{}'", in, Out("j.jsonl")));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, in + ":3: field 'id': duplicate id 'a' (first at line 1)\n");
}

TEST_F(ImportCliTest, UnknownGpuModelIsCheckedAgainstTheCatalog) {
  const std::string in = Write(
      "m.jsonl", R"({"id":"a","submit_s":0,"gpus":1,"gpu_models":["H100","B20"],"duration_s":5}
)");
  const CommandResult r =
      Fleetsim(fmt::format("import --from jsonl '{}' -o '{}'", in, Out("j.jsonl")));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, in + ":1: field 'gpu_models': unknown GPU model 'B20', did you mean 'B200'?\n");
}

// A sacct dump's GPU types become catalog names on import: "a100" is both A100 models.
TEST_F(ImportCliTest, SacctGpuTypesBecomeCatalogNames) {
  const std::string in = Write("s.txt",
                               "JobID|Submit|Start|End|AllocTRES\n"
                               "1|2024-03-01T08:00:00|2024-03-01T08:00:00|2024-03-01T09:00:00|"
                               "cpu=1,gres/gpu:a100=2\n"
                               "2|2024-03-01T08:00:00|2024-03-01T08:00:00|2024-03-01T09:00:00|"
                               "cpu=1,gres/gpu:m60=2\n");
  const CommandResult bad =
      Fleetsim(fmt::format("import --from sacct '{}' -o '{}'", in, Out("s.jsonl")));
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(bad.err, in + ":3: field 'gpu_models': unknown GPU model 'm60'\n");
  const CommandResult good =
      Fleetsim(fmt::format("import --from sacct '{}' -o - --on-bad-row skip", in));
  EXPECT_EQ(good.exit_code, 0) << good.err;
  EXPECT_EQ(good.out,
            "{\"id\":\"1\",\"submit_s\":28800,\"gpus\":2,\"gpu_models\":[\"A100-80GB\","
            "\"A100-40GB\"],\"cpu_milli\":1000,\"duration_s\":3600}\n");
}

TEST_F(ImportCliTest, UsageErrors) {
  const std::string in = DataPath("traces/philly/good.csv");
  CommandResult r = Fleetsim(fmt::format("import --from phily '{}' -o -", in));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown trace format 'phily', did you mean 'philly'?"), std::string::npos)
      << r.err;
  r = Fleetsim(fmt::format("import --from philly '{}' -o - --option epok=x", in));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("trace format 'philly' has no option 'epok', did you mean 'epoch'?"),
            std::string::npos)
      << r.err;
  r = Fleetsim(fmt::format("import --from philly '{}' -o - --option epoch", in));
  EXPECT_EQ(r.exit_code, 2);
  r = Fleetsim(fmt::format("import --from philly '{}' -o - --on-bad-row ignore", in));
  EXPECT_EQ(r.exit_code, 2);
}

TEST_F(ImportCliTest, MissingInputFileIsInvalidInput) {
  const CommandResult r =
      Fleetsim(fmt::format("import --from philly '{}' -o '{}'", Out("none.csv"), Out("j.jsonl")));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("none.csv: cannot read"), std::string::npos) << r.err;
}

TEST_F(ImportCliTest, ListTraceFormatsNamesEveryFormat) {
  const CommandResult r = Fleetsim("list trace-formats");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* name : {"jsonl", "csv", "alibaba-openb", "philly", "ms-itp", "swf", "pollux"}) {
    EXPECT_NE(r.out.find(fmt::format("{}\n    ", name)), std::string::npos) << name;
  }
}

TEST_F(ImportCliTest, ScenarioReplayingATraceRecordsItAndTheRealtimeDemand) {
  const CommandResult r = Fleetsim(fmt::format(
      "run '{}' -o '{}'", SourcePath("scenarios/examples/team-trace.json"), Out("results")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("team-week.jsonl: read 54 jobs (jsonl)"), std::string::npos) << r.err;
  const std::string summary = ReadFile(Out("results/summary.json"));
  for (const char* key : {"\"jobs_traced\": 54", "\"format\": \"jsonl\"", "\"realtime\": {",
                          "\"served_fraction\":", "\"transform_notes\": ["}) {
    EXPECT_NE(summary.find(key), std::string::npos) << key;
  }
  const std::string realtime = ReadFile(Out("results/realtime.csv"));
  EXPECT_EQ(realtime.substr(0, realtime.find('\n')),
            "job,start_s,end_s,demand_gpus,demand_gpu_hours,served_gpu_hours,unmet_gpu_hours");
  EXPECT_EQ(CountLines(realtime), 1u + 7 * 24)
      << "a header, then one row per hour of the week-long service, submitted at 0";
}

// The published counts of the real traces (issue 4's acceptance).
class RealTraceImportTest : public ImportCliTest {
 protected:
  void SetUp() override {
    ImportCliTest::SetUp();
    traces_ = SourcePath("../shared/traces");
    if (!fs::exists(traces_)) {
      GTEST_FAIL() << "real traces not found at " << traces_ << ": these tests need them";
    }
  }
  // Imports and returns the number of jobs written.
  std::size_t Import(const std::string& format, const std::string& relative,
                     const std::string& extra = "") {
    const CommandResult r = Fleetsim(fmt::format("import --from {} '{}/{}' -o '{}' {}", format,
                                                 traces_, relative, Out("out.jsonl"), extra));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.find("skipped"), std::string::npos) << r.out;
    last_summary_ = r.out;
    return CountLines(ReadFile(Out("out.jsonl")));
  }
  std::string traces_;
  std::string last_summary_;
};

TEST_F(RealTraceImportTest, PhillyYields82247Jobs) {
  EXPECT_EQ(Import("philly", "philly/philly.csv"), 82'247u);
}

TEST_F(RealTraceImportTest, OpenbDefaultYields8152PodsOn1213GpuNodes) {
  const std::string nodes = traces_ + "/alibaba-openb/openb_node_list_gpu_node.csv";
  EXPECT_EQ(Import("alibaba-openb", "alibaba-openb/openb_pod_list_default.csv",
                   fmt::format("--option nodes='{}'", nodes)),
            8'152u);
  EXPECT_NE(last_summary_.find("1213 GPU nodes, 6212 GPUs"), std::string::npos) << last_summary_;
}

TEST_F(RealTraceImportTest, ItpCluster10Yields260Jobs) {
  EXPECT_EQ(Import("ms-itp", "ms-itp/cluster10.csv"), 260u);
}

TEST_F(RealTraceImportTest, PolluxWorkloadYields160Jobs) {
  EXPECT_EQ(Import("pollux", "pollux/workload-1.csv", "--option duration_s=3600"), 160u);
}

}  // namespace
}  // namespace fleetsim
