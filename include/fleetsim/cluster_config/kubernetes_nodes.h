// A fleet from a Kubernetes cluster's GPU nodes: the output of `kubectl get nodes -o json` (or
// `-o yaml`, one Node or a List), read with the NVIDIA GPU Operator's labels and resources:
// allocatable `nvidia.com/gpu` and `nvidia.com/mig-<profile>` (the mixed MIG strategy), the
// labels `nvidia.com/gpu.product`, `nvidia.com/gpu.count`, `nvidia.com/gpu.replicas` and
// `nvidia.com/mig.strategy`, node CPU and memory; time-slicing replicas from the labels or from
// the device plugin's sharing config. Nodes of one shape become one pool.
// docs/cluster-configs.md gives the mapping. Thread-compatible.
#pragma once

#include <string>

#include "fleetsim/cluster_config/imported_fleet.h"
#include "fleetsim/core/file_system.h"
#include "fleetsim/core/status.h"
#include "fleetsim/fleet/catalog.h"

namespace fleetsim {

struct KubernetesImportOptions {
  GpuTypeMap types;
  std::string sharing_config;         // the device plugin's config file (or its ConfigMap); "" none
  const Catalog* catalog = nullptr;   // nullptr: the built-in catalog
  const FileSystem* files = nullptr;  // nullptr: the disk
};

struct KubernetesImport {
  ImportedFleet fleet;  // when status is OK
  Status status;        // "file: items[2] (node 'x'): message" when the nodes cannot be imported
};

KubernetesImport ImportKubernetesNodes(const std::string& path,
                                       const KubernetesImportOptions& options);

}  // namespace fleetsim
