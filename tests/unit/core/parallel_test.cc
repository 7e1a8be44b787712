// ParallelFor: every task runs once, on however many threads; a task that throws stops the
// others from starting more, and its exception reaches the caller (out of memory in a sweep's
// run once ended the process in std::terminate).
#include "fleetsim/core/parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <new>
#include <vector>

namespace fleetsim {
namespace {

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
  for (const unsigned threads : {1U, 4U}) {
    std::atomic<std::size_t> started{0};
    EXPECT_THROW(ParallelFor(100000, threads,
                             [&](std::size_t i) {
                               ++started;
                               if (i == 10) {
                                 throw std::bad_alloc();
                               }
                             }),
                 std::bad_alloc)
        << threads << " threads";
    EXPECT_LT(started.load(), 100000U) << threads << " threads";
  }
}

}  // namespace
}  // namespace fleetsim
