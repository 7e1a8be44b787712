// GPU fragmentation against a distribution of typical tasks, and the typical tasks of a list.
#include "fleetsim/fleet/gpu_fragmentation.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>

#include "fleetsim/core/check.h"

namespace fleetsim {

namespace {

bool AcceptsModel(const TaskShape& task, const std::string& model) {
  return task.models.empty() ||
         std::find(task.models.begin(), task.models.end(), model) != task.models.end();
}

std::string JoinedModels(const TaskShape& task) {
  std::string joined;
  for (const std::string& model : task.models) {
    joined += (joined.empty() ? "" : "|") + model;
  }
  return joined;
}

// The ordering key of a shape among equal counts: larger first.
auto ShapeKey(const TaskShape& task) {
  return std::make_tuple(task.cpu_milli, task.gpu_milli, task.gpus, JoinedModels(task));
}

}  // namespace

std::int64_t IdleMilli(const NodeFreeState& node) {
  return std::accumulate(node.gpu_free.begin(), node.gpu_free.end(), std::int64_t{0});
}

std::int64_t FragmentedMilli(const NodeFreeState& node, const TaskShape& task) {
  const std::int64_t idle = IdleMilli(node);
  if (task.gpus == 0 || task.gpu_milli == 0 || !AcceptsModel(task, node.model) ||
      node.cpu_free_milli < task.cpu_milli) {
    return idle;
  }
  std::int64_t fitting_gpus = 0;
  std::int64_t too_small = 0;
  for (const std::int64_t free : node.gpu_free) {
    if (free >= task.gpu_milli) {
      ++fitting_gpus;
    } else {
      too_small += free;
    }
  }
  return fitting_gpus >= task.gpus ? too_small : idle;
}

double NodeFragmentation(const NodeFreeState& node, const TypicalTasks& typical) {
  double fragmented = 0;
  for (const WeightedTask& task : typical) {
    fragmented += task.weight * static_cast<double>(FragmentedMilli(node, task.shape));
  }
  return fragmented;
}

TypicalTasks ComputeTypicalTasks(const std::vector<TaskShape>& tasks, double popularity) {
  FLEETSIM_CHECK(popularity > 0 && popularity <= 1, "popularity must be in (0, 1]");
  std::vector<std::pair<TaskShape, std::int64_t>> counts;
  std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t, std::string>, std::size_t> index;
  for (const TaskShape& task : tasks) {
    const auto [it, inserted] = index.emplace(ShapeKey(task), counts.size());
    if (inserted) {
      counts.emplace_back(task, 0);
    }
    ++counts[it->second].second;
  }
  std::sort(counts.begin(), counts.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : ShapeKey(a.first) > ShapeKey(b.first);
  });
  const double threshold = popularity * static_cast<double>(tasks.size());
  std::int64_t covered = 0;
  std::size_t taken = 0;
  while (taken < counts.size() && static_cast<double>(covered) < threshold) {
    covered += counts[taken++].second;
  }
  TypicalTasks typical;
  for (std::size_t i = 0; i < taken; ++i) {
    typical.push_back(
        {.shape = counts[i].first,
         .weight = static_cast<double>(counts[i].second) / static_cast<double>(covered)});
  }
  return typical;
}

}  // namespace fleetsim
