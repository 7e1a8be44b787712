// Row-by-row trace reading and the importer test fixture.
#include "testutil/trace_reading.h"

#include <fstream>

#include "fleetsim/trace/formats.h"
#include "testutil/command.h"
#include "testutil/paths.h"

namespace fleetsim::testing {

TraceReadResult ReadTraceFile(const std::string& format_name, const std::string& path,
                              const std::map<std::string, std::string>& given) {
  const TraceFormat* format = FindTraceFormat(format_name);
  EXPECT_NE(format, nullptr) << format_name;
  TraceReadResult result;
  if (format == nullptr) {
    return result;
  }
  TraceOptionValues options;
  EXPECT_EQ(ResolveTraceOptions(*format, given, options).message(), "");
  OpenResult opened = format->open(DiskFileSystem(), path, options);
  result.open_error = opened.status.message();
  if (!opened.source) {
    return result;
  }
  Job job;
  RowError error;
  while (true) {
    const JobSource::RowStatus status = opened.source->Next(job, error);
    if (status == JobSource::RowStatus::kEnd) {
      break;
    }
    if (status == JobSource::RowStatus::kJob) {
      result.jobs.push_back(job);
    } else {
      result.errors.push_back(error.Format());
      result.reasons.push_back(error.reason);
    }
  }
  result.notes = opened.source->Notes();
  return result;
}

void TraceFileTest::SetUp() { dir_ = FreshTempDir(); }

std::string TraceFileTest::WriteTrace(const std::string& text, const std::string& name) const {
  std::string path = dir_ + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::string TraceFileTest::FirstError(const std::string& text,
                                      const std::map<std::string, std::string>& given) const {
  const std::string path = WriteTrace(text);
  const TraceReadResult result = ReadTraceFile(format_, path, given);
  std::string message = result.errors.empty() ? result.open_error : result.errors.front();
  if (const std::size_t at = message.find(path); at != std::string::npos) {
    message.replace(at, path.size(), "FILE");
  }
  return message;
}

}  // namespace fleetsim::testing
