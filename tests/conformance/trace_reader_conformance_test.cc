// The conformance kit every registered trace format must pass, run on the fixtures it ships in
// tests/data/traces/<format>/ (a format without that folder fails the kit):
//  - good.<ext> yields exactly the jobs of good.expected.jsonl (read by the native JSON Lines
//    reader), field by field, and no bad row;
//  - the same folder rewritten with CRLF line endings, or with a UTF-8 byte-order mark before
//    every file, gives the same jobs and the same errors;
//  - the jobs written by the native JSON Lines and CSV writers read back identical, and writing
//    them again gives the same bytes;
//  - each bad-<what>.<ext> gives, as its open error or first bad row, exactly the text of
//    bad-<what>.expected.txt, with the fixture's path written as FILE;
//  - reading twice gives the same jobs, errors and notes;
//  - every source reports rows in file order, at the line of the row it returned.
// An optional options.json ({"option": "value"}) sets the format's options for the folder.
// A new format is covered by registering it and adding its fixtures; nothing here names one.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "fleetsim/trace/formats.h"
#include "fleetsim/trace/native.h"
#include "testutil/command.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

namespace fs = std::filesystem;
using testing::DataPath;
using testing::FreshTempDir;
using testing::ReadFile;

// A reader that has not ended after this many rows of a small fixture is looping.
constexpr int kMaxRows = 100'000;
constexpr char kExpectedJobsName[] = "good.expected.jsonl";
constexpr char kOptionsName[] = "options.json";

// The names of the fields of `a` and `b` that differ; empty when the jobs are equal.
std::vector<std::string> DifferingFields(const Job& a, const Job& b) {
  std::vector<std::string> differ;
  const auto check = [&differ](const char* field, const auto& x, const auto& y) {
    if (!(x == y)) {
      differ.emplace_back(field);
    }
  };
  const JobRequest& r = a.request;
  const JobRequest& s = b.request;
  check("id", r.id, s.id);
  check("submit_s", r.submit, s.submit);
  check("tenant", r.tenant, s.tenant);
  check("priority_class", r.priority_class, s.priority_class);
  check("priority", r.priority, s.priority);
  check("kind", r.kind, s.kind);
  check("gpus", r.gpus, s.gpus);
  check("max_gpus", r.max_gpus, s.max_gpus);
  check("pow2_block", r.pow2_block, s.pow2_block);
  check("gpu_models", r.gpu_models, s.gpu_models);
  check("nvlink", r.nvlink, s.nvlink);
  check("sharing", r.sharing, s.sharing);
  check("gpu_milli", r.gpu_milli, s.gpu_milli);
  check("gpu_memory_gb", r.gpu_memory_gb, s.gpu_memory_gb);
  check("cpu_milli", r.cpu_milli, s.cpu_milli);
  check("memory_mib", r.memory_mib, s.memory_mib);
  check("preemptible", r.preemptible, s.preemptible);
  check("spot_eligible", r.spot_eligible, s.spot_eligible);
  check("checkpoint_interval_s", r.checkpoint_interval, s.checkpoint_interval);
  check("checkpoint_cost_s", r.checkpoint_cost, s.checkpoint_cost);
  check("checkpoint_sharded", r.checkpoint_sharded, s.checkpoint_sharded);
  check("restart_cost_s", r.restart_cost, s.restart_cost);
  check("walltime_s", r.walltime_estimate, s.walltime_estimate);
  check("deadline_s", r.deadline, s.deadline);
  check("demand", r.demand.has_value(), s.demand.has_value());
  if (r.demand && s.demand) {
    check("demand.step_s", r.demand->step, s.demand->step);
    check("demand.gpus", r.demand->gpus, s.demand->gpus);
    check("demand.swap_cap", r.demand->swap_cap, s.demand->swap_cap);
  }
  check("duration_s", a.truth.duration, b.truth.duration);
  check("work_gpu_hours", a.truth.work_gpu_hours, b.truth.work_gpu_hours);
  return differ;
}

std::string JsonlText(const std::vector<Job>& jobs) {
  std::ostringstream out;
  JsonlJobWriter writer(out);
  for (const Job& job : jobs) {
    writer.Write(job);
  }
  return out.str();
}

std::string CsvText(const std::vector<Job>& jobs) {
  std::ostringstream out;
  CsvJobWriter writer(out);
  for (const Job& job : jobs) {
    writer.Write(job);
  }
  return out.str();
}

void ExpectSameJobs(const std::vector<Job>& actual, const std::vector<Job>& expected,
                    const std::string& context) {
  ASSERT_EQ(actual.size(), expected.size()) << context << ": job count";
  for (std::size_t i = 0; i < actual.size(); ++i) {
    const std::vector<std::string> differ = DifferingFields(actual[i], expected[i]);
    EXPECT_TRUE(differ.empty()) << context << ": job " << i + 1 << " differs in "
                                << fmt::format("{}", fmt::join(differ, ", "))
                                << "\n  read:     " << JsonlText({actual[i]})
                                << "  expected: " << JsonlText({expected[i]});
  }
}

// Everything one read of a file gave.
struct ReadResult {
  std::string open_error;
  std::vector<Job> jobs;
  std::vector<std::string> errors;  // RowError::Format() of each bad row
  std::vector<std::string> notes;

  // The open error or, failing that, the first bad row; "" when there was neither.
  std::string FirstError() const {
    return !open_error.empty() ? open_error : errors.empty() ? "" : errors.front();
  }
};

// Reads `path` to the end, checking what every source promises about lines and errors.
ReadResult ReadTrace(const TraceFormat& format, const std::string& path,
                     const TraceOptionValues& options) {
  ReadResult result;
  OpenResult opened = format.open(DiskFileSystem(), path, options);
  if (opened.source == nullptr) {
    EXPECT_FALSE(opened.status.message().empty()) << path << ": open failed without a message";
    result.open_error = opened.status.message();
    return result;
  }
  JobSource& source = *opened.source;
  std::int64_t last_line = 1;
  for (int row = 0; row < kMaxRows; ++row) {
    Job job;
    RowError error;
    const JobSource::RowStatus status = source.Next(job, error);
    if (status == JobSource::RowStatus::kEnd) {
      result.notes = source.Notes();
      return result;
    }
    EXPECT_GE(source.line(), last_line) << path << ": rows must come in file order";
    last_line = source.line();
    if (status == JobSource::RowStatus::kJob) {
      EXPECT_TRUE(ProblemsWith(job).empty())
          << path << ":" << source.line() << ": a job that breaks the job rules";
      result.jobs.push_back(std::move(job));
      continue;
    }
    EXPECT_EQ(error.file, path);
    EXPECT_EQ(error.line, source.line()) << error.Format();
    EXPECT_FALSE(error.reason.empty()) << error.Format();
    EXPECT_FALSE(error.message.empty()) << path << ":" << error.line;
    result.errors.push_back(error.Format());
  }
  ADD_FAILURE() << path << ": the reader did not end after " << kMaxRows << " rows";
  return result;
}

std::string WithFileWord(std::string text, const std::string& path) {
  for (std::size_t at = text.find(path); at != std::string::npos; at = text.find(path, at)) {
    text.replace(at, path.size(), "FILE");
    at += 4;
  }
  return text;
}

std::string TrimEnd(std::string text) {
  text.erase(text.find_last_not_of("\r\n") + 1);
  return text;
}

void WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  ASSERT_TRUE(out.good()) << "cannot write " << path;
}

// A format's fixture folder, found and checked.
struct Fixtures {
  std::string dir;
  std::string good;              // the good input file
  std::vector<std::string> bad;  // bad-*.<ext> inputs, sorted
  std::map<std::string, std::string> options;
};

bool IsExpectation(const std::string& name) {
  return name == kExpectedJobsName || name == kOptionsName || name.ends_with(".expected.txt");
}

std::string ExpectedErrorPath(const std::string& bad_path) {
  const fs::path path(bad_path);
  const std::string name = path.filename().string();
  return (path.parent_path() / (name.substr(0, name.find('.')) + ".expected.txt")).string();
}

class TraceReaderConformanceTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    format_ = FindTraceFormat(GetParam());
    ASSERT_NE(format_, nullptr);
    jsonl_ = FindTraceFormat("jsonl");
    csv_ = FindTraceFormat("csv");
    ASSERT_NE(jsonl_, nullptr) << "the native JSON Lines format is not registered";
    ASSERT_NE(csv_, nullptr) << "the native CSV format is not registered";
    ASSERT_NO_FATAL_FAILURE(FindFixtures());
    ASSERT_NO_FATAL_FAILURE(LoadOptions());
  }

  void FindFixtures() {
    fixtures_.dir = DataPath("traces/" + GetParam());
    ASSERT_TRUE(fs::is_directory(fixtures_.dir))
        << "trace format '" << GetParam() << "' ships no fixtures: create " << fixtures_.dir
        << " with good.<ext>, " << kExpectedJobsName << " and bad-<what>.<ext> files";
    std::vector<std::string> good;
    for (const auto& entry : fs::directory_iterator(fixtures_.dir)) {
      const std::string name = entry.path().filename().string();
      if (IsExpectation(name) || entry.is_directory()) {
        continue;  // folders hold companion data a format may need (a node list, say)
      }
      if (name.starts_with("good.")) {
        good.push_back(entry.path().string());
      } else if (name.starts_with("bad-")) {
        fixtures_.bad.push_back(entry.path().string());
      } else {
        ADD_FAILURE() << entry.path() << ": a fixture must be named good.<ext> or bad-<what>.<ext>";
      }
    }
    std::sort(fixtures_.bad.begin(), fixtures_.bad.end());
    ASSERT_EQ(good.size(), 1U) << fixtures_.dir << ": expected exactly one good.<ext> input";
    fixtures_.good = good.front();
    ASSERT_TRUE(fs::exists(fixtures_.dir + "/" + kExpectedJobsName))
        << fixtures_.dir << ": missing " << kExpectedJobsName;
    for (const std::string& bad : fixtures_.bad) {
      ASSERT_TRUE(fs::exists(ExpectedErrorPath(bad)))
          << bad << ": missing " << ExpectedErrorPath(bad);
    }
  }

  void LoadOptions() {
    std::map<std::string, std::string> given;
    const std::string path = fixtures_.dir + "/" + kOptionsName;
    if (fs::exists(path)) {
      const nlohmann::json options = nlohmann::json::parse(ReadFile(path), nullptr, false);
      ASSERT_TRUE(options.is_object()) << path << ": expected a JSON object";
      for (const auto& [name, value] : options.items()) {
        ASSERT_TRUE(value.is_string()) << path << ": option '" << name << "' must be a string";
        given[name] = value.get<std::string>();
      }
    }
    const std::string error = ResolveTraceOptions(*format_, given, options_).message();
    ASSERT_EQ(error, "") << path;
  }

  ReadResult Read(const std::string& path) const { return ReadTrace(*format_, path, options_); }

  std::vector<Job> ExpectedJobs() const {
    const std::string path = fixtures_.dir + "/" + kExpectedJobsName;
    const ReadResult expected = ReadTrace(*jsonl_, path, {});
    EXPECT_EQ(expected.FirstError(), "") << "the expectation itself does not read";
    return expected.jobs;
  }

  // Copies the fixture folder into a fresh directory, each input file passed through `rewrite`
  // (companion folders are copied as they are).
  std::string RewrittenCopy(const std::string& variant,
                            std::string (*rewrite)(const std::string&)) const {
    const std::string dir = FreshTempDir() + "/" + variant;
    fs::create_directories(dir);
    for (const auto& entry : fs::directory_iterator(fixtures_.dir)) {
      const std::string name = entry.path().filename().string();
      if (entry.is_directory()) {
        fs::copy(entry.path(), dir + "/" + name, fs::copy_options::recursive);
        continue;
      }
      const std::string bytes = ReadFile(entry.path().string());
      WriteBytes(dir + "/" + name, IsExpectation(name) ? bytes : rewrite(bytes));
    }
    return dir;
  }

  const TraceFormat* format_ = nullptr;
  const TraceFormat* jsonl_ = nullptr;
  const TraceFormat* csv_ = nullptr;
  Fixtures fixtures_;
  TraceOptionValues options_;
};

std::string WithCrlf(const std::string& bytes) {
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i] == '\n' && (i == 0 || bytes[i - 1] != '\r')) {
      out += '\r';
    }
    out += bytes[i];
  }
  return out;
}

std::string WithBom(const std::string& bytes) { return "\xEF\xBB\xBF" + bytes; }

TEST_P(TraceReaderConformanceTest, ReadsTheGoodFixtureAsExpected) {
  const ReadResult read = Read(fixtures_.good);
  EXPECT_EQ(read.FirstError(), "");
  const std::vector<Job> expected = ExpectedJobs();
  EXPECT_FALSE(expected.empty()) << kExpectedJobsName << " holds no job";
  ExpectSameJobs(read.jobs, expected, fixtures_.good);
}

TEST_P(TraceReaderConformanceTest, BadFixturesGiveTheirExactFirstError) {
  for (const std::string& bad : fixtures_.bad) {
    const std::string expected = TrimEnd(ReadFile(ExpectedErrorPath(bad)));
    EXPECT_EQ(WithFileWord(Read(bad).FirstError(), bad), expected) << bad;
  }
}

TEST_P(TraceReaderConformanceTest, LineEndingsAndByteOrderMarkChangeNothing) {
  const std::vector<std::pair<std::string, std::string (*)(const std::string&)>> variants = {
      {"crlf", &WithCrlf}, {"bom", &WithBom}};
  for (const auto& [variant, rewrite] : variants) {
    const std::string dir = RewrittenCopy(variant, rewrite);
    const std::string good = dir + "/" + fs::path(fixtures_.good).filename().string();
    const ReadResult read = Read(good);
    EXPECT_EQ(read.FirstError(), "") << variant;
    ExpectSameJobs(read.jobs, Read(fixtures_.good).jobs, variant + " " + good);
    for (const std::string& bad : fixtures_.bad) {
      const std::string copy = dir + "/" + fs::path(bad).filename().string();
      EXPECT_EQ(WithFileWord(Read(copy).FirstError(), copy),
                WithFileWord(Read(bad).FirstError(), bad))
          << variant << " " << copy;
    }
  }
}

TEST_P(TraceReaderConformanceTest, JobsRoundTripThroughTheNativeFormats) {
  const std::vector<Job> jobs = Read(fixtures_.good).jobs;
  const std::string dir = FreshTempDir();
  const std::vector<std::pair<const TraceFormat*, std::string (*)(const std::vector<Job>&)>>
      natives = {{jsonl_, &JsonlText}, {csv_, &CsvText}};
  for (const auto& [native, write] : natives) {
    const std::string path = dir + "/round-trip." + native->name;
    const std::string text = write(jobs);
    WriteBytes(path, text);
    const ReadResult back = ReadTrace(*native, path, {});
    EXPECT_EQ(back.FirstError(), "") << path;
    ExpectSameJobs(back.jobs, jobs, "written as " + native->name + " and read back");
    EXPECT_EQ(write(back.jobs), text) << native->name << ": writing again changed the bytes";
  }
}

TEST_P(TraceReaderConformanceTest, ReadingTwiceGivesTheSameResult) {
  std::vector<std::string> inputs = fixtures_.bad;
  inputs.push_back(fixtures_.good);
  for (const std::string& input : inputs) {
    const ReadResult first = Read(input);
    const ReadResult second = Read(input);
    EXPECT_EQ(first.open_error, second.open_error) << input;
    EXPECT_EQ(first.errors, second.errors) << input;
    EXPECT_EQ(first.notes, second.notes) << input;
    ExpectSameJobs(second.jobs, first.jobs, input + " read twice");
  }
}

std::string FormatTestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(EveryFormat, TraceReaderConformanceTest,
                         ::testing::ValuesIn(TraceFormatNames()), FormatTestName);

}  // namespace
}  // namespace fleetsim
