// What a job's request allows of a placement: the rules the engine checks every start against
// (docs/architecture.md#decision-checking) and the placement helper follows, written once.
//  - GPU models: an empty list accepts any GPU; otherwise a GPU's catalog model must be named in
//    it, by its catalog name or one of its aliases (exact, case-sensitive). GPUs of a bare
//    {"gpus": N} fleet have no model and match no list.
//  - Spot: a job that is not spot_eligible takes nothing (GPU or node) from a pool of the spot
//  tier.
//  - MIG: a profile fits when its memory is at least gpu_memory_gb and, when gpu_milli is below
//    1000, its compute slices give at least that share (compute_slices / 7 >= gpu_milli / 1000).
//    gpu_milli 1000, the field's default, sets no compute floor.
//  - Host CPU and memory: cpu_milli / 1000 cores and memory_mib / 1024 GB (host memory_gb is read
//    as GiB). A GPU job's host need is split over the nodes holding its GPUs in proportion to its
//    GPUs on each: a node with k of the job's n GPUs carries need x k / n. A CPU-only job takes its
//    whole need on one node.
// Value functions; thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "fleetsim/fleet/fleet_spec.h"
#include "fleetsim/fleet/fleet_state.h"
#include "fleetsim/fleet/topology.h"
#include "fleetsim/workload/job.h"

namespace fleetsim {

inline constexpr double kMibPerGb = 1024;

// Host CPU cores and memory GB.
struct HostNeed {
  double cpu_cores = 0;
  double memory_gb = 0;

  bool any() const { return cpu_cores > 0 || memory_gb > 0; }
};

HostNeed HostNeedOf(const JobRequest& request);

bool AcceptsModel(const JobRequest& request, const GpuModel& model);
bool AcceptsTier(const JobRequest& request, const PoolSpec& pool);
// Model and tier together: the job may take GPUs of this pool.
bool AcceptsPool(const JobRequest& request, const PoolSpec& pool);
bool MigProfileFits(const JobRequest& request, const MigProfile& profile);
// The MIG profiles a pool offers jobs: its static layout's, every profile of its model when its
// MIG mode is dynamic, none when MIG is off.
std::vector<const MigProfile*> MigProfilesOffered(const PoolSpec& pool);

// "at least 20 GB of memory" or "at least 20 GB of memory and 500 milli-GPU of compute".
std::string MigNeedText(const JobRequest& request);
// "[H100-SXM, A100-80GB]"
std::string ModelListText(const JobRequest& request);

// The node shares of a GPU job holding `gpus` (distinct, ascending): need x k / n on each node
// holding k of them, in node order.
std::vector<NodeShare> SplitHostNeed(const HostNeed& need, std::span<const GpuId> gpus,
                                     const Topology& topology);

// Whether the node has `share` free now (with FleetState's tolerance).
bool NodeCanCarry(const FleetState& state, NodeId node, const HostNeed& share);

// Two shares equal within 1e-9 relative (amounts are computed in double precision).
bool SameShare(double a, double b);

}  // namespace fleetsim
