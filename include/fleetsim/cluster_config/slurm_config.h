// A fleet and scheduler parameters from a Slurm cluster's configuration: slurm.conf (NodeName,
// NodeSet and PartitionName lines, include files, PriorityWeight*/PriorityDecayHalfLife and the
// other multifactor settings, SchedulerParameters=bf_*) and, optionally, gres.conf (Name=gpu
// lines: Type, File, Count, NodeName) and topology.conf (slurm_topology.h: NVLink blocks become
// domains and racks). docs/cluster-configs.md gives the mapping. Every line is
// accounted for: what is modelled is used, what is not is named in a note, what is malformed is
// an error at file:line. Thread-compatible.
#pragma once

#include <string>

#include "fleetsim/cluster_config/imported_fleet.h"
#include "fleetsim/core/file_system.h"
#include "fleetsim/core/status.h"
#include "fleetsim/fleet/catalog.h"

namespace fleetsim {

struct SlurmImportOptions {
  GpuTypeMap types;
  std::string topology;               // topology.conf (topology/block or tree); "": none
  const Catalog* catalog = nullptr;   // nullptr: the built-in catalog
  const FileSystem* files = nullptr;  // nullptr: the disk
};

struct SlurmImport {
  ImportedFleet fleet;  // when status is OK
  Status status;        // "file:line: message" when the configuration cannot be imported
};

// `gres_conf` empty: slurm.conf alone (GRES counts from its Gres= fields).
SlurmImport ImportSlurmFleet(const std::string& slurm_conf, const std::string& gres_conf,
                             const SlurmImportOptions& options);

}  // namespace fleetsim
