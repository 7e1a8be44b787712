// ChoosePlacement (the shared placement helper) and PlacementPlanner (holds within one call).
#include "fleetsim/policy/placement_choice.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <tuple>

#include "fleetsim/core/check.h"
#include "fleetsim/policy/placement_rules.h"
#include "fleetsim/policy/policy.h"

namespace fleetsim {

namespace {

// The pools a request may take GPUs from. Nothing is allocated when it accepts them all (the
// common case, checked first).
class Accepted {
 public:
  Accepted(const FleetLedger& ledger, const JobRequest& request) {
    const auto pools = ledger.pools();
    all_ = std::all_of(pools.begin(), pools.end(),
                       [&](const PoolSpec& pool) { return AcceptsPool(request, pool); });
    if (!all_) {
      for (const PoolSpec& pool : pools) {
        pools_.push_back(AcceptsPool(request, pool));
      }
    }
  }

  bool all() const { return all_; }
  bool operator()(PoolIndex pool) const { return all_ || pools_[pool]; }

 private:
  bool all_ = true;
  std::vector<bool> pools_;
};

// ---- Whole GPUs. ----

std::int64_t FreeWholeAccepted(const FleetLedger& ledger, const Accepted& accepted) {
  if (accepted.all()) {
    return ledger.whole().free_count();
  }
  std::int64_t free = 0;
  for (PoolIndex p = 0; p < ledger.pools().size(); ++p) {
    free += accepted(p) ? ledger.FreeWholeIn(p) : 0;
  }
  return free;
}

// The share a node carries when it holds as many of the job's n GPUs as it can.
HostNeed PackedShare(const HostNeed& need, std::int64_t n, int gpus_per_node) {
  const double k = static_cast<double>(std::min<std::int64_t>(n, gpus_per_node));
  const auto total = static_cast<double>(n);
  return {need.cpu_cores * k / total, need.memory_gb * k / total};
}

bool DomainNodesCarry(const FleetLedger& ledger, std::uint32_t domain, const HostNeed& share) {
  const auto gpus = ledger.topology().DomainGpus(domain);
  const NodeId last = ledger.topology().NodeOf(gpus.back());
  for (NodeId node = ledger.topology().NodeOf(gpus.front()); node <= last; ++node) {
    if (!NodeCanCarry(ledger.state(), node, share)) {
      return false;
    }
  }
  return true;
}

// The domains a job of n GPUs may use: accepted pools, and nodes that can carry its host share.
// Empty (everything allowed, no cost) when nothing restricts it.
DomainFilter WholeFilter(const FleetLedger& ledger, const Accepted& accepted, const HostNeed& need,
                         std::int64_t n) {
  if (accepted.all() && !need.any()) {
    return {};
  }
  return [&ledger, &accepted, need, n](std::uint32_t domain) {
    const PoolIndex pool = ledger.PoolOfDomain(domain);
    if (!accepted(pool)) {
      return false;
    }
    return !need.any() ||
           DomainNodesCarry(ledger, domain,
                            PackedShare(need, n, ledger.pools()[pool].node.gpus_per_node));
  };
}

// Free GPUs of the allowed domain with the most of them (0 if none).
std::int64_t LargestFreeDomain(const FleetLedger& ledger, const DomainFilter& allowed) {
  const auto& by_free = ledger.index().by_free();
  for (auto it = by_free.rbegin(); it != by_free.rend() && it->first > 0; ++it) {
    if (!allowed || allowed(it->second)) {
      return it->first;
    }
  }
  return 0;
}

bool NeedsOneDomain(const JobRequest& request) {
  return request.pow2_block || request.nvlink == NvlinkLocality::kRequired;
}

std::optional<std::vector<GpuId>> FindWholeGpus(const FleetLedger& ledger,
                                                const JobRequest& request, std::int64_t n,
                                                const DomainFilter& allowed) {
  const Topology& topology = ledger.topology();
  if (request.pow2_block) {
    return FindContiguousBlock(topology, ledger.whole(), ledger.index(),
                               {.size = n, .aligned = true}, allowed);
  }
  if (request.nvlink == NvlinkLocality::kRequired && LargestFreeDomain(ledger, allowed) < n) {
    return std::nullopt;
  }
  if (!allowed && topology.domains() == 1) {
    std::vector<GpuId> lowest = ledger.whole().LowestFree(n);
    return lowest.empty() ? std::nullopt : std::optional(std::move(lowest));
  }
  return FindTopologyAware(topology, ledger.whole(), ledger.index(), n, allowed);
}

// The placement of exactly n whole GPUs, if the free GPUs allow it.
std::optional<Allocation> PlaceWholeOfSize(const FleetLedger& ledger, const JobRequest& request,
                                           const Accepted& accepted, const HostNeed& need,
                                           std::int64_t n) {
  const DomainFilter allowed = WholeFilter(ledger, accepted, need, n);
  std::optional<std::vector<GpuId>> gpus = FindWholeGpus(ledger, request, n, allowed);
  if (!gpus) {
    return std::nullopt;
  }
  Allocation placement = WholeGpus(*gpus);
  if (need.any()) {
    placement.nodes = SplitHostNeed(need, *gpus, ledger.topology());
  }
  return placement;
}

// Sizes best first: for blocks every power of two from the largest the free GPUs allow down to
// the minimum; otherwise the largest, then the minimum.
std::optional<Allocation> PlaceWhole(const FleetLedger& ledger, const JobRequest& request) {
  const Accepted accepted(ledger, request);
  const std::int64_t free = NeedsOneDomain(request)
                                ? LargestFreeDomain(ledger, WholeFilter(ledger, accepted, {}, 0))
                                : FreeWholeAccepted(ledger, accepted);
  const std::int64_t most = std::min(request.MaxGpus(), free);
  if (most < request.gpus) {
    return std::nullopt;
  }
  const HostNeed need = HostNeedOf(request);
  if (request.pow2_block) {
    for (auto n = static_cast<std::int64_t>(std::bit_floor(static_cast<std::uint64_t>(most)));
         n >= request.gpus; n /= 2) {
      if (std::optional<Allocation> placement =
              PlaceWholeOfSize(ledger, request, accepted, need, n)) {
        return placement;
      }
    }
    return std::nullopt;
  }
  std::optional<Allocation> placement = PlaceWholeOfSize(ledger, request, accepted, need, most);
  if (!placement && most > request.gpus) {
    placement = PlaceWholeOfSize(ledger, request, accepted, need, request.gpus);
  }
  return placement;
}

// ---- One GPU: a MIG instance or a fractional share. ----

std::vector<NodeShare> HostShareOn(const FleetLedger& ledger, GpuId gpu, const HostNeed& need) {
  if (!need.any()) {
    return {};
  }
  return {{ledger.state().NodeOf(gpu), need.cpu_cores, need.memory_gb}};
}

// A GPU of an accepted pool whose node can carry the whole host need.
GpuFilter OneGpuFilter(const FleetLedger& ledger, const Accepted& accepted, const HostNeed& need) {
  if (accepted.all() && !need.any()) {
    return {};
  }
  return [&ledger, &accepted, need](GpuId gpu) {
    return accepted(ledger.PoolOfGpu(gpu)) &&
           (!need.any() || NodeCanCarry(ledger.state(), ledger.state().NodeOf(gpu), need));
  };
}

// Fitting profile names of the accepted pools, smallest first (memory, compute, name).
std::vector<std::string> FittingProfiles(const FleetLedger& ledger, const Accepted& accepted,
                                         const JobRequest& request) {
  std::vector<std::tuple<double, int, std::string>> found;
  for (PoolIndex p = 0; p < ledger.pools().size(); ++p) {
    if (!accepted(p)) {
      continue;
    }
    for (const MigProfile* profile : MigProfilesOffered(ledger.pools()[p])) {
      if (MigProfileFits(request, *profile)) {
        found.emplace_back(profile->memory_gb, profile->compute_slices, profile->name);
      }
    }
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> names;
  for (const auto& entry : found) {
    if (names.empty() || names.back() != std::get<2>(entry)) {
      names.push_back(std::get<2>(entry));
    }
  }
  return names;
}

std::optional<Allocation> PlaceMig(const FleetLedger& ledger, const JobRequest& request) {
  const Accepted accepted(ledger, request);
  const HostNeed need = HostNeedOf(request);
  const GpuFilter usable = OneGpuFilter(ledger, accepted, need);
  for (const std::string& name : FittingProfiles(ledger, accepted, request)) {
    // The same profile name can fit on one model and not on another only through its memory.
    const GpuFilter allowed = [&](GpuId gpu) {
      const MigProfile* profile = ledger.state().ModelOf(gpu).FindMigProfile(name);
      return profile != nullptr && MigProfileFits(request, *profile) && (!usable || usable(gpu));
    };
    if (const std::optional<MigSlot> slot = FindMigSlot(ledger.state(), name, allowed)) {
      return Allocation{{Grant::Mig(slot->gpu, *slot->profile, slot->start)},
                        HostShareOn(ledger, slot->gpu, need)};
    }
  }
  return std::nullopt;
}

std::optional<Allocation> PlaceFraction(const FleetLedger& ledger, const JobRequest& request) {
  const Accepted accepted(ledger, request);
  const HostNeed need = HostNeedOf(request);
  const auto milli = static_cast<int>(request.gpu_milli);
  const std::optional<GpuId> gpu = FindFractionalBestFit(
      ledger.state(), milli, request.gpu_memory_gb, OneGpuFilter(ledger, accepted, need));
  if (!gpu) {
    return std::nullopt;
  }
  return Allocation{{Grant::Fraction(*gpu, milli, request.gpu_memory_gb)},
                    HostShareOn(ledger, *gpu, need)};
}

// ---- CPU-only jobs. ----

std::optional<Allocation> PlaceCpuOnly(const FleetLedger& ledger, const JobRequest& request) {
  const HostNeed need = HostNeedOf(request);
  const FleetState& state = ledger.state();
  std::optional<NodeId> best;
  double best_free = std::numeric_limits<double>::infinity();
  for (NodeId node = 0; node < state.nodes(); ++node) {
    if (!AcceptsTier(request, ledger.pools()[ledger.PoolOfNode(node)]) ||
        !NodeCanCarry(state, node, need)) {
      continue;
    }
    const double free = state.FreeCpuCores(node);
    if (!best || free < best_free) {
      best = node;
      best_free = free;
    }
  }
  if (!best) {
    return std::nullopt;
  }
  return Allocation{{}, {{*best, need.cpu_cores, need.memory_gb}}};
}

}  // namespace

std::optional<Allocation> ChoosePlacement(const FleetLedger& ledger, const JobRequest& request) {
  if (request.IsCpuOnly()) {
    return PlaceCpuOnly(ledger, request);
  }
  switch (request.sharing) {
    case GpuSharing::kNone:
      return PlaceWhole(ledger, request);
    case GpuSharing::kMig:
      return PlaceMig(ledger, request);
    case GpuSharing::kFraction:
      return PlaceFraction(ledger, request);
  }
  return std::nullopt;
}

std::optional<Allocation> PlacementPlanner::Place(const JobRequest& request) {
  std::optional<Allocation> placement = ChoosePlacement(ledger_, request);
  if (placement) {
    ledger_.Apply(*placement);  // checks that it can be taken
    holds_.push_back(*placement);
  }
  return placement;
}

std::string PlacementPlanner::Hold(const Allocation& allocation) {
  std::string why = ledger_.WhyNot(allocation);
  if (why.empty()) {
    ledger_.Apply(allocation);
    holds_.push_back(allocation);
  }
  return why;
}

namespace {

bool SameGrant(const Grant& a, const Grant& b) {
  return a.kind == b.kind && a.gpu == b.gpu && a.profile == b.profile && a.start == b.start &&
         a.milli == b.milli && a.gpu_memory_gb == b.gpu_memory_gb;
}

bool SameNodeShare(const NodeShare& a, const NodeShare& b) {
  return a.node == b.node && a.cpu_cores == b.cpu_cores && a.memory_gb == b.memory_gb;
}

bool SameAllocation(const Allocation& a, const Allocation& b) {
  return std::equal(a.gpus.begin(), a.gpus.end(), b.gpus.begin(), b.gpus.end(), SameGrant) &&
         std::equal(a.nodes.begin(), a.nodes.end(), b.nodes.begin(), b.nodes.end(), SameNodeShare);
}

}  // namespace

bool PlacementPlanner::TakeOver(const Allocation& placement) {
  if (taken_over_ < holds_.size() && SameAllocation(holds_[taken_over_], placement)) {
    ++taken_over_;
    return true;
  }
  Rollback();
  return false;
}

void PlacementPlanner::Rollback() {
  for (std::size_t i = holds_.size(); i > taken_over_; --i) {
    ledger_.Release(holds_[i - 1]);
  }
  holds_.clear();
  taken_over_ = 0;
}

}  // namespace fleetsim
