// Fuzz target: scenario text through the loader users run, lenient and --strict. A scenario that
// loads in strict mode must also load leniently (strict only adds errors).
#include "fleetsim/fleet/catalog_loader.h"
#include "fleetsim/policy/registry.h"
#include "fleetsim/scenario/scenario.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace fleetsim;
  static const PolicyRegistry registry = BuiltinPolicies();
  static const Catalog catalog = BuiltinCatalog();  // parsed once, as the command does
  const std::string text = fuzz::AsText(data, size);
  const LoadResult lenient =
      ParseScenario(text, "fuzz.json", registry, {.strict = false, .catalog = &catalog});
  const LoadResult strict =
      ParseScenario(text, "fuzz.json", registry, {.strict = true, .catalog = &catalog});
  if (strict.scenario.has_value() && !lenient.scenario.has_value()) {
    fuzz::PropertyFailed("a scenario loads with --strict but not without it");
  }
  return 0;
}
