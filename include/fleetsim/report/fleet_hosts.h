// The host names the exports give a fleet's nodes (docs/exports.md#host-names): node k (from 1)
// of pool P is "<P>-<k>", P lower-cased with every character other than a-z, 0-9 and '-'
// replaced by '-', k zero-padded to 3 digits (more when the pool has more nodes); a bare
// {"gpus": N} fleet is one node, "gpu-001". Each GPU's host, its index on the host (the
// `gpu` and `nvidia<i>` of dcgm-exporter), its pool and catalog model, with GPUs numbered
// 0..N-1 in pool order, node by node (fleet/fleet_spec.h). Slurm host lists of sets of hosts.
// Value types; pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fleetsim/fleet/fleet.h"
#include "fleetsim/fleet/fleet_spec.h"

namespace fleetsim {

struct HostGpu {
  std::size_t host = 0;             // index into FleetHosts::hosts
  std::int64_t index = 0;           // the GPU's index on its host, from 0
  std::size_t pool = 0;             // its pool (0 for a bare fleet)
  const GpuModel* model = nullptr;  // its catalog model; nullptr on a bare fleet
};

// One host's name, split where a Slurm host list ranges over it: prefix + zero-padded number.
struct HostName {
  std::string prefix;  // "h100-"
  std::int64_t number = 0;
  int width = 3;

  std::string Text() const;
};

struct FleetHosts {
  std::vector<HostName> hosts;  // every node, in fleet order
  std::vector<HostGpu> gpus;    // by GpuId
};

// The hosts and GPUs of `fleet` (which must outlive the result: models point into it). Two pools
// whose names read the same once lower-cased get the pool's index after the name ("a-p2-001"),
// or the next free index when that name is taken too.
FleetHosts HostsOf(const FleetSpec& fleet);

// The hosts holding `gpus` as a Slurm host list: hosts of one prefix in ranges,
// "h100-[001-003,005],a100-001", in fleet order; "None assigned" when `gpus` is empty.
std::string HostListOf(const FleetHosts& hosts, const std::vector<GpuId>& gpus);

}  // namespace fleetsim
