// Whole-GPU placement primitives the policies call, over a Topology and an AllocationState:
//  - a contiguous block of 2^k GPUs inside one NVLink domain (aligned to its size within the
//    domain, or anywhere), taken from the domain that fits it most tightly (best fit);
//  - a topology-aware set of N GPUs that spans as few NVLink domains as possible, preferring
//    domains that the request fills most exactly (nodes and racks are not yet minimized within
//    that: inside an NVL72 domain the lowest-numbered free GPUs are taken).
// FreeCapacityIndex keeps each domain's free-GPU count bucketed by count, so "which domain has
// at least k free GPUs, fewest first" is answered without scanning every GPU; it must be told of
// every allocation and release (Allocate / Release keep the AllocationState and the index in
// step). Owned by one simulation; not thread-safe.
//
// Every search also comes with a filter: a DomainFilter (for whole GPUs) or GpuFilter (for MIG and
// fractional shares) that says which domains or GPUs a job may use (its GPU models, spot
// eligibility, host capacity). An empty filter allows everything and costs nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "fleetsim/fleet/fleet.h"
#include "fleetsim/fleet/fleet_state.h"
#include "fleetsim/fleet/topology.h"

namespace fleetsim {

class FreeCapacityIndex {
 public:
  explicit FreeCapacityIndex(const Topology& topology);

  // Updates the state and the index together. Preconditions as AllocationState's (checked).
  void Allocate(AllocationState& state, std::span<const GpuId> gpus);
  void Release(AllocationState& state, std::span<const GpuId> gpus);

  std::int64_t FreeIn(std::uint32_t domain) const { return free_[domain]; }
  // Domains with at least `count` free GPUs, fewest free first (ties: lowest domain number).
  std::vector<std::uint32_t> DomainsWithAtLeast(std::int64_t count) const;
  // Every domain as (free count, domain), in that order: lets placement walk the candidates
  // lazily and stop at the first that fits, instead of copying them all out.
  const std::set<std::pair<std::int64_t, std::uint32_t>>& by_free() const { return by_free_; }

 private:
  void Adjust(std::uint32_t domain, std::int64_t delta);
  // Adjusts each domain by sign x (how many of `gpus` it holds), one update per run.
  void AdjustByRuns(std::span<const GpuId> gpus, std::int64_t sign);

  const Topology& topology_;
  std::vector<std::int64_t> free_;                            // by domain
  std::set<std::pair<std::int64_t, std::uint32_t>> by_free_;  // (free count, domain)
};

// Which NVLink domains (by number) or GPUs a search may use; an empty function allows all.
using DomainFilter = std::function<bool(std::uint32_t domain)>;
using GpuFilter = std::function<bool(GpuId gpu)>;

struct BlockRequest {
  std::int64_t size = 1;  // a power of two
  bool aligned = true;    // start at a multiple of `size` within the domain
};

// A contiguous block as described, in the tightest-fitting domain; nullopt if none exists.
std::optional<std::vector<GpuId>> FindContiguousBlock(const Topology& topology,
                                                      const AllocationState& state,
                                                      const FreeCapacityIndex& index,
                                                      const BlockRequest& request);
// The same, in the tightest-fitting allowed domain.
std::optional<std::vector<GpuId>> FindContiguousBlock(const Topology& topology,
                                                      const AllocationState& state,
                                                      const FreeCapacityIndex& index,
                                                      const BlockRequest& request,
                                                      const DomainFilter& allowed);

// `count` free GPUs spanning as few domains as possible: one domain if any fits the whole request
// (best fit), else the domains with the most free GPUs first; within a domain the lowest-numbered
// free GPUs. nullopt if fewer than `count` GPUs are free.
std::optional<std::vector<GpuId>> FindTopologyAware(const Topology& topology,
                                                    const AllocationState& state,
                                                    const FreeCapacityIndex& index,
                                                    std::int64_t count);
// The same over the allowed domains only: nullopt if they have fewer than `count` free GPUs.
// Walks the allowed domains (O(domains)) unless `allowed` is empty.
std::optional<std::vector<GpuId>> FindTopologyAware(const Topology& topology,
                                                    const AllocationState& state,
                                                    const FreeCapacityIndex& index,
                                                    std::int64_t count,
                                                    const DomainFilter& allowed);

// Fractional best fit: a GPU that can take a share of `milli` (1..1000) and `memory_gb` now,
// choosing the one with the least free share that fits (so shares pack together and whole GPUs
// stay free); ties to the lowest GPU. Scans every GPU: O(GPUs).
std::optional<GpuId> FindFractionalBestFit(const FleetState& state, int milli, double memory_gb);
// The same among the allowed GPUs.
std::optional<GpuId> FindFractionalBestFit(const FleetState& state, int milli, double memory_gb,
                                           const GpuFilter& allowed);

struct MigSlot {
  GpuId gpu = 0;
  const MigProfile* profile = nullptr;  // the GPU model's profile of that name
  int start = 0;
};

// A place for one MIG instance of the named profile, preferring, in order: a free instance of a
// static layout; a GPU already in MIG mode, at the start MigGpuState::BestStart picks (packing
// keeps other GPUs whole); an idle dynamic-MIG GPU. Ties to the lowest GPU. Every answer is legal
// by FleetState::CheckAllocation. Scans every GPU: O(GPUs).
std::optional<MigSlot> FindMigSlot(const FleetState& state, const std::string& profile_name);
// The same among the allowed GPUs.
std::optional<MigSlot> FindMigSlot(const FleetState& state, const std::string& profile_name,
                                   const GpuFilter& allowed);

}  // namespace fleetsim
