// ReplayBound: the bound's best solution as an oracle policy, run by the engine.
#include "fleetsim/bound/bound_replay.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "fleetsim/policy/policy.h"
#include "fleetsim/policy/registry.h"
#include "fleetsim/scenario/runner.h"

namespace fleetsim {

namespace {

constexpr const char* kReplayPolicy = "bound-replay";

struct ServiceTargets {
  std::vector<std::int64_t> gpus;  // per grid step
};

struct Plan {
  SimDuration step = 0;
  std::map<std::string, SimTime> starts;           // by job id
  std::map<std::string, ServiceTargets> services;  // by job id
};

struct ReplayStats {
  std::int64_t started_late = 0;
  std::int64_t started_early = 0;
};

// How a replay breaks the plan's ties with the GPUs: whether a job that cannot start when
// planned holds back the jobs planned after it, and which end of the GPU line services take.
struct ReplayVariant {
  bool in_order = false;
  bool services_low = false;
  bool early = false;  // a job may start before its planned start (list scheduling in plan order)
};

class ReplayPolicy final : public Policy {
 public:
  ReplayPolicy(std::shared_ptr<const Plan> plan, std::shared_ptr<ReplayStats> stats,
               ReplayVariant variant)
      : plan_(std::move(plan)), stats_(std::move(stats)), variant_(variant) {}

  std::vector<Decision> Decide(const ClusterView& view, PlacementPlanner& /*planner*/) override {
    const SimTime now = view.now();
    const std::int64_t step = now / plan_->step;
    const auto gpus = static_cast<GpuId>(view.gpus());
    free_.assign(gpus, false);
    for (GpuId g = 0; g < gpus; ++g) {
      free_[g] = view.IsFreeWhole(g);
    }
    std::vector<Decision> decisions;
    for (const RunningJob& running : view.running()) {
      const JobRequest& request = view.request(running.job);
      const auto it = plan_->services.find(request.id);
      if (it == plan_->services.end() || resized_step_[running.job] == step) {
        continue;
      }
      resized_step_[running.job] = step;
      std::vector<GpuId> held;
      for (const Grant& grant : running.placement.gpus) {
        held.push_back(grant.gpu);
      }
      std::sort(held.begin(), held.end());
      const auto current = static_cast<std::int64_t>(held.size());
      std::int64_t want = Target(request, it->second, step);
      if (const std::int64_t cap = request.demand->swap_cap; cap > 0) {
        want = std::clamp(want, current - cap, current + cap);
      }
      if (want < current) {
        held.erase(held.begin(), held.begin() + (current - want));
      } else {
        for (GpuId g = gpus; g-- > 0 && static_cast<std::int64_t>(held.size()) < want;) {
          if (free_[g]) {
            free_[g] = false;
            held.push_back(g);
          }
        }
      }
      if (static_cast<std::int64_t>(held.size()) != current) {
        std::sort(held.begin(), held.end());
        decisions.push_back(ResizeJob{running.job, WholeGpus(held)});
        for (const GpuId g : held) {
          free_[g] = false;
        }
      }
    }
    std::vector<std::pair<SimTime, JobIndex>> due;
    SimTime next = (step + 1) * plan_->step;
    for (const JobIndex job : view.queue()) {
      const JobRequest& request = view.request(job);
      if (const auto s = plan_->services.find(request.id); s != plan_->services.end()) {
        const std::int64_t want = Target(request, s->second, step);
        if (std::optional<std::vector<GpuId>> taken = TakeFromTop(want, request.gpus)) {
          decisions.push_back(StartJob{job, WholeGpus(*taken)});
          resized_step_[job] = step;
        }
        continue;
      }
      const auto planned = plan_->starts.find(request.id);
      if (planned == plan_->starts.end()) {
        continue;  // the plan does not start it
      }
      if (planned->second > now && !variant_.early) {
        next = std::min(next, planned->second);
      } else {
        due.emplace_back(planned->second, job);
      }
    }
    std::sort(due.begin(), due.end());
    for (const auto& [planned, job] : due) {
      const JobRequest& request = view.request(job);
      const std::optional<std::vector<GpuId>> placed =
          request.pow2_block ? TakeAlignedBlock(view.topology(), request.gpus)
                             : TakeFromBottom(request.gpus);
      if (placed) {
        decisions.push_back(StartJob{job, WholeGpus(*placed)});
        stats_->started_late += planned < now ? 1 : 0;
        stats_->started_early += planned > now ? 1 : 0;
      } else if (variant_.in_order) {
        break;
      }
    }
    if (!view.queue().empty() || !view.running().empty()) {
      decisions.push_back(WakeAt{next});
    }
    return decisions;
  }

 private:
  static std::int64_t Target(const JobRequest& request, const ServiceTargets& targets,
                             std::int64_t step) {
    const std::int64_t planned = step < static_cast<std::int64_t>(targets.gpus.size())
                                     ? targets.gpus[static_cast<std::size_t>(step)]
                                     : request.demand->At(step * request.demand->step);
    return std::clamp(planned, request.gpus, request.MaxGpus());
  }

  // GPU g of the line as the variant orders it: services from the top by default.
  GpuId Line(GpuId g) const {
    return variant_.services_low ? static_cast<GpuId>(free_.size()) - 1 - g : g;
  }

  std::optional<std::vector<GpuId>> TakeFromTop(std::int64_t want, std::int64_t at_least) {
    std::vector<GpuId> taken;
    for (auto i = static_cast<GpuId>(free_.size()); i-- > 0;) {
      const GpuId g = Line(i);
      if (free_[g] && static_cast<std::int64_t>(taken.size()) < want) {
        taken.push_back(g);
      }
    }
    if (static_cast<std::int64_t>(taken.size()) < at_least) {
      return std::nullopt;
    }
    for (const GpuId g : taken) {
      free_[g] = false;
    }
    std::sort(taken.begin(), taken.end());
    return taken;
  }

  std::optional<std::vector<GpuId>> TakeFromBottom(std::int64_t want) {
    std::vector<GpuId> taken;
    for (GpuId i = 0; i < free_.size() && static_cast<std::int64_t>(taken.size()) < want; ++i) {
      const GpuId g = Line(i);
      if (free_[g]) {
        taken.push_back(g);
      }
    }
    if (static_cast<std::int64_t>(taken.size()) < want) {
      return std::nullopt;
    }
    for (const GpuId g : taken) {
      free_[g] = false;
    }
    return taken;
  }

  // The lowest aligned block of `size` free GPUs inside one NVLink domain.
  std::optional<std::vector<GpuId>> TakeAlignedBlock(const Topology& topology, std::int64_t size) {
    const auto domains = static_cast<std::uint32_t>(topology.domains());
    for (std::uint32_t i = 0; i < domains; ++i) {
      const std::span<const GpuId> domain =
          topology.DomainGpus(variant_.services_low ? domains - 1 - i : i);
      const auto n = static_cast<std::size_t>(size);
      const std::size_t blocks = domain.size() / n;
      for (std::size_t b = 0; b < blocks; ++b) {
        const std::size_t first = (variant_.services_low ? blocks - 1 - b : b) * n;
        const auto block = domain.subspan(first, n);
        if (std::all_of(block.begin(), block.end(), [&](GpuId g) { return free_[g]; })) {
          for (const GpuId g : block) {
            free_[g] = false;
          }
          return std::vector<GpuId>(block.begin(), block.end());
        }
      }
    }
    return std::nullopt;
  }

  std::shared_ptr<const Plan> plan_;
  std::shared_ptr<ReplayStats> stats_;
  ReplayVariant variant_;
  std::vector<bool> free_;                         // this call's view, as decisions take GPUs
  std::map<JobIndex, std::int64_t> resized_step_;  // the step a service was last sized in
};

}  // namespace

ReplayOutcome ReplayBound(const Scenario& scenario, const BoundResult& result) {
  auto plan = std::make_shared<Plan>();
  plan->step = result.step;
  for (const BoundStart& start : result.starts) {
    plan->starts[start.id] = start.start;
  }
  for (const BoundServicePlan& service : result.services) {
    ServiceTargets& targets = plan->services[service.id];
    for (std::size_t m = 0; m < service.served_gpu_hours.size(); ++m) {
      const SimTime begin = static_cast<SimTime>(m) * result.step;
      const double hours =
          static_cast<double>(std::min(begin + result.step, result.window_end) - begin) / 3.6e6;
      targets.gpus.push_back(
          static_cast<std::int64_t>(std::ceil(service.served_gpu_hours[m] / hours - 1e-6)));
    }
  }
  std::optional<ReplayOutcome> best;
  for (int v = 0; v < 8; ++v) {
    const ReplayVariant variant{
        .in_order = (v & 1) != 0, .services_low = (v & 2) != 0, .early = (v & 4) != 0};
    auto stats = std::make_shared<ReplayStats>();
    PolicyRegistry registry;
    registry.Add({.name = kReplayPolicy,
                  .summary = "The bound's best solution, replayed (an oracle).",
                  .params = {},
                  .make = [plan, stats, variant](const PolicyParams&) {
                    return std::make_unique<ReplayPolicy>(plan, stats, variant);
                  }});
    RunOptions options;
    options.seed = scenario.seed;
    const RunOutcome run =
        RunScenario(scenario, registry, PolicyChoice{.name = kReplayPolicy, .params = {}}, options);
    if (!run.status.ok()) {
      return {.status = run.status};
    }
    const double output = run.report.accounting.priority_weighted_output;
    if (!best || output > best->output) {
      best = {.status = Status::Ok(),
              .output = output,
              .jobs_started_late = stats->started_late,
              .jobs_started_early = stats->started_early};
    }
  }
  return *best;
}

}  // namespace fleetsim
