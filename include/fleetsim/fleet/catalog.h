// The catalog: GPU models and node templates a fleet is built from, plus the source list their
// values cite. fleetsim ships one (scenarios/catalog/catalog.json, compiled into the binary);
// users can pass their own file, which extends the shipped one and overrides same-named entries
// (catalog_loader.h: LoadCatalogFile, BuiltinCatalog). Value type; thread-compatible.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fleetsim/fleet/gpu_model.h"

namespace fleetsim {

// The most GPUs a node template holds (a catalog refuses more).
inline constexpr int kMaxGpusPerNode = 1024;

// A node shape. A node holds gpus_per_node GPUs of one model. NVLink domains hold
// nvlink_domain_gpus GPUs: either a node is split into domains (HGX: 8 of 8; NVL pairs: 2 of 8;
// no NVLink: 1), or a domain spans several whole nodes of a rack (NVL72: 72 GPUs = 18 trays of 4).
struct NodeTemplate {
  std::string name{};
  std::string description{};
  std::string gpu{};  // GpuModel name
  int gpus_per_node = 0;
  int nvlink_domain_gpus = 0;
  int nodes_per_rack = 0;
  std::optional<double> cpu_cores{};
  std::optional<double> memory_gb{};
  std::vector<std::string> sources{};

  int nodes_per_domain() const {
    return nvlink_domain_gpus > gpus_per_node ? nvlink_domain_gpus / gpus_per_node : 1;
  }
};

// A GPU name as products, node labels and schedulers write it, reduced to one spelling: lower
// case, '_' and ' ' read as '-', a leading "NVIDIA" or "Tesla" dropped ("NVIDIA-H100-80GB-HBM3",
// "H100 80GB HBM3" and "h100-80gb-hbm3" are one name). Catalog lookups compare these.
std::string NormalizedGpuName(std::string_view name);

// A GPU name's generation: its first letters-and-digits word ("h100" for "H100-80GB-HBM3", "gb200"
// for "GB200", "" for "openb-G1"), normalized.
std::string GpuGeneration(std::string_view name);

struct Catalog {
  std::map<std::string, std::string> sources;  // tag ("S12") -> citation
  // MIG slice geometries by name ("7-slice"): profile kinds ("3g") with their slices and starts.
  std::map<std::string, std::map<std::string, MigProfile>> mig_geometries{};
  std::vector<GpuModel> gpus{};
  std::vector<NodeTemplate> node_templates{};

  // The GPU model `name` names: by name or alias, exactly as written, else normalized
  // (NormalizedGpuName). nullptr if none.
  const GpuModel* FindGpu(const std::string& name) const;
  // The models a job asking for `name` accepts: the one FindGpu finds; else every model whose
  // normalized name or alias starts with `name` (normalized) and a '-' ("a100": A100-40GB and
  // A100-80GB, in catalog order); else none.
  std::vector<const GpuModel*> GpuFamily(const std::string& name) const;
  // ", did you mean 'X'?" for an unknown GPU name, or "". It suggests a model of the same
  // generation when there is one (never P100 for "h100x"), else the closest name whose
  // generation starts with the same letters.
  std::string SuggestGpu(const std::string& name) const;
  // A job's gpu_models, as users spell them, rewritten to catalog model names: a name or alias
  // written exactly stays as it is; any other name becomes its GpuFamily's model names; in
  // order, without repeats. False, with `unknown` set to the first name that names
  // no model (and `names` unchanged), when one does not.
  bool CanonicalizeGpuModels(std::vector<std::string>& names, std::string& unknown) const;
  // Every name and alias, in catalog order.
  std::vector<std::string> GpuNamesAndAliases() const;
  const NodeTemplate* FindTemplate(const std::string& name) const;
  std::vector<std::string> GpuNames() const;
  std::vector<std::string> TemplateNames() const;
};

}  // namespace fleetsim
