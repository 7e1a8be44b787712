// Building and describing placements for decisions.
#include "fleetsim/policy/policy.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace fleetsim {

Allocation WholeGpus(std::span<const GpuId> gpus) {
  Allocation allocation;
  allocation.gpus.reserve(gpus.size());
  for (const GpuId gpu : gpus) {
    allocation.gpus.push_back(Grant::Whole(gpu));
  }
  return allocation;
}

namespace {

std::string DescribeGrant(const Grant& grant) {
  if (grant.kind == Grant::Kind::kMig) {
    return fmt::format("MIG {} at slice {} of GPU {}",
                       grant.profile == nullptr ? "(no profile)" : grant.profile->name, grant.start,
                       grant.gpu);
  }
  return fmt::format("{} milli-GPU and {} GB of GPU {}", grant.milli, grant.gpu_memory_gb,
                     grant.gpu);
}

}  // namespace

std::string DescribeAllocation(const Allocation& allocation) {
  std::vector<std::string> parts;
  std::vector<GpuId> whole;
  for (const Grant& grant : allocation.gpus) {
    if (grant.kind == Grant::Kind::kWhole) {
      whole.push_back(grant.gpu);
    }
  }
  if (!whole.empty()) {
    parts.push_back(fmt::format("GPUs [{}]", fmt::join(whole, ", ")));
  }
  for (const Grant& grant : allocation.gpus) {
    if (grant.kind != Grant::Kind::kWhole) {
      parts.push_back(DescribeGrant(grant));
    }
  }
  for (const NodeShare& share : allocation.nodes) {
    parts.push_back(
        fmt::format("node {} ({} CPU cores, {} GB)", share.node, share.cpu_cores, share.memory_gb));
  }
  return parts.empty() ? "nothing" : fmt::format("{}", fmt::join(parts, " + "));
}

}  // namespace fleetsim
