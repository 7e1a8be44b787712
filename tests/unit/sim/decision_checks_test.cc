// The engine's checks of a decision's job, reason and timing (sim/decision_checks.h): each rule,
// in the order the engine applies them, with the words an illegal decision's error carries; and
// decisions described as error messages show them.
#include "sim/decision_checks.h"

#include <gtest/gtest.h>

#include <vector>

namespace fleetsim {
namespace {

JobRequest Request(std::int64_t gpus, std::int64_t max_gpus = 0) {
  JobRequest r;
  r.id = "a";
  r.gpus = gpus;
  r.max_gpus = max_gpus;
  return r;
}

TEST(DecisionChecksTest, AStartOrARejectionNamesAQueuedJob) {
  const JobRequest r = Request(1);
  EXPECT_EQ(WhyNotStart({}).message(), "no such job");
  EXPECT_EQ(WhyNotStart({.request = &r, .state = JobState::kQueued}).message(), "");
  EXPECT_EQ(WhyNotStart({.request = &r, .state = JobState::kRunning}).message(),
            "the job is already running");
  EXPECT_EQ(WhyNotStart({.request = &r, .state = JobState::kPending}).message(),
            "the job is not yet submitted");
  EXPECT_EQ(WhyNotReject({.request = &r, .state = JobState::kCompleted}, {0, "full"}).message(),
            "the job is already completed");
  EXPECT_EQ(WhyNotReject({.request = &r, .state = JobState::kQueued}, {0, ""}).message(),
            "a rejection needs a reason");
  EXPECT_EQ(WhyNotReject({.request = &r, .state = JobState::kQueued}, {0, "full"}).message(), "");
}

TEST(DecisionChecksTest, APreemptionNamesARunningPreemptibleJobAndGivesAReason) {
  JobRequest r = Request(1);
  EXPECT_EQ(WhyNotPreempt({}, {0, "x"}).message(), "no such job");
  EXPECT_EQ(WhyNotPreempt({.request = &r, .state = JobState::kQueued}, {0, "x"}).message(),
            "the job is queued");
  EXPECT_EQ(WhyNotPreempt({.request = &r, .state = JobState::kRunning}, {0, "x"}).message(),
            "the job is not preemptible");
  r.preemptible = true;
  EXPECT_EQ(WhyNotPreempt({.request = &r, .state = JobState::kRunning}, {0, ""}).message(),
            "a preemption needs a reason");
  EXPECT_EQ(WhyNotPreempt({.request = &r, .state = JobState::kRunning}, {0, "x"}).message(), "");
}

TEST(DecisionChecksTest, AResizeNamesARunningElasticWholeGpuJobThatIsNotLeaving) {
  JobRequest fixed = Request(2);
  JobRequest elastic = Request(2, 8);
  EXPECT_EQ(WhyNotResize({.request = &elastic, .state = JobState::kRejected}).message(),
            "the job is already rejected");
  EXPECT_EQ(
      WhyNotResize({.request = &elastic, .state = JobState::kRunning, .leaving = true}).message(),
      "the job is taking an emergency checkpoint to leave a node being reclaimed");
  EXPECT_EQ(WhyNotResize({.request = &fixed, .state = JobState::kRunning}).message(),
            "only jobs with a range of whole GPUs (gpus < max_gpus) can be resized");
  elastic.sharing = GpuSharing::kFraction;
  EXPECT_EQ(WhyNotResize({.request = &elastic, .state = JobState::kRunning}).message(),
            "only jobs with a range of whole GPUs (gpus < max_gpus) can be resized");
  elastic.sharing = GpuSharing::kNone;
  EXPECT_EQ(WhyNotResize({.request = &elastic, .state = JobState::kRunning}).message(), "");
}

TEST(DecisionChecksTest, TheSwapCapBoundsTheChangeFromTheStepsBase) {
  JobRequest r = Request(1, 16);
  EXPECT_EQ(WhyNotSwap(r, 4, 16).message(), "");  // no demand curve: no cap
  r.demand = DemandCurve{};
  r.demand->swap_cap = 2;
  EXPECT_EQ(WhyNotSwap(r, 4, 6).message(), "");
  EXPECT_EQ(WhyNotSwap(r, 4, 2).message(), "");
  EXPECT_EQ(WhyNotSwap(r, 4, 7).message(),
            "the job held 4 GPUs when its demand step began and may change by at most "
            "swap_cap = 2 GPUs per step, so 7 GPUs is out of reach");
  r.demand->swap_cap = 0;  // 0: no cap
  EXPECT_EQ(WhyNotSwap(r, 4, 16).message(), "");
}

TEST(DecisionChecksTest, AWakeUpIsInTheFuture) {
  EXPECT_EQ(WhyNotWake({1000}, 1000).message(), "the wake-up time is not in the future");
  EXPECT_EQ(WhyNotWake({999}, 1000).message(), "the wake-up time is not in the future");
  EXPECT_EQ(WhyNotWake({1001}, 1000).message(), "");
}

TEST(DecisionChecksTest, DecisionsInWords) {
  const std::vector<JobRequest> requests = {Request(1)};
  const std::vector<GpuId> gpus = {0, 1};
  EXPECT_EQ(DescribeDecision(StartJob{0, WholeGpus(gpus)}, requests),
            "start job 'a' on GPUs [0, 1]");
  EXPECT_EQ(DescribeDecision(PreemptJob{7, "room"}, requests),
            "preempt job #7 (no such job) ('room')");
  EXPECT_EQ(DescribeDecision(RejectJob{0, "too big"}, requests), "reject job 'a' ('too big')");
  EXPECT_EQ(DescribeDecision(WakeAt{3'600'000}, requests), "wake at 0d 01:00:00.000");
  EXPECT_EQ(WholeGpuCount(WholeGpus(gpus)), 2);
}

}  // namespace
}  // namespace fleetsim
