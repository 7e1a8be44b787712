// Catalog lookups: by name, alias or product spelling, GPU families, suggestions.
#include "fleetsim/fleet/catalog.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "fleetsim/core/diagnostics.h"

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

// A model's names: its name, then its aliases.
std::vector<std::string> NamesOfModel(const GpuModel& gpu) {
  std::vector<std::string> names = {gpu.name};
  names.insert(names.end(), gpu.aliases.begin(), gpu.aliases.end());
  return names;
}

bool HasName(const GpuModel& gpu, const std::string& name) {
  return gpu.name == name ||
         std::find(gpu.aliases.begin(), gpu.aliases.end(), name) != gpu.aliases.end();
}

bool HasNormalizedName(const GpuModel& gpu, const std::string& normalized) {
  const std::vector<std::string> names = NamesOfModel(gpu);
  return std::any_of(names.begin(), names.end(), [&](const std::string& candidate) {
    return NormalizedGpuName(candidate) == normalized;
  });
}

bool HasNormalizedPrefix(const GpuModel& gpu, const std::string& prefix) {
  const std::vector<std::string> names = NamesOfModel(gpu);
  return std::any_of(names.begin(), names.end(), [&](const std::string& candidate) {
    return NormalizedGpuName(candidate).starts_with(prefix + "-");
  });
}

// The leading letters of a generation ("gb" of "gb200").
std::string_view GenerationLetters(std::string_view generation) {
  std::size_t end = 0;
  while (end < generation.size() && std::isalpha(static_cast<unsigned char>(generation[end]))) {
    ++end;
  }
  return generation.substr(0, end);
}

// ", did you mean 'X'?" for the candidate closest to `name` once both are normalized, or "".
std::string ClosestName(const std::string& name, const std::vector<std::string>& candidates) {
  std::vector<std::string> normalized;
  for (const std::string& candidate : candidates) {
    normalized.push_back(NormalizedGpuName(candidate));
  }
  const std::string closest = ClosestMatch(NormalizedGpuName(name), normalized);
  if (closest.empty()) {
    return "";
  }
  const auto it = std::find(normalized.begin(), normalized.end(), closest);
  return fmt::format(", did you mean '{}'?",
                     candidates[static_cast<std::size_t>(it - normalized.begin())]);
}

}  // namespace

std::string NormalizedGpuName(std::string_view name) {
  std::string out;
  for (const char c : name) {
    const char mapped =
        c == '_' || c == ' ' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (mapped == '-' && (out.empty() || out.back() == '-')) {
      continue;
    }
    out.push_back(mapped);
  }
  while (!out.empty() && out.back() == '-') {
    out.pop_back();
  }
  for (const std::string_view vendor : {"nvidia-", "tesla-"}) {
    if (out.starts_with(vendor) && out.size() > vendor.size()) {
      out.erase(0, vendor.size());
    }
  }
  return out;
}

std::string GpuGeneration(std::string_view name) {
  const std::string normalized = NormalizedGpuName(name);
  std::size_t letters = 0;
  while (letters < normalized.size() &&
         std::isalpha(static_cast<unsigned char>(normalized[letters]))) {
    ++letters;
  }
  std::size_t end = letters;
  while (end < normalized.size() && std::isdigit(static_cast<unsigned char>(normalized[end]))) {
    ++end;
  }
  if (letters == 0 || end == letters) {
    return "";
  }
  // A letter right after the digits belongs to the generation ("l40s").
  if (end < normalized.size() && std::isalpha(static_cast<unsigned char>(normalized[end]))) {
    ++end;
  }
  return normalized.substr(0, end);
}

const GpuModel* Catalog::FindGpu(const std::string& name) const {
  const auto exact = std::find_if(gpus.begin(), gpus.end(),
                                  [&](const GpuModel& gpu) { return HasName(gpu, name); });
  if (exact != gpus.end()) {
    return &*exact;
  }
  const std::string normalized = NormalizedGpuName(name);
  const auto it = std::find_if(gpus.begin(), gpus.end(), [&](const GpuModel& gpu) {
    return HasNormalizedName(gpu, normalized);
  });
  return it == gpus.end() ? nullptr : &*it;
}

std::vector<const GpuModel*> Catalog::GpuFamily(const std::string& name) const {
  if (const GpuModel* gpu = FindGpu(name)) {
    return {gpu};
  }
  const std::string normalized = NormalizedGpuName(name);
  std::vector<const GpuModel*> family;
  if (normalized.empty()) {
    return family;
  }
  for (const GpuModel& gpu : gpus) {
    if (HasNormalizedPrefix(gpu, normalized)) {
      family.push_back(&gpu);
    }
  }
  return family;
}

std::string Catalog::SuggestGpu(const std::string& name) const {
  const std::string generation = GpuGeneration(name);
  std::vector<std::string> same_generation;
  std::vector<std::string> same_letters;
  for (const std::string& candidate : GpuNamesAndAliases()) {
    const std::string other = GpuGeneration(candidate);
    if (!generation.empty() && other == generation) {
      same_generation.push_back(candidate);
    } else if (GenerationLetters(other) == GenerationLetters(generation)) {
      same_letters.push_back(candidate);
    }
  }
  if (same_generation.empty()) {
    return ClosestName(name, same_letters);
  }
  const std::string closest = ClosestName(name, same_generation);
  return closest.empty() ? fmt::format(", did you mean '{}'?", same_generation.front()) : closest;
}

bool Catalog::CanonicalizeGpuModels(std::vector<std::string>& names, std::string& unknown) const {
  std::vector<std::string> canonical;
  const auto add = [&canonical](const std::string& name) {
    if (std::find(canonical.begin(), canonical.end(), name) == canonical.end()) {
      canonical.push_back(name);
    }
  };
  for (const std::string& name : names) {
    if (std::any_of(gpus.begin(), gpus.end(),
                    [&](const GpuModel& gpu) { return HasName(gpu, name); })) {
      add(name);
      continue;
    }
    const std::vector<const GpuModel*> family = GpuFamily(name);
    if (family.empty()) {
      unknown = name;
      return false;
    }
    for (const GpuModel* gpu : family) {
      add(gpu->name);
    }
  }
  names = std::move(canonical);
  return true;
}

std::vector<std::string> Catalog::GpuNamesAndAliases() const {
  std::vector<std::string> names;
  for (const GpuModel& gpu : gpus) {
    const std::vector<std::string> own = NamesOfModel(gpu);
    names.insert(names.end(), own.begin(), own.end());
  }
  return names;
}

const NodeTemplate* Catalog::FindTemplate(const std::string& name) const {
  return FindByName(node_templates, name);
}

std::vector<std::string> Catalog::GpuNames() const { return NamesOf(gpus); }

std::vector<std::string> Catalog::TemplateNames() const { return NamesOf(node_templates); }

}  // namespace fleetsim
