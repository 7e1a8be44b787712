// Kubernetes-style objects read from YAML.
#include "cluster_config/yaml_documents.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "json/json_text.h"

namespace fleetsim {

namespace {

// A JSON value as the YAML node yaml-cpp would have read (scalars as their text).
YAML::Node FromJson(const nlohmann::json& value) {
  if (value.is_object()) {
    YAML::Node map(YAML::NodeType::Map);
    for (const auto& [key, item] : value.items()) {
      map[key] = FromJson(item);
    }
    return map;
  }
  if (value.is_array()) {
    YAML::Node sequence(YAML::NodeType::Sequence);
    for (const nlohmann::json& item : value) {
      sequence.push_back(FromJson(item));
    }
    return sequence;
  }
  if (value.is_null()) {
    return YAML::Node(YAML::NodeType::Null);
  }
  return YAML::Node(value.is_string() ? value.get<std::string>() : value.dump());
}

}  // namespace

Status LoadYamlDocuments(const FileSystem& files, const std::string& path,
                         std::vector<YAML::Node>& docs) {
  std::string text;
  if (Status status = files.ReadFile(path, text); !status.ok()) {
    return status;
  }
  // JSON (kubectl's -o json) is read by nlohmann/json: yaml-cpp 0.7 can run without bound on
  // some malformed flow collections (found by the cluster_config fuzz target).
  if (const std::size_t first = text.find_first_not_of(" \t\r\n");
      first != std::string::npos && (text[first] == '{' || text[first] == '[')) {
    nlohmann::json json;
    if (Status status = ParseJsonText(text, path, json); !status.ok()) {
      return status;
    }
    docs = {FromJson(json)};
    return Status::Ok();
  }
  try {
    docs = YAML::LoadAll(text);
  } catch (const YAML::Exception& e) {
    return Status::InvalidInput(
        fmt::format("{}:{}:{}: {}", path, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  return Status::Ok();
}

Status UnexpectedYamlStructure(const std::string& path, const YAML::Exception& error) {
  return Status::InvalidInput(fmt::format("{}: unexpected structure: {}", path, error.msg));
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
