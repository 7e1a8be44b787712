// The clairvoyant bound's model on hand-made problems whose optimum is computed by hand: exact
// mid-step starts and the window's end, the swap cap across a service's first step, aligned
// blocks in domains that are not a multiple of the block, and the relaxation within a step (the
// bound is then above what any schedule earns, as a bound may be). Also what the model refuses
// and what it leaves out, read from scenarios.
#include "fleetsim/bound/milp_bound.h"

#include <gtest/gtest.h>

#include <string>

#include "fleetsim/bound/bound_problem.h"
#include "fleetsim/policy/registry.h"
#include "fleetsim/scenario/scenario.h"

namespace fleetsim {
namespace {

constexpr SimDuration kHour = 3600 * kMillisPerSecond;
constexpr double kTolerance = 1e-6;

BoundProblem Problem(std::int64_t gpus, SimTime window_end) {
  BoundProblem problem;
  problem.scenario = "hand-made";
  problem.window_end = window_end;
  problem.step = kHour;
  problem.gpus = gpus;
  problem.domains = {gpus};
  return problem;
}

BoundBatchJob Job(const std::string& id, std::int64_t gpus, SimDuration duration,
                  std::int64_t priority, SimTime submit = 0, bool block = false) {
  return {.id = id,
          .priority = priority,
          .gpus = gpus,
          .block = block,
          .submit = submit,
          .duration = duration};
}

const BoundStart* StartOf(const BoundResult& result, const std::string& id) {
  for (const BoundStart& s : result.starts) {
    if (s.id == id) {
      return &s;
    }
  }
  return nullptr;
}

// 1 GPU for 2 hours. A: 3 h at priority 1 from 00:00; B: 1 h at priority 3 from 00:30. Starting A
// first blocks B for the whole window (2). The best is B at 00:30 (3) then A from 01:30, cut by
// the window's end after half an hour (0.5): 3.5, with both starts mid-step.
TEST(MilpBoundTest, MidStepStartsAndTheWindowsEndAreExact) {
  BoundProblem problem = Problem(1, 2 * kHour);
  problem.batch = {Job("a", 1, 3 * kHour, 1), Job("b", 1, kHour, 3, kHour / 2)};
  const BoundResult result = SolveBound(problem, {});
  ASSERT_TRUE(result.proven_optimal) << result.status;
  EXPECT_NEAR(result.bound, 3.5, kTolerance);
  EXPECT_NEAR(result.objective, 3.5, kTolerance);
  EXPECT_EQ(result.gap, 0);
  EXPECT_GE(result.lp_bound, result.bound - kTolerance);
  const BoundStart* a = StartOf(result, "a");
  const BoundStart* b = StartOf(result, "b");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->start, kHour / 2);
  EXPECT_EQ(a->start, kHour + kHour / 2);
  EXPECT_NEAR(a->output, 0.5, kTolerance);
  EXPECT_NEAR(b->output, 3.0, kTolerance);
}

// A service on 5 GPUs (1..5, priority 1) wants 5 GPUs in hour 0 and 1 in hour 1, swap cap 1; a
// 4-GPU job (priority 2) arrives at 01:00 for an hour. Running the job all of hour 1 needs the
// service at 1 GPU then, so at most 2 just before 01:00 (counts in a step stay within the cap of
// the count the step began with), so it began hour 0 with at most 3 and held at most 4: 4 + 1
// served, 8 for the job: 13 (a supremum the engine approaches, resizing just before 01:00).
// Holding 5 in hour 0 instead leaves at least 2 GPUs to the service in hour 1 and no room for
// the job: 6. Without a cap, 5 + 1 + 8 = 14.
TEST(MilpBoundTest, TheSwapCapBindsAcrossTheServicesFirstStep) {
  BoundProblem problem = Problem(5, 2 * kHour);
  problem.batch = {Job("job", 4, kHour, 2, kHour)};
  DemandCurve demand{.step = kHour, .gpus = {5, 1}, .swap_cap = 1};
  problem.services = {{.id = "svc",
                       .priority = 1,
                       .min_gpus = 1,
                       .max_gpus = 5,
                       .submit = 0,
                       .duration = 24 * kHour,
                       .demand = demand}};
  BoundResult result = SolveBound(problem, {});
  ASSERT_TRUE(result.proven_optimal) << result.status;
  EXPECT_NEAR(result.bound, 13, kTolerance);
  ASSERT_EQ(result.services.size(), 1U);
  EXPECT_NEAR(result.services[0].served_gpu_hours[0], 4, kTolerance);
  EXPECT_NEAR(result.services[0].served_gpu_hours[1], 1, kTolerance);

  problem.services[0].demand.swap_cap = 0;  // no cap
  result = SolveBound(problem, {});
  ASSERT_TRUE(result.proven_optimal) << result.status;
  EXPECT_NEAR(result.bound, 14, kTolerance);
}

// Two NVLink domains of 6 GPUs: an aligned 4-GPU block fits once in each (slots 0-3), so of three
// 4-GPU block jobs filling the 1-hour window, two run: 8, though 12 GPUs would hold all three.
TEST(MilpBoundTest, AlignedBlocksFitOncePerDomainOfSix) {
  BoundProblem problem = Problem(12, kHour);
  problem.domains = {6, 6};
  problem.batch = {Job("a", 4, kHour, 1, 0, true), Job("b", 4, kHour, 1, 0, true),
                   Job("c", 4, kHour, 1, 0, true)};
  BoundResult result = SolveBound(problem, {});
  ASSERT_TRUE(result.proven_optimal) << result.status;
  EXPECT_NEAR(result.bound, 8, kTolerance);
  EXPECT_EQ(result.starts.size(), 2U);

  problem.batch = {Job("a", 4, kHour, 1), Job("b", 4, kHour, 1), Job("c", 4, kHour, 1)};
  result = SolveBound(problem, {});  // not blocks: any GPUs
  EXPECT_NEAR(result.bound, 12, kTolerance);
}

// The relaxation, made visible: 2 GPUs for 1 hour, a 2-GPU job of half an hour and a 1-GPU job of
// an hour. No schedule earns more than 1.5 (the 2-GPU job, then the other for the half hour
// left): they cannot overlap. The model checks capacity over the step as a whole, where their 2
// GPU-hours fit, and exactly only at the step's end, where the 2-GPU job has ended: it earns 2.
TEST(MilpBoundTest, WorkIsPackedWithinAStepAsAFluid) {
  BoundProblem problem = Problem(2, kHour);
  problem.batch = {Job("wide", 2, kHour / 2, 1), Job("long", 1, kHour, 1)};
  const BoundResult result = SolveBound(problem, {});
  ASSERT_TRUE(result.proven_optimal) << result.status;
  EXPECT_NEAR(result.bound, 2, kTolerance);
}

// The model's instant constraints: two 1-hour 2-GPU jobs on 2 GPUs submitted at 00:00 over a
// 2-hour window run one after the other, whatever the relaxation (4).
TEST(MilpBoundTest, OneJobPerGpuAtAStepBoundary) {
  BoundProblem problem = Problem(2, 2 * kHour);
  problem.batch = {Job("a", 2, kHour, 1), Job("b", 2, kHour, 1), Job("c", 2, kHour, 1)};
  const BoundResult result = SolveBound(problem, {});
  ASSERT_TRUE(result.proven_optimal) << result.status;
  EXPECT_NEAR(result.bound, 4, kTolerance);
  EXPECT_EQ(result.starts.size(), 2U);
}

// A time limit that stops the search still reports a sound bound (>= the best solution).
TEST(MilpBoundTest, AStoppedSearchReportsItsBoundAndGap) {
  BoundProblem problem = Problem(8, 24 * kHour);
  for (int i = 0; i < 40; ++i) {
    problem.batch.push_back(Job("j" + std::to_string(i), 1 << (i % 4),
                                (1 + i % 7) * kHour + (i % 2) * kHour / 2, 1 + i % 5,
                                (i % 9) * kHour / 3, true));
  }
  const BoundResult result = SolveBound(problem, {.time_limit_s = 0.001});
  EXPECT_GE(result.bound, result.objective - kTolerance);
  EXPECT_LE(result.bound, result.lp_bound + kTolerance);
  if (!result.proven_optimal) {
    EXPECT_GE(result.gap, 0);
  }
}

LoadResult Parse(const std::string& text) {
  static const PolicyRegistry registry = BuiltinPolicies();
  return ParseScenario(text, "test.json", registry, {});
}

TEST(BoundProblemTest, SaysWhyTheModelDoesNotFitAScenario) {
  const LoadResult loaded = Parse(R"({
    "format_version": 1, "name": "unfit",
    "fleet": {"gpus": 8},
    "jobs": [
      {"id": "w", "submit_s": 0, "gpus": 1, "work_gpu_hours": 2},
      {"id": "p", "submit_s": 0, "gpus": 1, "duration_s": 60, "preemptible": true},
      {"id": "e", "submit_s": 0, "gpus": 1, "max_gpus": 2, "duration_s": 60}
    ]})");
  ASSERT_TRUE(loaded.scenario) << loaded.diagnostics.Format("test.json");
  const BoundProblemResult result = BoundProblemFromScenario(*loaded.scenario);
  EXPECT_FALSE(result.problem);
  const std::vector<std::string> expected = {
      // jobs in workload order: by submission, then id
      "the scenario has no window (run.until_s): the bound is on the output inside it",
      "job 'e' has a size range (gpus < max_gpus) but no demand curve: the bound models elastic "
      "jobs only as real-time services",
      "job 'p' is preemptible: the bound assumes no preemption (the post's constraint 5)",
      "job 'w' is given work_gpu_hours: the bound needs true run times (duration_s), which do "
      "not depend on where a job lands"};
  EXPECT_EQ(result.errors, expected);
}

TEST(BoundProblemTest, LeavesOutJobsNoScheduleCanStart) {
  const LoadResult loaded = Parse(R"({
    "format_version": 1, "name": "left-out",
    "fleet": {"gpus": 8},
    "run": {"until_s": 7200},
    "jobs": [
      {"id": "ok", "submit_s": 0, "gpus": 2, "pow2_block": true, "duration_s": 600},
      {"id": "big", "submit_s": 0, "gpus": 16, "duration_s": 600},
      {"id": "late", "submit_s": 7200, "gpus": 1, "duration_s": 600},
      {"id": "cpu", "submit_s": 0, "gpus": 0, "cpu_milli": 1000, "duration_s": 600}
    ]})");
  ASSERT_TRUE(loaded.scenario) << loaded.diagnostics.Format("test.json");
  const BoundProblemResult result = BoundProblemFromScenario(*loaded.scenario);
  ASSERT_TRUE(result.problem) << ::testing::PrintToString(result.errors);
  const BoundProblem& problem = *result.problem;
  EXPECT_EQ(problem.gpus, 8);
  EXPECT_EQ(problem.domains, std::vector<std::int64_t>{8});
  EXPECT_EQ(problem.steps(), 2);
  ASSERT_EQ(problem.batch.size(), 1U);
  EXPECT_EQ(problem.batch[0].id, "ok");
  EXPECT_TRUE(problem.batch[0].block);
  const std::vector<std::string> expected = {"'big': needs 16 GPUs, the fleet has 8",
                                             "'cpu': CPU-only, it earns no GPU-hours",
                                             "'late': submitted at or after the window's end"};
  EXPECT_EQ(problem.left_out, expected);
}

}  // namespace
}  // namespace fleetsim
