// Pool pricing and tier names; the spot notice of each cloud and the AWS Spot Advisor buckets.
#include "fleetsim/fleet/fleet_spec.h"

#include <algorithm>
#include <cmath>

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

double PoolSpec::AdvertisedReclaimsPerNodeHour() const {
  if (tier != PriceTier::kSpot) {
    return 0;
  }
  const double waves_per_node_hour =
      nodes > 0 ? spot.waves_per_day / 24.0 *
                      std::min(1.0, static_cast<double>(spot.wave_nodes) /
                                        static_cast<double>(nodes))
                : 0;
  return spot.per_node_hour + waves_per_node_hour;
}

const std::vector<SpotAdvisorBucket>& SpotAdvisorBuckets() {
  static const std::vector<SpotAdvisorBucket> buckets = {
      {"<5%", 0.025}, {"5-10%", 0.075}, {"10-15%", 0.125}, {"15-20%", 0.175}, {">20%", 0.30}};
  return buckets;
}

std::vector<std::string> SpotAdvisorBucketNames() {
  std::vector<std::string> names;
  for (const SpotAdvisorBucket& bucket : SpotAdvisorBuckets()) {
    names.emplace_back(bucket.name);
  }
  return names;
}

double HazardPerHourFromMonthlyFraction(double p) { return -std::log1p(-p) / kHoursPerMonth; }

std::optional<double> SpotAdvisorBucketRate(std::string_view name) {
  for (const SpotAdvisorBucket& bucket : SpotAdvisorBuckets()) {
    if (name == bucket.name) {
      return HazardPerHourFromMonthlyFraction(bucket.monthly_fraction);
    }
  }
  return std::nullopt;
}

std::optional<SimDuration> SpotNoticeOfCloud(std::string_view cloud) {
  if (cloud == "aws") {
    return 120 * kMillisPerSecond;
  }
  if (cloud == "gcp" || cloud == "azure") {
    return 30 * kMillisPerSecond;
  }
  return std::nullopt;
}

}  // namespace fleetsim
