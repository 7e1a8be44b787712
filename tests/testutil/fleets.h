// Fleets for tests, built from the built-in catalog: a pool of a node template, and a fleet of
// pools with its GPU total.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fleetsim/fleet/fleet_spec.h"

namespace fleetsim::testing {

// `nodes` nodes of the built-in catalog's `template_name`, named after the template unless
// `name` is given.
PoolSpec CatalogPool(const std::string& template_name, std::int64_t nodes,
                     const std::string& name = "");

// A fleet of `pools`, with `gpus` set to their total.
FleetSpec FleetOf(std::vector<PoolSpec> pools);

}  // namespace fleetsim::testing
