// The multi-year view of a plan's answer (docs/planning.md#the-multi-year-view): what its fleet
// costs over the plan's horizon if its on-demand and reserved pools are reserved now, at their
// GPU model's reserved price fixed for the whole horizon, against renting it as planned (each
// pool at its own tier's price) and re-planning every few months at prices that change yearly
// by the plan's figures. Spot pools cannot be reserved: both paths rent them as planned. Nothing
// is forecast beyond what the plan states: the same fleet is priced in every period, and pools
// without nodes cost nothing. Pure functions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "fleetsim/fleet/fleet_spec.h"
#include "fleetsim/plan/plan_spec.h"

namespace fleetsim {

struct HorizonPeriod {
  std::int64_t start_month = 0;
  std::int64_t months = 0;
  double price_factor = 1;  // of the GPU-hour-weighted price at month 0
  double cost_usd = 0;
};

struct HorizonCost {
  double reserve_now_usd = 0;
  double replan_usd = 0;
  std::vector<HorizonPeriod> periods{};  // the re-plan path, in order
  // The yearly price change, the same for every model, at which both paths cost the same
  // (re-planning is cheaper below it); none when one path is cheaper for every change from
  // -100 % to +1,000 % a year, or when nothing is reservable.
  std::optional<double> break_even_yearly_change{};
};

// Every problem pricing these fleets over the horizon, one message each with its JSON path: a
// reservable pool with nodes whose model has no reserved price (the fix:
// reserved_price_per_gpu_hour), a model key that names no GPU model of the fleets (with
// did-you-mean). Every pool is assumed priced at its tier (the planner refuses fleets that are
// not).
std::vector<std::string> CheckHorizon(const HorizonSpec& horizon,
                                      const std::vector<const FleetSpec*>& fleets);

// The two paths' costs for `fleet`; CheckHorizon must have found no problem with it.
HorizonCost CostOverHorizon(const HorizonSpec& horizon, const FleetSpec& fleet);

}  // namespace fleetsim
