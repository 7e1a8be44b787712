// The fleet summary table.
#include "fleetsim/report/fleet_summary.h"

#include <fmt/format.h>

#include <map>

namespace fleetsim {

namespace {

std::string MigText(const PoolSpec& pool) {
  switch (pool.mig) {
    case MigMode::kOff:
      return "off";
    case MigMode::kDynamic:
      return "dynamic";
    case MigMode::kStatic: {
      std::string text;
      for (const auto& [profile, count] : pool.mig_layout) {
        text += fmt::format("{}{}x{}", text.empty() ? "" : "+", count, profile);
      }
      return text;
    }
  }
  return "?";
}

std::string Money(std::optional<double> v) { return v ? fmt::format("{:.2f}", *v) : "?"; }

}  // namespace

std::string FleetSummary(const FleetSpec& fleet, const Topology& topology) {
  if (fleet.pools.empty()) {
    return fmt::format(
        "{} identical whole GPUs (no catalog model, no price); one NVLink domain, "
        "one node.\n",
        fleet.gpus);
  }
  std::string out =
      fmt::format("{:<14} {:<15} {:<10} {:>6} {:>6} {:>10} {:<10} {:>8} {:>10}  {}\n", "pool",
                  "template", "gpu", "nodes", "GPUs", "domains", "tier", "$/GPU-h", "$/h", "MIG");
  std::map<std::string, std::int64_t> gpus_by_model;
  std::map<int, std::int64_t> domains_by_size;
  std::map<std::string, double> cost_by_tier;
  std::vector<std::string> unpriced;
  for (const PoolSpec& pool : fleet.pools) {
    const std::int64_t domains = pool.gpus() / pool.node.nvlink_domain_gpus;
    const std::optional<double> price = pool.EffectivePrice();
    const std::optional<double> hourly =
        price ? std::optional(*price * static_cast<double>(pool.gpus())) : std::nullopt;
    out += fmt::format("{:<14} {:<15} {:<10} {:>6} {:>6} {:>10} {:<10} {:>8} {:>10}  {}\n",
                       pool.name, pool.node.name, pool.gpu.name, pool.nodes, pool.gpus(),
                       fmt::format("{}x{}", domains, pool.node.nvlink_domain_gpus),
                       PriceTierName(pool.tier), Money(price), Money(hourly), MigText(pool));
    gpus_by_model[pool.gpu.name] += pool.gpus();
    domains_by_size[pool.node.nvlink_domain_gpus] += domains;
    if (hourly) {
      cost_by_tier[PriceTierName(pool.tier)] += *hourly;
    } else {
      unpriced.push_back(pool.name);
    }
  }
  out += fmt::format("\nGPUs: {} in {} node{}, {} rack{}\n", fleet.gpus, topology.nodes(),
                     topology.nodes() == 1 ? "" : "s", topology.racks(),
                     topology.racks() == 1 ? "" : "s");
  for (const auto& [model, count] : gpus_by_model) {
    out += fmt::format("  {:<10} {:>7} GPUs\n", model, count);
  }
  out += fmt::format("NVLink domains: {}\n", topology.domains());
  for (const auto& [size, count] : domains_by_size) {
    out += fmt::format("  {:>7} of {} GPUs\n", count, size);
  }
  double total = 0;
  out += "Hourly cost by tier (USD):\n";
  for (const auto& [tier, cost] : cost_by_tier) {
    out += fmt::format("  {:<10} {:>12.2f}\n", tier, cost);
    total += cost;
  }
  out += fmt::format("  {:<10} {:>12.2f}\n", "total", total);
  for (const std::string& pool : unpriced) {
    out += fmt::format(
        "  (pool {} has no price: the catalog has none for its tier; set "
        "price_per_gpu_hour)\n",
        pool);
  }
  return out;
}

}  // namespace fleetsim
