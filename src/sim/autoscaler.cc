// Deciding when autoscaled pools add and release nodes.
#include "sim/autoscaler.h"

#include <algorithm>

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
  for (const ScaledPool& scaled : pools_) {
    const std::int64_t queued = QueuedGpusFor(scaled, queue, requests);
    ScaleUp(scaled, queued, moves);
    TrackIdle(scaled, now);
    if (queued == 0) {
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

// GPUs asked for by queued jobs that accept the pool's GPU model.
std::int64_t Autoscaler::QueuedGpusFor(const ScaledPool& scaled, const JobQueue& queue,
                                       std::span<const JobRequest> requests) const {
  const std::string& model = ledger_.pools()[scaled.pool].gpu.name;
  std::int64_t gpus = 0;
  for (const JobIndex job : queue) {
    const JobRequest& request = requests[job];
    if (request.gpu_models.empty() ||
        std::find(request.gpu_models.begin(), request.gpu_models.end(), model) !=
            request.gpu_models.end()) {
      gpus += request.gpus;
    }
  }
  return gpus;
}

void Autoscaler::ScaleUp(const ScaledPool& scaled, std::int64_t queued, Moves& moves) {
  const std::int64_t per_node = ledger_.pools()[scaled.pool].node.gpus_per_node;
  std::int64_t coming = 0;
  for (const NodeId node : scaled.nodes) {
    coming += state_[node] == NodeState::kProvisioning ? per_node : 0;
  }
  std::int64_t missing = queued - ledger_.FreeWholeIn(scaled.pool) - coming;
  for (const NodeId node : scaled.nodes) {
    if (missing <= 0) {
      break;
    }
    if (state_[node] == NodeState::kReleased) {
      state_[node] = NodeState::kProvisioning;
      moves.provision.push_back(node);
      missing -= per_node;
    }
  }
}

// A kept node that is up and holds nothing is idle since the first call that saw it so.
void Autoscaler::TrackIdle(const ScaledPool& scaled, SimTime now) {
  const FleetState& state = ledger_.state();
  for (const NodeId node : scaled.nodes) {
    const bool idle = state_[node] == NodeState::kKept && state.IsUp(node) &&
                      !state.HoldsAnything(node);
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
