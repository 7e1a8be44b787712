// The request rules a placement must follow (see placement_rules.h).
#include "fleetsim/ledger/placement_rules.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

namespace fleetsim {

namespace {
constexpr double kTolerance = 1e-9;  // as FleetState's capacity sums
}  // namespace

HostNeed HostNeedOf(const JobRequest& request) {
  return {static_cast<double>(request.cpu_milli) / 1000.0,
          static_cast<double>(request.memory_mib) / kMibPerGb};
}

bool AcceptsModel(const JobRequest& request, const GpuModel& model) {
  const auto& names = request.gpu_models;
  if (names.empty()) {
    return true;
  }
  if (model.name.empty()) {
    return false;
  }
  return std::any_of(names.begin(), names.end(), [&](const std::string& name) {
    return name == model.name ||
           std::find(model.aliases.begin(), model.aliases.end(), name) != model.aliases.end();
  });
}

bool AcceptsTier(const JobRequest& request, const PoolSpec& pool) {
  return request.spot_eligible || pool.tier != PriceTier::kSpot;
}

bool AcceptsPool(const JobRequest& request, const PoolSpec& pool) {
  return AcceptsModel(request, pool.gpu) && AcceptsTier(request, pool);
}

bool MigProfileFits(const JobRequest& request, const MigProfile& profile) {
  const bool enough_memory = profile.memory_gb + kTolerance >= request.gpu_memory_gb;
  const bool enough_compute = request.gpu_milli >= kWholeGpuMilli ||
                              static_cast<std::int64_t>(profile.compute_slices) * kWholeGpuMilli >=
                                  request.gpu_milli * kMigComputeSlices;
  return enough_memory && enough_compute;
}

std::vector<const MigProfile*> MigProfilesOffered(const PoolSpec& pool) {
  std::vector<const MigProfile*> profiles;
  if (pool.mig == MigMode::kStatic) {
    for (const auto& [name, count] : pool.mig_layout) {
      if (const MigProfile* profile = pool.gpu.FindMigProfile(name)) {
        profiles.push_back(profile);
      }
    }
  } else if (pool.mig == MigMode::kDynamic) {
    for (const MigProfile& profile : pool.gpu.mig_profiles) {
      profiles.push_back(&profile);
    }
  }
  return profiles;
}

std::string MigNeedText(const JobRequest& request) {
  std::string text = fmt::format("at least {} GB of memory", request.gpu_memory_gb);
  if (request.gpu_milli < kWholeGpuMilli) {
    text += fmt::format(" and {} milli-GPU of compute", request.gpu_milli);
  }
  return text;
}

std::string ModelListText(const JobRequest& request) {
  return fmt::format("[{}]", fmt::join(request.gpu_models, ", "));
}

std::vector<NodeShare> SplitHostNeed(const HostNeed& need, std::span<const GpuId> gpus,
                                     const Topology& topology) {
  std::vector<NodeShare> shares;
  const auto n = static_cast<double>(gpus.size());
  std::size_t i = 0;
  while (i < gpus.size()) {
    const NodeId node = topology.NodeOf(gpus[i]);
    double k = 0;
    for (; i < gpus.size() && topology.NodeOf(gpus[i]) == node; ++i) {
      ++k;
    }
    shares.push_back({node, need.cpu_cores * k / n, need.memory_gb * k / n});
  }
  return shares;
}

bool NodeCanCarry(const FleetState& state, NodeId node, const HostNeed& share) {
  return share.cpu_cores <= state.FreeCpuCores(node) + kTolerance &&
         share.memory_gb <= state.FreeMemoryGb(node) + kTolerance;
}

bool SameShare(double a, double b) {
  return std::abs(a - b) <= kTolerance * std::max(1.0, std::abs(b));
}

}  // namespace fleetsim
