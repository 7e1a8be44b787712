// GPU fragmentation as Weng et al. define it for GPU-sharing clusters ("Beware of Fragmentation",
// USENIX ATC'23; docs/fgd-reproduction-spec.md §2-3): a node's unallocated GPU share is
// fragmented for a task if the task cannot run there at all (too little CPU, too few GPUs with
// enough free share, a GPU model it does not accept, or no GPU need at all), and otherwise only
// the GPUs whose free share is below the task's per-GPU request are. A node's fragmentation is the
// expectation over a distribution of typical tasks; the cluster's is the sum over nodes. Memory is
// not part of the measure. Typical tasks are the most common request shapes of a task list, taken
// by count until they cover a popularity threshold (95 % in the paper). Pure functions on value
// types; thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fleetsim {

inline constexpr std::int64_t kGpuMilli = 1000;  // one whole GPU, in milli-GPU

// What a task asks of one node: CPU, and `gpus` GPUs with `gpu_milli` free each (0 GPUs for a
// CPU-only task), on a GPU of one of `models` (empty: any model).
struct TaskShape {
  std::int64_t cpu_milli = 0;
  std::int64_t gpu_milli = 0;  // per GPU, 1..1000; 0 for a CPU-only task
  std::int64_t gpus = 0;
  std::vector<std::string> models{};

  bool operator==(const TaskShape&) const = default;
};

// A typical task and its weight; the weights of a TypicalTasks sum to 1.
struct WeightedTask {
  TaskShape shape{};
  double weight = 0;
};
using TypicalTasks = std::vector<WeightedTask>;

// The free state of one node that the measure reads.
struct NodeFreeState {
  std::int64_t cpu_free_milli = 0;
  std::string model{};                   // the model of all its GPUs; "" for a CPU-only node
  std::vector<std::int64_t> gpu_free{};  // milli-GPU free on each GPU, 0..1000
};

// The node's unallocated milli-GPU.
std::int64_t IdleMilli(const NodeFreeState& node);

// Milli-GPU of the node fragmented for one task shape.
std::int64_t FragmentedMilli(const NodeFreeState& node, const TaskShape& task);

// Σ weight × FragmentedMilli over the typical tasks, in their order.
double NodeFragmentation(const NodeFreeState& node, const TypicalTasks& typical);

// The typical tasks of `tasks`: shapes grouped exactly (models compared as listed), sorted by
// count descending — equal counts by the larger shape first (cpu, gpu_milli, gpus, then the
// models joined with '|' as text) — and taken while the count covered so far is below
// `popularity` × the number of tasks (the shape that reaches it included), then weighted by
// count over the count taken. Empty for no tasks. Precondition: 0 < popularity <= 1.
TypicalTasks ComputeTypicalTasks(const std::vector<TaskShape>& tasks, double popularity);

}  // namespace fleetsim
