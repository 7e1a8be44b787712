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

// The rich mixed fleet of the conformance and placement suites: 76 GPUs in five pools — two HGX
// H100 nodes in dynamic MIG mode, an H100 NVL pair in static MIG (two 3g.47gb per GPU), an HGX
// H200 node of the spot tier, a GB200 NVL72 rack (72 cores and 480 GB per tray) and an HGX B200
// node — with no interruption process (suites that want reclaims and failures add them).
FleetSpec MixedFleet();

// A fleet of `pools`, with `gpus` set to their total.
FleetSpec FleetOf(std::vector<PoolSpec> pools);

// GPUs first..last, inclusive.
std::vector<GpuId> GpuRange(GpuId first, GpuId last);
// The GPUs of an allocation's grants, in grant order.
std::vector<GpuId> GpusOf(const Allocation& allocation);

}  // namespace fleetsim::testing
