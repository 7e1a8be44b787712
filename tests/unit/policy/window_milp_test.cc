// Full mode's window model (window_milp.h): on a hand-made problem where the heuristic's
// priority order leaves GPUs idle, the model's order gives a plan with a higher objective; the
// order it suggests keeps the real-time jobs in place and reserved jobs first, is a permutation
// of the heuristic's, and is the same on every call; plans built from it are legal on the random
// problems of horizon_plan_test.
#include "policy/window_milp.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace fleetsim {
namespace {

std::vector<PlanLane> Lanes(std::uint32_t count) {
  std::vector<PlanLane> lanes;
  for (std::uint32_t s = 0; s < count; ++s) {
    lanes.push_back({.domain = 0, .slot = s, .speed = 1});
  }
  return lanes;
}

PlanBatchJob Batch(double priority, std::int64_t gpus, std::int64_t steps) {
  return {.priority = priority, .min_gpus = gpus, .max_gpus = gpus, .steps = steps};
}

// Four lanes, four steps, no decay. In priority order the list scheduler starts the 3-GPU job
// (priority 2, 4 steps: value 24) and nothing else fits beside it; the two 2-GPU jobs of
// priority 1.6 (4 steps each) together are worth 25.6 on the same lanes.
PlanProblem GreedyLosesProblem() {
  PlanProblem p;
  p.steps = 4;
  p.decay = 1;
  p.lanes = Lanes(4);
  p.batch = {Batch(2, 3, 4), Batch(1.6, 2, 4), Batch(1.6, 2, 4)};
  return p;
}

// The window model's order for a GreedyLosesProblem-like problem, whose greedy plan earns 24.
std::optional<PlanChoices> OrderAfterGreedy(const PlanProblem& p) {
  const PlanChoices heuristic = DefaultChoices(p);
  const Plan greedy = BuildPlan(p, heuristic);
  EXPECT_DOUBLE_EQ(greedy.objective, 24);
  return WindowMilpOrder(p, greedy, heuristic, {.window_steps = 4, .max_nodes = 100});
}

TEST(WindowMilpTest, ItsOrderBeatsTheGreedyPriorityOrder) {
  const PlanProblem p = GreedyLosesProblem();
  const std::optional<PlanChoices> order = OrderAfterGreedy(p);
  ASSERT_TRUE(order);
  EXPECT_EQ(order->order, (std::vector<std::uint32_t>{1, 2, 0}));
  const Plan better = BuildPlan(p, *order);
  EXPECT_DOUBLE_EQ(better.objective, 25.6);
  EXPECT_EQ(better.batch[1].start_step, 0);
  EXPECT_EQ(better.batch[2].start_step, 0);
}

// Work the plan cannot move counts against the window's capacity whether it comes as busy entries
// or as pinned bitsets (the form constraint-aware passes): with a fifth lane held for the whole
// horizon, the problem is GreedyLosesProblem's, and so is the order.
TEST(WindowMilpTest, PinnedWorkTakesCapacityAsBusyWorkDoes) {
  PlanProblem busy = GreedyLosesProblem();
  busy.lanes = Lanes(5);
  busy.busy = {{.lane = 4, .first_step = 0, .end_step = 4}};
  PlanProblem pinned = GreedyLosesProblem();
  pinned.lanes = Lanes(5);
  pinned.pinned.assign(4, std::uint64_t{1} << 4);  // 4 steps of one word: lane 4
  for (const PlanProblem& p : {busy, pinned}) {
    const std::optional<PlanChoices> order = OrderAfterGreedy(p);
    ASSERT_TRUE(order);
    EXPECT_EQ(order->order, (std::vector<std::uint32_t>{1, 2, 0}));
  }
}

TEST(WindowMilpTest, KeepsRealtimeJobsInPlaceAndReservedJobsFirst) {
  PlanProblem p = GreedyLosesProblem();
  p.realtime.push_back(
      {.priority = 5, .min_gpus = 1, .max_gpus = 1, .demand = {1, 1, 1, 1}, .end_step = 4});
  p.batch[0].reserved = true;
  const PlanChoices heuristic = DefaultChoices(p);
  ASSERT_EQ(heuristic.order.front(), 0U);  // the real-time job
  const std::optional<PlanChoices> order =
      WindowMilpOrder(p, BuildPlan(p, heuristic), heuristic, {.window_steps = 4});
  ASSERT_TRUE(order);
  EXPECT_EQ(order->order.front(), 0U);
  EXPECT_EQ(order->order[1], 1U);  // the reserved batch job (item 1 + 0)
  std::vector<std::uint32_t> sorted = order->order;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, (std::vector<std::uint32_t>{0, 1, 2, 3}));
}

TEST(WindowMilpTest, NothingToDecideWithoutBatchJobs) {
  PlanProblem p;
  p.lanes = Lanes(2);
  const PlanChoices heuristic = DefaultChoices(p);
  EXPECT_FALSE(WindowMilpOrder(p, BuildPlan(p, heuristic), heuristic, {}));
}

TEST(WindowMilpTest, TheSameProblemGivesTheSameOrder) {
  const PlanProblem p = GreedyLosesProblem();
  const PlanChoices heuristic = DefaultChoices(p);
  const Plan plan = BuildPlan(p, heuristic);
  const auto first = WindowMilpOrder(p, plan, heuristic, {.window_steps = 3, .max_nodes = 1});
  const auto second = WindowMilpOrder(p, plan, heuristic, {.window_steps = 3, .max_nodes = 1});
  ASSERT_TRUE(first && second);
  EXPECT_EQ(first->order, second->order);
}

}  // namespace
}  // namespace fleetsim
