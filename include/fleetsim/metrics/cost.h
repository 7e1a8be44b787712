// Cost: what a run's fleet cost, priced from its capacity accounting. Each pool pays its price
// per GPU-hour (PoolSpec::EffectivePrice: the scenario's, else the catalog's for the pool's tier)
// for the hours it is billed: a reserved pool for every GPU-hour of the window (used, idle or
// down), an on-demand or spot pool for the GPU-hours its nodes were up (capacity - down). If any
// pool has no price, no dollar figure is given and the pools without one are listed.
// docs/metrics.md#cost defines every figure. Pure functions over value types.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "fleetsim/fleet/fleet_spec.h"
#include "fleetsim/metrics/capacity_accounting.h"

namespace fleetsim {

struct PoolCost {
  std::string name{};
  PriceTier tier = PriceTier::kOnDemand;
  std::optional<double> price_per_gpu_hour{};  // USD; none if unpriced
  double billed_gpu_hours = 0;
  std::optional<double> usd{};  // billed x price; none unless every pool is priced
};

// USD figures; each is empty unless every pool is priced (and, for per_useful_gpu_hour, some
// GPU-time was useful).
struct CostSummary {
  std::vector<std::string> unpriced_pools{};  // names, in fleet order
  std::vector<PoolCost> pools{};              // in fleet order
  std::optional<double> total_usd{};
  std::optional<double> on_demand_usd{};
  std::optional<double> reserved_usd{};
  std::optional<double> spot_usd{};
  std::optional<double> per_useful_gpu_hour_usd{};  // total / useful GPU-hours
  std::optional<double> lost_work_usd{};            // sum of lost GPU-hours x price
  std::optional<double> overhead_usd{};             // sum of overhead GPU-hours x price
};

// GPU-hours a pool is billed for: capacity for reserved, capacity - down otherwise.
double BilledGpuHours(PriceTier tier, const GpuTimeSplit& hours);

// Precondition (checked): `pools` are the accounting's pools, in the same order.
CostSummary PriceAccounting(const AccountingSummary& accounting, std::span<const PoolSpec> pools);

}  // namespace fleetsim
