// Reading Kubernetes-style objects from YAML or JSON: every document of a file as a JSON tree
// (YAML read with libyaml, JSON with nlohmann/json), read-only views of its values that never
// throw, the objects of one kind in the documents (alone or in a List's items), and scalar values
// as text or numbers. Internal to the cluster_config module. Thread-compatible.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fleetsim/core/file_system.h"
#include "fleetsim/core/status.h"

namespace fleetsim {

// How much more than its length in bytes a YAML file may make, counting one per value and one
// per byte of scalar and key text, each copy an anchor keeps and each alias's expansion included
// (a "billion laughs" file, or a long scalar aliased many times, is refused, not expanded; a file
// without anchors never makes more than its length).
inline constexpr std::size_t kMaxYamlValues = 1'000'000;

// Every document of the file. A file whose first character is '{' or '[' is JSON (one document);
// any other is YAML, whose scalars are kept as text (a plain `~`, `null` or empty scalar as null)
// and whose aliases are expanded (an anchor belongs to its document). A parse error is
// "file:line:column: message"; nesting deeper than kMaxJsonDepth, aliases included, is refused as
// in every JSON input.
Status LoadYamlDocuments(const FileSystem& files, const std::string& path,
                         std::vector<nlohmann::json>& docs);

// The same for YAML text held in memory (a ConfigMap's data entry); `source` names it in errors.
Status ParseYamlText(const std::string& text, const std::string& source,
                     std::vector<nlohmann::json>& docs);

// A read-only view of one value of a document, or of none. Looking up a key that is missing, or
// into a value that is not a map (an index into one that is not a sequence), gives an absent view:
// the importers check shapes where they matter and never meet an exception.
class DocumentNode {
 public:
  DocumentNode() = default;
  explicit DocumentNode(const nlohmann::json& value) : value_(&value) {}
  explicit DocumentNode(const nlohmann::json&& value) = delete;  // a view outlives no temporary

  explicit operator bool() const { return value_ != nullptr; }
  bool IsMap() const { return value_ != nullptr && value_->is_object(); }
  bool IsSequence() const { return value_ != nullptr && value_->is_array(); }
  bool IsNull() const { return value_ == nullptr || value_->is_null(); }

  DocumentNode operator[](std::string_view key) const;
  DocumentNode operator[](std::size_t index) const;
  // The elements of a sequence, or none.
  std::vector<DocumentNode> Elements() const;
  // The keys and values of a map, in key order, or none.
  std::vector<std::pair<std::string, DocumentNode>> Entries() const;

  // A scalar's text (a JSON number or boolean as written), or "" when absent or not a scalar.
  std::string Text() const;

 private:
  const nlohmann::json* value_ = nullptr;
};

// A scalar's text, or "" when absent or not a scalar.
inline std::string YamlText(const DocumentNode& node) { return node.Text(); }

// A scalar as a number (12, "12", 0.5), or nullopt.
std::optional<double> YamlNumber(const DocumentNode& node);

// An object of `kind` found in the documents, with where it is: "FILE: NOUN 'name'" for a
// document, "FILE: items[3] (NOUN 'name')" for an item of a List (kind List or <kind>List).
struct KindObject {
  DocumentNode object;
  std::string where;
};

// The objects of `kind` in `docs`, in order; any other kind is an error "FILE: expected
// EXPECTED, found kind 'X'" (or "found no kind"; an item of a generic List must name its kind, one
// of a <kind>List may leave it out). Empty documents are skipped. The views point
// into `docs`.
Status ObjectsOfKind(const std::vector<nlohmann::json>& docs, const std::string& path,
                     const std::string& kind, const std::string& noun, const std::string& expected,
                     std::vector<KindObject>& out);

}  // namespace fleetsim
