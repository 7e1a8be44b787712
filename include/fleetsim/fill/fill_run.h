// One fill run (docs/validation.md#the-experiment): the arrival-only experiment of Weng et
// al. (ATC'23). The pods, sorted by name, are shuffled with the seed; copies drawn uniformly with
// replacement from the name-sorted list are appended until the GPU demand that arrived would pass
// `target_share` of the cluster's GPU capacity (a list already above it is cut after the last pod
// within it). Each pod is placed once on arrival by the placement policy, or fails for good;
// nothing departs, nothing is retried or preempted. After every pod, one FillStep.
// Randomness: the streams "fill.arrival-order", "fill.resample", "fill.node-order" (the tie rank
// of the nodes) and "fill.random-placement" of RandomStreams(seed, 0) (docs/determinism.md).
// Pure functions; thread-safe on distinct outputs (runs share the workload read-only).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "fleetsim/fill/fill_order.h"
#include "fleetsim/fill/fill_workload.h"
#include "fleetsim/fleet/gpu_share_placement.h"

namespace fleetsim {

// Where a run's arrival order and node tie rank come from.
enum class FillStreams {
  kFleetsim,  // fleetsim's own streams of the seed (below)
  kArtifact,  // the paper artifact's, from Go's math/rand (artifact_streams.h)
};

struct FillRunOptions {
  GpuSharePolicy policy = GpuSharePolicy::kFgd;
  std::uint64_t seed = 42;
  double target_share = 1.3;  // of the cluster's GPU capacity
  FillStreams streams = FillStreams::kFleetsim;
};

// The cluster after one more pod arrived.
struct FillStep {
  std::size_t pod = 0;               // the pod that arrived: an index into FillWorkload::pods
  bool placed = false;               // false: it fit nowhere and failed for good
  std::size_t node = 0;              // where it was placed (placed pods only)
  std::uint32_t gpus = 0;            // bit g: it took GPU g of the node (placed pods only)
  std::int64_t arrived_milli = 0;    // GPU demand of every pod so far, failed ones included
  std::int64_t allocated_milli = 0;  // GPU share held by placed pods
  std::int64_t idle_milli = 0;       // capacity - allocated
  double fragmented_milli = 0;       // Σ over nodes of the node's fragmentation
  std::int64_t failed_pods = 0;      // so far
};

// The pods in arrival order, as indices into workload.pods.
std::vector<std::size_t> FillArrivals(const FillWorkload& workload, const FillRunOptions& options);

// A uniformly random order of `nodes` nodes: node n wins ties against node m if rank[n] < rank[m].
std::vector<std::uint32_t> RandomTieRank(std::size_t nodes, Rng rng);

// Places the pods `arrivals` (indices into workload.pods) in order with `placer` on an empty
// cluster of the workload's nodes and typical tasks; one step per pod.
std::vector<FillStep> PlaceArrivals(const FillWorkload& workload,
                                    std::span<const std::size_t> arrivals, GpuSharePlacer& placer);

// FillArrivals, then PlaceArrivals with the options' policy and a RandomTieRank; with
// FillStreams::kArtifact, RunFillInOrder of the ArtifactFillOrder instead.
std::vector<FillStep> RunFill(const FillWorkload& workload, const FillRunOptions& options);

// PlaceArrivals of the order's arrivals with the options' policy and the order's tie rank; the
// seed drives only random placement's choices.
std::vector<FillStep> RunFillInOrder(const FillWorkload& workload, const FillRunOptions& options,
                                     const FillOrder& order);

}  // namespace fleetsim
