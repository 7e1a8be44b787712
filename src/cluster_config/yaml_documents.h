// Reading Kubernetes-style objects from YAML (or JSON, which yaml-cpp also reads): every
// document of a file, the objects of one kind in them (alone or in a List's items), and scalar
// values as text or numbers. Internal to the cluster_config module. Thread-compatible.
#pragma once

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fleetsim/core/file_system.h"
#include "fleetsim/core/status.h"

namespace fleetsim {

// Every document of the file; a parse error is "file:line:column: message". A file whose first
// character is '{' or '[' is JSON, read with nlohmann/json (one document).
Status LoadYamlDocuments(const FileSystem& files, const std::string& path,
                         std::vector<YAML::Node>& docs);

// What a yaml-cpp exception raised while reading the objects of `path` means: an object whose
// shape is not the one expected (a map where a scalar should be, ...): "FILE: unexpected
// structure: MESSAGE". yaml-cpp throws on some lookups into nodes of the wrong kind; the
// importers catch it at their entry and report it with this.
Status UnexpectedYamlStructure(const std::string& path, const YAML::Exception& error);

// A scalar's text, or "" when absent or not a scalar.
std::string YamlText(const YAML::Node& node);

// A scalar as a number (12, "12", 0.5), or nullopt.
std::optional<double> YamlNumber(const YAML::Node& node);

// An object of `kind` found in `docs`, with where it is: "FILE: NOUN 'name'" for a document,
// "FILE: items[3] (NOUN 'name')" for an item of a List (kind List or <kind>List).
struct KindObject {
  YAML::Node object;
  std::string where;
};

// The objects of `kind` in `docs`, in order; any other kind is an error "FILE: expected
// EXPECTED, found kind 'X'" (or "found no kind"). Empty documents are skipped.
Status ObjectsOfKind(const std::vector<YAML::Node>& docs, const std::string& path,
                     const std::string& kind, const std::string& noun, const std::string& expected,
                     std::vector<KindObject>& out);

}  // namespace fleetsim
