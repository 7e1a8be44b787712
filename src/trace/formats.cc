// The registry of trace formats and the bits every reader shares.
#include "fleetsim/trace/formats.h"

#include <fmt/format.h>

#include "fleetsim/core/diagnostics.h"
#include "trace/readers.h"

namespace fleetsim {

std::string RowError::Format() const { return fmt::format("{}:{}: {}", file, line, message); }

const std::vector<TraceFormat>& TraceFormats() {
  static const std::vector<TraceFormat> formats = {
      // FORMAT LIST (one entry per reader; keep this order)
      JsonlFormat(), NativeCsvFormat(), AlibabaOpenbFormat(), PhillyFormat(),
      ItpFormat(),   SwfFormat(),       PolluxFormat(),       SacctFormat(),
  };
  return formats;
}

const TraceFormat* FindTraceFormat(const std::string& name) {
  for (const TraceFormat& format : TraceFormats()) {
    if (format.name == name) {
      return &format;
    }
  }
  return nullptr;
}

std::vector<std::string> TraceFormatNames() {
  std::vector<std::string> names;
  for (const TraceFormat& format : TraceFormats()) {
    names.push_back(format.name);
  }
  return names;
}

Status ResolveTraceOptions(const TraceFormat& format,
                           const std::map<std::string, std::string>& given,
                           TraceOptionValues& resolved) {
  resolved.clear();
  std::vector<std::string> known;
  for (const TraceOptionSpec& spec : format.options) {
    known.push_back(spec.name);
    resolved[spec.name] = spec.default_value;
  }
  for (const auto& [name, value] : given) {
    if (!resolved.contains(name)) {
      return Status::InvalidInput(fmt::format(
          "trace format '{}' has no option '{}'{} ({})", format.name, name, DidYouMean(name, known),
          known.empty() ? "it has none" : "it has " + QuotedList(known)));
    }
    resolved[name] = value;
  }
  return Status::Ok();
}

}  // namespace fleetsim
