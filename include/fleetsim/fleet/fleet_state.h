// The complete allocation state of a fleet (FleetSpec + Topology): who holds which GPU, which MIG
// instance, which share of a GPU, and how much CPU and memory of each node. An Allocation is the
// set of grants one job holds; CheckAllocation checks it as a whole (including grants of one
// allocation that collide with each other), Apply takes it and Release gives it back.
//
// Grant kinds, per GPU:
//  - kWhole: the GPU exclusively. Not on a GPU of a static-MIG pool, nor on one with MIG
//    instances or fractional shares in use.
//  - kMig: one GPU instance by exact geometry (profile + memory-slice start). A pool with
//    MigMode::kStatic has every GPU pre-partitioned by PlaceLayout(pool.gpu, pool.mig_layout): the
//    grant must name one of those instances and it must be free. A GPU of a MigMode::kDynamic pool
//    takes any placement MigGpuState::CheckPlacement admits, unless the GPU is held whole or
//    shared.
//  - kFraction: milli-GPU (1..1000) plus GPU memory in GB, as Kubernetes GPU sharing and the
//    Alibaba traces express them: the milli and the memory of a GPU's shares sum to at most 1000
//    and the model's memory_gb. Shares are time-slicing without isolation: fleetsim promises no
//    speed to a share, it only keeps the sums within the GPU. Allowed on GPUs of pools with MIG
//    off, and on dynamic-MIG GPUs with no instance in use; never on a GPU held whole. A GPU of a
//    bare {"gpus": N} fleet has no model, so its memory is not limited.
// A dynamic-MIG GPU is, at any time, idle, held whole, in MIG mode (instances in use) or shared;
// only an idle one changes mode.
//
// Per node: CPU cores and memory GB, up to the pool's cpu_cores / memory_gb. When the pool leaves
// one unset the node has an unlimited amount of it (its free amount reads as +infinity).
//
// Node availability: a node is up, cordoned (its spot capacity is being reclaimed after a notice:
// what is held stays until released, nothing new is granted) or down (reclaimed or failed:
// nothing is held, nothing can be granted). Every "free" query reads 0 / false for a GPU or node
// that is not up, and CheckAllocation names the unavailable node.
//
// Dynamic MIG repartitioning: CanRepartition(gpu) says whether a dynamic GPU may change its
// geometry now (no instance in use). FleetState does not charge time for it: it only carries
// repartition_seconds (a constructor argument, default 0), which the engine charges when it
// repartitions a GPU.
//
// Release checks that the resources are held (the GPU whole, the instance placed, at least that
// much share, at least that much node CPU/memory); it cannot tell one holder's grant from another
// holder's identical one. Sums of GB and cores are compared with a tolerance of 1e-9.
//
// Owned by one simulation; not thread-safe. Holds pointers into its own copy of the pools, so it
// can be moved but not copied.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "fleetsim/core/status.h"
#include "fleetsim/fleet/fleet.h"
#include "fleetsim/fleet/fleet_spec.h"
#include "fleetsim/fleet/mig.h"
#include "fleetsim/fleet/topology.h"

namespace fleetsim {

using NodeId = std::uint32_t;

enum class NodeAvailability : std::uint8_t { kUp, kCordoned, kDown };

// One GPU-side grant.
struct Grant {
  enum class Kind : std::uint8_t { kWhole, kMig, kFraction };
  Kind kind = Kind::kWhole;
  GpuId gpu = 0;
  const MigProfile* profile = nullptr;  // kMig: matched by name against the GPU's model
  int start = 0;                        // kMig: memory-slice start
  int milli = 0;                        // kFraction: 1..1000
  double gpu_memory_gb = 0;             // kFraction: >= 0

  static Grant Whole(GpuId gpu) { return {Kind::kWhole, gpu, nullptr, 0, 0, 0}; }
  static Grant Mig(GpuId gpu, const MigProfile& profile, int start) {
    return {Kind::kMig, gpu, &profile, start, 0, 0};
  }
  static Grant Fraction(GpuId gpu, int milli, double gpu_memory_gb) {
    return {Kind::kFraction, gpu, nullptr, 0, milli, gpu_memory_gb};
  }
};

// CPU cores and memory GB on one node.
struct NodeShare {
  NodeId node = 0;
  double cpu_cores = 0;
  double memory_gb = 0;
};

// Everything one holder is granted.
struct Allocation {
  std::vector<Grant> gpus{};
  std::vector<NodeShare> nodes{};
};

class FleetState {
 public:
  // Preconditions (checked): the topology was built from `spec`; every static layout places.
  FleetState(const FleetSpec& spec, const Topology& topology, double repartition_seconds = 0);
  FleetState(const FleetState&) = delete;
  FleetState& operator=(const FleetState&) = delete;
  FleetState(FleetState&&) = default;
  FleetState& operator=(FleetState&&) = default;

  // OK when `allocation` can be taken now; otherwise refused, naming the GPU or node and the
  // numbers.
  Status CheckAllocation(const Allocation& allocation) const;
  // Precondition (checked): CheckAllocation(allocation).ok().
  void Apply(const Allocation& allocation);
  // Precondition (checked): the allocation's resources are held.
  void Release(const Allocation& allocation);
  // Takes back an allocation just released (a rejected resize), even on a node that has been
  // cordoned since it was granted. Precondition: nothing else was granted in between.
  void Restore(const Allocation& allocation);

  // ---- Shape. ----
  std::int64_t gpus() const { return static_cast<std::int64_t>(gpu_use_.size()); }
  std::int64_t nodes() const { return static_cast<std::int64_t>(node_use_.size()); }
  NodeId NodeOf(GpuId gpu) const;
  MigMode MigModeOf(GpuId gpu) const;
  const GpuModel& ModelOf(GpuId gpu) const;
  // The static layout's instances of a static-MIG GPU; empty for other GPUs.
  std::span<const MigPlacement> StaticLayout(GpuId gpu) const;

  // ---- Availability. ----
  NodeAvailability Availability(NodeId node) const;
  bool IsUp(NodeId node) const { return Availability(node) == NodeAvailability::kUp; }
  bool IsGpuUp(GpuId gpu) const { return IsUp(NodeOf(gpu)); }
  // The node's GPUs, [first, end).
  GpuId FirstGpuOfNode(NodeId node) const;
  GpuId EndGpuOfNode(NodeId node) const;
  // Whether anything (a GPU grant or a CPU/memory share) is held on the node.
  bool HoldsAnything(NodeId node) const;
  // Precondition (checked): going kDown, nothing is held on the node.
  void SetAvailability(NodeId node, NodeAvailability availability);

  // ---- Queries. ----
  // GPUs that a kWhole grant could take now.
  std::int64_t free_whole_gpus() const { return tally_.free_whole; }
  bool CanTakeWhole(GpuId gpu) const;
  bool IsHeldWhole(GpuId gpu) const;
  // The MIG instances in use on the GPU (for a static GPU: the layout's instances that are held).
  const MigGpuState& Mig(GpuId gpu) const;
  // Whether a static GPU's layout instance `profile` at `start` exists and is free.
  bool IsStaticSlotFree(GpuId gpu, const MigProfile& profile, int start) const;
  // What a kFraction grant could still take on the GPU; 0 when it cannot be shared now.
  int FreeMilli(GpuId gpu) const;
  double FreeGpuMemoryGb(GpuId gpu) const;
  int Fractions(GpuId gpu) const;
  // Free CPU cores and memory GB of a node; +infinity when the pool leaves it unlimited.
  double FreeCpuCores(NodeId node) const;
  double FreeMemoryGb(NodeId node) const;

  // A dynamic-MIG GPU with no instance in use. False for every other GPU.
  bool CanRepartition(GpuId gpu) const;
  double repartition_seconds() const { return repartition_seconds_; }

  // Verifies per resource that held + free == capacity and nothing is over-subscribed, and that
  // the fleet-wide counters agree with the per-GPU state (checked; O(GPUs + nodes)).
  void CheckInvariants() const;

 private:
  struct GpuUse {
    bool whole = false;
    int fractions = 0;
    int milli = 0;
    double memory_gb = 0;
    MigGpuState mig{};
  };
  struct NodeUse {
    int shares = 0;
    double cpu_cores = 0;
    double memory_gb = 0;
  };
  struct Tally {
    std::int64_t free_whole = 0;
    std::int64_t whole = 0;
    std::int64_t mig_instances = 0;
    std::int64_t fractions = 0;
    std::int64_t milli = 0;
  };
  struct Pool {
    std::string name{};
    GpuModel model{};
    MigMode mig = MigMode::kOff;
    std::vector<MigPlacement> layout{};  // kStatic: placements into `model`'s profiles
    std::optional<double> cpu_cores{};
    std::optional<double> memory_gb{};
  };

  void BuildPools(const FleetSpec& spec);
  void IndexGpus(const Topology& topology);
  const Pool& PoolOf(GpuId gpu) const { return pools_[pool_of_gpu_[gpu]]; }
  const Pool& PoolOfNode(NodeId node) const { return pools_[pool_of_node_[node]]; }
  double GpuMemoryCapacity(GpuId gpu) const;
  bool Shareable(GpuId gpu, const GpuUse& use) const;
  bool Idle(const GpuUse& use) const;
  Tally TallyOf(GpuId gpu, const GpuUse& use) const;
  void AddTally(const Tally& t, std::int64_t sign);

  Status CheckGrant(const Grant& grant, const GpuUse& use) const;
  Status CheckWhole(GpuId gpu, const GpuUse& use) const;
  Status CheckMig(const Grant& grant, const GpuUse& use) const;
  Status CheckFraction(const Grant& grant, const GpuUse& use) const;
  Status CheckNodeShare(const NodeShare& share, const NodeUse& use) const;
  // Refused, saying why, when nothing can be granted on the node (OK when it is up).
  Status CheckAvailable(NodeId node) const;
  // The pool model's profile of the grant's name, or nullptr.
  const MigProfile* ResolveProfile(const Grant& grant) const;

  void Take(const Allocation& allocation);  // unchecked Apply
  void ApplyGrant(const Grant& grant, GpuUse& use) const;
  void ReleaseGrant(const Grant& grant, GpuUse& use) const;
  static void ApplyNodeShare(const NodeShare& share, NodeUse& use);

  std::vector<Pool> pools_;
  std::vector<std::uint32_t> pool_of_gpu_;
  std::vector<std::uint32_t> pool_of_node_;
  std::vector<NodeId> node_of_gpu_;
  std::vector<GpuUse> gpu_use_;
  std::vector<NodeUse> node_use_;
  std::vector<GpuId> first_gpu_of_node_;  // by node, plus the GPU count at the end
  std::vector<NodeAvailability> availability_;
  Tally tally_;
  double repartition_seconds_ = 0;
};

}  // namespace fleetsim
