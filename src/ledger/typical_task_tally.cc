// The typical tasks of the requests a scheduling run has admitted so far (share-fgd placement).
#include "fleetsim/ledger/typical_task_tally.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "fleetsim/ledger/placement_rules.h"

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
    memo_.Clear();
  }
  return typical_;
}

double TypicalTaskTally::Fragmentation(const NodeFreeState& state) const {
  const TypicalTasks& tasks = typical();  // first: a recompute empties the memo
  return memo_.Get(state, tasks);
}

}  // namespace fleetsim
