// The nodes of a fleet as a run starts with them (RunStarted::nodes): pool, GPUs, down or not.
// Internal to the engine; the metrics tests build their RunStarted events with it too.
#pragma once

#include <vector>

#include "fleetsim/ledger/fleet_ledger.h"
#include "fleetsim/sim/events.h"

namespace fleetsim {

std::vector<NodeAtStart> NodesAtStart(const FleetLedger& ledger);

}  // namespace fleetsim
