// One backfill pass (one Decide call) on a large, busy state. Target (issue): a pass with 10,000
// queued jobs on a 20,000-GPU fleet in <= 10 ms. The fleet is 2,500 HGX H100 nodes (20,000 GPUs,
// NVLink domains of 8). Running jobs of 1..64 GPUs (mostly 8) are placed by the shared helper
// until 97% of the GPUs are busy; they started within the last day with walltime estimates of
// 1..48 hours, so some are past their estimate. The queue holds 10,000 jobs of 1..64 GPUs with
// estimates of 10 minutes..24 hours. Every iteration builds the view afresh, runs Decide, and
// undoes the planner's holds as the engine does; the state and the draws are fixed (seeded), so
// every iteration does the same work. Arguments: max_job_test (10,000: the whole queue; 500: the
// default). Counters: starts = jobs the pass starts.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fleetsim/core/random.h"
#include "fleetsim/fleet/catalog_loader.h"
#include "fleetsim/ledger/fleet_ledger.h"
#include "fleetsim/policy/cluster_view.h"
#include "fleetsim/policy/registry.h"

namespace fleetsim {
namespace {

constexpr std::int64_t kNodes = 2500;
constexpr std::int64_t kQueued = 10'000;
constexpr SimTime kNow = 10 * 86'400'000;
constexpr SimDuration kHour = 3'600'000;

FleetSpec HgxFleet() {
  const Catalog catalog = BuiltinCatalog();
  PoolSpec pool;
  pool.name = "hgx-h100";
  pool.node = *catalog.FindTemplate("hgx-h100");
  pool.gpu = *catalog.FindGpu(pool.node.gpu);
  pool.nodes = kNodes;
  FleetSpec fleet;
  fleet.pools = {pool};
  fleet.gpus = pool.gpus();
  return fleet;
}

std::int64_t JobSize(Rng& rng) {
  static const std::vector<std::int64_t> kSizes = {1, 2, 4, 8, 8, 8, 8, 16, 32, 64};
  return kSizes[static_cast<std::size_t>(UniformInt(rng, 0, std::ssize(kSizes) - 1))];
}

// A fleet 97% busy with running jobs, and a long queue.
struct BusyState {
  explicit BusyState(const FleetSpec& fleet) : ledger(fleet) {
    Rng rng(7);
    const auto target_busy = static_cast<std::int64_t>(0.97 * static_cast<double>(fleet.gpus));
    while (fleet.gpus - ledger.whole().free_count() < target_busy) {
      JobRequest request;
      request.id = "r" + std::to_string(requests.size());
      request.gpus = JobSize(rng);
      request.walltime_estimate = UniformInt(rng, 1, 48) * kHour;
      std::optional<Allocation> placement = ChoosePlacement(ledger, request);
      if (!placement) {
        continue;
      }
      ledger.Apply(*placement);
      running.push_back({static_cast<JobIndex>(requests.size()),
                         kNow - UniformInt(rng, 0, 24 * kHour), std::move(*placement)});
      requests.push_back(std::move(request));
    }
    for (std::int64_t i = 0; i < kQueued; ++i) {
      JobRequest request;
      request.id = "q" + std::to_string(i);
      request.gpus = JobSize(rng);
      request.walltime_estimate = UniformInt(rng, 10, 24 * 60) * 60'000;
      queue.PushBack(static_cast<JobIndex>(requests.size()));
      requests.push_back(std::move(request));
    }
  }

  FleetLedger ledger;
  std::vector<JobRequest> requests;
  JobQueue queue;
  std::vector<RunningJob> running;
};

void BM_BackfillPass(benchmark::State& state, const std::string& mode) {
  const FleetSpec fleet = HgxFleet();
  BusyState busy(fleet);
  const PolicyRegistry registry = BuiltinPolicies();
  const PolicyInfo* info = registry.Find("backfill");
  PolicyParams params = DefaultParams(*info);
  params["mode"] = mode;
  params["max_job_test"] = static_cast<std::int64_t>(state.range(0));
  std::unique_ptr<Policy> policy = info->make(params);
  const ChangesSinceLastCall changes;
  const Organization organization;
  const std::vector<PoolInfo> pools = PoolInfosOf(busy.ledger);
  std::size_t starts = 0;
  for (auto _ : state) {
    EnginePlanner planner(busy.ledger);
    const ClusterView view(kNow, busy.ledger, pools, busy.requests, busy.queue, busy.running,
                           changes, organization);
    const std::vector<Decision> decisions = policy->Decide(view, planner);
    starts = decisions.size();
    planner.Rollback();
    benchmark::DoNotOptimize(decisions.data());
  }
  state.counters["starts"] = static_cast<double>(starts);
  state.counters["running"] = static_cast<double>(busy.running.size());
}
BENCHMARK_CAPTURE(BM_BackfillPass, easy, std::string("easy"))
    ->Arg(kQueued)
    ->Arg(500)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BackfillPass, conservative, std::string("conservative"))
    ->Arg(kQueued)
    ->Arg(500)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace fleetsim
