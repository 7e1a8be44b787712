// ParallelFor: a shared next-task counter and a handful of threads.
#include "fleetsim/core/parallel.h"

#include <algorithm>
#include <atomic>
#include <system_error>
#include <thread>
#include <vector>

namespace fleetsim {

void ParallelFor(std::size_t count, unsigned threads,
                 const std::function<void(std::size_t)>& task) {
  std::atomic<std::size_t> next{0};
  const auto worker = [&] {
    for (std::size_t i = next++; i < count; i = next++) {
      task(i);
    }
  };
  const std::size_t wanted = std::min<std::size_t>(std::max(threads, 1U), count);
  std::vector<std::thread> started;
  for (std::size_t t = 1; t < wanted; ++t) {
    try {
      started.emplace_back(worker);
    } catch (const std::system_error&) {
      break;
    }
  }
  worker();
  for (std::thread& thread : started) {
    thread.join();
  }
}

}  // namespace fleetsim
