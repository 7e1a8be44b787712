// Whole-GPU placement over a Topology and an AllocationState: the per-domain free-capacity index,
// contiguous blocks inside one NVLink domain (best fit), and topology-aware sets that span as few
// domains as possible. Candidate domains are walked lazily from the index's (free, domain) order,
// so a decision costs O(log domains) plus a scan of the few domains it looks into. A filtered
// topology-aware search that finds no single allowed domain walks every allowed domain.
#include "fleetsim/fleet/placement.h"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <iterator>

#include "fleetsim/core/check.h"

namespace fleetsim {

// Every GPU starts free: the index describes a fresh AllocationState of the same fleet.
FreeCapacityIndex::FreeCapacityIndex(const Topology& topology)
    : topology_(topology), free_(static_cast<std::size_t>(topology.domains()), 0) {
  for (std::uint32_t d = 0; d < free_.size(); ++d) {
    free_[d] = static_cast<std::int64_t>(topology.DomainGpus(d).size());
    by_free_.emplace(free_[d], d);
  }
}

// One index update per run of GPUs in the same domain (a block is a single run).
void FreeCapacityIndex::AdjustByRuns(std::span<const GpuId> gpus, std::int64_t sign) {
  std::size_t i = 0;
  while (i < gpus.size()) {
    const std::uint32_t domain = topology_.DomainOf(gpus[i]);
    std::int64_t run = 0;
    for (; i < gpus.size() && topology_.DomainOf(gpus[i]) == domain; ++i) {
      ++run;
    }
    Adjust(domain, sign * run);
  }
}

void FreeCapacityIndex::Allocate(AllocationState& state, std::span<const GpuId> gpus) {
  FLEETSIM_CHECK(state.capacity() == topology_.gpus(), "allocation state is for another fleet");
  state.Allocate(gpus);  // checks every GPU is valid, free and listed once
  AdjustByRuns(gpus, -1);
}

void FreeCapacityIndex::Release(AllocationState& state, std::span<const GpuId> gpus) {
  FLEETSIM_CHECK(state.capacity() == topology_.gpus(), "allocation state is for another fleet");
  state.Release(gpus);  // checks every GPU is valid and busy
  AdjustByRuns(gpus, +1);
}

std::vector<std::uint32_t> FreeCapacityIndex::DomainsWithAtLeast(std::int64_t count) const {
  std::vector<std::uint32_t> domains;
  for (auto it = by_free_.lower_bound({count, 0}); it != by_free_.end(); ++it) {
    domains.push_back(it->second);
  }
  return domains;
}

void FreeCapacityIndex::Adjust(std::uint32_t domain, std::int64_t delta) {
  std::int64_t& count = free_[domain];
  auto node = by_free_.extract({count, domain});
  FLEETSIM_CHECK(!node.empty(), "free-capacity index out of step with its counts");
  count += delta;
  const auto size = static_cast<std::int64_t>(topology_.DomainGpus(domain).size());
  FLEETSIM_CHECK(count >= 0 && count <= size,
                 "domain free count out of range: index not told of every change");
  node.value().first = count;
  by_free_.insert(std::move(node));
}

namespace {

using ByFree = std::set<std::pair<std::int64_t, std::uint32_t>>;

// The first run of `size` free GPUs in the domain, starting at a multiple of `size` when aligned.
// A domain's GPU ids are consecutive (checked), so a run of entries is a run of ids.
std::optional<std::vector<GpuId>> BlockInDomain(std::span<const GpuId> gpus,
                                                const AllocationState& state,
                                                const BlockRequest& request) {
  const auto n = static_cast<std::int64_t>(gpus.size());
  FLEETSIM_CHECK(n > 0 && gpus.back() - gpus.front() + 1 == gpus.size(),
                 "an NVLink domain's GPU ids must be consecutive");
  const std::int64_t size = request.size;
  const std::int64_t step = request.aligned ? size : 1;
  std::int64_t start = 0;
  while (start + size <= n) {
    std::int64_t busy = -1;  // the last busy GPU in [start, start + size), if any
    for (std::int64_t i = start + size - 1; i >= start; --i) {
      if (!state.IsFree(gpus[static_cast<std::size_t>(i)])) {
        busy = i;
        break;
      }
    }
    if (busy < 0) {
      const auto first = gpus.begin() + start;
      return std::vector<GpuId>(first, first + size);
    }
    // No window starting at or before `busy` can be free: jump past it (to the next multiple
    // of `step`).
    start = (busy / step + 1) * step;
  }
  return std::nullopt;
}

// Appends the `count` lowest-numbered free GPUs of the domain.
void TakeLowestFree(std::span<const GpuId> gpus, const AllocationState& state, std::int64_t count,
                    std::vector<GpuId>& out) {
  for (const GpuId g : gpus) {
    if (count == 0) {
      return;
    }
    if (state.IsFree(g)) {
      out.push_back(g);
      --count;
    }
  }
  FLEETSIM_CHECK(count == 0, "free-capacity index disagrees with the allocation state");
}

// The best-fitting domain with at least `remaining` free GPUs that has not been taken yet. The
// taken ones are all of the groups above `group_free` and those of its group below `current`;
// `current` itself qualifies, so the walk ends there at the latest.
std::uint32_t BestFitUntaken(const ByFree& by_free, std::int64_t remaining, std::int64_t group_free,
                             std::uint32_t current) {
  for (auto it = by_free.lower_bound({remaining, 0});; ++it) {
    FLEETSIM_CHECK(it != by_free.end(), "free-capacity index out of order");
    const bool taken = it->first > group_free || (it->first == group_free && it->second < current);
    if (!taken) {
      return it->second;
    }
  }
}

// No domain holds `count`: whole domains, most free first (ties: lowest number), until the rest
// fits in one; the rest then goes to the untaken domain it fills most exactly. Greedy by size
// gives the fewest domains, and the best-fit last pick does not add one.
std::vector<GpuId> SpanDomains(const Topology& topology, const AllocationState& state,
                               const ByFree& by_free, std::int64_t count) {
  std::vector<GpuId> picked;
  picked.reserve(static_cast<std::size_t>(count));
  std::int64_t remaining = count;
  auto group_end = by_free.end();
  while (remaining > 0) {
    FLEETSIM_CHECK(group_end != by_free.begin() && std::prev(group_end)->first > 0,
                   "free-capacity index disagrees with the allocation state");
    const std::int64_t group_free = std::prev(group_end)->first;
    const auto group_begin = by_free.lower_bound({group_free, 0});
    for (auto it = group_begin; it != group_end && remaining > 0; ++it) {
      if (group_free >= remaining) {
        const std::uint32_t last = BestFitUntaken(by_free, remaining, group_free, it->second);
        TakeLowestFree(topology.DomainGpus(last), state, remaining, picked);
        remaining = 0;
      } else {
        TakeLowestFree(topology.DomainGpus(it->second), state, group_free, picked);
        remaining -= group_free;
      }
    }
    group_end = group_begin;
  }
  std::sort(picked.begin(), picked.end());
  return picked;
}

}  // namespace

std::optional<std::vector<GpuId>> FindContiguousBlock(const Topology& topology,
                                                      const AllocationState& state,
                                                      const FreeCapacityIndex& index,
                                                      const BlockRequest& request) {
  return FindContiguousBlock(topology, state, index, request, {});
}

std::optional<std::vector<GpuId>> FindContiguousBlock(const Topology& topology,
                                                      const AllocationState& state,
                                                      const FreeCapacityIndex& index,
                                                      const BlockRequest& request,
                                                      const DomainFilter& allowed) {
  FLEETSIM_CHECK(request.size >= 1 && std::has_single_bit(static_cast<std::uint64_t>(request.size)),
                 "block size must be a power of two");
  const ByFree& by_free = index.by_free();
  for (auto it = by_free.lower_bound({request.size, 0}); it != by_free.end(); ++it) {
    if (allowed && !allowed(it->second)) {
      continue;
    }
    if (auto block = BlockInDomain(topology.DomainGpus(it->second), state, request)) {
      return block;
    }
  }
  return std::nullopt;
}

std::optional<std::vector<GpuId>> FindTopologyAware(const Topology& topology,
                                                    const AllocationState& state,
                                                    const FreeCapacityIndex& index,
                                                    std::int64_t count) {
  FLEETSIM_CHECK(count >= 1, "a placement needs at least one GPU");
  if (count > state.free_count()) {
    return std::nullopt;
  }
  const ByFree& by_free = index.by_free();
  const auto fit = by_free.lower_bound({count, 0});
  if (fit == by_free.end()) {
    return SpanDomains(topology, state, by_free, count);
  }
  std::vector<GpuId> picked;
  picked.reserve(static_cast<std::size_t>(count));
  TakeLowestFree(topology.DomainGpus(fit->second), state, count, picked);
  return picked;
}

namespace {

// SpanDomains over an explicit candidate list: `domains` holds (free, domain) of the allowed
// domains with free GPUs, sorted most free first (ties: lowest number), and together they hold at
// least `count` free GPUs.
std::vector<GpuId> SpanCandidates(
    const Topology& topology, const AllocationState& state,
    const std::vector<std::pair<std::int64_t, std::uint32_t>>& domains, std::int64_t count) {
  std::vector<GpuId> picked;
  picked.reserve(static_cast<std::size_t>(count));
  std::int64_t remaining = count;
  for (std::size_t i = 0; remaining > 0; ++i) {
    FLEETSIM_CHECK(i < domains.size(), "allowed domains hold fewer free GPUs than counted");
    if (domains[i].first < remaining) {
      TakeLowestFree(topology.DomainGpus(domains[i].second), state, domains[i].first, picked);
      remaining -= domains[i].first;
      continue;
    }
    // The rest fits in one untaken domain: the one it fills most exactly.
    std::size_t best = i;
    for (std::size_t j = i + 1; j < domains.size() && domains[j].first >= remaining; ++j) {
      if (domains[j].first < domains[best].first ||
          (domains[j].first == domains[best].first && domains[j].second < domains[best].second)) {
        best = j;
      }
    }
    TakeLowestFree(topology.DomainGpus(domains[best].second), state, remaining, picked);
    remaining = 0;
  }
  std::sort(picked.begin(), picked.end());
  return picked;
}

}  // namespace

std::optional<std::vector<GpuId>> FindTopologyAware(const Topology& topology,
                                                    const AllocationState& state,
                                                    const FreeCapacityIndex& index,
                                                    std::int64_t count,
                                                    const DomainFilter& allowed) {
  if (!allowed) {
    return FindTopologyAware(topology, state, index, count);
  }
  FLEETSIM_CHECK(count >= 1, "a placement needs at least one GPU");
  const ByFree& by_free = index.by_free();
  for (auto it = by_free.lower_bound({count, 0}); it != by_free.end(); ++it) {
    if (allowed(it->second)) {  // the tightest allowed domain that holds them all
      std::vector<GpuId> picked;
      picked.reserve(static_cast<std::size_t>(count));
      TakeLowestFree(topology.DomainGpus(it->second), state, count, picked);
      return picked;
    }
  }
  std::vector<std::pair<std::int64_t, std::uint32_t>> domains;
  std::int64_t free = 0;
  for (auto it = by_free.lower_bound({1, 0}); it != by_free.end(); ++it) {
    if (allowed(it->second)) {
      domains.push_back(*it);
      free += it->first;
    }
  }
  if (free < count) {
    return std::nullopt;
  }
  std::sort(domains.begin(), domains.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  return SpanCandidates(topology, state, domains, count);
}

std::optional<GpuId> FindFractionalBestFit(const FleetState& state, int milli, double memory_gb) {
  return FindFractionalBestFit(state, milli, memory_gb, {});
}

std::optional<GpuId> FindFractionalBestFit(const FleetState& state, int milli, double memory_gb,
                                           const GpuFilter& allowed) {
  std::optional<GpuId> best;
  int best_free = 0;
  for (GpuId gpu = 0; gpu < state.gpus(); ++gpu) {
    const int free = state.FreeMilli(gpu);
    if (free < milli || state.FreeGpuMemoryGb(gpu) < memory_gb || (allowed && !allowed(gpu))) {
      continue;
    }
    if (!best || free < best_free) {
      best = gpu;
      best_free = free;
    }
  }
  return best;
}

namespace {

// The three tiers FindMigSlot prefers, best first.
enum class MigTier { kStaticSlot = 0, kInMigMode = 1, kIdleDynamic = 2 };

std::optional<MigSlot> SlotOn(const FleetState& state, GpuId gpu, const std::string& name,
                              MigTier& tier) {
  const MigProfile* profile = state.ModelOf(gpu).FindMigProfile(name);
  if (profile == nullptr || !state.IsGpuUp(gpu)) {
    return std::nullopt;
  }
  if (state.MigModeOf(gpu) == MigMode::kStatic) {
    tier = MigTier::kStaticSlot;
    for (const MigPlacement& p : state.StaticLayout(gpu)) {
      if (p.profile->name == name && state.IsStaticSlotFree(gpu, *profile, p.start)) {
        return MigSlot{gpu, profile, p.start};
      }
    }
    return std::nullopt;
  }
  if (state.MigModeOf(gpu) != MigMode::kDynamic) {
    return std::nullopt;
  }
  const MigGpuState& mig = state.Mig(gpu);
  if (mig.empty() && !state.CanRepartition(gpu)) {
    return std::nullopt;  // held whole or shared
  }
  tier = mig.empty() ? MigTier::kIdleDynamic : MigTier::kInMigMode;
  const std::optional<int> start = mig.BestStart(*profile, state.ModelOf(gpu).mig_profiles);
  if (!start) {
    return std::nullopt;
  }
  return MigSlot{gpu, profile, *start};
}

}  // namespace

std::optional<MigSlot> FindMigSlot(const FleetState& state, const std::string& profile_name) {
  return FindMigSlot(state, profile_name, {});
}

std::optional<MigSlot> FindMigSlot(const FleetState& state, const std::string& profile_name,
                                   const GpuFilter& allowed) {
  std::optional<MigSlot> best;
  MigTier best_tier = MigTier::kIdleDynamic;
  for (GpuId gpu = 0; gpu < state.gpus(); ++gpu) {
    if (allowed && !allowed(gpu)) {
      continue;
    }
    MigTier tier = MigTier::kIdleDynamic;
    const std::optional<MigSlot> slot = SlotOn(state, gpu, profile_name, tier);
    if (!slot || (best && tier >= best_tier)) {
      continue;
    }
    const Allocation check{{Grant::Mig(gpu, *slot->profile, slot->start)}, {}};
    if (!state.CheckAllocation(check).ok()) {
      continue;
    }
    best = slot;
    best_tier = tier;
    if (tier == MigTier::kStaticSlot) {
      break;
    }
  }
  return best;
}

}  // namespace fleetsim
