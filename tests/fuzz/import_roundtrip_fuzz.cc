// Fuzz target: the import round trip. A JSON Lines trace that imports (no bad row) and its
// native CSV export read back must write the same JSON Lines bytes: JSONL → CSV → JSONL loses
// nothing.
#include <sstream>

#include "fleetsim/trace/formats.h"
#include "fleetsim/trace/import.h"
#include "fleetsim/trace/native.h"
#include "fuzz_input.h"

namespace fleetsim {
namespace {

// Converts the file at `path` from `from` to `to`; false when the import fails.
bool Convert(const std::string& from, const std::string& path, const std::string& to,
             std::string& out) {
  const TraceFormat* format = FindTraceFormat(from);
  TraceOptionValues options;
  if (format == nullptr || !ResolveTraceOptions(*format, {}, options).message().empty()) {
    fuzz::PropertyFailed("the native formats resolve their default options");
  }
  std::ostringstream text;
  const std::unique_ptr<JobWriter> writer = MakeJobWriter(to, text);
  const TraceReport report = ConvertTrace(*format, path, options, {}, *writer);
  out = text.str();
  return report.ok();
}

}  // namespace
}  // namespace fleetsim

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace fleetsim;
  std::string jsonl;
  if (!Convert("jsonl", fuzz::WriteInputFile(data, size, "in.jsonl"), "jsonl", jsonl)) {
    return 0;
  }
  std::string csv;
  if (!Convert("jsonl", fuzz::WriteInputFile(data, size, "in.jsonl"), "csv", csv)) {
    fuzz::PropertyFailed("a trace that imports to JSON Lines does not import to CSV");
  }
  const auto* csv_bytes = reinterpret_cast<const std::uint8_t*>(csv.data());
  std::string back;
  if (!Convert("csv", fuzz::WriteInputFile(csv_bytes, csv.size(), "out.csv"), "jsonl", back)) {
    fuzz::PropertyFailed("the CSV export of a trace does not import");
  }
  if (back != jsonl) {
    fuzz::PropertyFailed("JSON Lines -> CSV -> JSON Lines changed the jobs:\n" + jsonl + "\n" +
                         back);
  }
  return 0;
}
