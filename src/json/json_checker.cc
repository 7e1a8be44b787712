// Typed, range-checked JSON reads that collect diagnostics.
#include "json/json_checker.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace fleetsim {

std::string ChildPath(const std::string& path, const std::string& key) {
  std::string escaped;
  for (const char c : key) {
    if (c == '~') {
      escaped += "~0";
    } else if (c == '/') {
      escaped += "~1";
    } else {
      escaped += c;
    }
  }
  return path + "/" + escaped;
}

std::string ChildPath(const std::string& path, std::size_t index) {
  return fmt::format("{}/{}", path, index);
}

namespace {

constexpr std::size_t kShownChars = 40;

// A string as JSON text; a UTF-8 sequence cut short at the end becomes U+FFFD.
std::string Dumped(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Appends `value` as JSON to `out` until `out` holds more than kShownChars characters. Every
// level of nesting writes a character before going deeper, so it never goes deeper than
// kShownChars levels, however deep the value is; a long string is cut before it is escaped.
void AppendShown(const nlohmann::json& value, std::string& out) {
  if (out.size() > kShownChars) {
    return;
  }
  if (value.is_object() || value.is_array()) {
    const bool object = value.is_object();
    out += object ? '{' : '[';
    bool first = true;
    for (auto it = value.begin(); it != value.end() && out.size() <= kShownChars; ++it) {
      out += first ? "" : ",";
      first = false;
      if (object) {
        out += Dumped(it.key().substr(0, kShownChars)) + ":";
      }
      AppendShown(*it, out);
    }
    out += object ? '}' : ']';
    return;
  }
  if (value.is_string()) {
    out += Dumped(value.get_ref<const std::string&>().substr(0, kShownChars + 1));
    return;
  }
  out += value.dump();
}

}  // namespace

std::string Shown(const nlohmann::json& value) {
  std::string text;
  AppendShown(value, text);
  if (text.size() > kShownChars) {
    text = text.substr(0, kShownChars - 3) + "...";
  }
  return text;
}

namespace {

std::string FormatReal(double value) { return fmt::format("{}", value); }

std::string IntExpectation(IntRange range) {
  if (range.max == std::numeric_limits<std::int64_t>::max()) {
    return fmt::format("an integer ≥ {}", range.min);
  }
  return fmt::format("an integer in [{}, {}]", range.min, range.max);
}

std::string RealExpectation(RealRange range) {
  return fmt::format("a number {} {} and ≤ {}", range.min_exclusive ? ">" : "≥",
                     FormatReal(range.min), FormatReal(range.max));
}

}  // namespace

void JsonChecker::Error(const std::string& where, const std::string& message) {
  diagnostics_.Error(where, message);
}

void JsonChecker::Warning(const std::string& where, const std::string& message) {
  diagnostics_.Warning(where, message);
}

const nlohmann::json* JsonChecker::Member(const nlohmann::json& object, const std::string& path,
                                          const std::string& key, bool required) {
  const auto it = object.find(key);
  if (it == object.end()) {
    if (required) {
      Error(path, fmt::format("missing required key '{}'", key));
    }
    return nullptr;
  }
  return &*it;
}

const nlohmann::json* JsonChecker::Object(const nlohmann::json& object, const std::string& path,
                                          const std::string& key, bool required) {
  const nlohmann::json* value = Member(object, path, key, required);
  if (value != nullptr && !value->is_object()) {
    Error(ChildPath(path, key), fmt::format("expected an object, found {}", Shown(*value)));
    return nullptr;
  }
  return value;
}

const nlohmann::json* JsonChecker::Array(const nlohmann::json& object, const std::string& path,
                                         const std::string& key, bool required) {
  const nlohmann::json* value = Member(object, path, key, required);
  if (value != nullptr && !value->is_array()) {
    Error(ChildPath(path, key), fmt::format("expected an array, found {}", Shown(*value)));
    return nullptr;
  }
  return value;
}

std::optional<std::int64_t> JsonChecker::IntValue(const nlohmann::json& value,
                                                  const std::string& where, IntRange range) {
  if (!value.is_number_integer()) {
    Error(where, fmt::format("expected {}, found {}", IntExpectation(range), Shown(value)));
    return std::nullopt;
  }
  if (value.is_number_unsigned() &&
      value.get<std::uint64_t>() > static_cast<std::uint64_t>(range.max)) {
    Error(where, fmt::format("expected an integer ≤ {}, found {}", range.max, Shown(value)));
    return std::nullopt;
  }
  const auto v = value.get<std::int64_t>();
  if (v < range.min) {
    Error(where, fmt::format("expected an integer ≥ {}, found {}", range.min, v));
    return std::nullopt;
  }
  if (v > range.max) {
    Error(where, fmt::format("expected an integer ≤ {}, found {}", range.max, v));
    return std::nullopt;
  }
  return v;
}

std::optional<double> JsonChecker::RealValue(const nlohmann::json& value, const std::string& where,
                                             RealRange range) {
  if (!value.is_number()) {
    Error(where, fmt::format("expected {}, found {}", RealExpectation(range), Shown(value)));
    return std::nullopt;
  }
  const auto v = value.get<double>();
  const bool too_low = range.min_exclusive ? !(v > range.min) : !(v >= range.min);
  if (!std::isfinite(v) || too_low || v > range.max) {
    Error(where, fmt::format("expected {}, found {}", RealExpectation(range), Shown(value)));
    return std::nullopt;
  }
  return v;
}

std::optional<std::int64_t> JsonChecker::Int(const nlohmann::json& object, const std::string& path,
                                             const std::string& key, IntRange range,
                                             bool required) {
  const nlohmann::json* value = Member(object, path, key, required);
  return value == nullptr ? std::nullopt : IntValue(*value, ChildPath(path, key), range);
}

std::optional<std::uint64_t> JsonChecker::Unsigned(const nlohmann::json& object,
                                                   const std::string& path, const std::string& key,
                                                   bool required) {
  const nlohmann::json* value = Member(object, path, key, required);
  if (value == nullptr) {
    return std::nullopt;
  }
  if (!value->is_number_unsigned()) {
    Error(ChildPath(path, key),
          fmt::format("expected an integer in [0, 18446744073709551615], found {}", Shown(*value)));
    return std::nullopt;
  }
  return value->get<std::uint64_t>();
}

std::optional<double> JsonChecker::Real(const nlohmann::json& object, const std::string& path,
                                        const std::string& key, RealRange range, bool required) {
  const nlohmann::json* value = Member(object, path, key, required);
  return value == nullptr ? std::nullopt : RealValue(*value, ChildPath(path, key), range);
}

std::optional<std::string> JsonChecker::String(const nlohmann::json& object,
                                               const std::string& path, const std::string& key,
                                               bool required) {
  const nlohmann::json* value = Member(object, path, key, required);
  if (value == nullptr) {
    return std::nullopt;
  }
  if (!value->is_string()) {
    Error(ChildPath(path, key), fmt::format("expected a string, found {}", Shown(*value)));
    return std::nullopt;
  }
  return value->get<std::string>();
}

void JsonChecker::UnknownKeys(const nlohmann::json& object, const std::string& path,
                              const std::vector<std::string>& known) {
  for (const auto& item : object.items()) {
    const std::string& key = item.key();
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      const std::string shown = ShownName(key);
      diagnostics_.Warning(ChildPath(path, shown),
                           fmt::format("unknown key '{}'{}", shown, DidYouMean(key, known)));
    }
  }
}

}  // namespace fleetsim
