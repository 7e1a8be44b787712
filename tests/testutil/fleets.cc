// Fleets for tests, built from the built-in catalog.
#include "testutil/fleets.h"

#include "fleetsim/scenario/catalog_loader.h"

namespace fleetsim::testing {

PoolSpec CatalogPool(const std::string& template_name, std::int64_t nodes,
                     const std::string& name) {
  static const Catalog catalog = BuiltinCatalog();
  PoolSpec pool;
  pool.name = name.empty() ? template_name : name;
  pool.node = *catalog.FindTemplate(template_name);
  pool.gpu = *catalog.FindGpu(pool.node.gpu);
  pool.nodes = nodes;
  return pool;
}

FleetSpec FleetOf(std::vector<PoolSpec> pools) {
  FleetSpec fleet;
  for (const PoolSpec& pool : pools) {
    fleet.gpus += pool.gpus();
  }
  fleet.pools = std::move(pools);
  return fleet;
}

}  // namespace fleetsim::testing
