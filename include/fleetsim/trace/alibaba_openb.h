// The node side of the Alibaba GPU cluster trace v2023 ("openb"): reading a node list
// (`openb_node_list_gpu_node.csv`, `sn,cpu_milli,memory_mib,gpu,model`) and turning it into a
// fleet. The pod side is the trace format "alibaba-openb" in the format registry (formats.h).
// docs/trace-formats.md ("Alibaba GPU v2023") documents both. Value types and free functions;
// thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fleetsim/core/file_system.h"
#include "fleetsim/core/status.h"
#include "fleetsim/fleet/catalog.h"
#include "fleetsim/fleet/fleet_spec.h"

namespace fleetsim {

// One row of a node list. A CPU-only node has gpus 0 and an empty model.
struct OpenbNode {
  std::string sn;               // the node's name ("openb-node-0227")
  std::int64_t cpu_milli = 0;   // thousandths of a core
  std::int64_t memory_mib = 0;  // host memory
  std::int64_t gpus = 0;
  std::string model;      // as written in the trace ("V100M32"); a catalog name or alias
  std::int64_t line = 0;  // the row's line in the node list
};

// Reads the node list at `path` on `files` row by row, appending to `out`. Every GPU node's model
// must be in `catalog` (by name or alias). Fails with the first problem, as "path: message" or
// "path:line: message" (a wrong column count, a non-numeric value, an unknown model naming the
// known ones, a repeated sn, a list without GPU nodes...); on error `out` is left as it was.
Status LoadOpenbNodes(const FileSystem& files, const std::string& path, const Catalog& catalog,
                      std::vector<OpenbNode>& out);

// The fleet of the GPU nodes: one pool per distinct (model, GPU count, CPU, memory), in order of
// first appearance, with a node template made for it (no NVLink: each GPU is its own domain;
// one rack per pool) and the node's CPU cores and memory (GiB) as the pool's. CPU-only nodes
// are left out: a FleetSpec has no GPU-less nodes. Every model must be in `catalog` (as
// LoadOpenbNodes with the same catalog guarantees).
FleetSpec OpenbFleet(const std::vector<OpenbNode>& nodes, const Catalog& catalog);

}  // namespace fleetsim
