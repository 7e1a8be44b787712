// Fuzz target: one trace format's reader (FLEETSIM_FUZZ_TRACE_FORMAT, set per target by
// tests/fuzz/CMakeLists.txt), row by row to the end with default options, then through the
// import driver with bad rows skipped and gpu models checked against the built-in catalog.
#include "fleetsim/fleet/catalog_loader.h"
#include "fleetsim/trace/formats.h"
#include "fleetsim/trace/import.h"
#include "fuzz_input.h"

namespace fleetsim {
namespace {

const TraceFormat& Format() {
  static const TraceFormat* format = FindTraceFormat(FLEETSIM_FUZZ_TRACE_FORMAT);
  if (format == nullptr) {
    fuzz::PropertyFailed("unknown trace format " FLEETSIM_FUZZ_TRACE_FORMAT);
  }
  return *format;
}

void ReadEveryRow(const std::string& path, const TraceOptionValues& options) {
  OpenResult opened = Format().open(path, options);
  if (!opened.source) {
    return;
  }
  Job job;
  RowError error;
  while (opened.source->Next(job, error) != JobSource::Status::kEnd) {
  }
  (void)opened.source->Notes();
}

}  // namespace
}  // namespace fleetsim

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace fleetsim;
  static const Catalog catalog = BuiltinCatalog();
  TraceOptionValues options;
  if (!ResolveTraceOptions(Format(), {}, options).empty()) {
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
