// The engine's check of a StartJob's placement against the job's request and the fleet, in this
// order: the shape (GPU count and grant kinds for the job's sharing, host shares present or not),
// GPUs that exist and are listed once, the request's constraints on them (models, spot, NVLink
// domain, power-of-two block, MIG profile), the host split — all of which CheckAgainstRequest
// does — then whole GPUs already busy, and finally FleetState::CheckAllocation (capacity of every
// GPU and node). Each returns OK or the first problem, refused.
#pragma once

#include <string>

#include "fleetsim/core/status.h"
#include "fleetsim/ledger/fleet_ledger.h"
#include "fleetsim/workload/job.h"

namespace fleetsim {

Status CheckPlacement(const FleetLedger& ledger, const JobRequest& request,
                      const Allocation& placement);
// The rules that do not depend on what is free now (for a placement the ledger already holds).
Status CheckAgainstRequest(const FleetLedger& ledger, const JobRequest& request,
                           const Allocation& placement);

}  // namespace fleetsim
