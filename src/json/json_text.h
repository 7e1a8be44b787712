// Reading input files and parsing JSON text with messages users can act on: "path: cannot read:
// <reason>" and "path:line:col: invalid JSON: <what>". Shared by the scenario, catalog and
// trace readers; internal to the fleetsim libraries.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace fleetsim {

// Reads the whole file into `text`. Returns "" or the error message.
std::string ReadTextFile(const std::string& path, std::string& text);

// Parses `text` into `root`. Returns "" or the error message, located by line and column.
std::string ParseJsonText(const std::string& text, const std::string& source, nlohmann::json& root);

}  // namespace fleetsim
