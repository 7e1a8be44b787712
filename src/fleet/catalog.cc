// Catalog lookups.
#include "fleetsim/fleet/catalog.h"

#include <algorithm>

namespace fleetsim {

namespace {

template <typename T>
const T* FindByName(const std::vector<T>& items, const std::string& name) {
  const auto it =
      std::find_if(items.begin(), items.end(), [&](const T& item) { return item.name == name; });
  return it == items.end() ? nullptr : &*it;
}

template <typename T>
std::vector<std::string> NamesOf(const std::vector<T>& items) {
  std::vector<std::string> names;
  for (const T& item : items) {
    names.push_back(item.name);
  }
  return names;
}

}  // namespace

const GpuModel* Catalog::FindGpu(const std::string& name) const {
  if (const GpuModel* gpu = FindByName(gpus, name)) {
    return gpu;
  }
  const auto it = std::find_if(gpus.begin(), gpus.end(), [&](const GpuModel& gpu) {
    return std::find(gpu.aliases.begin(), gpu.aliases.end(), name) != gpu.aliases.end();
  });
  return it == gpus.end() ? nullptr : &*it;
}

const NodeTemplate* Catalog::FindTemplate(const std::string& name) const {
  return FindByName(node_templates, name);
}

std::vector<std::string> Catalog::GpuNames() const { return NamesOf(gpus); }

std::vector<std::string> Catalog::TemplateNames() const { return NamesOf(node_templates); }

}  // namespace fleetsim
