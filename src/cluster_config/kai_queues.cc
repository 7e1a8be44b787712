// KAI Scheduler queues to tenants (see kai_queues.h).
#include "fleetsim/cluster_config/kai_queues.h"

#include <fmt/format.h>

#include <cmath>
#include <optional>

#include "cluster_config/yaml_documents.h"
#include "fleetsim/core/diagnostics.h"
#include "fleetsim/core/names.h"
#include "fleetsim/workload/tenants.h"

namespace fleetsim {

namespace {

using nlohmann::ordered_json;

constexpr double kMaxGpus = 1'000'000;

// A whole number in [low, high] read from `node` (absent: `absent`), or the error.
Status Whole(const DocumentNode& node, const std::string& where, const std::string& field,
             double low, double high, std::optional<double> absent, std::int64_t& value) {
  if (!node) {
    if (!absent) {
      return Status::InvalidInput(fmt::format("{}: expected {}", where, field));
    }
    value = static_cast<std::int64_t>(*absent);
    return Status::Ok();
  }
  const std::optional<double> number = YamlNumber(node);
  if (!number || *number != std::floor(*number) || *number < low || *number > high) {
    return Status::InvalidInput(
        fmt::format("{}: {}: expected a whole number in [{}, {}], found "
                    "'{}'",
                    where, field, low, high, YamlText(node)));
  }
  value = static_cast<std::int64_t>(*number);
  return Status::Ok();
}

Status ReadQueue(const DocumentNode& queue, const std::string& where, ordered_json& tenant,
                 std::vector<std::string>& notes) {
  const std::string name = YamlText(queue["metadata"]["name"]);
  if (name.empty()) {
    return Status::InvalidInput(where + ": expected metadata.name");
  }
  if (!IsPlainName(name)) {
    return Status::InvalidInput(fmt::format("{}: metadata.name: expected {}, found '{}'", where,
                                            kPlainNameExpectation, ShownName(name)));
  }
  const std::string& at = where;
  const DocumentNode spec = queue["spec"];
  const DocumentNode gpu = spec["resources"]["gpu"];
  std::int64_t quota = 0;
  std::int64_t limit = -1;
  std::int64_t priority = 0;
  if (Status status = Whole(gpu["quota"], at, "spec.resources.gpu.quota", -1, kMaxGpus, 0.0, quota);
      !status.ok()) {
    return status;
  }
  if (Status status =
          Whole(gpu["limit"], at, "spec.resources.gpu.limit", -1, kMaxGpus, -1.0, limit);
      !status.ok()) {
    return status;
  }
  const std::optional<double> weight =
      gpu["overQuotaWeight"] ? YamlNumber(gpu["overQuotaWeight"]) : std::optional(1.0);
  if (!weight || *weight < 0 || *weight > 1e9) {
    return Status::InvalidInput(fmt::format(
        "{}: spec.resources.gpu.overQuotaWeight: expected a number in [0, 1000000000], found '{}'",
        at, YamlText(gpu["overQuotaWeight"])));
  }
  if (Status status = Whole(spec["priority"], at, "spec.priority", 0, 1'000'000, 0.0, priority);
      !status.ok()) {
    return status;
  }
  if (limit == 0) {
    notes.push_back(at + ": limit 0 (no GPUs at all) is not a fleetsim limit; taken as 1");
    limit = 1;
  }
  tenant = ordered_json{{"name", name}};
  if (const std::string parent = YamlText(spec["parentQueue"]); !parent.empty()) {
    tenant["parent"] = parent;
  }
  tenant["quota_gpus"] = quota;
  tenant["over_quota_weight"] = *weight;
  tenant["limit_gpus"] = limit;
  tenant["priority"] = priority;
  return Status::Ok();
}

// The queues as a tree: names distinct, parents listed, no cycles; every problem, one per line.
Status CheckQueueTree(const nlohmann::ordered_json& tenants,
                      const std::vector<KindObject>& queues) {
  Organization tree;
  for (const ordered_json& tenant : tenants) {
    tree.push_back(
        {.name = tenant["name"].get<std::string>(), .parent = tenant.value("parent", "")});
  }
  const auto where = [&queues](std::size_t index, TenantField field) {
    return fmt::format("{}: {}", queues[index].where,
                       field == TenantField::kName ? "metadata.name" : "spec.parentQueue");
  };
  std::string message;
  for (const TenantProblem& problem : TenantTreeProblems(tree, where, "queue")) {
    message += fmt::format("{}{}: {}", message.empty() ? "" : "\n",
                           where(problem.index, problem.field), problem.message);
  }
  return message.empty() ? Status::Ok() : Status::InvalidInput(message);
}

}  // namespace

KaiImport ImportKaiQueues(const std::string& path, const FileSystem* files) {
  KaiImport result;
  std::vector<nlohmann::json> docs;
  result.status = LoadYamlDocuments(files != nullptr ? *files : DiskFileSystem(), path, docs);
  if (!result.status.ok()) {
    return result;
  }
  std::vector<KindObject> queues;
  result.status =
      ObjectsOfKind(docs, path, "Queue", "queue",
                    "KAI Queue objects (apiVersion scheduling.run.ai/v2, kind Queue)", queues);
  for (const auto& [queue, where] : queues) {
    if (!result.status.ok()) {
      break;
    }
    ordered_json tenant;
    result.status = ReadQueue(queue, where, tenant, result.notes);
    result.tenants.push_back(std::move(tenant));
  }
  if (result.status.ok() && result.tenants.empty()) {
    result.status = Status::InvalidInput(path + ": no KAI Queue");
  }
  if (result.status.ok()) {
    result.status = CheckQueueTree(result.tenants, queues);
  }
  if (result.status.ok()) {
    result.notes.push_back(
        "CPU and memory quotas, displayName and preemptMinRuntime are not "
        "modelled; GPU quota, over-quota weight, limit and priority are");
  }
  return result;
}

}  // namespace fleetsim
