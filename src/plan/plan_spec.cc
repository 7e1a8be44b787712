// Reading and checking plan spec files (docs/planning.md#the-plan-spec).
#include "fleetsim/plan/plan_spec.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "fleetsim/sweep/sweep_metrics.h"
#include "json/json_checker.h"
#include "json/json_text.h"

namespace fleetsim {

namespace {

using json = nlohmann::json;

const std::vector<std::string> kTopKeys = {
    "format_version", "kind",    "name",      "description", "base",   "axes", "zip",
    "exclude",        "targets", "objective", "runners_up",  "horizon"};
const std::vector<std::string> kHorizonKeys = {
    "months", "replan_every_months", "yearly_price_change", "reserved_price_per_gpu_hour"};
const std::vector<std::string> kTargetKeys = {"metric", "at_most", "at_least",
                                              "seeds",  "tenant",  "kind"};
const std::vector<std::string> kObjectives = {"cost_per_day", "gpus", "power_per_day",
                                              "output_per_dollar"};

class PlanParser {
 public:
  PlanParser(const FileSystem& files, const PolicyRegistry& registry, std::string source,
             Diagnostics& diagnostics)
      : files_(files),
        registry_(registry),
        source_(std::move(source)),
        diagnostics_(diagnostics),
        check_(diagnostics) {}

  PlanSpec Parse(const json& root) {
    PlanSpec plan;
    if (!root.is_object()) {
      check_.Error("", fmt::format("expected a plan spec object, found {}", Shown(root)));
      return plan;
    }
    check_.UnknownKeys(root, "", kTopKeys);
    if (const auto version = check_.Int(root, "", "format_version", {1, 1000}, true);
        version && *version != kPlanFormatVersion) {
      check_.Error("/format_version",
                   fmt::format("expected {}, found {}", kPlanFormatVersion, *version));
    }
    if (const auto kind = check_.String(root, "", "kind", true); kind && *kind != "plan") {
      check_.Error("/kind", fmt::format("expected \"plan\", found \"{}\"", *kind));
    }
    plan.runs = ParseSweepRuns(files_, root, source_, registry_, diagnostics_);
    CheckRunsFitAPlan(root, plan.runs);
    seeds_ = SeedCount(plan.runs);
    Targets(root, plan);
    Objective(root, plan);
    plan.runners_up =
        static_cast<std::size_t>(check_.Int(root, "", "runners_up", {0, 100}, false).value_or(2));
    plan.horizon = Horizon(root);
    return plan;
  }

 private:
  void Targets(const json& root, PlanSpec& plan) {
    const json* targets = check_.Array(root, "", "targets", true);
    if (targets == nullptr) {
      return;
    }
    if (targets->empty()) {
      check_.Error("/targets", "expected at least one target, found none");
    }
    for (std::size_t i = 0; i < targets->size(); ++i) {
      if (std::optional<PlanTarget> target = Target((*targets)[i], ChildPath("/targets", i))) {
        plan.targets.push_back(*target);
      }
    }
  }

  std::optional<PlanTarget> Target(const json& object, const std::string& where) {
    if (!object.is_object()) {
      check_.Error(where, fmt::format("expected a target object, found {}", Shown(object)));
      return std::nullopt;
    }
    check_.UnknownKeys(object, where, kTargetKeys);
    PlanTarget target;
    const auto metric = check_.String(object, where, "metric", true);
    bool ok = metric.has_value();
    if (metric && std::find(PlanMetricNames().begin(), PlanMetricNames().end(), *metric) ==
                      PlanMetricNames().end()) {
      check_.Error(where + "/metric",
                   fmt::format("expected a metric (docs/sweeps.md#metrics), found '{}'{}", *metric,
                               DidYouMean(*metric, PlanMetricNames())));
      ok = false;
    }
    target.metric = metric.value_or("");
    const bool most = object.contains("at_most");
    const bool least = object.contains("at_least");
    if (most == least) {
      check_.Error(where, "expected exactly one of \"at_most\" and \"at_least\"");
      ok = false;
    } else {
      const auto bound =
          check_.Real(object, where, most ? "at_most" : "at_least", {-1e300, 1e300}, true);
      ok = ok && bound.has_value();
      target.at_most = most;
      target.bound = bound.value_or(0);
    }
    ok = GroupOf(object, where, target) && ok;
    return SeedRuleOf(object, where, target) && ok ? std::optional(target) : std::nullopt;
  }

  // "tenant" and/or "kind": the target's metric over those jobs only; a wait metric.
  bool GroupOf(const json& object, const std::string& where, PlanTarget& target) {
    if (!object.contains("tenant") && !object.contains("kind")) {
      return true;
    }
    JobGroup group;
    bool ok = true;
    if (object.contains("tenant")) {
      const auto tenant = check_.String(object, where, "tenant", true);
      if (tenant && tenant->empty()) {
        check_.Error(where + "/tenant", "expected a tenant's name, found \"\"");
      }
      ok = tenant && !tenant->empty();
      group.tenant = tenant.value_or("");
    }
    if (object.contains("kind")) {
      const auto kind = check_.String(object, where, "kind", true);
      group.kind = kind ? ParseJobKind(*kind) : std::nullopt;
      if (kind && !group.kind) {
        check_.Error(where + "/kind", fmt::format("expected a job kind ({}), found '{}'{}",
                                                  fmt::join(JobKindNames(), ", "), *kind,
                                                  DidYouMean(*kind, JobKindNames())));
      }
      ok = ok && group.kind.has_value();
    }
    const std::vector<std::string>& waits = GroupMetricNames();
    if (!target.metric.empty() &&
        std::find(waits.begin(), waits.end(), target.metric) == waits.end()) {
      check_.Error(where + "/metric",
                   fmt::format("expected a wait metric ({}) for a target on a tenant or kind, "
                               "found '{}'",
                               fmt::join(waits, ", "), target.metric));
      ok = false;
    }
    target.group = group;
    return ok;
  }

  // "seeds": "mean" (default), "worst", or {"at_least": K}.
  bool SeedRuleOf(const json& object, const std::string& where, PlanTarget& target) {
    if (!object.contains("seeds")) {
      return true;
    }
    const json& seeds = object["seeds"];
    const std::string at = where + "/seeds";
    if (seeds == "mean" || seeds == "worst") {
      target.rule = seeds == "mean" ? SeedRule::kMean : SeedRule::kWorst;
      return true;
    }
    if (seeds.is_object()) {
      check_.UnknownKeys(seeds, at, {"at_least"});
      const auto k = check_.Int(seeds, at, "at_least", {1, 100'000}, true);
      if (k && static_cast<std::size_t>(*k) > seeds_) {
        check_.Error(at + "/at_least",
                     fmt::format("expected at most the {} seed{} each fleet is run on, found {}",
                                 seeds_, seeds_ == 1 ? "" : "s", *k));
        return false;
      }
      target.rule = SeedRule::kAtLeast;
      target.at_least = static_cast<std::size_t>(k.value_or(0));
      return k.has_value();
    }
    check_.Error(at, fmt::format("expected \"mean\", \"worst\" or {{\"at_least\": K}}, found {}",
                                 Shown(seeds)));
    return false;
  }

  std::optional<HorizonSpec> Horizon(const json& root) {
    const json* object = check_.Object(root, "", "horizon", false);
    if (object == nullptr) {
      return std::nullopt;
    }
    check_.UnknownKeys(*object, "/horizon", kHorizonKeys);
    HorizonSpec horizon;
    const auto months = check_.Int(*object, "/horizon", "months", {1, 600}, true);
    horizon.months = months.value_or(1);
    const auto every = check_.Int(*object, "/horizon", "replan_every_months", {1, 600}, false);
    horizon.replan_every_months = every.value_or(std::min<std::int64_t>(12, horizon.months));
    if (months && every && *every > *months) {
      check_.Error(
          "/horizon/replan_every_months",
          fmt::format("expected at most the horizon's {} months, found {}", *months, *every));
    }
    horizon.yearly_price_change = ByModel(*object, "yearly_price_change", {-1, 10, true});
    horizon.reserved_price_per_gpu_hour =
        ByModel(*object, "reserved_price_per_gpu_hour", {0, 1e6, true});
    return horizon;
  }

  // An object of numbers keyed by GPU model, each in `range`.
  std::map<std::string, double> ByModel(const json& horizon, const std::string& key,
                                        RealRange range) {
    std::map<std::string, double> values;
    const json* object = check_.Object(horizon, "/horizon", key, false);
    if (object == nullptr) {
      return values;
    }
    const std::string where = ChildPath("/horizon", key);
    for (const auto& [model, value] : object->items()) {
      if (const auto v = check_.RealValue(value, ChildPath(where, model), range)) {
        values[model] = *v;
      }
    }
    return values;
  }

  void Objective(const json& root, PlanSpec& plan) {
    const auto name = check_.String(root, "", "objective", false);
    if (!name) {
      return;
    }
    const auto it = std::find(kObjectives.begin(), kObjectives.end(), *name);
    if (it == kObjectives.end()) {
      check_.Error("/objective",
                   fmt::format("expected one of {}, found '{}'{}", QuotedList(kObjectives), *name,
                               DidYouMean(*name, kObjectives)));
      return;
    }
    plan.objective = static_cast<PlanObjective>(it - kObjectives.begin());
  }

  // A plan judges each fleet on every seed of one workload: one base scenario, and a seed axis
  // that moves alone and is never excluded.
  void CheckRunsFitAPlan(const json& root, const SweepSpec& runs) {
    if (root.contains("base") && root["base"].is_array() && root["base"].size() > 1) {
      check_.Error("/base",
                   "expected one base scenario (a plan sizes one workload's fleet), "
                   "found a list of several");
    }
    const auto seed = std::find_if(runs.axes.begin(), runs.axes.end(), [](const SweepAxis& a) {
      return a.target == AxisTarget::kSeed;
    });
    if (seed == runs.axes.end()) {
      return;
    }
    const auto index = static_cast<std::size_t>(seed - runs.axes.begin());
    for (const std::vector<std::size_t>& group : runs.zip) {
      if (std::find(group.begin(), group.end(), index) != group.end()) {
        check_.Error("/zip",
                     "the seed axis cannot be zipped in a plan: every fleet is run on "
                     "every seed");
      }
    }
    for (const ExcludeRule& rule : runs.exclude) {
      for (const auto& [axis, labels] : rule.axes) {
        if (axis == index) {
          check_.Error("/exclude",
                       "a plan's exclude rules cannot name the seed axis: every "
                       "fleet is run on every seed");
        }
      }
    }
  }

  // The seeds each candidate is run on: the seed axis's values, else the scenario's one seed.
  static std::size_t SeedCount(const SweepSpec& runs) {
    for (const SweepAxis& axis : runs.axes) {
      if (axis.target == AxisTarget::kSeed) {
        return axis.values.size();
      }
    }
    return 1;
  }

  const FileSystem& files_;  // where the base scenarios must be
  const PolicyRegistry& registry_;
  std::string source_;
  Diagnostics& diagnostics_;
  JsonChecker check_;
  std::size_t seeds_ = 1;
};

}  // namespace

PlanLoad LoadPlanSpec(const FileSystem& files, const std::string& path,
                      const PolicyRegistry& registry, bool strict) {
  return LoadSpecFile<PlanLoad>(files, path, strict,
                                [&](const json& root, Diagnostics& diagnostics) {
                                  return PlanParser(files, registry, path, diagnostics).Parse(root);
                                });
}

std::string TargetMetricName(const PlanTarget& target) {
  return target.group ? GroupMetricName(target.metric, *target.group) : target.metric;
}

const std::vector<std::string>& PlanMetricNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all = SweepMetricNames();
    all.emplace_back("realtime_unmet_share");
    return all;
  }();
  return names;
}

std::string PlanObjectiveName(PlanObjective objective) {
  return kObjectives[static_cast<std::size_t>(objective)];
}

std::string PlanObjectiveUnit(PlanObjective objective) {
  switch (objective) {
    case PlanObjective::kCostPerDay:
      return "USD/day";
    case PlanObjective::kGpus:
      return "GPUs";
    case PlanObjective::kPowerPerDay:
      return "kWh/day";
    case PlanObjective::kOutputPerDollar:
      return "output/USD";
  }
  return "";
}

bool IsMeasuredObjective(PlanObjective objective) {
  return objective == PlanObjective::kOutputPerDollar;
}

PlanObjective OrderObjective(PlanObjective objective) {
  return IsMeasuredObjective(objective) ? PlanObjective::kCostPerDay : objective;
}

}  // namespace fleetsim
