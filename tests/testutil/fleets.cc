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
