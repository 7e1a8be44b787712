// Parsing and validating a scenario's fleet: pools resolved against the catalog, their spot
// blocks, and hardware failures by GPU model resolved into the pools.
#include "scenario/fleet_parser.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "fleetsim/fleet/mig.h"

namespace fleetsim {

namespace {

using nlohmann::json;

const std::vector<std::string> kTierNames = {"on-demand", "reserved", "spot"};

constexpr RealRange kTimeRange{0, kMaxScenarioSeconds};
constexpr RealRange kPositiveTimeRange{0, kMaxScenarioSeconds, true};
// Rates per node-hour, per GPU-hour or per day, and MTBFs in GPU-hours (at least 1e-6, so that
// the rate they give stays within kRateRange).
constexpr RealRange kRateRange{0, 1e6};
constexpr RealRange kPositiveRateRange{0, 1e6, true};
constexpr RealRange kMtbfRange{1e-6, 1e12};

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
                        "region", "mig", "cpu_cores", "memory_gb", "spot", "autoscale"});
    PoolSpec pool;
    const auto name = check_.String(p, path, "name", true);
    const auto template_name = check_.String(p, path, "template", true);
    const auto nodes = check_.Int(p, path, "nodes", {0, kMaxFleetGpus}, true);
    pool.price_per_gpu_hour = check_.Real(p, path, "price_per_gpu_hour", {0, 1e6}, false);
    pool.cloud = check_.String(p, path, "cloud", false).value_or("");
    pool.region = check_.String(p, path, "region", false).value_or("");
    const auto cpu = check_.Real(p, path, "cpu_cores", {0, kMaxNodeCpuCores}, false);
    const auto memory = check_.Real(p, path, "memory_gb", {0, kMaxNodeMemoryGb}, false);
    const bool tier_ok = ParseTier(p, path, pool);
    if (const json* spot = check_.Object(p, path, "spot", false)) {
      ParseSpot(*spot, ChildPath(path, "spot"), tier_ok, pool);
    }
    const NodeTemplate* node = template_name ? FindTemplate(*template_name, path) : nullptr;
    const bool name_ok = name && PoolNameAllowed(*name, p["name"], path);
    if (!name_ok || node == nullptr || !nodes || !tier_ok) {
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
    if (const json* autoscale = check_.Object(p, path, "autoscale", false)) {
      if (!ParseAutoscale(*autoscale, ChildPath(path, "autoscale"), pool)) {
        return std::nullopt;
      }
    }
    return pool;
  }

 private:
  // Pool names appear in outputs: timeseries.csv names the whole fleet "*" (and a pool with no
  // name would print so), and jobs.csv joins a job's pools with '|'.
  bool PoolNameAllowed(const std::string& name, const json& value, const std::string& path) {
    if (!name.empty() && name != "*" && name.find('|') == std::string::npos) {
      return true;
    }
    check_.Error(ChildPath(path, "name"),
                 fmt::format("expected a pool name that is not empty, not '*' and has no '|' "
                             "(timeseries.csv names the whole fleet '*'; jobs.csv joins pools "
                             "with '|'), found {}",
                             Shown(value)));
    return false;
  }

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

  // The "autoscale" block of a pool whose tier, template and nodes are read.
  bool ParseAutoscale(const json& block, const std::string& where, PoolSpec& pool) {
    check_.UnknownKeys(block, where, {"min_nodes", "provisioning_delay_s", "idle_release_s"});
    Autoscaling& scale = pool.autoscale;
    scale.enabled = true;
    const auto min_nodes = check_.Int(block, where, "min_nodes", {0, kMaxFleetGpus}, false);
    scale.min_nodes = min_nodes.value_or(0);
    const auto delay = check_.Real(block, where, "provisioning_delay_s", kTimeRange, false);
    scale.provisioning_delay = delay ? SecondsToTime(*delay) : kDefaultProvisioningDelay;
    const auto idle = check_.Real(block, where, "idle_release_s", kTimeRange, false);
    scale.idle_release = idle ? SecondsToTime(*idle) : kDefaultIdleRelease;
    bool ok = true;
    if (pool.tier != PriceTier::kOnDemand) {
      check_.Error(where, fmt::format("autoscaling needs \"tier\": \"on-demand\" (a reserved "
                                      "pool is billed whether up or not; spot has its own "
                                      "comings and goings), found \"{}\"",
                                      PriceTierName(pool.tier)));
      ok = false;
    }
    if (pool.node.nodes_per_domain() > 1) {
      check_.Error(where, fmt::format("autoscaling adds and releases single nodes; {} is built "
                                      "from {}-node NVLink domains",
                                      pool.node.name, pool.node.nodes_per_domain()));
      ok = false;
    }
    if (pool.mig == MigMode::kStatic) {
      check_.Error(where,
                   "autoscaling counts whole free GPUs, which a static MIG layout never "
                   "has: use \"mig\": \"dynamic\" or \"off\"");
      ok = false;
    }
    if (scale.min_nodes > pool.nodes) {
      check_.Error(ChildPath(where, "min_nodes"),
                   fmt::format("expected at most the pool's {} nodes, found {}", pool.nodes,
                               scale.min_nodes));
      ok = false;
    }
    return ok;
  }

  // The "spot" block of a pool whose tier and cloud are read (`tier_known` false when the tier
  // itself is in error, so that only that is reported).
  void ParseSpot(const json& block, const std::string& where, bool tier_known, PoolSpec& pool) {
    check_.UnknownKeys(block, where,
                       {"interruptions_per_node_hour", "advisor_bucket", "notice_s",
                        "replacement_delay_s", "waves"});
    if (tier_known && pool.tier != PriceTier::kSpot) {
      check_.Error(where, fmt::format("a spot block needs \"tier\": \"spot\", found \"{}\"",
                                      PriceTierName(pool.tier)));
    }
    SpotInterruptions& spot = pool.spot;
    ParseSpotRate(block, where, spot);
    ParseSpotWaves(block, where, spot);
    const auto replacement = check_.Real(block, where, "replacement_delay_s", kTimeRange, false);
    spot.replacement_delay =
        replacement ? SecondsToTime(*replacement) : kDefaultSpotReplacementDelay;
    ParseSpotNotice(block, where, pool.cloud, spot);
  }

  // "interruptions_per_node_hour" or "advisor_bucket", not both; neither is a rate of 0.
  void ParseSpotRate(const json& block, const std::string& where, SpotInterruptions& spot) {
    const bool has_rate = block.contains("interruptions_per_node_hour");
    if (has_rate && block.contains("advisor_bucket")) {
      check_.Error(where, "expected 'interruptions_per_node_hour' or 'advisor_bucket', not both");
      return;
    }
    if (has_rate) {
      spot.per_node_hour =
          check_.Real(block, where, "interruptions_per_node_hour", kRateRange, false).value_or(0);
      return;
    }
    const auto bucket = check_.String(block, where, "advisor_bucket", false);
    if (!bucket) {
      return;
    }
    const std::optional<double> rate = SpotAdvisorBucketRate(*bucket);
    if (!rate) {
      const std::vector<std::string> names = SpotAdvisorBucketNames();
      check_.Error(ChildPath(where, "advisor_bucket"),
                   fmt::format("expected one of {}, found '{}'{}", QuotedList(names), *bucket,
                               DidYouMean(*bucket, names)));
      return;
    }
    spot.advisor_bucket = *bucket;
    spot.per_node_hour = *rate;
  }

  void ParseSpotWaves(const json& block, const std::string& where, SpotInterruptions& spot) {
    const json* waves = check_.Object(block, where, "waves", false);
    if (waves == nullptr) {
      return;
    }
    const std::string at = ChildPath(where, "waves");
    check_.UnknownKeys(*waves, at, {"per_day", "nodes"});
    const auto per_day = check_.Real(*waves, at, "per_day", kPositiveRateRange, true);
    const auto nodes = check_.Int(*waves, at, "nodes", {1, kMaxFleetGpus}, true);
    if (per_day && nodes) {
      spot.waves_per_day = *per_day;
      spot.wave_nodes = *nodes;
    }
  }

  // "notice_s", else the cloud's notice; required when neither is known and reclaims can happen.
  void ParseSpotNotice(const json& block, const std::string& where, const std::string& cloud,
                       SpotInterruptions& spot) {
    if (block.contains("notice_s")) {
      if (const auto notice = check_.Real(block, where, "notice_s", kTimeRange, false)) {
        spot.notice = SecondsToTime(*notice);
      }
      return;
    }
    if (const std::optional<SimDuration> notice = SpotNoticeOfCloud(cloud)) {
      spot.notice = *notice;
    } else if (spot.any()) {
      check_.Error(where,
                   fmt::format("expected notice_s: the notice time is known for clouds aws "
                               "(120 s), gcp (30 s) and azure (30 s), found {}",
                               cloud.empty() ? "no cloud" : fmt::format("cloud '{}'", cloud)));
    }
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
    if (!placed.status.ok()) {
      check_.Error(where, placed.status.message());
      return false;
    }
    pool.mig = MigMode::kStatic;
    return true;
  }

  const Catalog& catalog_;
  JsonChecker& check_;
};

// The failure rate per GPU-hour of a "failures" entry: "per_gpu_hour", or 1 / "mtbf_gpu_hours";
// exactly one of the two.
std::optional<double> ParseFailureRate(const json& entry, const std::string& where,
                                       JsonChecker& check) {
  if (entry.contains("per_gpu_hour") == entry.contains("mtbf_gpu_hours")) {
    check.Error(where, "expected exactly one of 'per_gpu_hour' and 'mtbf_gpu_hours'");
    return std::nullopt;
  }
  if (entry.contains("per_gpu_hour")) {
    return check.Real(entry, where, "per_gpu_hour", kRateRange, false);
  }
  const auto mtbf = check.Real(entry, where, "mtbf_gpu_hours", kMtbfRange, false);
  return mtbf ? std::optional(1 / *mtbf) : std::nullopt;
}

// "repair_s", at least 1 ms once rounded to the millisecond; absent: kDefaultRepairTime.
std::optional<SimDuration> ParseRepairTime(const json& entry, const std::string& where,
                                           JsonChecker& check) {
  if (!entry.contains("repair_s")) {
    return kDefaultRepairTime;
  }
  const auto seconds = check.Real(entry, where, "repair_s", kPositiveTimeRange, false);
  if (seconds && SecondsToTime(*seconds) == 0) {
    check.Error(ChildPath(where, "repair_s"),
                fmt::format("expected a duration of at least 1 ms after rounding to the "
                            "millisecond, found {}",
                            Shown(entry.at("repair_s"))));
    return std::nullopt;
  }
  return seconds ? std::optional(SecondsToTime(*seconds)) : std::nullopt;
}

std::optional<HardwareFailures> ParseFailureEntry(const json& entry, const std::string& where,
                                                  JsonChecker& check) {
  if (!entry.is_object()) {
    check.Error(where, fmt::format("expected an object with 'per_gpu_hour' or 'mtbf_gpu_hours', "
                                   "found {}",
                                   Shown(entry)));
    return std::nullopt;
  }
  check.UnknownKeys(entry, where, {"per_gpu_hour", "mtbf_gpu_hours", "repair_s"});
  const std::optional<double> rate = ParseFailureRate(entry, where, check);
  const std::optional<SimDuration> repair = ParseRepairTime(entry, where, check);
  if (!rate || !repair) {
    return std::nullopt;
  }
  return HardwareFailures{.per_gpu_hour = *rate, .repair = *repair};
}

// The distinct GPU models of the fleet's pools, in pool order.
std::vector<std::string> FleetModels(const FleetSpec& fleet) {
  std::vector<std::string> models;
  for (const PoolSpec& pool : fleet.pools) {
    if (std::find(models.begin(), models.end(), pool.gpu.name) == models.end()) {
      models.push_back(pool.gpu.name);
    }
  }
  return models;
}

// Records an error at `where` unless `model` is one of the fleet's `models`.
void CheckFailureModel(const std::string& model, const std::vector<std::string>& models,
                       const std::string& where, JsonChecker& check) {
  if (models.empty()) {
    check.Error(where, fmt::format("no pool of the fleet has GPU model '{}': a fleet of bare GPUs "
                                   "({{\"gpus\": N}}) has no GPU models",
                                   model));
  } else if (std::find(models.begin(), models.end(), model) == models.end()) {
    check.Error(where, fmt::format("no pool of the fleet has GPU model '{}'{} (the pools' models: "
                                   "{})",
                                   model, DidYouMean(model, models), QuotedList(models)));
  }
}

}  // namespace

void ParseFailuresSection(const json& failures, bool check_models, FleetSpec& fleet,
                          JsonChecker& check) {
  const std::vector<std::string> models = FleetModels(fleet);
  for (const auto& item : failures.items()) {
    const std::string where = ChildPath("/failures", item.key());
    const std::optional<HardwareFailures> entry = ParseFailureEntry(item.value(), where, check);
    if (check_models) {
      CheckFailureModel(item.key(), models, where, check);
    }
    for (PoolSpec& pool : fleet.pools) {
      if (entry && pool.gpu.name == item.key()) {
        pool.failures = *entry;
      }
    }
  }
}

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
  std::size_t empty_pools = 0;
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
    if (pool->nodes == 0) {
      ++empty_pools;
      continue;  // checked, then left out: a sweep or a plan may take a pool to no nodes
    }
    spec.gpus += pool->gpus();
    spec.pools.push_back(std::move(*pool));
  }
  if (empty_pools == pools->size()) {
    check.Error(ChildPath(path, "pools"),
                "expected at least one pool with nodes, found every "
                "pool at 0 nodes");
  }
  if (spec.gpus > kMaxFleetGpus) {
    check.Error(
        ChildPath(path, "pools"),
        fmt::format("the pools hold {} GPUs; at most {} are supported", spec.gpus, kMaxFleetGpus));
  }
  return spec;
}

}  // namespace fleetsim
