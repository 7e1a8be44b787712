// The nodes of a fleet as a run starts with them.
#include "sim/nodes_at_start.h"

#include <utility>

namespace fleetsim {

std::vector<NodeAtStart> NodesAtStart(const FleetLedger& ledger) {
  const FleetState& state = ledger.state();
  std::vector<NodeAtStart> nodes;
  for (NodeId node = 0; std::cmp_less(node, state.nodes()); ++node) {
    nodes.push_back({.pool = ledger.PoolOfNode(node),
                     .first_gpu = state.FirstGpuOfNode(node),
                     .end_gpu = state.EndGpuOfNode(node),
                     .down = state.Availability(node) == NodeAvailability::kDown});
  }
  return nodes;
}

}  // namespace fleetsim
