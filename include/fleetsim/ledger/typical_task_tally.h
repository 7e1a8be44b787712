// The typical tasks the FGD placement rule (`share-fgd`, placement_strategy.h) scores against in a
// scheduling run. FGD (Weng et al., ATC'23; gpu_fragmentation.h) measures a node's fragmentation
// as an expectation over a distribution of typical tasks; a scheduler cannot know the future, so
// here the distribution is made of what it has seen: the request shapes of every job noted so
// far, grouped and taken by ComputeTypicalTasks's rule with the paper's popularity of 95 %. The
// engine notes each job it admits when it arrives (FleetLedger::NoteSubmitted), before the policy
// that may place it is called, so the job being placed is always part of the distribution.
//
// A request's task shape: its host CPU (cpu_milli, whole job), and per GPU 1000 milli for whole
// GPUs (at its minimum size `gpus`), its gpu_milli for a fractional share, nothing for a CPU-only
// job; its model list as a mask over the fleet's GPU models. Left out: MIG requests (the measure
// has no notion of MIG instances) and whole-GPU requests of more GPUs than the fleet's largest
// node has (capped at kMaxSharedNodeGpus): no node can hold them, so they are not single-node
// tasks.
//
// Cost: Note is O(log shapes); typical() recomputes on the first call after a Note
// (O(shapes log shapes)) and is cached otherwise. Fragmentation memoises F by node state until
// the typical tasks change. Not thread-safe (the caches are filled by const calls).
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "fleetsim/fleet/fleet_spec.h"
#include "fleetsim/fleet/gpu_fragmentation.h"
#include "fleetsim/workload/job.h"

namespace fleetsim {

inline constexpr double kTypicalTaskPopularity = 0.95;

class TypicalTaskTally {
 public:
  // `pools`: the fleet's pools; their GPU models, in pool order, are the model indices of task
  // masks and node states (GpuModelNames).
  explicit TypicalTaskTally(std::span<const PoolSpec> pools);

  // Counts the request's shape (see above; MIG and too-wide requests are not counted).
  void Note(const JobRequest& request);
  // Requests counted so far.
  std::int64_t noted() const { return noted_; }
  // The typical tasks of the requests counted so far; empty before the first.
  const TypicalTasks& typical() const;
  // NodeFragmentation(state, typical()), memoised by the state's contents (GPU order aside). The
  // memo is emptied when the typical tasks are recomputed and when it holds kMaxMemoStates.
  double Fragmentation(const NodeFreeState& state) const;
  static constexpr std::size_t kMaxMemoStates = std::size_t{1} << 16;

  // The GpuModelNames index of a pool's GPU model; -1 when the fleet has more than kMaxGpuModels
  // models (the GPU-sharing rules then fall back to the plain ones).
  int ModelOfPool(std::size_t pool) const { return model_of_pool_[pool]; }
  // The request's task shape, or false when it is not counted (MIG, too wide, or a model list
  // that names no GPU of the fleet).
  bool ShapeOf(const JobRequest& request, ListedTask& task) const;

 private:
  // The most GPUs one node of the fleet has, capped at kMaxSharedNodeGpus.
  std::int64_t LargestNodeGpus() const;
  using Key = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::string>;

  std::vector<PoolSpec> pools_;
  std::vector<int> model_of_pool_;
  std::map<Key, CountedTask> counts_;
  std::int64_t noted_ = 0;
  mutable TypicalTasks typical_;
  mutable bool stale_ = false;
  mutable FragmentationMemo memo_{kMaxMemoStates};
};

}  // namespace fleetsim
