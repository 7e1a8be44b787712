// Node groups to pools: GPU types to catalog models, catalog templates found or made, MIG
// layouts inferred from instance counts.
#include "fleetsim/cluster_config/imported_fleet.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>

#include "fleetsim/core/diagnostics.h"
#include "fleetsim/fleet/fleet_spec.h"
#include "fleetsim/fleet/mig.h"
#include "text/text_fields.h"

namespace fleetsim {

namespace {

using nlohmann::ordered_json;

// Nodes per rack of a made-up template: a configuration without a topology does not say, so the
// shipped HGX templates' 4.
constexpr int kAssumedNodesPerRack = 4;

// The most MIG instances a node can hold: 7 on each of the 1,024 GPUs a node template may have.
constexpr std::int64_t kMaxMigInstancesPerNode = 7 * kMaxGpusPerNode;

std::vector<std::string> ModelNames(const std::vector<const GpuModel*>& models) {
  std::vector<std::string> names;
  for (const GpuModel* model : models) {
    names.push_back(model->name);
  }
  return names;
}

// The layout of `instances` over `known` GPUs, or else over the fewest GPUs that hold it, the
// same on every GPU: the smallest k dividing every count for which the counts / k fit on one GPU.
std::optional<std::pair<int, std::map<std::string, int>>> SplitOverGpus(
    const GpuModel& model, const std::map<std::string, int>& instances, std::optional<int> known) {
  int total = 0;
  for (const auto& [profile, count] : instances) {
    total += count;
  }
  // A GPU holds at most kMigMaxInstances instances, so fewer GPUs cannot hold them.
  const int first = known.value_or((total + kMigMaxInstances - 1) / kMigMaxInstances);
  const int last = known.value_or(total);
  for (int gpus = first; gpus >= 1 && gpus <= last; ++gpus) {
    std::map<std::string, int> layout;
    bool divides = true;
    for (const auto& [profile, count] : instances) {
      divides = divides && count % gpus == 0;
      layout[profile] = count / gpus;
    }
    if (divides && PlaceLayout(model, layout).status.ok()) {
      return std::make_pair(gpus, layout);
    }
  }
  return std::nullopt;
}

// "3g.20gb x2, 1g.5gb x1".
std::string InstancesText(const std::map<std::string, int>& instances) {
  std::vector<std::string> items;
  for (const auto& [profile, count] : instances) {
    items.push_back(fmt::format("{} x{}", profile, count));
  }
  return fmt::format("{}", fmt::join(items, ", "));
}

}  // namespace

Status ParseGpuTypeMap(const std::vector<std::string>& items, GpuTypeMap& map) {
  for (const std::string& item : items) {
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size()) {
      return Status::InvalidInput(fmt::format(
          "--map: expected TYPE=MODEL (e.g. m60=T4, untyped=H100-SXM), found '{}'", item));
    }
    map[item.substr(0, eq)] = item.substr(eq + 1);
  }
  return Status::Ok();
}

FleetBuilder::FleetBuilder(const Catalog& catalog, GpuTypeMap types, std::string source)
    : catalog_(catalog), types_(std::move(types)), source_(std::move(source)) {}

Status FleetBuilder::ResolveModel(const NodeGroup& group, const GpuModel*& model) {
  const std::string type = group.gpu_type.empty() ? kUntypedGpu : group.gpu_type;
  const auto mapped = std::find_if(types_.begin(), types_.end(), [&](const auto& entry) {
    return NormalizedGpuName(entry.first) == NormalizedGpuName(type);
  });
  if (mapped != types_.end()) {
    used_maps_.insert(mapped->first);
    model = catalog_.FindGpu(mapped->second);
    if (model == nullptr) {
      return Status::InvalidInput(fmt::format("--map {}={}: unknown GPU model '{}'{}", type,
                                              mapped->second, mapped->second,
                                              catalog_.SuggestGpu(mapped->second)));
    }
    return Status::Ok();
  }
  if (group.gpu_type.empty()) {
    return Status::InvalidInput(fmt::format(
        "{}: GPUs without a type: give their model with --map untyped=MODEL", group.where));
  }
  const std::vector<const GpuModel*> family = catalog_.GpuFamily(group.gpu_type);
  if (family.size() == 1) {
    model = family.front();
    return Status::Ok();
  }
  if (family.empty()) {
    return Status::InvalidInput(fmt::format(
        "{}: unknown GPU type '{}'{}; give its catalog model with --map {}=MODEL (`fleetsim "
        "list gpus`)",
        group.where, group.gpu_type, catalog_.SuggestGpu(group.gpu_type), group.gpu_type));
  }
  return Status::InvalidInput(
      fmt::format("{}: GPU type '{}' could be any of {}; say which with --map {}=MODEL",
                  group.where, group.gpu_type, QuotedList(ModelNames(family)), group.gpu_type));
}

int FleetBuilder::LargestDomain(const GpuModel& model) const {
  int largest = 0;
  for (const NodeTemplate& node : catalog_.node_templates) {
    if (node.gpu == model.name && node.nodes_per_domain() > 1) {
      largest = std::max(largest, node.nvlink_domain_gpus);
    }
  }
  return largest;
}

FleetBuilder::Shape FleetBuilder::ShapeOf(const GpuModel& model, std::int64_t gpus_per_node,
                                          const Part& part) const {
  if (part.block_nodes == 0) {
    return {.gpus_per_node = gpus_per_node, .nodes = part.nodes};
  }
  // The largest divisor of the block whose GPUs fit in the model's largest domain.
  std::int64_t domain_nodes = std::max<std::int64_t>(
      1,
      std::min(part.block_nodes, LargestDomain(model) / std::max<std::int64_t>(gpus_per_node, 1)));
  while (domain_nodes > 1 && part.block_nodes % domain_nodes != 0) {
    --domain_nodes;
  }
  return {.gpus_per_node = gpus_per_node,
          .nodes = part.nodes,
          .domain_nodes = domain_nodes,
          .rack_nodes = part.block_nodes > 1 ? part.block_nodes : 0};
}

std::string FleetBuilder::CatalogTemplate(const GpuModel& model, const Shape& shape) const {
  for (const NodeTemplate& node : catalog_.node_templates) {
    if (node.gpu != model.name || node.gpus_per_node != shape.gpus_per_node) {
      continue;
    }
    const bool fits =
        shape.domain_nodes == 0
            ? shape.nodes % node.nodes_per_domain() == 0  // no topology: whole domains
            : node.nvlink_domain_gpus == shape.gpus_per_node * shape.domain_nodes &&
                  (shape.rack_nodes == 0 || node.nodes_per_rack == shape.rack_nodes);
    if (fits) {
      return node.name;
    }
  }
  return "";
}

void FleetBuilder::NoteOnce(std::string note) {
  if (std::find(notes_.begin(), notes_.end(), note) == notes_.end()) {
    notes_.push_back(std::move(note));
  }
}

std::string FleetBuilder::TemplateFor(const GpuModel& model, std::int64_t gpus_per_node,
                                      const Part& part) {
  const Shape shape = ShapeOf(model, gpus_per_node, part);
  if (shape.rack_nodes > 0 && shape.domain_nodes < shape.rack_nodes) {
    NoteOnce(fmt::format(
        "blocks of {} nodes of {} x {} ({} GPUs) are more than its largest NVLink domain ({} "
        "GPUs): each block taken as NVLink domains of {} node{}",
        shape.rack_nodes, gpus_per_node, model.name, shape.rack_nodes * gpus_per_node,
        LargestDomain(model), shape.domain_nodes, shape.domain_nodes == 1 ? "" : "s"));
  }
  if (std::string found = CatalogTemplate(model, shape); !found.empty()) {
    return found;
  }
  if (shape.domain_nodes == 0 && LargestDomain(model) > 0) {
    NoteOnce(fmt::format(
        "{} nodes of {} x {} are not whole NVLink domains of a catalog template: NVLink taken "
        "within the node (a topology.conf of blocks, --topology, says which nodes share one)",
        shape.nodes, gpus_per_node, model.name));
  }
  const std::int64_t domain_nodes = std::max<std::int64_t>(shape.domain_nodes, 1);
  const std::int64_t domain = model.nvlink_gbs > 0 ? gpus_per_node * domain_nodes : 1;
  const std::int64_t rack = shape.rack_nodes > 0 ? shape.rack_nodes : kAssumedNodesPerRack;
  std::string name = fmt::format("{}-{}-x{}", source_, AsciiLower(model.name), gpus_per_node);
  if (shape.domain_nodes > 0) {
    name += fmt::format(
        "-nvl{}{}", domain,
        rack != domain_nodes && shape.rack_nodes > 0 ? fmt::format("-rack{}", rack) : "");
  }
  for (const auto& made : templates_) {
    if (made["name"] == name) {
      return name;
    }
  }
  templates_.push_back(
      ordered_json{{"name", name},
                   {"description", fmt::format("{} x {} per node, made by the {} importer",
                                               gpus_per_node, model.name, source_)},
                   {"gpu", model.name},
                   {"gpus_per_node", gpus_per_node},
                   {"nvlink_domain_gpus", domain},
                   {"nodes_per_rack", rack}});
  notes_.push_back(fmt::format(
      "node template '{}' made ({} x {} per node; NVLink domain {} GPU{}{}; {} nodes per rack: "
      "{})",
      name, gpus_per_node, model.name, domain, domain == 1 ? "" : "s",
      domain_nodes > 1 ? fmt::format(" over {} nodes", domain_nodes) : "", rack,
      shape.rack_nodes > 0 ? "a topology block" : "assumed"));
  return name;
}

std::string FleetBuilder::UniquePoolName(const std::string& name) const {
  const auto taken = [this](const std::string& candidate) {
    return std::any_of(pools_.begin(), pools_.end(),
                       [&](const ordered_json& pool) { return pool["name"] == candidate; });
  };
  // A scenario refuses "", "*" and '|' in pool names (outputs use them): '|' becomes '-', and
  // a name left empty or "*" becomes "pool".
  std::string base = name;
  std::replace(base.begin(), base.end(), '|', '-');
  if (base.empty() || base == "*") {
    base = "pool";
  }
  std::string unique = base;
  for (int k = 2; taken(unique); ++k) {
    unique = fmt::format("{}-{}", base, k);
  }
  return unique;
}

ordered_json FleetBuilder::Pool(const NodeGroup& group, const std::string& name, std::int64_t nodes,
                                const std::string& node_template) const {
  ordered_json pool = {
      {"name", UniquePoolName(name)}, {"template", node_template}, {"nodes", nodes}};
  const auto number = [](double value) {
    const auto whole = static_cast<std::int64_t>(value);
    return static_cast<double>(whole) == value ? ordered_json(whole) : ordered_json(value);
  };
  if (group.cpu_cores) {
    pool["cpu_cores"] = number(*group.cpu_cores);
  }
  if (group.memory_gb) {
    pool["memory_gb"] = number(*group.memory_gb);
  }
  return pool;
}

std::vector<FleetBuilder::Part> FleetBuilder::Parts(const NodeGroup& group, const GpuModel& model) {
  if (group.nodes_by_block_size.empty()) {
    return {{"", group.nodes, 0}};
  }
  if (LargestDomain(model) == 0) {
    NoteOnce(
        fmt::format("{}: {}'s NVLink stays within a node (no catalog template spans nodes), so the "
                    "topology's blocks leave its pools as they are",
                    group.where, model.name));
    return {{"", group.nodes, 0}};
  }
  std::vector<Part> parts;
  for (const auto& [size, nodes] : group.nodes_by_block_size) {
    const std::string suffix = size == 0 ? "-no-block" : fmt::format("-blocks-of-{}", size);
    parts.push_back({group.nodes_by_block_size.size() == 1 ? "" : suffix, nodes,
                     std::max<std::int64_t>(size, 1)});
  }
  return parts;
}

Status FleetBuilder::Add(const NodeGroup& group, std::vector<std::string>& added) {
  const GpuModel* model = nullptr;
  if (Status status = ResolveModel(group, model); !status.ok()) {
    return status;
  }
  if (Status status = CheckMigProfiles(group, *model); !status.ok()) {
    return status;
  }
  if (Status status = CheckNodeFigures(group); !status.ok()) {
    return status;
  }
  for (const Part& part : Parts(group, *model)) {
    if (Status status = AddPart(group, *model, part, added); !status.ok()) {
      return status;
    }
  }
  if (gpus_ > kMaxFleetGpus) {
    return Status::InvalidInput(
        fmt::format("{}: the pools so far hold {} GPUs, more than the {} a fleet may", group.where,
                    gpus_, kMaxFleetGpus));
  }
  return Status::Ok();
}

Status FleetBuilder::CheckNodeFigures(const NodeGroup& group) {
  if (group.whole_gpus > kMaxGpusPerNode) {
    return Status::InvalidInput(fmt::format("{}: {} GPUs per node, more than the {} a node holds",
                                            group.where, group.whole_gpus, kMaxGpusPerNode));
  }
  if (group.cpu_cores && *group.cpu_cores > kMaxNodeCpuCores) {
    return Status::InvalidInput(
        fmt::format("{}: {} CPUs per node, more than the {} a node may state", group.where,
                    *group.cpu_cores, kMaxNodeCpuCores));
  }
  if (group.memory_gb && *group.memory_gb > kMaxNodeMemoryGb) {
    return Status::InvalidInput(
        fmt::format("{}: {} GiB of memory per node, more than the {} a node may state", group.where,
                    *group.memory_gb, kMaxNodeMemoryGb));
  }
  return Status::Ok();
}

Status FleetBuilder::CheckMigProfiles(const NodeGroup& group, const GpuModel& model) const {
  for (const auto& [profile, count] : group.mig_instances) {
    if (model.FindMigProfile(profile) == nullptr) {
      std::vector<std::string> profiles;
      for (const MigProfile& known : model.mig_profiles) {
        profiles.push_back(known.name);
      }
      return Status::InvalidInput(fmt::format(
          "{}: {} has no MIG profile '{}'{}", group.where, model.name, profile,
          profiles.empty() ? " (it has no MIG)" : " (its profiles: " + QuotedList(profiles) + ")"));
    }
  }
  std::int64_t instances = 0;
  for (const auto& [profile, count] : group.mig_instances) {
    instances += count;
  }
  if (instances > kMaxMigInstancesPerNode) {
    return Status::InvalidInput(
        fmt::format("{}: more MIG instances per node than the {} a node holds (7 on each of "
                    "{} GPUs)",
                    group.where, kMaxMigInstancesPerNode, kMaxGpusPerNode));
  }
  return Status::Ok();
}

Status FleetBuilder::AddPart(const NodeGroup& group, const GpuModel& model, const Part& part,
                             std::vector<std::string>& added) {
  const std::string name = group.name + part.suffix;
  const bool both = group.whole_gpus > 0 && !group.mig_instances.empty();
  if (group.whole_gpus > 0) {
    pools_.push_back(Pool(group, name, part.nodes, TemplateFor(model, group.whole_gpus, part)));
    added.push_back(pools_.back()["name"]);
    gpus_ += part.nodes * group.whole_gpus;
  }
  if (group.mig_instances.empty()) {
    return Status::Ok();
  }
  const auto split = SplitOverGpus(model, group.mig_instances, group.mig_gpus);
  if (!split) {
    return Status::InvalidInput(fmt::format(
        "{}: the MIG instances {} per node cannot be laid out the same way on {} {} GPUs",
        group.where, InstancesText(group.mig_instances),
        group.mig_gpus ? std::to_string(*group.mig_gpus) : "whole", model.name));
  }
  if (split->first > kMaxGpusPerNode) {
    return Status::InvalidInput(
        fmt::format("{}: MIG instances on {} GPUs per node, more than the {} a node holds",
                    group.where, split->first, kMaxGpusPerNode));
  }
  ordered_json pool =
      Pool(group, both ? name + "-mig" : name, part.nodes, TemplateFor(model, split->first, part));
  gpus_ += part.nodes * split->first;
  ordered_json layout = ordered_json::object();
  for (const auto& [profile, count] : split->second) {
    layout[profile] = count;
  }
  pool["mig"] = ordered_json{{"static", layout}};
  pools_.push_back(std::move(pool));
  added.push_back(pools_.back()["name"]);
  NoteOnce(fmt::format("{}: MIG instances {} per node taken as {} GPU{} per node, each with {}",
                       group.where, InstancesText(group.mig_instances), split->first,
                       split->first == 1 ? "" : "s", layout.dump()));
  return Status::Ok();
}

ordered_json FleetBuilder::Finish(std::vector<std::string>& notes) const {
  ordered_json fleet = {{"pools", pools_}};
  if (!templates_.empty()) {
    fleet["catalog"] = ordered_json{{"format_version", 1}, {"node_templates", templates_}};
  }
  notes.insert(notes.end(), notes_.begin(), notes_.end());
  for (const auto& [type, model] : types_) {
    if (!used_maps_.contains(type)) {
      notes.push_back(fmt::format("--map {}={}: no GPU of type '{}' was read", type, model, type));
    }
  }
  return fleet;
}

std::string CommonNamePrefix(const std::vector<std::string>& names) {
  std::string prefix = names.front();
  for (const std::string& name : names) {
    prefix.resize(static_cast<std::size_t>(
        std::mismatch(prefix.begin(), prefix.end(), name.begin(), name.end()).first -
        prefix.begin()));
  }
  if (names.size() > 1) {
    while (!prefix.empty() && (std::isdigit(static_cast<unsigned char>(prefix.back())) != 0 ||
                               prefix.back() == '-' || prefix.back() == '_')) {
      prefix.pop_back();
    }
  }
  return prefix.empty() ? names.front() : prefix;
}

std::string FleetFileText(const ImportedFleet& imported) {
  // Names read from a configuration are its bytes: invalid UTF-8 is written as U+FFFD.
  return imported.fleet.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace fleetsim
