// The placement helper policies share. ChoosePlacement finds a placement for a request on what a
// FleetLedger has free now, one the engine accepts (every rule of placement_rules.h), or says
// there is none. Which legal placement it picks is the policy's PlacementStrategy
// (placement_strategy.h); the rules of the default, "topology-aware", are:
//  - whole GPUs (sharing "none"), of the accepted pools only: the largest size in
//    [gpus, MaxGpus()] that the free GPUs allow, and if that fails (host capacity, locality) the
//    smallest; or exactly the size the policy asks for. Power-of-two block jobs take an aligned
//    contiguous block in one NVLink domain (FindContiguousBlock, tightest domain first), trying
//    each power of two from the largest down; NVLink-required jobs take GPUs of one domain (the
//    tightest that holds them); all others a topology-aware set spanning as few domains as
//    possible (FindTopologyAware; on a one-domain fleet, the lowest-numbered free GPUs). A job
//    with host needs only uses NVLink domains whose every node could carry its share even holding
//    as many of its GPUs as it can (need x min(n, GPUs per node) / n), so the split always fits;
//  - a MIG instance: the fitting profiles of the accepted MIG pools, smallest first (memory, then
//    compute slices, then name), each placed by FindMigSlot (a static slot, then a GPU already in
//    MIG mode, then an idle dynamic GPU) on a GPU whose node can carry the host need;
//  - a fractional share: FindFractionalBestFit over accepted GPUs whose node can carry the host
//    need;
//  - a CPU-only job: the node (of an accepted tier) with the least free CPU that fits (best fit;
//    nodes with unlimited CPU last), ties to the lowest node.
// The other strategies change only the choice among the GPUs, slots and nodes these filters
// allow (sizes, pools, blocks, NVLink and host rules stay the same).
// The `share-*` strategies (PlacementStrategy::share_scorer; src/policy/share_scoring.cc) put a
// GPU-sharing scorer of gpu_share_placement.h in front of the topology-aware rules. It places a
// fractional share, a CPU-only job, and a whole-GPU job of a fixed (or exact) size of at most
// kMaxSharedNodeGpus GPUs that is not a block, on one node: among the nodes that are up, of an
// accepted pool (CPU-only: tier), that can carry the whole host need and have enough usable GPUs
// (a share: milli and GPU memory free; whole: free whole) — for NVLink-preferred or -required
// jobs only nodes inside one NVLink domain — the highest score wins, ties to the lowest node
// (share-random: uniform, drawn from a generator seeded by the job id). GPUs: the scorer's rule
// for a share (FGD's choice, random, else best fit), the lowest free for whole GPUs. FGD scores
// against the ledger's typical tasks (FleetLedger::typical_tasks). Requests it does not cover,
// covered ones no node can take, and every request on a fleet with a node of more than
// kMaxSharedNodeGpus GPUs take the topology-aware rules. docs/policies.md ("GPU-sharing
// strategies") has the details.
// Cost: O(log domains) plus the domains scanned for unconstrained whole-GPU jobs; filtered
// searches may walk every domain, and MIG, fractional and CPU-only searches scan every GPU or node
// (first-fit blocks: one block search per candidate domain, lowest first); the share-* scorers
// read every GPU of the accepted pools and score every candidate node.
//
// PlacementPlanner lets a policy place several jobs in one call: each placement it finds is held
// on the engine's ledger, so the next search (and the view) sees it taken. The engine owns the
// planner (an EnginePlanner). After the call it walks the decisions in order: a start whose
// placement is the next hold, unchanged, takes the hold over (it was checked against the fleet when
// it was taken, in the same order); at the first start that is not, every hold left is released and
// the rest is checked and applied from scratch. Holds no decision took over are released at the
// end. Not thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fleetsim/fleet/fleet_state.h"
#include "fleetsim/workload/job.h"

namespace fleetsim {

class FleetLedger;         // fleetsim/ledger/fleet_ledger.h
struct PlacementStrategy;  // placement_strategy.h (which includes the policy headers)

// The default strategy, sized by the helper.
std::optional<Allocation> ChoosePlacement(const FleetLedger& ledger, const JobRequest& request);
// With `strategy`; `exact_gpus`, if given, is the whole-GPU count to place instead of the helper's
// choice (precondition, checked: in [gpus, MaxGpus()], a power of two for block jobs).
std::optional<Allocation> ChoosePlacement(const FleetLedger& ledger, const JobRequest& request,
                                          const PlacementStrategy& strategy,
                                          std::optional<std::int64_t> exact_gpus = std::nullopt);

// What a policy holds placements with during one call (Policy::Decide's second argument).
class PlacementPlanner {
 public:
  PlacementPlanner(const PlacementPlanner&) = delete;
  PlacementPlanner& operator=(const PlacementPlanner&) = delete;

  // ChoosePlacement on what is free now, net of what this call holds already; holds the answer.
  std::optional<Allocation> Place(const JobRequest& request);
  std::optional<Allocation> Place(const JobRequest& request, const PlacementStrategy& strategy,
                                  std::optional<std::int64_t> exact_gpus = std::nullopt);
  // Holds a placement the policy built itself: OK when held, else refused with why it cannot be
  // taken.
  Status Hold(const Allocation& allocation);
  // Holds not yet taken over by a start.
  std::size_t holds() const { return holds_.size() - taken_over_; }

 protected:
  explicit PlacementPlanner(FleetLedger& ledger) : ledger_(ledger) {}
  ~PlacementPlanner() = default;
  bool TakeOver(const Allocation& placement);
  void Rollback();

 private:
  FleetLedger& ledger_;
  std::vector<Allocation> holds_;
  std::size_t taken_over_ = 0;  // holds_[0, taken_over_) belong to started jobs
};

// The engine's side of a planner: it hands the planner to a policy's Decide, then, in decision
// order, lets each start take its hold over, and releases what is left. A policy sees only the
// PlacementPlanner base, so it cannot take a hold over or drop the holds itself.
class EnginePlanner final : public PlacementPlanner {
 public:
  explicit EnginePlanner(FleetLedger& ledger) : PlacementPlanner(ledger) {}
  // True if `placement` is the next hold, which the start now owns (the ledger already has it);
  // otherwise releases every hold left and returns false.
  bool TakeOver(const Allocation& placement) { return PlacementPlanner::TakeOver(placement); }
  // Releases every hold not taken over, newest first.
  void Rollback() { PlacementPlanner::Rollback(); }
};

}  // namespace fleetsim
