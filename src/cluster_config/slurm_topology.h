// Slurm's topology.conf, in its two forms: topology/block (BlockName=NAME Nodes=HOSTS lines and
// one BlockSizes= line: the blocks are the NVLink domains of GB200-style racks) and topology/tree
// (SwitchName=NAME with Nodes= for a leaf switch or Switches= for one above). Read for the
// slurm.conf importer's --topology (docs/cluster-configs.md). Slurm's rules are checked: one
// form per file, a host in at most one block, a switch with Nodes= or Switches= but not both,
// every switch named defined and none its own ancestor, one BlockSizes line, each size the
// first times a power of two. A block holds at most 10,000 hosts (a rack's most).
// Internal to the cluster_config module. Thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fleetsim/core/file_system.h"
#include "fleetsim/core/status.h"

namespace fleetsim {

// A block, or a leaf switch: hosts that share it.
struct TopologyGroup {
  std::string name;   // BlockName or SwitchName
  std::string where;  // "file:line"
  std::vector<std::string> hosts;
};

struct SlurmTopology {
  bool blocks = false;                    // topology/block; false: topology/tree
  std::vector<TopologyGroup> groups;      // blocks, or leaf switches, in the order written
  std::vector<std::int64_t> block_sizes;  // BlockSizes=, as written; empty when not given
  std::int64_t switches = 0;              // tree: every switch, leaves and those above them
  std::vector<std::string> ignored;       // fields read but not modelled ("SwitchName LinkSpeed")
};

// Reads the topology.conf at `path` and its includes. Fails at file:line on anything Slurm
// would refuse, on an include that cannot be read, and past kMaxHostListHosts host and switch
// names in all.
Status ReadSlurmTopology(const FileSystem& files, const std::string& path, SlurmTopology& topology);

}  // namespace fleetsim
