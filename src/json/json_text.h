// Reading input files and parsing JSON text with messages users can act on: "path: cannot read:
// <reason>" and "path:line:col: invalid JSON: <what>". Shared by the scenario, catalog, trace,
// fill and report readers; internal to the fleetsim libraries. No input can crash a reader:
// documents nested deeper than kMaxJsonDepth are rejected before anything recurses on them, error
// messages quote at most kMaxQuotedChars of the input, and nothing here uses std::regex (whose
// libstdc++ implementation recurses once per character matched).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "fleetsim/core/file_system.h"
#include "fleetsim/core/status.h"

namespace fleetsim {

// The deepest nesting of arrays and objects any JSON input may have (docs/robustness.md).
inline constexpr std::size_t kMaxJsonDepth = 512;
// The most characters of input an error message quotes.
inline constexpr std::size_t kMaxQuotedChars = 80;

// Parses `text` into `root`. An invalid-input error is located: "source:line:col: invalid JSON:
// <what>".
Status ParseJsonText(const std::string& text, const std::string& source, nlohmann::json& root);

// Where `text` first nests deeper than kMaxJsonDepth (1-based line and column), if it does.
struct TextPosition {
  std::size_t line = 1;
  std::size_t column = 1;
};
std::optional<TextPosition> FirstTooDeep(const std::string& text);

// nlohmann's parse_error text taken apart: "parse error at line L, column C: <what>" gives the
// position and <what> (the token it quotes after "last read: " cut to kMaxQuotedChars; the whole
// cut to 4 kMaxQuotedChars if it quotes none); other texts give no position and the text after
// nlohmann's "[json.exception...] " tag, cut the same way.
struct JsonErrorText {
  std::optional<TextPosition> at;
  std::string what;
};
JsonErrorText SplitJsonError(const std::string& what);

// `text`, cut to kMaxQuotedChars characters (and "..." when cut).
std::string Quoted(const std::string& text);

// Reads a spec file on `files`: its text, its JSON, then `parse(root, diagnostics)` for the spec.
// `Load` has `spec` (an optional, set when no error was found), `diagnostics` and `file_status` (an
// unreadable file or invalid JSON, located); `strict` turns warnings into errors.
template <typename Load, typename Parse>
Load LoadSpecFile(const FileSystem& files, const std::string& path, bool strict,
                  const Parse& parse) {
  Load result;
  std::string text;
  result.file_status = files.ReadFile(path, text);
  if (!result.file_status.ok()) {
    return result;
  }
  nlohmann::json root;
  result.file_status = ParseJsonText(text, path, root);
  if (!result.file_status.ok()) {
    return result;
  }
  auto spec = parse(root, result.diagnostics);
  if (strict) {
    result.diagnostics.PromoteWarnings();
  }
  if (!result.diagnostics.HasErrors()) {
    result.spec = std::move(spec);
  }
  return result;
}

}  // namespace fleetsim
