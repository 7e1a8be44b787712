// WindowMilpOrder: the window model of src/policy/window_milp.h, built as a Milp
// (milp/cbc_milp.h) and solved with CBC, read back as a placement order.
#include "policy/window_milp.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "milp/cbc_milp.h"

namespace fleetsim {

namespace {

using milp::Milp;
using milp::MilpColumn;
using milp::MilpRow;

// Lanes left per step of the window by the work the plan cannot move and the real-time jobs'
// lanes in `plan`.
std::vector<double> FreeLanes(const PlanProblem& problem, const Plan& plan, std::int64_t window) {
  std::vector<std::vector<bool>> taken(static_cast<std::size_t>(window),
                                       std::vector<bool>(problem.lanes.size(), false));
  for (const PlanBusy& b : problem.busy) {
    for (std::int64_t t = std::max<std::int64_t>(b.first_step, 0); t < std::min(b.end_step, window);
         ++t) {
      taken[static_cast<std::size_t>(t)][b.lane] = true;
    }
  }
  const std::size_t words = (problem.lanes.size() + 63) / 64;
  for (std::int64_t t = 0; !problem.pinned.empty() && t < std::min(window, problem.steps); ++t) {
    for (std::size_t lane = 0; lane < problem.lanes.size(); ++lane) {
      const std::uint64_t word = problem.pinned[static_cast<std::size_t>(t) * words + lane / 64];
      if (((word >> (lane % 64)) & 1U) != 0) {
        taken[static_cast<std::size_t>(t)][lane] = true;
      }
    }
  }
  for (const auto& steps : plan.realtime) {
    for (std::int64_t t = 0; t < window && t < static_cast<std::int64_t>(steps.size()); ++t) {
      for (const std::uint32_t lane : steps[static_cast<std::size_t>(t)]) {
        taken[static_cast<std::size_t>(t)][lane] = true;
      }
    }
  }
  std::vector<double> free(static_cast<std::size_t>(window), 0);
  for (std::size_t t = 0; t < free.size(); ++t) {
    free[t] = static_cast<double>(std::count(taken[t].begin(), taken[t].end(), false));
  }
  return free;
}

// The model's columns: x(j, s) for every batch job j and start step s of the window.
struct Starts {
  std::vector<std::uint32_t> job;
  std::vector<std::int64_t> step;
};

Milp BuildWindowModel(const PlanProblem& problem, const Plan& plan, std::int64_t window,
                      Starts& starts) {
  std::vector<double> weight(static_cast<std::size_t>(problem.steps), 1);
  for (std::size_t t = 1; t < weight.size(); ++t) {
    weight[t] = weight[t - 1] * problem.decay;
  }
  const std::vector<double> free = FreeLanes(problem, plan, window);
  Milp model;
  std::vector<MilpRow> capacity(static_cast<std::size_t>(window));
  for (std::size_t t = 0; t < capacity.size(); ++t) {
    capacity[t].upper = free[t];
  }
  for (std::uint32_t j = 0; j < problem.batch.size(); ++j) {
    const PlanBatchJob& job = problem.batch[j];
    const auto gpus = static_cast<double>(job.min_gpus);
    MilpRow once{.upper = 1};
    for (std::int64_t s = 0; s < window; ++s) {
      double value = 0;
      for (std::int64_t t = s; t < std::min(s + job.steps, problem.steps); ++t) {
        value += weight[static_cast<std::size_t>(t)];
      }
      const int column = model.AddColumn(
          {.lower = 0, .upper = 1, .objective = job.priority * gpus * value, .integer = true});
      starts.job.push_back(j);
      starts.step.push_back(s);
      once.columns.push_back(column);
      once.coefficients.push_back(1);
      for (std::int64_t t = s; t < std::min(s + job.steps, window); ++t) {
        capacity[static_cast<std::size_t>(t)].columns.push_back(column);
        capacity[static_cast<std::size_t>(t)].coefficients.push_back(gpus);
      }
    }
    model.AddRow(std::move(once));
  }
  for (MilpRow& row : capacity) {
    model.AddRow(std::move(row));
  }
  return model;
}

}  // namespace

std::optional<PlanChoices> WindowMilpOrder(const PlanProblem& problem, const Plan& heuristic_plan,
                                           const PlanChoices& heuristic,
                                           const WindowMilpOptions& options) {
  const std::int64_t window = std::min(options.window_steps, problem.steps);
  if (problem.batch.empty() || window <= 0) {
    return std::nullopt;
  }
  Starts starts;
  const Milp model = BuildWindowModel(problem, heuristic_plan, window, starts);
  const milp::MilpSolution solution =
      milp::SolveMilp(model, {.time_limit_s = 1e6, .max_nodes = options.max_nodes});
  if (!solution.has_solution) {
    return std::nullopt;
  }
  std::vector<std::int64_t> start(problem.batch.size(), window);  // window: not started in it
  for (std::size_t c = 0; c < solution.values.size(); ++c) {
    if (solution.values[c] > 0.5) {
      start[starts.job[c]] = starts.step[c];
    }
  }
  const auto realtime = static_cast<std::uint32_t>(problem.realtime.size());
  std::vector<std::size_t> position(problem.batch.size(), 0);  // in heuristic's order
  PlanChoices choices = heuristic;
  std::vector<std::uint32_t> batch_items;
  for (std::size_t i = 0; i < heuristic.order.size(); ++i) {
    const std::uint32_t item = heuristic.order[i];
    if (item >= realtime) {
      position[item - realtime] = i;
      batch_items.push_back(item);
    }
  }
  std::stable_sort(batch_items.begin(), batch_items.end(), [&](std::uint32_t a, std::uint32_t b) {
    const std::uint32_t ja = a - realtime;
    const std::uint32_t jb = b - realtime;
    if (problem.batch[ja].reserved != problem.batch[jb].reserved) {
      return problem.batch[ja].reserved;
    }
    return start[ja] != start[jb] ? start[ja] < start[jb] : position[ja] < position[jb];
  });
  std::size_t next = 0;
  for (std::uint32_t& item : choices.order) {
    if (item >= realtime) {
      item = batch_items[next++];
    }
  }
  return choices;
}

}  // namespace fleetsim
