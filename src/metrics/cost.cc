// Cost: pricing a run's capacity accounting pool by pool.
#include "fleetsim/metrics/cost.h"

#include "fleetsim/core/check.h"

namespace fleetsim {

namespace {

std::optional<double>& TierTotal(CostSummary& cost, PriceTier tier) {
  switch (tier) {
    case PriceTier::kReserved:
      return cost.reserved_usd;
    case PriceTier::kSpot:
      return cost.spot_usd;
    case PriceTier::kOnDemand:
      break;
  }
  return cost.on_demand_usd;
}

// Fills in every dollar figure. Precondition: every pool has a price.
void AddDollars(CostSummary& cost, const AccountingSummary& accounting) {
  cost.total_usd = cost.on_demand_usd = cost.reserved_usd = cost.spot_usd = 0.0;
  cost.lost_work_usd = cost.overhead_usd = 0.0;
  for (std::size_t i = 0; i < cost.pools.size(); ++i) {
    PoolCost& pool = cost.pools[i];
    const double price = *pool.price_per_gpu_hour;
    pool.usd = pool.billed_gpu_hours * price;
    *cost.total_usd += *pool.usd;
    *TierTotal(cost, pool.tier) += *pool.usd;
    *cost.lost_work_usd += accounting.pools[i].hours.lost * price;
    *cost.overhead_usd += accounting.pools[i].hours.overhead * price;
  }
  if (accounting.total.useful > 0) {
    cost.per_useful_gpu_hour_usd = *cost.total_usd / accounting.total.useful;
  }
}

}  // namespace

double BilledGpuHours(PriceTier tier, const GpuTimeSplit& hours) {
  return tier == PriceTier::kReserved ? hours.capacity : hours.capacity - hours.down;
}

CostSummary PriceAccounting(const AccountingSummary& accounting, std::span<const PoolSpec> pools) {
  FLEETSIM_CHECK(pools.size() == accounting.pools.size(),
                 "PriceAccounting needs the pools the accounting was kept for");
  CostSummary cost;
  for (std::size_t i = 0; i < pools.size(); ++i) {
    const PoolAccounting& pool = accounting.pools[i];
    FLEETSIM_CHECK(pools[i].name == pool.name && pools[i].tier == pool.tier,
                   "PriceAccounting needs the pools in accounting order");
    const std::optional<double> price = pools[i].EffectivePrice();
    cost.pools.push_back({.name = pool.name,
                          .tier = pool.tier,
                          .price_per_gpu_hour = price,
                          .billed_gpu_hours = BilledGpuHours(pool.tier, pool.hours),
                          .usd = std::nullopt});
    if (!price) {
      cost.unpriced_pools.push_back(pool.name);
    }
  }
  if (cost.unpriced_pools.empty()) {
    AddDollars(cost, accounting);
  }
  return cost;
}

}  // namespace fleetsim
