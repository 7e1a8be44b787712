// Reading a trace through its registered format, row by row, as importer tests need: every job,
// every bad row's message and reason, the open error and the source's notes. TraceFileTest is the
// fixture the importer tests share: it writes trace text into a fresh directory and reports the
// first error with the file's path written as FILE.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "fleetsim/workload/job.h"

namespace fleetsim::testing {

struct TraceReadResult {
  std::string open_error;
  std::vector<Job> jobs;
  std::vector<std::string> errors;  // RowError::Format() of each bad row
  std::vector<std::string> reasons;
  std::vector<std::string> notes;
};

// Opens `path` with the named format and options (checked) and reads it to the end.
TraceReadResult ReadTraceFile(const std::string& format, const std::string& path,
                              const std::map<std::string, std::string>& given = {});

class TraceFileTest : public ::testing::Test {
 protected:
  // `file_name`: what WriteTrace calls the file unless told otherwise.
  TraceFileTest(std::string format, std::string file_name)
      : format_(std::move(format)), file_name_(std::move(file_name)) {}

  void SetUp() override;

  std::string WriteTrace(const std::string& text) const { return WriteTrace(text, file_name_); }
  std::string WriteTrace(const std::string& text, const std::string& name) const;

  // The first bad row's message (or the open error), with the file's path written as FILE.
  std::string FirstError(const std::string& text,
                         const std::map<std::string, std::string>& given = {}) const;

 private:
  std::string format_;
  std::string file_name_;
  std::string dir_;
};

}  // namespace fleetsim::testing
