// Fuzz target: one trace format's reader, row by row to the end with default options, then
// through the import driver with bad rows skipped and gpu models checked against the built-in
// catalog. One binary serves every format: the environment variable FLEETSIM_FUZZ_TRACE_FORMAT
// names the one to fuzz (tools/fuzz sets it for its targets trace_<format>).
#include <cstdio>
#include <cstdlib>

#include "fleetsim/fleet/catalog_loader.h"
#include "fleetsim/trace/formats.h"
#include "fleetsim/trace/import.h"
#include "fuzz_input.h"

namespace fleetsim {
namespace {

const TraceFormat* fuzzed_format = nullptr;  // set once, before the first input

const TraceFormat& Format() { return *fuzzed_format; }

void ReadEveryRow(const std::string& path, const TraceOptionValues& options) {
  OpenResult opened = Format().open(DiskFileSystem(), path, options);
  if (!opened.source) {
    return;
  }
  Job job;
  RowError error;
  while (opened.source->Next(job, error) != JobSource::RowStatus::kEnd) {
  }
  (void)opened.source->Notes();
}

}  // namespace
}  // namespace fleetsim

// A misconfigured run stops here with a message, before libFuzzer would record the first input
// as a finding.
extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  const char* name = std::getenv("FLEETSIM_FUZZ_TRACE_FORMAT");
  fleetsim::fuzzed_format = name == nullptr ? nullptr : fleetsim::FindTraceFormat(name);
  if (fleetsim::fuzzed_format == nullptr) {
    std::fprintf(stderr,
                 "fuzz_trace: set FLEETSIM_FUZZ_TRACE_FORMAT to a trace format name (got '%s'); "
                 "tools/fuzz does it for its targets trace_<format>\n",
                 name == nullptr ? "" : name);
    std::exit(2);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace fleetsim;
  static const Catalog catalog = BuiltinCatalog();
  TraceOptionValues options;
  if (!ResolveTraceOptions(Format(), {}, options).message().empty()) {
    fuzz::PropertyFailed("the default options do not resolve");
  }
  const std::string path = fuzz::WriteInputFile(data, size, "trace.in");
  ReadEveryRow(path, options);
  Workload workload;
  const TraceReport report = ReadTrace(
      Format(), path, options, {.on_bad_row = BadRowPolicy::kSkip, .catalog = &catalog}, workload);
  if (!report.ok() && !workload.jobs.empty()) {
    fuzz::PropertyFailed("a trace that failed to read delivered jobs");
  }
  return 0;
}
