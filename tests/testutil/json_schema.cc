// The test-only JSON Schema validator: a keyword table (what each supported keyword's value must
// look like, and the function that applies it), a checker that walks a whole schema refusing
// anything outside the table, and a validator that applies a checked schema to an instance.
#include "testutil/json_schema.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <regex>
#include <set>
#include <stdexcept>

namespace fleetsim::testing {

namespace {

using nlohmann::json;

// Deeper nesting than this while validating means a "$ref" cycle.
constexpr int kMaxDepth = 200;

// What a keyword's value must look like; decides how the schema checker walks it.
enum class Shape {
  kAnnotation,  // anything; ignored when validating
  kSchema,      // a subschema
  kSchemaMap,   // an object whose values are subschemas
  kSchemaList,  // a non-empty array of subschemas
  kStringList,  // an array of strings
  kCount,       // a non-negative integer
  kNumber,      // a number
  kTypes,       // a type name, or a non-empty array of them
  kPattern,     // an ECMAScript regular expression
  kValueList,   // a non-empty array of values
  kValue,       // any value
  kRef,         // "#/$defs/NAME", naming an existing definition
};

// RFC 6901 JSON pointer of `key` under `path`.
std::string Child(const std::string& path, const std::string& key) {
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

std::string Child(const std::string& path, std::size_t index) {
  return fmt::format("{}/{}", path, index);
}

// A value as shown in messages: its JSON text, cut to 60 characters.
std::string Shown(const json& value) {
  std::string text = value.dump();
  if (text.size() > 60) {
    text = text.substr(0, 57) + "...";
  }
  return text;
}

std::string Join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    out += (i == 0 ? "" : separator) + parts[i];
  }
  return out;
}

[[noreturn]] void Unsupported(const std::string& schema_path, const std::string& message) {
  throw std::runtime_error(
      fmt::format("JSON Schema at '#{}' is outside the tested subset: {}", schema_path, message));
}

template <typename T>
int Sign(T a, T b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

bool IsNegativeInteger(const json& value) {
  return !value.is_number_unsigned() && value.get<std::int64_t>() < 0;
}

// The sign of a - b for two JSON numbers; exact when both are integers.
int CompareNumbers(const json& a, const json& b) {
  if (!a.is_number_integer() || !b.is_number_integer()) {
    return Sign(a.get<double>(), b.get<double>());
  }
  const bool a_negative = IsNegativeInteger(a);
  if (a_negative != IsNegativeInteger(b)) {
    return a_negative ? -1 : 1;
  }
  if (a_negative) {
    return Sign(a.get<std::int64_t>(), b.get<std::int64_t>());
  }
  return Sign(a.get<std::uint64_t>(), b.get<std::uint64_t>());
}

bool IsCount(const json& value) { return value.is_number_integer() && !IsNegativeInteger(value); }

// Unicode code points in UTF-8 text, which is what JSON Schema's string lengths count.
std::uint64_t CodePoints(const std::string& text) {
  return static_cast<std::uint64_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0U) != 0x80U;
  }));
}

bool IsTypeName(const json& value) {
  static const auto* const kNames = new std::set<std::string>{
      "null", "boolean", "object", "array", "number", "integer", "string"};
  return value.is_string() && kNames->count(value.get<std::string>()) == 1;
}

bool HasType(const json& instance, const std::string& type) {
  if (type == "null") {
    return instance.is_null();
  }
  if (type == "boolean") {
    return instance.is_boolean();
  }
  if (type == "object") {
    return instance.is_object();
  }
  if (type == "array") {
    return instance.is_array();
  }
  if (type == "number") {
    return instance.is_number();
  }
  if (type == "integer") {
    return instance.is_number_integer();  // a JSON integer literal, as the loader reads it
  }
  return instance.is_string();
}

// The definition a "$ref" names; throws unless it is "#/$defs/NAME" and NAME exists.
const json& ResolveRef(const json& root, const json& ref, const std::string& schema_path) {
  static const std::string kPrefix = "#/$defs/";
  if (!ref.is_string() || ref.get<std::string>().rfind(kPrefix, 0) != 0) {
    Unsupported(schema_path,
                fmt::format("'$ref' must be \"{}NAME\", found {}", kPrefix, Shown(ref)));
  }
  const std::string name = ref.get<std::string>().substr(kPrefix.size());
  const auto defs = root.is_object() ? root.find("$defs") : root.end();
  if (!root.is_object() || defs == root.end() || !defs->is_object() || !defs->contains(name)) {
    Unsupported(schema_path, fmt::format("'$ref' {} does not resolve", Shown(ref)));
  }
  return defs->at(name);
}

class Validator {
 public:
  // Where a keyword is being applied.
  struct At {
    const json& value;         // the keyword's value
    const json& schema;        // the schema object holding the keyword
    const json& instance;      // the value being validated
    const std::string& where;  // its JSON pointer
  };
  using Check = void (Validator::*)(const At&);
  struct Keyword {
    Shape shape;
    Check check;  // nullptr for annotations
  };

  static const std::map<std::string, Keyword>& Table();

  Validator(const json& root, int depth) : root_(root), depth_(depth) {}

  std::vector<std::string> Run(const json& schema, const json& instance, const std::string& where);

 private:
  std::vector<std::string> Sub(const json& schema, const json& instance,
                               const std::string& where) const {
    return Validator(root_, depth_ + 1).Run(schema, instance, where);
  }
  void Add(const std::string& where, const std::string& keyword, const std::string& message) {
    errors_.push_back(fmt::format("{}: {}: {}", where.empty() ? "/" : where, keyword, message));
  }
  void Append(const std::vector<std::string>& more) {
    errors_.insert(errors_.end(), more.begin(), more.end());
  }
  // Errors of each alternative of an anyOf/oneOf, and how many matched.
  std::size_t Alternatives(const At& at, std::vector<std::string>& reasons) const;
  void CheckBound(const At& at, const char* keyword, const char* relation, bool ok);

  void Type(const At& at);
  void Properties(const At& at);
  void Required(const At& at);
  void AdditionalProperties(const At& at);
  void Items(const At& at);
  void Contains(const At& at);
  void MinItems(const At& at);
  void MinLength(const At& at);
  void Minimum(const At& at);
  void Maximum(const At& at);
  void ExclusiveMinimum(const At& at);
  void ExclusiveMaximum(const At& at);
  void Pattern(const At& at);
  void Enum(const At& at);
  void Const(const At& at);
  void AnyOf(const At& at);
  void OneOf(const At& at);
  void AllOf(const At& at);
  void Ref(const At& at);

  const json& root_;
  int depth_;
  std::vector<std::string> errors_;
};

const std::map<std::string, Validator::Keyword>& Validator::Table() {
  static const auto* const kTable = new std::map<std::string, Keyword>{
      {"$schema", {Shape::kAnnotation, nullptr}},
      {"$id", {Shape::kAnnotation, nullptr}},
      {"title", {Shape::kAnnotation, nullptr}},
      {"description", {Shape::kAnnotation, nullptr}},
      {"$comment", {Shape::kAnnotation, nullptr}},
      {"default", {Shape::kAnnotation, nullptr}},
      {"examples", {Shape::kAnnotation, nullptr}},
      {"$defs", {Shape::kSchemaMap, nullptr}},
      {"type", {Shape::kTypes, &Validator::Type}},
      {"properties", {Shape::kSchemaMap, &Validator::Properties}},
      {"required", {Shape::kStringList, &Validator::Required}},
      {"additionalProperties", {Shape::kSchema, &Validator::AdditionalProperties}},
      {"items", {Shape::kSchema, &Validator::Items}},
      {"contains", {Shape::kSchema, &Validator::Contains}},
      {"minItems", {Shape::kCount, &Validator::MinItems}},
      {"minLength", {Shape::kCount, &Validator::MinLength}},
      {"minimum", {Shape::kNumber, &Validator::Minimum}},
      {"maximum", {Shape::kNumber, &Validator::Maximum}},
      {"exclusiveMinimum", {Shape::kNumber, &Validator::ExclusiveMinimum}},
      {"exclusiveMaximum", {Shape::kNumber, &Validator::ExclusiveMaximum}},
      {"pattern", {Shape::kPattern, &Validator::Pattern}},
      {"enum", {Shape::kValueList, &Validator::Enum}},
      {"const", {Shape::kValue, &Validator::Const}},
      {"anyOf", {Shape::kSchemaList, &Validator::AnyOf}},
      {"oneOf", {Shape::kSchemaList, &Validator::OneOf}},
      {"allOf", {Shape::kSchemaList, &Validator::AllOf}},
      {"$ref", {Shape::kRef, &Validator::Ref}},
  };
  return *kTable;
}

std::vector<std::string> Validator::Run(const json& schema, const json& instance,
                                        const std::string& where) {
  if (depth_ > kMaxDepth) {
    throw std::runtime_error("JSON Schema validation nests too deeply: is there a $ref cycle?");
  }
  if (schema.is_boolean()) {
    if (!schema.get<bool>()) {
      Add(where, "false", "no value is allowed here");
    }
    return errors_;
  }
  for (const auto& item : schema.items()) {
    const Check check = Table().at(item.key()).check;
    if (check != nullptr) {
      (this->*check)({item.value(), schema, instance, where});
    }
  }
  return errors_;
}

void Validator::Type(const At& at) {
  const json types = at.value.is_array() ? at.value : json::array({at.value});
  for (const json& type : types) {
    if (HasType(at.instance, type.get<std::string>())) {
      return;
    }
  }
  std::vector<std::string> names;
  for (const json& type : types) {
    names.push_back(type.get<std::string>());
  }
  Add(at.where, "type",
      fmt::format("expected {}, found {}", Join(names, " or "), Shown(at.instance)));
}

void Validator::Properties(const At& at) {
  if (!at.instance.is_object()) {
    return;
  }
  for (const auto& item : at.value.items()) {
    const auto found = at.instance.find(item.key());
    if (found != at.instance.end()) {
      Append(Sub(item.value(), *found, Child(at.where, item.key())));
    }
  }
}

void Validator::Required(const At& at) {
  if (!at.instance.is_object()) {
    return;
  }
  for (const json& key : at.value) {
    if (!at.instance.contains(key.get<std::string>())) {
      Add(at.where, "required", fmt::format("missing required key {}", key.dump()));
    }
  }
}

void Validator::AdditionalProperties(const At& at) {
  if (!at.instance.is_object()) {
    return;
  }
  const auto declared = at.schema.find("properties");
  for (const auto& item : at.instance.items()) {
    if (declared != at.schema.end() && declared->contains(item.key())) {
      continue;
    }
    const std::string where = Child(at.where, item.key());
    if (at.value == json(false)) {
      Add(where, "additionalProperties", fmt::format("key \"{}\" is not allowed", item.key()));
    } else {
      Append(Sub(at.value, item.value(), where));
    }
  }
}

void Validator::Items(const At& at) {
  if (!at.instance.is_array()) {
    return;
  }
  for (std::size_t i = 0; i < at.instance.size(); ++i) {
    Append(Sub(at.value, at.instance[i], Child(at.where, i)));
  }
}

void Validator::Contains(const At& at) {
  if (!at.instance.is_array()) {
    return;
  }
  for (std::size_t i = 0; i < at.instance.size(); ++i) {
    if (Sub(at.value, at.instance[i], Child(at.where, i)).empty()) {
      return;
    }
  }
  Add(at.where, "contains", fmt::format("no item matches {}", Shown(at.value)));
}

void Validator::MinItems(const At& at) {
  const auto min = at.value.get<std::uint64_t>();
  if (at.instance.is_array() && static_cast<std::uint64_t>(at.instance.size()) < min) {
    Add(at.where, "minItems",
        fmt::format("expected at least {} items, found {}", min, at.instance.size()));
  }
}

void Validator::MinLength(const At& at) {
  const auto min = at.value.get<std::uint64_t>();
  if (at.instance.is_string() && CodePoints(at.instance.get<std::string>()) < min) {
    Add(at.where, "minLength",
        fmt::format("expected at least {} characters, found {}", min, Shown(at.instance)));
  }
}

void Validator::CheckBound(const At& at, const char* keyword, const char* relation, bool ok) {
  if (!ok) {
    Add(at.where, keyword,
        fmt::format("expected a number {} {}, found {}", relation, at.value.dump(),
                    Shown(at.instance)));
  }
}

void Validator::Minimum(const At& at) {
  if (at.instance.is_number()) {
    CheckBound(at, "minimum", ">=", CompareNumbers(at.instance, at.value) >= 0);
  }
}

void Validator::Maximum(const At& at) {
  if (at.instance.is_number()) {
    CheckBound(at, "maximum", "<=", CompareNumbers(at.instance, at.value) <= 0);
  }
}

void Validator::ExclusiveMinimum(const At& at) {
  if (at.instance.is_number()) {
    CheckBound(at, "exclusiveMinimum", ">", CompareNumbers(at.instance, at.value) > 0);
  }
}

void Validator::ExclusiveMaximum(const At& at) {
  if (at.instance.is_number()) {
    CheckBound(at, "exclusiveMaximum", "<", CompareNumbers(at.instance, at.value) < 0);
  }
}

void Validator::Pattern(const At& at) {
  if (!at.instance.is_string()) {
    return;
  }
  const std::regex pattern(at.value.get<std::string>(), std::regex::ECMAScript);
  if (!std::regex_search(at.instance.get<std::string>(), pattern)) {
    Add(at.where, "pattern",
        fmt::format("expected a match for {}, found {}", at.value.dump(), Shown(at.instance)));
  }
}

void Validator::Enum(const At& at) {
  const bool listed = std::any_of(at.value.begin(), at.value.end(),
                                  [&](const json& v) { return v == at.instance; });
  if (!listed) {
    Add(at.where, "enum",
        fmt::format("expected one of {}, found {}", at.value.dump(), Shown(at.instance)));
  }
}

void Validator::Const(const At& at) {
  if (at.value != at.instance) {
    Add(at.where, "const",
        fmt::format("expected {}, found {}", at.value.dump(), Shown(at.instance)));
  }
}

std::size_t Validator::Alternatives(const At& at, std::vector<std::string>& reasons) const {
  std::size_t matched = 0;
  for (std::size_t i = 0; i < at.value.size(); ++i) {
    const std::vector<std::string> errors = Sub(at.value[i], at.instance, at.where);
    if (errors.empty()) {
      ++matched;
      reasons.push_back(fmt::format("[{}] matches", i));
    } else {
      reasons.push_back(fmt::format("[{}] {}", i, Join(errors, "; ")));
    }
  }
  return matched;
}

void Validator::AnyOf(const At& at) {
  std::vector<std::string> reasons;
  if (Alternatives(at, reasons) == 0) {
    Add(at.where, "anyOf", "matches none of the alternatives: " + Join(reasons, " | "));
  }
}

void Validator::OneOf(const At& at) {
  std::vector<std::string> reasons;
  const std::size_t matched = Alternatives(at, reasons);
  if (matched != 1) {
    Add(at.where, "oneOf",
        fmt::format("expected exactly one alternative to match, {} did: {}", matched,
                    Join(reasons, " | ")));
  }
}

void Validator::AllOf(const At& at) {
  for (const json& schema : at.value) {
    Append(Sub(schema, at.instance, at.where));
  }
}

void Validator::Ref(const At& at) {
  Append(Sub(ResolveRef(root_, at.value, ""), at.instance, at.where));
}

// Walks a whole schema, refusing keywords outside Validator::Table() and malformed values.
class SchemaChecker {
 public:
  explicit SchemaChecker(const json& root) : root_(root) {}

  void Check(const json& schema, const std::string& path) const {
    if (schema.is_boolean()) {
      return;
    }
    if (!schema.is_object()) {
      Unsupported(path,
                  fmt::format("expected a schema (object or boolean), found {}", Shown(schema)));
    }
    for (const auto& item : schema.items()) {
      const auto& table = Validator::Table();
      const auto keyword = table.find(item.key());
      if (keyword == table.end()) {
        Unsupported(path, fmt::format("unsupported keyword \"{}\"", item.key()));
      }
      CheckValue(keyword->second.shape, item.value(), Child(path, item.key()));
    }
  }

 private:
  void CheckValue(Shape shape, const json& value, const std::string& path) const {
    switch (shape) {
      case Shape::kAnnotation:
      case Shape::kValue:
        return;
      case Shape::kSchema:
        Check(value, path);
        return;
      case Shape::kSchemaMap:
        Expect(value.is_object(), path, "an object of schemas", value);
        for (const auto& item : value.items()) {
          Check(item.value(), Child(path, item.key()));
        }
        return;
      case Shape::kSchemaList:
        Expect(value.is_array() && !value.empty(), path, "a non-empty array of schemas", value);
        for (std::size_t i = 0; i < value.size(); ++i) {
          Check(value[i], Child(path, i));
        }
        return;
      default:
        CheckLeaf(shape, value, path);
    }
  }

  void CheckLeaf(Shape shape, const json& value, const std::string& path) const {
    switch (shape) {
      case Shape::kStringList:
        Expect(value.is_array() && std::all_of(value.begin(), value.end(),
                                               [](const json& v) { return v.is_string(); }),
               path, "an array of strings", value);
        return;
      case Shape::kCount:
        Expect(IsCount(value), path, "a non-negative integer", value);
        return;
      case Shape::kNumber:
        Expect(value.is_number(), path, "a number", value);
        return;
      case Shape::kTypes:
        Expect(IsTypeName(value) || (value.is_array() && !value.empty() &&
                                     std::all_of(value.begin(), value.end(), IsTypeName)),
               path, "a type name or a non-empty array of them", value);
        return;
      case Shape::kPattern:
        CheckPattern(value, path);
        return;
      case Shape::kValueList:
        Expect(value.is_array() && !value.empty(), path, "a non-empty array", value);
        return;
      case Shape::kRef:
        ResolveRef(root_, value, path);
        return;
      default:
        Unsupported(path, "internal error: unhandled keyword shape");
    }
  }

  static void CheckPattern(const json& value, const std::string& path) {
    Expect(value.is_string(), path, "a regular expression string", value);
    try {
      const std::regex compiled(value.get<std::string>(), std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      Unsupported(path, fmt::format("pattern {} does not compile: {}", value.dump(), e.what()));
    }
  }

  static void Expect(bool ok, const std::string& path, const char* expected, const json& value) {
    if (!ok) {
      Unsupported(path, fmt::format("expected {}, found {}", expected, Shown(value)));
    }
  }

  const json& root_;
};

}  // namespace

void CheckSchemaIsSupported(const nlohmann::json& schema) {
  SchemaChecker(schema).Check(schema, "");
}

std::vector<std::string> ValidateAgainstSchema(const nlohmann::json& schema,
                                               const nlohmann::json& instance) {
  CheckSchemaIsSupported(schema);
  return Validator(schema, 0).Run(schema, instance, "");
}

}  // namespace fleetsim::testing
