// Building the topology graph from pools, and the queries answered from it.
#include "fleetsim/fleet/topology.h"

#include <algorithm>

#include "fleetsim/core/check.h"

namespace fleetsim {

std::string LocalityName(Locality locality) {
  switch (locality) {
    case Locality::kSameGpu:
      return "same-gpu";
    case Locality::kNvlink:
      return "nvlink";
    case Locality::kSameNode:
      return "same-node";
    case Locality::kSameRack:
      return "same-rack";
    case Locality::kFabric:
      return "fabric";
  }
  return "?";
}

namespace {

using Vertex = TopologyGraph::vertex_descriptor;

// A bare {"gpus": N} fleet: one node, one domain, one rack holding every GPU.
PoolSpec AnonymousPool(std::int64_t gpus) {
  PoolSpec pool;
  pool.name = "gpus";
  pool.nodes = 1;
  pool.node.gpus_per_node = static_cast<int>(gpus);
  pool.node.nvlink_domain_gpus = static_cast<int>(gpus);
  pool.node.nodes_per_rack = 1;
  return pool;
}

}  // namespace

Topology::Topology(const FleetSpec& fleet) {
  Build(fleet);
  ReadLookupsFromGraph();
}

void Topology::Build(const FleetSpec& fleet) {
  std::vector<PoolSpec> pools = fleet.pools;
  if (pools.empty() && fleet.gpus > 0) {
    pools.push_back(AnonymousPool(fleet.gpus));
  }
  const Vertex fabric = boost::add_vertex({TopologyKind::kFabric, 0}, graph_);
  std::uint32_t gpu = 0;
  for (const PoolSpec& pool : pools) {
    const NodeTemplate& t = pool.node;
    const int domains_per_node =
        t.nvlink_domain_gpus < t.gpus_per_node ? t.gpus_per_node / t.nvlink_domain_gpus : 1;
    Vertex rack = fabric;
    Vertex domain = fabric;
    for (std::int64_t n = 0; n < pool.nodes; ++n) {
      if (n % t.nodes_per_rack == 0) {
        rack = boost::add_vertex({TopologyKind::kRack, static_cast<std::uint32_t>(rack_count_++)},
                                 graph_);
        boost::add_edge(fabric, rack, graph_);
      }
      const Vertex node = boost::add_vertex(
          {TopologyKind::kNode, static_cast<std::uint32_t>(node_count_++)}, graph_);
      boost::add_edge(rack, node, graph_);
      const bool domain_spans_nodes = t.nodes_per_domain() > 1;
      if (domain_spans_nodes && n % t.nodes_per_domain() == 0) {
        domain = boost::add_vertex(
            {TopologyKind::kDomain, static_cast<std::uint32_t>(domain_count_++)}, graph_);
      }
      for (int g = 0; g < t.gpus_per_node; ++g) {
        if (!domain_spans_nodes && g % (t.gpus_per_node / domains_per_node) == 0) {
          domain = boost::add_vertex(
              {TopologyKind::kDomain, static_cast<std::uint32_t>(domain_count_++)}, graph_);
        }
        const Vertex v = boost::add_vertex({TopologyKind::kGpu, gpu++}, graph_);
        boost::add_edge(node, v, graph_);
        boost::add_edge(domain, v, graph_);
      }
    }
  }
}

void Topology::ReadLookupsFromGraph() {
  std::vector<Vertex> gpu_vertices;
  for (const Vertex v : boost::make_iterator_range(boost::vertices(graph_))) {
    if (graph_[v].kind == TopologyKind::kGpu) {
      gpu_vertices.push_back(v);
    }
  }
  const std::size_t n = gpu_vertices.size();
  domain_of_.assign(n, 0);
  node_of_.assign(n, 0);
  rack_of_.assign(n, 0);
  for (const Vertex v : gpu_vertices) {
    const std::uint32_t id = graph_[v].index;
    for (const Vertex u : boost::make_iterator_range(boost::adjacent_vertices(v, graph_))) {
      if (graph_[u].kind == TopologyKind::kDomain) {
        domain_of_[id] = graph_[u].index;
      } else if (graph_[u].kind == TopologyKind::kNode) {
        node_of_[id] = graph_[u].index;
        for (const Vertex r : boost::make_iterator_range(boost::adjacent_vertices(u, graph_))) {
          if (graph_[r].kind == TopologyKind::kRack) {
            rack_of_[id] = graph_[r].index;
          }
        }
      }
    }
  }
  domain_start_.assign(static_cast<std::size_t>(domain_count_) + 1, 0);
  for (const std::uint32_t d : domain_of_) {
    ++domain_start_[d + 1];
  }
  for (std::size_t d = 1; d < domain_start_.size(); ++d) {
    domain_start_[d] += domain_start_[d - 1];
  }
  domain_gpus_.assign(n, 0);
  std::vector<std::uint32_t> fill(domain_start_.begin(), domain_start_.end() - 1);
  for (GpuId g = 0; g < n; ++g) {
    domain_gpus_[fill[domain_of_[g]]++] = g;
  }
}

std::span<const GpuId> Topology::DomainGpus(std::uint32_t domain) const {
  FLEETSIM_CHECK(domain < static_cast<std::uint64_t>(domain_count_), "no such NVLink domain");
  return std::span<const GpuId>(domain_gpus_)
      .subspan(domain_start_[domain], domain_start_[domain + 1] - domain_start_[domain]);
}

Spread Topology::SpreadOf(std::span<const GpuId> gpus) const {
  std::vector<std::uint32_t> domains;
  std::vector<std::uint32_t> nodes;
  std::vector<std::uint32_t> racks;
  for (const GpuId g : gpus) {
    domains.push_back(domain_of_[g]);
    nodes.push_back(node_of_[g]);
    racks.push_back(rack_of_[g]);
  }
  const auto distinct = [](std::vector<std::uint32_t>& v) {
    std::sort(v.begin(), v.end());
    return static_cast<std::int64_t>(std::unique(v.begin(), v.end()) - v.begin());
  };
  return {distinct(domains), distinct(nodes), distinct(racks)};
}

Locality Topology::LocalityOf(GpuId a, GpuId b) const {
  if (a == b) {
    return Locality::kSameGpu;
  }
  if (domain_of_[a] == domain_of_[b]) {
    return Locality::kNvlink;
  }
  if (node_of_[a] == node_of_[b]) {
    return Locality::kSameNode;
  }
  return rack_of_[a] == rack_of_[b] ? Locality::kSameRack : Locality::kFabric;
}

}  // namespace fleetsim
