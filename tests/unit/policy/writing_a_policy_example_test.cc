// The worked example of docs/writing-a-policy.md, compiled and run: a shortest-job-first policy
// and its registration (the guide shows the code between the two "example" markers verbatim), and
// tests that on one GPU it starts the shortest estimate first, that a job that does not fit never
// holds back the jobs behind it, and that it makes only legal decisions on a benchmark scenario.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "fleetsim/policy/placement_strategy.h"
#include "fleetsim/policy/policy.h"
#include "fleetsim/policy/registry.h"
#include "fleetsim/scenario/runner.h"
#include "fleetsim/scenario/scenario.h"
#include "fleetsim/sim/simulation.h"
#include "testutil/paths.h"
#include "testutil/workloads.h"

namespace fleetsim {
namespace {

// --- example: begin (docs/writing-a-policy.md, "A worked example") ---

// shortest-job-first: the queued jobs in order of their walltime estimate, shortest first; ties,
// and the jobs without an estimate (after all the others), in submission order. Every job the
// placement helper can place starts now, so a job that does not fit never holds back the jobs
// behind it (a long job may wait for ever behind a stream of short ones). The order is kept
// between calls and brought up to date from what changed since the last call.
class ShortestJobFirstPolicy final : public Policy {
 public:
  explicit ShortestJobFirstPolicy(const PlacementStrategy& placement) : placement_(placement) {}

  std::vector<Decision> Decide(const ClusterView& view, PlacementPlanner& planner) override {
    // A job that may have joined or left the queue is in the order exactly when it is queued.
    for (const JobIndex job : view.changes().Touched()) {
      const Key key{EstimateOf(view.request(job)), job};
      order_.erase(key);
      if (view.queue().contains(job)) {
        order_.insert(key);
      }
    }
    std::vector<Decision> decisions;
    for (const Key& key : order_) {
      const JobIndex job = key.second;
      std::optional<Allocation> placement = planner.Place(view.request(job), placement_);
      if (placement) {
        decisions.push_back(StartJob{job, std::move(*placement)});
      }
    }
    return decisions;
  }

 private:
  using Key = std::pair<SimDuration, JobIndex>;  // (estimate, submission order)

  static SimDuration EstimateOf(const JobRequest& request) {
    return request.walltime_estimate > 0 ? request.walltime_estimate : kTimeNever;
  }

  PlacementStrategy placement_;
  std::set<Key> order_;  // the queued jobs, shortest estimate first
};

PolicyInfo ShortestJobFirstPolicyInfo() {
  return {.name = "shortest-job-first",
          .summary =
              "Shortest walltime estimate first (jobs without one last, ties in arrival order); "
              "any queued job that can be placed starts now.",
          .params = {PlacementParam()},
          .make = [](const PolicyParams& params) {
            return std::make_unique<ShortestJobFirstPolicy>(PlacementFromParams(params));
          }};
}

// --- example: end ---

using testing::AddJob;

std::unique_ptr<Policy> ShortestJobFirst() {
  const PolicyInfo info = ShortestJobFirstPolicyInfo();
  return info.make(DefaultParams(info));
}

// Every start, in order: the job and its time.
class StartRecorder final : public SimulationObserver {
 public:
  void OnJobStarted(const JobStarted& event) override {
    starts.emplace_back(event.job, event.time);
  }
  std::vector<std::pair<JobIndex, SimTime>> starts;
};

TEST(WritingAPolicyExampleTest, OnOneGpuJobsSubmittedTogetherStartShortestEstimateFirst) {
  Workload w;
  AddJob(w, "a", 0, 1, 300).request.walltime_estimate = SecondsToTime(300);
  AddJob(w, "b", 0, 1, 50);  // no estimate: after every job with one
  AddJob(w, "c", 0, 1, 100).request.walltime_estimate = SecondsToTime(100);
  AddJob(w, "d", 0, 1, 200).request.walltime_estimate = SecondsToTime(200);
  AddJob(w, "e", 0, 1, 100).request.walltime_estimate = SecondsToTime(100);  // ties c: after it
  Simulation sim({.gpus = 1}, w, ShortestJobFirst(), "shortest-job-first");
  StartRecorder recorder;
  sim.AddObserver(&recorder);
  const Status status = sim.RunUntilIdle();
  ASSERT_TRUE(status.ok()) << status.message();
  const std::vector<std::pair<JobIndex, SimTime>> expected = {{2, SecondsToTime(0)},
                                                              {4, SecondsToTime(100)},
                                                              {3, SecondsToTime(200)},
                                                              {0, SecondsToTime(400)},
                                                              {1, SecondsToTime(700)}};
  EXPECT_EQ(recorder.starts, expected);
  for (JobIndex job = 0; job < w.jobs.size(); ++job) {
    EXPECT_EQ(sim.state(job), JobState::kCompleted) << w.jobs[job].request.id;
  }
}

TEST(WritingAPolicyExampleTest, AJobThatDoesNotFitDoesNotHoldBackTheJobsBehindIt) {
  Workload w;
  AddJob(w, "a", 0, 1, 100).request.walltime_estimate = SecondsToTime(100);
  AddJob(w, "b", 1, 2, 10).request.walltime_estimate = SecondsToTime(10);   // 1 GPU free: waits
  AddJob(w, "c", 2, 1, 50).request.walltime_estimate = SecondsToTime(500);  // fits: starts now
  Simulation sim({.gpus = 2}, w, ShortestJobFirst(), "shortest-job-first");
  StartRecorder recorder;
  sim.AddObserver(&recorder);
  const Status status = sim.RunUntilIdle();
  ASSERT_TRUE(status.ok()) << status.message();
  const std::vector<std::pair<JobIndex, SimTime>> expected = {
      {0, SecondsToTime(0)}, {2, SecondsToTime(2)}, {1, SecondsToTime(100)}};
  EXPECT_EQ(recorder.starts, expected);
}

// Registered beside the built-in policies and run on a benchmark scenario (64 H100 GPUs in eight
// NVLink domains, real-time services with size ranges, power-of-two blocks): every decision is
// legal, or the run would stop with the engine's error.
TEST(WritingAPolicyExampleTest, MakesOnlyLegalDecisionsOnABenchmarkScenario) {
  PolicyRegistry registry = BuiltinPolicies();
  registry.Add(ShortestJobFirstPolicyInfo());
  const LoadResult loaded =
      LoadScenarioFile(testing::SourcePath("scenarios/benchmark/06-scale-test.json"), registry, {});
  ASSERT_TRUE(loaded.scenario) << loaded.file_status << loaded.diagnostics.Format("scenario");
  const Scenario& scenario = *loaded.scenario;
  const PolicyChoice policy = ChoosePolicy(scenario, registry, "shortest-job-first");
  RunOptions options;
  options.seed = scenario.seed;
  const RunOutcome outcome = RunScenario(scenario, registry, policy, options);
  ASSERT_TRUE(outcome.status.ok()) << outcome.status.message();
  EXPECT_GT(outcome.report.metrics.jobs_completed, 0);
}

// The guide shows this file's example verbatim: every line between the markers is in the guide,
// in order and contiguous.
TEST(WritingAPolicyExampleTest, TheGuideShowsThisFilesCodeVerbatim) {
  const std::string source =
      testing::ReadFile(testing::SourcePath("tests/unit/policy/writing_a_policy_example_test.cc"));
  const std::string guide = testing::ReadFile(testing::SourcePath("docs/writing-a-policy.md"));
  const std::string begin_marker = "// --- example: begin";
  const std::string end_marker = "// --- example: end ---";
  const std::size_t begin = source.find('\n', source.find(begin_marker));
  const std::size_t end = source.find(end_marker, begin);
  ASSERT_NE(begin, std::string::npos);
  ASSERT_NE(end, std::string::npos);
  // The code from the first line after the begin marker to the last before the end marker,
  // without the blank lines around it.
  std::string code = source.substr(begin + 1, end - begin - 1);
  code = code.substr(code.find_first_not_of('\n'));
  code = code.substr(0, code.find_last_not_of('\n') + 1);
  ASSERT_GT(code.size(), 1000U);
  EXPECT_NE(guide.find("```cpp\n" + code + "\n```"), std::string::npos)
      << "docs/writing-a-policy.md no longer shows the example's code as this file has it";
}

}  // namespace
}  // namespace fleetsim
