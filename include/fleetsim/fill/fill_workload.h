// The inputs of a fill experiment (docs/validation.md): the GPU nodes of an Alibaba openb node
// list as the nodes of a SharedCluster, the pods of an openb pod list as requests sorted by name,
// and the pods' typical tasks (the distribution FGD and the fragmentation measure read). Both
// files go through the checked openb readers (trace/alibaba_openb.h, format "alibaba-openb"), so
// a bad row is reported with its file and line. Value types; thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fleetsim/core/file_system.h"
#include "fleetsim/core/status.h"
#include "fleetsim/fleet/gpu_fragmentation.h"
#include "fleetsim/fleet/gpu_share_placement.h"

namespace fleetsim {

struct FillPod {
  std::string name;
  SharePod request;
};

struct FillWorkload {
  GpuModelNames models;
  std::vector<std::string> node_names;  // node-list order, as `nodes`
  std::vector<SharedNode> nodes;        // empty: nothing allocated
  std::vector<FillPod> pods;            // sorted by name
  TypicalTasks typical;                 // of every pod of the list
  std::int64_t gpu_capacity_milli = 0;
};

// Reads both files on `files`; typical tasks are taken to cover `popularity` of the pods (0.95 in
// the paper). Fails with the first problem as "file: message" / "file:line: message": a bad row, a
// node with more than kMaxSharedNodeGpus GPUs, no GPU node, or no pod asking for a GPU.
Status LoadFillWorkload(const FileSystem& files, const std::string& nodes_path,
                        const std::string& pods_path, double popularity, FillWorkload& out);

}  // namespace fleetsim
