// Whole-run timing of one fill run (`fleetsim fill`, docs/validation.md): the Alibaba openb
// cluster (1,213 nodes, 6,212 GPUs) filled to 130 % of its GPU capacity with the `default` pod
// list (about 10,900 arrivals) under each of the six placement policies, one seed per iteration.
// The workload is loaded once, outside the timing; each iteration is RunFill plus the per-x
// binning, as one task of the command. The target: < 2 s per run, FGD included.
// Skipped with a message when ../shared/traces is absent.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>

#include "fleetsim/fill/fill_curves.h"
#include "fleetsim/fill/fill_run.h"
#include "fleetsim/fill/fill_workload.h"

namespace fleetsim {
namespace {

const FillWorkload* OpenbDefault(std::string& error) {
  static const std::string dir =
      std::string(FLEETSIM_SOURCE_DIR) + "/../shared/traces/alibaba-openb";
  static FillWorkload workload;
  static const std::string load_error = [] {
    if (!std::filesystem::exists(dir + "/openb_pod_list_default.csv")) {
      return "the openb trace is not in " + dir + "; skipped";
    }
    return LoadFillWorkload(DiskFileSystem(), dir + "/openb_node_list_gpu_node.csv",
                            dir + "/openb_pod_list_default.csv", 0.95, workload)
        .message();
  }();
  error = load_error;
  return error.empty() ? &workload : nullptr;
}

void BM_FillRun(benchmark::State& state, GpuSharePolicy policy) {
  std::string error;
  const FillWorkload* workload = OpenbDefault(error);
  if (workload == nullptr) {
    state.SkipWithError(error.c_str());
    return;
  }
  std::uint64_t seed = 42;
  std::size_t arrivals = 0;
  for (auto _ : state) {
    const std::vector<FillStep> steps = RunFill(*workload, {.policy = policy, .seed = seed++});
    const FillCurve curve = BinByArrivedShare(steps, workload->gpu_capacity_milli, 130);
    benchmark::DoNotOptimize(curve.data());
    arrivals = steps.size();
  }
  state.counters["arrivals"] = static_cast<double>(arrivals);
}

BENCHMARK_CAPTURE(BM_FillRun, random, GpuSharePolicy::kRandom)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_FillRun, dot_product, GpuSharePolicy::kDotProduct)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_FillRun, gpu_clustering, GpuSharePolicy::kGpuClustering)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_FillRun, gpu_packing, GpuSharePolicy::kGpuPacking)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_FillRun, best_fit, GpuSharePolicy::kBestFit)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_FillRun, fgd, GpuSharePolicy::kFgd)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace fleetsim
