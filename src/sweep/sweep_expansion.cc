// Expanding a sweep spec into points: the product of its axes over every base scenario, each
// point's document built from the base by the axes' edits and loaded by the scenario loader.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "fleetsim/core/random.h"
#include "fleetsim/core/version.h"
#include "fleetsim/fleet/catalog_loader.h"
#include "fleetsim/scenario/load_cache.h"
#include "fleetsim/sweep/sweep_spec.h"
#include "json/json_text.h"

namespace fleetsim {

namespace {

using json = nlohmann::json;

// One factor of the product: an axis alone, or a zip group, whose axes take value k together.
struct Dimension {
  std::vector<std::size_t> axes;
  std::size_t size = 0;
};

std::vector<Dimension> Dimensions(const SweepSpec& spec) {
  std::vector<Dimension> dimensions;
  std::set<std::size_t> placed;
  for (std::size_t a = 0; a < spec.axes.size(); ++a) {
    if (placed.count(a) != 0) {
      continue;
    }
    Dimension d{.axes = {a}, .size = spec.axes[a].values.size()};
    for (const std::vector<std::size_t>& group : spec.zip) {
      if (std::find(group.begin(), group.end(), a) != group.end()) {
        d.axes = group;
      }
    }
    placed.insert(d.axes.begin(), d.axes.end());
    dimensions.push_back(std::move(d));
  }
  return dimensions;
}

bool Excluded(const SweepSpec& spec, const std::vector<std::size_t>& choice) {
  return std::any_of(spec.exclude.begin(), spec.exclude.end(), [&](const ExcludeRule& rule) {
    return std::all_of(rule.axes.begin(), rule.axes.end(), [&](const auto& entry) {
      const std::string& label = spec.axes[entry.first].values[choice[entry.first]].label;
      return std::find(entry.second.begin(), entry.second.end(), label) != entry.second.end();
    });
  });
}

std::string PolicyOf(const json& document) {
  if (document.contains("policy") && document["policy"].is_object() &&
      document["policy"].contains("name") && document["policy"]["name"].is_string()) {
    return document["policy"]["name"].get<std::string>();
  }
  return PolicyChoice{}.name;
}

// The seed a document that did not load names, if it names a valid one.
std::uint64_t SeedWritten(const json& document) {
  const auto seed = document.find("seed");
  return seed != document.end() && seed->is_number_unsigned() ? seed->get<std::uint64_t>()
                                                              : kDefaultSeed;
}

bool Declares(const PolicyRegistry& registry, const std::string& policy, const std::string& param) {
  const PolicyInfo* info = registry.Find(policy);
  return info != nullptr && std::any_of(info->params.begin(), info->params.end(),
                                        [&](const ParamSpec& spec) { return spec.name == param; });
}

class Expander {
 public:
  Expander(const SweepSpec& spec, const PolicyRegistry& registry, const ExpandOptions& options)
      : spec_(spec), registry_(registry), options_(options) {}

  SweepExpansion Expand() {
    std::vector<json> bases = LoadBases();
    if (!out_.errors.empty()) {
      return std::move(out_);
    }
    const std::vector<Dimension> dimensions = Dimensions(spec_);
    std::size_t combinations = 1;
    for (const Dimension& d : dimensions) {
      combinations *= d.size;
      if (combinations * bases.size() > kMaxSweepPoints) {
        out_.errors.push_back(fmt::format("{}: the spec expands to more than {} points",
                                          spec_.source, kMaxSweepPoints));
        return std::move(out_);
      }
    }
    for (std::size_t b = 0; b < bases.size(); ++b) {
      std::vector<std::size_t> odometer(dimensions.size(), 0);
      for (std::size_t c = 0; c < combinations; ++c) {
        std::vector<std::size_t> choice(spec_.axes.size(), 0);
        for (std::size_t d = 0; d < dimensions.size(); ++d) {
          for (const std::size_t a : dimensions[d].axes) {
            choice[a] = odometer[d];
          }
        }
        AddPoint(b, bases[b], choice);
        Advance(odometer, dimensions);
      }
    }
    return std::move(out_);
  }

 private:
  static void Advance(std::vector<std::size_t>& odometer, const std::vector<Dimension>& dims) {
    for (std::size_t d = dims.size(); d-- > 0;) {
      if (++odometer[d] < dims[d].size) {
        return;
      }
      odometer[d] = 0;
    }
  }

  std::vector<json> LoadBases() {
    std::vector<json> bases;
    for (const std::string& path : spec_.base) {
      std::string text;
      json root;
      Status status = files_.ReadFile(path, text);
      if (status.ok()) {
        status = ParseJsonText(text, path, root);
      }
      if (status.ok() && !root.is_object()) {
        status = Status::InvalidInput(fmt::format("{}: expected a scenario object, found {}", path,
                                                  root.is_array() ? "an array" : "another value"));
      }
      if (!status.ok()) {
        out_.errors.push_back(status.message());
      }
      bases.push_back(std::move(root));
    }
    return bases;
  }

  void AddPoint(std::size_t base, const json& base_document,
                const std::vector<std::size_t>& choice) {
    if (Excluded(spec_, choice)) {
      ++out_.excluded;
      return;
    }
    const Document* document = DocumentFor(base, base_document, choice);
    if (document == nullptr) {
      return;
    }
    SweepPoint point;
    point.base = base;
    point.labels = document->labels;
    point.scenario = document->scenario_name;
    point.policy = document->policy;
    point.scenario_loaded = document->scenario;
    point.error = document->error;
    point.seed = document->seed;
    for (std::size_t a = 0; a < spec_.axes.size(); ++a) {
      if (spec_.axes[a].target == AxisTarget::kSeed) {
        point.labels[a] = spec_.axes[a].values[choice[a]].label;
        point.seed = spec_.axes[a].values[choice[a]].value.get<std::uint64_t>();
      }
    }
    point.id = fmt::format(
        "{:016x}", Fnv1a64(fmt::format("fleetsim {}\n{}\n{}\nseed {}", kVersion,
                                       spec_.base_given[base], document->digest, point.seed)));
    if (!ids_.insert(point.id).second) {
      ++out_.duplicates;
      return;
    }
    point.index = out_.points.size();
    out_.points.push_back(std::move(point));
  }

  // A point's scenario document, which the seed axis does not change: built and loaded once per
  // base and choice of the other axes. Null when a pointer points to nothing.
  struct Document {
    std::vector<std::string> labels;  // the seed axis's left empty
    std::string digest;               // of the document's text (compact JSON, sorted keys)
    std::string scenario_name;
    std::string policy;
    std::uint64_t seed = kDefaultSeed;  // the document's own
    std::shared_ptr<const Scenario> scenario;
    std::string error;
  };

  const Document* DocumentFor(std::size_t base, const json& base_document,
                              const std::vector<std::size_t>& choice) {
    const auto [it, inserted] = documents_.try_emplace(
        KeyOf(base, choice, [](AxisTarget target) { return target != AxisTarget::kSeed; }));
    if (inserted) {
      it->second = BuildDocument(base, base_document, choice);
    }
    return it->second ? &*it->second : nullptr;
  }

  // The choice of the axes `kept` holds (the others' left 0), followed by the base.
  template <typename Kept>
  std::vector<std::size_t> KeyOf(std::size_t base, const std::vector<std::size_t>& choice,
                                 Kept kept) const {
    std::vector<std::size_t> key = choice;
    for (std::size_t a = 0; a < spec_.axes.size(); ++a) {
      if (!kept(spec_.axes[a].target)) {
        key[a] = 0;
      }
    }
    key.push_back(base);
    return key;
  }

  std::optional<Document> BuildDocument(std::size_t base, const json& base_document,
                                        const std::vector<std::size_t>& choice) {
    Document d;
    json document = base_document;
    for (std::size_t a = 0; a < spec_.axes.size(); ++a) {
      const SweepAxis& axis = spec_.axes[a];
      d.labels.push_back(axis.target == AxisTarget::kSeed ? "" : axis.values[choice[a]].label);
      if (axis.target == AxisTarget::kVariant) {
        document.merge_patch(axis.values[choice[a]].value);
      }
    }
    if (!ApplyPointers(base, choice, document)) {
      return std::nullopt;
    }
    ApplyPolicy(d.labels, choice, document);
    const std::string text = document.dump();
    d.digest = fmt::format("{:016x}", Fnv1a64(text));
    d.scenario_name = document.contains("name") && document["name"].is_string()
                          ? document["name"].get<std::string>()
                          : spec_.base_given[base];
    d.policy = PolicyOf(document);
    const std::uint64_t seed_written = SeedWritten(document);
    if (has_policy_axes_) {
      d.scenario = LoadInParts(base, choice, std::move(document));
    }
    if (!d.scenario) {
      LoadWhole(base, text, d);
    }
    d.seed = d.scenario ? d.scenario->seed : seed_written;
    return d;
  }

  // Whether `pointer` can be set in `document`: its parent is there and is an object, or an
  // array that holds the element. nlohmann's contains() throws, rather than answering no, for a
  // token that cannot index an array it meets (such as "" in "/fleet/pools//nodes").
  static bool Settable(const json& document, const json::json_pointer& pointer) {
    const json::json_pointer parent = pointer.parent_pointer();
    try {
      return document.contains(parent) &&
             (document.at(parent).is_object() ||
              (document.at(parent).is_array() && document.contains(pointer)));
    } catch (const json::exception&) {
      return false;
    }
  }

  // Sets each pointer axis's value; a pointer whose parent is not in the document is a fault of
  // the spec, reported once per axis and base.
  bool ApplyPointers(std::size_t base, const std::vector<std::size_t>& choice, json& document) {
    for (std::size_t a = 0; a < spec_.axes.size(); ++a) {
      const SweepAxis& axis = spec_.axes[a];
      if (axis.target != AxisTarget::kPointer) {
        continue;
      }
      const json::json_pointer pointer(axis.path);
      if (!Settable(document, pointer)) {
        if (bad_pointers_.insert({a, base}).second) {
          out_.errors.push_back(
              fmt::format("{}: /axes/{}/pointer: \"{}\" points to nothing in '{}'{}", spec_.source,
                          a, Quoted(axis.path), spec_.base_given[base],
                          HasVariants() ? " (after the point's variants are applied)" : ""));
        }
        return false;
      }
      document[pointer] = axis.values[choice[a]].value;
    }
    return true;
  }

  bool HasVariants() const {
    return std::any_of(spec_.axes.begin(), spec_.axes.end(),
                       [](const SweepAxis& a) { return a.target == AxisTarget::kVariant; });
  }

  // The policy axis's name (keeping the base's parameters when it names the same policy), then
  // the parameters the resulting policy declares; the others do not apply to this point.
  void ApplyPolicy(std::vector<std::string>& labels, const std::vector<std::size_t>& choice,
                   json& document) {
    for (std::size_t a = 0; a < spec_.axes.size(); ++a) {
      const SweepAxis& axis = spec_.axes[a];
      if (axis.target == AxisTarget::kPolicy) {
        const std::string name = axis.values[choice[a]].label;
        if (PolicyOf(document) != name || !document.contains("policy")) {
          document["policy"] = json{{"name", name}};
        }
      }
    }
    const std::string policy = PolicyOf(document);
    for (std::size_t a = 0; a < spec_.axes.size(); ++a) {
      const SweepAxis& axis = spec_.axes[a];
      if (axis.target != AxisTarget::kPolicyParam) {
        continue;
      }
      if (Declares(registry_, policy, axis.path)) {
        document["policy"]["params"][axis.path] = axis.values[choice[a]].value;
      } else {
        labels[a].clear();
      }
    }
  }

  // A document loaded as two parts that the loader checks independently: its "policy" block, and
  // the rest, which only the variant and pointer axes change, loaded once for all the points that
  // differ only in their policy axes. Null unless both parts load without a single diagnostic:
  // a document with an error or a warning is loaded whole, so that its messages are the loader's
  // own, in its order.
  std::shared_ptr<const Scenario> LoadInParts(std::size_t base,
                                              const std::vector<std::size_t>& choice,
                                              json document) {
    const auto policy = document.find("policy");
    if (policy == document.end()) {
      return RestFor(base, choice, document);
    }
    const std::string policy_text = policy->dump();
    document.erase(policy);
    const std::shared_ptr<const Scenario> rest = RestFor(base, choice, document);
    if (!rest) {
      return nullptr;
    }
    PolicyLoad policy_load = ParsePolicyChoice(policy_text, spec_.base[base], registry_,
                                               {.strict = options_.strict, .files = &files_});
    if (!policy_load.policy || !policy_load.diagnostics.empty()) {
      return nullptr;
    }
    Scenario scenario = *rest;
    scenario.policy = std::move(*policy_load.policy);
    return std::make_shared<const Scenario>(std::move(scenario));
  }

  // The document without its "policy" block, loaded once per choice of the variant and pointer
  // axes; null if it has any diagnostic.
  std::shared_ptr<const Scenario> RestFor(std::size_t base, const std::vector<std::size_t>& choice,
                                          const json& rest) {
    const auto [it, inserted] = rests_.try_emplace(KeyOf(base, choice, [](AxisTarget target) {
      return target == AxisTarget::kVariant || target == AxisTarget::kPointer;
    }));
    if (inserted) {
      LoadResult result = LoadText(base, rest.dump());
      if (result.scenario && result.diagnostics.empty()) {
        it->second = std::make_shared<const Scenario>(std::move(*result.scenario));
      }
    }
    return it->second;
  }

  // Loads the document's text with the scenario loader: its scenario, or its error.
  void LoadWhole(std::size_t base, const std::string& text, Document& d) {
    LoadResult result = LoadText(base, text);
    if (!result.scenario) {
      d.error = result.file_status.ok() ? result.diagnostics.Format(spec_.base_given[base])
                                        : result.file_status.message();
      while (!d.error.empty() && d.error.back() == '\n') {
        d.error.pop_back();
      }
      return;
    }
    AddWarnings(base, result.diagnostics);
    d.scenario = std::make_shared<const Scenario>(std::move(*result.scenario));
  }

  // Loads `text` as if it had been written in the base file.
  LoadResult LoadText(std::size_t base, const std::string& text) {
    return ParseScenario(
        text, spec_.base[base], registry_,
        {.strict = options_.strict, .catalog = &catalog_, .cache = &cache_, .files = &files_});
  }

  void AddWarnings(std::size_t base, const Diagnostics& diagnostics) {
    for (const Diagnostic& diagnostic : diagnostics.items()) {
      if (diagnostic.severity == Severity::kWarning) {
        AddWarning(fmt::format("{}: {}: warning: {}", spec_.base_given[base], diagnostic.where,
                               diagnostic.message));
      }
    }
  }

  void AddWarning(std::string warning) {
    if (warned_.insert(warning).second) {
      out_.warnings.push_back(std::move(warning));
    }
  }

  const SweepSpec& spec_;
  const PolicyRegistry& registry_;
  const ExpandOptions& options_;
  // Whether an axis changes the policy or its parameters: only then do points share the rest of
  // their document, and loading it apart pays (without, each point would hold two scenarios).
  const bool has_policy_axes_ =
      std::any_of(spec_.axes.begin(), spec_.axes.end(), [](const SweepAxis& axis) {
        return axis.target == AxisTarget::kPolicy || axis.target == AxisTarget::kPolicyParam;
      });
  const FileSystem& files_ = spec_.files != nullptr ? *spec_.files : DiskFileSystem();
  // The catalog points load against (the built-in one unless the options give one).
  const Catalog& catalog_ = options_.catalog != nullptr ? *options_.catalog : BuiltinCatalog();
  LoadCache cache_;  // each trace the points replay is read once, each job list parsed once
  SweepExpansion out_;
  std::set<std::string> ids_;
  std::set<std::pair<std::size_t, std::size_t>> bad_pointers_;
  std::map<std::vector<std::size_t>, std::optional<Document>> documents_;
  // Documents without their "policy" block, by KeyOf the variant and pointer axes (RestFor).
  std::map<std::vector<std::size_t>, std::shared_ptr<const Scenario>> rests_;
  std::set<std::string> warned_;
};

}  // namespace

SweepExpansion ExpandSweep(const SweepSpec& spec, const PolicyRegistry& registry,
                           const ExpandOptions& options) {
  return Expander(spec, registry, options).Expand();
}

std::string DescribePoint(const SweepSpec& spec, const SweepPoint& point) {
  std::string text =
      fmt::format("scenario={}, policy={}, seed={}", point.scenario, point.policy, point.seed);
  for (std::size_t a = 0; a < spec.axes.size() && a < point.labels.size(); ++a) {
    const AxisTarget target = spec.axes[a].target;
    if (target != AxisTarget::kPolicy && target != AxisTarget::kSeed && !point.labels[a].empty()) {
      text += fmt::format(", {}={}", spec.axes[a].name, point.labels[a]);
    }
  }
  return text;
}

}  // namespace fleetsim
