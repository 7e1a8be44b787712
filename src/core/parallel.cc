// ParallelFor: a shared next-task counter and a handful of threads.
#include "fleetsim/core/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace fleetsim {

void ParallelFor(std::size_t count, unsigned threads,
                 const std::function<void(std::size_t)>& task) {
  std::atomic<std::size_t> next{0};
  std::mutex failed;
  std::exception_ptr first_failure;  // the first exception a task threw, on any thread
  const auto worker = [&] {
    for (std::size_t i = next++; i < count; i = next++) {
      try {
        task(i);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(failed);
        if (!first_failure) {
          first_failure = std::current_exception();
        }
        next = count;  // no thread takes another task
      }
    }
  };
  const std::size_t wanted = std::min<std::size_t>(std::max(threads, 1U), count);
  std::vector<std::thread> started;
  started.reserve(wanted > 0 ? wanted - 1 : 0);  // no tasks: no thread
  for (std::size_t t = 1; t < wanted; ++t) {
    try {
      started.emplace_back(worker);
    } catch (...) {  // refused by the system, or no memory for the thread: fewer threads
      break;
    }
  }
  worker();
  for (std::thread& thread : started) {
    thread.join();
  }
  if (first_failure) {
    std::rethrow_exception(first_failure);
  }
}

}  // namespace fleetsim
