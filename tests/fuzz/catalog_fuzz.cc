// Fuzz target: catalog text (GPU models and node templates) over the built-in catalog, as
// `--catalog FILE` reads it.
#include "fleetsim/fleet/catalog_loader.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace fleetsim;
  static const Catalog builtin = BuiltinCatalog();
  const CatalogLoadResult result = ParseCatalog(fuzz::AsText(data, size), "fuzz.json", builtin);
  if (result.catalog.has_value() != (result.file_status.ok() && !result.diagnostics.HasErrors())) {
    fuzz::PropertyFailed("a catalog is returned exactly when there is no error");
  }
  return 0;
}
