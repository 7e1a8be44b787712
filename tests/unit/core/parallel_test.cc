// ParallelFor: every task runs once, on however many threads; a task that throws stops the
// others from starting more, and its exception reaches the caller (out of memory in a sweep's
// run once ended the process in std::terminate).
#include "fleetsim/core/parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <new>
#include <thread>
#include <vector>

namespace fleetsim {
namespace {

TEST(ParallelForTest, NoTasksIsNothingToDo) {
  for (const unsigned threads : {0U, 1U, 4U}) {
    ParallelFor(0, threads, [](std::size_t) { FAIL() << "no task to run"; });
  }
}

TEST(ParallelForTest, RunsEveryTaskOnce) {
  for (const unsigned threads : {1U, 2U, 8U}) {
    std::vector<std::atomic<int>> runs(1000);
    ParallelFor(runs.size(), threads, [&](std::size_t i) { ++runs[i]; });
    for (const std::atomic<int>& count : runs) {
      EXPECT_EQ(count.load(), 1) << threads << " threads";
    }
  }
}

TEST(ParallelForTest, AThrownExceptionReachesTheCallerAndStopsFurtherTasks) {
  std::atomic<std::size_t> started{0};
  const auto task = [&](std::size_t i) {
    ++started;
    if (i == 10) {
      throw std::bad_alloc();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  };
  EXPECT_THROW(ParallelFor(1000, 1, task), std::bad_alloc);
  EXPECT_EQ(started.load(), 11U) << "one thread: the tasks after the throw never start";
  started = 0;
  EXPECT_THROW(ParallelFor(1000, 4, task), std::bad_alloc);
  // Each other thread finishes the task it holds (1 ms) and takes no more.
  EXPECT_LT(started.load(), 200U);
}

}  // namespace
}  // namespace fleetsim
