// The fleet's physical topology as a graph (Boost.Graph): a fabric vertex joined to racks, racks
// to nodes, nodes to their GPUs, and NVLink-domain vertices to the GPUs they connect. Built from
// a FleetSpec: each pool's nodes fill racks of nodes_per_rack (the last may be partial); a
// domain is a slice of a node (HGX: the whole node; NVL pairs: 2 GPUs) or spans consecutive
// whole nodes of one rack (NVL72: 18 trays of 4). Queries are answered from the graph; the
// per-GPU lookups are read off it once at construction so they cost O(1).
// Immutable after construction; safe to share between threads.
#pragma once

#include <boost/graph/adjacency_list.hpp>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "fleetsim/fleet/fleet.h"
#include "fleetsim/fleet/fleet_spec.h"

namespace fleetsim {

enum class TopologyKind : std::uint8_t { kFabric, kRack, kNode, kDomain, kGpu };

struct TopologyVertex {
  TopologyKind kind = TopologyKind::kFabric;
  std::uint32_t index = 0;  // rack, node, domain or GPU number within its kind
};

using TopologyGraph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, TopologyVertex>;

// How close two GPUs are, nearest first.
enum class Locality : std::uint8_t {
  kSameGpu,
  kNvlink,    // same NVLink domain
  kSameNode,  // same node, no NVLink between them (PCIe)
  kSameRack,
  kFabric,  // different racks
};

std::string LocalityName(Locality locality);

// How many distinct domains, nodes and racks a set of GPUs touches.
struct Spread {
  std::int64_t domains = 0;
  std::int64_t nodes = 0;
  std::int64_t racks = 0;
};

class Topology {
 public:
  explicit Topology(const FleetSpec& fleet);

  std::int64_t gpus() const { return static_cast<std::int64_t>(domain_of_.size()); }
  std::int64_t nodes() const { return node_count_; }
  std::int64_t domains() const { return domain_count_; }
  std::int64_t racks() const { return rack_count_; }

  std::uint32_t DomainOf(GpuId gpu) const { return domain_of_[gpu]; }
  std::uint32_t NodeOf(GpuId gpu) const { return node_of_[gpu]; }
  std::uint32_t RackOf(GpuId gpu) const { return rack_of_[gpu]; }
  // GPUs of a domain, ascending.
  std::span<const GpuId> DomainGpus(std::uint32_t domain) const;

  Spread SpreadOf(std::span<const GpuId> gpus) const;
  Locality LocalityOf(GpuId a, GpuId b) const;

  const TopologyGraph& graph() const { return graph_; }

 private:
  void Build(const FleetSpec& fleet);
  void ReadLookupsFromGraph();

  TopologyGraph graph_;
  std::int64_t node_count_ = 0;
  std::int64_t domain_count_ = 0;
  std::int64_t rack_count_ = 0;
  std::vector<std::uint32_t> domain_of_;
  std::vector<std::uint32_t> node_of_;
  std::vector<std::uint32_t> rack_of_;
  std::vector<std::uint32_t> domain_start_;  // CSR offsets into domain_gpus_
  std::vector<GpuId> domain_gpus_;
};

}  // namespace fleetsim
