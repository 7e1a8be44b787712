// Fuzz target: the Alibaba openb node list (`fill` scenarios' "nodes"), and the fleet made from
// it. On error the node list is left as it was (empty here).
#include "fleetsim/fleet/catalog_loader.h"
#include "fleetsim/trace/alibaba_openb.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace fleetsim;
  static const Catalog catalog = BuiltinCatalog();
  std::vector<OpenbNode> nodes;
  const std::string error =
      LoadOpenbNodes(DiskFileSystem(), fuzz::WriteInputFile(data, size, "nodes.csv"), catalog,
                     nodes)
          .message();
  if (!error.empty()) {
    if (!nodes.empty()) {
      fuzz::PropertyFailed("a node list that failed to read left nodes behind");
    }
    return 0;
  }
  (void)OpenbFleet(nodes, catalog);
  return 0;
}
