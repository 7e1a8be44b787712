// MIG placement decisions per second, items per second = decisions. Target (issue): >= 50k MIG
// placement decisions per second. Two measurements:
//  - online placement: 20,000 H100 GPUs; each iteration takes the next GPU round-robin and a
//    random profile, asks BestStart and places the instance there if it fits, and otherwise
//    removes the GPU's oldest instance — so GPUs stay partly full and fragmented, as in a busy
//    fleet. One decision = one BestStart (+ Place or Remove);
//  - static layouts: PlaceLayout on a mix of valid and invalid layouts (the scenario-load path),
//    one decision = one layout checked.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "fleetsim/core/random.h"
#include "fleetsim/fleet/gpu_model.h"
#include "fleetsim/fleet/mig.h"

namespace fleetsim {
namespace {

MigProfile Profile(std::string name, int compute, int memory, std::vector<int> starts,
                   int max_instances, bool media_extensions = false) {
  MigProfile profile;
  profile.name = std::move(name);
  profile.compute_slices = compute;
  profile.memory_slices = memory;
  profile.starts = std::move(starts);
  profile.max_instances = max_instances;
  profile.media_extensions = media_extensions;
  return profile;
}

// The H100-80GB table (docs/domain-data.md §1.1).
GpuModel H100() {
  GpuModel model;
  model.name = "H100-SXM";
  model.mig_profiles = {
      Profile("1g.10gb", 1, 1, {0, 1, 2, 3, 4, 5, 6}, 7),
      Profile("1g.10gb+me", 1, 1, {0, 1, 2, 3, 4, 5, 6}, 1, true),
      Profile("1g.20gb", 1, 2, {0, 2, 4, 6}, 4),
      Profile("2g.20gb", 2, 2, {0, 2, 4}, 3),
      Profile("3g.40gb", 3, 4, {0, 4}, 2),
      Profile("4g.40gb", 4, 4, {0}, 1),
      Profile("7g.80gb", 7, 8, {0}, 1),
  };
  return model;
}

// Precomputed profile picks so the benchmark measures placement, not the RNG.
std::vector<std::size_t> Picks(std::size_t n, std::size_t profiles) {
  Rng rng(3);
  std::vector<std::size_t> picks(n);
  for (std::size_t& pick : picks) {
    pick = static_cast<std::size_t>(UniformInt(rng, 0, static_cast<std::int64_t>(profiles) - 1));
  }
  return picks;
}

void BM_MigOnlinePlacement(benchmark::State& state) {
  const GpuModel model = H100();
  const std::vector<MigProfile>& profiles = model.mig_profiles;
  const auto gpu_count = static_cast<std::size_t>(state.range(0));
  std::vector<MigGpuState> gpus(gpu_count);
  constexpr std::size_t kPicks = 1 << 16;
  const std::vector<std::size_t> picks = Picks(kPicks, profiles.size());
  std::size_t next_gpu = 0;
  std::size_t next_pick = 0;
  std::int64_t placed = 0;
  for (auto _ : state) {
    MigGpuState& gpu = gpus[next_gpu];
    next_gpu = next_gpu + 1 == gpu_count ? 0 : next_gpu + 1;
    const MigProfile& profile = profiles[picks[next_pick++ & (kPicks - 1)]];
    if (const std::optional<int> start = gpu.BestStart(profile, profiles)) {
      gpu.Place(profile, *start);
      ++placed;
    } else if (!gpu.empty()) {
      const MigPlacement oldest = gpu.placements().front();
      gpu.Remove(*oldest.profile, oldest.start);
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.counters["placed_fraction"] =
      static_cast<double>(placed) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_MigOnlinePlacement)->Arg(20'000);

void BM_MigPlaceLayout(benchmark::State& state) {
  const GpuModel model = H100();
  const std::vector<std::map<std::string, int>> layouts = {
      {{"4g.40gb", 1}, {"3g.40gb", 1}}, {{"4g.40gb", 2}},
      {{"3g.40gb", 1}, {"2g.20gb", 2}}, {{"2g.20gb", 1}, {"1g.10gb", 5}},
      {{"3g.40gb", 2}, {"1g.10gb", 1}}, {{"1g.20gb", 1}, {"1g.10gb", 6}},
  };
  std::size_t next = 0;
  for (auto _ : state) {
    const LayoutCheck check = PlaceLayout(model, layouts[next]);
    benchmark::DoNotOptimize(check);
    next = next + 1 == layouts.size() ? 0 : next + 1;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_MigPlaceLayout);

}  // namespace
}  // namespace fleetsim
