// Fleets for tests, built from the built-in catalog: a pool of a node template, the pools several
// suites share, a fleet of pools with its GPU total; and the GPU lists placement tests compare.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fleetsim/fleet/fleet_spec.h"
#include "fleetsim/fleet/fleet_state.h"

namespace fleetsim::testing {

// `nodes` nodes of the built-in catalog's `template_name`, named after the template unless
// `name` is given.
PoolSpec CatalogPool(const std::string& template_name, std::int64_t nodes,
                     const std::string& name = "");

// `nodes` HGX H100 nodes in dynamic MIG mode, 64 CPU cores and 512 GB of memory per node.
PoolSpec DynamicMigH100Pool(std::int64_t nodes, const std::string& name);

// A fleet of `pools`, with `gpus` set to their total.
FleetSpec FleetOf(std::vector<PoolSpec> pools);

// GPUs first..last, inclusive.
std::vector<GpuId> GpuRange(GpuId first, GpuId last);
// The GPUs of an allocation's grants, in grant order.
std::vector<GpuId> GpusOf(const Allocation& allocation);

}  // namespace fleetsim::testing
