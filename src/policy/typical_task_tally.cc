// The typical tasks of the requests a scheduling run has admitted so far (share-fgd placement).
#include "fleetsim/policy/typical_task_tally.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "fleetsim/policy/placement_rules.h"

namespace fleetsim {

TypicalTaskTally::TypicalTaskTally(std::span<const PoolSpec> pools)
    : pools_(pools.begin(), pools.end()) {
  GpuModelNames names;
  for (const PoolSpec& pool : pools_) {
    model_of_pool_.push_back(names.Index(pool.gpu.name));
  }
}

std::int64_t TypicalTaskTally::LargestNodeGpus() const {
  std::int64_t largest = 0;
  for (const PoolSpec& pool : pools_) {
    largest = std::max<std::int64_t>(largest, pool.node.gpus_per_node);
  }
  return std::min(largest, static_cast<std::int64_t>(kMaxSharedNodeGpus));
}

bool TypicalTaskTally::ShapeOf(const JobRequest& request, ListedTask& task) const {
  task = {};
  task.shape.cpu_milli = request.cpu_milli;
  if (!request.IsCpuOnly()) {
    switch (request.sharing) {
      case GpuSharing::kMig:
        return false;
      case GpuSharing::kFraction:
        task.shape.gpus = 1;
        task.shape.gpu_milli = request.gpu_milli;
        break;
      case GpuSharing::kNone:
        if (request.gpus > LargestNodeGpus()) {
          return false;  // no node can hold it
        }
        task.shape.gpus = request.gpus;
        task.shape.gpu_milli = kGpuMilli;
        break;
    }
  }
  if (!request.gpu_models.empty()) {
    for (std::size_t p = 0; p < pools_.size(); ++p) {
      if (model_of_pool_[p] >= 0 && AcceptsModel(request, pools_[p].gpu)) {
        task.shape.models |= GpuModelMask{1} << model_of_pool_[p];
      }
    }
    if (task.shape.models == 0) {
      return false;  // no GPU of the fleet (a mask of 0 would read as any model)
    }
    task.models_text = fmt::format("{}", fmt::join(request.gpu_models, "|"));
  }
  return true;
}

void TypicalTaskTally::Note(const JobRequest& request) {
  ListedTask task;
  if (!ShapeOf(request, task)) {
    return;
  }
  const Key key{task.shape.cpu_milli, task.shape.gpu_milli, task.shape.gpus, task.models_text};
  ++counts_.try_emplace(key, CountedTask{.task = task, .count = 0}).first->second.count;
  ++noted_;
  stale_ = true;
}

const TypicalTasks& TypicalTaskTally::typical() const {
  if (stale_) {
    std::vector<CountedTask> counts;
    counts.reserve(counts_.size());
    for (const auto& [key, counted] : counts_) {
      counts.push_back(counted);
    }
    typical_ = ComputeTypicalTasksFromCounts(std::move(counts), kTypicalTaskPopularity);
    stale_ = false;
    memo_.clear();
  }
  return typical_;
}

std::size_t TypicalTaskTally::StateKeyHash::operator()(const StateKey& key) const {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  const auto mix = [&](std::uint64_t value) {
    hash ^= value + 0x9e3779b97f4a7c15ULL + (hash << 6) + (hash >> 2);
  };
  mix(static_cast<std::uint64_t>(key.cpu_free_milli));
  mix((static_cast<std::uint64_t>(static_cast<std::uint32_t>(key.model)) << 32) | key.gpu_count);
  for (std::size_t g = 0; g < key.gpu_count; g += 2) {
    mix((static_cast<std::uint64_t>(static_cast<std::uint32_t>(key.sorted_free[g])) << 32) |
        static_cast<std::uint32_t>(key.sorted_free[g + 1]));
  }
  return hash;
}

double TypicalTaskTally::Fragmentation(const NodeFreeState& state) const {
  const TypicalTasks& tasks = typical();  // first: a recompute empties the memo
  StateKey key{.cpu_free_milli = state.cpu_free_milli,
               .model = state.model,
               .gpu_count = state.gpu_count,
               .sorted_free = state.gpu_free};
  const auto used_end = key.sorted_free.begin() + static_cast<std::ptrdiff_t>(key.gpu_count);
  std::fill(used_end, key.sorted_free.end(), 0);  // whatever the state holds past its GPUs
  std::sort(key.sorted_free.begin(), used_end);
  if (const auto it = memo_.find(key); it != memo_.end()) {
    return it->second;
  }
  if (memo_.size() >= kMaxMemoStates) {
    memo_.clear();
  }
  const double fragmentation = NodeFragmentation(state, tasks);
  memo_.emplace(key, fragmentation);
  return fragmentation;
}

}  // namespace fleetsim
