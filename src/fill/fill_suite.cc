// Running fill scenarios on several threads and comparing them with the paper's results.
#include "fleetsim/fill/fill_suite.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "fleetsim/core/parallel.h"
#include "fleetsim/fill/fill_run.h"
#include "fleetsim/fill/fill_workload.h"

namespace fleetsim {

namespace {

struct FillTask {
  std::size_t scenario = 0;
  std::size_t policy = 0;
  std::size_t seed = 0;
};

// Per scenario, per seed: the runs' given orders (empty without FillSuiteOptions::orders_dir).
using GivenOrders = std::vector<std::vector<FillOrder>>;

void RunTask(const FillTask& task, const std::vector<FillWorkload>& workloads,
             const GivenOrders& orders, const FillSuiteOptions& suite,
             std::vector<FillScenarioResult>& results) {
  FillScenarioResult& scenario = results[task.scenario];
  FillPolicyResult& policy = scenario.policies[task.policy];
  const FillWorkload& workload = workloads[task.scenario];
  const FillRunOptions options{.policy = policy.policy,
                               .seed = policy.seeds[task.seed],
                               .target_share = scenario.scenario.target_share,
                               .streams = suite.streams};
  const std::vector<FillStep> steps =
      orders[task.scenario].empty()
          ? RunFill(workload, options)
          : RunFillInOrder(workload, options, orders[task.scenario][task.seed]);
  policy.curves[task.seed] = BinByArrivedShare(steps, workload.gpu_capacity_milli, kFillMaxX);
  policy.failed_pods[task.seed] = steps.empty() ? 0 : steps.back().failed_pods;
  policy.pods[task.seed] = static_cast<std::int64_t>(steps.size());
  if (suite.keep_steps) {
    policy.steps[task.seed] = steps;
  }
}

}  // namespace

Status RunFillSuite(const FileSystem& files, const std::vector<FillScenario>& scenarios,
                    const FillSuiteOptions& options, std::vector<FillScenarioResult>& out) {
  std::vector<FillWorkload> workloads(scenarios.size());
  std::vector<FillScenarioResult> results(scenarios.size());
  GivenOrders orders(scenarios.size());
  std::vector<FillTask> tasks;
  for (std::size_t s = 0; s < scenarios.size(); ++s) {
    const FillScenario& scenario = scenarios[s];
    if (Status status = LoadFillWorkload(files, scenario.nodes, scenario.pods,
                                         scenario.typical_popularity, workloads[s]);
        !status.ok()) {
      return status;
    }
    FillScenarioResult& result = results[s];
    result.scenario = scenario;
    result.gpu_capacity_milli = workloads[s].gpu_capacity_milli;
    if (options.keep_steps) {
      for (const FillPod& pod : workloads[s].pods) {
        result.pod_names.push_back(pod.name);
      }
    }
    if (scenario.published) {
      PublishedFill published;
      if (Status status = LoadPublishedFill(files, *scenario.published, published); !status.ok()) {
        return status;
      }
      result.published = std::move(published);
    }
    const auto seeds = static_cast<std::size_t>(options.seeds.value_or(scenario.seeds));
    if (options.orders_dir) {
      orders[s].resize(seeds);
      for (std::size_t k = 0; k < seeds; ++k) {
        const std::string path =
            FillOrderPath(*options.orders_dir, scenario.name, scenario.first_seed + k);
        if (Status status = LoadFillOrder(files, path, workloads[s], orders[s][k]); !status.ok()) {
          return status;
        }
      }
    }
    for (std::size_t p = 0; p < scenario.policies.size(); ++p) {
      FillPolicyResult policy{.policy = scenario.policies[p]};
      for (std::size_t k = 0; k < seeds; ++k) {
        policy.seeds.push_back(scenario.first_seed + k);
        tasks.push_back({.scenario = s, .policy = p, .seed = k});
      }
      policy.curves.resize(seeds);
      policy.failed_pods.resize(seeds);
      policy.pods.resize(seeds);
      policy.steps.resize(options.keep_steps ? seeds : 0);
      result.policies.push_back(std::move(policy));
    }
  }
  ParallelFor(tasks.size(), options.threads,
              [&](std::size_t i) { RunTask(tasks[i], workloads, orders, options, results); });
  out = std::move(results);
  return Status::Ok();
}

namespace {

std::string Signed(double value) { return fmt::format("{:+.2f}", value); }

// One cell: ours, and with a paper value "ours / paper (Δ)" marked when outside tolerance.
struct Cell {
  SeedStats ours;
  std::optional<SeedStats> paper;
  double tolerance = 0;

  bool Compared() const { return ours.seeds > 0 && paper && paper->seeds > 0; }
  bool Within() const {
    return !Compared() || std::abs(ours.mean - paper->mean) <= tolerance + 1e-9;
  }
  std::string Text() const {
    if (ours.seeds == 0) {
      return "n/a";
    }
    if (!Compared()) {
      return fmt::format("{:.2f} ±{:.2f}", ours.mean, ours.sd);
    }
    return fmt::format("{:.2f} / {:.2f} ({}){}", ours.mean, paper->mean,
                       Signed(ours.mean - paper->mean), Within() ? "" : " **✗**");
  }
};

std::optional<SeedStats> PaperAt(const std::optional<PublishedFill>& published, bool allocation,
                                 GpuSharePolicy policy, int x) {
  if (!published) {
    return std::nullopt;
  }
  const auto& series = allocation ? published->allocation : published->fragmentation_ratio;
  const auto it = series.find(policy);
  if (it == series.end()) {
    return std::nullopt;
  }
  return PublishedStatsAt(it->second, x);
}

// The policies that have an allocation at x in ours and, when published, in the paper's.
std::vector<GpuSharePolicy> Comparable(const FillScenarioResult& result, int x) {
  std::vector<GpuSharePolicy> policies;
  for (const FillPolicyResult& policy : result.policies) {
    const bool ours = StatsAt(policy.curves, x, FillMetric::kAllocation).seeds > 0;
    const auto paper = PaperAt(result.published, true, policy.policy, x);
    if (ours && (!result.published || (paper && paper->seeds > 0))) {
      policies.push_back(policy.policy);
    }
  }
  return policies;
}

// `policies` from the highest allocation to the lowest, by `mean_of`.
template <typename MeanOf>
std::vector<GpuSharePolicy> ByAllocation(std::vector<GpuSharePolicy> policies, MeanOf&& mean_of) {
  std::stable_sort(policies.begin(), policies.end(),
                   [&](GpuSharePolicy a, GpuSharePolicy b) { return mean_of(a) > mean_of(b); });
  return policies;
}

std::string OrderText(const std::vector<GpuSharePolicy>& order) {
  std::string text;
  for (const GpuSharePolicy policy : order) {
    text += (text.empty() ? "" : " > ") + std::string(GpuSharePolicyName(policy));
  }
  return text;
}

// FGD first and random last, of those in the order.
bool FgdBestRandomWorst(const std::vector<GpuSharePolicy>& order) {
  const auto has = [&](GpuSharePolicy p) {
    return std::find(order.begin(), order.end(), p) != order.end();
  };
  return (!has(GpuSharePolicy::kFgd) || order.front() == GpuSharePolicy::kFgd) &&
         (!has(GpuSharePolicy::kRandom) || order.back() == GpuSharePolicy::kRandom);
}

// Ours matches the paper if the best and the worst policy are the same (FGD best and random worst
// where the paper has that); without the paper's results, FGD must be best and random worst.
void AddOrderLines(const FillScenarioResult& result, int x, FillComparison& comparison) {
  const std::vector<GpuSharePolicy> comparable = Comparable(result, x);
  if (comparable.size() < 2) {
    comparison.markdown +=
        fmt::format("- {} at x = {}: fewer than two policies to order\n", result.scenario.name, x);
    return;
  }
  const auto ours = ByAllocation(comparable, [&](GpuSharePolicy policy) {
    const auto it = std::find_if(result.policies.begin(), result.policies.end(),
                                 [&](const FillPolicyResult& r) { return r.policy == policy; });
    return StatsAt(it->curves, x, FillMetric::kAllocation).mean;
  });
  comparison.markdown +=
      fmt::format("- {} at x = {}: ours {}", result.scenario.name, x, OrderText(ours));
  bool matches = FgdBestRandomWorst(ours);
  if (result.published) {
    const auto paper = ByAllocation(comparable, [&](GpuSharePolicy policy) {
      return PaperAt(result.published, true, policy, x).value_or(SeedStats{}).mean;
    });
    comparison.markdown += fmt::format("; paper {}", OrderText(paper));
    matches = ours.front() == paper.front() && ours.back() == paper.back();
  }
  comparison.markdown += fmt::format("; best and worst {}\n", matches ? "match" : "DO NOT match");
  comparison.order_matches = comparison.order_matches && matches;
}

}  // namespace

FillComparison CompareWithPublished(const std::vector<FillScenarioResult>& results,
                                    const FillTargets& targets) {
  FillComparison comparison;
  std::string& md = comparison.markdown;
  md += "| variant | policy | seeds |";
  std::string rule = "|---|---|---|";
  for (const int x : targets.allocation_x) {
    md += fmt::format(" alloc @{} |", x);
    rule += "---|";
  }
  for (const int x : targets.ratio_x) {
    md += fmt::format(" frag ratio @{} |", x);
    rule += "---|";
  }
  md += "\n" + rule + "\n";
  for (const FillScenarioResult& result : results) {
    for (const FillPolicyResult& policy : result.policies) {
      md += fmt::format("| {} | {} | {} |", result.scenario.name, GpuSharePolicyName(policy.policy),
                        policy.seeds.size());
      const auto add = [&](bool allocation, int x, double tolerance) {
        const Cell cell{
            .ours = StatsAt(policy.curves, x,
                            allocation ? FillMetric::kAllocation : FillMetric::kFragmentationRatio),
            .paper = PaperAt(result.published, allocation, policy.policy, x),
            .tolerance = tolerance};
        md += " " + cell.Text() + " |";
        if (cell.Compared()) {
          ++comparison.cells;
          comparison.cells_within += cell.Within() ? 1 : 0;
        }
      };
      for (const int x : targets.allocation_x) {
        add(true, x, targets.allocation_tolerance_pp);
      }
      for (const int x : targets.ratio_x) {
        add(false, x, targets.ratio_tolerance_pp);
      }
      md += "\n";
    }
  }
  md += fmt::format(
      "\nCells: ours / paper (ours − paper), in %; **✗** marks a difference beyond ±{:.1f} pp "
      "(allocation) or ±{:.1f} pp (fragmentation ratio). Within tolerance: {} of {} cells.\n\n"
      "Order of the policies by allocation (highest first):\n\n",
      targets.allocation_tolerance_pp, targets.ratio_tolerance_pp, comparison.cells_within,
      comparison.cells);
  for (const FillScenarioResult& result : results) {
    for (const int x : targets.allocation_x) {
      AddOrderLines(result, x, comparison);
    }
  }
  return comparison;
}

void WriteFillStepsCsv(const std::vector<FillScenarioResult>& results, std::ostream& out) {
  out << "scenario,policy,seed,step,pod,placed,arrived_pct,allocation_pct,fragmentation_pct,"
         "fragmentation_ratio_pct,failed_pods\n";
  for (const FillScenarioResult& result : results) {
    const auto capacity = static_cast<double>(result.gpu_capacity_milli);
    for (const FillPolicyResult& policy : result.policies) {
      for (std::size_t k = 0; k < policy.steps.size(); ++k) {
        for (std::size_t i = 0; i < policy.steps[k].size(); ++i) {
          const FillStep& step = policy.steps[k][i];
          const double ratio = step.idle_milli > 0 ? 100 * step.fragmented_milli /
                                                         static_cast<double>(step.idle_milli)
                                                   : 0;
          out << fmt::format(
              "{},{},{},{},{},{},{:.4f},{:.4f},{:.4f},{:.4f},{}\n", result.scenario.name,
              GpuSharePolicyName(policy.policy), policy.seeds[k], i + 1, result.pod_names[step.pod],
              step.placed ? 1 : 0, 100 * static_cast<double>(step.arrived_milli) / capacity,
              100 * static_cast<double>(step.allocated_milli) / capacity,
              100 * step.fragmented_milli / capacity, ratio, step.failed_pods);
        }
      }
    }
  }
}

void WriteFillCurvesCsv(const std::vector<FillScenarioResult>& results, std::ostream& out) {
  out << "scenario,policy,seed,x,allocation_pct,fragmentation_pct,fragmentation_ratio_pct\n";
  for (const FillScenarioResult& result : results) {
    for (const FillPolicyResult& policy : result.policies) {
      for (std::size_t k = 0; k < policy.seeds.size(); ++k) {
        const FillCurve& curve = policy.curves[k];
        for (std::size_t x = 0; x < curve.size(); ++x) {
          if (curve[x]) {
            out << fmt::format("{},{},{},{},{:.4f},{:.4f},{:.4f}\n", result.scenario.name,
                               GpuSharePolicyName(policy.policy), policy.seeds[k], x,
                               curve[x]->allocation_pct, curve[x]->fragmentation_pct,
                               curve[x]->fragmentation_ratio_pct);
          }
        }
      }
    }
  }
}

}  // namespace fleetsim
