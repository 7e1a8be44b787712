// The engine's side of the policy protocol (sim/policy_channel.h): a call is due once per instant
// and again only when something new came; the policy sees the changes noted since its last call
// and only those; a policy called without end at one instant stops the run (livelock); the
// holds of a call are taken over by its starts or released.
#include "sim/policy_channel.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "testutil/fleets.h"

namespace fleetsim {
namespace {

// Records what each call saw and holds one whole GPU for `request` when asked to.
class RecordingPolicy final : public Policy {
 public:
  struct Seen {
    SimTime now;
    std::vector<JobIndex> submitted;
    std::vector<JobIndex> finished;
    std::vector<JobIndex> preempted;
    std::vector<NodeId> nodes_changed;
    std::size_t placements;
  };
  RecordingPolicy(std::vector<Seen>& seen, const JobRequest* hold_for)
      : seen_(seen), hold_for_(hold_for) {}

  std::vector<Decision> Decide(const ClusterView& view, PlacementPlanner& planner) override {
    const ChangesSinceLastCall& changes = view.changes();
    seen_.push_back({view.now(), changes.submitted, changes.finished, changes.preempted,
                     changes.nodes_changed, changes.placements.size()});
    if (hold_for_ != nullptr) {
      EXPECT_TRUE(planner.Place(*hold_for_).has_value());
    }
    return {};
  }

 private:
  std::vector<Seen>& seen_;
  const JobRequest* hold_for_;
};

class PolicyChannelTest : public ::testing::Test {
 protected:
  PolicyChannelTest() : ledger_(testing::FleetOf({testing::CatalogPool("hgx-h100", 1, "h100")})) {
    request_.id = "one-gpu";
    request_.gpus = 1;
  }

  PolicyChannel Channel(const JobRequest* hold_for = nullptr) {
    return PolicyChannel(ledger_, std::make_unique<RecordingPolicy>(seen_, hold_for), "recorder",
                         {});
  }
  Status Call(PolicyChannel& channel, SimTime now) {
    std::vector<Decision> decisions;
    return channel.Call(now, {.submitted = {}, .queue = queue_, .running = {}}, decisions);
  }

  FleetLedger ledger_;
  JobQueue queue_;
  JobRequest request_;
  std::vector<RecordingPolicy::Seen> seen_;
};

TEST_F(PolicyChannelTest, ACallIsDueOncePerInstantAndAgainOnlyWhenSomethingChanged) {
  PolicyChannel channel = Channel();
  EXPECT_TRUE(channel.Due(0));
  ASSERT_TRUE(Call(channel, 0).ok());
  EXPECT_FALSE(channel.Due(0));  // a wake-up at an instant already seen, with nothing new
  EXPECT_TRUE(channel.Due(1));
  channel.NoteSubmitted(0);
  EXPECT_TRUE(channel.Due(0));
  ASSERT_TRUE(Call(channel, 0).ok());
  EXPECT_FALSE(channel.Due(0));
  // Placement changes alone (a start, a resize) do not bring the policy back: its own decisions
  // made them.
  channel.NotePlacement({.job = 0, .start = 0, .placement = {}});
  EXPECT_FALSE(channel.Due(0));
  for (const auto& note :
       std::vector<void (*)(PolicyChannel&)>{[](PolicyChannel& c) { c.NoteFinished(0); },
                                             [](PolicyChannel& c) { c.NotePreempted(0); },
                                             [](PolicyChannel& c) { c.NoteNodeChanged(0); }}) {
    ASSERT_TRUE(Call(channel, 0).ok());
    EXPECT_FALSE(channel.Due(0));
    note(channel);
    EXPECT_TRUE(channel.Due(0));
  }
}

TEST_F(PolicyChannelTest, ThePolicySeesWhatChangedSinceItsLastCallAndOnlyThat) {
  PolicyChannel channel = Channel();
  channel.NoteSubmitted(3);
  channel.NoteSubmitted(4);
  channel.NoteFinished(1);
  channel.NotePreempted(2);
  channel.NoteNodeChanged(0);
  channel.NotePlacement({.job = 2, .start = 0, .placement = {}});
  ASSERT_TRUE(Call(channel, 7).ok());
  ASSERT_TRUE(Call(channel, 8).ok());
  ASSERT_EQ(seen_.size(), 2U);
  EXPECT_EQ(seen_[0].now, 7);
  EXPECT_EQ(seen_[0].submitted, (std::vector<JobIndex>{3, 4}));
  EXPECT_EQ(seen_[0].finished, (std::vector<JobIndex>{1}));
  EXPECT_EQ(seen_[0].preempted, (std::vector<JobIndex>{2}));
  EXPECT_EQ(seen_[0].nodes_changed, (std::vector<NodeId>{0}));
  EXPECT_EQ(seen_[0].placements, 1U);
  EXPECT_EQ(seen_[1].now, 8);
  EXPECT_TRUE(seen_[1].submitted.empty());
  EXPECT_TRUE(seen_[1].finished.empty());
  EXPECT_TRUE(seen_[1].preempted.empty());
  EXPECT_TRUE(seen_[1].nodes_changed.empty());
  EXPECT_EQ(seen_[1].placements, 0U);
}

TEST_F(PolicyChannelTest, APolicyCalledWithoutEndAtOneInstantStopsTheRun) {
  PolicyChannel channel = Channel();
  for (std::int64_t call = 0; call < PolicyChannel::kMaxCallsPerInstant; ++call) {
    ASSERT_TRUE(Call(channel, 5).ok()) << "call " << call;
    channel.NotePreempted(0);
  }
  const Status status = Call(channel, 5);
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            "policy 'recorder' preempted jobs in each of 1000 calls at 0d 00:00:00.005 without "
            "time moving on (livelock)");
  EXPECT_EQ(seen_.size(), static_cast<std::size_t>(PolicyChannel::kMaxCallsPerInstant));
  EXPECT_TRUE(Call(channel, 6).ok());  // time moved on: the count starts again
}

TEST_F(PolicyChannelTest, AStartTakesItsHoldOverAndRollbackReleasesTheRest) {
  const std::int64_t free_before = ledger_.whole().free_count();
  const std::optional<Allocation> choice = ChoosePlacement(ledger_, request_);  // what Place holds
  ASSERT_TRUE(choice.has_value());
  PolicyChannel channel = Channel(&request_);
  ASSERT_TRUE(Call(channel, 0).ok());
  EXPECT_EQ(channel.holds(), 1U);
  EXPECT_EQ(ledger_.whole().free_count(), free_before - 1);
  EXPECT_TRUE(channel.TakeOver(*choice));
  EXPECT_EQ(channel.holds(), 0U);
  channel.Rollback();
  EXPECT_EQ(ledger_.whole().free_count(), free_before - 1);  // the start owns its GPU
  ASSERT_TRUE(Call(channel, 1).ok());                        // holds another one
  EXPECT_EQ(ledger_.whole().free_count(), free_before - 2);
  channel.Rollback();
  EXPECT_EQ(channel.holds(), 0U);
  EXPECT_EQ(ledger_.whole().free_count(), free_before - 1);
}

}  // namespace
}  // namespace fleetsim
