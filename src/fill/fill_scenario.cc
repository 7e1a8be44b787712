// Reading and validating fill scenario files.
#include "fleetsim/fill/fill_scenario.h"

#include <fmt/format.h>

#include <filesystem>

#include "json/json_checker.h"
#include "json/json_text.h"

namespace fleetsim {

namespace {

using json = nlohmann::json;

constexpr std::int64_t kFillFormatVersion = 1;
constexpr std::int64_t kMaxFillSeeds = 10'000;

const std::vector<std::string> kTopKeys = {
    "format_version", "kind",  "name",         "description",        "nodes",    "pods",
    "policies",       "seeds", "target_share", "typical_popularity", "published"};

class FillParser {
 public:
  FillParser(const FileSystem& files, std::string source, Diagnostics& diagnostics)
      : files_(files), source_(std::move(source)), check_(diagnostics) {}

  FillScenario Parse(const json& root) {
    FillScenario s;
    if (!root.is_object()) {
      check_.Error("", fmt::format("expected a scenario object, found {}", Shown(root)));
      return s;
    }
    check_.UnknownKeys(root, "", kTopKeys);
    if (const auto version = check_.Int(root, "", "format_version", {1, 1000}, true);
        version && *version != kFillFormatVersion) {
      check_.Error("/format_version",
                   fmt::format("expected {}, found {}", kFillFormatVersion, *version));
    }
    if (const auto kind = check_.String(root, "", "kind", true); kind && *kind != "fill") {
      check_.Error("/kind", fmt::format("expected \"fill\", found \"{}\"", *kind));
    }
    s.name = check_.String(root, "", "name", true).value_or("");
    s.description = check_.String(root, "", "description", false).value_or("");
    s.nodes = Path(root, "", "nodes", true).value_or("");
    s.pods = Path(root, "", "pods", true).value_or("");
    s.policies = Policies(root);
    ParseSeeds(root, s);
    s.target_share =
        check_.Real(root, "", "target_share", {0, 10, true}, false).value_or(s.target_share);
    s.typical_popularity = check_.Real(root, "", "typical_popularity", {0, 1, true}, false)
                               .value_or(s.typical_popularity);
    s.published = Published(root);
    return s;
  }

 private:
  // A file path relative to the scenario file; it must exist.
  std::optional<std::string> Path(const json& object, const std::string& path,
                                  const std::string& key, bool required) {
    const auto given = check_.String(object, path, key, required);
    if (!given) {
      return std::nullopt;
    }
    std::filesystem::path resolved(*given);
    if (!resolved.is_absolute()) {
      resolved = (std::filesystem::path(source_).parent_path() / resolved).lexically_normal();
    }
    if (!files_.IsFile(resolved.string())) {
      check_.Error(ChildPath(path, key),
                   fmt::format("expected a readable file, found no file at '{}' (from \"{}\"; "
                               "the openb trace lives in ../shared/traces/alibaba-openb)",
                               resolved.string(), *given));
      return std::nullopt;
    }
    return resolved.string();
  }

  std::vector<GpuSharePolicy> Policies(const json& root) {
    std::vector<GpuSharePolicy> policies;
    const json* list = check_.Array(root, "", "policies", true);
    if (list == nullptr) {
      return policies;
    }
    if (list->empty()) {
      check_.Error("/policies", "expected at least one policy, found []");
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
      const json& item = (*list)[i];
      const std::string where = ChildPath("/policies", i);
      const std::optional<GpuSharePolicy> policy =
          item.is_string() ? FindGpuSharePolicy(item.get<std::string>()) : std::nullopt;
      if (!policy) {
        const std::string found = item.is_string() ? item.get<std::string>() : Shown(item);
        check_.Error(
            where, fmt::format("expected one of {}, found {}{}", QuotedList(GpuSharePolicyNames()),
                               Shown(item), DidYouMean(found, GpuSharePolicyNames())));
      } else if (std::find(policies.begin(), policies.end(), *policy) != policies.end()) {
        check_.Error(where, fmt::format("policy {} is listed twice", Shown(item)));
      } else {
        policies.push_back(*policy);
      }
    }
    return policies;
  }

  void ParseSeeds(const json& root, FillScenario& s) {
    const json* seeds = check_.Object(root, "", "seeds", false);
    if (seeds == nullptr) {
      return;
    }
    check_.UnknownKeys(*seeds, "/seeds", {"first", "count"});
    s.first_seed = check_.Unsigned(*seeds, "/seeds", "first", false).value_or(s.first_seed);
    s.seeds = check_.Int(*seeds, "/seeds", "count", {1, kMaxFillSeeds}, false).value_or(s.seeds);
  }

  std::optional<PublishedFillFiles> Published(const json& root) {
    const json* published = check_.Object(root, "", "published", false);
    if (published == nullptr) {
      return std::nullopt;
    }
    check_.UnknownKeys(*published, "/published", {"workload", "allocation", "fragmentation_ratio"});
    const auto workload = check_.String(*published, "/published", "workload", true);
    const auto allocation = Path(*published, "/published", "allocation", true);
    const auto ratio = Path(*published, "/published", "fragmentation_ratio", true);
    if (!workload || !allocation || !ratio) {
      return std::nullopt;
    }
    return PublishedFillFiles{
        .workload = *workload, .allocation = *allocation, .fragmentation_ratio = *ratio};
  }

  const FileSystem& files_;
  std::string source_;
  JsonChecker check_;
};

}  // namespace

bool IsFillScenarioText(const std::string& text) {
  if (FirstTooDeep(text)) {
    return false;  // the scenario reader reports it
  }
  const json root = json::parse(text, nullptr, false);
  return root.is_object() && root.contains("kind") && root["kind"] == "fill";
}

FillLoadResult LoadFillScenarioFile(const FileSystem& files, const std::string& path) {
  FillLoadResult result;
  std::string text;
  if (Status status = files.ReadFile(path, text); !status.ok()) {
    result.file_status = std::move(status);
    return result;
  }
  json root;
  if (Status status = ParseJsonText(text, path, root); !status.ok()) {
    result.file_status = std::move(status);
    return result;
  }
  FillScenario scenario = FillParser(files, path, result.diagnostics).Parse(root);
  if (!result.diagnostics.HasErrors()) {
    result.scenario = std::move(scenario);
  }
  return result;
}

}  // namespace fleetsim
