// topology.conf: both forms read (blocks with their sizes, leaf switches), the published Azure
// CycleCloud files read whole, and each rule Slurm enforces refused at file:line.
#include "cluster_config/slurm_topology.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testutil/paths.h"

namespace fleetsim {
namespace {

class SlurmTopologyTest : public ::testing::Test {
 protected:
  Status Read(const std::string& text) {
    EXPECT_TRUE(files_.WriteFile("topology.conf", text).ok());
    return ReadSlurmTopology(files_, "topology.conf", topology_);
  }
  std::string Error(const std::string& text) {
    const Status status = Read(text);
    EXPECT_FALSE(status.ok());
    return status.message();
  }

  MemoryFileSystem files_;
  SlurmTopology topology_;
};

TEST_F(SlurmTopologyTest, BlocksWithTheirHostsAndSizes) {
  ASSERT_TRUE(Read("# GB200 racks\nBlockName=b1 Nodes=gb[01-18]\nblockname=b2 nodes=gb[19-27]\n"
                   "BlockSizes=9,18,36\n")
                  .ok());
  EXPECT_TRUE(topology_.blocks);
  ASSERT_EQ(topology_.groups.size(), 2U);
  EXPECT_EQ(topology_.groups[0].name, "b1");
  EXPECT_EQ(topology_.groups[0].where, "topology.conf:2");
  EXPECT_EQ(topology_.groups[0].hosts.size(), 18U);
  EXPECT_EQ(topology_.groups[1].hosts.front(), "gb19");
  EXPECT_EQ(topology_.block_sizes, (std::vector<std::int64_t>{9, 18, 36}));
}

TEST_F(SlurmTopologyTest, IncludesAreReadInPlace) {
  ASSERT_TRUE(files_.WriteFile("rack2.conf", "BlockName=b2 Nodes=gb[19-27]\n").ok());
  ASSERT_TRUE(Read("BlockName=b1 Nodes=gb[01-18]\ninclude rack2.conf\nBlockSizes=9\n").ok());
  ASSERT_EQ(topology_.groups.size(), 2U);
  EXPECT_EQ(topology_.groups[1].where, "rack2.conf:1");
}

TEST_F(SlurmTopologyTest, SwitchTreesKeepTheirLeaves) {
  ASSERT_TRUE(Read("SwitchName=top Switches=s[0-1] LinkSpeed=100\nSwitchName=s0 Nodes=n[1-4]\n"
                   "SwitchName=s1 Nodes=n[5-6]\n")
                  .ok());
  EXPECT_FALSE(topology_.blocks);
  ASSERT_EQ(topology_.groups.size(), 2U);
  EXPECT_EQ(topology_.groups[1].hosts, (std::vector<std::string>{"n5", "n6"}));
  EXPECT_EQ(topology_.switches, 3);
  EXPECT_EQ(topology_.ignored, (std::vector<std::string>{"SwitchName LinkSpeed"}));
  // Slurm lets a host hang from two leaf switches (it warns); so does the reader.
  ASSERT_TRUE(Read("SwitchName=s0 Nodes=n[1-2]\nSwitchName=s1 Nodes=n[2-3]\n").ok());
  EXPECT_EQ(topology_.groups.size(), 2U);
}

// A switch chain far deeper than any real tree is walked without recursion.
TEST_F(SlurmTopologyTest, DeepSwitchChainsAreWalkedWithoutRecursion) {
  std::string text = "SwitchName=leaf Nodes=n1\n";
  constexpr int kLevels = 50'000;
  for (int i = 0; i < kLevels; ++i) {
    text +=
        fmt::format("SwitchName=s{} Switches={}\n", i, i == 0 ? "leaf" : fmt::format("s{}", i - 1));
  }
  ASSERT_TRUE(Read(text).ok());
  EXPECT_EQ(topology_.switches, kLevels + 1);
  EXPECT_EQ(Error(text + "SwitchName=loop Switches=s49999,loop2\nSwitchName=loop2 Switches=loop\n"),
            "topology.conf:50003: switch loop2 names switch 'loop', which is above it already (a "
            "switch tree has no cycles)");
}

TEST_F(SlurmTopologyTest, ThePublishedAzureFiles) {
  const FileSystem& disk = DiskFileSystem();
  const std::string block = testing::SharedTracePath("configs/slurm/azure-block_topology.conf");
  ASSERT_TRUE(ReadSlurmTopology(disk, block, topology_).ok());
  EXPECT_TRUE(topology_.blocks);
  ASSERT_EQ(topology_.groups.size(), 4U);
  for (const TopologyGroup& group : topology_.groups) {
    EXPECT_EQ(group.hosts.size(), 18U) << group.name;
  }
  EXPECT_EQ(topology_.groups[1].hosts.front(), "hpcbench-hpc-2");
  EXPECT_EQ(topology_.block_sizes, (std::vector<std::int64_t>{1}));

  const std::string tree = testing::SharedTracePath("configs/slurm/azure-tree_topology.conf");
  ASSERT_TRUE(ReadSlurmTopology(disk, tree, topology_).ok());
  EXPECT_FALSE(topology_.blocks);
  EXPECT_EQ(topology_.groups.size(), 5U);
  EXPECT_EQ(topology_.switches, 6);
  std::size_t hosts = 0;
  for (const TopologyGroup& group : topology_.groups) {
    hosts += group.hosts.size();
  }
  EXPECT_EQ(hosts, 16U);
}

TEST_F(SlurmTopologyTest, SlurmsRulesAreEnforced) {
  EXPECT_EQ(Error("BlockName=b1 Nodes=n[1-2]\nSwitchName=s0 Nodes=n3\n"),
            "topology.conf:2: a SwitchName line in a topology.conf of blocks (from "
            "topology.conf:1): a file is for one plugin, topology/block or topology/tree");
  EXPECT_EQ(Error("BlockName=b1 Nodes=n[1-2]\nBlockName=b2 Nodes=n[2-3]\n"),
            "topology.conf:2: host n2 is in a block already, at topology.conf:1");
  EXPECT_EQ(Error("BlockName=b1 Nodes=n[1-10001]\n"),
            "topology.conf:1: block 'b1' has 10001 hosts, more than the 10000 a rack may hold");
  EXPECT_EQ(Error("BlockName=b1 Nodes=n1\nBlockName=b1 Nodes=n2\n"),
            "topology.conf:2: BlockName 'b1' is defined already, at topology.conf:1");
  EXPECT_EQ(Error("BlockName=b1\n"), "topology.conf:1: expected Nodes= beside BlockName");
  EXPECT_EQ(Error("BlockName=b1 Nodes=n1 LinkSpeed=5\n"),
            "topology.conf:1: expected only Nodes= beside BlockName, found 'LinkSpeed='");
  EXPECT_EQ(Error("BlockName=b1 Nodes=n[1-2\n"),
            "topology.conf:1: Nodes: host list 'n[1-2': a '[' is not closed");
  EXPECT_EQ(Error("BlockName=b1 Nodes=n1\nBlockSizes=4,12\n"),
            "topology.conf:2: BlockSizes: 12 follows 4, but each size must be the first (4) "
            "times a power of two, larger than the one before");
  EXPECT_EQ(Error("BlockName=b1 Nodes=n1\nBlockSizes=4,4\n"),
            "topology.conf:2: BlockSizes: 4 follows 4, but each size must be the first (4) "
            "times a power of two, larger than the one before");
  EXPECT_EQ(Error("BlockName=b1 Nodes=n1\nBlockSizes=0\n"),
            "topology.conf:2: BlockSizes: expected whole numbers of nodes in [1, 10000] "
            "separated by commas, found '0'");
  EXPECT_EQ(Error("BlockName=b1 Nodes=n1\nBlockSizes=20000\n"),
            "topology.conf:2: BlockSizes: expected whole numbers of nodes in [1, 10000] "
            "separated by commas, found '20000'");
  EXPECT_EQ(Error("BlockSizes=1\nBlockName=b1 Nodes=n1\nBlockSizes=2\n"),
            "topology.conf:3: a second BlockSizes line (the first is at topology.conf:1)");
  EXPECT_EQ(Error("SwitchName=s0 Nodes=n1 Switches=s1\nSwitchName=s1 Nodes=n2\n"),
            "topology.conf:1: expected one of Nodes= (a leaf switch) and Switches= (one above "
            "others), found both");
  EXPECT_EQ(Error("SwitchName=s0\n"),
            "topology.conf:1: expected one of Nodes= (a leaf switch) and Switches= (one above "
            "others), found neither");
  EXPECT_EQ(Error("SwitchName=s0 Nodes=n1\nSwitchName=top Switches=s0,s9\n"),
            "topology.conf:2: switch top names switch 's9', which no SwitchName line defines");
  EXPECT_EQ(Error("SwitchName=s0 Nodes=n1\nSwitchName=top Switches=top,s0\n"),
            "topology.conf:2: switch top names switch 'top', which is itself (a switch tree has "
            "no cycles)");
  EXPECT_EQ(Error("SwitchName=s0 Nodes=n1\nSwitchName=a Switches=b\nSwitchName=b Switches=a,s0\n"),
            "topology.conf:3: switch b names switch 'a', which is above it already (a switch "
            "tree has no cycles)");
  EXPECT_EQ(Error("NodeName=n1\n"),
            "topology.conf:1: expected a BlockName=, BlockSizes= or SwitchName= line, found "
            "'NodeName='");
  EXPECT_EQ(Error("# nothing\nBlockSizes=2\n"),
            "topology.conf: no BlockName line and no SwitchName line with Nodes=: no host is "
            "placed");
  EXPECT_EQ(Error("BlockName=b1 Nodes=n1\ninclude more.conf\n"),
            "topology.conf:2: include more.conf: file not found (the topology would be missing "
            "its lines)");
}

TEST_F(SlurmTopologyTest, NamesAreCappedPerFile) {
  EXPECT_EQ(Error("SwitchName=s0 Nodes=n[1-600000]\nSwitchName=top Switches=m[1-600000]\n"),
            "topology.conf:2: more than 1000000 host and switch names in the topology");
}

}  // namespace
}  // namespace fleetsim
