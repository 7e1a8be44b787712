// The GPU-sharing placement rules of the `share-*` placement strategies (placement_strategy.h):
// the six node scorers of gpu_share_placement.h (Weng et al., ATC'23) applied to a FleetLedger.
// Internal to the placement helper (placement_choice.cc), which documents the rules in full.
#pragma once

#include <cstdint>
#include <optional>

#include "fleetsim/fleet/fleet_state.h"
#include "fleetsim/fleet/gpu_share_placement.h"
#include "fleetsim/ledger/fleet_ledger.h"
#include "fleetsim/workload/job.h"

namespace fleetsim {

// The placement `scorer` picks for `request` (every hard rule of the helper applied), or none
// when the rule does not cover the request or no node can take it — the caller then uses the
// preset's plain rules. `exact_gpus` as for ChoosePlacement.
std::optional<Allocation> PlaceByShareScore(const FleetLedger& ledger, const JobRequest& request,
                                            GpuSharePolicy scorer,
                                            std::optional<std::int64_t> exact_gpus);

}  // namespace fleetsim
