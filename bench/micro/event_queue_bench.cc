// Event-queue throughput, items per second = events scheduled and dispatched per second.
// Target (issue #2): >= 10 M events/s with 1M events pending. Two access patterns:
//  - fill and drain: schedule N events at random times, then dispatch them all — the pattern of
//    a replay, which schedules every arrival up front;
//  - hold: N events stay pending; each iteration dispatches the earliest and schedules one at a
//    random later time — the classic steady-state priority-queue benchmark (harder: random
//    writes into a 1M-event working set).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "fleetsim/core/random.h"
#include "fleetsim/engine/event_queue.h"

namespace fleetsim {
namespace {

// Precomputed exponential-ish increments so the benchmark measures the queue, not the RNG.
std::vector<SimDuration> Increments(std::size_t n) {
  Rng rng(1);
  std::vector<SimDuration> out(n);
  for (SimDuration& d : out) {
    d = 1 + static_cast<SimDuration>(Exponential(rng, 1'000'000.0));
  }
  return out;
}

void BM_FillAndDrain(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  Rng rng(2);
  std::vector<SimTime> times(n);
  for (SimTime& t : times) {
    t = UniformInt(rng, 0, 30LL * 24 * 3600 * 1000);  // a month, in ms
  }
  EventQueue<std::uint64_t> queue;  // reused: later iterations run with warm buffers
  queue.Reserve(n);
  SimTime base = 0;  // each round starts after the last: simulated time never goes back
  for (auto _ : state) {
    for (std::size_t i = 0; i < n; ++i) {
      queue.Schedule(base + times[i], Phase::kArrival, i);
    }
    base += 31LL * 24 * 3600 * 1000;
    std::uint64_t sum = 0;
    while (auto event = queue.Pop()) {
      sum += event->payload;
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n));
}
BENCHMARK(BM_FillAndDrain)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

void BM_HoldModel(benchmark::State& state) {
  const auto pending = static_cast<std::size_t>(state.range(0));
  const std::vector<SimDuration> increments = Increments(1 << 20);
  EventQueue<std::uint64_t> queue;
  queue.Reserve(pending + 1);
  std::size_t next = 0;
  for (std::size_t i = 0; i < pending; ++i) {
    queue.Schedule(increments[next++ & ((1 << 20) - 1)], Phase::kArrival, i);
  }
  for (auto _ : state) {
    const auto event = queue.Pop();
    const SimTime t = event->key.time() + increments[next++ & ((1 << 20) - 1)];
    queue.Schedule(t, Phase::kRelease, event->payload);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_HoldModel)->Arg(1'000)->Arg(100'000)->Arg(1'000'000);

void BM_HoldModelWithCancellation(benchmark::State& state) {
  const auto pending = static_cast<std::size_t>(state.range(0));
  const std::vector<SimDuration> increments = Increments(1 << 20);
  EventQueue<std::uint64_t> queue;
  queue.Reserve(pending + 1);
  std::vector<EventHandle> handles;
  std::size_t next = 0;
  for (std::size_t i = 0; i < pending; ++i) {
    handles.push_back(queue.Schedule(increments[next++ & ((1 << 20) - 1)], Phase::kArrival, i));
  }
  std::uint64_t k = 0;
  for (auto _ : state) {
    // One in ten iterations cancels a (possibly already-run) event and schedules a replacement.
    if (++k % 10 == 0) {
      queue.Cancel(handles[k % handles.size()]);
      handles[k % handles.size()] = queue.Schedule(
          static_cast<SimTime>(k) + increments[next++ & ((1 << 20) - 1)], Phase::kArrival, k);
    }
    const auto event = queue.Pop();
    const SimTime t = event->key.time() + increments[next++ & ((1 << 20) - 1)];
    handles[event->payload % handles.size()] = queue.Schedule(t, Phase::kRelease, event->payload);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_HoldModelWithCancellation)->Arg(1'000'000);

}  // namespace
}  // namespace fleetsim
