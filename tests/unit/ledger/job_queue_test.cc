// JobQueue: the engine's queue of waiting jobs. Whatever the order jobs leave and come back in,
// iterating gives exactly the queued jobs in index order, and size, front and contains agree
// with a plain sorted set (a random sequence of operations, swept and unswept).
#include "fleetsim/ledger/job_queue.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

namespace fleetsim {
namespace {

std::vector<JobIndex> Listed(const JobQueue& queue) {
  return std::vector<JobIndex>(queue.begin(), queue.end());
}

TEST(JobQueueTest, JobsLeaveFromAnywhereAndComeBackToTheirPlace) {
  JobQueue queue;
  for (JobIndex job = 0; job < 6; ++job) {
    queue.PushBack(job);
  }
  queue.Remove(3);
  queue.Remove(0);
  EXPECT_EQ(Listed(queue), (std::vector<JobIndex>{1, 2, 4, 5}));
  EXPECT_EQ(queue.front(), 1U);
  EXPECT_EQ(queue.size(), 4U);
  EXPECT_FALSE(queue.contains(3));
  queue.Insert(3);
  queue.Insert(0);
  EXPECT_EQ(Listed(queue), (std::vector<JobIndex>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(queue.front(), 0U);
  EXPECT_TRUE(queue.contains(3));
}

TEST(JobQueueTest, MisuseIsCaught) {
  JobQueue queue;
  queue.PushBack(4);
  EXPECT_DEATH(queue.PushBack(2), "submission order");
  EXPECT_DEATH(queue.Remove(7), "missing from the queue");
  EXPECT_DEATH(queue.Insert(4), "already in the queue");
}

TEST(JobQueueTest, AgreesWithASortedSetUnderRandomOperations) {
  std::mt19937_64 rng(19);
  JobQueue queue;
  std::set<JobIndex> expected;
  JobIndex next = 0;
  std::vector<JobIndex> left;  // jobs that left and may come back
  for (int step = 0; step < 20'000; ++step) {
    const auto choice = rng() % 10;
    if (choice < 4 || expected.empty()) {
      queue.PushBack(next);
      expected.insert(next++);
    } else if (choice < 8) {
      auto it = expected.begin();
      std::advance(it, static_cast<long>(rng() % expected.size()));
      queue.Remove(*it);
      left.push_back(*it);
      expected.erase(it);
    } else if (!left.empty()) {
      const std::size_t k = rng() % left.size();
      queue.Insert(left[k]);
      expected.insert(left[k]);
      left.erase(left.begin() + static_cast<long>(k));
    }
    ASSERT_EQ(queue.size(), expected.size());
    if (!expected.empty()) {
      ASSERT_EQ(queue.front(), *expected.begin());
    }
    if (step % 97 == 0) {
      ASSERT_EQ(Listed(queue), std::vector<JobIndex>(expected.begin(), expected.end()));
      for (JobIndex job = 0; job < next; ++job) {
        ASSERT_EQ(queue.contains(job), expected.contains(job)) << job;
      }
    }
  }
}

}  // namespace
}  // namespace fleetsim
