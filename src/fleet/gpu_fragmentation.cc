// GPU fragmentation against a distribution of typical tasks, and the typical tasks of a list.
#include "fleetsim/fleet/gpu_fragmentation.h"

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <tuple>
#include <utility>

#include "fleetsim/core/check.h"

namespace fleetsim {

namespace {

// The ordering key of a listed task among equal counts: larger first.
auto ShapeKey(const ListedTask& task) {
  return std::make_tuple(task.shape.cpu_milli, task.shape.gpu_milli, task.shape.gpus,
                         task.models_text);
}

// How a node's GPUs meet one task's per-GPU share.
struct GpuFit {
  std::int64_t fitting_gpus = 0;     // GPUs with at least the share free
  std::int64_t too_small_milli = 0;  // the free share of the others
};

GpuFit GpuFitOf(const NodeFreeState& node, const TaskShape& task) {
  GpuFit fit;
  for (std::size_t g = 0; g < node.gpu_count; ++g) {
    if (node.gpu_free[g] >= task.gpu_milli) {
      ++fit.fitting_gpus;
    } else {
      fit.too_small_milli += node.gpu_free[g];
    }
  }
  return fit;
}

}  // namespace

int GpuModelNames::Index(const std::string& name) {
  const auto it = std::find(names_.begin(), names_.end(), name);
  if (it != names_.end()) {
    return static_cast<int>(it - names_.begin());
  }
  if (names_.size() == kMaxGpuModels) {
    return -1;
  }
  names_.push_back(name);
  return static_cast<int>(names_.size()) - 1;
}

bool GpuModelNames::Mask(const std::vector<std::string>& names, GpuModelMask& mask) {
  mask = 0;
  for (const std::string& name : names) {
    const int index = Index(name);
    if (index < 0) {
      return false;
    }
    mask |= GpuModelMask{1} << index;
  }
  return true;
}

std::int64_t IdleMilli(const NodeFreeState& node) {
  return std::accumulate(node.gpu_free.begin(),
                         node.gpu_free.begin() + static_cast<std::ptrdiff_t>(node.gpu_count),
                         std::int64_t{0});
}

std::int64_t FragmentedMilli(const NodeFreeState& node, const TaskShape& task) {
  if (task.gpus == 0 || task.gpu_milli == 0 || !node.Accepts(task.models) ||
      node.cpu_free_milli < task.cpu_milli) {
    return IdleMilli(node);
  }
  const GpuFit fit = GpuFitOf(node, task);
  return fit.fitting_gpus >= task.gpus ? fit.too_small_milli : IdleMilli(node);
}

std::size_t FragmentationMemo::StateKeyHash::operator()(const StateKey& key) const {
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

double FragmentationMemo::Get(const NodeFreeState& state, const TypicalTasks& typical) {
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
  if (memo_.size() >= max_states_) {
    memo_.clear();
  }
  const double fragmentation = NodeFragmentation(state, typical);
  memo_.emplace(key, fragmentation);
  return fragmentation;
}

double NodeFragmentation(const NodeFreeState& node, const TypicalTasks& typical) {
  // The paper artifact's sub-totals (its FragAmount): each task's weighted amount goes to one
  // category — Q1 lacks CPU and GPU, Q2 lacks GPU, Q3 fits, Q4 lacks CPU, XL and XR a task
  // without GPUs (CPU fits or not), NA a model the node does not have — and a task that fits
  // splits the idle share into Q2 (its GPUs too small for the task) and Q3 (the rest). F is the
  // sum of every category but Q3, in that order: Σ weight × FragmentedMilli, summed in the
  // artifact's order of operations so that FGD's truncated score rounds as the artifact's does.
  enum Category : std::size_t { kQ1, kQ2, kQ3, kQ4, kXl, kXr, kNa, kCategories };
  std::array<double, kCategories> sub_total{};
  const std::int64_t idle_milli = IdleMilli(node);
  const auto idle = static_cast<double>(idle_milli);
  for (const WeightedTask& task : typical) {
    const TaskShape& shape = task.shape;
    const bool cpu_fits = node.cpu_free_milli >= shape.cpu_milli;
    if (shape.gpus == 0 || shape.gpu_milli == 0) {
      sub_total[cpu_fits ? kXl : kXr] += task.weight * idle;
      continue;
    }
    if (!node.Accepts(shape.models)) {
      sub_total[kNa] += task.weight * idle;
      continue;
    }
    const GpuFit fit = GpuFitOf(node, shape);
    if (fit.fitting_gpus < shape.gpus) {
      sub_total[cpu_fits ? kQ2 : kQ1] += task.weight * idle;
    } else if (!cpu_fits) {
      sub_total[kQ4] += task.weight * idle;
    } else {
      sub_total[kQ2] += task.weight * static_cast<double>(fit.too_small_milli);
      sub_total[kQ3] += task.weight * static_cast<double>(idle_milli - fit.too_small_milli);
    }
  }
  double fragmented = 0;
  for (const Category category : {kQ1, kQ2, kQ4, kXl, kXr, kNa}) {
    fragmented += sub_total[category];
  }
  return fragmented;
}

TypicalTasks ComputeTypicalTasks(const std::vector<ListedTask>& tasks, double popularity) {
  std::vector<CountedTask> counts;
  std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t, std::string>, std::size_t> index;
  for (const ListedTask& task : tasks) {
    const auto [it, inserted] = index.emplace(ShapeKey(task), counts.size());
    if (inserted) {
      counts.push_back({.task = task, .count = 0});
    }
    ++counts[it->second].count;
  }
  return ComputeTypicalTasksFromCounts(std::move(counts), popularity);
}

TypicalTasks ComputeTypicalTasksFromCounts(std::vector<CountedTask> counts, double popularity) {
  FLEETSIM_CHECK(popularity > 0 && popularity <= 1, "popularity must be in (0, 1]");
  std::int64_t total = 0;
  for (const CountedTask& counted : counts) {
    FLEETSIM_CHECK(counted.count >= 1, "a counted task shape needs a count of at least 1");
    total += counted.count;
  }
  std::sort(counts.begin(), counts.end(), [](const CountedTask& a, const CountedTask& b) {
    return a.count != b.count ? a.count > b.count : ShapeKey(a.task) > ShapeKey(b.task);
  });
  // The artifact's arithmetic: the threshold as percent × total / 100, each weight as
  // (count / total) / (covered / total).
  const double threshold = popularity * 100 * static_cast<double>(total) / 100;
  std::int64_t covered = 0;
  std::size_t taken = 0;
  while (taken < counts.size() && static_cast<double>(covered) < threshold) {
    covered += counts[taken++].count;
  }
  TypicalTasks typical;
  for (std::size_t i = 0; i < taken; ++i) {
    typical.push_back(
        {.shape = counts[i].task.shape,
         .weight = (static_cast<double>(counts[i].count) / static_cast<double>(total)) /
                   (static_cast<double>(covered) / static_cast<double>(total))});
  }
  return typical;
}

}  // namespace fleetsim
