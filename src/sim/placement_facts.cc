// Placement summaries and run times (see placement_facts.h).
#include "sim/placement_facts.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include "fleetsim/core/check.h"

namespace fleetsim {

namespace {

// The GPU model's own profile of a (checked) MIG grant's name.
const MigProfile& ProfileOf(const FleetState& state, const Grant& grant) {
  const MigProfile* profile = state.ModelOf(grant.gpu).FindMigProfile(grant.profile->name);
  FLEETSIM_CHECK(profile != nullptr, "a MIG grant names a profile its GPU does not have");
  return *profile;
}

double GrantShare(const FleetState& state, const Grant& grant) {
  switch (grant.kind) {
    case Grant::Kind::kWhole:
      return 1;
    case Grant::Kind::kMig:
      return static_cast<double>(ProfileOf(state, grant).compute_slices) / kMigComputeSlices;
    case Grant::Kind::kFraction:
      return static_cast<double>(grant.milli) / static_cast<double>(kWholeGpuMilli);
  }
  return 0;
}

double GrantSpeed(const SpeedModel& speed, const FleetState& state, const Grant& grant,
                  WorkBound bound) {
  const double gpu = speed.GpuSpeed(state.ModelOf(grant.gpu), bound).value_or(1.0);
  switch (grant.kind) {
    case Grant::Kind::kWhole:
      return gpu;
    case Grant::Kind::kMig:
      return gpu * SpeedModel::MigShare(ProfileOf(state, grant), bound);
    case Grant::Kind::kFraction:
      return gpu * static_cast<double>(grant.milli) / static_cast<double>(kWholeGpuMilli);
  }
  return gpu;
}

}  // namespace

PlacementSummary Summarize(const FleetLedger& ledger, const Allocation& placement) {
  PlacementSummary summary;
  summary.gpus.reserve(placement.gpus.size());
  std::map<PoolIndex, double> by_pool;
  for (const Grant& grant : placement.gpus) {
    summary.gpus.push_back(grant.gpu);
    const double share = GrantShare(ledger.state(), grant);
    summary.gpu_share += share;
    by_pool[ledger.PoolOfGpu(grant.gpu)] += share;
  }
  summary.share_by_pool.assign(by_pool.begin(), by_pool.end());
  std::sort(summary.gpus.begin(), summary.gpus.end());
  summary.gpus.erase(std::unique(summary.gpus.begin(), summary.gpus.end()), summary.gpus.end());
  std::set<std::string> models;
  for (std::size_t i = 0; i < summary.gpus.size(); ++i) {
    const GpuId gpu = summary.gpus[i];
    const Topology& topology = ledger.topology();
    if (i == 0 || topology.DomainOf(gpu) != topology.DomainOf(summary.gpus[i - 1])) {
      ++summary.domains;
    }
    if (i == 0 || ledger.PoolOfGpu(gpu) != ledger.PoolOfGpu(summary.gpus[i - 1])) {
      const std::string& name = ledger.state().ModelOf(gpu).name;
      if (!name.empty()) {
        models.insert(name);
      }
    }
  }
  if (!models.empty()) {
    summary.gpu_models = fmt::format("{}", fmt::join(models, "|"));
  }
  return summary;
}

WorkBound BoundOf(JobKind kind) {
  return kind == JobKind::kBatchInference || kind == JobKind::kRealtimeInference
             ? WorkBound::kMemory
             : WorkBound::kCompute;
}

SimDuration RunTime(const SpeedModel& speed, const FleetLedger& ledger, const JobRequest& request,
                    const JobTruth& truth, const Allocation& placement,
                    const PlacementSummary& summary) {
  if (truth.duration > 0) {
    return truth.duration;
  }
  FLEETSIM_CHECK(truth.work_gpu_hours > 0 && !placement.gpus.empty(),
                 "a job with work in GPU-hours needs GPUs");
  const WorkBound bound = BoundOf(request.kind);
  double slowest = GrantSpeed(speed, ledger.state(), placement.gpus.front(), bound);
  for (const Grant& grant : placement.gpus) {
    slowest = std::min(slowest, GrantSpeed(speed, ledger.state(), grant, bound));
  }
  return speed.Duration(truth.work_gpu_hours, static_cast<std::int64_t>(summary.gpus.size()),
                        slowest, summary.domains);
}

double WorkRate(const JobTruth& truth, const PlacementSummary& summary, SimDuration run_time) {
  if (truth.duration > 0) {
    return summary.gpu_share;
  }
  return truth.work_gpu_hours * 3'600'000.0 /
         static_cast<double>(std::max<SimDuration>(run_time, 1));
}

}  // namespace fleetsim
