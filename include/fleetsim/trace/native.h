// Writers of the native trace formats, JSON Lines ("jsonl") and CSV ("csv"), for `fleetsim
// import` and for tests that round-trip a trace (docs/trace-formats.md describes both formats
// field by field; their readers are in the format registry, formats.h). A writer streams: each
// Write puts one job on its stream at once, so a converter holds one job at a time. Writers do
// not check jobs (read them through a format, or check them with ProblemsWith, first) and do not
// report stream failures: the caller checks its stream. Not thread-safe.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "fleetsim/workload/job.h"

namespace fleetsim {

class JobWriter {
 public:
  virtual ~JobWriter() = default;
  virtual void Write(const Job& job) = 0;
};

// One compact JSON object per line, ended by "\n"; keys in documented order, fields at their
// default left out. Text that is not valid UTF-8 is written with U+FFFD in place of bad bytes.
class JsonlJobWriter final : public JobWriter {
 public:
  explicit JsonlJobWriter(std::ostream& out) : out_(out) {}
  void Write(const Job& job) override;

 private:
  std::ostream& out_;
};

// A header naming every native column (NativeCsvColumns(), written by the constructor, so that
// no jobs still make a valid file), then one row per job with a cell for every column; a cell is
// empty when its field is at the default (or absent). Lines end with "\n". GPU model names must
// not contain '|', the list separator.
class CsvJobWriter final : public JobWriter {
 public:
  explicit CsvJobWriter(std::ostream& out);
  void Write(const Job& job) override;

 private:
  std::ostream& out_;
};

// The native CSV columns in documented order (the JSON keys, with "demand" spread over
// demand_step_s, demand_gpus and demand_swap_cap).
const std::vector<std::string>& NativeCsvColumns();

// The writer for "jsonl" or "csv" on `out`; nullptr for any other name.
std::unique_ptr<JobWriter> MakeJobWriter(const std::string& format, std::ostream& out);

}  // namespace fleetsim
