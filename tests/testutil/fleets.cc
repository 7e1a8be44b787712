// Fleets for tests, built from the built-in catalog.
#include "testutil/fleets.h"

#include "fleetsim/fleet/catalog_loader.h"

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

PoolSpec DynamicMigH100Pool(std::int64_t nodes, const std::string& name) {
  PoolSpec pool = CatalogPool("hgx-h100", nodes, name);
  pool.mig = MigMode::kDynamic;
  pool.cpu_cores = 64;
  pool.memory_gb = 512;
  return pool;
}

FleetSpec MixedFleet() {
  PoolSpec nvl = CatalogPool("h100-nvl-pairs", 1, "h100-nvl-static-mig");
  nvl.mig = MigMode::kStatic;
  nvl.mig_layout = {{"3g.47gb", 2}};
  nvl.cpu_cores = 32;
  PoolSpec h200 = CatalogPool("hgx-h200", 1, "h200-spot");
  h200.tier = PriceTier::kSpot;
  PoolSpec gb200 = CatalogPool("gb200-nvl72", 9, "gb200");
  gb200.cpu_cores = 72;
  gb200.memory_gb = 480;
  return FleetOf({DynamicMigH100Pool(2, "h100-dynamic-mig"), nvl, h200, gb200,
                  CatalogPool("hgx-b200", 1, "b200")});
}

FleetSpec FleetOf(std::vector<PoolSpec> pools) {
  FleetSpec fleet;
  for (const PoolSpec& pool : pools) {
    fleet.gpus += pool.gpus();
  }
  fleet.pools = std::move(pools);
  return fleet;
}

std::vector<GpuId> GpuRange(GpuId first, GpuId last) {
  std::vector<GpuId> gpus;
  for (GpuId gpu = first; gpu <= last; ++gpu) {
    gpus.push_back(gpu);
  }
  return gpus;
}

std::vector<GpuId> GpusOf(const Allocation& allocation) {
  std::vector<GpuId> gpus;
  for (const Grant& grant : allocation.gpus) {
    gpus.push_back(grant.gpu);
  }
  return gpus;
}

}  // namespace fleetsim::testing
