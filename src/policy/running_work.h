// What the constraint-aware policy keeps between calls, so that a call costs little more on a
// fleet of 20,000 GPUs than on one of 64: the fleet's lanes (LaneLayout: the GPUs a plan may hand
// out whole, built once), and the running work on them (RunningWork), kept up to date from the
// view's placement changes rather than rebuilt from every running job: per lane, the estimated
// step at which the work that cannot move leaves it, kept as one bitset per step of the horizon.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <set>
#include <unordered_map>
#include <vector>

#include "fleetsim/policy/cluster_view.h"
#include "policy/horizon_plan.h"

namespace fleetsim {

// The lanes of a fleet, which never change during a run.
struct LaneLayout {
  std::vector<PlanLane> lanes;
  std::shared_ptr<const PlanShape> shape;
  std::vector<GpuId> gpu_of_lane;
  std::vector<std::int64_t> lane_of_gpu;               // -1: not a lane
  std::vector<LaneMask> pool_lanes;                    // by pool: its lanes
  std::vector<std::vector<std::uint32_t>> node_lanes;  // by node: its lanes
  LaneMask all;                                        // every lane
  std::size_t words = 0;
  bool identity = false;  // lane i is GPU i, for every GPU

  explicit LaneLayout(const ClusterView& view);

  // The lanes of `placement`'s GPUs, ascending and distinct.
  std::vector<std::uint32_t> LanesOf(const Allocation& placement) const;
};

// How the policy sees one running job: a resizable service (planned as a PlanRealtimeJob on the
// lanes it holds), or work pinned to its lanes until `end_step` (an absolute step: the step
// index, counted from time 0, from which it is expected to be gone; kPinnedForever: past any
// horizon).
struct RunningRole {
  bool service = false;
  std::int64_t end_step = 0;
};

inline constexpr std::int64_t kPinnedForever = std::numeric_limits<std::int64_t>::max() / 4;

class RunningWork {
 public:
  using Classify = std::function<RunningRole(const RunningJob&)>;

  RunningWork(const LaneLayout& layout, std::int64_t steps);

  // Brings the index up to the view: replays its placement changes (the first call reads every
  // running job instead) and notes the nodes that changed; `classify` is asked once per placement.
  void Update(const ClusterView& view, const Classify& classify);

  // The occupancy of the horizon that starts at absolute step `first_step` (steps x words,
  // PlanProblem::pinned): at step 0 every lane not free now except those held only by services;
  // at step t the lanes whose pinned work ends after first_step + t, and the lanes of nodes that
  // are out (not covered by running work) until the step they are expected back
  // (`node_back_step`: at least 1, relative to first_step).
  void Pinned(std::int64_t first_step, const LaneMask& free_now,
              const std::function<std::int64_t(NodeId)>& node_back_step,
              std::vector<std::uint64_t>& out);

  // Per lane, the first step (relative to first_step) at which the pinned work, the services and
  // the nodes out leave it, by their estimates (kPinnedForever: the horizon's length): 0 for a
  // lane free now. O(lanes).
  std::vector<std::int64_t> LaneFreeSteps(std::int64_t first_step, const LaneMask& free_now,
                                          const std::function<std::int64_t(NodeId)>& node_back_step,
                                          const ClusterView& view) const;

  // The running services, in the view's running order.
  std::vector<const RunningJob*> Services() const;
  bool Runs(JobIndex job) const { return entries_.contains(job); }

 private:
  struct Entry {
    RunningJob job;  // the placement is kept for services only
    std::vector<std::uint32_t> lanes;
    RunningRole role;
    std::size_t slot = 0;  // position in the view's running order
  };

  void Add(const RunningJob& running, const Classify& classify);
  void ReleaseLanes(JobIndex job, const Entry& entry);
  void Remove(JobIndex job);
  void SetLaneEnd(std::uint32_t lane);
  void MoveWindow(std::int64_t first_step);
  void FillStep(std::int64_t step);
  std::uint64_t* After(std::int64_t step) {
    return &after_[static_cast<std::size_t>(step % steps_) * layout_.words];
  }

  const LaneLayout& layout_;
  std::int64_t steps_;
  bool started_ = false;
  std::unordered_map<JobIndex, Entry> entries_;
  std::vector<JobIndex> slots_;                 // the view's running order
  std::vector<std::vector<JobIndex>> holders_;  // by lane: pinned work on it
  std::vector<std::int64_t> lane_end_;          // by lane: latest end of its pinned work, or -1
  std::vector<std::uint32_t> service_holders_;  // by lane: services on it
  LaneMask held_;                               // lanes with pinned work
  LaneMask covered_;                            // lanes with any running work
  std::int64_t window_ = -1;                    // first absolute step of after_
  std::vector<std::uint64_t> after_;  // ring: step a's bitset (lanes whose end > a) at a % steps
  std::set<NodeId> nodes_out_;
  std::set<JobIndex> services_;
};

}  // namespace fleetsim
