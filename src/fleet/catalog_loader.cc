// Catalog parsing and validation: GPU models (specs, prices, MIG profiles from a named slice
// geometry), node templates and sources, merged over a base catalog.
#include "fleetsim/fleet/catalog_loader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string_view>

#include "fleetsim/core/check.h"
#include "json/json_checker.h"
#include "json/json_text.h"

namespace fleetsim::generated {
const char* BuiltinCatalogJson();
}  // namespace fleetsim::generated

namespace fleetsim {

namespace {

using nlohmann::json;

constexpr RealRange kNonNegative{0, 1e12};
constexpr RealRange kPositive{0, 1e12, true};

const std::vector<std::string> kVerifiableFields = {"memory_gb", "memory_bandwidth_tbs",
                                                    "bf16",      "fp8",
                                                    "fp4",       "nvlink_gbs",
                                                    "tdp_w",     "mig",
                                                    "on_demand", "reserved",
                                                    "spot"};

// Whether `name` is non-empty and made of letters, digits and the characters of `others`.
bool MadeOf(const std::string& name, std::string_view others) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [&](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           others.find(c) != std::string_view::npos;
  });
}

bool IsValidCatalogName(const std::string& name) { return MadeOf(name, "._-"); }

// As NVIDIA writes them: "1g.10gb+me".
bool IsValidProfileName(const std::string& name) { return MadeOf(name, "._+-"); }

// "3g.40gb" -> 40; "1g.10gb+me" -> 10; 0 when the name carries no size.
// The first ".<digits>gb" or ".<digits>.<digits>gb" in the name gives the size.
double MemoryFromProfileName(const std::string& name) {
  const auto digits_from = [&](std::size_t at) {
    while (at < name.size() && name[at] >= '0' && name[at] <= '9') {
      ++at;
    }
    return at;
  };
  for (std::size_t dot = name.find('.'); dot != std::string::npos; dot = name.find('.', dot + 1)) {
    const std::size_t whole_end = digits_from(dot + 1);
    if (whole_end == dot + 1) {
      continue;
    }
    std::size_t end = whole_end;
    if (end < name.size() && name[end] == '.' && digits_from(end + 1) > end + 1 &&
        name.compare(digits_from(end + 1), 2, "gb") == 0) {
      end = digits_from(end + 1);
    }
    if (name.compare(end, 2, "gb") == 0) {
      const double gb = std::strtod(name.substr(dot + 1, end - dot - 1).c_str(), nullptr);
      return std::isfinite(gb) ? gb : 0.0;  // out of range: no usable size in the name
    }
  }
  return 0.0;
}

class CatalogParser {
 public:
  CatalogParser(const Catalog& base, Diagnostics& diagnostics) : base_(base), check_(diagnostics) {}

  Catalog Parse(const json& root) {
    check_.UnknownKeys(root, "",
                       {"format_version", "sources", "mig_geometries", "gpus", "node_templates"});
    if (const auto v = check_.Int(root, "", "format_version", {1, 1000}, true); v && *v != 1) {
      check_.Error("/format_version",
                   fmt::format("unsupported catalog format version {}; this fleetsim reads 1", *v));
    }
    Catalog merged = base_;
    geometries_ = merged.mig_geometries;
    ParseSources(root, merged);
    ParseGeometries(root);
    merged.mig_geometries = geometries_;
    std::vector<GpuModel> gpus = ParseGpus(root, merged);
    for (GpuModel& gpu : gpus) {
      Upsert(merged.gpus, std::move(gpu));
    }
    CheckDistinctGpuNames(merged);
    std::vector<NodeTemplate> templates = ParseTemplates(root, merged);
    for (NodeTemplate& t : templates) {
      Upsert(merged.node_templates, std::move(t));
    }
    return merged;
  }

 private:
  template <typename T>
  static void Upsert(std::vector<T>& items, T item) {
    const auto it = std::find_if(items.begin(), items.end(),
                                 [&](const T& existing) { return existing.name == item.name; });
    if (it == items.end()) {
      items.push_back(std::move(item));
    } else {
      *it = std::move(item);
    }
  }

  // Lookups compare normalized names (NormalizedGpuName), so no two models may share one.
  void CheckDistinctGpuNames(const Catalog& merged) {
    std::map<std::string, std::string> owner;  // normalized name -> model
    for (const GpuModel& gpu : merged.gpus) {
      std::vector<std::string> names = {gpu.name};
      names.insert(names.end(), gpu.aliases.begin(), gpu.aliases.end());
      for (const std::string& name : names) {
        const auto [it, added] = owner.emplace(NormalizedGpuName(name), gpu.name);
        if (!added && it->second != gpu.name) {
          check_.Error("/gpus", fmt::format("GPU models '{}' and '{}' both answer to the name '{}' "
                                            "(names are compared ignoring case, '_' and ' ' for "
                                            "'-', and a leading 'NVIDIA' or 'Tesla')",
                                            it->second, gpu.name, name));
        }
      }
    }
  }

  // A number in `range`, or null / absent (nullopt).
  std::optional<double> NullableReal(const json& object, const std::string& path,
                                     const std::string& key, RealRange range) {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) {
      return std::nullopt;
    }
    return check_.RealValue(*it, ChildPath(path, key), range);
  }

  std::optional<std::string> Name(const json& object, const std::string& path) {
    const auto name = check_.String(object, path, "name", true);
    if (name && !IsValidCatalogName(*name)) {
      check_.Error(ChildPath(path, "name"),
                   fmt::format("expected a name of letters, digits, '.', '_' or '-', found {}",
                               Shown(json(*name))));
      return std::nullopt;
    }
    return name;
  }

  void ParseSources(const json& root, Catalog& merged) {
    const json* sources = check_.Object(root, "", "sources", false);
    if (sources == nullptr) {
      return;
    }
    for (const auto& item : sources->items()) {
      if (!item.value().is_string()) {
        check_.Error(ChildPath("/sources", item.key()),
                     fmt::format("expected a citation string, found {}", Shown(item.value())));
        continue;
      }
      merged.sources[item.key()] = item.value().get<std::string>();
    }
  }

  std::vector<std::string> SourceTags(const json& object, const std::string& path,
                                      const Catalog& merged) {
    std::vector<std::string> tags;
    const json* list = check_.Array(object, path, "sources", false);
    if (list == nullptr) {
      return tags;
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
      const json& tag = (*list)[i];
      const std::string where = ChildPath(ChildPath(path, "sources"), i);
      if (!tag.is_string()) {
        check_.Error(where, fmt::format("expected a source tag, found {}", Shown(tag)));
      } else if (merged.sources.count(tag.get<std::string>()) == 0) {
        check_.Error(where,
                     fmt::format("unknown source '{}' (not in /sources)", tag.get<std::string>()));
      } else {
        tags.push_back(tag.get<std::string>());
      }
    }
    return tags;
  }

  void ParseGeometries(const json& root) {
    const json* geometries = check_.Object(root, "", "mig_geometries", false);
    if (geometries == nullptr) {
      return;
    }
    for (const auto& item : geometries->items()) {
      const std::string path = ChildPath("/mig_geometries", item.key());
      if (!item.value().is_array()) {
        check_.Error(
            path, fmt::format("expected an array of profile kinds, found {}", Shown(item.value())));
        continue;
      }
      std::map<std::string, MigProfile>& kinds = geometries_[item.key()];
      for (std::size_t i = 0; i < item.value().size(); ++i) {
        if (auto kind = ParseKind(item.value()[i], ChildPath(path, i))) {
          kinds[kind->name] = *kind;
        }
      }
    }
  }

  std::optional<MigProfile> ParseKind(const json& entry, const std::string& path) {
    if (!entry.is_object()) {
      check_.Error(path, fmt::format("expected a profile kind object, found {}", Shown(entry)));
      return std::nullopt;
    }
    check_.UnknownKeys(
        entry, path,
        {"kind", "compute_slices", "memory_slices", "starts", "max_instances", "media_extensions"});
    MigProfile p;
    const auto kind = check_.String(entry, path, "kind", true);
    const auto compute = check_.Int(entry, path, "compute_slices", {1, kMigComputeSlices}, true);
    const auto memory = check_.Int(entry, path, "memory_slices", {1, kMigMemorySlices}, true);
    const auto max = check_.Int(entry, path, "max_instances", {1, kMigMaxInstances}, true);
    const json* starts = check_.Array(entry, path, "starts", true);
    if (!kind || !compute || !memory || !max || starts == nullptr) {
      return std::nullopt;
    }
    if (*compute > *memory) {
      check_.Error(ChildPath(path, "compute_slices"),
                   fmt::format("expected at most memory_slices ({}), found {}", *memory, *compute));
      return std::nullopt;
    }
    const auto media = entry.find("media_extensions");
    p.media_extensions = media != entry.end() && media->is_boolean() && media->get<bool>();
    for (std::size_t i = 0; i < starts->size(); ++i) {
      const auto s = check_.IntValue((*starts)[i], ChildPath(ChildPath(path, "starts"), i),
                                     {0, kMigMemorySlices - *memory});
      if (!s) {
        return std::nullopt;
      }
      p.starts.push_back(static_cast<int>(*s));
    }
    std::sort(p.starts.begin(), p.starts.end());
    if (p.starts.empty() ||
        std::adjacent_find(p.starts.begin(), p.starts.end()) != p.starts.end()) {
      check_.Error(ChildPath(path, "starts"), "expected distinct starts, at least one");
      return std::nullopt;
    }
    p.name = *kind;
    p.compute_slices = static_cast<int>(*compute);
    p.memory_slices = static_cast<int>(*memory);
    p.max_instances = static_cast<int>(*max);
    return p;
  }

  // The objects of array `key`, each parsed by `parse` and named uniquely; `what` names one in
  // messages ("GPU model").
  template <typename T, typename Parse>
  std::vector<T> ParseNamedList(const json& root, const std::string& key, const std::string& what,
                                Parse parse) {
    std::vector<T> items;
    const json* list = check_.Array(root, "", key, false);
    if (list == nullptr) {
      return items;
    }
    std::set<std::string> seen;
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string path = ChildPath("/" + key, i);
      if (!(*list)[i].is_object()) {
        check_.Error(path, fmt::format("expected a {} object, found {}", what, Shown((*list)[i])));
        continue;
      }
      std::optional<T> item = parse((*list)[i], path);
      if (!item) {
        continue;
      }
      if (!seen.insert(item->name).second) {
        check_.Error(ChildPath(path, "name"),
                     fmt::format("{} '{}' is defined twice", what, item->name));
        continue;
      }
      items.push_back(std::move(*item));
    }
    return items;
  }

  std::vector<GpuModel> ParseGpus(const json& root, const Catalog& merged) {
    return ParseNamedList<GpuModel>(
        root, "gpus", "GPU model",
        [&](const json& g, const std::string& path) { return ParseGpu(g, path, merged); });
  }

  std::optional<GpuModel> ParseGpu(const json& g, const std::string& path, const Catalog& merged) {
    check_.UnknownKeys(g, path,
                       {"name", "aliases", "description", "memory_gb", "memory_bandwidth_tbs",
                        "dense_tflops", "nvlink_gbs", "tdp_w", "mig", "price_per_gpu_hour",
                        "price_notes", "sources", "unverified"});
    GpuModel m;
    const auto name = Name(g, path);
    const auto memory = check_.Real(g, path, "memory_gb", kPositive, true);
    m.description = check_.String(g, path, "description", false).value_or("");
    m.memory_bandwidth_tbs = NullableReal(g, path, "memory_bandwidth_tbs", kNonNegative);
    if (const json* tflops = check_.Object(g, path, "dense_tflops", false)) {
      const std::string tpath = ChildPath(path, "dense_tflops");
      check_.UnknownKeys(*tflops, tpath, {"bf16", "fp8", "fp4"});
      m.bf16_dense_tflops = NullableReal(*tflops, tpath, "bf16", kNonNegative);
      m.fp8_dense_tflops = NullableReal(*tflops, tpath, "fp8", kNonNegative);
      m.fp4_dense_tflops = NullableReal(*tflops, tpath, "fp4", kNonNegative);
    }
    m.nvlink_gbs = NullableReal(g, path, "nvlink_gbs", kNonNegative).value_or(0);
    m.tdp_w = NullableReal(g, path, "tdp_w", kNonNegative);
    if (const json* prices = check_.Object(g, path, "price_per_gpu_hour", false)) {
      const std::string ppath = ChildPath(path, "price_per_gpu_hour");
      check_.UnknownKeys(*prices, ppath, {"on_demand", "reserved", "spot"});
      m.prices.on_demand = NullableReal(*prices, ppath, "on_demand", kNonNegative);
      m.prices.reserved = NullableReal(*prices, ppath, "reserved", kNonNegative);
      m.prices.spot = NullableReal(*prices, ppath, "spot", kNonNegative);
    }
    m.sources = SourceTags(g, path, merged);
    m.unverified = Unverified(g, path);
    m.aliases = Aliases(g, path);
    if (g.contains("mig") && !g["mig"].is_null()) {
      m.mig_profiles = MigProfiles(g["mig"], ChildPath(path, "mig"));
    }
    if (!name || !memory) {
      return std::nullopt;
    }
    m.name = *name;
    m.memory_gb = *memory;
    return m;
  }

  std::vector<std::string> Aliases(const json& g, const std::string& path) {
    std::vector<std::string> aliases;
    const json* list = check_.Array(g, path, "aliases", false);
    if (list == nullptr) {
      return aliases;
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
      const json& a = (*list)[i];
      if (!a.is_string() || !IsValidCatalogName(a.get<std::string>())) {
        check_.Error(
            ChildPath(ChildPath(path, "aliases"), i),
            fmt::format("expected a name of letters, digits, '.', '_' or '-', found {}", Shown(a)));
        continue;
      }
      aliases.push_back(a.get<std::string>());
    }
    return aliases;
  }

  std::vector<std::string> Unverified(const json& g, const std::string& path) {
    std::vector<std::string> fields;
    const json* list = check_.Array(g, path, "unverified", false);
    if (list == nullptr) {
      return fields;
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
      const json& f = (*list)[i];
      const std::string where = ChildPath(ChildPath(path, "unverified"), i);
      if (!f.is_string() || std::find(kVerifiableFields.begin(), kVerifiableFields.end(),
                                      f.get<std::string>()) == kVerifiableFields.end()) {
        const std::string found = f.is_string() ? f.get<std::string>() : Shown(f);
        check_.Error(where,
                     fmt::format("expected one of {}, found '{}'{}", QuotedList(kVerifiableFields),
                                 found, f.is_string() ? DidYouMean(found, kVerifiableFields) : ""));
        continue;
      }
      fields.push_back(f.get<std::string>());
    }
    return fields;
  }

  std::vector<MigProfile> MigProfiles(const json& mig, const std::string& path) {
    std::vector<MigProfile> profiles;
    if (!mig.is_object()) {
      check_.Error(path, fmt::format("expected an object or null, found {}", Shown(mig)));
      return profiles;
    }
    check_.UnknownKeys(mig, path, {"geometry", "profiles"});
    const auto geometry = check_.String(mig, path, "geometry", true);
    const json* names = check_.Object(mig, path, "profiles", true);
    if (!geometry || names == nullptr) {
      return profiles;
    }
    const auto geo = geometries_.find(*geometry);
    if (geo == geometries_.end()) {
      std::vector<std::string> known;
      for (const auto& [key, kinds] : geometries_) {
        known.push_back(key);
      }
      check_.Error(ChildPath(path, "geometry"),
                   fmt::format("unknown MIG geometry '{}'{} (defined: {})", *geometry,
                               DidYouMean(*geometry, known), QuotedList(known)));
      return profiles;
    }
    std::vector<std::string> kinds;
    for (const auto& [kind, profile] : geo->second) {
      kinds.push_back(kind);
    }
    std::set<std::string> seen_names;
    for (const auto& item : names->items()) {
      const std::string where = ChildPath(ChildPath(path, "profiles"), item.key());
      const auto kind = geo->second.find(item.key());
      if (kind == geo->second.end()) {
        check_.Error(where,
                     fmt::format("geometry '{}' has no profile kind '{}'{} (kinds: {})", *geometry,
                                 item.key(), DidYouMean(item.key(), kinds), QuotedList(kinds)));
        continue;
      }
      if (!item.value().is_string() || !IsValidProfileName(item.value().get<std::string>()) ||
          !seen_names.insert(item.value().get<std::string>()).second) {
        check_.Error(where, fmt::format("expected a distinct profile name such as \"3g.40gb\", "
                                        "found {}",
                                        Shown(item.value())));
        continue;
      }
      MigProfile p = kind->second;
      p.name = item.value().get<std::string>();
      p.memory_gb = MemoryFromProfileName(p.name);
      profiles.push_back(std::move(p));
    }
    std::sort(profiles.begin(), profiles.end(), [](const MigProfile& a, const MigProfile& b) {
      return std::tie(a.compute_slices, a.memory_slices, a.media_extensions, a.name) <
             std::tie(b.compute_slices, b.memory_slices, b.media_extensions, b.name);
    });
    return profiles;
  }

  std::vector<NodeTemplate> ParseTemplates(const json& root, const Catalog& merged) {
    return ParseNamedList<NodeTemplate>(
        root, "node_templates", "node template",
        [&](const json& n, const std::string& path) { return ParseTemplate(n, path, merged); });
  }

  std::optional<NodeTemplate> ParseTemplate(const json& n, const std::string& path,
                                            const Catalog& merged) {
    check_.UnknownKeys(n, path,
                       {"name", "description", "gpu", "gpus_per_node", "nvlink_domain_gpus",
                        "nodes_per_rack", "cpu_cores", "memory_gb", "sources"});
    NodeTemplate t;
    const auto name = Name(n, path);
    const auto gpu = check_.String(n, path, "gpu", true);
    const auto per_node = check_.Int(n, path, "gpus_per_node", {1, kMaxGpusPerNode}, true);
    const auto domain = check_.Int(n, path, "nvlink_domain_gpus", {1, 100'000}, true);
    const auto per_rack = check_.Int(n, path, "nodes_per_rack", {1, 10'000}, true);
    t.description = check_.String(n, path, "description", false).value_or("");
    t.cpu_cores = NullableReal(n, path, "cpu_cores", kNonNegative);
    t.memory_gb = NullableReal(n, path, "memory_gb", kNonNegative);
    t.sources = SourceTags(n, path, merged);
    if (gpu && merged.FindGpu(*gpu) == nullptr) {
      check_.Error(ChildPath(path, "gpu"),
                   fmt::format("unknown GPU model '{}'{}", *gpu, merged.SuggestGpu(*gpu)));
      return std::nullopt;
    }
    if (!name || !gpu || !per_node || !domain || !per_rack) {
      return std::nullopt;
    }
    t.name = *name;
    t.gpu = *gpu;
    t.gpus_per_node = static_cast<int>(*per_node);
    t.nvlink_domain_gpus = static_cast<int>(*domain);
    t.nodes_per_rack = static_cast<int>(*per_rack);
    if (const std::string problem = DomainShapeProblem(t); !problem.empty()) {
      check_.Error(ChildPath(path, "nvlink_domain_gpus"), problem);
      return std::nullopt;
    }
    return t;
  }

  static std::string DomainShapeProblem(const NodeTemplate& t) {
    if (t.nvlink_domain_gpus <= t.gpus_per_node) {
      if (t.gpus_per_node % t.nvlink_domain_gpus != 0) {
        return fmt::format("a domain of {} GPUs does not divide a {}-GPU node evenly",
                           t.nvlink_domain_gpus, t.gpus_per_node);
      }
      return {};
    }
    if (t.nvlink_domain_gpus % t.gpus_per_node != 0 ||
        t.nodes_per_rack % (t.nvlink_domain_gpus / t.gpus_per_node) != 0) {
      return fmt::format(
          "a domain of {} GPUs must be a whole number of {}-GPU nodes that "
          "divides the rack's {} nodes",
          t.nvlink_domain_gpus, t.gpus_per_node, t.nodes_per_rack);
    }
    return {};
  }

  const Catalog& base_;
  JsonChecker check_;
  std::map<std::string, std::map<std::string, MigProfile>> geometries_;
};

}  // namespace

CatalogLoadResult ParseCatalog(const std::string& text, const std::string& source,
                               const Catalog& base) {
  CatalogLoadResult result;
  json root;
  if (Status status = ParseJsonText(text, source, root); !status.ok()) {
    result.file_status = std::move(status);
    return result;
  }
  if (!root.is_object()) {
    result.diagnostics.Error("", fmt::format("expected a catalog object, found {}", Shown(root)));
    return result;
  }
  Catalog catalog = CatalogParser(base, result.diagnostics).Parse(root);
  if (!result.diagnostics.HasErrors()) {
    result.catalog = std::move(catalog);
  }
  return result;
}

const Catalog& BuiltinCatalog() {
  static const Catalog builtin = [] {
    CatalogLoadResult result =
        ParseCatalog(generated::BuiltinCatalogJson(), "built-in catalog", Catalog{});
    FLEETSIM_CHECK(result.catalog.has_value(), "the built-in catalog does not load");
    return std::move(*result.catalog);
  }();
  return builtin;
}

CatalogLoadResult LoadCatalogFile(const FileSystem& files, const std::string& path) {
  std::string text;
  if (Status status = files.ReadFile(path, text); !status.ok()) {
    CatalogLoadResult result;
    result.file_status = std::move(status);
    return result;
  }
  return ParseCatalog(text, path, BuiltinCatalog());
}

}  // namespace fleetsim
