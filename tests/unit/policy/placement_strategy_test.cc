// Placement strategies: the named presets and the `placement` parameter; what each rule picks on
// hand-built catalog fleets (first fit takes the lowest GPUs, best fit the tightest domain and
// node, topology-aware the fewest domains, MIG packing the fullest MIG GPU, shares and CPU-only
// jobs by best or first fit); exact sizes; every strategy under fifo and first-fit on random rich
// workloads ends ok; and fifo's peak reservation for real-time jobs.
#include "fleetsim/policy/placement_strategy.h"

#include <gtest/gtest.h>

#include "fleetsim/fleet/catalog_loader.h"
#include "fleetsim/metrics/job_log.h"
#include "fleetsim/policy/placement_choice.h"
#include "fleetsim/sim/simulation.h"
#include "testutil/fleets.h"
#include "testutil/workloads.h"

namespace fleetsim {
namespace {

using testing::CatalogPool;
using testing::FleetOf;
using testing::GpuRange;
using testing::GpusOf;

JobRequest Job(std::int64_t gpus) {
  JobRequest r;
  r.id = "j";
  r.gpus = gpus;
  return r;
}

PlacementStrategy Strategy(std::string_view name) { return *FindPlacementStrategy(name); }

// Places with the named strategy and checks the answer is legal.
std::optional<Allocation> Choose(const FleetLedger& ledger, const JobRequest& r,
                                 std::string_view strategy,
                                 std::optional<std::int64_t> exact_gpus = std::nullopt) {
  std::optional<Allocation> a = ChoosePlacement(ledger, r, Strategy(strategy), exact_gpus);
  if (a) {
    EXPECT_EQ(ledger.CheckAllocation(*a).message(), "") << strategy;
  }
  return a;
}

std::vector<GpuId> ChooseGpus(const FleetLedger& ledger, const JobRequest& r,
                              std::string_view strategy) {
  const std::optional<Allocation> a = Choose(ledger, r, strategy);
  return a ? GpusOf(*a) : std::vector<GpuId>{};
}

TEST(PlacementStrategyTest, PresetsAreNamedAndTheParameterDefaultsToTopologyAware) {
  EXPECT_EQ(PlacementStrategyNames(),
            (std::vector<std::string>{"topology-aware", "first-fit", "best-fit", "mig-packing",
                                      "share-random", "share-dot-product", "share-gpu-clustering",
                                      "share-gpu-packing", "share-best-fit", "share-fgd"}));
  EXPECT_FALSE(FindPlacementStrategy("worst-fit"));
  const ParamSpec spec = PlacementParam();
  EXPECT_EQ(spec.name, "placement");
  EXPECT_EQ(spec.type, ParamType::kChoice);
  EXPECT_EQ(std::get<std::string>(spec.default_value), "topology-aware");
  EXPECT_EQ(spec.choices, PlacementStrategyNames());
  const PlacementStrategy fallback{};
  EXPECT_EQ(fallback.name, "topology-aware");
  EXPECT_EQ(PlacementFromParams({{"placement", std::string("best-fit")}}).whole,
            WholeGpuRule::kBestFit);
  EXPECT_FALSE(fallback.share_scorer);
  for (const PlacementStrategy& strategy : PlacementStrategies()) {
    // The GPU-sharing presets put their scorer in front of the topology-aware rules.
    const bool shared = strategy.name.starts_with("share-");
    EXPECT_EQ(strategy.share_scorer.has_value(), shared) << strategy.name;
    if (shared) {
      EXPECT_EQ("share-" + std::string(GpuSharePolicyName(*strategy.share_scorer)), strategy.name);
      EXPECT_EQ(strategy.whole, WholeGpuRule::kTopologyAware) << strategy.name;
      EXPECT_EQ(strategy.mig, MigRule::kTiered) << strategy.name;
    }
  }
}

TEST(PlacementStrategyTest, FirstFitTakesTheLowestGpusAndTheOthersTheTightestDomain) {
  FleetLedger ledger(FleetOf({CatalogPool("hgx-h100", 2)}));
  ledger.Apply(WholeGpus(GpuRange(8, 13)));  // domain 1 has 2 free
  EXPECT_EQ(ChooseGpus(ledger, Job(2), "first-fit"), (std::vector<GpuId>{0, 1}));
  EXPECT_EQ(ChooseGpus(ledger, Job(2), "topology-aware"), (std::vector<GpuId>{14, 15}));
  EXPECT_EQ(ChooseGpus(ledger, Job(2), "best-fit"), (std::vector<GpuId>{14, 15}));
}

TEST(PlacementStrategyTest, JobsLargerThanAnyDomainSpanDomainsByStrategy) {
  FleetLedger ledger(FleetOf({CatalogPool("hgx-h100", 3)}));
  ledger.Apply(WholeGpus(GpuRange(0, 4)));   // domain 0: 3 free (5-7)
  ledger.Apply(WholeGpus(GpuRange(8, 10)));  // domain 1: 5 free (11-15); domain 2: 8 free
  const JobRequest r = Job(10);
  // Fewest domains: domain 2 whole, the rest in the domain it fills most exactly (domain 0).
  std::vector<GpuId> expected = {5, 6};
  for (const GpuId g : GpuRange(16, 23)) {
    expected.push_back(g);
  }
  EXPECT_EQ(ChooseGpus(ledger, r, "topology-aware"), expected);
  // Smallest holes first: domain 0 (3), domain 1 (5), then 2 of domain 2; the 8 are kept apart
  // from nothing, but the whole domain 2 is not used up.
  expected = {5, 6, 7, 11, 12, 13, 14, 15, 16, 17};
  EXPECT_EQ(ChooseGpus(ledger, r, "best-fit"), expected);
  EXPECT_EQ(ChooseGpus(ledger, r, "first-fit"), expected);  // the lowest free GPUs
}

TEST(PlacementStrategyTest, BestFitTakesTheTightestNodeOfAnNvl72Domain) {
  FleetLedger ledger(FleetOf({CatalogPool("gb200-nvl72", 18)}));  // one domain, 4 GPUs a node
  ledger.Apply(WholeGpus(GpuRange(0, 2)));                        // node 0: GPU 3 free
  ledger.Apply(WholeGpus(GpuRange(4, 5)));                        // node 1: GPUs 6 and 7 free
  EXPECT_EQ(ChooseGpus(ledger, Job(2), "best-fit"), (std::vector<GpuId>{6, 7}));
  EXPECT_EQ(ChooseGpus(ledger, Job(2), "topology-aware"), (std::vector<GpuId>{3, 6}));
  EXPECT_EQ(ChooseGpus(ledger, Job(2), "first-fit"), (std::vector<GpuId>{3, 6}));
  // No node holds 5: the smallest holes first (3; 6, 7), then a whole node.
  EXPECT_EQ(ChooseGpus(ledger, Job(5), "best-fit"), (std::vector<GpuId>{3, 6, 7, 8, 9}));
  ledger.Apply(WholeGpus(GpuRange(8, 10)));  // node 2: GPU 11 free
  // Nodes 0 and 2 (1 free each), node 1 (2), then node 3; listed in ascending order.
  EXPECT_EQ(ChooseGpus(ledger, Job(5), "best-fit"), (std::vector<GpuId>{3, 6, 7, 11, 12}));
}

TEST(PlacementStrategyTest, BlocksAndNvlinkRequiredStayInOneDomainUnderEveryStrategy) {
  FleetLedger ledger(FleetOf({CatalogPool("hgx-h100", 3)}));
  ledger.Apply(WholeGpus(GpuRange(0, 0)));   // domain 0: an aligned 4 at 4
  ledger.Apply(WholeGpus(GpuRange(8, 11)));  // domain 1: an aligned 4 at 12; domain 2 whole
  JobRequest block = Job(4);
  block.pow2_block = true;
  EXPECT_EQ(ChooseGpus(ledger, block, "first-fit"), GpuRange(4, 7));
  EXPECT_EQ(ChooseGpus(ledger, block, "best-fit"), GpuRange(12, 15));
  EXPECT_EQ(ChooseGpus(ledger, block, "topology-aware"), GpuRange(12, 15));
  JobRequest required = Job(6);
  required.nvlink = NvlinkLocality::kRequired;
  EXPECT_EQ(ChooseGpus(ledger, required, "first-fit"), GpuRange(1, 6));
  EXPECT_EQ(ChooseGpus(ledger, required, "best-fit"), GpuRange(1, 6));
  required.gpus = 9;
  for (const std::string& name : PlacementStrategyNames()) {
    EXPECT_FALSE(Choose(ledger, required, name)) << name;
  }
}

TEST(PlacementStrategyTest, AnExactSizeIsPlacedAsAsked) {
  FleetLedger ledger(FleetOf({CatalogPool("hgx-h100", 2)}));
  JobRequest r = Job(2);
  r.max_gpus = 8;
  EXPECT_EQ(GpusOf(*Choose(ledger, r, "topology-aware", 6)), GpuRange(0, 5));
  EXPECT_EQ(GpusOf(*Choose(ledger, r, "topology-aware")), GpuRange(0, 7));  // the helper: largest
  ledger.Apply(WholeGpus(GpuRange(0, 11)));
  EXPECT_FALSE(Choose(ledger, r, "first-fit", 6));  // 4 free
}

class MigStrategyTest : public ::testing::Test {
 protected:
  MigStrategyTest() {
    PoolSpec pool = CatalogPool("hgx-h100", 1);
    pool.mig = MigMode::kDynamic;
    fleet_ = FleetOf({pool});
    ledger_ = std::make_unique<FleetLedger>(fleet_);
    request_ = Job(1);
    request_.sharing = GpuSharing::kMig;
    request_.gpu_memory_gb = 10;  // 1g.10gb
  }

  void PlaceMig(GpuId gpu, const std::string& profile, int start) {
    const MigProfile* p = ledger_->state().ModelOf(gpu).FindMigProfile(profile);
    ledger_->Apply(Allocation{{Grant::Mig(gpu, *p, start)}, {}});
  }

  GpuId ChosenGpu(std::string_view strategy) {
    const std::optional<Allocation> a = Choose(*ledger_, request_, strategy);
    EXPECT_TRUE(a) << strategy;
    return a ? a->gpus[0].gpu : kNoGpu;
  }

  static constexpr GpuId kNoGpu = 999;
  FleetSpec fleet_;
  std::unique_ptr<FleetLedger> ledger_;
  JobRequest request_;
};

TEST_F(MigStrategyTest, PackingPrefersTheFullestMigGpuAndKeepsIdleGpusWhole) {
  PlaceMig(5, "1g.10gb", 0);                // 1 compute slice in use
  EXPECT_EQ(ChosenGpu("mig-packing"), 5U);  // not idle GPU 0
  EXPECT_EQ(ChosenGpu("topology-aware"), 5U);
  EXPECT_EQ(ChosenGpu("first-fit"), 0U);  // the lowest GPU that can take it
  PlaceMig(6, "4g.40gb", 0);              // 4 in use
  EXPECT_EQ(ChosenGpu("mig-packing"), 6U);
  EXPECT_EQ(ChosenGpu("best-fit"), 6U);
  EXPECT_EQ(ChosenGpu("topology-aware"), 5U);  // the lowest GPU in MIG mode
  PlaceMig(6, "3g.40gb", 4);                   // GPU 6 is full
  EXPECT_EQ(ChosenGpu("mig-packing"), 5U);
}

TEST(PlacementStrategyTest, SharesGoToTheFullestGpuOrTheLowest) {
  FleetLedger ledger(FleetOf({CatalogPool("hgx-h100", 1)}));
  ledger.Apply(Allocation{{Grant::Fraction(2, 200, 10)}, {}});
  ledger.Apply(Allocation{{Grant::Fraction(5, 600, 10)}, {}});
  JobRequest r = Job(1);
  r.sharing = GpuSharing::kFraction;
  r.gpu_milli = 400;
  EXPECT_EQ(Choose(ledger, r, "best-fit")->gpus[0].gpu, 5U);
  EXPECT_EQ(Choose(ledger, r, "topology-aware")->gpus[0].gpu, 5U);
  EXPECT_EQ(Choose(ledger, r, "first-fit")->gpus[0].gpu, 0U);
}

TEST(PlacementStrategyTest, CpuOnlyJobsTakeTheTightestOrTheLowestNode) {
  PoolSpec large = CatalogPool("hgx-h100", 1, "large");
  large.cpu_cores = 128;
  PoolSpec small = CatalogPool("hgx-h100", 1, "small");
  small.cpu_cores = 16;
  FleetLedger ledger(FleetOf({large, small}));
  JobRequest r = Job(0);
  r.cpu_milli = 8000;
  EXPECT_EQ(Choose(ledger, r, "best-fit")->nodes[0].node, 1U);
  EXPECT_EQ(Choose(ledger, r, "first-fit")->nodes[0].node, 0U);
}

// ---- Whole runs. ----

std::unique_ptr<Policy> MakePolicy(const std::string& name, const std::string& placement) {
  const PolicyRegistry registry = BuiltinPolicies();
  const PolicyInfo* info = registry.Find(name);
  PolicyParams params = DefaultParams(*info);
  params["placement"] = placement;
  return info->make(params);
}

SimulationOptions Options() {
  return {.reference_gpu = *BuiltinCatalog().FindGpu("H100-SXM"), .speed = {}};
}

class EveryStrategyTest
    : public ::testing::TestWithParam<std::tuple<std::string, std::string, std::uint64_t>> {};

TEST_P(EveryStrategyTest, RichWorkloadsRunToCompletionWithLegalPlacements) {
  const auto& [policy, placement, seed] = GetParam();
  const Workload w = testing::RichWorkload(seed, 300);
  Simulation sim(testing::MixedFleet(), w, MakePolicy(policy, placement), policy, Options());
  JobLog log;
  sim.AddObserver(&log);
  const Status status = sim.RunUntilIdle();
  ASSERT_TRUE(status.ok()) << status.message();
  sim.Finish();
  for (const JobRecordRow& row : log.rows()) {
    EXPECT_TRUE(row.state == FinalState::kCompleted || row.state == FinalState::kRejected)
        << row.id;
  }
}

INSTANTIATE_TEST_SUITE_P(Strategies, EveryStrategyTest,
                         ::testing::Combine(::testing::Values("fifo", "first-fit"),
                                            ::testing::ValuesIn(PlacementStrategyNames()),
                                            ::testing::Values(1U, 2U)));

// ---- fifo's real-time peak reservation. ----

fleetsim::Job& AddRealtime(Workload& w, const std::string& id, std::int64_t gpus,
                           std::int64_t max_gpus, std::vector<std::int64_t> demand) {
  fleetsim::Job& job = testing::AddJob(w, id, 0, gpus, 6 * 3600);
  job.request.kind = JobKind::kRealtimeInference;
  job.request.max_gpus = max_gpus;
  job.request.demand = DemandCurve{.step = SecondsToTime(3600), .gpus = std::move(demand)};
  return job;
}

class StartRecorder final : public SimulationObserver {
 public:
  void OnJobStarted(const JobStarted& e) override {
    starts.push_back({e.request.id, e.time, e.summary.gpus.size()});
  }
  struct Start {
    std::string id;
    SimTime time = 0;
    std::size_t gpus = 0;
  };
  std::vector<Start> starts;
};

std::vector<StartRecorder::Start> RunFifo(const FleetSpec& fleet, const Workload& w) {
  Simulation sim(fleet, w, MakePolicy("fifo", "topology-aware"), "fifo", Options());
  StartRecorder starts;
  sim.AddObserver(&starts);
  const Status status = sim.RunUntilIdle();
  EXPECT_TRUE(status.ok()) << status.message();
  return starts.starts;
}

TEST(FifoPeakReservationTest, ARealtimeJobGetsExactlyItsPeakForItsWholeLife) {
  Workload w;
  AddRealtime(w, "serve", 2, 8, {2, 6, 3});
  const auto starts = RunFifo(FleetOf({CatalogPool("hgx-h100", 2)}), w);
  ASSERT_EQ(starts.size(), 1U);
  EXPECT_EQ(starts[0].gpus, 6U);  // not the 8 the free GPUs allow
}

TEST(FifoPeakReservationTest, ThePeakIsClampedToTheSizeRange) {
  Workload w;
  AddRealtime(w, "low", 3, 8, {1, 2});  // peak 2 < gpus: 3
  AddRealtime(w, "block", 1, 8, {3});   // block job: peak 3 rounds up to 4
  w.jobs[1].request.pow2_block = true;
  SortBySubmit(w);
  const auto starts = RunFifo(FleetOf({CatalogPool("hgx-h100", 2)}), w);
  ASSERT_EQ(starts.size(), 2U);
  EXPECT_EQ(starts[0].id, "block");
  EXPECT_EQ(starts[0].gpus, 4U);
  EXPECT_EQ(starts[1].gpus, 3U);
}

TEST(FifoPeakReservationTest, AHeadJobThatCannotGetItsPeakBlocksTheQueue) {
  Workload w;
  testing::AddJob(w, "train", 0, 12, 3600);
  AddRealtime(w, "serve", 2, 8, {6}).request.submit = SecondsToTime(10);
  testing::AddJob(w, "small", 20, 1, 60);
  SortBySubmit(w);
  const auto starts = RunFifo(FleetOf({CatalogPool("hgx-h100", 2)}), w);
  ASSERT_EQ(starts.size(), 3U);
  // 4 GPUs are free: enough for serve's minimum and for small, but serve waits for its peak of 6
  // and small waits behind it.
  EXPECT_EQ(starts[1].id, "serve");
  EXPECT_EQ(starts[1].time, SecondsToTime(3600));
  EXPECT_EQ(starts[1].gpus, 6U);
  EXPECT_EQ(starts[2].id, "small");
  EXPECT_EQ(starts[2].time, SecondsToTime(3600));
}

}  // namespace
}  // namespace fleetsim
