// The bound's input from a scenario: the checks that the model is sound for it, the jobs split
// into fixed-size jobs and services, the jobs no schedule can start left out.
#include "fleetsim/bound/bound_problem.h"

#include <fmt/format.h>

#include <algorithm>

#include "fleetsim/fleet/topology.h"

namespace fleetsim {

namespace {

std::string Seconds(SimDuration d) { return fmt::format("{:g} s", TimeToSeconds(d)); }

// Adds why the fleet does not fit the model, if it does not.
void CheckFleet(const FleetSpec& fleet, std::vector<std::string>& errors) {
  for (const PoolSpec& pool : fleet.pools) {
    if (pool.spot.any()) {
      errors.push_back(fmt::format(
          "pool '{}' has spot reclaims: the bound assumes no interruptions (a job stopped and "
          "restarted is not one run of its duration)",
          pool.name));
    }
    if (pool.failures.any()) {
      errors.push_back(fmt::format(
          "pool '{}' has hardware failures: the bound assumes no interruptions", pool.name));
    }
    if (pool.mig == MigMode::kStatic) {
      errors.push_back(fmt::format(
          "pool '{}' is statically MIG-partitioned: the bound models whole GPUs only", pool.name));
    }
  }
}

// OK when the job fits the model, else why not.
Status CheckModelled(const JobRequest& r, const JobTruth& truth) {
  if (truth.duration <= 0) {
    return Status::InvalidInput(
        "is given work_gpu_hours: the bound needs true run times (duration_s), which do not "
        "depend on where a job lands");
  }
  if (r.sharing != GpuSharing::kNone) {
    return Status::InvalidInput(
        fmt::format("shares a GPU (sharing '{}'): the bound models whole GPUs only",
                    GpuSharingName(r.sharing)));
  }
  if (r.preemptible) {
    return Status::InvalidInput(
        "is preemptible: the bound assumes no preemption (the post's constraint 5)");
  }
  if (r.IsElastic() && !r.demand) {
    return Status::InvalidInput(
        "has a size range (gpus < max_gpus) but no demand curve: the bound models elastic "
        "jobs only as real-time services");
  }
  return Status::Ok();
}

}  // namespace

BoundProblemResult BoundProblemFromScenario(const Scenario& scenario,
                                            std::optional<SimDuration> step) {
  BoundProblemResult result;
  std::vector<std::string>& errors = result.errors;
  if (scenario.until == kTimeNever || scenario.until <= 0) {
    errors.emplace_back(
        "the scenario has no window (run.until_s): the bound is on the output inside it");
  }
  CheckFleet(scenario.fleet, errors);

  const Workload workload = BuildWorkload(scenario, scenario.seed);
  std::optional<SimDuration> curve_step;
  for (const Job& job : workload.jobs) {
    const JobRequest& r = job.request;
    if (const Status status = CheckModelled(r, job.truth); !status.ok()) {
      errors.push_back(fmt::format("job '{}' {}", r.id, status.message()));
      continue;
    }
    if (r.demand && !step) {
      if (curve_step && *curve_step != r.demand->step) {
        errors.push_back(fmt::format(
            "job '{}' has a demand curve of step {} where another has {}: the grid needs one "
            "step (give one with --step)",
            r.id, Seconds(r.demand->step), Seconds(*curve_step)));
      }
      curve_step = r.demand->step;
    }
  }
  if (!errors.empty()) {
    return result;
  }

  BoundProblem problem;
  problem.scenario = scenario.name;
  problem.seed = scenario.seed;
  problem.window_end = scenario.until;
  problem.step = step.value_or(curve_step.value_or(kDefaultBoundStep));
  problem.gpus = scenario.fleet.gpus;
  const Topology topology(scenario.fleet);
  std::int64_t largest_domain = 0;
  for (std::uint32_t d = 0; d < topology.domains(); ++d) {
    const auto size = static_cast<std::int64_t>(topology.DomainGpus(d).size());
    problem.domains.push_back(size);
    largest_domain = std::max(largest_domain, size);
  }
  for (const Job& job : workload.jobs) {
    const JobRequest& r = job.request;
    const std::string id = fmt::format("'{}'", r.id);
    if (r.IsCpuOnly()) {
      problem.left_out.push_back(id + ": CPU-only, it earns no GPU-hours");
    } else if (r.submit >= problem.window_end) {
      problem.left_out.push_back(id + ": submitted at or after the window's end");
    } else if (r.gpus > problem.gpus) {
      problem.left_out.push_back(
          fmt::format("{}: needs {} GPUs, the fleet has {}", id, r.gpus, problem.gpus));
    } else if ((r.pow2_block || r.nvlink == NvlinkLocality::kRequired) && r.gpus > largest_domain) {
      problem.left_out.push_back(
          fmt::format("{}: needs {} GPUs in one NVLink domain, the largest has {}", id, r.gpus,
                      largest_domain));
    } else if (r.demand) {
      problem.services.push_back({.id = r.id,
                                  .priority = r.priority,
                                  .min_gpus = r.gpus,
                                  .max_gpus = std::min(r.MaxGpus(), problem.gpus),
                                  .submit = r.submit,
                                  .duration = job.truth.duration,
                                  .demand = *r.demand});
    } else {
      problem.batch.push_back({.id = r.id,
                               .priority = r.priority,
                               .gpus = r.gpus,
                               .block = r.pow2_block,
                               .submit = r.submit,
                               .duration = job.truth.duration});
    }
  }
  result.problem = std::move(problem);
  return result;
}

}  // namespace fleetsim
