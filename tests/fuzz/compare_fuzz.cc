// Fuzz target: `fleetsim compare`'s result reader. A document that reads compares identical with
// itself at tolerance 0: no drift.
#include "fleetsim/report/result_compare.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace fleetsim;
  const std::string text = fuzz::AsText(data, size);
  const CompareOutcome outcome = CompareResults(text, "baseline.json", text, "current.json", {});
  if (outcome.ok() && outcome.drift()) {
    fuzz::PropertyFailed("a result document drifts from itself");
  }
  return 0;
}
