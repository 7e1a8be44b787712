// `fleetsim fleet SCENARIO`: what a scenario's fleet is — pools, GPUs per model, NVLink domains,
// racks, and hourly cost by pricing tier. Pure function of its inputs.
#pragma once

#include <string>

#include "fleetsim/fleet/fleet_spec.h"
#include "fleetsim/fleet/topology.h"

namespace fleetsim {

std::string FleetSummary(const FleetSpec& fleet, const Topology& topology);

}  // namespace fleetsim
