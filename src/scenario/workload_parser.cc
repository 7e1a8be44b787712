// Parsing and validating a scenario's generator blocks and transforms.
#include "scenario/workload_parser.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <utility>

namespace fleetsim {

namespace {

using nlohmann::json;

constexpr IntRange kGpusRange{1, kMaxJobGpus};
constexpr IntRange kGpuBoundRange{0, kMaxJobGpus};
constexpr IntRange kPriorityRange{1, kMaxPriority};
constexpr IntRange kJobCountRange{1, 10'000'000};
constexpr IntRange kSampleRange{1, 1'000'000'000};
constexpr IntRange kHourRange{0, static_cast<std::int64_t>(kHoursPerDay) - 1};
constexpr RealRange kTimeRange{0, kMaxScenarioSeconds};
constexpr RealRange kPositiveSecondsRange{0, kMaxScenarioSeconds, true};
constexpr RealRange kWeightRange{0, 1e12};
constexpr RealRange kFractionRange{0, 1};
constexpr RealRange kNoiseRange{0, 10};
constexpr RealRange kWalltimeFactorRange{0, 1000, true};
constexpr RealRange kRateFactorRange{0, 1e6, true};

const std::vector<std::string> kGeneratorKeys = {
    "jobs",   "mean_interarrival_s", "arrival_profile", "duration_s", "gpus", "priority", "kind",
    "tenant", "walltime_factor",     "demand",          "id_prefix"};
const std::vector<std::string> kTransformKeys = {"window",    "scale_arrivals", "sample",
                                                 "shuffle",   "assign",         "fit_to_nodes",
                                                 "replicate", "walltime_model"};
constexpr IntRange kCopiesRange{1, 1000};
constexpr RealRange kSigmaRange{0, 10};
const std::vector<std::string> kEstimateChoices = {"exact", "factor", "lognormal"};
const std::vector<std::string> kRoundUpChoices = {"none", "common-limits"};
const std::vector<std::string> kApplyToChoices = {"missing", "all"};
const std::vector<std::string> kFieldKeys = {"tenant", "priority_class", "priority", "kind"};
// What a rule's "set" may hold beyond the mix's fields: the job's life cycle.
const std::vector<std::string> kSetKeys = {"tenant",
                                           "priority_class",
                                           "priority",
                                           "kind",
                                           "checkpoint_interval_s",
                                           "checkpoint_cost_s",
                                           "checkpoint_sharded",
                                           "restart_cost_s",
                                           "preemptible",
                                           "spot_eligible"};
const std::vector<std::string> kSmallJobChoices = {"pow2", "keep"};
const std::vector<std::string> kAboveMaxChoices = {"drop", "clamp"};

// A generator's id prefix: letters, digits, '.', '_' or '-' (ids need no length limit or
// leading-dot rule).
bool IsValidIdPrefix(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-';
  });
}

// True unless `key` is in `object` and its value was refused (and reported).
template <typename T>
bool Valid(const json& object, const std::string& key, const std::optional<T>& value) {
  return !object.contains(key) || value.has_value();
}

std::string FirstId(const GeneratorSpec& spec) { return fmt::format("{}{:06}", spec.id_prefix, 1); }

// An id both blocks generate, if any. Two blocks can share ids only if one prefix starts the
// other; the longer prefix's ids then grow with their number, so its first id is the one to try.
std::optional<std::string> SharedId(const GeneratorSpec& a, const GeneratorSpec& b) {
  if (IsGeneratedId(FirstId(b), a)) {
    return FirstId(b);
  }
  if (IsGeneratedId(FirstId(a), b)) {
    return FirstId(a);
  }
  return std::nullopt;
}

// A generator block with the JSON pointer it was read from.
struct LocatedBlock {
  std::string path;
  const GeneratorSpec* spec;
};

std::vector<LocatedBlock> Locate(const std::optional<GeneratorSpec>& generator,
                                 const std::vector<GeneratorSpec>& generators) {
  std::vector<LocatedBlock> blocks;
  if (generator) {
    blocks.push_back({"/generator", &*generator});
  }
  for (std::size_t i = 0; i < generators.size(); ++i) {
    blocks.push_back({ChildPath("/generators", i), &generators[i]});
  }
  return blocks;
}

class WorkloadParser {
 public:
  explicit WorkloadParser(JsonChecker& check) : check_(check) {}

  std::optional<GeneratorSpec> Generator(const json& gen, const std::string& path) {
    check_.UnknownKeys(gen, path, kGeneratorKeys);
    GeneratorSpec spec;
    const auto jobs = check_.Int(gen, path, "jobs", kJobCountRange, true);
    const auto gap = check_.Real(gen, path, "mean_interarrival_s", kPositiveSecondsRange, true);
    const auto gpus = WeightedMember<std::int64_t>(gen, path, "gpus", true, IntReader(kGpusRange));
    const auto priority =
        WeightedMember<std::int64_t>(gen, path, "priority", false, IntReader(kPriorityRange));
    const auto prefix = check_.String(gen, path, "id_prefix", false);
    const bool durations_ok = Durations(gen, path, spec);
    bool ok = jobs && gap && gpus && Valid(gen, "priority", priority) &&
              Valid(gen, "id_prefix", prefix) && durations_ok;
    if (prefix && !IsValidIdPrefix(*prefix)) {
      check_.Error(
          ChildPath(path, "id_prefix"),
          fmt::format("expected letters, digits, '.', '_' or '-', found {}", Shown(json(*prefix))));
      ok = false;
    }
    ok = ParseRichFields(gen, path, spec) && ok;
    if (!ok) {
      return std::nullopt;
    }
    spec.jobs = *jobs;
    spec.mean_interarrival_s = *gap;
    spec.gpus = *gpus;
    spec.priority = priority.value_or(WeightedValues{{1}, {1.0}});
    spec.id_prefix = prefix.value_or("g");
    return spec;
  }

  std::optional<TransformSpec> Transform(const json& item, const std::string& path) {
    if (!item.is_object()) {
      check_.Error(path, fmt::format("expected a transform object such as {{\"window\": {{...}}}}, "
                                     "found {}",
                                     Shown(item)));
      return std::nullopt;
    }
    check_.UnknownKeys(item, path, kTransformKeys);
    std::vector<std::string> present;
    for (const std::string& key : kTransformKeys) {
      if (item.contains(key)) {
        present.push_back(key);
      }
    }
    if (present.size() != 1) {
      check_.Error(path,
                   fmt::format("expected exactly one of {}, found {}", QuotedList(kTransformKeys),
                               present.empty() ? "none" : QuotedList(present)));
      return std::nullopt;
    }
    const std::string& name = present.front();
    const json* body = check_.Object(item, path, name, true);
    return body == nullptr ? std::nullopt : TransformBody(name, *body, ChildPath(path, name));
  }

 private:
  template <typename T>
  using Reader = std::function<std::optional<T>(const json&, const std::string&)>;

  Reader<std::int64_t> IntReader(IntRange range) {
    return [this, range](const json& v, const std::string& where) {
      return check_.IntValue(v, where, range);
    };
  }

  Reader<double> RealReader(RealRange range) {
    return [this, range](const json& v, const std::string& where) {
      return check_.RealValue(v, where, range);
    };
  }

  Reader<std::string> NameReader(bool non_empty) {
    return [this, non_empty](const json& v, const std::string& where) {
      return StringValue(v, where, non_empty);
    };
  }

  Reader<JobKind> KindReader() {
    return [this](const json& v, const std::string& where) { return KindValue(v, where); };
  }

  std::optional<std::string> StringValue(const json& v, const std::string& where, bool non_empty) {
    if (!v.is_string() || (non_empty && v.get<std::string>().empty())) {
      check_.Error(where, fmt::format("expected a {}string, found {}",
                                      non_empty ? "non-empty " : "", Shown(v)));
      return std::nullopt;
    }
    return v.get<std::string>();
  }

  std::optional<std::string> ChoiceValue(const json& v, const std::string& where,
                                         const std::vector<std::string>& names) {
    if (v.is_string() &&
        std::find(names.begin(), names.end(), v.get<std::string>()) != names.end()) {
      return v.get<std::string>();
    }
    const std::string found = v.is_string() ? fmt::format("'{}'{}", v.get<std::string>(),
                                                          DidYouMean(v.get<std::string>(), names))
                                            : Shown(v);
    check_.Error(where, fmt::format("expected one of {}, found {}", QuotedList(names), found));
    return std::nullopt;
  }

  std::optional<JobKind> KindValue(const json& v, const std::string& where) {
    const auto name = ChoiceValue(v, where, JobKindNames());
    return name ? ParseJobKind(*name) : std::nullopt;
  }

  std::optional<std::string> Choice(const json& object, const std::string& path,
                                    const std::string& key, const std::vector<std::string>& names) {
    const auto it = object.find(key);
    return it == object.end() ? std::nullopt : ChoiceValue(*it, ChildPath(path, key), names);
  }

  std::optional<bool> Bool(const json& object, const std::string& path, const std::string& key) {
    const auto it = object.find(key);
    if (it == object.end()) {
      return std::nullopt;
    }
    if (!it->is_boolean()) {
      check_.Error(ChildPath(path, key),
                   fmt::format("expected true or false, found {}", Shown(*it)));
      return std::nullopt;
    }
    return it->get<bool>();
  }

  std::optional<std::string> OptionalString(const json& object, const std::string& path,
                                            const std::string& key, bool non_empty) {
    const auto it = object.find(key);
    return it == object.end() ? std::nullopt : StringValue(*it, ChildPath(path, key), non_empty);
  }

  std::optional<JobKind> OptionalKind(const json& object, const std::string& path,
                                      const std::string& key) {
    const auto it = object.find(key);
    return it == object.end() ? std::nullopt : KindValue(*it, ChildPath(path, key));
  }

  // {"values": [...], "weights": [...]} at `path`.
  template <typename T>
  std::optional<Weighted<T>> ReadWeighted(const json& node, const std::string& path,
                                          const Reader<T>& read) {
    check_.UnknownKeys(node, path, {"values", "weights"});
    const json* values = check_.Array(node, path, "values", true);
    const json* weights = check_.Array(node, path, "weights", true);
    if (values == nullptr || weights == nullptr) {
      return std::nullopt;
    }
    if (values->empty() || values->size() != weights->size()) {
      check_.Error(path, fmt::format("expected 'values' and 'weights' of the same non-zero "
                                     "length, found {} and {}",
                                     values->size(), weights->size()));
      return std::nullopt;
    }
    Weighted<T> out;
    bool ok = true;
    double total = 0;
    for (std::size_t i = 0; i < values->size(); ++i) {
      const auto v = read((*values)[i], ChildPath(ChildPath(path, "values"), i));
      const auto w =
          check_.RealValue((*weights)[i], ChildPath(ChildPath(path, "weights"), i), kWeightRange);
      ok = ok && v && w;
      out.values.push_back(v.value_or(T{}));
      out.weights.push_back(w.value_or(0));
      total += w.value_or(0);
    }
    if (ok && !(total > 0)) {
      check_.Error(ChildPath(path, "weights"), "expected at least one weight > 0, found all 0");
      ok = false;
    }
    return ok ? std::optional(out) : std::nullopt;
  }

  template <typename T>
  std::optional<Weighted<T>> WeightedMember(const json& parent, const std::string& parent_path,
                                            const std::string& key, bool required,
                                            const Reader<T>& read) {
    const json* node = check_.Object(parent, parent_path, key, required);
    return node == nullptr ? std::nullopt : ReadWeighted(*node, ChildPath(parent_path, key), read);
  }

  // A weighted member that is valid or absent; false if it was refused.
  template <typename T>
  bool OptionalWeighted(const json& parent, const std::string& parent_path, const std::string& key,
                        const Reader<T>& read, Weighted<T>& out) {
    const auto mix = WeightedMember(parent, parent_path, key, false, read);
    out = mix.value_or(Weighted<T>{});
    return Valid(parent, key, mix);
  }

  // "duration_s": lognormal {"median", "sigma", "max"} or empirical {"values", "weights"}.
  bool Durations(const json& gen, const std::string& path, GeneratorSpec& spec) {
    const json* duration = check_.Object(gen, path, "duration_s", true);
    if (duration == nullptr) {
      return false;
    }
    const std::string dpath = ChildPath(path, "duration_s");
    const bool empirical = duration->contains("values") || duration->contains("weights");
    const bool lognormal =
        duration->contains("median") || duration->contains("sigma") || duration->contains("max");
    if (empirical && lognormal) {
      check_.UnknownKeys(*duration, dpath, {"median", "sigma", "max", "values", "weights"});
      check_.Error(dpath,
                   "expected lognormal ('median', 'sigma', 'max') or empirical ('values', "
                   "'weights') durations, found keys of both");
      return false;
    }
    if (empirical) {
      const auto mix = ReadWeighted(*duration, dpath, RealReader(kPositiveSecondsRange));
      spec.duration_mix = mix.value_or(Weighted<double>{});
      return mix.has_value();
    }
    check_.UnknownKeys(*duration, dpath, {"median", "sigma", "max", "values", "weights"});
    const auto median = check_.Real(*duration, dpath, "median", kPositiveSecondsRange, true);
    const auto sigma = check_.Real(*duration, dpath, "sigma", {0, 10}, true);
    const auto max = check_.Real(*duration, dpath, "max", kPositiveSecondsRange, false);
    spec.duration_median_s = median.value_or(1);
    spec.duration_sigma = sigma.value_or(0);
    spec.duration_max_s = max.value_or(0);
    return median && sigma && Valid(*duration, "max", max);
  }

  // The keys added after the first generator: arrival profile, kind and tenant mixes, walltime
  // factor and demand. Returns false if any was refused.
  bool ParseRichFields(const json& gen, const std::string& path, GeneratorSpec& spec) {
    bool ok = ArrivalProfile(gen, path, spec.arrival_profile);
    ok = OptionalWeighted(gen, path, "kind", KindReader(), spec.kind) && ok;
    ok = OptionalWeighted(gen, path, "tenant", NameReader(true), spec.tenant) && ok;
    const auto factor = check_.Real(gen, path, "walltime_factor", kWalltimeFactorRange, false);
    spec.walltime_factor = factor.value_or(0);
    ok = Valid(gen, "walltime_factor", factor) && ok;
    if (const json* demand = check_.Object(gen, path, "demand", false)) {
      spec.demand = Demand(*demand, ChildPath(path, "demand"));
      ok = spec.demand.has_value() && ok;
    } else {
      ok = !gen.contains("demand") && ok;
    }
    if (gen.contains("demand") && gen.contains("kind")) {
      check_.Error(path,
                   "expected 'demand' (services, all of kind 'realtime-inference') or "
                   "'kind', found both");
      ok = false;
    }
    return ok;
  }

  bool ArrivalProfile(const json& gen, const std::string& path, std::vector<double>& out) {
    const json* profile = check_.Array(gen, path, "arrival_profile", false);
    if (profile == nullptr) {
      return !gen.contains("arrival_profile");
    }
    const std::string ppath = ChildPath(path, "arrival_profile");
    if (profile->size() != kHoursPerDay) {
      check_.Error(ppath, fmt::format("expected {} hourly rates, hour 0 first, found {} values",
                                      kHoursPerDay, profile->size()));
      return false;
    }
    bool ok = true;
    double total = 0;
    for (std::size_t h = 0; h < kHoursPerDay; ++h) {
      const auto rate = check_.RealValue((*profile)[h], ChildPath(ppath, h), kWeightRange);
      ok = ok && rate;
      out.push_back(rate.value_or(0));
      total += rate.value_or(0);
    }
    if (ok && !(total > 0)) {
      check_.Error(ppath, "expected at least one rate > 0, found all 0");
      ok = false;
    }
    return ok;
  }

  std::optional<DemandProfileSpec> Demand(const json& demand, const std::string& path) {
    check_.UnknownKeys(demand, path, {"base_fraction", "peak_hour", "noise", "swap_cap"});
    const auto base = check_.Real(demand, path, "base_fraction", kFractionRange, true);
    const auto peak_hour = check_.Int(demand, path, "peak_hour", kHourRange, true);
    const auto noise = check_.Real(demand, path, "noise", kNoiseRange, false);
    const auto swap_cap = check_.Int(demand, path, "swap_cap", kGpuBoundRange, false);
    if (!base || !peak_hour || !Valid(demand, "noise", noise) ||
        !Valid(demand, "swap_cap", swap_cap)) {
      return std::nullopt;
    }
    return DemandProfileSpec{.base_fraction = *base,
                             .peak_hour = *peak_hour,
                             .noise = noise.value_or(0),
                             .swap_cap = swap_cap.value_or(0)};
  }

  std::optional<TransformSpec> TransformBody(const std::string& name, const json& body,
                                             const std::string& path) {
    if (name == "window") {
      return Window(body, path);
    }
    if (name == "scale_arrivals") {
      check_.UnknownKeys(body, path, {"factor"});
      const auto factor = check_.Real(body, path, "factor", kRateFactorRange, true);
      return factor ? std::optional<TransformSpec>(ScaleArrivals{.factor = *factor}) : std::nullopt;
    }
    if (name == "sample") {
      check_.UnknownKeys(body, path, {"jobs", "seed"});
      const auto jobs = check_.Int(body, path, "jobs", kSampleRange, true);
      const auto seed = check_.Unsigned(body, path, "seed", false);
      return jobs && Valid(body, "seed", seed)
                 ? std::optional<TransformSpec>(SampleJobs{.jobs = *jobs, .seed = seed})
                 : std::nullopt;
    }
    if (name == "shuffle") {
      check_.UnknownKeys(body, path, {"seed"});
      const auto seed = check_.Unsigned(body, path, "seed", false);
      return Valid(body, "seed", seed) ? std::optional<TransformSpec>(ShuffleArrivals{.seed = seed})
                                       : std::nullopt;
    }
    if (name == "assign") {
      return Assign(body, path);
    }
    if (name == "replicate") {
      check_.UnknownKeys(body, path, {"copies", "offset_s"});
      const auto copies = check_.Int(body, path, "copies", kCopiesRange, true);
      const auto offset = check_.Real(body, path, "offset_s", kTimeRange, false);
      return copies && Valid(body, "offset_s", offset)
                 ? std::optional<TransformSpec>(
                       Replicate{.copies = *copies, .offset = SecondsToTime(offset.value_or(0))})
                 : std::nullopt;
    }
    if (name == "walltime_model") {
      return Walltime(body, path);
    }
    return Fit(body, path);
  }

  std::optional<TransformSpec> Walltime(const json& body, const std::string& path) {
    check_.UnknownKeys(body, path, {"estimate", "factor", "sigma", "round_up", "apply_to", "seed"});
    const auto estimate = Choice(body, path, "estimate", kEstimateChoices);
    const auto factor = check_.Real(body, path, "factor", kWalltimeFactorRange, false);
    const auto sigma = check_.Real(body, path, "sigma", kSigmaRange, false);
    const auto round_up = Choice(body, path, "round_up", kRoundUpChoices);
    const auto apply_to = Choice(body, path, "apply_to", kApplyToChoices);
    const auto seed = check_.Unsigned(body, path, "seed", false);
    if (!body.contains("estimate")) {
      check_.Error(ChildPath(path, "estimate"),
                   fmt::format("expected one of {}, found nothing", QuotedList(kEstimateChoices)));
    }
    if (!estimate || !Valid(body, "factor", factor) || !Valid(body, "sigma", sigma) ||
        !Valid(body, "round_up", round_up) || !Valid(body, "apply_to", apply_to) ||
        !Valid(body, "seed", seed)) {
      return std::nullopt;
    }
    const auto model = static_cast<WalltimeEstimate>(
        std::find(kEstimateChoices.begin(), kEstimateChoices.end(), *estimate) -
        kEstimateChoices.begin());
    if ((factor && model == WalltimeEstimate::kExact) ||
        (sigma && model != WalltimeEstimate::kLognormal)) {
      check_.Error(
          path,
          fmt::format("\"{}\" does not apply to the estimate \"{}\" (factor: "
                      "factor and lognormal; sigma: lognormal)",
                      factor && model == WalltimeEstimate::kExact ? "factor" : "sigma", *estimate));
      return std::nullopt;
    }
    return WalltimeModel{.estimate = model,
                         .factor = factor.value_or(1),
                         .sigma = sigma.value_or(0.5),
                         .round_to_common_limits = round_up.value_or("none") == "common-limits",
                         .all = apply_to.value_or("missing") == "all",
                         .seed = seed};
  }

  std::optional<TransformSpec> Window(const json& body, const std::string& path) {
    check_.UnknownKeys(body, path, {"from_s", "to_s", "shift"});
    const auto from = check_.Real(body, path, "from_s", kTimeRange, false);
    const auto to = check_.Real(body, path, "to_s", kTimeRange, false);
    const auto shift = Bool(body, path, "shift");
    if (!Valid(body, "from_s", from) || !Valid(body, "to_s", to) || !Valid(body, "shift", shift)) {
      return std::nullopt;
    }
    return TimeWindow{.from = SecondsToTime(from.value_or(0)),
                      .to = to ? SecondsToTime(*to) : kTimeNever,
                      .shift = shift.value_or(false)};
  }

  std::optional<TransformSpec> Assign(const json& body, const std::string& path) {
    check_.UnknownKeys(body, path, {"rules", "mix", "seed"});
    AssignFields assign;
    bool ok = true;
    if (const json* rules = check_.Array(body, path, "rules", false)) {
      for (std::size_t i = 0; i < rules->size(); ++i) {
        const auto rule = Rule((*rules)[i], ChildPath(ChildPath(path, "rules"), i));
        ok = ok && rule;
        assign.rules.push_back(rule.value_or(AssignRule{}));
      }
    } else {
      ok = !body.contains("rules");
    }
    if (const json* mix = check_.Object(body, path, "mix", false)) {
      ok = Mix(*mix, ChildPath(path, "mix"), assign.mix) && ok;
    } else {
      ok = !body.contains("mix") && ok;
    }
    assign.seed = check_.Unsigned(body, path, "seed", false);
    ok = Valid(body, "seed", assign.seed) && ok;
    return ok ? std::optional<TransformSpec>(std::move(assign)) : std::nullopt;
  }

  std::optional<AssignRule> Rule(const json& item, const std::string& path) {
    if (!item.is_object()) {
      check_.Error(path,
                   fmt::format("expected a rule object {{\"when\": {{...}}, \"set\": {{...}}}}, "
                               "found {}",
                               Shown(item)));
      return std::nullopt;
    }
    check_.UnknownKeys(item, path, {"when", "set"});
    AssignRule rule;
    bool ok = true;
    if (const json* when = check_.Object(item, path, "when", false)) {
      ok = Predicate(*when, ChildPath(path, "when"), rule.when);
    } else {
      ok = !item.contains("when");
    }
    const json* set = check_.Object(item, path, "set", true);
    ok = set != nullptr && Values(*set, ChildPath(path, "set"), rule.set) && ok;
    return ok ? std::optional(std::move(rule)) : std::nullopt;
  }

  bool Predicate(const json& when, const std::string& path, JobPredicate& out) {
    check_.UnknownKeys(when, path, {"gpus", "duration_s", "tenant", "priority_class", "kind"});
    bool ok = true;
    if (const json* gpus = check_.Object(when, path, "gpus", false)) {
      const std::string gpath = ChildPath(path, "gpus");
      check_.UnknownKeys(*gpus, gpath, {"min", "max"});
      const auto min = check_.Int(*gpus, gpath, "min", kGpuBoundRange, false);
      const auto max = check_.Int(*gpus, gpath, "max", kGpuBoundRange, false);
      ok = Valid(*gpus, "min", min) && Valid(*gpus, "max", max);
      out.gpus = IntBounds{.min = min.value_or(0), .max = max.value_or(kMaxJobGpus)};
    } else {
      ok = !when.contains("gpus");
    }
    if (const json* duration = check_.Object(when, path, "duration_s", false)) {
      const std::string dpath = ChildPath(path, "duration_s");
      check_.UnknownKeys(*duration, dpath, {"min", "max"});
      const auto min = check_.Real(*duration, dpath, "min", kTimeRange, false);
      const auto max = check_.Real(*duration, dpath, "max", kTimeRange, false);
      ok = Valid(*duration, "min", min) && Valid(*duration, "max", max) && ok;
      out.duration = DurationBounds{.min = SecondsToTime(min.value_or(0)),
                                    .max = max ? SecondsToTime(*max) : kTimeNever};
    } else {
      ok = !when.contains("duration_s") && ok;
    }
    out.tenant = OptionalString(when, path, "tenant", false);
    out.priority_class = OptionalString(when, path, "priority_class", false);
    out.kind = OptionalKind(when, path, "kind");
    return Valid(when, "tenant", out.tenant) && Valid(when, "priority_class", out.priority_class) &&
           Valid(when, "kind", out.kind) && ok;
  }

  bool Values(const json& set, const std::string& path, FieldValues& out) {
    check_.UnknownKeys(set, path, kSetKeys);
    out.tenant = OptionalString(set, path, "tenant", true);
    out.priority_class = OptionalString(set, path, "priority_class", false);
    out.priority = check_.Int(set, path, "priority", kPriorityRange, false);
    out.kind = OptionalKind(set, path, "kind");
    const bool ok = Valid(set, "tenant", out.tenant) &&
                    Valid(set, "priority_class", out.priority_class) &&
                    Valid(set, "priority", out.priority) && Valid(set, "kind", out.kind);
    return LifeCycleValues(set, path, out) && ok;
  }

  bool LifeCycleValues(const json& set, const std::string& path, FieldValues& out) {
    const auto seconds = [&](const char* key, std::optional<SimDuration>& field) {
      const auto value = check_.Real(set, path, key, kTimeRange, false);
      field = value ? std::optional(SecondsToTime(*value)) : std::nullopt;
      return Valid(set, key, value);
    };
    bool ok = seconds("checkpoint_interval_s", out.checkpoint_interval);
    ok = seconds("checkpoint_cost_s", out.checkpoint_cost) && ok;
    ok = seconds("restart_cost_s", out.restart_cost) && ok;
    out.checkpoint_sharded = Bool(set, path, "checkpoint_sharded");
    out.preemptible = Bool(set, path, "preemptible");
    out.spot_eligible = Bool(set, path, "spot_eligible");
    return Valid(set, "checkpoint_sharded", out.checkpoint_sharded) &&
           Valid(set, "preemptible", out.preemptible) &&
           Valid(set, "spot_eligible", out.spot_eligible) && ok;
  }

  bool Mix(const json& mix, const std::string& path, FieldMix& out) {
    check_.UnknownKeys(mix, path, kFieldKeys);
    bool ok = OptionalWeighted(mix, path, "tenant", NameReader(true), out.tenant);
    ok = OptionalWeighted(mix, path, "priority_class", NameReader(false), out.priority_class) && ok;
    ok = OptionalWeighted(mix, path, "priority", IntReader(kPriorityRange), out.priority) && ok;
    return OptionalWeighted(mix, path, "kind", KindReader(), out.kind) && ok;
  }

  std::optional<TransformSpec> Fit(const json& body, const std::string& path) {
    check_.UnknownKeys(body, path, {"gpus_per_node", "small_jobs", "max_gpus", "above_max"});
    const auto per_node = check_.Int(body, path, "gpus_per_node", kGpusRange, true);
    const auto small = Choice(body, path, "small_jobs", kSmallJobChoices);
    const auto max = check_.Int(body, path, "max_gpus", kGpusRange, false);
    const auto above = Choice(body, path, "above_max", kAboveMaxChoices);
    if (!per_node || !Valid(body, "small_jobs", small) || !Valid(body, "max_gpus", max) ||
        !Valid(body, "above_max", above)) {
      return std::nullopt;
    }
    return FitToNodes{.gpus_per_node = *per_node,
                      .round_small_to_pow2 = small.value_or("pow2") == "pow2",
                      .max_gpus = max.value_or(0),
                      .drop_above_max = above.value_or("drop") == "drop"};
  }

  JsonChecker& check_;
};

void CheckBlocksDistinct(const std::vector<LocatedBlock>& blocks, JsonChecker& check) {
  for (std::size_t j = 1; j < blocks.size(); ++j) {
    for (std::size_t i = 0; i < j; ++i) {
      if (const auto shared = SharedId(*blocks[i].spec, *blocks[j].spec)) {
        check.Error(ChildPath(blocks[j].path, "id_prefix"),
                    fmt::format("ids generated here collide with those of {} (both generate "
                                "'{}'); choose another id_prefix",
                                blocks[i].path, *shared));
        break;
      }
    }
  }
}

}  // namespace

bool IsGeneratedId(const std::string& id, const GeneratorSpec& spec) {
  if (id.size() <= spec.id_prefix.size() ||
      id.compare(0, spec.id_prefix.size(), spec.id_prefix) != 0) {
    return false;
  }
  const std::string digits = id.substr(spec.id_prefix.size());
  if (digits.size() > 12 || digits.find_first_not_of("0123456789") != std::string::npos) {
    return false;
  }
  const std::int64_t n = std::stoll(digits);
  return n >= 1 && n <= spec.jobs && fmt::format("{:06}", n) == digits;
}

GeneratorBlocks ParseGeneratorSections(const json& root, JsonChecker& check) {
  WorkloadParser parser(check);
  GeneratorBlocks blocks;
  if (const json* gen = check.Object(root, "", "generator", false)) {
    blocks.generator = parser.Generator(*gen, "/generator");
  }
  if (const json* list = check.Array(root, "", "generators", false)) {
    bool ok = true;
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string path = ChildPath("/generators", i);
      const json& item = (*list)[i];
      if (!item.is_object()) {
        check.Error(path, fmt::format("expected a generator object, found {}", Shown(item)));
        ok = false;
        continue;
      }
      auto spec = parser.Generator(item, path);
      ok = ok && spec;
      blocks.generators.push_back(spec.value_or(GeneratorSpec{}));
    }
    if (!ok) {
      blocks.generators.clear();
    }
  }
  CheckBlocksDistinct(Locate(blocks.generator, blocks.generators), check);
  return blocks;
}

void CheckGeneratedIdsAgainstListed(const std::optional<GeneratorSpec>& generator,
                                    const std::vector<GeneratorSpec>& generators,
                                    const std::vector<Job>& listed_jobs, JsonChecker& check) {
  std::map<std::string, std::size_t> first_seen;
  for (std::size_t i = 0; i < listed_jobs.size(); ++i) {
    if (!listed_jobs[i].request.id.empty()) {
      first_seen.emplace(listed_jobs[i].request.id, i);
    }
  }
  for (const LocatedBlock& block : Locate(generator, generators)) {
    for (const auto& [id, index] : first_seen) {
      if (IsGeneratedId(id, *block.spec)) {
        check.Error(ChildPath(block.path, "id_prefix"),
                    fmt::format("generated id '{}' collides with /jobs/{}/id; choose another "
                                "id_prefix",
                                id, index));
        break;
      }
    }
  }
}

std::vector<TransformSpec> ParseTransformsSection(const json& root, JsonChecker& check) {
  const json* list = check.Array(root, "", "transforms", false);
  if (list == nullptr) {
    return {};
  }
  WorkloadParser parser(check);
  std::vector<TransformSpec> transforms;
  bool ok = true;
  for (std::size_t i = 0; i < list->size(); ++i) {
    auto transform = parser.Transform((*list)[i], ChildPath("/transforms", i));
    ok = ok && transform;
    if (transform) {
      transforms.push_back(std::move(*transform));
    }
  }
  return ok ? transforms : std::vector<TransformSpec>{};
}

}  // namespace fleetsim
