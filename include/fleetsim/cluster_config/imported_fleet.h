// A fleet read from a real cluster's configuration (Slurm's slurm.conf and gres.conf, a
// Kubernetes node list): node groups of one shape become pools of catalog node templates, with
// templates made for the shapes the catalog lacks, and the result is written as a scenario fleet
// file ("fleet": "FILE", docs/scenario-format.md). GPU types are resolved to catalog models by
// name (docs/fleet-model.md, GPU names) or by the user's mapping; a type that names no model, or
// several, is an error naming where it was read. Importers: slurm_config.h, kubernetes_nodes.h.
// Thread-compatible.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "fleetsim/core/status.h"
#include "fleetsim/fleet/catalog.h"

namespace fleetsim {

// GPU types as a configuration writes them ("h100", "m60") mapped to catalog models by the user;
// the key "untyped" maps GPUs given without a type ("gpu:8").
using GpuTypeMap = std::map<std::string, std::string>;

inline constexpr const char* kUntypedGpu = "untyped";

// Reads "TYPE=MODEL" items into `map`; fails with the item that is not of that form.
Status ParseGpuTypeMap(const std::vector<std::string>& items, GpuTypeMap& map);

// Nodes of one shape, as a configuration describes them.
struct NodeGroup {
  std::string name;   // the pool's name
  std::string where;  // "file:line", for messages
  std::int64_t nodes = 0;
  std::string gpu_type;                      // as written; "" when untyped
  std::int64_t whole_gpus = 0;               // per node
  std::map<std::string, int> mig_instances;  // per node: MIG profile name -> instances
  std::optional<int> mig_gpus;               // the GPUs they are on, when the source says
  std::optional<double> cpu_cores;           // per node
  std::optional<double> memory_gb;           // per node
  // When a topology gave NVLink blocks (Slurm's topology/block): block size in nodes -> how
  // many of the group's nodes are in blocks of that size (size 0: in no block). Empty: no
  // topology, each node's template from the catalog.
  std::map<std::int64_t, std::int64_t> nodes_by_block_size;
};

struct ImportedFleet {
  nlohmann::ordered_json fleet;       // the fleet object: "pools" and, if needed, "catalog"
  nlohmann::ordered_json parameters;  // policy name -> parameters read from the configuration
  std::vector<std::string> notes;     // what was read, chosen or not modelled
};

// Builds pools from node groups, in the order added.
class FleetBuilder {
 public:
  // `source` names the importer in made-up template names ("slurm").
  FleetBuilder(const Catalog& catalog, GpuTypeMap types, std::string source);

  // Adds the group's pools: one of whole GPUs, one of MIG GPUs with their static layout (on
  // group.mig_gpus GPUs, else the fewest GPUs per node that hold the instances). A catalog
  // template is used when one fits (whole NVLink domains), else one is made. When the model's
  // NVLink spans nodes (a catalog template says so) and the group has blocks, that is done for
  // each block size, the block an NVLink domain and a rack (pools "-blocks-of-N" and "-no-block"
  // when there are several); a block larger than the model's largest catalog domain is split
  // into the largest domains that divide it. A pool name taken already gets "-2", "-3"... Fails
  // with the problem at group.where.
  // `added` gains the names of the pools made.
  Status Add(const NodeGroup& group, std::vector<std::string>& added);

  // The fleet object; `notes` gains what the builder chose.
  nlohmann::ordered_json Finish(std::vector<std::string>& notes) const;

  bool empty() const { return pools_.empty(); }

 private:
  // Nodes of a group that share one template: all of them, or those in blocks of one size.
  struct Part {
    std::string suffix;  // of the pool names: "", "-blocks-of-18" or "-no-block"
    std::int64_t nodes = 0;
    std::int64_t block_nodes = 0;  // 0: no topology; else nodes per block, 1 for nodes in none
  };
  // What a part's template must be.
  struct Shape {
    std::int64_t gpus_per_node = 0;
    std::int64_t nodes = 0;         // in the pool: a catalog template's domains must divide it
    std::int64_t domain_nodes = 0;  // 0: no topology (the catalog's first fitting template)
    std::int64_t rack_nodes = 0;    // 0: not from a block
  };

  Status ResolveModel(const NodeGroup& group, const GpuModel*& model);
  Status CheckMigProfiles(const NodeGroup& group, const GpuModel& model) const;
  // GPUs, CPUs and memory per node within what a fleet file may state.
  static Status CheckNodeFigures(const NodeGroup& group);
  std::vector<Part> Parts(const NodeGroup& group, const GpuModel& model);
  Status AddPart(const NodeGroup& group, const GpuModel& model, const Part& part,
                 std::vector<std::string>& added);
  nlohmann::ordered_json Pool(const NodeGroup& group, const std::string& name, std::int64_t nodes,
                              const std::string& node_template) const;
  std::string TemplateFor(const GpuModel& model, std::int64_t gpus_per_node, const Part& part);
  Shape ShapeOf(const GpuModel& model, std::int64_t gpus_per_node, const Part& part) const;
  std::string CatalogTemplate(const GpuModel& model, const Shape& shape) const;
  int LargestDomain(const GpuModel& model) const;  // 0: its NVLink stays within a node
  std::string UniquePoolName(const std::string& name) const;
  void NoteOnce(std::string note);

  const Catalog& catalog_;
  GpuTypeMap types_;
  std::string source_;
  nlohmann::ordered_json pools_ = nlohmann::ordered_json::array();
  std::int64_t gpus_ = 0;  // in the pools so far
  nlohmann::ordered_json templates_ = nlohmann::ordered_json::array();
  std::vector<std::string> notes_;
  std::set<std::string> used_maps_;  // --map types a group resolved with
};

// A pool name for nodes named `names` (not empty): their common prefix without trailing digits,
// '-' and '_' ("a100gpu1", "a100gpu2" -> "a100gpu"), else the first name.
std::string CommonNamePrefix(const std::vector<std::string>& names);

// Writes `imported.fleet` as JSON text (two-space indent, a final newline): what
// `fleetsim import-fleet` writes.
std::string FleetFileText(const ImportedFleet& imported);

}  // namespace fleetsim
