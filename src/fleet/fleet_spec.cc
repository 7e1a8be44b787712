// Pool pricing and tier names.
#include "fleetsim/fleet/fleet_spec.h"

namespace fleetsim {

std::string PriceTierName(PriceTier tier) {
  switch (tier) {
    case PriceTier::kOnDemand:
      return "on-demand";
    case PriceTier::kReserved:
      return "reserved";
    case PriceTier::kSpot:
      return "spot";
  }
  return "?";
}

std::optional<double> PoolSpec::EffectivePrice() const {
  if (price_per_gpu_hour) {
    return price_per_gpu_hour;
  }
  switch (tier) {
    case PriceTier::kOnDemand:
      return gpu.prices.on_demand;
    case PriceTier::kReserved:
      return gpu.prices.reserved;
    case PriceTier::kSpot:
      return gpu.prices.spot;
  }
  return std::nullopt;
}

}  // namespace fleetsim
