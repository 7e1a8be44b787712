// Topology queries on the shapes the catalog ships: HGX (one domain of 8 per node), NVL bridged
// pairs (four domains of 2 per node), NVL72 (one domain of 72 spanning 18 four-GPU nodes), and
// racks filled pool by pool.
#include "fleetsim/fleet/topology.h"

#include <gtest/gtest.h>

#include <vector>

#include "testutil/fleets.h"

namespace fleetsim {
namespace {

using testing::CatalogPool;
using testing::FleetOf;

TEST(TopologyTest, HgxNodesAreOneDomainEach) {
  const Topology t(FleetOf({CatalogPool("hgx-h100", 6)}));  // 4 nodes per rack: racks of 4 and 2
  EXPECT_EQ(t.gpus(), 48);
  EXPECT_EQ(t.nodes(), 6);
  EXPECT_EQ(t.domains(), 6);
  EXPECT_EQ(t.racks(), 2);
  EXPECT_EQ(t.DomainOf(0), t.DomainOf(7));
  EXPECT_NE(t.DomainOf(7), t.DomainOf(8));
  EXPECT_EQ(t.RackOf(31), 0U);
  EXPECT_EQ(t.RackOf(32), 1U);
  EXPECT_EQ(t.LocalityOf(3, 3), Locality::kSameGpu);
  EXPECT_EQ(t.LocalityOf(0, 7), Locality::kNvlink);
  EXPECT_EQ(t.LocalityOf(0, 8), Locality::kSameRack);
  EXPECT_EQ(t.LocalityOf(0, 40), Locality::kFabric);
  const std::vector<GpuId> block = {6, 7, 8, 9};
  const Spread s = t.SpreadOf(block);
  EXPECT_EQ(s.domains, 2);
  EXPECT_EQ(s.nodes, 2);
  EXPECT_EQ(s.racks, 1);
  const std::vector<GpuId> expected = {8, 9, 10, 11, 12, 13, 14, 15};
  const auto domain = t.DomainGpus(t.DomainOf(8));
  EXPECT_EQ(std::vector<GpuId>(domain.begin(), domain.end()), expected);
}

// The names docs/fleet-model.md gives the classes, nearest first.
TEST(TopologyTest, LocalityNamesAreTheDocumentedClasses) {
  EXPECT_EQ(LocalityName(Locality::kSameGpu), "same-gpu");
  EXPECT_EQ(LocalityName(Locality::kNvlink), "nvlink");
  EXPECT_EQ(LocalityName(Locality::kSameNode), "same-node");
  EXPECT_EQ(LocalityName(Locality::kSameRack), "same-rack");
  EXPECT_EQ(LocalityName(Locality::kFabric), "fabric");
}

TEST(TopologyTest, NvlPairsSplitANodeIntoDomainsOfTwo) {
  const Topology t(FleetOf({CatalogPool("h100-nvl-pairs", 1)}));
  EXPECT_EQ(t.domains(), 4);
  EXPECT_EQ(t.LocalityOf(0, 1), Locality::kNvlink);
  EXPECT_EQ(t.LocalityOf(1, 2), Locality::kSameNode);
  const std::vector<GpuId> four = {0, 1, 2, 3};
  EXPECT_EQ(t.SpreadOf(four).domains, 2);
  EXPECT_EQ(t.SpreadOf(four).nodes, 1);
}

TEST(TopologyTest, Nvl72IsOneDomainAcrossEighteenTrays) {
  const Topology t(FleetOf({CatalogPool("gb200-nvl72", 36)}));  // two racks
  EXPECT_EQ(t.gpus(), 144);
  EXPECT_EQ(t.nodes(), 36);
  EXPECT_EQ(t.domains(), 2);
  EXPECT_EQ(t.racks(), 2);
  EXPECT_EQ(t.NodeOf(3), 0U);
  EXPECT_EQ(t.NodeOf(4), 1U);
  EXPECT_EQ(t.LocalityOf(0, 71), Locality::kNvlink);  // different trays, same NVLink domain
  EXPECT_EQ(t.LocalityOf(0, 72), Locality::kFabric);
  const std::vector<GpuId> cross_tray = {2, 3, 4, 5};
  EXPECT_EQ(t.SpreadOf(cross_tray).domains, 1);
  EXPECT_EQ(t.SpreadOf(cross_tray).nodes, 2);
  EXPECT_EQ(t.DomainGpus(1).size(), 72U);
  EXPECT_EQ(t.DomainGpus(1).front(), 72U);
}

TEST(TopologyTest, PoolsStartNewRacksAndNumberGpusInPoolOrder) {
  const Topology t(FleetOf(
      {CatalogPool("hgx-h100", 1), CatalogPool("gb200-nvl72", 18), CatalogPool("l40s-8", 1)}));
  EXPECT_EQ(t.gpus(), 8 + 72 + 8);
  EXPECT_EQ(t.racks(), 3);
  EXPECT_EQ(t.RackOf(7), 0U);
  EXPECT_EQ(t.RackOf(8), 1U);
  EXPECT_EQ(t.RackOf(80), 2U);
  EXPECT_EQ(t.LocalityOf(80, 81), Locality::kSameNode);  // L40S: no NVLink
  EXPECT_EQ(t.domains(), 1 + 1 + 8);
}

TEST(TopologyTest, BareGpuCountIsOneNodeAndDomain) {
  FleetSpec fleet;
  fleet.gpus = 16;
  const Topology t(fleet);
  EXPECT_EQ(t.gpus(), 16);
  EXPECT_EQ(t.domains(), 1);
  EXPECT_EQ(t.LocalityOf(0, 15), Locality::kNvlink);
}

TEST(TopologyTest, GraphHasOneVertexPerElementAndTreeEdges) {
  const Topology t(FleetOf({CatalogPool("hgx-h100", 2)}));
  // fabric + 1 rack + 2 nodes + 2 domains + 16 GPUs
  EXPECT_EQ(boost::num_vertices(t.graph()), 1U + 1 + 2 + 2 + 16);
  // rack-fabric, 2 node-rack, 16 GPU-node, 16 GPU-domain
  EXPECT_EQ(boost::num_edges(t.graph()), 1U + 2 + 16 + 16);
}

}  // namespace
}  // namespace fleetsim
