// Kubernetes-style objects read from YAML.
#include "cluster_config/yaml_documents.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

namespace fleetsim {

Status LoadYamlDocuments(const FileSystem& files, const std::string& path,
                         std::vector<YAML::Node>& docs) {
  std::string text;
  if (Status status = files.ReadFile(path, text); !status.ok()) {
    return status;
  }
  try {
    docs = YAML::LoadAll(text);
  } catch (const YAML::Exception& e) {
    return Status::InvalidInput(
        fmt::format("{}:{}:{}: {}", path, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  return Status::Ok();
}

std::string YamlText(const YAML::Node& node) {
  return node && node.IsScalar() ? node.Scalar() : std::string();
}

std::optional<double> YamlNumber(const YAML::Node& node) {
  const std::string text = YamlText(node);
  if (text.empty()) {
    return std::nullopt;
  }
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

Status ObjectsOfKind(const std::vector<YAML::Node>& docs, const std::string& path,
                     const std::string& kind, const std::string& noun, const std::string& expected,
                     std::vector<KindObject>& out) {
  const auto kind_of = [](const YAML::Node& node) {
    return node.IsMap() ? YamlText(node["kind"]) : std::string();
  };
  const auto refuse = [&](const std::string& found, const std::string& where) {
    return Status::InvalidInput(
        fmt::format("{}: expected {}, found {}", where, expected,
                    found.empty() ? std::string("no kind") : "kind '" + found + "'"));
  };
  for (const YAML::Node& doc : docs) {
    if (!doc || doc.IsNull()) {
      continue;
    }
    const std::string doc_kind = kind_of(doc);
    if (doc_kind == kind) {
      out.push_back(
          {doc, fmt::format("{}: {} '{}'", path, noun, YamlText(doc["metadata"]["name"]))});
      continue;
    }
    if ((doc_kind != "List" && doc_kind != kind + "List") || !doc["items"] ||
        !doc["items"].IsSequence()) {
      return refuse(doc_kind, path);
    }
    for (std::size_t i = 0; i < doc["items"].size(); ++i) {
      const YAML::Node item = doc["items"][i];
      const std::string item_kind = kind_of(item);
      const std::string where = fmt::format("{}: items[{}]", path, i);
      if (!item_kind.empty() && item_kind != kind) {
        return refuse(item_kind, where);
      }
      out.push_back({item, fmt::format("{} ({} '{}')", where, noun,
                                       item.IsMap() ? YamlText(item["metadata"]["name"]) : "")});
    }
  }
  return Status::Ok();
}

}  // namespace fleetsim
