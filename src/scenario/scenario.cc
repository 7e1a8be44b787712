// Scenario loading: read, parse, validate every field (collecting all problems), then build.
#include "fleetsim/scenario/scenario.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>

#include "fleetsim/core/check.h"
#include "fleetsim/core/names.h"
#include "fleetsim/fleet/catalog_loader.h"
#include "fleetsim/fleet/speed_model.h"
#include "fleetsim/scenario/load_cache.h"
#include "fleetsim/workload/tenants.h"
#include "job_json/job_json.h"
#include "json/json_checker.h"
#include "json/json_text.h"
#include "scenario/fleet_parser.h"
#include "scenario/workload_parser.h"

namespace fleetsim {

namespace {

using nlohmann::json;

constexpr RealRange kTimeRange{0, kMaxScenarioSeconds};

const std::vector<std::string> kTopKeys = {
    "format_version", "name",       "description", "seed",   "fleet",
    "failures",       "policy",     "run",         "jobs",   "trace",
    "generator",      "generators", "transforms",  "tenants"};

class ScenarioParser {
 public:
  ScenarioParser(const PolicyRegistry& registry, const Catalog& catalog, LoadCache* cache,
                 const FileSystem& files, std::string source, Diagnostics& diagnostics,
                 std::vector<std::string>& notes)
      : registry_(registry),
        catalog_(catalog),
        cache_(cache),
        files_(files),
        source_(std::move(source)),
        diagnostics_(diagnostics),
        check_(diagnostics),
        notes_(notes) {}

  // Only the "policy" block of `root`, as Parse checks it.
  PolicyChoice ParsePolicyOnly(const json& root) {
    Scenario s;
    ParsePolicy(root, s);
    return s.policy;
  }

  Scenario Parse(const json& root) {
    Scenario s;
    check_.UnknownKeys(root, "", kTopKeys);
    ParseHeader(root, s);
    ParseFleet(root, s);
    ParseFailures(root, s);
    ParsePolicy(root, s);
    ParseRun(root, s);
    ParseJobs(root, s);
    ParseTrace(root, s);
    ParseGenerators(root, s);
    s.transforms = ParseTransformsSection(root, check_);
    ParseTenants(root, s);
    CheckIdsDistinct(s);
    if (!root.contains("jobs") && !root.contains("trace") && !root.contains("generator") &&
        !root.contains("generators")) {
      check_.Error("",
                   "a scenario needs at least one of 'jobs', 'trace', 'generator' and "
                   "'generators'");
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
      if (IsPlainName(*name)) {
        s.name = *name;
      } else {
        check_.Error("/name", fmt::format("expected {}, found {}", kPlainNameExpectation,
                                          Shown(json(*name))));
      }
    }
    s.description = check_.String(root, "", "description", false).value_or("");
    s.seed = check_.Unsigned(root, "", "seed", false).value_or(kDefaultSeed);
  }

  void ParseFleet(const json& root, Scenario& s) {
    const std::size_t errors_before = ErrorCount();
    if (const auto it = root.find("fleet"); it != root.end() && it->is_string()) {
      ParseFleetFile(it->get<std::string>(), s);
    } else if (const json* fleet = check_.Object(root, "", "fleet", true)) {
      ParseFleetObject(*fleet, s);
    } else {
      return;
    }
    fleet_valid_ = ErrorCount() == errors_before;
  }

  // "fleet": "FILE": the fleet object in a file of its own (as `fleetsim import-fleet` writes
  // one), relative to the scenario file. It is read as if written in place, except that its own
  // relative catalog path is relative to it.
  void ParseFleetFile(const std::string& file, Scenario& s) {
    ParseSectionFile("fleet", file, [&s](ScenarioParser& parser, const json& fleet) {
      if (!fleet.is_object()) {
        return fmt::format(
            "expected a fleet object ({{\"pools\": ...}} or {{\"gpus\": N}}), "
            "found {}",
            Shown(fleet));
      }
      parser.ParseFleetObject(fleet, s);
      return std::string();
    });
  }

  // "tenants": "FILE": the tenants array in a file of its own (as `fleetsim import-fleet --from
  // kai` writes one), relative to the scenario file.
  void ParseTenantsFile(const std::string& file, Scenario& s) {
    ParseSectionFile("tenants", file, [&s](ScenarioParser& parser, const json& tenants) {
      if (!tenants.is_array()) {
        return fmt::format("expected an array of tenant objects, found {}", Shown(tenants));
      }
      parser.ParseTenants(json{{"tenants", tenants}}, s);
      return std::string();
    });
  }

  // Reads the section `key` from `file` (relative to the scenario file) with a parser of its
  // own, whose source is that file, through `parse` (which returns "" or what is wrong with the
  // file's top level). Its problems are reported at /key as "FILE: /pointer: message".
  template <typename Parse>
  void ParseSectionFile(const std::string& key, const std::string& file, Parse parse) {
    const std::string at = "/" + key;
    const std::string path = (std::filesystem::path(source_).parent_path() / file).string();
    std::string text;
    json section;
    Status status = files_.ReadFile(path, text);
    if (status.ok()) {
      status = ParseJsonText(text, path, section);
    }
    if (!status.ok()) {
      check_.Error(at, status.message());
      return;
    }
    Diagnostics inner;
    ScenarioParser file_parser(registry_, catalog_, cache_, files_, path, inner, notes_);
    if (const std::string problem = parse(file_parser, section); !problem.empty()) {
      check_.Error(at, fmt::format("{}: {}", path, problem));
      return;
    }
    if (file_parser.own_catalog_) {
      own_catalog_ = std::move(file_parser.own_catalog_);
    }
    for (const Diagnostic& d : inner.items()) {
      const std::string where = d.where.starts_with(at) ? d.where.substr(at.size()) : d.where;
      const std::string message =
          fmt::format("{}: {}: {}", path, where.empty() ? "/" : where, d.message);
      if (d.severity == Severity::kError) {
        check_.Error(at, message);
      } else {
        check_.Warning(at, message);
      }
    }
  }

  void ParseFleetObject(const json& fleet, Scenario& s) {
    std::optional<Catalog> own;
    if (const auto it = fleet.find("catalog"); it != fleet.end() && it->is_object()) {
      own = ParseInlineCatalog(*it);
      if (!own) {
        return;
      }
    } else if (const auto file = check_.String(fleet, "/fleet", "catalog", false)) {
      own = LoadOwnCatalog(*file);
      if (!own) {
        return;
      }
    }
    s.fleet = ParseFleetSection(fleet, own ? *own : catalog_, check_);
    own_catalog_ = std::move(own);
    if (const GpuModel* reference = EffectiveCatalog().FindGpu(kDefaultReferenceGpu)) {
      s.reference_gpu = *reference;
    }
  }

  // "failures": hardware failures by GPU model, into the pools of that model. The models are
  // checked against the pools only when the fleet section loaded without error.
  void ParseFailures(const json& root, Scenario& s) {
    if (const json* failures = check_.Object(root, "", "failures", false)) {
      ParseFailuresSection(*failures, fleet_valid_, s.fleet, check_);
    }
  }

  std::size_t ErrorCount() const {
    const std::vector<Diagnostic>& items = diagnostics_.items();
    return static_cast<std::size_t>(
        std::count_if(items.begin(), items.end(),
                      [](const Diagnostic& d) { return d.severity == Severity::kError; }));
  }

  // The catalog GPU-model names are checked against: the scenario's own, else the base one.
  const Catalog& EffectiveCatalog() const { return own_catalog_ ? *own_catalog_ : catalog_; }

  // "catalog": {...}: a catalog written in place (the catalog file format), extending the base
  // catalog; its problems are reported at their pointers under /fleet/catalog.
  std::optional<Catalog> ParseInlineCatalog(const json& catalog) {
    CatalogLoadResult result = ParseCatalog(catalog.dump(), source_, catalog_);
    if (!result.file_status.ok()) {
      check_.Error("/fleet/catalog", result.file_status.message());
      return std::nullopt;
    }
    // As for a catalog file, every problem is an error (an unknown key included).
    for (const Diagnostic& d : result.diagnostics.items()) {
      check_.Error("/fleet/catalog" + d.where, d.message);
    }
    return result.catalog;
  }

  // A scenario's own catalog file, relative to the scenario file, extending the base catalog.
  std::optional<Catalog> LoadOwnCatalog(const std::string& file) {
    const std::filesystem::path path = std::filesystem::path(source_).parent_path() / file;
    std::string text;
    if (Status status = files_.ReadFile(path.string(), text); !status.ok()) {
      check_.Error("/fleet/catalog", status.message());
      return std::nullopt;
    }
    CatalogLoadResult result = ParseCatalog(text, path.string(), catalog_);
    if (!result.file_status.ok()) {
      check_.Error("/fleet/catalog", result.file_status.message());
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
    const auto params = policy->find("params");
    if (params == policy->end()) {
      return;
    }
    if (params->is_string()) {
      ParsePolicyParamsFile(params->get<std::string>(), *info, s);
    } else if (params->is_object()) {
      ParsePolicyParams(*params, *info, s.policy.params);
    } else {
      check_.Error("/policy/params",
                   fmt::format("expected an object of parameters or the path of a parameters "
                               "file, found {}",
                               Shown(*params)));
    }
  }

  // "params": "FILE": parameters by policy name in a file of their own (as `fleetsim import-fleet
  // --parameters-out` writes them, {"fair-share": {...}, "backfill": {...}}), relative to the
  // scenario file; the entry of the scenario's policy is read as if written in place.
  void ParsePolicyParamsFile(const std::string& file, const PolicyInfo& info, Scenario& s) {
    ParseSectionFile(
        "policy/params", file, [&s, &info](ScenarioParser& parser, const json& by_policy) {
          if (!by_policy.is_object()) {
            return fmt::format(
                "expected an object of parameters by policy name, "
                "found {}",
                Shown(by_policy));
          }
          const auto entry = by_policy.find(info.name);
          if (entry != by_policy.end() && !entry->is_object()) {
            return fmt::format("/{}: expected an object of parameters, found {}", info.name,
                               Shown(*entry));
          }
          if (entry == by_policy.end()) {
            std::vector<std::string> names;
            for (const auto& item : by_policy.items()) {
              names.push_back(item.key());
            }
            return fmt::format("expected parameters for policy '{}', found {}", info.name,
                               names.empty() ? "none" : "those of " + QuotedList(names));
          }
          parser.ParsePolicyParams(*entry, info, s.policy.params,
                                   ChildPath("/policy/params", info.name));
          return std::string();
        });
  }

  // Reads `params` (found at `at`) into `out`.
  void ParsePolicyParams(const json& params, const PolicyInfo& info, PolicyParams& out,
                         const std::string& at = "/policy/params") {
    std::vector<std::string> known;
    for (const ParamSpec& spec : info.params) {
      known.push_back(spec.name);
    }
    for (const auto& item : params.items()) {
      if (std::find(known.begin(), known.end(), item.key()) == known.end()) {
        const std::string allowed = known.empty() ? "it has none" : "it has " + QuotedList(known);
        check_.Error(ChildPath(at, item.key()),
                     fmt::format("policy '{}' has no parameter '{}'{} ({})", info.name, item.key(),
                                 DidYouMean(item.key(), known), allowed));
      }
    }
    for (const ParamSpec& spec : info.params) {
      const auto it = params.find(spec.name);
      if (it == params.end()) {
        continue;
      }
      const std::string where = ChildPath(at, spec.name);
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
        case ParamType::kChoice:
          ParseChoice(*it, where, spec, out);
          break;
      }
    }
  }

  void ParseChoice(const json& value, const std::string& where, const ParamSpec& spec,
                   PolicyParams& out) {
    const std::string allowed = QuotedList(spec.choices);
    if (!value.is_string()) {
      check_.Error(where, fmt::format("expected one of {}, found {}", allowed, Shown(value)));
      return;
    }
    const std::string text = value.get<std::string>();
    if (std::find(spec.choices.begin(), spec.choices.end(), text) == spec.choices.end()) {
      check_.Error(where, fmt::format("expected one of {}, found '{}'{}", allowed, text,
                                      DidYouMean(text, spec.choices)));
      return;
    }
    out[spec.name] = text;
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

  // The listed jobs; from the cache when an equal array parsed cleanly before (on the same
  // catalog: a scenario's own catalog lives only as long as this parse, so not then).
  void ParseJobs(const json& root, Scenario& s) {
    const json* jobs = check_.Array(root, "", "jobs", false);
    if (jobs == nullptr) {
      return;
    }
    LoadCache* const cache = own_catalog_ ? nullptr : cache_;
    std::string text;
    if (cache != nullptr) {
      text = jobs->dump();
      if (auto cached = cache->FindListedJobs(text, &catalog_)) {
        s.listed_jobs = std::move(cached);
        return;
      }
    }
    const std::size_t diagnostics_before = diagnostics_.items().size();
    std::vector<Job> listed;
    for (std::size_t i = 0; i < jobs->size(); ++i) {
      const std::string path = ChildPath("/jobs", i);
      const json& item = (*jobs)[i];
      if (!item.is_object()) {
        check_.Error(path, fmt::format("expected a job object, found {}", Shown(item)));
        continue;
      }
      listed.push_back(ParseJobObject(item, path, check_));
      ResolveGpuModels(listed.back(), path);
    }
    s.listed_jobs = std::make_shared<const std::vector<Job>>(std::move(listed));
    if (cache != nullptr && diagnostics_.items().size() == diagnostics_before) {
      cache->RememberListedJobs(std::move(text), &catalog_, s.listed_jobs);
    }
  }

  // Listed jobs name GPU models the way traces do: each must name models of the scenario's
  // catalog, and is rewritten to their names (Catalog::CanonicalizeGpuModels).
  void ResolveGpuModels(Job& job, const std::string& path) {
    std::vector<std::string>& models = job.request.gpu_models;
    std::string unknown;
    if (EffectiveCatalog().CanonicalizeGpuModels(models, unknown)) {
      return;
    }
    const std::size_t k =
        static_cast<std::size_t>(std::find(models.begin(), models.end(), unknown) - models.begin());
    check_.Error(
        job.request.gres.empty() ? ChildPath(ChildPath(path, "gpu_models"), k)
                                 : ChildPath(path, "gres"),
        fmt::format("unknown GPU model '{}'{}", unknown, EffectiveCatalog().SuggestGpu(unknown)));
  }

  void ParseTrace(const json& root, Scenario& s) {
    const json* trace = check_.Object(root, "", "trace", false);
    if (trace == nullptr) {
      return;
    }
    const std::string path = "/trace";
    check_.UnknownKeys(*trace, path, {"format", "path", "options", "on_bad_row"});
    const auto format_name = check_.String(*trace, path, "format", true);
    const auto file = check_.String(*trace, path, "path", true);
    const auto on_bad_row = check_.String(*trace, path, "on_bad_row", false);
    const TraceFormat* format = format_name ? FindTraceFormat(*format_name) : nullptr;
    if (format_name && format == nullptr) {
      check_.Error("/trace/format",
                   fmt::format("unknown trace format '{}'{} (formats: {})", *format_name,
                               DidYouMean(*format_name, TraceFormatNames()),
                               QuotedList(TraceFormatNames())));
    }
    const std::optional<BadRowPolicy> policy = ParseBadRowPolicy(on_bad_row.value_or("fail"));
    if (!policy) {
      check_.Error("/trace/on_bad_row",
                   fmt::format("expected 'fail' or 'skip', found {}", Shown(json(*on_bad_row))));
    }
    std::map<std::string, std::string> given;
    if (const json* options = check_.Object(*trace, path, "options", false)) {
      for (const auto& item : options->items()) {
        if (item.value().is_string()) {
          given[item.key()] = item.value().get<std::string>();
        } else {
          check_.Error(ChildPath("/trace/options", item.key()),
                       fmt::format("expected the option's value as a string, found {}",
                                   Shown(item.value())));
        }
      }
    }
    if (format == nullptr || !file || !policy) {
      return;
    }
    TraceSource source{.format = format->name, .path = *file};
    source.on_bad_row = *policy;
    if (Status status = ResolveTraceOptions(*format, given, source.options); !status.ok()) {
      check_.Error("/trace/options", status.message());
      return;
    }
    source.resolved_path = ResolveBesideScenario(*file);
    const TraceReadOptions read{
        .on_bad_row = *policy, .catalog = &EffectiveCatalog(), .files = &files_};
    if (cache_ != nullptr && !own_catalog_) {
      CachedTrace cached = cache_->ReadTrace(*format, source.resolved_path, source.options, read);
      source.report = std::move(cached.report);
      source.jobs = std::move(cached.jobs);
    } else {  // a scenario's own catalog lives only as long as this parse: not cached
      Workload jobs;
      source.report = ReadTrace(*format, source.resolved_path, source.options, read, jobs);
      source.jobs = std::make_shared<const Workload>(std::move(jobs));
    }
    if (!source.report.ok()) {
      check_.Error("/trace", source.report.status.message());
      return;
    }
    for (std::string& line : source.report.SummaryLines()) {
      notes_.push_back(std::move(line));
    }
    s.trace = std::move(source);
  }

  // A path from the scenario file, taken relative to the scenario file's directory.
  std::string ResolveBesideScenario(const std::string& file) const {
    const std::filesystem::path given(file);
    if (given.is_absolute()) {
      return file;
    }
    return (std::filesystem::path(source_).parent_path() / given).lexically_normal().string();
  }

  void ParseGenerators(const json& root, Scenario& s) {
    GeneratorBlocks blocks = ParseGeneratorSections(root, check_);
    s.generator = std::move(blocks.generator);
    s.generators = std::move(blocks.generators);
  }

  // "tenants": names unique, parents listed, no cycles; shares > 0; quota and limit -1 or GPUs,
  // the limit at least the quota.
  void ParseTenants(const json& root, Scenario& s) {
    if (const auto it = root.find("tenants"); it != root.end() && it->is_string()) {
      ParseTenantsFile(it->get<std::string>(), s);
      return;
    }
    const json* tenants = check_.Array(root, "", "tenants", false);
    if (tenants == nullptr) {
      return;
    }
    std::vector<std::size_t> item_of;  // s.tenants[k] was read from tenants[item_of[k]]
    for (std::size_t i = 0; i < tenants->size(); ++i) {
      const std::string path = ChildPath("/tenants", i);
      const json& item = (*tenants)[i];
      if (!item.is_object()) {
        check_.Error(path, fmt::format("expected a tenant object, found {}", Shown(item)));
        continue;
      }
      check_.UnknownKeys(item, path,
                         {"name", "parent", "shares", "quota_gpus", "over_quota_weight",
                          "limit_gpus", "priority"});
      TenantSpec t;
      const std::optional<std::string> name = check_.String(item, path, "name", true);
      t.name = name.value_or("");
      if (name && !IsPlainName(*name)) {
        check_.Error(
            ChildPath(path, "name"),
            fmt::format("expected {}, found {}", kPlainNameExpectation, Shown(json(*name))));
      }
      t.parent = check_.String(item, path, "parent", false).value_or("");
      t.shares = check_.Real(item, path, "shares", {0, 1e9, true}, false).value_or(1);
      t.quota_gpus = check_.Int(item, path, "quota_gpus", {-1, kMaxJobGpus}, false).value_or(0);
      t.over_quota_weight =
          check_.Real(item, path, "over_quota_weight", {0, 1e9}, false).value_or(1);
      t.limit_gpus =
          check_.Int(item, path, "limit_gpus", {-1, kMaxJobGpus}, false).value_or(kUnlimitedGpus);
      t.priority = check_.Int(item, path, "priority", {0, kMaxPriority}, false).value_or(0);
      if (t.limit_gpus == 0) {
        check_.Error(ChildPath(path, "limit_gpus"),
                     "expected -1 (no limit) or at least 1 GPU, found 0");
      } else if (t.limit_gpus > 0 && t.limit_gpus < t.quota_gpus) {
        check_.Error(ChildPath(path, "limit_gpus"),
                     fmt::format("expected a limit of at least quota_gpus ({}), found {}",
                                 t.quota_gpus, t.limit_gpus));
      }
      s.tenants.push_back(std::move(t));
      item_of.push_back(i);
    }
    CheckTenantTree(s.tenants, item_of);
  }

  // Names distinct, every parent a listed tenant, no tenant its own ancestor; tenants[k] was read
  // from /tenants/item_of[k].
  void CheckTenantTree(const Organization& tenants, const std::vector<std::size_t>& item_of) {
    const auto where = [&item_of](std::size_t k, TenantField field) {
      return ChildPath(ChildPath("/tenants", item_of[k]),
                       field == TenantField::kName ? "name" : "parent");
    };
    for (const TenantProblem& problem : TenantTreeProblems(tenants, where)) {
      check_.Error(where(problem.index, problem.field), problem.message);
    }
  }

  void CheckIdsDistinct(const Scenario& s) {
    std::map<std::string, std::size_t> listed;
    const std::vector<Job>& listed_jobs = *s.listed_jobs;
    for (std::size_t i = 0; i < listed_jobs.size(); ++i) {
      const std::string& id = listed_jobs[i].request.id;
      if (id.empty()) {
        continue;
      }
      const auto [it, inserted] = listed.emplace(id, i);
      if (!inserted) {
        check_.Error(
            ChildPath(ChildPath("/jobs", i), "id"),
            fmt::format("duplicate job id '{}' (first used at /jobs/{}/id)", id, it->second));
      }
    }
    const std::vector<Job> no_jobs;
    const std::vector<Job>& traced = s.trace ? s.trace->jobs->jobs : no_jobs;
    for (const Job& job : traced) {
      if (const auto it = listed.find(job.request.id); it != listed.end()) {
        check_.Error("/trace", fmt::format("trace job id '{}' collides with /jobs/{}/id",
                                           job.request.id, it->second));
        break;
      }
    }
    CheckGeneratedIdsAgainstListed(s.generator, s.generators, listed_jobs, check_);
    if (s.generator) {
      CheckGeneratedIdsAgainstTrace(*s.generator, "/generator/id_prefix", traced);
    }
    for (std::size_t k = 0; k < s.generators.size(); ++k) {
      CheckGeneratedIdsAgainstTrace(s.generators[k],
                                    ChildPath(ChildPath("/generators", k), "id_prefix"), traced);
    }
  }

  void CheckGeneratedIdsAgainstTrace(const GeneratorSpec& spec, const std::string& where,
                                     const std::vector<Job>& traced) {
    for (const Job& job : traced) {
      if (IsGeneratedId(job.request.id, spec)) {
        check_.Error(where, fmt::format("generated id '{}' collides with a job of the trace; "
                                        "choose another id_prefix",
                                        job.request.id));
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
  LoadCache* cache_;                    // null: every trace is read, every job parsed
  const FileSystem& files_;             // where the catalog file and the trace are read from
  std::optional<Catalog> own_catalog_;  // the scenario's "fleet.catalog", when it has one
  std::string source_;
  bool fleet_valid_ = false;  // /fleet is present and has no error
  Diagnostics& diagnostics_;
  JsonChecker check_;
  std::vector<std::string>& notes_;
};

}  // namespace

LoadResult ParseScenario(const std::string& text, const std::string& source,
                         const PolicyRegistry& registry, const LoadOptions& options) {
  LoadResult result;
  json root;
  if (Status status = ParseJsonText(text, source, root); !status.ok()) {
    result.file_status = std::move(status);
    return result;
  }
  if (!root.is_object()) {
    result.diagnostics.Error("", fmt::format("expected a scenario object, found {}", Shown(root)));
    return result;
  }
  const Catalog& catalog = options.catalog == nullptr ? BuiltinCatalog() : *options.catalog;
  const FileSystem& files = options.files != nullptr ? *options.files : DiskFileSystem();
  Scenario scenario = ScenarioParser(registry, catalog, options.cache, files, source,
                                     result.diagnostics, result.notes)
                          .Parse(root);
  if (options.strict) {
    result.diagnostics.PromoteWarnings();
  }
  if (!result.diagnostics.HasErrors()) {
    result.scenario = std::move(scenario);
  }
  return result;
}

PolicyLoad ParsePolicyChoice(const std::string& text, const std::string& source,
                             const PolicyRegistry& registry, const LoadOptions& options) {
  PolicyLoad result;
  json policy;
  if (Status status = ParseJsonText(text, source, policy); !status.ok()) {
    result.file_status = std::move(status);
    return result;
  }
  const json root = {{"policy", std::move(policy)}};
  std::vector<std::string> notes;
  const Catalog unused;  // the policy block names no GPU
  const FileSystem& files = options.files != nullptr ? *options.files : DiskFileSystem();
  PolicyChoice choice =
      ScenarioParser(registry, unused, nullptr, files, source, result.diagnostics, notes)
          .ParsePolicyOnly(root);
  if (options.strict) {
    result.diagnostics.PromoteWarnings();
  }
  if (!result.diagnostics.HasErrors()) {
    result.policy = std::move(choice);
  }
  return result;
}

LoadResult LoadScenarioFile(const std::string& path, const PolicyRegistry& registry,
                            const LoadOptions& options) {
  const FileSystem& files = options.files != nullptr ? *options.files : DiskFileSystem();
  std::string text;
  if (Status status = files.ReadFile(path, text); !status.ok()) {
    LoadResult result;
    result.file_status = std::move(status);
    return result;
  }
  return ParseScenario(text, path, registry, options);
}

Workload BuildWorkload(const Scenario& scenario, std::uint64_t seed) {
  return BuildWorkloadWithNotes(scenario, seed).workload;
}

BuiltWorkload BuildWorkloadWithNotes(const Scenario& scenario, std::uint64_t seed) {
  BuiltWorkload built;
  Workload& workload = built.workload;
  workload.jobs = *scenario.listed_jobs;
  if (scenario.trace) {
    const std::vector<Job>& traced = scenario.trace->jobs->jobs;
    workload.jobs.insert(workload.jobs.end(), traced.begin(), traced.end());
  }
  const RandomStreams streams(seed, 0);
  std::size_t block = 0;
  if (scenario.generator) {
    GenerateJobs(*scenario.generator, streams, workload, GeneratorStreamName(block++));
  }
  for (const GeneratorSpec& spec : scenario.generators) {
    GenerateJobs(spec, streams, workload, GeneratorStreamName(block++));
  }
  for (std::size_t i = 0; i < scenario.transforms.size(); ++i) {
    const TransformSpec& transform = scenario.transforms[i];
    for (const std::string& note : ApplyTransform(transform, i, streams, workload).notes) {
      built.notes.push_back(
          fmt::format("/transforms/{} ({}): {}", i, TransformName(transform), note));
    }
  }
  SortBySubmit(workload);
  return built;
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
    // Every other field, as its native JSON, for jobs that set any (so workloads of jobs with
    // only the fields above keep the digest they had before the job model grew).
    nlohmann::ordered_json rest = JobToJson(job);
    for (const char* key : {"id", "submit_s", "gpus", "priority", "duration_s"}) {
      rest.erase(key);
    }
    if (!rest.empty()) {
      mix(rest.dump());
    }
  }
  return fmt::format("fnv1a64:{:016x}", hash);
}

}  // namespace fleetsim
