// What a scenario says the fleet is: pools of identical nodes built from catalog templates, each
// with a pricing tier, a cloud and region (for spot notice times), a MIG mode, and CPU and
// memory per node. A fleet written as a bare GPU count ({"gpus": N}) is one anonymous pool of
// whole, identical GPUs with no catalog model. GPUs are numbered 0..N-1 in pool order, node by
// node. Value types; thread-compatible.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fleetsim/fleet/catalog.h"

namespace fleetsim {

// The largest fleet a scenario may describe; keeps GPU-time sums inside int64 (see time.h).
inline constexpr std::int64_t kMaxFleetGpus = 1'000'000;

enum class MigMode { kOff, kStatic, kDynamic };

std::string PriceTierName(PriceTier tier);  // "on-demand", "reserved", "spot"

struct PoolSpec {
  std::string name{};
  NodeTemplate node{};  // resolved from the catalog
  GpuModel gpu{};       // resolved from the catalog
  std::int64_t nodes = 0;
  PriceTier tier = PriceTier::kOnDemand;
  std::optional<double> price_per_gpu_hour{};  // the scenario's, else the catalog's for the tier
  std::string cloud{};                         // "aws", "gcp", "azure", "on-prem", ...
  std::string region{};
  MigMode mig = MigMode::kOff;
  std::map<std::string, int> mig_layout;  // per GPU, when mig == kStatic
  std::optional<double> cpu_cores{};      // per node: the scenario's, else the template's
  std::optional<double> memory_gb{};

  std::int64_t gpus() const { return nodes * node.gpus_per_node; }
  // The price this pool pays per GPU-hour, if known.
  std::optional<double> EffectivePrice() const;
};

struct FleetSpec {
  std::int64_t gpus = 0;          // total GPUs (the sum over pools when pools are given)
  std::vector<PoolSpec> pools{};  // empty for a bare {"gpus": N} fleet
};

}  // namespace fleetsim
