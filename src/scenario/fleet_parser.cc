// Parsing and validating a scenario's fleet: pools resolved against the catalog.
#include "scenario/fleet_parser.h"

#include <fmt/format.h>

#include <set>

#include "fleetsim/fleet/mig.h"

namespace fleetsim {

namespace {

using nlohmann::json;

const std::vector<std::string> kTierNames = {"on-demand", "reserved", "spot"};

std::optional<PriceTier> TierFromName(const std::string& name) {
  if (name == "on-demand") {
    return PriceTier::kOnDemand;
  }
  if (name == "reserved") {
    return PriceTier::kReserved;
  }
  if (name == "spot") {
    return PriceTier::kSpot;
  }
  return std::nullopt;
}

class PoolParser {
 public:
  PoolParser(const Catalog& catalog, JsonChecker& check) : catalog_(catalog), check_(check) {}

  std::optional<PoolSpec> Parse(const json& p, const std::string& path) {
    check_.UnknownKeys(p, path,
                       {"name", "template", "nodes", "tier", "price_per_gpu_hour", "cloud",
                        "region", "mig", "cpu_cores", "memory_gb"});
    PoolSpec pool;
    const auto name = check_.String(p, path, "name", true);
    const auto template_name = check_.String(p, path, "template", true);
    const auto nodes = check_.Int(p, path, "nodes", {1, kMaxFleetGpus}, true);
    pool.price_per_gpu_hour = check_.Real(p, path, "price_per_gpu_hour", {0, 1e6}, false);
    pool.cloud = check_.String(p, path, "cloud", false).value_or("");
    pool.region = check_.String(p, path, "region", false).value_or("");
    const auto cpu = check_.Real(p, path, "cpu_cores", {0, 1e6}, false);
    const auto memory = check_.Real(p, path, "memory_gb", {0, 1e9}, false);
    const bool tier_ok = ParseTier(p, path, pool);
    const NodeTemplate* node = template_name ? FindTemplate(*template_name, path) : nullptr;
    if (!name || node == nullptr || !nodes || !tier_ok) {
      return std::nullopt;
    }
    pool.name = *name;
    pool.node = *node;
    pool.gpu = *catalog_.FindGpu(node->gpu);
    pool.nodes = *nodes;
    pool.cpu_cores = cpu ? cpu : node->cpu_cores;
    pool.memory_gb = memory ? memory : node->memory_gb;
    if (pool.nodes % node->nodes_per_domain() != 0) {
      check_.Error(ChildPath(path, "nodes"),
                   fmt::format("{} is built from whole {}-GPU NVLink domains of {} nodes; {} nodes "
                               "is not a multiple of {}",
                               node->name, node->nvlink_domain_gpus, node->nodes_per_domain(),
                               pool.nodes, node->nodes_per_domain()));
      return std::nullopt;
    }
    if (!ParseMig(p, path, pool)) {
      return std::nullopt;
    }
    return pool;
  }

 private:
  const NodeTemplate* FindTemplate(const std::string& name, const std::string& path) {
    const NodeTemplate* node = catalog_.FindTemplate(name);
    if (node == nullptr) {
      check_.Error(ChildPath(path, "template"),
                   fmt::format("unknown node template '{}'{} (see `fleetsim list node-templates`)",
                               name, DidYouMean(name, catalog_.TemplateNames())));
    }
    return node;
  }

  bool ParseTier(const json& p, const std::string& path, PoolSpec& pool) {
    const auto tier = check_.String(p, path, "tier", false);
    if (!tier) {
      return !p.contains("tier");
    }
    const auto parsed = TierFromName(*tier);
    if (!parsed) {
      check_.Error(ChildPath(path, "tier"),
                   fmt::format("expected one of {}, found '{}'{}", QuotedList(kTierNames), *tier,
                               DidYouMean(*tier, kTierNames)));
      return false;
    }
    pool.tier = *parsed;
    return true;
  }

  bool ParseMig(const json& p, const std::string& path, PoolSpec& pool) {
    const auto it = p.find("mig");
    if (it == p.end() || (it->is_string() && it->get<std::string>() == "off")) {
      return true;
    }
    const std::string where = ChildPath(path, "mig");
    const bool dynamic = it->is_string() && it->get<std::string>() == "dynamic";
    const bool is_static = it->is_object() && it->size() == 1 && it->contains("static");
    if (!dynamic && !is_static) {
      check_.Error(where, fmt::format("expected \"off\", \"dynamic\" or {{\"static\": {{PROFILE: "
                                      "COUNT, ...}}}}, found {}",
                                      Shown(*it)));
      return false;
    }
    if (!pool.gpu.supports_mig()) {
      check_.Error(where, fmt::format("GPU model {} (template {}) does not support MIG",
                                      pool.gpu.name, pool.node.name));
      return false;
    }
    if (dynamic) {
      pool.mig = MigMode::kDynamic;
      return true;
    }
    return ParseStaticLayout((*it)["static"], ChildPath(where, "static"), pool);
  }

  bool ParseStaticLayout(const json& layout, const std::string& where, PoolSpec& pool) {
    if (!layout.is_object() || layout.empty()) {
      check_.Error(where, fmt::format("expected an object of profile counts such as "
                                      "{{\"3g.40gb\": 2}}, found {}",
                                      Shown(layout)));
      return false;
    }
    for (const auto& item : layout.items()) {
      const auto count =
          check_.IntValue(item.value(), ChildPath(where, item.key()), {1, kMigMaxInstances});
      if (!count) {
        return false;
      }
      pool.mig_layout[item.key()] = static_cast<int>(*count);
    }
    const LayoutCheck placed = PlaceLayout(pool.gpu, pool.mig_layout);
    if (!placed.error.empty()) {
      check_.Error(where, placed.error);
      return false;
    }
    pool.mig = MigMode::kStatic;
    return true;
  }

  const Catalog& catalog_;
  JsonChecker& check_;
};

}  // namespace

FleetSpec ParseFleetSection(const json& fleet, const Catalog& catalog, JsonChecker& check) {
  const std::string path = "/fleet";
  check.UnknownKeys(fleet, path, {"gpus", "pools", "catalog"});
  FleetSpec spec;
  const bool has_gpus = fleet.contains("gpus");
  const bool has_pools = fleet.contains("pools");
  if (has_gpus == has_pools) {
    check.Error(path, "expected exactly one of 'gpus' (identical whole GPUs) or 'pools'");
    return spec;
  }
  if (has_gpus) {
    spec.gpus = check.Int(fleet, path, "gpus", {1, kMaxFleetGpus}, true).value_or(0);
    return spec;
  }
  const json* pools = check.Array(fleet, path, "pools", true);
  if (pools == nullptr) {
    return spec;
  }
  if (pools->empty()) {
    check.Error(ChildPath(path, "pools"), "expected at least one pool");
    return spec;
  }
  PoolParser parser(catalog, check);
  std::set<std::string> names;
  for (std::size_t i = 0; i < pools->size(); ++i) {
    const std::string pool_path = ChildPath(ChildPath(path, "pools"), i);
    if (!(*pools)[i].is_object()) {
      check.Error(pool_path, fmt::format("expected a pool object, found {}", Shown((*pools)[i])));
      continue;
    }
    std::optional<PoolSpec> pool = parser.Parse((*pools)[i], pool_path);
    if (!pool) {
      continue;
    }
    if (!names.insert(pool->name).second) {
      check.Error(ChildPath(pool_path, "name"),
                  fmt::format("duplicate pool name '{}'", pool->name));
      continue;
    }
    spec.gpus += pool->gpus();
    spec.pools.push_back(std::move(*pool));
  }
  if (spec.gpus > kMaxFleetGpus) {
    check.Error(
        ChildPath(path, "pools"),
        fmt::format("the pools hold {} GPUs; at most {} are supported", spec.gpus, kMaxFleetGpus));
  }
  return spec;
}

}  // namespace fleetsim
