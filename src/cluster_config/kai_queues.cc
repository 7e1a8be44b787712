// KAI Scheduler queues to tenants (see kai_queues.h).
#include "fleetsim/cluster_config/kai_queues.h"

#include <fmt/format.h>

#include <algorithm>
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

// The tenant of `queue`, with the name and parent in `names` (read and checked by the caller), or
// the first problem with its GPU figures.
Status ReadQueue(const DocumentNode& queue, const std::string& where, const TenantSpec& names,
                 ordered_json& tenant, std::vector<std::string>& notes) {
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
  const bool zero_limit = limit == 0;
  if (zero_limit) {
    notes.push_back(at + ": limit 0 (no GPUs at all) is not a fleetsim limit; taken as 1");
    limit = 1;
  }
  if (limit > 0 && limit < quota) {  // as a scenario's tenants need: the limit holds the quota
    return Status::InvalidInput(
        fmt::format("{}: spec.resources.gpu.limit: expected -1 or a limit of at least the quota "
                    "({}), found {}",
                    at, quota, zero_limit ? "0 (taken as 1)" : std::to_string(limit)));
  }
  tenant = ordered_json{{"name", names.name}};
  if (!names.parent.empty()) {
    tenant["parent"] = names.parent;
  }
  tenant["quota_gpus"] = quota;
  tenant["over_quota_weight"] = *weight;
  tenant["limit_gpus"] = limit;
  tenant["priority"] = priority;
  return Status::Ok();
}

// A problem with queue `index`, kept to be reported with the others in queue order.
struct QueueProblem {
  std::size_t index = 0;
  std::string message;  // "FILE: queue 'x': field: ..."
};

// The name a queue's tenant takes: present and a plain name, as a scenario's tenants need.
std::optional<std::string> NameProblem(const std::string& name, const std::string& where) {
  if (name.empty()) {
    return where + ": expected metadata.name";
  }
  if (!IsPlainName(name)) {
    return fmt::format("{}: metadata.name: expected {}, found '{}'", where, kPlainNameExpectation,
                       ShownName(name));
  }
  return std::nullopt;
}

// The queues as a tree (names distinct, parents listed, no cycles), by the scenario loader's rules.
void CheckQueueTree(const Organization& tree, const std::vector<KindObject>& queues,
                    std::vector<QueueProblem>& problems) {
  const auto where = [&queues](std::size_t index, TenantField field) {
    return fmt::format("{}: {}", queues[index].where,
                       field == TenantField::kName ? "metadata.name" : "spec.parentQueue");
  };
  for (const TenantProblem& problem : TenantTreeProblems(tree, where, "queue")) {
    problems.push_back({problem.index, fmt::format("{}: {}", where(problem.index, problem.field),
                                                   problem.message)});
  }
}

// Every problem, in queue order, one per line.
Status ProblemsStatus(std::vector<QueueProblem> problems) {
  std::stable_sort(problems.begin(), problems.end(),
                   [](const QueueProblem& a, const QueueProblem& b) { return a.index < b.index; });
  std::string message;
  for (const QueueProblem& problem : problems) {
    message += (message.empty() ? "" : "\n") + problem.message;
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
  if (!result.status.ok()) {
    return result;
  }
  if (queues.empty()) {
    result.status = Status::InvalidInput(path + ": no KAI Queue");
    return result;
  }
  std::vector<QueueProblem> problems;
  Organization tree;
  for (std::size_t i = 0; i < queues.size(); ++i) {
    const auto& [queue, where] = queues[i];
    tree.push_back({.name = YamlText(queue["metadata"]["name"]),
                    .parent = YamlText(queue["spec"]["parentQueue"])});
    if (std::optional<std::string> problem = NameProblem(tree.back().name, where)) {
      problems.push_back({i, std::move(*problem)});
      continue;
    }
    if (const DocumentNode parent = queue["spec"]["parentQueue"];
        parent.IsMap() || parent.IsSequence()) {
      problems.push_back({i, where + ": spec.parentQueue: expected the name of a queue, found a " +
                                 (parent.IsMap() ? "map" : "list")});
      continue;
    }
    ordered_json tenant;
    if (const Status status = ReadQueue(queue, where, tree.back(), tenant, result.notes);
        !status.ok()) {
      problems.push_back({i, status.message()});
    }
    result.tenants.push_back(std::move(tenant));
  }
  CheckQueueTree(tree, queues, problems);
  result.status = ProblemsStatus(std::move(problems));
  if (result.status.ok()) {
    result.notes.push_back(
        "CPU and memory quotas, displayName and preemptMinRuntime are not "
        "modelled; GPU quota, over-quota weight, limit and priority are");
  }
  return result;
}

}  // namespace fleetsim
