// AllocationState: lowest-free queries and the busy + free == capacity invariant under a long
// random sequence of allocations and releases, checked against a plain reference.
#include <gtest/gtest.h>

#include <vector>

#include "fleetsim/core/random.h"
#include "fleetsim/fleet/fleet.h"

namespace fleetsim {
namespace {

TEST(AllocationStateTest, LowestFreeSkipsBusyGpus) {
  AllocationState state({.gpus = 130});
  const std::vector<GpuId> taken = {0, 1, 3, 64, 65};
  state.Allocate(taken);
  EXPECT_EQ(state.free_count(), 125);
  EXPECT_EQ(state.LowestFree(3), (std::vector<GpuId>{2, 4, 5}));
  EXPECT_TRUE(state.LowestFree(126).empty());
  EXPECT_EQ(state.LowestFree(125).back(), 129U);
  state.Release(taken);
  EXPECT_EQ(state.free_count(), 130);
}

TEST(AllocationStateTest, RandomSequenceMatchesReference) {
  Rng rng(77);
  constexpr std::int64_t kGpus = 200;
  AllocationState state({.gpus = kGpus});
  std::vector<bool> busy(kGpus, false);
  std::vector<std::vector<GpuId>> held;
  for (int step = 0; step < 20000; ++step) {
    if (UniformInt(rng, 0, 1) == 0) {
      const std::int64_t want = UniformInt(rng, 1, 16);
      const std::vector<GpuId> gpus = state.LowestFree(want);
      if (gpus.empty()) {
        continue;
      }
      state.Allocate(gpus);
      for (const GpuId g : gpus) {
        ASSERT_FALSE(busy[g]);
        busy[g] = true;
      }
      held.push_back(gpus);
    } else if (!held.empty()) {
      const auto pick =
          static_cast<std::size_t>(UniformInt(rng, 0, static_cast<std::int64_t>(held.size()) - 1));
      state.Release(held[pick]);
      for (const GpuId g : held[pick]) {
        busy[g] = false;
      }
      held.erase(held.begin() + static_cast<std::ptrdiff_t>(pick));
    }
    std::int64_t reference_free = 0;
    for (std::int64_t g = 0; g < kGpus; ++g) {
      reference_free += busy[static_cast<std::size_t>(g)] ? 0 : 1;
      ASSERT_EQ(state.IsFree(static_cast<GpuId>(g)), !busy[static_cast<std::size_t>(g)]);
    }
    ASSERT_EQ(state.free_count(), reference_free);
    ASSERT_EQ(state.busy_count() + state.free_count(), state.capacity());
  }
}

}  // namespace
}  // namespace fleetsim
