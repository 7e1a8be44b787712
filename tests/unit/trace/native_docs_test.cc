// docs/trace-formats.md must match the native formats: the job-model table lists every native
// field in the order the writers use, the examples of the JSON Lines and CSV sections read
// without a bad row, and the CSV section shows the header the writer writes.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "fleetsim/core/file_system.h"
#include "fleetsim/trace/formats.h"
#include "fleetsim/trace/native.h"
#include "job_json/job_json.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

std::string Doc() { return testing::ReadFile(testing::SourcePath("docs/trace-formats.md")); }

// The text of the section under the "## <heading>" line, up to the next "## ".
std::string Section(const std::string& doc, const std::string& heading) {
  const std::size_t start = doc.find("\n## " + heading + "\n");
  EXPECT_NE(start, std::string::npos) << heading;
  const std::size_t body = doc.find('\n', start + 1) + 1;
  const std::size_t end = doc.find("\n## ", body);
  return doc.substr(body, end == std::string::npos ? std::string::npos : end - body);
}

// The first ``` block of `section`.
std::string FirstExample(const std::string& section) {
  const std::size_t open = section.find("```\n");
  EXPECT_NE(open, std::string::npos);
  const std::size_t close = section.find("```\n", open + 4);
  return section.substr(open + 4, close - open - 4);
}

// The number of jobs `format` reads from `text`; fails the test on any error.
std::size_t JobsRead(const std::string& format, const std::string& text) {
  const std::string path = "example." + format;
  MemoryFileSystem files;
  EXPECT_TRUE(files.WriteFile(path, text).ok());
  OpenResult opened = FindTraceFormat(format)->open(files, path, {});
  EXPECT_EQ(opened.status.message(), "");
  if (opened.source == nullptr) {
    return 0;
  }
  std::size_t jobs = 0;
  Job job;
  RowError error;
  for (JobSource::RowStatus status;
       (status = opened.source->Next(job, error)) != JobSource::RowStatus::kEnd;) {
    EXPECT_EQ(status, JobSource::RowStatus::kJob) << error.Format();
    jobs += status == JobSource::RowStatus::kJob ? 1 : 0;
  }
  return jobs;
}

TEST(NativeFormatsDocTest, TheJobModelTableListsEveryFieldInOrder) {
  static const std::regex row(R"(^\| `([a-z_0-9]+)` \|)");
  std::vector<std::string> documented;
  std::istringstream in(Section(Doc(), "The job model"));
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, row)) {
      documented.push_back(m[1].str());
    }
  }
  EXPECT_EQ(documented, JobObjectKeys());
}

TEST(NativeFormatsDocTest, TheJsonLinesExampleReads) {
  EXPECT_EQ(JobsRead("jsonl", FirstExample(Section(Doc(), "Native JSON Lines (`jsonl`)"))), 2U);
}

TEST(NativeFormatsDocTest, TheCsvExampleReadsAndTheWrittenHeaderIsShown) {
  const std::string section = Section(Doc(), "Native CSV (`csv`)");
  EXPECT_EQ(JobsRead("csv", FirstExample(section)), 2U);
  const std::string header = fmt::format("`{}`", fmt::join(NativeCsvColumns(), ","));
  EXPECT_NE(section.find(header), std::string::npos) << header;
}

}  // namespace
}  // namespace fleetsim
