// Placement primitives on the catalog's shapes: HGX (domains of 8), NVL bridged pairs (domains of
// 2), NVL72 (one domain of 72 per rack) and a mixed fleet. Covers the free-capacity index, aligned
// and unaligned blocks with best fit, topology-aware sets spanning the fewest domains, misuse
// checks, and a long random allocate/release run checked against brute-force references.
#include "fleetsim/fleet/placement.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "fleetsim/core/random.h"
#include "testutil/fleets.h"

namespace fleetsim {
namespace {

using testing::CatalogPool;
using testing::FleetOf;
using testing::GpuRange;

std::vector<GpuId> Concat(std::vector<GpuId> a, const std::vector<GpuId>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// A fleet with its state and index, allocated through the index.
struct Placed {
  explicit Placed(const FleetSpec& spec) : topology(spec), state(spec), index(topology) {}

  void Take(const std::vector<GpuId>& gpus) { index.Allocate(state, gpus); }
  std::optional<std::vector<GpuId>> Block(std::int64_t size, bool aligned) const {
    return FindContiguousBlock(topology, state, index, {.size = size, .aligned = aligned});
  }
  std::optional<std::vector<GpuId>> Spread(std::int64_t count) const {
    return FindTopologyAware(topology, state, index, count);
  }

  Topology topology;
  AllocationState state;
  FreeCapacityIndex index;
};

// --- FreeCapacityIndex ---------------------------------------------------------------------------

TEST(FreeCapacityIndexTest, StartsAllFreeAndOrdersDomainsFewestFreeFirst) {
  Placed p(FleetOf({CatalogPool("hgx-h100", 3)}));
  for (std::uint32_t d = 0; d < 3; ++d) {
    EXPECT_EQ(p.index.FreeIn(d), 8);
  }
  EXPECT_EQ(p.index.DomainsWithAtLeast(8), (std::vector<std::uint32_t>{0, 1, 2}));
  p.Take({0, 1, 8});
  EXPECT_EQ(p.index.FreeIn(0), 6);
  EXPECT_EQ(p.index.FreeIn(1), 7);
  EXPECT_EQ(p.index.FreeIn(2), 8);
  EXPECT_EQ(p.state.free_count(), 21);
  EXPECT_EQ(p.index.DomainsWithAtLeast(1), (std::vector<std::uint32_t>{0, 1, 2}));
  EXPECT_EQ(p.index.DomainsWithAtLeast(7), (std::vector<std::uint32_t>{1, 2}));
  EXPECT_TRUE(p.index.DomainsWithAtLeast(9).empty());
  p.index.Release(p.state, std::vector<GpuId>{0, 1, 8});
  EXPECT_EQ(p.index.FreeIn(0), 8);
  EXPECT_EQ(p.index.FreeIn(1), 8);
  EXPECT_EQ(p.state.free_count(), 24);
}

TEST(FreeCapacityIndexTest, OneCallMayTouchSeveralDomainsAndTiesGoToTheLowestDomain) {
  Placed p(FleetOf({CatalogPool("hgx-h100", 3)}));
  p.Take({6, 7, 8, 9, 16, 17});  // 6 free in each domain
  EXPECT_EQ(p.index.DomainsWithAtLeast(6), (std::vector<std::uint32_t>{0, 1, 2}));
  p.Take({23});
  EXPECT_EQ(p.index.DomainsWithAtLeast(1), (std::vector<std::uint32_t>{2, 0, 1}));
}

TEST(FreeCapacityIndexDeathTest, MisuseIsChecked) {
  Placed p(FleetOf({CatalogPool("hgx-h100", 2)}));
  p.Take({3});
  EXPECT_DEATH(p.Take({3}), "allocating a busy GPU");
  EXPECT_DEATH(p.Take({4, 4}), "allocating a busy GPU");
  EXPECT_DEATH(p.index.Release(p.state, std::vector<GpuId>{5}), "releasing a free GPU");
  EXPECT_DEATH(p.Take({16}), "GPU id out of range");
  AllocationState other({.gpus = 8});
  EXPECT_DEATH(p.index.Allocate(other, std::vector<GpuId>{0}), "another fleet");
}

// --- FindContiguousBlock -------------------------------------------------------------------------

TEST(ContiguousBlockPlacementTest, AlignedAndUnalignedBlocksOnHgx) {
  Placed p(FleetOf({CatalogPool("hgx-h100", 1)}));
  p.Take({0, 5, 6, 7});  // free: 1..4
  EXPECT_FALSE(p.Block(4, true));
  EXPECT_EQ(p.Block(4, false), GpuRange(1, 4));
  EXPECT_EQ(p.Block(2, true), GpuRange(2, 3));
  EXPECT_EQ(p.Block(2, false), GpuRange(1, 2));
  EXPECT_EQ(p.Block(1, true), GpuRange(1, 1));
  EXPECT_FALSE(p.Block(8, false));
}

TEST(ContiguousBlockPlacementTest, BestFitPicksTheTightestDomainThatFits) {
  Placed p(FleetOf({CatalogPool("hgx-h100", 3)}));
  p.Take(GpuRange(8, 11));  // domain 1: 4 free (12..15)
  p.Take({16, 17});      // domain 2: 6 free (18..23)
  EXPECT_EQ(p.Block(4, true), GpuRange(12, 15));
  EXPECT_EQ(p.Block(2, true), GpuRange(12, 13));
  EXPECT_EQ(p.Block(1, true), GpuRange(12, 12));
  EXPECT_EQ(p.Block(8, true), GpuRange(0, 7));
  p.Take(GpuRange(0, 0));  // domain 0 no longer has an 8
  EXPECT_FALSE(p.Block(8, true));
}

TEST(ContiguousBlockPlacementTest, BestFitMovesOnWhenTheTightestDomainHasNoBlock) {
  Placed p(FleetOf({CatalogPool("hgx-h100", 3)}));
  p.Take({8, 10, 12, 14});  // domain 1: 4 free, none adjacent
  p.Take({16, 17});         // domain 2: 6 free (18..23)
  EXPECT_EQ(p.Block(2, true), GpuRange(18, 19));
  EXPECT_EQ(p.Block(2, false), GpuRange(18, 19));
  EXPECT_EQ(p.Block(1, true), GpuRange(9, 9));
  EXPECT_EQ(p.Block(4, true), GpuRange(20, 23));
  EXPECT_EQ(p.Block(4, false), GpuRange(18, 21));
}

TEST(ContiguousBlockPlacementTest, BlocksNeverCrossDomainsOnNvlPairs) {
  Placed p(FleetOf({CatalogPool("h100-nvl-pairs", 1)}));
  p.Take({0, 3, 4, 7});  // free 1,2 and 5,6: adjacent ids, but each pair straddles two domains
  EXPECT_FALSE(p.Block(2, false));
  EXPECT_FALSE(p.Block(2, true));
  EXPECT_FALSE(p.Block(4, false));
  EXPECT_EQ(p.Block(1, true), GpuRange(1, 1));
  p.index.Release(p.state, std::vector<GpuId>{3});
  EXPECT_EQ(p.Block(2, true), GpuRange(2, 3));
}

TEST(ContiguousBlockPlacementTest, Nvl72BlocksAlignWithinTheirDomain) {
  Placed p(FleetOf({CatalogPool("gb200-nvl72", 36)}));  // domains 0..71 and 72..143
  p.Take({0});
  EXPECT_EQ(p.Block(16, true), GpuRange(16, 31));
  EXPECT_EQ(p.Block(16, false), GpuRange(1, 16));
  EXPECT_EQ(p.Block(64, true), GpuRange(72, 135));  // aligned to the domain, not to GPU id 64
  EXPECT_EQ(p.Block(64, false), GpuRange(1, 64));
  EXPECT_FALSE(p.Block(128, false));
  p.Take(GpuRange(72, 72));
  EXPECT_FALSE(p.Block(64, true));
  EXPECT_EQ(p.Block(64, false), GpuRange(1, 64));
}

TEST(ContiguousBlockPlacementDeathTest, SizeMustBeAPowerOfTwo) {
  Placed p(FleetOf({CatalogPool("hgx-h100", 1)}));
  EXPECT_DEATH(p.Block(3, true), "power of two");
  EXPECT_DEATH(p.Block(0, false), "power of two");
  EXPECT_DEATH(p.Block(-4, false), "power of two");
}

// --- FindTopologyAware ---------------------------------------------------------------------------

TEST(TopologyAwarePlacementTest, OneDomainWhenPossibleTheTightest) {
  Placed p(FleetOf({CatalogPool("hgx-h100", 2)}));
  p.Take(GpuRange(0, 4));                   // domain 0: 5..7 free
  EXPECT_EQ(p.Spread(4), GpuRange(8, 11));  // not 5..8, which spans two domains
  EXPECT_EQ(p.Spread(3), GpuRange(5, 7));
  EXPECT_EQ(p.Spread(8), GpuRange(8, 15));
}

TEST(TopologyAwarePlacementTest, SpansTheFewestDomainsAndFillsTheLastMostExactly) {
  Placed p(FleetOf({CatalogPool("hgx-h100", 4)}));
  p.Take(GpuRange(8, 12));   // domain 1: 3 free (13..15)
  p.Take(GpuRange(16, 18));  // domain 2: 5 free (19..23)
  p.Take(GpuRange(24, 29));  // domain 3: 2 free (30, 31)
  // 10 = 8 + 2: the 2 come from domain 3, which they fill exactly.
  EXPECT_EQ(p.Spread(10), Concat(GpuRange(0, 7), GpuRange(30, 31)));
  EXPECT_EQ(p.Spread(12), Concat(GpuRange(0, 7), GpuRange(19, 22)));
  EXPECT_EQ(p.Spread(14), Concat(Concat(GpuRange(0, 7), GpuRange(19, 23)), GpuRange(30, 30)));
  EXPECT_EQ(p.topology.SpreadOf(*p.Spread(14)).domains, 3);
  const std::vector<GpuId> everything =
      Concat(Concat(Concat(GpuRange(0, 7), GpuRange(13, 15)), GpuRange(19, 23)), GpuRange(30, 31));
  EXPECT_EQ(p.Spread(18), everything);
  EXPECT_FALSE(p.Spread(19));
}

TEST(TopologyAwarePlacementTest, MixedFleetPrefersTheDomainThatFitsTightest) {
  // GPUs 0..15 HGX (domains 0, 1), 16..87 NVL72 (domain 2), 88..95 NVL pairs (domains 3..6).
  Placed p(FleetOf({CatalogPool("hgx-h100", 2), CatalogPool("gb200-nvl72", 18),
                    CatalogPool("h100-nvl-pairs", 1)}));
  EXPECT_EQ(p.Spread(2), GpuRange(88, 89));
  EXPECT_EQ(p.Spread(5), GpuRange(0, 4));
  EXPECT_EQ(p.Spread(40), GpuRange(16, 55));
  EXPECT_EQ(p.Spread(80), Concat(GpuRange(0, 7), GpuRange(16, 87)));
  EXPECT_EQ(p.topology.SpreadOf(*p.Spread(80)).domains, 2);
  EXPECT_EQ(p.topology.SpreadOf(*p.Spread(91)).domains, 5);  // 72 + 8 + 8 + 2 + 1
  EXPECT_EQ(p.Spread(96)->size(), 96U);
  EXPECT_FALSE(p.Spread(97));
  p.Take(GpuRange(16, 20));
  EXPECT_EQ(p.Spread(67), GpuRange(21, 87));
  EXPECT_EQ(p.topology.SpreadOf(*p.Spread(68)).domains, 2);
}

TEST(TopologyAwarePlacementDeathTest, CountMustBePositive) {
  Placed p(FleetOf({CatalogPool("hgx-h100", 1)}));
  EXPECT_DEATH(p.Spread(0), "at least one GPU");
}

// --- Property test -------------------------------------------------------------------------------

std::int64_t Recount(const Placed& p, std::uint32_t domain) {
  const auto gpus = p.topology.DomainGpus(domain);
  return std::count_if(gpus.begin(), gpus.end(), [&](GpuId g) { return p.state.IsFree(g); });
}

// Brute force: domains by (free, number); in each, every start (multiples of size if aligned).
std::optional<std::vector<GpuId>> ReferenceBlock(const Placed& p, std::int64_t size, bool aligned) {
  std::vector<std::pair<std::int64_t, std::uint32_t>> order;
  for (std::uint32_t d = 0; d < p.topology.domains(); ++d) {
    order.emplace_back(Recount(p, d), d);
  }
  std::sort(order.begin(), order.end());
  for (const auto& entry : order) {
    const std::uint32_t d = entry.second;
    const auto gpus = p.topology.DomainGpus(d);
    const auto n = static_cast<std::int64_t>(gpus.size());
    for (std::int64_t start = 0; start + size <= n; start += aligned ? size : 1) {
      const auto first = gpus.begin() + start;
      if (std::all_of(first, first + size, [&](GpuId g) { return p.state.IsFree(g); })) {
        return std::vector<GpuId>(first, first + size);
      }
    }
  }
  return std::nullopt;
}

// Fewest domains that cover `count`: most free first until covered.
std::int64_t ReferenceMinDomains(const Placed& p, std::int64_t count) {
  std::vector<std::int64_t> free;
  for (std::uint32_t d = 0; d < p.topology.domains(); ++d) {
    free.push_back(Recount(p, d));
  }
  std::sort(free.begin(), free.end(), std::greater<>());
  std::int64_t domains = 0;
  for (const std::int64_t f : free) {
    if (count <= 0) {
      break;
    }
    count -= f;
    ++domains;
  }
  return domains;
}

// Size, distinct, all free.
void ExpectUsable(const Placed& p, const std::vector<GpuId>& gpus, std::int64_t size) {
  ASSERT_EQ(static_cast<std::int64_t>(gpus.size()), size);
  ASSERT_EQ(std::set<GpuId>(gpus.begin(), gpus.end()).size(), gpus.size());
  for (const GpuId g : gpus) {
    ASSERT_TRUE(p.state.IsValid(g));
    ASSERT_TRUE(p.state.IsFree(g));
  }
}

void ExpectBlockShape(const Placed& p, const std::vector<GpuId>& block, bool aligned) {
  const std::uint32_t domain = p.topology.DomainOf(block.front());
  for (std::size_t i = 0; i < block.size(); ++i) {
    ASSERT_EQ(block[i], block.front() + i);
    ASSERT_EQ(p.topology.DomainOf(block[i]), domain);
  }
  if (aligned) {
    ASSERT_EQ((block.front() - p.topology.DomainGpus(domain).front()) % block.size(), 0U);
  }
}

void ExpectIndexMatchesState(const Placed& p) {
  std::vector<std::pair<std::int64_t, std::uint32_t>> order;
  for (std::uint32_t d = 0; d < p.topology.domains(); ++d) {
    ASSERT_EQ(p.index.FreeIn(d), Recount(p, d)) << "domain " << d;
    order.emplace_back(p.index.FreeIn(d), d);
  }
  std::sort(order.begin(), order.end());
  std::vector<std::uint32_t> expected;
  expected.reserve(order.size());
  for (const auto& entry : order) {
    expected.push_back(entry.second);
  }
  ASSERT_EQ(p.index.DomainsWithAtLeast(0), expected);
}

TEST(PlacementPropertyTest, RandomAllocateReleaseKeepsIndexAndContracts) {
  Placed p(FleetOf({CatalogPool("hgx-h100", 6), CatalogPool("h100-nvl-pairs", 3),
                    CatalogPool("gb200-nvl72", 36), CatalogPool("l40s-8", 1)}));
  ASSERT_EQ(p.topology.domains(), 6 + 12 + 2 + 8);
  Rng rng(2024);
  std::vector<std::vector<GpuId>> live;
  std::map<std::string, int> outcomes;
  for (int step = 0; step < 20000; ++step) {
    // Alternate filling and draining phases so both a busy and an empty fleet are exercised.
    const std::int64_t release_percent = (step / 2000) % 2 == 0 ? 30 : 60;
    if (!live.empty() && UniformInt(rng, 0, 99) < release_percent) {
      const auto victim =
          static_cast<std::size_t>(UniformInt(rng, 0, static_cast<std::int64_t>(live.size()) - 1));
      p.index.Release(p.state, live[victim]);
      live[victim] = std::move(live.back());
      live.pop_back();
      ++outcomes["release"];
    } else if (UniformInt(rng, 0, 1) == 0) {
      const std::int64_t size = std::int64_t{1} << UniformInt(rng, 0, 6);
      const bool aligned = UniformInt(rng, 0, 1) == 1;
      const auto block = p.Block(size, aligned);
      ASSERT_EQ(block, ReferenceBlock(p, size, aligned)) << "step " << step;
      if (block) {
        ASSERT_NO_FATAL_FAILURE(ExpectUsable(p, *block, size));
        ASSERT_NO_FATAL_FAILURE(ExpectBlockShape(p, *block, aligned));
        p.Take(*block);
        live.push_back(*block);
      }
      ++outcomes[block ? "block" : "no block"];
    } else {
      const std::int64_t count = UniformInt(rng, 1, 100);
      const auto gpus = p.Spread(count);
      ASSERT_EQ(gpus.has_value(), count <= p.state.free_count()) << "step " << step;
      if (gpus) {
        ASSERT_NO_FATAL_FAILURE(ExpectUsable(p, *gpus, count));
        const std::int64_t domains = p.topology.SpreadOf(*gpus).domains;
        ASSERT_EQ(domains, ReferenceMinDomains(p, count)) << "step " << step;
        if (domains == 1) {  // the best-fitting domain
          const std::vector<std::uint32_t> fits = p.index.DomainsWithAtLeast(count);
          ASSERT_EQ(p.topology.DomainOf(gpus->front()), fits.front()) << "step " << step;
        }
        p.Take(*gpus);
        live.push_back(*gpus);
        ++outcomes[domains == 1 ? "one domain" : "spanning"];
      } else {
        ++outcomes["not enough free"];
      }
    }
    ASSERT_NO_FATAL_FAILURE(ExpectIndexMatchesState(p)) << "step " << step;
  }
  // Every branch was exercised.
  for (const char* outcome :
       {"release", "block", "no block", "one domain", "spanning", "not enough free"}) {
    EXPECT_GT(outcomes[outcome], 100) << outcome;
  }
}

}  // namespace
}  // namespace fleetsim
