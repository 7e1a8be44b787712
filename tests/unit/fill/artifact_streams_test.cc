// The artifact's arrivals and tie ranks for the fixture, as a Go program making the artifact's
// calls (rand.Seed(42), Int, Shuffle, the Intn picks of the tuning, ten Int63, Perm) gives them.
#include "fill/artifact_streams.h"

#include <gtest/gtest.h>

#include "testutil/paths.h"

namespace fleetsim {
namespace {

TEST(ArtifactStreamsTest, TheFixturesOrderIsGosOrder) {
  FillWorkload workload;
  ASSERT_EQ(LoadFillWorkload(DiskFileSystem(), testing::DataPath("fill/nodes.csv"),
                             testing::DataPath("fill/pods.csv"), 0.95, workload)
                .message(),
            "");
  const FillOrder order = ArtifactFillOrder(workload, 42, 1.3);
  // The twelve pods shuffled, then five copies until the next pick would pass 130 % of 14 GPUs.
  EXPECT_EQ(order.arrivals,
            (std::vector<std::size_t>{4, 8, 7, 10, 1, 9, 5, 3, 11, 2, 6, 0, 3, 4, 8, 9, 8}));
  // Perm(3) = [2 1 0] over node-a, node-b, node-c (name order = node-list order here).
  EXPECT_EQ(order.tie_rank, (std::vector<std::uint32_t>{2, 1, 0}));
}

}  // namespace
}  // namespace fleetsim
