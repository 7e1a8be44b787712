// Kubernetes GPU nodes to a fleet (see kubernetes_nodes.h).
#include "fleetsim/cluster_config/kubernetes_nodes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>
#include <string_view>
#include <tuple>

#include "cluster_config/yaml_documents.h"
#include "fleetsim/core/diagnostics.h"
#include "fleetsim/fleet/catalog_loader.h"
#include "text/text_fields.h"

namespace fleetsim {

namespace {

constexpr const char* kGpuResource = "nvidia.com/gpu";
constexpr const char* kSharedGpuResource = "nvidia.com/gpu.shared";  // renameByDefault
constexpr const char* kMigResourcePrefix = "nvidia.com/mig-";
constexpr const char* kProductLabel = "nvidia.com/gpu.product";
constexpr const char* kCountLabel = "nvidia.com/gpu.count";
constexpr const char* kReplicasLabel = "nvidia.com/gpu.replicas";
constexpr const char* kPluginConfigLabel = "nvidia.com/device-plugin.config";
constexpr double kBytesPerGib = 1024.0 * 1024.0 * 1024.0;

// A count resource or label ("8"): a whole number, or nullopt.
std::optional<std::int64_t> WholeCount(const std::string& text) {
  const std::optional<double> value = KubernetesQuantity(text);
  if (!value || *value != std::floor(*value) || *value > 1e9) {
    return std::nullopt;
  }
  return static_cast<std::int64_t>(*value);
}

// One node as the importer sees it.
struct GpuNode {
  std::string name;
  std::string where;      // "file: items[3] (node 'x')"
  std::string product;    // the GPU model as the product label says, MIG suffix removed
  std::int64_t gpus = 0;  // whole GPUs (time-slicing replicas divided out)
  std::int64_t replicas = 1;
  std::map<std::string, int> mig;  // profile -> instances
  std::optional<int> gpu_count;    // the nvidia.com/gpu.count label
  std::optional<double> cpu_cores;
  std::optional<double> memory_gb;
  std::string group_label;  // a node-pool label, when the cloud sets one

  auto Shape() const { return std::tie(product, gpus, mig, gpu_count, cpu_cores, memory_gb); }
};

// The device plugin's sharing config: replicas of nvidia.com/gpu by config name ("" for a bare
// config file that applies to every node).
struct SharingConfig {
  std::map<std::string, std::int64_t> replicas;
};

class KubernetesImporter {
 public:
  KubernetesImporter(const Catalog& catalog, const KubernetesImportOptions& options)
      : options_(options),
        files_(options.files != nullptr ? *options.files : DiskFileSystem()),
        builder_(catalog, options.types, "k8s") {}

  KubernetesImport Import(const std::string& path) {
    KubernetesImport result;
    result.status = Run(path, result.fleet);
    return result;
  }

 private:
  Status Run(const std::string& path, ImportedFleet& imported) {
    if (!options_.sharing_config.empty()) {
      if (Status status = ReadSharingConfig(options_.sharing_config); !status.ok()) {
        return status;
      }
    }
    std::vector<nlohmann::json> docs;
    if (Status status = LoadYamlDocuments(files_, path, docs); !status.ok()) {
      return status;
    }
    std::vector<KindObject> objects;
    if (Status status =
            ObjectsOfKind(docs, path, "Node", "node",
                          "a Node or a List of Nodes (kubectl get nodes -o json)", objects);
        !status.ok()) {
      return status;
    }
    std::vector<GpuNode> nodes;
    std::map<std::string, std::string> read_at;  // node name -> where it was read
    for (const auto& [object, where] : objects) {
      GpuNode node;
      if (Status status = ReadNode(object, where, node); !status.ok()) {
        return status;
      }
      // Node names are unique in a cluster: a second is a list concatenated twice, or edited.
      if (const auto [it, inserted] = read_at.emplace(node.name, where); !inserted) {
        return Status::InvalidInput(
            fmt::format("{}: a second node named '{}' (the first: {})", where, node.name,
                        it->second == where ? "an earlier document" : it->second));
      }
      if (node.gpus == 0 && node.mig.empty()) {
        ++cpu_only_;
        continue;
      }
      nodes.push_back(std::move(node));
    }
    if (Status status = BuildPools(nodes); !status.ok()) {
      return status;
    }
    if (builder_.empty()) {
      return Status::InvalidInput(
          fmt::format("{}: no GPU node (no node with allocatable {} or {}<profile>)", path,
                      kGpuResource, kMigResourcePrefix));
    }
    imported.fleet = builder_.Finish(imported.notes);
    if (cpu_only_ > 0) {
      notes_.push_back(fmt::format("{} node{} without GPUs not modelled (a fleet is GPU nodes)",
                                   cpu_only_, cpu_only_ == 1 ? "" : "s"));
    }
    imported.notes.insert(imported.notes.end(), notes_.begin(), notes_.end());
    return Status::Ok();
  }

  Status ReadNode(const DocumentNode& object, const std::string& where, GpuNode& node) {
    node.where = where;
    node.name = YamlText(object["metadata"]["name"]);
    if (node.name.empty()) {
      return Status::InvalidInput(where + ": expected metadata.name");
    }
    const DocumentNode labels = object["metadata"]["labels"];
    const DocumentNode allocatable = object["status"]["allocatable"];
    const DocumentNode capacity = object["status"]["capacity"];
    if (!allocatable || !allocatable.IsMap()) {
      return Status::InvalidInput(where + ": expected status.allocatable");
    }
    for (const char* pool_label : {"cloud.google.com/gke-nodepool", "eks.amazonaws.com/nodegroup",
                                   "kubernetes.azure.com/agentpool"}) {
      if (labels && labels[pool_label]) {
        node.group_label = YamlText(labels[pool_label]);
        break;
      }
    }
    if (Status status = ReadHost(allocatable, where, node); !status.ok()) {
      return status;
    }
    if (Status status = ReadGpus(labels, allocatable, capacity, where, node); !status.ok()) {
      return status;
    }
    return Status::Ok();
  }

  static Status ReadHost(const DocumentNode& allocatable, const std::string& where, GpuNode& node) {
    if (const std::string cpu = YamlText(allocatable["cpu"]); !cpu.empty()) {
      node.cpu_cores = KubernetesQuantity(cpu);
      if (!node.cpu_cores) {
        return Status::InvalidInput(fmt::format(
            "{}: status.allocatable.cpu: expected a quantity such as 12 or 7910m, found '{}'",
            where, cpu));
      }
    }
    if (const std::string memory = YamlText(allocatable["memory"]); !memory.empty()) {
      const std::optional<double> bytes = KubernetesQuantity(memory);
      if (!bytes) {
        return Status::InvalidInput(fmt::format(
            "{}: status.allocatable.memory: expected a quantity such as 87425380Ki or 64Gi, "
            "found '{}'",
            where, memory));
      }
      node.memory_gb = *bytes / kBytesPerGib;
    }
    return Status::Ok();
  }

  Status Count(const DocumentNode& map, const std::string& key, const std::string& where,
               const std::string& field, std::int64_t& count) const {
    const std::string text = YamlText(map[key]);
    if (text.empty()) {
      count = 0;
      return Status::Ok();
    }
    const std::optional<std::int64_t> value = WholeCount(text);
    if (!value) {
      return Status::InvalidInput(
          fmt::format("{}: {}: expected a whole count, found '{}'", where, field, text));
    }
    count = *value;
    return Status::Ok();
  }

  Status ReadGpus(const DocumentNode& labels, const DocumentNode& allocatable,
                  const DocumentNode& capacity, const std::string& where, GpuNode& node) {
    std::int64_t advertised = 0;
    std::int64_t shared = 0;
    if (Status status = Count(allocatable, kGpuResource, where,
                              std::string("status.allocatable.") + kGpuResource, advertised);
        !status.ok()) {
      return status;
    }
    if (Status status = Count(allocatable, kSharedGpuResource, where,
                              std::string("status.allocatable.") + kSharedGpuResource, shared);
        !status.ok()) {
      return status;
    }
    advertised += shared;
    if (Status status = ReadMig(allocatable, capacity, where, node); !status.ok()) {
      return status;
    }
    std::string product = labels ? YamlText(labels[kProductLabel]) : "";
    if (const std::size_t shared_suffix = product.rfind("-SHARED");
        shared_suffix != std::string::npos && shared_suffix + 7 == product.size()) {
      product.resize(shared_suffix);
    }
    if (const std::size_t mig = product.find("-MIG-"); mig != std::string::npos) {
      // mig.strategy=single: nvidia.com/gpu counts MIG devices of the one profile.
      int& instances = node.mig[product.substr(mig + 5)];  // ReadMig may have counted some
      instances = static_cast<int>(
          std::min<std::int64_t>(instances + advertised, std::numeric_limits<int>::max()));
      advertised = 0;
      product.resize(mig);
    }
    node.product = product;
    if (labels && labels[kCountLabel]) {
      std::int64_t count = 0;
      if (Status status =
              Count(labels, kCountLabel, where, std::string("label ") + kCountLabel, count);
          !status.ok()) {
        return status;
      }
      node.gpu_count = static_cast<int>(count);
    }
    if (advertised > 0 || !node.mig.empty()) {
      if (product.empty() && options_.types.find(kUntypedGpu) == options_.types.end()) {
        return Status::InvalidInput(
            fmt::format("{}: GPUs without the label {}: give their model with --map untyped=MODEL",
                        where, kProductLabel));
      }
    }
    return Replicas(labels, where, advertised, node);
  }

  // Divides time-slicing replicas out of the advertised GPUs.
  Status Replicas(const DocumentNode& labels, const std::string& where, std::int64_t advertised,
                  GpuNode& node) {
    std::int64_t replicas = 1;
    std::string from;
    if (labels && labels[kReplicasLabel]) {
      if (Status status = Count(labels, kReplicasLabel, where,
                                std::string("label ") + kReplicasLabel, replicas);
          !status.ok()) {
        return status;
      }
      from = std::string("label ") + kReplicasLabel;
    }
    if (from.empty() && !sharing_.replicas.empty()) {  // GFD's label, when present, says
      const std::string config = labels ? YamlText(labels[kPluginConfigLabel]) : "";
      const auto it = sharing_.replicas.find(config.empty() ? sharing_default_ : config);
      if (it != sharing_.replicas.end()) {
        replicas = it->second;
        from = "the device plugin's sharing config" +
               (it->first.empty() ? std::string() : " '" + it->first + "'");
      }
    }
    replicas = std::max<std::int64_t>(replicas, 1);
    if (from.empty() && node.gpu_count && *node.gpu_count > 0 && node.mig.empty() &&
        advertised > *node.gpu_count && advertised % *node.gpu_count == 0) {
      replicas = advertised / *node.gpu_count;  // GFD counts the physical GPUs
      from = std::string("label ") + kCountLabel + " " + std::to_string(*node.gpu_count);
    }
    if (advertised % replicas != 0) {
      return Status::InvalidInput(
          fmt::format("{}: {} GPUs advertised is not a whole number of GPUs shared {} ways ({})",
                      where, advertised, replicas, from));
    }
    node.gpus = advertised / replicas;
    node.replicas = replicas;
    if (replicas > 1) {
      notes_.push_back(fmt::format(
          "{}: {} advertised GPUs are {} GPUs time-sliced {} ways ({}); fleetsim shares GPUs by "
          "a job's gpu_milli",
          where, advertised, node.gpus, replicas, from));
    }
    return Status::Ok();
  }

  // nvidia.com/mig-<profile> resources (the mixed strategy); allocatable is what a scheduler can
  // place, and a capacity that disagrees is noted.
  Status ReadMig(const DocumentNode& allocatable, const DocumentNode& capacity,
                 const std::string& where, GpuNode& node) {
    for (const auto& [key, value] : allocatable.Entries()) {
      if (!key.starts_with(kMigResourcePrefix)) {
        continue;
      }
      std::int64_t count = 0;
      if (Status status = Count(allocatable, key, where, "status.allocatable." + key, count);
          !status.ok()) {
        return status;
      }
      std::int64_t physical = count;
      if (capacity && capacity[key]) {
        if (Status status = Count(capacity, key, where, "status.capacity." + key, physical);
            !status.ok()) {
          return status;
        }
      }
      if (physical != count) {
        notes_.push_back(
            fmt::format("{}: {} is {} allocatable but {} in capacity; the allocatable "
                        "count is used",
                        where, key, count, physical));
      }
      if (count > 0) {
        node.mig[key.substr(std::string_view(kMigResourcePrefix).size())] = static_cast<int>(count);
      }
    }
    return Status::Ok();
  }

  // ---- The device plugin's sharing config ----

  Status ReadSharingConfig(const std::string& path) {
    std::vector<nlohmann::json> docs;
    if (Status status = LoadYamlDocuments(files_, path, docs); !status.ok()) {
      return status;
    }
    if (docs.empty() || !docs.front().is_object()) {
      return Status::InvalidInput(path + ": expected a device plugin config or its ConfigMap");
    }
    const DocumentNode doc(docs.front());
    if (YamlText(doc["kind"]) == "ConfigMap") {
      if (!doc["data"] || !doc["data"].IsMap()) {
        return Status::InvalidInput(path + ": a ConfigMap without data");
      }
      for (const auto& [name, entry] : doc["data"].Entries()) {
        const std::string where = fmt::format("{}: data.{}", path, name);
        std::vector<nlohmann::json> config;
        if (Status status = ParseYamlText(YamlText(entry), where, config); !status.ok()) {
          return status;
        }
        if (Status status =
                SharingReplicas(config.empty() ? DocumentNode() : DocumentNode(config.front()),
                                where, sharing_.replicas[name]);
            !status.ok()) {
          return status;
        }
      }
      sharing_default_ =
          sharing_.replicas.size() == 1 ? sharing_.replicas.begin()->first : std::string("default");
      notes_.push_back(
          fmt::format("{}: a node takes the sharing config its label {} names, else '{}'", path,
                      kPluginConfigLabel, sharing_default_));
      return Status::Ok();
    }
    return SharingReplicas(doc, path, sharing_.replicas[""]);
  }

  // sharing.timeSlicing (or .mps) .resources[name=nvidia.com/gpu].replicas; 1 when none.
  static Status SharingReplicas(const DocumentNode& config, const std::string& where,
                                std::int64_t& replicas) {
    replicas = 1;
    const DocumentNode sharing = config["sharing"];
    if (!sharing) {
      return Status::Ok();
    }
    for (const char* kind : {"timeSlicing", "mps"}) {
      const DocumentNode resources = sharing[kind]["resources"];
      if (!resources || !resources.IsSequence()) {
        continue;
      }
      for (const DocumentNode& resource : resources.Elements()) {
        if (YamlText(resource["name"]) != kGpuResource) {
          continue;
        }
        const std::optional<std::int64_t> n = WholeCount(YamlText(resource["replicas"]));
        if (!n || *n < 1) {
          return Status::InvalidInput(
              fmt::format("{}: sharing.{}.resources: expected replicas >= 1 for {}, found '{}'",
                          where, kind, kGpuResource, YamlText(resource["replicas"])));
        }
        replicas = *n;
      }
    }
    return Status::Ok();
  }

  // ---- Pools ----

  Status BuildPools(const std::vector<GpuNode>& nodes) {
    std::vector<bool> done(nodes.size(), false);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (done[i]) {
        continue;
      }
      std::vector<std::string> names;
      for (std::size_t j = i; j < nodes.size(); ++j) {
        if (!done[j] && nodes[j].Shape() == nodes[i].Shape() &&
            nodes[j].group_label == nodes[i].group_label) {
          done[j] = true;
          names.push_back(nodes[j].name);
        }
      }
      NodeGroup group;
      const GpuNode& first = nodes[i];
      group.name = first.group_label.empty() ? CommonNamePrefix(names) : first.group_label;
      group.where = first.where;
      group.nodes = static_cast<std::int64_t>(names.size());
      group.gpu_type = first.product;
      group.whole_gpus = first.gpus;
      group.mig_instances = first.mig;
      if (!first.mig.empty() && first.gpu_count && *first.gpu_count > first.gpus) {
        group.mig_gpus = static_cast<int>(*first.gpu_count - first.gpus);  // the rest are MIG
      }
      group.cpu_cores = first.cpu_cores;
      group.memory_gb = first.memory_gb;
      std::vector<std::string> added;
      if (Status status = builder_.Add(group, added); !status.ok()) {
        return status;
      }
    }
    return Status::Ok();
  }

  const KubernetesImportOptions& options_;
  const FileSystem& files_;
  FleetBuilder builder_;
  SharingConfig sharing_;
  std::string sharing_default_;
  std::int64_t cpu_only_ = 0;
  std::vector<std::string> notes_;
};

}  // namespace

KubernetesImport ImportKubernetesNodes(const std::string& path,
                                       const KubernetesImportOptions& options) {
  const Catalog& catalog = options.catalog == nullptr ? BuiltinCatalog() : *options.catalog;
  return KubernetesImporter(catalog, options).Import(path);
}

}  // namespace fleetsim
