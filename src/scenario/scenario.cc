// Scenario loading: read, parse, validate every field (collecting all problems), then build.
#include "fleetsim/scenario/scenario.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <regex>

#include "fleetsim/core/check.h"
#include "fleetsim/scenario/catalog_loader.h"
#include "scenario/fleet_parser.h"
#include "json/json_checker.h"
#include "json/json_text.h"

namespace fleetsim {

namespace {

using nlohmann::json;

constexpr IntRange kGpusRange{1, kMaxFleetGpus};
constexpr IntRange kPriorityRange{1, 1'000'000};
constexpr IntRange kJobCountRange{1, 10'000'000};
constexpr RealRange kTimeRange{0, kMaxScenarioSeconds};
constexpr RealRange kPositiveSecondsRange{0, kMaxScenarioSeconds, true};

const std::vector<std::string> kTopKeys = {
    "format_version", "name", "description", "seed", "fleet", "policy", "run", "jobs", "generator"};

// Whether the generator would produce `id` ("<prefix><n as at least 6 digits>", 1 <= n <= jobs).
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

bool IsValidName(const std::string& name) {
  static const std::regex pattern("[A-Za-z0-9._-]+");
  return std::regex_match(name, pattern);
}

class ScenarioParser {
 public:
  ScenarioParser(const PolicyRegistry& registry, const Catalog& catalog, std::string source,
                 Diagnostics& diagnostics)
      : registry_(registry), catalog_(catalog), source_(std::move(source)), check_(diagnostics) {}

  Scenario Parse(const json& root) {
    Scenario s;
    check_.UnknownKeys(root, "", kTopKeys);
    ParseHeader(root, s);
    ParseFleet(root, s);
    ParsePolicy(root, s);
    ParseRun(root, s);
    ParseJobs(root, s);
    ParseGenerator(root, s);
    CheckIdsDistinct(s);
    if (!root.contains("jobs") && !root.contains("generator")) {
      check_.Error("", "a scenario needs 'jobs', 'generator' or both");
    }
    return s;
  }

 private:
  void ParseHeader(const json& root, Scenario& s) {
    if (const auto version = check_.Int(root, "", "format_version", {1, 1000}, true);
        version && *version != kScenarioFormatVersion) {
      check_.Error("/format_version",
                   fmt::format("unsupported format version {}; this fleetsim reads version {}",
                               *version, kScenarioFormatVersion));
    }
    if (const auto name = check_.String(root, "", "name", true)) {
      if (IsValidName(*name)) {
        s.name = *name;
      } else {
        check_.Error("/name", fmt::format("expected a name of letters, digits, '.', '_' or '-', "
                                          "found {}",
                                          Shown(json(*name))));
      }
    }
    s.description = check_.String(root, "", "description", false).value_or("");
    s.seed = check_.Unsigned(root, "", "seed", false).value_or(kDefaultSeed);
  }

  void ParseFleet(const json& root, Scenario& s) {
    const json* fleet = check_.Object(root, "", "fleet", true);
    if (fleet == nullptr) {
      return;
    }
    std::optional<Catalog> own;
    if (const auto file = check_.String(*fleet, "/fleet", "catalog", false)) {
      own = LoadOwnCatalog(*file);
      if (!own) {
        return;
      }
    }
    s.fleet = ParseFleetSection(*fleet, own ? *own : catalog_, check_);
  }

  // A scenario's own catalog file, relative to the scenario file, extending the base catalog.
  std::optional<Catalog> LoadOwnCatalog(const std::string& file) {
    const std::filesystem::path path = std::filesystem::path(source_).parent_path() / file;
    std::string text;
    if (std::string error = ReadTextFile(path.string(), text); !error.empty()) {
      check_.Error("/fleet/catalog", error);
      return std::nullopt;
    }
    CatalogLoadResult result = ParseCatalog(text, path.string(), catalog_);
    if (!result.file_error.empty()) {
      check_.Error("/fleet/catalog", result.file_error);
      return std::nullopt;
    }
    for (const Diagnostic& d : result.diagnostics.items()) {
      const std::string message =
          fmt::format("{}: {}: {}", path.string(), d.where.empty() ? "/" : d.where, d.message);
      if (d.severity == Severity::kError) {
        check_.Error("/fleet/catalog", message);
      } else {
        check_.Warning("/fleet/catalog", message);
      }
    }
    return result.catalog;
  }

  void ParsePolicy(const json& root, Scenario& s) {
    const json* policy = check_.Object(root, "", "policy", false);
    if (policy == nullptr) {
      const PolicyInfo* fallback = registry_.Find(s.policy.name);
      FLEETSIM_CHECK(fallback != nullptr, "the registry lacks the default policy");
      s.policy.params = DefaultParams(*fallback);
      return;
    }
    check_.UnknownKeys(*policy, "/policy", {"name", "params"});
    const std::string name = check_.String(*policy, "/policy", "name", true).value_or("");
    const PolicyInfo* info = registry_.Find(name);
    if (info == nullptr) {
      if (policy->contains("name") && (*policy)["name"].is_string()) {
        check_.Error("/policy/name", UnknownPolicyMessage(name, registry_));
      }
      return;
    }
    s.policy.name = name;
    s.policy.params = DefaultParams(*info);
    if (const json* params = check_.Object(*policy, "/policy", "params", false)) {
      ParsePolicyParams(*params, *info, s.policy.params);
    }
  }

  void ParsePolicyParams(const json& params, const PolicyInfo& info, PolicyParams& out) {
    std::vector<std::string> known;
    for (const ParamSpec& spec : info.params) {
      known.push_back(spec.name);
    }
    for (const auto& item : params.items()) {
      if (std::find(known.begin(), known.end(), item.key()) == known.end()) {
        const std::string allowed = known.empty() ? "it has none" : "it has " + QuotedList(known);
        check_.Error(ChildPath("/policy/params", item.key()),
                     fmt::format("policy '{}' has no parameter '{}'{} ({})", info.name, item.key(),
                                 DidYouMean(item.key(), known), allowed));
      }
    }
    for (const ParamSpec& spec : info.params) {
      const auto it = params.find(spec.name);
      if (it == params.end()) {
        continue;
      }
      const std::string where = ChildPath("/policy/params", spec.name);
      switch (spec.type) {
        case ParamType::kInt:
          if (const auto v = check_.IntValue(
                  *it, where,
                  {static_cast<std::int64_t>(spec.min), static_cast<std::int64_t>(spec.max)})) {
            out[spec.name] = *v;
          }
          break;
        case ParamType::kReal:
          if (const auto v = check_.RealValue(*it, where, {spec.min, spec.max})) {
            out[spec.name] = *v;
          }
          break;
        case ParamType::kBool:
          if (it->is_boolean()) {
            out[spec.name] = it->get<bool>();
          } else {
            check_.Error(where, fmt::format("expected true or false, found {}", Shown(*it)));
          }
          break;
      }
    }
  }

  void ParseRun(const json& root, Scenario& s) {
    const json* run = check_.Object(root, "", "run", false);
    if (run == nullptr) {
      return;
    }
    check_.UnknownKeys(*run, "/run", {"until_s"});
    if (const auto until = check_.Real(*run, "/run", "until_s", kTimeRange, false)) {
      s.until = SecondsToTime(*until);
    }
  }

  void ParseJobs(const json& root, Scenario& s) {
    const json* jobs = check_.Array(root, "", "jobs", false);
    if (jobs == nullptr) {
      return;
    }
    for (std::size_t i = 0; i < jobs->size(); ++i) {
      const std::string path = ChildPath("/jobs", i);
      const json& item = (*jobs)[i];
      if (!item.is_object()) {
        check_.Error(path, fmt::format("expected a job object, found {}", Shown(item)));
        continue;
      }
      check_.UnknownKeys(item, path, {"id", "submit_s", "gpus", "duration_s", "priority"});
      const auto id = check_.String(item, path, "id", true);
      const auto submit = check_.Real(item, path, "submit_s", kTimeRange, true);
      const auto gpus = check_.Int(item, path, "gpus", kGpusRange, true);
      const auto duration = check_.Real(item, path, "duration_s", kPositiveSecondsRange, true);
      const auto priority = check_.Int(item, path, "priority", kPriorityRange, false);
      if (id && !IsValidName(*id)) {
        check_.Error(ChildPath(path, "id"),
                     fmt::format("expected an id of letters, digits, '.', '_' or '-', found {}",
                                 Shown(json(*id))));
      }
      if (duration && SecondsToTime(*duration) < 1) {
        check_.Error(ChildPath(path, "duration_s"),
                     fmt::format("expected a duration of at least 1 ms after rounding to the "
                                 "millisecond, found {}",
                                 Shown(item["duration_s"])));
      }
      Job job;
      job.request.id = id.value_or("");
      job.request.submit = SecondsToTime(submit.value_or(0));
      job.request.gpus = gpus.value_or(1);
      job.request.priority = priority.value_or(1);
      job.truth.duration = SecondsToTime(duration.value_or(1));
      s.listed_jobs.push_back(std::move(job));
    }
  }

  std::optional<WeightedValues> ParseWeighted(const json& parent, const std::string& parent_path,
                                              const std::string& key, IntRange value_range,
                                              bool required) {
    const json* node = check_.Object(parent, parent_path, key, required);
    if (node == nullptr) {
      return std::nullopt;
    }
    const std::string path = ChildPath(parent_path, key);
    check_.UnknownKeys(*node, path, {"values", "weights"});
    const json* values = check_.Array(*node, path, "values", true);
    const json* weights = check_.Array(*node, path, "weights", true);
    if (values == nullptr || weights == nullptr) {
      return std::nullopt;
    }
    if (values->empty() || values->size() != weights->size()) {
      check_.Error(path, fmt::format("expected 'values' and 'weights' of the same non-zero "
                                     "length, found {} and {}",
                                     values->size(), weights->size()));
      return std::nullopt;
    }
    WeightedValues out;
    bool ok = true;
    double total = 0;
    for (std::size_t i = 0; i < values->size(); ++i) {
      const auto v =
          check_.IntValue((*values)[i], ChildPath(ChildPath(path, "values"), i), value_range);
      const auto w =
          check_.RealValue((*weights)[i], ChildPath(ChildPath(path, "weights"), i), {0, 1e12});
      ok = ok && v && w;
      out.values.push_back(v.value_or(0));
      out.weights.push_back(w.value_or(0));
      total += w.value_or(0);
    }
    if (ok && !(total > 0)) {
      check_.Error(ChildPath(path, "weights"), "expected at least one weight > 0, found all 0");
      ok = false;
    }
    return ok ? std::optional(out) : std::nullopt;
  }

  void ParseGenerator(const json& root, Scenario& s) {
    const json* gen = check_.Object(root, "", "generator", false);
    if (gen == nullptr) {
      return;
    }
    const std::string path = "/generator";
    check_.UnknownKeys(
        *gen, path, {"jobs", "mean_interarrival_s", "duration_s", "gpus", "priority", "id_prefix"});
    GeneratorSpec spec;
    const auto jobs = check_.Int(*gen, path, "jobs", kJobCountRange, true);
    const auto gap = check_.Real(*gen, path, "mean_interarrival_s", kPositiveSecondsRange, true);
    const auto gpus = ParseWeighted(*gen, path, "gpus", kGpusRange, true);
    const auto priority = ParseWeighted(*gen, path, "priority", kPriorityRange, false);
    const auto prefix = check_.String(*gen, path, "id_prefix", false);
    bool ok = jobs && gap && gpus;
    if (const json* duration = check_.Object(*gen, path, "duration_s", true)) {
      const std::string dpath = "/generator/duration_s";
      check_.UnknownKeys(*duration, dpath, {"median", "sigma", "max"});
      const auto median = check_.Real(*duration, dpath, "median", kPositiveSecondsRange, true);
      const auto sigma = check_.Real(*duration, dpath, "sigma", {0, 10}, true);
      const auto max = check_.Real(*duration, dpath, "max", kPositiveSecondsRange, false);
      ok = ok && median && sigma;
      spec.duration_median_s = median.value_or(1);
      spec.duration_sigma = sigma.value_or(0);
      spec.duration_max_s = max.value_or(0);
    } else {
      ok = false;
    }
    if (prefix && !IsValidName(*prefix)) {
      check_.Error(
          "/generator/id_prefix",
          fmt::format("expected letters, digits, '.', '_' or '-', found {}", Shown(json(*prefix))));
      ok = false;
    }
    if (!ok) {
      return;
    }
    spec.jobs = *jobs;
    spec.mean_interarrival_s = *gap;
    spec.gpus = *gpus;
    spec.priority = priority.value_or(WeightedValues{{1}, {1.0}});
    spec.id_prefix = prefix.value_or("g");
    s.generator = spec;
  }

  void CheckIdsDistinct(const Scenario& s) {
    std::map<std::string, std::size_t> first_seen;
    for (std::size_t i = 0; i < s.listed_jobs.size(); ++i) {
      const std::string& id = s.listed_jobs[i].request.id;
      if (id.empty()) {
        continue;
      }
      const auto [it, inserted] = first_seen.emplace(id, i);
      if (!inserted) {
        check_.Error(
            ChildPath(ChildPath("/jobs", i), "id"),
            fmt::format("duplicate job id '{}' (first used at /jobs/{}/id)", id, it->second));
      }
    }
    if (!s.generator) {
      return;
    }
    for (const auto& [id, index] : first_seen) {
      if (IsGeneratedId(id, *s.generator)) {
        check_.Error("/generator/id_prefix",
                     fmt::format("generated id '{}' collides with /jobs/{}/id; choose another "
                                 "id_prefix",
                                 id, index));
        return;
      }
    }
  }

  static std::string UnknownPolicyMessage(const std::string& name, const PolicyRegistry& registry) {
    return fmt::format("unknown policy '{}'{} (valid policies: {})", name,
                       DidYouMean(name, registry.Names()), QuotedList(registry.Names()));
  }

  const PolicyRegistry& registry_;
  const Catalog& catalog_;
  std::string source_;
  JsonChecker check_;
};

}  // namespace

LoadResult ParseScenario(const std::string& text, const std::string& source,
                         const PolicyRegistry& registry, const LoadOptions& options) {
  LoadResult result;
  json root;
  if (std::string error = ParseJsonText(text, source, root); !error.empty()) {
    result.file_error = std::move(error);
    return result;
  }
  if (!root.is_object()) {
    result.diagnostics.Error("", fmt::format("expected a scenario object, found {}", Shown(root)));
    return result;
  }
  const Catalog builtin = options.catalog == nullptr ? BuiltinCatalog() : Catalog{};
  const Catalog& catalog = options.catalog == nullptr ? builtin : *options.catalog;
  Scenario scenario = ScenarioParser(registry, catalog, source, result.diagnostics).Parse(root);
  if (options.strict) {
    result.diagnostics.PromoteWarnings();
  }
  if (!result.diagnostics.HasErrors()) {
    result.scenario = std::move(scenario);
  }
  return result;
}

LoadResult LoadScenarioFile(const std::string& path, const PolicyRegistry& registry,
                            const LoadOptions& options) {
  std::string text;
  if (std::string error = ReadTextFile(path, text); !error.empty()) {
    LoadResult result;
    result.file_error = std::move(error);
    return result;
  }
  return ParseScenario(text, path, registry, options);
}

Workload BuildWorkload(const Scenario& scenario, std::uint64_t seed) {
  Workload workload;
  workload.jobs = scenario.listed_jobs;
  if (scenario.generator) {
    GenerateJobs(*scenario.generator, RandomStreams(seed, 0), workload);
  }
  SortBySubmit(workload);
  return workload;
}

std::string WorkloadFingerprint(const Workload& workload) {
  std::uint64_t hash = 0xCBF29CE484222325ULL;
  const auto mix = [&hash](const std::string& bytes) {
    for (const char c : bytes) {
      hash ^= static_cast<unsigned char>(c);
      hash *= 0x100000001B3ULL;
    }
  };
  for (const Job& job : workload.jobs) {
    mix(fmt::format("{},{},{},{},{};", job.request.id, job.request.submit, job.request.gpus,
                    job.request.priority, job.truth.duration));
  }
  return fmt::format("fnv1a64:{:016x}", hash);
}

}  // namespace fleetsim
