// GPU fragmentation as Weng et al. define it for GPU-sharing clusters ("Beware of Fragmentation",
// USENIX ATC'23; docs/fgd-reproduction-spec.md §2-3, docs/metrics.md "GPU fragmentation"): a
// node's unallocated GPU share is fragmented for a task if the task cannot run there at all (too
// little CPU, too few GPUs with enough free share, a GPU model it does not accept, or no GPU need
// at all), and otherwise only the GPUs whose free share is below the task's per-GPU request are.
// A node's fragmentation is the expectation over a distribution of typical tasks; the cluster's
// is the sum over nodes. Memory is not part of the measure. Typical tasks are the most common
// request shapes of a task list, taken by count until they cover a popularity threshold (95 % in
// the paper). Pure functions on value types; thread-compatible.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace fleetsim {

inline constexpr std::int64_t kGpuMilli = 1000;  // one whole GPU, in milli-GPU
// The most GPUs a node of a GPU-sharing cluster may have (the openb trace's nodes have 1-8).
inline constexpr std::size_t kMaxSharedNodeGpus = 8;

// A set of GPU models as bits: bit i is model i of a GpuModelNames list. 0 means any model.
using GpuModelMask = std::uint64_t;
inline constexpr int kMaxGpuModels = 64;

// Names GPU models by small integers for masks; a model is added on first use.
class GpuModelNames {
 public:
  // The index of `name`, added if new; -1 if the list is full (kMaxGpuModels).
  int Index(const std::string& name);
  // The mask of `names`; 0 (any model) for an empty list. Returns false if the list is full.
  bool Mask(const std::vector<std::string>& names, GpuModelMask& mask);
  const std::vector<std::string>& names() const { return names_; }

 private:
  std::vector<std::string> names_;
};

// What a task asks of one node: CPU, and `gpus` GPUs with `gpu_milli` free each (0 GPUs and 0
// milli for a CPU-only task), on a GPU of one of `models` (0: any model).
struct TaskShape {
  std::int64_t cpu_milli = 0;
  std::int64_t gpu_milli = 0;  // per GPU, 1..1000; 0 for a CPU-only task
  std::int64_t gpus = 0;
  GpuModelMask models = 0;

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
  int model = -1;  // the GpuModelNames index of all its GPUs; -1 for a CPU-only node
  std::size_t gpu_count = 0;
  std::array<std::int32_t, kMaxSharedNodeGpus> gpu_free{};  // milli free on GPUs [0, gpu_count)

  bool Accepts(GpuModelMask models) const {
    return models == 0 || (model >= 0 && ((models >> model) & 1U) != 0);
  }
};

// The node's unallocated milli-GPU.
std::int64_t IdleMilli(const NodeFreeState& node);

// Milli-GPU of the node fragmented for one task shape.
std::int64_t FragmentedMilli(const NodeFreeState& node, const TaskShape& task);

// Σ weight × FragmentedMilli over the typical tasks, summed as the paper's artifact sums it (by
// fragment category, then the categories in a fixed order) so that FGD's truncated scores
// round alike.
double NodeFragmentation(const NodeFreeState& node, const TypicalTasks& typical);

// NodeFragmentation memoised by node state: free CPU, model and the GPUs' free shares as a
// multiset (GPU order does not change the measure). The caller clears it when the typical tasks
// change. Holds at most `max_states` states (then starts over). Not thread-safe.
class FragmentationMemo {
 public:
  explicit FragmentationMemo(std::size_t max_states = 1U << 20) : max_states_(max_states) {}

  double Get(const NodeFreeState& state, const TypicalTasks& typical);
  void Clear() { memo_.clear(); }

 private:
  struct StateKey {
    std::int64_t cpu_free_milli = 0;
    int model = 0;
    std::size_t gpu_count = 0;
    std::array<std::int32_t, kMaxSharedNodeGpus> sorted_free{};
    bool operator==(const StateKey&) const = default;
  };
  struct StateKeyHash {
    std::size_t operator()(const StateKey& key) const;
  };

  std::size_t max_states_;
  std::unordered_map<StateKey, double, StateKeyHash> memo_;
};

// A task in a list, with the text that orders equal counts: its model list as written, joined
// with '|' ("" for any model).
struct ListedTask {
  TaskShape shape{};
  std::string models_text{};
};

// The typical tasks of `tasks`: shapes grouped exactly, sorted by count descending — equal
// counts by the larger shape first (cpu, gpu_milli, gpus, then models_text) — and taken while
// the count covered so far is below `popularity` × the number of tasks (the shape that reaches
// it included), then weighted by count over the count taken. Computed as the paper's artifact
// does (threshold = popularity × 100 × tasks / 100; weight = (count / tasks) / (taken / tasks)),
// so the weights are its doubles. Empty for no tasks. Precondition: 0 < popularity <= 1.
TypicalTasks ComputeTypicalTasks(const std::vector<ListedTask>& tasks, double popularity);

// A listed task shape and how many tasks of a list have it.
struct CountedTask {
  ListedTask task{};
  std::int64_t count = 0;
};
// ComputeTypicalTasks for a list already grouped by shape: each shape once (as ShapeKey, i.e.
// cpu, gpu_milli, gpus and models_text, tells them apart), with its count (>= 1). For callers
// that keep counts as tasks arrive instead of the list. Precondition: 0 < popularity <= 1.
TypicalTasks ComputeTypicalTasksFromCounts(std::vector<CountedTask> counts, double popularity);

}  // namespace fleetsim
