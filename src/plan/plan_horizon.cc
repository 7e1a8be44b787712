// Pricing a plan's answer over a multi-year horizon.
#include "plan/plan_horizon.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

#include "fleetsim/core/diagnostics.h"

namespace fleetsim {

namespace {

// The price per GPU-hour a pool would pay if reserved now.
std::optional<double> ReservedPrice(const HorizonSpec& horizon, const PoolSpec& pool) {
  if (pool.tier == PriceTier::kReserved && pool.EffectivePrice()) {
    return pool.EffectivePrice();
  }
  const auto it = horizon.reserved_price_per_gpu_hour.find(pool.gpu.name);
  return it != horizon.reserved_price_per_gpu_hour.end() ? std::optional(it->second)
                                                         : pool.gpu.prices.reserved;
}

double YearlyChange(const HorizonSpec& horizon, const std::string& model) {
  auto it = horizon.yearly_price_change.find(model);
  if (it == horizon.yearly_price_change.end()) {
    it = horizon.yearly_price_change.find("default");
  }
  return it == horizon.yearly_price_change.end() ? 0.0 : it->second;
}

void CheckModelKeys(const std::map<std::string, double>& values, const std::string& where,
                    const std::vector<std::string>& models, bool allow_default,
                    std::vector<std::string>& problems) {
  for (const auto& [model, value] : values) {
    if ((allow_default && model == "default") ||
        std::find(models.begin(), models.end(), model) != models.end()) {
      continue;
    }
    problems.push_back(fmt::format("/horizon/{}/{}: expected a GPU model of the candidate "
                                   "fleets ({}{}), found '{}'{}",
                                   where, model, fmt::join(models, ", "),
                                   allow_default ? ", or \"default\"" : "", model,
                                   DidYouMean(model, models)));
  }
}

// Spot capacity cannot be reserved: a spot pool is rented as planned on both paths.
bool Reservable(const PoolSpec& pool) { return pool.tier != PriceTier::kSpot; }

// Pools without nodes cost nothing and need no price.
bool Used(const PoolSpec& pool) { return pool.nodes > 0; }

using PoolFilter = std::function<bool(const PoolSpec&)>;
using ModelChange = std::function<double(const std::string&)>;

// The rented path of the pools `include` picks: at their planned prices, each model's changed
// yearly by `change`, re-priced at the start of every period.
std::vector<HorizonPeriod> RentedPath(const HorizonSpec& horizon, const FleetSpec& fleet,
                                      const ModelChange& change, const PoolFilter& include) {
  std::vector<HorizonPeriod> periods;
  double rate_now = 0;  // USD per hour as planned, at month 0
  for (const PoolSpec& pool : fleet.pools) {
    rate_now += Used(pool) && include(pool)
                    ? static_cast<double>(pool.gpus()) * *pool.EffectivePrice()
                    : 0;
  }
  for (std::int64_t start = 0; start < horizon.months; start += horizon.replan_every_months) {
    HorizonPeriod period{.start_month = start,
                         .months = std::min(horizon.replan_every_months, horizon.months - start)};
    double rate = 0;
    for (const PoolSpec& pool : fleet.pools) {
      if (Used(pool) && include(pool)) {
        const double factor =
            std::pow(1 + change(pool.gpu.name), static_cast<double>(start) / 12.0);
        rate += static_cast<double>(pool.gpus()) * *pool.EffectivePrice() * factor;
      }
    }
    period.price_factor = rate_now > 0 ? rate / rate_now : 1.0;
    period.cost_usd = rate * static_cast<double>(period.months) * kHoursPerMonth;
    periods.push_back(period);
  }
  return periods;
}

double Total(const std::vector<HorizonPeriod>& periods) {
  double total = 0;
  for (const HorizonPeriod& p : periods) {
    total += p.cost_usd;
  }
  return total;
}

// The uniform yearly change at which renting the reservable pools costs what reserving them
// does, by bisection (renting's cost rises with the change). Spot pools cost the same on both
// paths and do not move it.
std::optional<double> BreakEven(const HorizonSpec& horizon, const FleetSpec& fleet,
                                double reserved_usd) {
  const auto rented = [&](double change) {
    return Total(RentedPath(
        horizon, fleet, [change](const std::string&) { return change; }, Reservable));
  };
  double lo = -1;
  double hi = 10;
  if (reserved_usd <= 0 || rented(lo) > reserved_usd || rented(hi) < reserved_usd) {
    return std::nullopt;
  }
  for (int step = 0; step < 100; ++step) {
    const double mid = (lo + hi) / 2;
    (rented(mid) < reserved_usd ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

}  // namespace

std::vector<std::string> CheckHorizon(const HorizonSpec& horizon,
                                      const std::vector<const FleetSpec*>& fleets) {
  std::vector<std::string> problems;
  std::set<std::string> models;
  std::set<std::string> unpriced;
  std::set<std::string> unrented;  // pools with no price at their tier
  for (const FleetSpec* fleet : fleets) {
    for (const PoolSpec& pool : fleet->pools) {
      models.insert(pool.gpu.name);
      if (Used(pool) && Reservable(pool) && !ReservedPrice(horizon, pool)) {
        unpriced.insert(pool.gpu.name);
      }
      if (Used(pool) && !pool.EffectivePrice()) {
        unrented.insert(pool.name);
      }
    }
  }
  for (const std::string& pool : unrented) {
    problems.push_back(fmt::format("/horizon: pool '{}' has no price at its tier, so the fleets "
                                   "using it cannot be priced over the horizon: give the pool a "
                                   "\"price_per_gpu_hour\"",
                                   pool));
  }
  for (const std::string& model : unpriced) {
    problems.push_back(fmt::format("/horizon: the catalog gives {0} no reserved price, so the "
                                   "fleets using it cannot be priced reserved: give "
                                   "\"reserved_price_per_gpu_hour\": {{\"{0}\": USD}}",
                                   model));
  }
  const std::vector<std::string> names(models.begin(), models.end());
  CheckModelKeys(horizon.yearly_price_change, "yearly_price_change", names, true, problems);
  CheckModelKeys(horizon.reserved_price_per_gpu_hour, "reserved_price_per_gpu_hour", names,
                 false, problems);
  return problems;
}

HorizonCost CostOverHorizon(const HorizonSpec& horizon, const FleetSpec& fleet) {
  HorizonCost cost;
  const ModelChange stated = [&](const std::string& model) {
    return YearlyChange(horizon, model);
  };
  const double hours = static_cast<double>(horizon.months) * kHoursPerMonth;
  double reserved_usd = 0;  // the reservable pools, reserved
  for (const PoolSpec& pool : fleet.pools) {
    if (Used(pool) && Reservable(pool)) {
      reserved_usd += static_cast<double>(pool.gpus()) * *ReservedPrice(horizon, pool) * hours;
    }
  }
  const PoolFilter spot = [](const PoolSpec& pool) { return !Reservable(pool); };
  cost.reserve_now_usd = reserved_usd + Total(RentedPath(horizon, fleet, stated, spot));
  cost.periods = RentedPath(horizon, fleet, stated, [](const PoolSpec&) { return true; });
  cost.replan_usd = Total(cost.periods);
  cost.break_even_yearly_change = BreakEven(horizon, fleet, reserved_usd);
  return cost;
}

}  // namespace fleetsim
