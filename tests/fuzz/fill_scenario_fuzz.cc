// Fuzz target: a fill scenario file (`fleetsim fill`), and the kind test commands that take both
// kinds of scenario run first.
#include "fleetsim/fill/fill_scenario.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace fleetsim;
  (void)IsFillScenarioText(fuzz::AsText(data, size));
  const FillLoadResult result =
      LoadFillScenarioFile(DiskFileSystem(), fuzz::WriteInputFile(data, size, "fill.json"));
  if (result.scenario.has_value() != (result.file_status.ok() && !result.diagnostics.HasErrors())) {
    fuzz::PropertyFailed("a fill scenario is returned exactly when there is no error");
  }
  return 0;
}
