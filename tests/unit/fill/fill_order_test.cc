// Fill order files: a good file gives the arrivals (repeats allowed) and the tie rank by node
// name; each malformed row is reported with its file and line; a run in a given order is the
// seeded run when the order is the seed's own. Order files live in a MemoryFileSystem.
#include "fleetsim/fill/fill_order.h"

#include <gtest/gtest.h>

#include "fleetsim/core/file_system.h"
#include "fleetsim/fill/fill_run.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

constexpr const char* kNodeRows = "node,node-c,0\nnode,node-a,2\nnode,node-b,1\n";

class FillOrderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(files_.CreateDirectories(dir_).ok());
    ASSERT_EQ(LoadFillWorkload(DiskFileSystem(), testing::DataPath("fill/nodes.csv"),
                               testing::DataPath("fill/pods.csv"), 0.95, workload_)
                  .message(),
              "");
  }
  std::string Write(const std::string& text) {
    const std::string path = dir_ + "/order.csv";
    EXPECT_TRUE(files_.WriteFile(path, text).ok());
    return path;
  }

  // The error of loading `text`, with the directory taken out.
  std::string ErrorOf(const std::string& text) {
    FillOrder order;
    const std::string error = LoadFillOrder(files_, Write(text), workload_, order).message();
    return error.substr(error.find("order.csv"));
  }

  MemoryFileSystem files_;
  std::string dir_ = "orders";
  FillWorkload workload_;
};

TEST_F(FillOrderTest, ReadsArrivalsAndRanksByName) {
  FillOrder order;
  ASSERT_EQ(
      LoadFillOrder(
          files_,
          Write(std::string("kind,name,rank\npod,pod-03\npod,pod-01\npod,pod-03\n") + kNodeRows),
          workload_, order)
          .message(),
      "");
  // Pods are sorted by name in the workload: pod-01 is index 0, pod-03 index 2.
  EXPECT_EQ(order.arrivals, (std::vector<std::size_t>{2, 0, 2}));
  // Node-list order: node-a, node-b, node-c.
  EXPECT_EQ(order.tie_rank, (std::vector<std::uint32_t>{2, 1, 0}));
}

TEST_F(FillOrderTest, TakesAByteOrderMarkAndPodRowsWithAnEmptyRank) {
  FillOrder order;
  ASSERT_EQ(
      LoadFillOrder(files_,
                    Write(std::string("\xEF\xBB\xBFkind,name,rank\r\npod,pod-02,\r\n") + kNodeRows),
                    workload_, order)
          .message(),
      "");
  EXPECT_EQ(order.arrivals, (std::vector<std::size_t>{1}));
}

TEST_F(FillOrderTest, ReportsEachProblemWithItsLine) {
  const std::string head = "kind,name,rank\npod,pod-01\n";
  EXPECT_EQ(ErrorOf("kind,name\n"),
            "order.csv:1: expected the header \"kind,name,rank\", found \"kind,name\"");
  EXPECT_EQ(ErrorOf(head + "pod,pod-99\n"),
            "order.csv:3: expected a pod of the pod list, found \"pod-99\"");
  EXPECT_EQ(ErrorOf(head + "node,node-z,0\n"),
            "order.csv:3: expected a node of the node list, found \"node-z\"");
  EXPECT_EQ(ErrorOf(head + "node,node-a,0\nnode,node-a,1\n"),
            "order.csv:4: expected each node once, found \"node-a\" again");
  EXPECT_EQ(ErrorOf(head + "node,node-a,3\n"),
            "order.csv:3: expected a rank from 0 to 2, found \"3\"");
  EXPECT_EQ(ErrorOf(head + "node,node-a,x\n"),
            "order.csv:3: expected a rank from 0 to 2, found \"x\"");
  EXPECT_EQ(ErrorOf(head + "node,node-a,1\nnode,node-b,1\n"),
            "order.csv:4: expected each rank once, found 1 again");
  EXPECT_EQ(ErrorOf(head + "pod,pod-01,5\n"),
            "order.csv:3: expected \"pod,NAME\" or \"node,NAME,RANK\", found \"pod,pod-01,5\"");
  EXPECT_EQ(ErrorOf(head + "job,pod-01\n"),
            "order.csv:3: expected \"pod,NAME\" or \"node,NAME,RANK\", found \"job,pod-01\"");
  EXPECT_EQ(ErrorOf(head + "node,node-a,0\nnode,node-b,1\n"),
            "order.csv: expected a node row for every node of the node list; none for \"node-c\"");
  EXPECT_EQ(ErrorOf(std::string("kind,name,rank\n") + kNodeRows),
            "order.csv: expected at least one pod row, found none");
}

TEST_F(FillOrderTest, AMissingFileIsAnError) {
  FillOrder order;
  EXPECT_EQ(LoadFillOrder(files_, dir_ + "/none.csv", workload_, order).message(),
            dir_ + "/none.csv: cannot read the fill order file (no such file)");
  EXPECT_EQ(LoadFillOrder(files_, dir_, workload_, order).message(),
            dir_ + ": expected a fill order file, found a directory or special file");
  EXPECT_EQ(FillOrderPath("dir", "openb-default", 42), "dir/openb-default-42.csv");
}

TEST_F(FillOrderTest, TheSeedsOwnOrderGivesTheSeededRun) {
  for (const GpuSharePolicy policy : GpuSharePolicies()) {
    const FillRunOptions options{.policy = policy, .seed = 7};
    const FillOrder order{
        .arrivals = FillArrivals(workload_, options),
        .tie_rank = RandomTieRank(workload_.nodes.size(),
                                  RandomStreams(options.seed, 0).Stream("fill.node-order"))};
    const std::vector<FillStep> seeded = RunFill(workload_, options);
    const std::vector<FillStep> given = RunFillInOrder(workload_, options, order);
    ASSERT_EQ(given.size(), seeded.size());
    for (std::size_t i = 0; i < seeded.size(); ++i) {
      EXPECT_EQ(given[i].pod, seeded[i].pod);
      EXPECT_EQ(given[i].placed, seeded[i].placed);
      EXPECT_EQ(given[i].allocated_milli, seeded[i].allocated_milli);
      EXPECT_DOUBLE_EQ(given[i].fragmented_milli, seeded[i].fragmented_milli);
    }
  }
}

}  // namespace
}  // namespace fleetsim
