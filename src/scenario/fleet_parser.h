// The "fleet" section of a scenario: a bare GPU count, or pools of catalog node templates with
// tier, price, cloud/region, MIG mode and per-node CPU/memory. Every problem is recorded with its
// JSON pointer. Private to the scenario module.
#pragma once

#include <nlohmann/json.hpp>

#include "fleetsim/fleet/catalog.h"
#include "fleetsim/fleet/fleet_spec.h"
#include "json/json_checker.h"

namespace fleetsim {

// Reads /fleet (the object `fleet`) against `catalog`.
FleetSpec ParseFleetSection(const nlohmann::json& fleet, const Catalog& catalog,
                            JsonChecker& check);

}  // namespace fleetsim
