// SolveMilp (milp/cbc_milp.h) on a model where Debian's CBC 2.10.8 aborts the process when its
// feasibility pump is on: full mode's window model from one call on the random family's
// rf-s10-122 (tests/data/repro/full-mode-cbc-abort), as CBC wrote it. SolveMilp, which turns
// the pump off, proves the optimum that enumerating every schedule finds; with the pump turned
// back on through MilpOptions::parameters, CBC still aborts (a failed assertion in Clp), which is
// why SolveMilp turns it off. When a CBC without the fault comes, that test fails and says so.
#include "milp/cbc_milp.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <utility>
#include <vector>

namespace fleetsim::milp {
namespace {

constexpr std::size_t kWindow = 6;

// A batch job of the window model: x(j, s) for start steps s of the window, each taking `gpus`
// of the free GPUs from s for `steps` steps (cut at the window), worth objective[s].
struct WindowJob {
  double gpus;
  std::size_t steps;
  std::array<double, kWindow> objective;
};

const std::array<double, kWindow> kFree = {0, 3, 3, 3, 3, 6};
const std::vector<WindowJob> kJobs = {
    {2, 6, {31.788973125, 30.199524469, 28.689548245, 27.255070833, 25.892317291, 24.597701427}},
    {1, 3, {8.5575, 8.129625, 7.72314375, 7.3369865625, 6.9701372344, 6.6216303727}},
    {4, 6, {80.779096491, 76.740141666, 72.903134583, 69.257977854, 65.795078961, 62.505325013}},
    {4, 2, {23.4, 22.23, 21.1185, 20.062575, 19.05944625, 18.106473937}},
    {4, 6, {80.779096491, 76.740141666, 72.903134583, 69.257977854, 65.795078961, 62.505325013}},
};

// The model, column j * kWindow + s for job j starting at step s (the order CBC was given).
Milp WindowModel() {
  Milp model;
  std::vector<MilpRow> capacity(kWindow);
  for (std::size_t t = 0; t < kWindow; ++t) {
    capacity[t].upper = kFree[t];
  }
  for (const WindowJob& job : kJobs) {
    MilpRow once{.upper = 1};
    for (std::size_t s = 0; s < kWindow; ++s) {
      const int column =
          model.AddColumn({.lower = 0, .upper = 1, .objective = job.objective[s], .integer = true});
      once.columns.push_back(column);
      once.coefficients.push_back(1);
      for (std::size_t t = s; t < std::min(s + job.steps, kWindow); ++t) {
        capacity[t].columns.push_back(column);
        capacity[t].coefficients.push_back(job.gpus);
      }
    }
    model.AddRow(std::move(once));
  }
  for (MilpRow& row : capacity) {
    model.AddRow(std::move(row));
  }
  return model;
}

// The optimum by enumeration: every job starts at one step of the window or not at all.
double OptimumByEnumeration() {
  const std::size_t options = kWindow + 1;  // kWindow: not started
  std::size_t schedules = 1;
  for (std::size_t j = 0; j < kJobs.size(); ++j) {
    schedules *= options;
  }
  double best = 0;
  for (std::size_t code = 0; code < schedules; ++code) {
    std::array<double, kWindow> used{};
    double value = 0;
    std::size_t rest = code;
    for (const WindowJob& job : kJobs) {
      const std::size_t s = rest % options;
      rest /= options;
      if (s == kWindow) {
        continue;
      }
      value += job.objective[s];
      for (std::size_t t = s; t < std::min(s + job.steps, kWindow); ++t) {
        used[t] += job.gpus;
      }
    }
    bool fits = true;
    for (std::size_t t = 0; t < kWindow; ++t) {
      fits = fits && used[t] <= kFree[t];
    }
    if (fits) {
      best = std::max(best, value);
    }
  }
  return best;
}

TEST(CbcMilpTest, SolvesTheWindowModelOnWhichTheFeasibilityPumpAborts) {
  const MilpSolution solution = SolveMilp(WindowModel(), {.time_limit_s = 60, .max_nodes = 200});
  ASSERT_TRUE(solution.proven_optimal) << solution.status;
  EXPECT_TRUE(solution.model_check.ok()) << solution.model_check.message();
  const double optimum = OptimumByEnumeration();
  EXPECT_NEAR(optimum, 100.834474482, 1e-6);  // also checked by hand, outside CBC
  EXPECT_NEAR(solution.objective, optimum, 1e-6);
}

TEST(CbcMilpDeathTest, WithTheFeasibilityPumpOnCbcAbortsOnTheWindowModel) {
  const Milp model = WindowModel();
  EXPECT_DEATH(
      SolveMilp(model, {.time_limit_s = 60, .max_nodes = 200, .parameters = {{"feas", "on"}}}),
      "Assertion")
      << "CBC no longer aborts here: SolveMilp may leave the feasibility pump on again";
}

}  // namespace
}  // namespace fleetsim::milp
