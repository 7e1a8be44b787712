// Fuzz target: `fleetsim compare`'s result reader and its reports. A document that reads
// compares identical with itself at tolerance 0 (no drift), and against a copy with every
// number changed it gives reports in every format, the JSON one parseable.
#include <nlohmann/json.hpp>

#include "fleetsim/report/compare_report.h"
#include "fleetsim/report/result_compare.h"
#include "fuzz_input.h"

namespace {

// `doc` with every number in its results' metrics and seeds moved, so that all differs.
std::string Shifted(nlohmann::json doc) {
  if (!doc.is_object() || !doc.contains("results") || !doc["results"].is_array()) {
    return doc.dump();
  }
  for (nlohmann::json& result : doc["results"]) {
    if (!result.is_object() || !result.contains("metrics") || !result["metrics"].is_object()) {
      continue;
    }
    for (auto& [name, value] : result["metrics"].items()) {
      if (value.is_number()) {
        value = value.get<double>() + 1.5;
      }
    }
  }
  return doc.dump();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace fleetsim;
  const std::string text = fuzz::AsText(data, size);
  const CompareOutcome outcome = CompareResults(text, "baseline.json", text, "current.json", {});
  if (!outcome.ok()) {
    return 0;
  }
  if (outcome.drift()) {
    fuzz::PropertyFailed("a result document drifts from itself");
  }
  const std::string shifted = Shifted(nlohmann::json::parse(text, nullptr, false));
  CompareOptions half;
  half.tolerance = 0.5;
  const CompareOutcome moved = CompareResults(text, "baseline.json", shifted, "current.json", half);
  for (const CompareOutcome* o : {&outcome, &moved}) {
    if (!o->ok()) {
      continue;
    }
    for (const CompareFormat format : {CompareFormat::kText, CompareFormat::kJunit,
                                       CompareFormat::kMarkdown, CompareFormat::kJson}) {
      const std::string report = CompareReport(*o, format, false);
      if (format == CompareFormat::kJson && !nlohmann::json::accept(report)) {
        fuzz::PropertyFailed("compare's JSON report does not parse");
      }
    }
  }
  return 0;
}
