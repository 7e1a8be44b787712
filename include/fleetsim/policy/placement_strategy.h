// Placement strategies: which of the legal placements the shared placement helper
// (placement_choice.h) picks. A strategy names one rule per kind of request — whole GPUs, a MIG
// instance, a fractional share, a CPU-only job — and the named presets below bundle them, so a
// policy is configured with one name (its `placement` parameter). The rules only choose among
// placements: the request's hard rules (pools, blocks, NVLink, host split; placement_rules.h) are
// applied by the helper the same way whatever the strategy, so every answer passes the engine's
// checks. To add a strategy, add a preset to PlacementStrategies() (placement_strategy.cc); to add
// a rule, add an enumerator here and its search in placement_choice.cc.
// The six `share-*` presets put the GPU-sharing placement policies of Weng et al. (ATC'23;
// gpu_share_placement.h) in front of the topology-aware rules: with `share_scorer` set, a
// fractional share, a CPU-only job and a whole-GPU job that can take GPUs of one node are placed
// on the node that scorer picks (placement_choice.h says which requests and how); every other
// request, and these when no node can take them, by the preset's plain rules.
// Value types and pure functions; thread-safe.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fleetsim/fleet/gpu_share_placement.h"
#include "fleetsim/policy/registry.h"

namespace fleetsim {

// Whole GPUs (sharing "none").
enum class WholeGpuRule {
  kTopologyAware,  // as few NVLink domains as possible; within one, the lowest free GPUs
  kFirstFit,       // the lowest-numbered free GPUs; blocks and NVLink-required: the lowest domain
  kBestFit,        // the tightest domain, and in it the tightest node; else smallest holes first
};

// One MIG instance.
enum class MigRule {
  kTiered,    // a static slot, else the lowest GPU in MIG mode, else the lowest idle dynamic GPU
  kFirstFit,  // the lowest-numbered GPU that can take the profile
  kPacking,   // a static slot, else the GPU in MIG mode with the most compute slices in use,
              // else the lowest idle dynamic GPU
};

// A fractional share of one GPU.
enum class ShareRule {
  kBestFit,   // the GPU with the least free share that holds it
  kFirstFit,  // the lowest-numbered GPU that holds it
};

// A CPU-only job's node.
enum class NodeRule {
  kBestFit,   // the node with the least free CPU that fits
  kFirstFit,  // the lowest-numbered node that fits
};

struct PlacementStrategy {
  std::string_view name = "topology-aware";
  WholeGpuRule whole = WholeGpuRule::kTopologyAware;
  MigRule mig = MigRule::kTiered;
  ShareRule share = ShareRule::kBestFit;
  NodeRule node = NodeRule::kBestFit;
  // The GPU-sharing policy that picks the node (and GPU) of the requests it covers; none for the
  // plain presets.
  std::optional<GpuSharePolicy> share_scorer = std::nullopt;
};

// Every named strategy, the default ("topology-aware") first.
std::span<const PlacementStrategy> PlacementStrategies();
std::vector<std::string> PlacementStrategyNames();
std::optional<PlacementStrategy> FindPlacementStrategy(std::string_view name);

// The policy parameter that selects a strategy: kChoice "placement", default "topology-aware",
// choices = every strategy name. A policy declares it with `.params = {PlacementParam(), ...}`
// and reads it with PlacementFromParams.
ParamSpec PlacementParam();
// The strategy named by the checked "placement" parameter.
PlacementStrategy PlacementFromParams(const PolicyParams& params);

}  // namespace fleetsim
