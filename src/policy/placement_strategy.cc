// The named placement strategies and the `placement` policy parameter that selects one.
#include "fleetsim/policy/placement_strategy.h"

#include <algorithm>
#include <array>

#include "fleetsim/core/check.h"

namespace fleetsim {

namespace {

// A GPU-sharing preset: the scorer in front of the topology-aware rules, which place what it does
// not cover (MIG instances, blocks, ranges, wide jobs; everything when no node can take the job).
constexpr PlacementStrategy ShareScored(std::string_view name, GpuSharePolicy scorer) {
  return {.name = name,
          .whole = WholeGpuRule::kTopologyAware,
          .mig = MigRule::kTiered,
          .share = ShareRule::kBestFit,
          .node = NodeRule::kBestFit,
          .share_scorer = scorer};
}

constexpr std::array kStrategies = {
    PlacementStrategy{.name = "topology-aware",
                      .whole = WholeGpuRule::kTopologyAware,
                      .mig = MigRule::kTiered,
                      .share = ShareRule::kBestFit,
                      .node = NodeRule::kBestFit},
    PlacementStrategy{.name = "first-fit",
                      .whole = WholeGpuRule::kFirstFit,
                      .mig = MigRule::kFirstFit,
                      .share = ShareRule::kFirstFit,
                      .node = NodeRule::kFirstFit},
    PlacementStrategy{.name = "best-fit",
                      .whole = WholeGpuRule::kBestFit,
                      .mig = MigRule::kPacking,
                      .share = ShareRule::kBestFit,
                      .node = NodeRule::kBestFit},
    PlacementStrategy{.name = "mig-packing",
                      .whole = WholeGpuRule::kTopologyAware,
                      .mig = MigRule::kPacking,
                      .share = ShareRule::kBestFit,
                      .node = NodeRule::kBestFit},
    ShareScored("share-random", GpuSharePolicy::kRandom),
    ShareScored("share-dot-product", GpuSharePolicy::kDotProduct),
    ShareScored("share-gpu-clustering", GpuSharePolicy::kGpuClustering),
    ShareScored("share-gpu-packing", GpuSharePolicy::kGpuPacking),
    ShareScored("share-best-fit", GpuSharePolicy::kBestFit),
    ShareScored("share-fgd", GpuSharePolicy::kFgd),
};

}  // namespace

std::span<const PlacementStrategy> PlacementStrategies() { return kStrategies; }

std::vector<std::string> PlacementStrategyNames() {
  std::vector<std::string> names;
  for (const PlacementStrategy& strategy : kStrategies) {
    names.emplace_back(strategy.name);
  }
  return names;
}

std::optional<PlacementStrategy> FindPlacementStrategy(std::string_view name) {
  const auto it = std::find_if(kStrategies.begin(), kStrategies.end(),
                               [&](const PlacementStrategy& s) { return s.name == name; });
  return it == kStrategies.end() ? std::nullopt : std::optional(*it);
}

ParamSpec PlacementParam() {
  return {.name = "placement",
          .type = ParamType::kChoice,
          .default_value = std::string(kStrategies.front().name),
          .choices = PlacementStrategyNames(),
          .doc =
              "Placement strategy: which of the legal GPUs, MIG slots, shares or nodes the "
              "placement helper picks (see The placement helper)."};
}

PlacementStrategy PlacementFromParams(const PolicyParams& params) {
  const std::optional<PlacementStrategy> strategy =
      FindPlacementStrategy(ChoiceParam(params, "placement"));
  FLEETSIM_CHECK(strategy.has_value(), "a checked placement parameter names no strategy");
  return *strategy;
}

}  // namespace fleetsim
