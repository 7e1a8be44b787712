// The trace formats fleetsim reads, by name: the native JSON Lines and CSV formats and the
// importers for public traces (Alibaba openb, Philly, Microsoft ITP, SWF, Pollux). Each format
// describes itself (name, summary, options with defaults) for `fleetsim list trace-formats` and
// docs/trace-formats.md, and opens a streaming JobSource on a file. Thread-compatible.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "fleetsim/core/file_system.h"
#include "fleetsim/core/status.h"
#include "fleetsim/trace/job_source.h"

namespace fleetsim {

// A format-specific option: its name, default (as text) and what it does.
struct TraceOptionSpec {
  std::string name;
  std::string default_value;
  std::string doc;
};

// Option values by name, as text; every declared option is present (defaults filled in).
using TraceOptionValues = std::map<std::string, std::string>;

struct OpenResult {
  std::unique_ptr<JobSource> source;  // set on success
  Status status;                      // "file: message" or "file:line: message" on failure
};

struct TraceFormat {
  std::string name;     // "philly"
  std::string summary;  // one line
  std::vector<TraceOptionSpec> options;
  // Opens `path` on `files`.
  std::function<OpenResult(const FileSystem& files, const std::string& path,
                           const TraceOptionValues& options)>
      open;
};

// Every format, in a fixed order.
const std::vector<TraceFormat>& TraceFormats();
const TraceFormat* FindTraceFormat(const std::string& name);
std::vector<std::string> TraceFormatNames();

// Fills in defaults; an unknown option name is an error naming the format's options.
Status ResolveTraceOptions(const TraceFormat& format,
                           const std::map<std::string, std::string>& given,
                           TraceOptionValues& resolved);

}  // namespace fleetsim
