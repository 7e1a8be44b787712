// What a node event does (sim/node_lifecycle.h), seen through a fake run that records every call
// the life cycle makes: a notice cordons the node, offers its jobs a leave and schedules the
// reclaim; the reclaim stops the jobs still there and takes the node down until it is replaced;
// a failure during the notice makes the reclaim stale; a node back is up and drawn for again; an
// autoscaled pool starts released and provisions a node for the queue without calling the
// policy.
// The whole engine's behaviour under interruptions is interruptions_test.cc's.
#include "sim/node_lifecycle.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testutil/fleets.h"

namespace fleetsim {
namespace {

struct Scheduled {
  SimTime time;
  NodeEvent event;
  std::uint32_t subject;
  std::uint32_t generation;
};

// Records the life cycle's calls; the jobs on a node are whatever the test says.
class FakeRun final : public NodeLifecycle::Run {
 public:
  SimTime now() const override { return now_; }
  const JobQueue& queue() const override { return queue_; }
  std::span<const JobRequest> requests() const override { return requests_; }
  std::vector<JobIndex> JobsOn(NodeId node) const override {
    return node == busy_node ? jobs_on_busy_node : std::vector<JobIndex>{};
  }
  void StopJob(JobIndex job, StopCause cause, const std::string& reason) override {
    calls.push_back(fmt::format("stop {} ({}, {})", job, StopCauseName(cause), reason));
  }
  void MayLeave(JobIndex job, SimDuration notice) override {
    calls.push_back(fmt::format("may leave {} within {} s", job, TimeToSeconds(notice)));
  }
  void ScheduleNodeEvent(SimTime time, NodeEvent event, std::uint32_t subject,
                         std::uint32_t generation) override {
    scheduled.push_back({time, event, subject, generation});
  }
  void NodeChanged(NodeId node, bool call_now) override {
    calls.push_back(fmt::format("node {} changed{}", node, call_now ? ", call now" : ""));
  }

  SimTime now_ = 0;
  NodeId busy_node = 0;
  std::vector<JobIndex> jobs_on_busy_node;
  std::vector<std::string> calls;
  std::vector<Scheduled> scheduled;
  JobQueue queue_;
  std::vector<JobRequest> requests_;
};

// One spot pool of two HGX H100 nodes, reclaimed about once an hour each, with a 2-minute notice
// and a 5-minute replacement.
FleetSpec SpotFleet() {
  PoolSpec pool = testing::CatalogPool("hgx-h100", 2, "spot");
  pool.tier = PriceTier::kSpot;
  pool.spot.per_node_hour = 1;
  pool.spot.notice = 120 * kMillisPerSecond;
  pool.spot.replacement_delay = 300 * kMillisPerSecond;
  return testing::FleetOf({pool});
}

class NodeLifecycleTest : public ::testing::Test {
 protected:
  NodeLifecycleTest() : ledger_(SpotFleet()), nodes_(ledger_, 7, run_, observers_) {}

  // The pending spot notice of `node` the processes drew (every node gets one at the start).
  Scheduled NoticeOf(NodeId node) const {
    for (const Scheduled& event : run_.scheduled) {
      if (event.event == NodeEvent::kSpotNotice && event.subject == node) {
        return event;
      }
    }
    ADD_FAILURE() << "no spot notice drawn for node " << node;
    return {};
  }
  Scheduled Last() const { return run_.scheduled.back(); }

  FleetLedger ledger_;
  FakeRun run_;
  std::vector<SimulationObserver*> observers_;
  NodeLifecycle nodes_;
};

TEST_F(NodeLifecycleTest, EveryNodeGetsItsFirstDrawsAtTheStart) {
  nodes_.ScheduleProcesses();
  ASSERT_EQ(run_.scheduled.size(), 2U);  // one spot notice per node; no failures, no waves
  for (NodeId node = 0; node < 2; ++node) {
    const Scheduled notice = NoticeOf(node);
    EXPECT_GT(notice.time, 0);
    EXPECT_EQ(notice.generation, 0U);
  }
  EXPECT_TRUE(run_.calls.empty());
}

TEST_F(NodeLifecycleTest, ANoticeCordonsTheNodeOffersItsJobsALeaveAndSchedulesTheReclaim) {
  nodes_.ScheduleProcesses();
  const Scheduled notice = NoticeOf(1);
  run_.busy_node = 1;
  run_.jobs_on_busy_node = {3, 5};
  run_.now_ = notice.time;
  nodes_.Handle(NodeEvent::kSpotNotice, 1, notice.generation);
  EXPECT_EQ(ledger_.state().Availability(1), NodeAvailability::kCordoned);
  EXPECT_EQ(run_.calls,
            (std::vector<std::string>{"node 1 changed, call now", "may leave 3 within 120 s",
                                      "may leave 5 within 120 s"}));
  const Scheduled reclaim = Last();
  EXPECT_EQ(reclaim.event, NodeEvent::kReclaim);
  EXPECT_EQ(reclaim.subject, 1U);
  EXPECT_EQ(reclaim.time, notice.time + 120 * kMillisPerSecond);

  run_.calls.clear();
  run_.now_ = reclaim.time;
  nodes_.Handle(NodeEvent::kReclaim, 1, reclaim.generation);
  EXPECT_EQ(run_.calls, (std::vector<std::string>{"stop 3 (spot-reclaim, spot reclaim)",
                                                  "stop 5 (spot-reclaim, spot reclaim)",
                                                  "node 1 changed, call now"}));
  EXPECT_EQ(ledger_.state().Availability(1), NodeAvailability::kDown);
  const Scheduled back = Last();
  EXPECT_EQ(back.event, NodeEvent::kNodeBack);
  EXPECT_EQ(back.time, reclaim.time + 300 * kMillisPerSecond);
  EXPECT_EQ(back.generation, reclaim.generation + 1);  // the node's draws so far are stale

  run_.calls.clear();
  run_.now_ = back.time;
  const std::size_t before = run_.scheduled.size();
  nodes_.Handle(NodeEvent::kNodeBack, 1, back.generation);
  EXPECT_EQ(ledger_.state().Availability(1), NodeAvailability::kUp);
  EXPECT_EQ(run_.calls, (std::vector<std::string>{"node 1 changed, call now"}));
  ASSERT_EQ(run_.scheduled.size(), before + 1);  // its next spot notice, of its new generation
  EXPECT_EQ(Last().event, NodeEvent::kSpotNotice);
  EXPECT_GT(Last().time, back.time);
  EXPECT_EQ(Last().generation, back.generation);
}

TEST_F(NodeLifecycleTest, EventsOfAnEarlierGenerationOfTheNodeDoNothing) {
  nodes_.ScheduleProcesses();
  const Scheduled notice = NoticeOf(0);
  run_.now_ = notice.time;
  nodes_.Handle(NodeEvent::kSpotNotice, 0, notice.generation);
  const Scheduled reclaim = Last();
  // The node fails during the notice (as if drawn): its jobs stop and it is down for repair.
  run_.jobs_on_busy_node = {2};
  run_.calls.clear();
  nodes_.Handle(NodeEvent::kFailure, 0, notice.generation);
  EXPECT_EQ(run_.calls, (std::vector<std::string>{"stop 2 (hardware-failure, hardware failure)",
                                                  "node 0 changed, call now"}));
  run_.calls.clear();
  const std::size_t before = run_.scheduled.size();
  run_.now_ = reclaim.time;
  nodes_.Handle(NodeEvent::kReclaim, 0, reclaim.generation);  // stale: the failure came first
  nodes_.Handle(NodeEvent::kSpotNotice, 0, notice.generation);
  EXPECT_TRUE(run_.calls.empty());
  EXPECT_EQ(run_.scheduled.size(), before);
  EXPECT_EQ(ledger_.state().Availability(0), NodeAvailability::kDown);
}

// An on-demand pool of two HGX H100 nodes that autoscales from none.
FleetSpec AutoscaledFleet() {
  PoolSpec pool = testing::CatalogPool("hgx-h100", 2, "scaled");
  pool.autoscale = {.enabled = true, .min_nodes = 0};
  return testing::FleetOf({pool});
}

TEST(NodeLifecycleAutoscaleTest, ReleasesAtTheStartThenProvisionsForTheQueueWithoutACall) {
  FleetLedger ledger(AutoscaledFleet());
  FakeRun run;
  std::vector<SimulationObserver*> observers;
  NodeLifecycle nodes(ledger, 1, run, observers);
  nodes.ScheduleProcesses();
  EXPECT_TRUE(run.scheduled.empty());  // no spot or failure process on this pool
  nodes.ReleaseUnneeded();             // both nodes start released
  EXPECT_EQ(run.calls,
            (std::vector<std::string>{"node 0 changed, call now", "node 1 changed, call now"}));
  EXPECT_FALSE(ledger.state().IsUp(0));
  EXPECT_FALSE(ledger.state().IsUp(1));

  // An 8-GPU job queues: one node is provisioned. The policy hears of it at its next call but is
  // not called for it: a node on its way brings nothing yet.
  run.calls.clear();
  run.requests_.push_back({});
  run.requests_.back().id = "eight";
  run.requests_.back().gpus = 8;
  run.queue_.PushBack(0);
  run.now_ = 60 * kMillisPerSecond;
  nodes.Autoscale();
  EXPECT_EQ(run.calls, (std::vector<std::string>{"node 0 changed"}));
  ASSERT_FALSE(run.scheduled.empty());
  const Scheduled back = run.scheduled.front();
  EXPECT_EQ(back.event, NodeEvent::kNodeBack);
  EXPECT_EQ(back.subject, 0U);
  EXPECT_EQ(back.time, run.now_ + kDefaultProvisioningDelay);

  // It comes up when due: the policy hears of it now.
  run.calls.clear();
  run.now_ = back.time;
  nodes.Handle(NodeEvent::kNodeBack, back.subject, back.generation);
  EXPECT_TRUE(ledger.state().IsUp(0));
  EXPECT_EQ(run.calls, (std::vector<std::string>{"node 0 changed, call now"}));
}

}  // namespace
}  // namespace fleetsim
