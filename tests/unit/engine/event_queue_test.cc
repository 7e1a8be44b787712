// EventKey order and EventQueue behaviour: ties broken by phase then sequence, cancellation,
// and agreement with a simple sorted reference under random operations.
#include "fleetsim/engine/event_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "fleetsim/core/random.h"

namespace fleetsim {
namespace {

TEST(EventKeyTest, OrdersByTimeThenPhaseThenSequence) {
  EXPECT_LT(EventKey(1, Phase::kObserve, 9), EventKey(2, Phase::kRelease, 0));
  EXPECT_LT(EventKey(5, Phase::kRelease, 9), EventKey(5, Phase::kArrival, 0));
  EXPECT_LT(EventKey(5, Phase::kArrival, 9), EventKey(5, Phase::kSchedule, 0));
  EXPECT_LT(EventKey(5, Phase::kSchedule, 1), EventKey(5, Phase::kSchedule, 2));
  EXPECT_EQ(EventKey(5, Phase::kSchedule, 2), EventKey(5, Phase::kSchedule, 2));
  const EventKey k(-7, Phase::kObserve, kMaxSequence);
  EXPECT_EQ(k.time(), -7);
  EXPECT_EQ(k.phase(), Phase::kObserve);
  EXPECT_EQ(k.sequence(), kMaxSequence);
}

std::vector<int> Drain(EventQueue<int>& queue) {
  std::vector<int> out;
  while (auto event = queue.Pop()) {
    out.push_back(event->payload);
  }
  return out;
}

TEST(EventQueueTest, SameTimeEventsRunByPhaseThenInSchedulingOrder) {
  EventQueue<int> queue;
  queue.Schedule(10, Phase::kSchedule, 1);
  queue.Schedule(10, Phase::kArrival, 2);
  queue.Schedule(10, Phase::kRelease, 3);
  queue.Schedule(10, Phase::kArrival, 4);
  queue.Schedule(5, Phase::kObserve, 5);
  queue.Schedule(10, Phase::kSchedule, 6);
  EXPECT_EQ(Drain(queue), (std::vector<int>{5, 3, 2, 4, 1, 6}));
}

TEST(EventQueueTest, CancelledEventsNeverRun) {
  EventQueue<int> queue;
  const EventHandle a = queue.Schedule(1, Phase::kArrival, 1);
  queue.Schedule(2, Phase::kArrival, 2);
  const EventHandle c = queue.Schedule(3, Phase::kArrival, 3);
  EXPECT_TRUE(queue.Cancel(a));
  EXPECT_TRUE(queue.Cancel(c));
  EXPECT_EQ(queue.size(), 1U);
  EXPECT_EQ(queue.PeekKey()->time(), 2);
  EXPECT_EQ(Drain(queue), (std::vector<int>{2}));
  EXPECT_TRUE(queue.empty());
}

TEST(EventQueueTest, CancellingTwiceOrAfterRunningIsANoOp) {
  EventQueue<int> queue;
  const EventHandle a = queue.Schedule(1, Phase::kArrival, 1);
  EXPECT_TRUE(queue.Cancel(a));
  EXPECT_FALSE(queue.Cancel(a));
  const EventHandle b = queue.Schedule(2, Phase::kArrival, 2);  // may reuse a's slot
  EXPECT_FALSE(queue.Cancel(a)) << "a stale handle must not cancel the slot's new event";
  ASSERT_TRUE(queue.Pop().has_value());
  EXPECT_FALSE(queue.Cancel(b)) << "b already ran";
  EXPECT_FALSE(queue.Cancel(EventHandle{}));
  EXPECT_TRUE(queue.empty());
}

TEST(EventQueueTest, CancelledEventDroppedByPeekCannotBeCancelledAgain) {
  EventQueue<int> queue;
  const EventHandle a = queue.Schedule(1, Phase::kArrival, 1);
  queue.Schedule(2, Phase::kArrival, 2);
  EXPECT_TRUE(queue.Cancel(a));
  EXPECT_EQ(queue.PeekKey()->time(), 2);  // drops a
  EXPECT_FALSE(queue.Cancel(a));
  EXPECT_EQ(queue.size(), 1U);
}

TEST(EventQueueTest, DefaultHandleCancelsNothing) {
  EventQueue<int> queue;
  queue.Schedule(0, Phase::kArrival, 1);
  EXPECT_FALSE(queue.Cancel(EventHandle{}));
  EXPECT_EQ(queue.size(), 1U);
}

TEST(EventQueueTest, FarApartTimesAndNegativeTimesKeepOrder) {
  EventQueue<int> queue;
  queue.Schedule(kTimeNever - 1, Phase::kArrival, 4);
  queue.Schedule(1LL << 40, Phase::kArrival, 3);
  queue.Schedule(-5, Phase::kArrival, 1);
  queue.Schedule(0, Phase::kArrival, 2);
  EXPECT_EQ(Drain(queue), (std::vector<int>{1, 2, 3, 4}));
}

TEST(EventQueueTest, EventsScheduledAtTheCurrentInstantRunInPhaseOrder) {
  EventQueue<int> queue;
  queue.Schedule(10, Phase::kArrival, 1);
  queue.Schedule(10, Phase::kArrival, 2);
  ASSERT_EQ(queue.Pop()->payload, 1);
  queue.Schedule(10, Phase::kSchedule, 4);  // scheduled while time 10 is being processed
  queue.Schedule(10, Phase::kArrival, 3);
  EXPECT_EQ(Drain(queue), (std::vector<int>{2, 3, 4}));
}

TEST(EventQueueDeathTest, SchedulingInThePastIsABug) {
  EventQueue<int> queue;
  queue.Schedule(10, Phase::kSchedule, 1);
  ASSERT_TRUE(queue.Pop().has_value());
  EXPECT_DEATH(queue.Schedule(9, Phase::kSchedule, 2),
               "scheduled before the current simulated time");
  EXPECT_DEATH(queue.Schedule(10, Phase::kArrival, 2),
               "scheduled before the current simulated time");
}

TEST(EventQueueTest, MatchesSortedReferenceUnderRandomOperations) {
  Rng rng(2024);
  EventQueue<int> queue;
  std::map<std::tuple<SimTime, int, int>, int> reference;  // (time, phase, seq) -> payload
  std::vector<std::pair<EventHandle, std::tuple<SimTime, int, int>>> handles;
  int seq = 0;
  SimTime now = 0;
  Phase now_phase = Phase::kRelease;
  for (int step = 0; step < 20000; ++step) {
    const auto action = UniformInt(rng, 0, 9);
    if (action < 5) {
      // Never before the last popped event: same time only at the same or a later phase.
      const SimTime t = now + UniformInt(rng, 0, 50);
      auto phase = static_cast<Phase>(UniformInt(rng, 0, 3));
      if (t == now && phase < now_phase) {
        phase = now_phase;
      }
      handles.emplace_back(queue.Schedule(t, phase, seq),
                           std::make_tuple(t, static_cast<int>(phase), seq));
      reference[handles.back().second] = seq;
      ++seq;
    } else if (action < 7 && !handles.empty()) {
      const auto pick = static_cast<std::size_t>(
          UniformInt(rng, 0, static_cast<std::int64_t>(handles.size()) - 1));
      const bool was_pending = reference.erase(handles[pick].second) == 1;
      EXPECT_EQ(queue.Cancel(handles[pick].first), was_pending);
    } else {
      const auto event = queue.Pop();
      ASSERT_EQ(event.has_value(), !reference.empty());
      if (event) {
        EXPECT_EQ(event->payload, reference.begin()->second);
        now = event->key.time();
        now_phase = event->key.phase();
        reference.erase(reference.begin());
      }
    }
    ASSERT_EQ(queue.size(), reference.size());
  }
}

}  // namespace
}  // namespace fleetsim
