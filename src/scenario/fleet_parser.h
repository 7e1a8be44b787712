// The "fleet" section of a scenario: a bare GPU count, or pools of catalog node templates with
// tier, price, cloud/region, MIG mode, per-node CPU/memory and spot interruptions; and the
// "failures" section, hardware failures by GPU model. Every problem is recorded with its JSON
// pointer. Private to the scenario module.
#pragma once

#include <nlohmann/json.hpp>

#include "fleetsim/fleet/catalog.h"
#include "fleetsim/fleet/fleet_spec.h"
#include "json/json_checker.h"

namespace fleetsim {

// Reads /fleet (the object `fleet`) against `catalog`.
FleetSpec ParseFleetSection(const nlohmann::json& fleet, const Catalog& catalog,
                            JsonChecker& check);

// Reads /failures (the object `failures`: hardware failures by GPU model) into every pool of
// `fleet` with that model. Each key must be the model of a pool; `check_models` false skips that
// check (for a fleet section in error, whose pools may be missing).
void ParseFailuresSection(const nlohmann::json& failures, bool check_models, FleetSpec& fleet,
                          JsonChecker& check);

}  // namespace fleetsim
