// ChoosePlacement (the shared placement helper, with the search of every placement-strategy rule)
// and PlacementPlanner (holds within one call).
#include "fleetsim/policy/placement_choice.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <tuple>

#include "fleetsim/core/check.h"
#include "fleetsim/ledger/placement_rules.h"
#include "fleetsim/policy/placement_strategy.h"
#include "fleetsim/policy/policy.h"
#include "policy/share_scoring.h"

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

// Appends the `count` lowest-numbered free GPUs of the domain (it has at least that many).
void TakeLowestFree(const FleetLedger& ledger, std::uint32_t domain, std::int64_t count,
                    std::vector<GpuId>& out) {
  for (const GpuId gpu : ledger.topology().DomainGpus(domain)) {
    if (count == 0) {
      return;
    }
    if (ledger.whole().IsFree(gpu)) {
      out.push_back(gpu);
      --count;
    }
  }
  FLEETSIM_CHECK(count == 0, "free-capacity index disagrees with the allocation state");
}

bool Allows(const DomainFilter& allowed, std::uint32_t domain) {
  return !allowed || allowed(domain);
}

// The lowest allowed domain with `n` free GPUs and an aligned block of n (or n free GPUs for
// NVLink-required jobs). Each block search is confined to one domain.
std::optional<std::vector<GpuId>> FirstFitInOneDomain(const FleetLedger& ledger,
                                                      const JobRequest& request, std::int64_t n,
                                                      const DomainFilter& allowed) {
  for (std::uint32_t domain = 0; domain < ledger.topology().domains(); ++domain) {
    if (ledger.index().FreeIn(domain) < n || !Allows(allowed, domain)) {
      continue;
    }
    if (!request.pow2_block) {
      std::vector<GpuId> gpus;
      TakeLowestFree(ledger, domain, n, gpus);
      return gpus;
    }
    if (auto block = FindContiguousBlock(ledger.topology(), ledger.whole(), ledger.index(),
                                         {.size = n, .aligned = true},
                                         [domain](std::uint32_t d) { return d == domain; })) {
      return block;
    }
  }
  return std::nullopt;
}

// First fit: the lowest-numbered free GPUs of the allowed domains, whatever they span.
std::optional<std::vector<GpuId>> FirstFitGpus(const FleetLedger& ledger, const JobRequest& request,
                                               std::int64_t n, const DomainFilter& allowed) {
  if (NeedsOneDomain(request)) {
    return FirstFitInOneDomain(ledger, request, n, allowed);
  }
  if (!allowed) {
    std::vector<GpuId> lowest = ledger.whole().LowestFree(n);
    return lowest.empty() ? std::nullopt : std::optional(std::move(lowest));
  }
  std::vector<GpuId> gpus;
  for (std::uint32_t domain = 0; domain < ledger.topology().domains(); ++domain) {
    const std::int64_t take = std::min(ledger.index().FreeIn(domain), n - std::ssize(gpus));
    if (take > 0 && allowed(domain)) {
      TakeLowestFree(ledger, domain, take, gpus);
      if (std::ssize(gpus) == n) {
        return gpus;
      }
    }
  }
  return std::nullopt;
}

// Appends `count` free GPUs of the domain, best fit by node: the node with the fewest free GPUs
// that holds them all, else nodes fewest free first (ties: lowest node).
void TakeTightestNodes(const FleetLedger& ledger, std::uint32_t domain, std::int64_t count,
                       std::vector<GpuId>& out) {
  std::vector<std::pair<std::int64_t, NodeId>> nodes;  // (free GPUs, node), in node order
  for (const GpuId gpu : ledger.topology().DomainGpus(domain)) {
    const NodeId node = ledger.topology().NodeOf(gpu);
    if (nodes.empty() || nodes.back().second != node) {
      nodes.emplace_back(0, node);
    }
    nodes.back().first += ledger.whole().IsFree(gpu) ? 1 : 0;
  }
  std::sort(nodes.begin(), nodes.end());
  const auto holder = std::lower_bound(nodes.begin(), nodes.end(), std::pair{count, NodeId{0}});
  if (holder != nodes.end()) {
    std::rotate(nodes.begin(), holder, holder + 1);  // the tightest node that holds them first
  }
  for (auto it = nodes.begin(); it != nodes.end() && count > 0; ++it) {
    for (const GpuId gpu : ledger.topology().DomainGpus(domain)) {
      if (count > 0 && ledger.topology().NodeOf(gpu) == it->second && ledger.whole().IsFree(gpu)) {
        out.push_back(gpu);
        --count;
      }
    }
  }
  FLEETSIM_CHECK(count == 0, "free-capacity index disagrees with the allocation state");
}

// Best fit: the allowed domain with the fewest free GPUs that holds them all; else the allowed
// domains fewest free first (filling the smallest holes, keeping large ones for large jobs).
std::optional<std::vector<GpuId>> BestFitGpus(const FleetLedger& ledger, const JobRequest& request,
                                              std::int64_t n, const DomainFilter& allowed) {
  if (request.pow2_block) {
    return FindContiguousBlock(ledger.topology(), ledger.whole(), ledger.index(),
                               {.size = n, .aligned = true}, allowed);
  }
  const auto& by_free = ledger.index().by_free();
  std::vector<GpuId> gpus;
  for (auto it = by_free.lower_bound({n, 0}); it != by_free.end(); ++it) {
    if (Allows(allowed, it->second)) {
      TakeTightestNodes(ledger, it->second, n, gpus);
      std::sort(gpus.begin(), gpus.end());
      return gpus;
    }
  }
  if (request.nvlink == NvlinkLocality::kRequired) {
    return std::nullopt;
  }
  for (auto it = by_free.lower_bound({1, 0}); it != by_free.end(); ++it) {
    if (Allows(allowed, it->second)) {
      TakeTightestNodes(ledger, it->second, std::min(it->first, n - std::ssize(gpus)), gpus);
      if (std::ssize(gpus) == n) {
        std::sort(gpus.begin(), gpus.end());
        return gpus;
      }
    }
  }
  return std::nullopt;
}

std::optional<std::vector<GpuId>> TopologyAwareGpus(const FleetLedger& ledger,
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

std::optional<std::vector<GpuId>> FindWholeGpus(const FleetLedger& ledger,
                                                const JobRequest& request, std::int64_t n,
                                                const DomainFilter& allowed, WholeGpuRule rule) {
  switch (rule) {
    case WholeGpuRule::kTopologyAware:
      return TopologyAwareGpus(ledger, request, n, allowed);
    case WholeGpuRule::kFirstFit:
      return FirstFitGpus(ledger, request, n, allowed);
    case WholeGpuRule::kBestFit:
      return BestFitGpus(ledger, request, n, allowed);
  }
  return std::nullopt;
}

// The placement of exactly n whole GPUs, if the free GPUs allow it.
std::optional<Allocation> PlaceWholeOfSize(const FleetLedger& ledger, const JobRequest& request,
                                           WholeGpuRule rule, const Accepted& accepted,
                                           const HostNeed& need, std::int64_t n) {
  const DomainFilter allowed = WholeFilter(ledger, accepted, need, n);
  std::optional<std::vector<GpuId>> gpus = FindWholeGpus(ledger, request, n, allowed, rule);
  if (!gpus) {
    return std::nullopt;
  }
  Allocation placement = WholeGpus(*gpus);
  if (need.any()) {
    placement.nodes = SplitHostNeed(need, *gpus, ledger.topology());
  }
  return placement;
}

// Exactly `exact_gpus` if given; else sizes best first: for blocks every power of two from the
// largest the free GPUs allow down to the minimum; otherwise the largest, then the minimum.
std::optional<Allocation> PlaceWhole(const FleetLedger& ledger, const JobRequest& request,
                                     WholeGpuRule rule, std::optional<std::int64_t> exact_gpus) {
  const Accepted accepted(ledger, request);
  if (exact_gpus) {
    return PlaceWholeOfSize(ledger, request, rule, accepted, HostNeedOf(request), *exact_gpus);
  }
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
              PlaceWholeOfSize(ledger, request, rule, accepted, need, n)) {
        return placement;
      }
    }
    return std::nullopt;
  }
  std::optional<Allocation> placement =
      PlaceWholeOfSize(ledger, request, rule, accepted, need, most);
  if (!placement && most > request.gpus) {
    placement = PlaceWholeOfSize(ledger, request, rule, accepted, need, request.gpus);
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

GpuFilter Both(const GpuFilter& a, GpuFilter b) {
  if (!a) {
    return b;
  }
  return [a, b = std::move(b)](GpuId gpu) { return a(gpu) && b(gpu); };
}

// GPUs of one MIG tier: in a static-MIG pool; dynamic with instances; dynamic and idle.
GpuFilter StaticMig(const FleetState& state) {
  return [&state](GpuId gpu) { return state.MigModeOf(gpu) == MigMode::kStatic; };
}
GpuFilter InMigMode(const FleetState& state) {
  return [&state](GpuId gpu) {
    return state.MigModeOf(gpu) == MigMode::kDynamic && !state.Mig(gpu).empty();
  };
}
GpuFilter IdleDynamic(const FleetState& state) {
  return [&state](GpuId gpu) {
    return state.MigModeOf(gpu) == MigMode::kDynamic && state.Mig(gpu).empty();
  };
}

int ComputeSlicesInUse(const FleetState& state, GpuId gpu) {
  return kMigComputeSlices - state.Mig(gpu).free_compute_slices();
}

// The lowest-numbered GPU of any tier that can take the profile.
std::optional<MigSlot> FirstFitMigSlot(const FleetState& state, const std::string& name,
                                       const GpuFilter& allowed) {
  std::optional<MigSlot> first;
  for (const GpuFilter& tier : {StaticMig(state), InMigMode(state), IdleDynamic(state)}) {
    const std::optional<MigSlot> slot = FindMigSlot(state, name, Both(allowed, tier));
    if (slot && (!first || slot->gpu < first->gpu)) {
      first = slot;
    }
  }
  return first;
}

// A static slot; else the GPU in MIG mode with the most compute slices in use (ties: lowest);
// else an idle dynamic GPU. FindMigSlot picks the start within a GPU (MigGpuState::BestStart).
std::optional<MigSlot> PackingMigSlot(const FleetState& state, const std::string& name,
                                      const GpuFilter& allowed) {
  if (auto slot = FindMigSlot(state, name, Both(allowed, StaticMig(state)))) {
    return slot;
  }
  const GpuFilter in_mig_mode = Both(allowed, InMigMode(state));
  std::uint32_t used_counts = 0;  // bit k: some allowed GPU in MIG mode has k slices in use
  for (GpuId gpu = 0; gpu < state.gpus(); ++gpu) {
    if (in_mig_mode(gpu)) {
      used_counts |= 1U << ComputeSlicesInUse(state, gpu);
    }
  }
  for (int used = kMigComputeSlices; used >= 0; --used) {
    if ((used_counts >> used & 1U) == 0) {
      continue;
    }
    const GpuFilter with_used = [&](GpuId gpu) {
      return in_mig_mode(gpu) && ComputeSlicesInUse(state, gpu) == used;
    };
    if (auto slot = FindMigSlot(state, name, with_used)) {
      return slot;
    }
  }
  return FindMigSlot(state, name, Both(allowed, IdleDynamic(state)));
}

std::optional<MigSlot> FindMigSlotBy(MigRule rule, const FleetState& state, const std::string& name,
                                     const GpuFilter& allowed) {
  switch (rule) {
    case MigRule::kTiered:
      return FindMigSlot(state, name, allowed);
    case MigRule::kFirstFit:
      return FirstFitMigSlot(state, name, allowed);
    case MigRule::kPacking:
      return PackingMigSlot(state, name, allowed);
  }
  return std::nullopt;
}

std::optional<Allocation> PlaceMig(const FleetLedger& ledger, const JobRequest& request,
                                   MigRule rule) {
  const Accepted accepted(ledger, request);
  const HostNeed need = HostNeedOf(request);
  const GpuFilter usable = OneGpuFilter(ledger, accepted, need);
  for (const std::string& name : FittingProfiles(ledger, accepted, request)) {
    // The same profile name can fit on one model and not on another only through its memory.
    const GpuFilter allowed = [&](GpuId gpu) {
      const MigProfile* profile = ledger.state().ModelOf(gpu).FindMigProfile(name);
      return profile != nullptr && MigProfileFits(request, *profile) && (!usable || usable(gpu));
    };
    if (const std::optional<MigSlot> slot = FindMigSlotBy(rule, ledger.state(), name, allowed)) {
      return Allocation{{Grant::Mig(slot->gpu, *slot->profile, slot->start)},
                        HostShareOn(ledger, slot->gpu, need)};
    }
  }
  return std::nullopt;
}

// The lowest-numbered allowed GPU with `milli` and `memory_gb` free (FindFractionalBestFit's
// test, first fit instead of best fit).
std::optional<GpuId> FindFractionalFirstFit(const FleetState& state, int milli, double memory_gb,
                                            const GpuFilter& allowed) {
  for (GpuId gpu = 0; gpu < state.gpus(); ++gpu) {
    if (state.FreeMilli(gpu) >= milli && state.FreeGpuMemoryGb(gpu) >= memory_gb &&
        (!allowed || allowed(gpu))) {
      return gpu;
    }
  }
  return std::nullopt;
}

std::optional<Allocation> PlaceFraction(const FleetLedger& ledger, const JobRequest& request,
                                        ShareRule rule) {
  const Accepted accepted(ledger, request);
  const HostNeed need = HostNeedOf(request);
  const auto milli = static_cast<int>(request.gpu_milli);
  const GpuFilter usable = OneGpuFilter(ledger, accepted, need);
  const std::optional<GpuId> gpu =
      rule == ShareRule::kFirstFit
          ? FindFractionalFirstFit(ledger.state(), milli, request.gpu_memory_gb, usable)
          : FindFractionalBestFit(ledger.state(), milli, request.gpu_memory_gb, usable);
  if (!gpu) {
    return std::nullopt;
  }
  return Allocation{{Grant::Fraction(*gpu, milli, request.gpu_memory_gb)},
                    HostShareOn(ledger, *gpu, need)};
}

// ---- CPU-only jobs. ----

// Best fit: the node with the least free CPU that fits; first fit: the lowest node that fits.
std::optional<Allocation> PlaceCpuOnly(const FleetLedger& ledger, const JobRequest& request,
                                       NodeRule rule) {
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
    if (rule == NodeRule::kFirstFit) {
      break;
    }
  }
  if (!best) {
    return std::nullopt;
  }
  return Allocation{{}, {{*best, need.cpu_cores, need.memory_gb}}};
}

}  // namespace

std::optional<Allocation> ChoosePlacement(const FleetLedger& ledger, const JobRequest& request) {
  return ChoosePlacement(ledger, request, PlacementStrategy{});
}

std::optional<Allocation> ChoosePlacement(const FleetLedger& ledger, const JobRequest& request,
                                          const PlacementStrategy& strategy,
                                          std::optional<std::int64_t> exact_gpus) {
  FLEETSIM_CHECK(!exact_gpus || (*exact_gpus >= request.gpus && *exact_gpus <= request.MaxGpus() &&
                                 (!request.pow2_block ||
                                  std::has_single_bit(static_cast<std::uint64_t>(*exact_gpus)))),
                 "a policy asked for a GPU count the request does not allow");
  if (strategy.share_scorer) {
    if (std::optional<Allocation> placement =
            PlaceByShareScore(ledger, request, *strategy.share_scorer, exact_gpus)) {
      return placement;
    }
  }
  if (request.IsCpuOnly()) {
    return PlaceCpuOnly(ledger, request, strategy.node);
  }
  switch (request.sharing) {
    case GpuSharing::kNone:
      return PlaceWhole(ledger, request, strategy.whole, exact_gpus);
    case GpuSharing::kMig:
      return PlaceMig(ledger, request, strategy.mig);
    case GpuSharing::kFraction:
      return PlaceFraction(ledger, request, strategy.share);
  }
  return std::nullopt;
}

std::optional<Allocation> PlacementPlanner::Place(const JobRequest& request) {
  return Place(request, PlacementStrategy{});
}

std::optional<Allocation> PlacementPlanner::Place(const JobRequest& request,
                                                  const PlacementStrategy& strategy,
                                                  std::optional<std::int64_t> exact_gpus) {
  std::optional<Allocation> placement = ChoosePlacement(ledger_, request, strategy, exact_gpus);
  if (placement) {
    ledger_.Apply(*placement);  // checks that it can be taken
    holds_.push_back(*placement);
  }
  return placement;
}

Status PlacementPlanner::Hold(const Allocation& allocation) {
  Status status = ledger_.CheckAllocation(allocation);
  if (status.ok()) {
    ledger_.Apply(allocation);
    holds_.push_back(allocation);
  }
  return status;
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
