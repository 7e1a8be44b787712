// Host names of a fleet's nodes and Slurm host lists of them.
#include "fleetsim/report/fleet_hosts.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

namespace fleetsim {

namespace {

// "H100 SXM" -> "h100-sxm-"; "" (a bare fleet) -> "gpu-".
std::string HostPrefix(const std::string& pool_name) {
  std::string prefix;
  for (const char c : pool_name) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    const bool upper = c >= 'A' && c <= 'Z';
    prefix += keep ? c : upper ? static_cast<char>(c - 'A' + 'a') : '-';
  }
  return (prefix.empty() ? "gpu" : prefix) + "-";
}

int DigitsFor(std::int64_t count) {
  int width = 3;
  for (std::int64_t limit = 1000; count >= limit; limit *= 10) {
    ++width;
  }
  return width;
}

// Appends `count` hosts of `prefix`, and each of their GPUs.
void AddPool(FleetHosts& out, const std::string& prefix, std::int64_t nodes,
             std::int64_t gpus_per_node, std::size_t pool, const GpuModel* model) {
  const int width = DigitsFor(nodes);
  for (std::int64_t node = 1; node <= nodes; ++node) {
    out.hosts.push_back({.prefix = prefix, .number = node, .width = width});
    for (std::int64_t gpu = 0; gpu < gpus_per_node; ++gpu) {
      out.gpus.push_back(
          {.host = out.hosts.size() - 1, .index = gpu, .pool = pool, .model = model});
    }
  }
}

// "001-003" or "005".
std::string RangeText(std::int64_t first, std::int64_t last, int width) {
  return first == last ? fmt::format("{:0{}}", first, width)
                       : fmt::format("{:0{}}-{:0{}}", first, width, last, width);
}

}  // namespace

std::string HostName::Text() const { return fmt::format("{}{:0{}}", prefix, number, width); }

FleetHosts HostsOf(const FleetSpec& fleet) {
  FleetHosts out;
  if (fleet.pools.empty()) {
    AddPool(out, HostPrefix(""), 1, fleet.gpus, 0, nullptr);
    return out;
  }
  std::set<std::string> prefixes;
  for (std::size_t p = 0; p < fleet.pools.size(); ++p) {
    const PoolSpec& pool = fleet.pools[p];
    const std::string base = HostPrefix(pool.name);
    std::string prefix = base;
    for (std::size_t k = p; !prefixes.insert(prefix).second; ++k) {
      prefix = fmt::format("{}p{}-", base, k);  // a name taken: the pool's index, then on
    }
    AddPool(out, prefix, pool.nodes, pool.node.gpus_per_node, p, &pool.gpu);
  }
  return out;
}

std::string HostListOf(const FleetHosts& hosts, const std::vector<GpuId>& gpus) {
  std::vector<std::size_t> held;
  for (const GpuId gpu : gpus) {
    held.push_back(hosts.gpus[gpu].host);
  }
  std::sort(held.begin(), held.end());
  held.erase(std::unique(held.begin(), held.end()), held.end());
  if (held.empty()) {
    return "None assigned";
  }
  std::string list;
  for (std::size_t i = 0; i < held.size();) {
    const HostName& first = hosts.hosts[held[i]];
    std::vector<std::string> ranges;
    std::size_t count = 0;
    while (i < held.size() && hosts.hosts[held[i]].prefix == first.prefix) {
      std::size_t j = i;
      while (j + 1 < held.size() && held[j + 1] == held[j] + 1 &&
             hosts.hosts[held[j + 1]].prefix == first.prefix) {
        ++j;
      }
      ranges.push_back(
          RangeText(hosts.hosts[held[i]].number, hosts.hosts[held[j]].number, first.width));
      count += j - i + 1;
      i = j + 1;
    }
    const std::string joined = fmt::format("{}", fmt::join(ranges, ","));
    list += fmt::format("{}{}{}", list.empty() ? "" : ",", first.prefix,
                        count == 1 ? joined : "[" + joined + "]");
  }
  return list;
}

}  // namespace fleetsim
