// Reading the bounds file for the bench.
#include "fleetsim/report/bound_figures.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <vector>

#include "json/json_checker.h"
#include "json/json_text.h"

namespace fleetsim {

namespace {

// Reads entry[key] into `out` if it is a number >= 0; notes the problem otherwise.
void ReadNumber(const nlohmann::json& entry, const std::string& key, const std::string& path,
                double& out, std::vector<std::string>& problems) {
  if (!entry.contains(key)) {
    problems.push_back(fmt::format("{}: missing \"{}\"", path, key));
  } else if (const nlohmann::json& value = entry.at(key);
             !value.is_number() || value.get<double>() < 0) {
    problems.push_back(
        fmt::format("{}/{}: expected a number >= 0, found {}", path, key, Shown(value)));
  } else {
    out = value.get<double>();
  }
}

}  // namespace

BoundFiguresLoad ParseBoundFigures(const std::string& text, const std::string& source) {
  nlohmann::json root;
  if (Status status = ParseJsonText(text, source, root); !status.ok()) {
    return {.figures = std::nullopt, .status = std::move(status)};
  }
  std::vector<std::string> problems;
  BoundFigures figures;
  if (!root.is_object() || !root.contains("format_version") || root.at("format_version") != 1) {
    problems.emplace_back("/format_version: expected 1 (a file of 'fleetsim bound --json')");
  } else if (!root.contains("bounds") || !root.at("bounds").is_array()) {
    problems.emplace_back("/bounds: expected an array of scenario bounds");
  } else {
    const nlohmann::json& bounds = root.at("bounds");
    for (std::size_t i = 0; i < bounds.size(); ++i) {
      const nlohmann::json& entry = bounds[i];
      const std::string path = fmt::format("/bounds/{}", i);
      if (!entry.is_object()) {
        problems.push_back(fmt::format("{}: expected an object, found {}", path, Shown(entry)));
        continue;
      }
      if (!entry.contains("scenario") || !entry.at("scenario").is_string()) {
        problems.push_back(fmt::format("{}/scenario: expected the scenario's name", path));
        continue;
      }
      const std::string name = entry.at("scenario").get<std::string>();
      BoundFigure figure;
      ReadNumber(entry, "bound", path, figure.bound, problems);
      ReadNumber(entry, "gap", path, figure.gap, problems);
      if (!entry.contains("proven_optimal") || !entry.at("proven_optimal").is_boolean()) {
        problems.push_back(fmt::format("{}/proven_optimal: expected true or false", path));
      } else {
        figure.proven_optimal = entry.at("proven_optimal").get<bool>();
      }
      if (!figures.scenarios.emplace(name, figure).second) {
        problems.push_back(fmt::format("{}/scenario: '{}' has a bound already", path, name));
      }
    }
  }
  if (!problems.empty()) {
    std::string error;
    for (const std::string& problem : problems) {
      error += fmt::format("{}{}: {}", error.empty() ? "" : "\n", source, problem);
    }
    return {.figures = std::nullopt, .status = Status::InvalidInput(error)};
  }
  return {.figures = std::move(figures), .status = Status::Ok()};
}

BoundFiguresLoad LoadBoundFigures(const std::string& path) {
  std::string text;
  if (!DiskFileSystem().ReadFile(path, text).ok()) {
    return {.figures = std::nullopt,
            .status = Status::IoError(fmt::format("{}: cannot open the file", path))};
  }
  return ParseBoundFigures(text, path);
}

}  // namespace fleetsim
