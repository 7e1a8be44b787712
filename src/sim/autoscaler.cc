// Deciding when autoscaled pools add and release nodes.
#include "sim/autoscaler.h"

#include <algorithm>

#include "fleetsim/ledger/placement_rules.h"

namespace fleetsim {

Autoscaler::Autoscaler(const FleetLedger& ledger)
    : ledger_(ledger),
      state_(static_cast<std::size_t>(ledger.state().nodes()), NodeState::kKept),
      idle_since_(static_cast<std::size_t>(ledger.state().nodes()), kTimeNever) {
  for (PoolIndex pool = 0; pool < ledger.pools().size(); ++pool) {
    if (!ledger.pools()[pool].autoscale.enabled) {
      continue;
    }
    ScaledPool scaled{.pool = pool};
    for (NodeId node = 0; node < state_.size(); ++node) {
      if (ledger.PoolOfNode(node) == pool) {
        scaled.nodes.push_back(node);
      }
    }
    pools_.push_back(std::move(scaled));
  }
}

std::vector<NodeId> Autoscaler::InitialReleases() {
  std::vector<NodeId> released;
  for (const ScaledPool& scaled : pools_) {
    const auto keep = static_cast<std::size_t>(ledger_.pools()[scaled.pool].autoscale.min_nodes);
    for (std::size_t k = keep; k < scaled.nodes.size(); ++k) {
      state_[scaled.nodes[k]] = NodeState::kReleased;
      released.push_back(scaled.nodes[k]);
    }
  }
  return released;
}

Autoscaler::Moves Autoscaler::Decide(SimTime now, const JobQueue& queue,
                                     std::span<const JobRequest> requests) {
  Moves moves;
  std::vector<JobIndex> waiting(queue.begin(), queue.end());  // not yet counted by a pool
  for (const ScaledPool& scaled : pools_) {
    const bool any_queued = ScaleUp(scaled, waiting, requests, moves);
    TrackIdle(scaled, now);
    if (!any_queued) {
      ScaleDown(scaled, now, moves);
    }
  }
  return moves;
}

void Autoscaler::CameUp(NodeId node) {
  if (state_[node] == NodeState::kProvisioning) {
    state_[node] = NodeState::kKept;
  }
}

// Counts the waiting jobs the pool accepts against what it has free or coming, then against its
// released nodes, and provisions those nodes; the jobs it counts are taken out of `waiting`, so a
// later pool does not provision for them too. Jobs still queued though what the pool has covers
// their GPUs (their GPUs are spread over nodes, or they need none) bring one node when none is
// on its way. Returns whether any waiting job accepts the pool.
bool Autoscaler::ScaleUp(const ScaledPool& scaled, std::vector<JobIndex>& waiting,
                         std::span<const JobRequest> requests, Moves& moves) {
  const PoolSpec& pool = ledger_.pools()[scaled.pool];
  const std::int64_t per_node = pool.node.gpus_per_node;
  std::int64_t coming = 0;
  std::int64_t released = 0;
  for (const NodeId node : scaled.nodes) {
    coming += state_[node] == NodeState::kProvisioning ? 1 : 0;
    released += state_[node] == NodeState::kReleased ? 1 : 0;
  }
  std::int64_t have = ledger_.FreeWholeIn(scaled.pool) + coming * per_node;
  const std::int64_t can_add = released * per_node;
  std::int64_t need = 0;
  bool accepted = false;
  std::vector<JobIndex> left;
  for (const JobIndex job : waiting) {
    const JobRequest& request = requests[job];
    if (!AcceptsPool(request, pool)) {
      left.push_back(job);
      continue;
    }
    accepted = true;
    if (request.gpus <= have) {
      have -= request.gpus;
    } else if (request.gpus - have <= can_add - need) {
      need += request.gpus - have;
      have = 0;
    } else {
      left.push_back(job);  // more than this pool can bring: another pool may
    }
  }
  waiting = std::move(left);
  std::int64_t nodes = (need + per_node - 1) / per_node;
  if (nodes == 0 && accepted && coming == 0) {
    nodes = 1;
  }
  for (const NodeId node : scaled.nodes) {
    if (nodes <= 0) {
      break;
    }
    if (state_[node] == NodeState::kReleased) {
      state_[node] = NodeState::kProvisioning;
      moves.provision.push_back(node);
      --nodes;
    }
  }
  return accepted;
}

// A kept node that is up and holds nothing is idle since the first call that saw it so.
void Autoscaler::TrackIdle(const ScaledPool& scaled, SimTime now) {
  const FleetState& state = ledger_.state();
  for (const NodeId node : scaled.nodes) {
    const bool idle =
        state_[node] == NodeState::kKept && state.IsUp(node) && !state.HoldsAnything(node);
    if (!idle) {
      idle_since_[node] = kTimeNever;
    } else if (idle_since_[node] == kTimeNever) {
      idle_since_[node] = now;
    }
  }
}

void Autoscaler::ScaleDown(const ScaledPool& scaled, SimTime now, Moves& moves) {
  const Autoscaling& rule = ledger_.pools()[scaled.pool].autoscale;
  std::int64_t kept = 0;
  for (const NodeId node : scaled.nodes) {
    kept += state_[node] != NodeState::kReleased ? 1 : 0;
  }
  for (auto it = scaled.nodes.rbegin(); it != scaled.nodes.rend(); ++it) {
    const NodeId node = *it;
    if (idle_since_[node] == kTimeNever) {
      continue;
    }
    const SimTime due = idle_since_[node] + rule.idle_release;
    if (due > now) {
      moves.next_check = std::min(moves.next_check, due);
    } else if (kept > rule.min_nodes) {
      state_[node] = NodeState::kReleased;
      idle_since_[node] = kTimeNever;
      moves.release.push_back(node);
      --kept;
    }
  }
}

}  // namespace fleetsim
