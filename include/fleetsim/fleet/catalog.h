// The catalog: GPU models and node templates a fleet is built from, plus the source list their
// values cite. fleetsim ships one (scenarios/catalog/catalog.json, compiled into the binary);
// users can pass their own file, which extends the shipped one and overrides same-named entries
// (catalog_loader.h: LoadCatalogFile, BuiltinCatalog). Value type; thread-compatible.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fleetsim/fleet/gpu_model.h"

namespace fleetsim {

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

struct Catalog {
  std::map<std::string, std::string> sources;  // tag ("S12") -> citation
  // MIG slice geometries by name ("7-slice"): profile kinds ("3g") with their slices and starts.
  std::map<std::string, std::map<std::string, MigProfile>> mig_geometries{};
  std::vector<GpuModel> gpus{};
  std::vector<NodeTemplate> node_templates{};

  // By name or alias.
  const GpuModel* FindGpu(const std::string& name) const;
  const NodeTemplate* FindTemplate(const std::string& name) const;
  std::vector<std::string> GpuNames() const;
  std::vector<std::string> TemplateNames() const;
};

}  // namespace fleetsim
