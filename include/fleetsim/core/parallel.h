// Running independent tasks on a few threads: each thread takes the next task index as it
// finishes one, the calling thread included. No more threads are started than there are tasks;
// if the system refuses one, the threads started share the tasks, so results that depend only on
// each task's own inputs do not depend on how many threads ran.
#pragma once

#include <cstddef>
#include <functional>

namespace fleetsim {

// Calls task(i) for every i in [0, count), on up to `threads` threads (at least one: the
// caller's). `task` must be safe to call concurrently for different i. When a task throws (out
// of memory), no further task starts, the running ones finish, and the first exception is
// rethrown on the calling thread.
void ParallelFor(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& task);

}  // namespace fleetsim
