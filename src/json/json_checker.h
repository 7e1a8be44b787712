// JsonChecker: typed, range-checked reads from a parsed JSON document that record every problem
// as a Diagnostic at its JSON pointer instead of stopping at the first. Used by the scenario and
// catalog loaders and the JSON Lines trace reader; internal to the fleetsim libraries.
// Thread-compatible.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "fleetsim/core/diagnostics.h"

namespace fleetsim {

struct IntRange {
  std::int64_t min;
  std::int64_t max;
};

struct RealRange {
  double min;
  double max;
  bool min_exclusive = false;
};

class JsonChecker {
 public:
  explicit JsonChecker(Diagnostics& diagnostics) : diagnostics_(diagnostics) {}

  // The child of `object` at `key` as a JSON object; records an error if present with another
  // type, or if missing and required.
  const nlohmann::json* Object(const nlohmann::json& object, const std::string& path,
                               const std::string& key, bool required);
  const nlohmann::json* Array(const nlohmann::json& object, const std::string& path,
                              const std::string& key, bool required);

  std::optional<std::int64_t> Int(const nlohmann::json& object, const std::string& path,
                                  const std::string& key, IntRange range, bool required);
  std::optional<std::uint64_t> Unsigned(const nlohmann::json& object, const std::string& path,
                                        const std::string& key, bool required);
  std::optional<double> Real(const nlohmann::json& object, const std::string& path,
                             const std::string& key, RealRange range, bool required);
  std::optional<std::string> String(const nlohmann::json& object, const std::string& path,
                                    const std::string& key, bool required);

  // Checks a value that is already at hand (an array element, say) at `where`.
  std::optional<std::int64_t> IntValue(const nlohmann::json& value, const std::string& where,
                                       IntRange range);
  std::optional<double> RealValue(const nlohmann::json& value, const std::string& where,
                                  RealRange range);

  // Warns about keys of `object` not in `known`, suggesting the closest known key.
  void UnknownKeys(const nlohmann::json& object, const std::string& path,
                   const std::vector<std::string>& known);

  void Error(const std::string& where, const std::string& message);
  void Warning(const std::string& where, const std::string& message);

 private:
  const nlohmann::json* Member(const nlohmann::json& object, const std::string& path,
                               const std::string& key, bool required);

  Diagnostics& diagnostics_;
};

// JSON pointer of `key` under `path`, escaping '~' and '/' as RFC 6901 says.
std::string ChildPath(const std::string& path, const std::string& key);
std::string ChildPath(const std::string& path, std::size_t index);

// How a found value is shown in messages: its JSON text, cut to 40 characters.
std::string Shown(const nlohmann::json& value);

}  // namespace fleetsim
