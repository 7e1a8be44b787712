// ClusterView's queries against the engine state they summarise: on the mixed fleet filled by
// random placements of every kind (whole, MIG, shares, CPU-only) with nodes cordoned and down,
// every query for every GPU, node, pool and NVLink domain equals what the ledger holds; pools
// show what their configuration declares (a bare fleet: one pool of no model); a hold of the
// call's planner shows in the view at once, and the view's placement helper holds nothing.
#include "fleetsim/policy/cluster_view.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "fleetsim/core/random.h"
#include "fleetsim/ledger/fleet_ledger.h"
#include "fleetsim/ledger/job_queue.h"
#include "fleetsim/policy/placement_choice.h"
#include "testutil/fleets.h"

namespace fleetsim {
namespace {

constexpr SimTime kNow = 1'000'000;

// A random request of one of the four kinds (whole GPUs of 1 to 8, a MIG instance, a share, a
// CPU-only job), with or without a host need.
JobRequest RandomRequest(Rng& rng, int i) {
  JobRequest r;
  r.id = "j" + std::to_string(i);
  switch (UniformInt(rng, 0, 3)) {
    case 0:
      r.gpus = UniformInt(rng, 1, 8);
      break;
    case 1:
      r.sharing = GpuSharing::kMig;
      r.gpu_memory_gb = static_cast<double>(UniformInt(rng, 5, 40));
      break;
    case 2:
      r.sharing = GpuSharing::kFraction;
      r.gpu_milli = UniformInt(rng, 100, 900);
      r.gpu_memory_gb = static_cast<double>(UniformInt(rng, 1, 20));
      break;
    default:
      r.gpus = 0;
      r.cpu_milli = 1000 * UniformInt(rng, 1, 8);
      break;
  }
  if (UniformInt(rng, 0, 1) == 1) {
    r.cpu_milli = std::max<std::int64_t>(r.cpu_milli, 1000 * UniformInt(rng, 1, 4));
    r.memory_mib = 1024 * UniformInt(rng, 1, 32);
  }
  return r;
}

// Fills the fleet with random placements and takes two nodes out: the first cordoned (its work
// stays), the last down (emptied first).
void FillAtRandom(FleetLedger& ledger, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<Allocation> held;
  for (int i = 0; i < 120; ++i) {
    if (std::optional<Allocation> a = ChoosePlacement(ledger, RandomRequest(rng, i))) {
      ledger.Apply(*a);
      held.push_back(*a);
    }
  }
  ledger.SetNodeAvailability(0, NodeAvailability::kCordoned, kNow + 600'000);
  const auto last = static_cast<NodeId>(ledger.topology().nodes() - 1);
  for (const Allocation& a : held) {
    const bool on_last =
        std::any_of(a.gpus.begin(), a.gpus.end(),
                    [&](const Grant& g) { return ledger.topology().NodeOf(g.gpu) == last; }) ||
        std::any_of(a.nodes.begin(), a.nodes.end(),
                    [&](const NodeShare& share) { return share.node == last; });
    if (on_last) {
      ledger.Release(a);
    }
  }
  ledger.SetNodeAvailability(last, NodeAvailability::kDown, kTimeNever);
}

class ClusterViewTest : public ::testing::Test {
 protected:
  ClusterViewTest() : spec_(Spec()), ledger_(spec_) {}

  static FleetSpec Spec() {
    FleetSpec spec = testing::MixedFleet();
    for (PoolSpec& pool : spec.pools) {
      if (pool.tier == PriceTier::kSpot) {
        pool.spot.per_node_hour = 0.02;  // advertised; no process runs in this test
        pool.spot.waves_per_day = 2;
        pool.spot.wave_nodes = 1;
      }
    }
    return spec;
  }

  ClusterView ViewOf(const FleetLedger& ledger) const {
    return ClusterView(kNow, ledger, pools_, {}, queue_, {}, changes_, organization_);
  }

  FleetSpec spec_;
  FleetLedger ledger_;
  std::vector<PoolInfo> pools_ = PoolInfosOf(ledger_);
  JobQueue queue_;
  ChangesSinceLastCall changes_;
  Organization organization_;
};

TEST_F(ClusterViewTest, EveryQueryEqualsTheLedgerOnRandomStates) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    SCOPED_TRACE(seed);
    FleetLedger ledger(spec_);
    FillAtRandom(ledger, seed);
    const ClusterView view = ViewOf(ledger);
    const FleetState& state = ledger.state();
    // The states hold every kind of grant (else the per-GPU checks below would see zeros only).
    std::int64_t whole = 0;
    std::int64_t mig = 0;
    std::int64_t shares = 0;
    for (GpuId g = 0; g < static_cast<GpuId>(state.gpus()); ++g) {
      whole += state.IsHeldWhole(g) ? 1 : 0;
      mig += state.Mig(g).instances();
      shares += state.Fractions(g);
    }
    EXPECT_GT(whole, 0);
    EXPECT_GT(mig, 0);
    EXPECT_GT(shares, 0);
    ASSERT_EQ(view.gpus(), state.gpus());
    EXPECT_EQ(view.FreeWholeGpus(), ledger.whole().free_count());
    std::int64_t free_bits = 0;
    for (GpuId g = 0; g < static_cast<GpuId>(view.gpus()); ++g) {
      const bool not_free = ((view.NotFreeWholeWords()[g / 64] >> (g % 64)) & 1U) != 0;
      EXPECT_EQ(view.IsFreeWhole(g), !not_free) << g;
      EXPECT_EQ(view.IsFreeWhole(g), ledger.whole().IsFree(g)) << g;
      free_bits += not_free ? 0 : 1;
      const GpuNow gpu = view.Gpu(g);
      EXPECT_EQ(gpu.whole, state.IsHeldWhole(g)) << g;
      EXPECT_EQ(gpu.mig_instances, state.Mig(g).instances()) << g;
      EXPECT_EQ(gpu.shares, state.Fractions(g)) << g;
      EXPECT_EQ(gpu.free_milli, state.FreeMilli(g)) << g;
      EXPECT_EQ(gpu.free_memory_gb, state.FreeGpuMemoryGb(g)) << g;
      EXPECT_EQ(view.PoolOfGpu(g), ledger.PoolOfGpu(g)) << g;
      EXPECT_EQ(view.IsGpuUp(g), state.IsGpuUp(g)) << g;
    }
    EXPECT_EQ(free_bits, view.FreeWholeGpus());
    for (auto g = static_cast<std::size_t>(view.gpus()); g < view.NotFreeWholeWords().size() * 64;
         ++g) {
      EXPECT_EQ((view.NotFreeWholeWords()[g / 64] >> (g % 64)) & 1U, 0U) << "past the fleet: " << g;
    }
    for (NodeId n = 0; n < static_cast<NodeId>(state.nodes()); ++n) {
      const NodeNow node = view.Node(n);
      EXPECT_EQ(node.up, state.IsUp(n)) << n;
      EXPECT_EQ(node.back_at, state.IsUp(n) ? kNow : ledger.NodeBackAt(n)) << n;
      EXPECT_EQ(node.first_gpu, state.FirstGpuOfNode(n)) << n;
      EXPECT_EQ(node.end_gpu, state.EndGpuOfNode(n)) << n;
      EXPECT_EQ(node.free_cpu_cores, state.FreeCpuCores(n)) << n;
      EXPECT_EQ(node.free_memory_gb, state.FreeMemoryGb(n)) << n;
      EXPECT_EQ(view.PoolOfNode(n), ledger.PoolOfNode(n)) << n;
    }
    EXPECT_FALSE(view.Node(0).up);
    EXPECT_EQ(view.Node(0).back_at, kNow + 600'000);
    for (PoolIndex p = 0; p < view.pools().size(); ++p) {
      EXPECT_EQ(view.FreeWholeIn(p), ledger.FreeWholeIn(p)) << p;
    }
    for (std::uint32_t d = 0; d < ledger.topology().domains(); ++d) {
      EXPECT_EQ(view.FreeWholeInDomain(d), ledger.index().FreeIn(d)) << d;
    }
    EXPECT_EQ(view.DomainsWithFreeWhole(2), ledger.index().DomainsWithAtLeast(2));
  }
}

TEST_F(ClusterViewTest, PoolsShowWhatTheConfigurationDeclares) {
  const ClusterView view = ViewOf(ledger_);
  ASSERT_EQ(view.pools().size(), spec_.pools.size());
  bool saw_spot = false;
  for (PoolIndex p = 0; p < view.pools().size(); ++p) {
    const PoolInfo& info = view.pools()[p];
    const PoolSpec& spec = spec_.pools[p];
    EXPECT_EQ(info.name, spec.name);
    EXPECT_EQ(info.gpu.name, spec.gpu.name);
    EXPECT_EQ(info.tier, spec.tier);
    EXPECT_EQ(info.mig, spec.mig);
    EXPECT_EQ(info.price_per_gpu_hour, spec.EffectivePrice());
    EXPECT_EQ(info.end_gpu - info.first_gpu, spec.gpus());
    EXPECT_EQ(info.end_node - info.first_node, spec.nodes);
    EXPECT_EQ(info.gpus_per_node, spec.node.gpus_per_node);
    if (spec.tier == PriceTier::kSpot) {
      saw_spot = true;
      // The declared rate plus the waves spread over the pool's nodes: 0.02 + 2 / 24 / nodes.
      EXPECT_NEAR(info.advertised_reclaims_per_node_hour,
                  0.02 + 2.0 / 24.0 / static_cast<double>(spec.nodes), 1e-12);
    } else {
      EXPECT_EQ(info.advertised_reclaims_per_node_hour, 0);
    }
  }
  EXPECT_TRUE(saw_spot);
}

TEST(ClusterViewBareFleetTest, ABareFleetIsOnePoolOfNoModel) {
  const FleetSpec bare{.gpus = 16, .pools = {}};
  const FleetLedger ledger(bare);
  const std::vector<PoolInfo> pools = PoolInfosOf(ledger);
  const JobQueue queue;
  const ChangesSinceLastCall changes;
  const Organization organization;
  const ClusterView view(kNow, ledger, pools, {}, queue, {}, changes, organization);
  ASSERT_EQ(view.pools().size(), 1U);
  EXPECT_EQ(view.pools()[0].name, "");
  EXPECT_EQ(view.pools()[0].first_gpu, 0U);
  EXPECT_EQ(view.pools()[0].end_gpu, 16U);
  EXPECT_EQ(view.FreeWholeIn(0), 16);
  EXPECT_EQ(view.PoolOfGpu(15), 0U);
  JobRequest any;
  any.id = "any";
  EXPECT_TRUE(view.Accepts(any, 0));
}

TEST_F(ClusterViewTest, AHoldShowsInTheViewAndTheHelperHoldsNothing) {
  const ClusterView view = ViewOf(ledger_);
  EnginePlanner planner(ledger_);
  JobRequest four;
  four.id = "four";
  four.gpus = 4;
  const std::int64_t free = view.FreeWholeGpus();
  const std::optional<Allocation> chosen = view.ChoosePlacement(four);
  ASSERT_TRUE(chosen);
  EXPECT_EQ(view.FreeWholeGpus(), free);  // the helper holds nothing
  const std::optional<Allocation> held = planner.Place(four);
  ASSERT_TRUE(held);
  EXPECT_EQ(testing::GpusOf(*held), testing::GpusOf(*chosen));  // the same rules
  EXPECT_EQ(view.FreeWholeGpus(), free - 4);
  for (const Grant& g : held->gpus) {
    EXPECT_FALSE(view.IsFreeWhole(g.gpu));
    EXPECT_TRUE(view.Gpu(g.gpu).whole);
  }
  planner.Rollback();
  EXPECT_EQ(view.FreeWholeGpus(), free);
}

}  // namespace
}  // namespace fleetsim
