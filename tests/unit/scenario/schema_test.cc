// Keeps scenarios/schema/scenario.schema.json in agreement with the scenario loader:
//  - the schema is valid JSON, uses only keywords the test validator supports, and describes
//    every property;
//  - every example scenario passes both the schema and the strict loader, and every invalid
//    fixture (tests/data/schema/invalid-*.json) fails both, at the same JSON pointer;
//  - every key the schema declares, at every level, is a key the loader knows, and an unknown
//    key is refused by both at every level;
//  - at every bound, type and pattern of every value, the schema and the loader accept and
//    refuse the same values (probing around tests/data/schema/valid-every-key.json).
// Also unit tests of the test-only validator (testutil/json_schema.h), each keyword shown to
// fail, so that agreement with the schema is not agreement with a validator that cannot fail.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "fleetsim/policy/registry.h"
#include "fleetsim/scenario/scenario.h"
#include "testutil/json_schema.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

using nlohmann::json;
using testing::CheckSchemaIsSupported;
using testing::DataPath;
using testing::FilesIn;
using testing::ReadFile;
using testing::SourcePath;
using testing::ValidateAgainstSchema;

// ---- Helpers ------------------------------------------------------------------------------

const json& Schema() {
  static const auto* const kSchema =
      new json(json::parse(ReadFile(SourcePath("scenarios/schema/scenario.schema.json"))));
  return *kSchema;
}

json EveryKeyScenario() { return json::parse(ReadFile(DataPath("schema/valid-every-key.json"))); }

json MinimalScenario() {
  return json::parse(R"({"format_version": 1, "name": "minimal", "fleet": {"gpus": 8},
                         "jobs": [{"id": "a", "submit_s": 0, "gpus": 1, "duration_s": 60}]})");
}

LoadResult LoadStrict(const std::string& text, const std::string& source) {
  static const auto* const kRegistry = new PolicyRegistry(BuiltinPolicies());
  return ParseScenario(text, source, *kRegistry, {.strict = true});
}

LoadResult LoadStrict(const json& scenario) { return LoadStrict(scenario.dump(), "probe.json"); }

std::string Messages(const LoadResult& result) {
  return result.file_error + result.diagnostics.Format("loader");
}

std::string Lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) {
    out += "  " + line + "\n";
  }
  return out;
}

// True if a schema error is reported at `pointer` ("" for the whole document).
bool SchemaErrorAt(const std::vector<std::string>& errors, const std::string& pointer) {
  const std::string prefix = (pointer.empty() ? "/" : pointer) + ": ";
  for (const std::string& error : errors) {
    if (error.rfind(prefix, 0) == 0) {
      return true;
    }
  }
  return false;
}

bool LoaderDiagnosticAt(const LoadResult& result, const std::string& pointer,
                        const std::string& message_prefix = "") {
  for (const Diagnostic& d : result.diagnostics.items()) {
    if (d.where == pointer && d.message.rfind(message_prefix, 0) == 0) {
      return true;
    }
  }
  return false;
}

// ---- Walking the schema alongside the every-key scenario ------------------------------------

// The schema with a "$ref" replaced by the definition's keywords (the schema's own win).
json Effective(const json& schema) {
  if (!schema.is_object() || !schema.contains("$ref")) {
    return schema;
  }
  const auto ref = schema.at("$ref").get<std::string>();
  json merged = Effective(Schema().at(json::json_pointer(ref.substr(1))));
  for (const auto& item : schema.items()) {
    if (item.key() != "$ref") {
      merged[item.key()] = item.value();
    }
  }
  return merged;
}

// A value in the every-key scenario and the (effective) schema that applies to it.
struct Leaf {
  std::string pointer;
  json schema;
};

struct SchemaWalk {
  std::vector<std::string> levels;    // objects with declared properties
  std::vector<std::string> declared;  // every declared key, as a pointer
  std::vector<Leaf> leaves;           // everything else: scalars, arrays, free-form objects
};

void Walk(const json& raw_schema, const json& instance, const std::string& pointer,
          SchemaWalk& out) {
  const json schema = Effective(raw_schema);
  if (schema.contains("properties")) {
    out.levels.push_back(pointer);
    for (const auto& item : schema.at("properties").items()) {
      const std::string child = pointer + "/" + item.key();
      out.declared.push_back(child);
      if (instance.is_object() && instance.contains(item.key())) {
        Walk(item.value(), instance.at(item.key()), child, out);
      }
    }
    return;
  }
  out.leaves.push_back({pointer, schema});
  if (schema.contains("items") && instance.is_array() && !instance.empty()) {
    Walk(schema.at("items"), instance[0], pointer + "/0", out);
  }
}

const SchemaWalk& EveryKeyWalk() {
  static const auto* const kWalk = [] {
    auto* walk = new SchemaWalk;
    Walk(Schema(), EveryKeyScenario(), "", *walk);
    return walk;
  }();
  return *kWalk;
}

// ---- Probes: values around each bound, of wrong types, against each pattern ------------------

struct Probe {
  std::string name;
  json value;
};

bool HasType(const json& schema, const std::string& type) {
  const json types = schema.value("type", json());
  const json wanted(type);
  return types == wanted ||
         (types.is_array() && std::find(types.begin(), types.end(), wanted) != types.end());
}

bool IsIntegerSchema(const json& schema) {
  return HasType(schema, "integer") && !HasType(schema, "number");
}

// `bound` moved one step (1 for integers, one ulp for numbers) in `direction`; nullopt when the
// result is not representable as the same kind of JSON number.
std::optional<json> Step(const json& bound, bool integer, int direction) {
  if (!integer) {
    const double toward = direction < 0 ? -HUGE_VAL : HUGE_VAL;
    return json(std::nextafter(bound.get<double>(), toward));
  }
  if (bound.is_number_unsigned()) {
    const auto u = bound.get<std::uint64_t>();
    if (direction > 0) {
      return u == std::numeric_limits<std::uint64_t>::max() ? std::nullopt
                                                            : std::optional(json(u + 1));
    }
    return u == 0 ? json(std::int64_t{-1}) : json(u - 1);
  }
  return json(bound.get<std::int64_t>() + direction);
}

void AddBoundProbes(const json& schema, std::vector<Probe>& probes) {
  const bool integer = IsIntegerSchema(schema);
  const auto add = [&](const char* name, const json& bound, int direction) {
    if (const std::optional<json> moved = Step(bound, integer, direction)) {
      probes.push_back({name, *moved});
    }
  };
  if (schema.contains("minimum")) {
    probes.push_back({"at minimum", schema["minimum"]});
    add("below minimum", schema["minimum"], -1);
  }
  if (schema.contains("maximum")) {
    probes.push_back({"at maximum", schema["maximum"]});
    add("above maximum", schema["maximum"], +1);
  }
  if (schema.contains("exclusiveMinimum")) {
    probes.push_back({"at exclusiveMinimum", schema["exclusiveMinimum"]});
    add("just above exclusiveMinimum", schema["exclusiveMinimum"], +1);
  }
}

void AddTypeProbes(const json& schema, std::vector<Probe>& probes) {
  if (HasType(schema, "string")) {
    probes.push_back({"a number instead of a string", 7});
  } else {
    probes.push_back({"a string", "1"});
  }
  if (IsIntegerSchema(schema)) {
    probes.push_back({"a fraction", 1.5});
    const json at = schema.value("minimum", json(1));
    probes.push_back({"an integer written as a float", json(at.get<double>())});
  }
  if (HasType(schema, "array") && schema.contains("minItems")) {
    probes.push_back({"an empty array", json::array()});
  }
}

void AddValueProbes(const json& schema, std::vector<Probe>& probes) {
  if (schema.contains("pattern")) {
    probes.push_back({"letters, digits and . _ -", "Ab9._-z"});
    probes.push_back({"an empty string", ""});
    probes.push_back({"a space", "a b"});
    probes.push_back({"a slash", "a/b"});
    probes.push_back({"a trailing newline", "ab\n"});
  }
  if (schema.contains("enum")) {
    probes.push_back({"not in enum", "no-such-value"});
  }
  if (schema.contains("const") && schema["const"].is_number_integer()) {
    probes.push_back({"const + 1", schema["const"].get<std::int64_t>() + 1});
  }
}

std::vector<Probe> ProbesFor(const json& schema) {
  std::vector<Probe> probes;
  AddTypeProbes(schema, probes);
  AddBoundProbes(schema, probes);
  AddValueProbes(schema, probes);
  return probes;
}

// ---- The schema itself ----------------------------------------------------------------------

TEST(ScenarioSchemaTest, IsValidJsonUsingOnlySupportedKeywords) {
  const std::string text = ReadFile(SourcePath("scenarios/schema/scenario.schema.json"));
  ASSERT_TRUE(json::accept(text));
  EXPECT_NO_THROW(CheckSchemaIsSupported(Schema()));
  EXPECT_EQ(Schema().value("$schema", ""), "https://json-schema.org/draft/2020-12/schema");
  EXPECT_EQ(Schema().value("$id", ""), "https://fleetsim.dev/schema/scenario.schema.json");
}

void ExpectDescribed(const json& schema, const std::string& path) {
  if (!schema.is_object()) {
    return;
  }
  for (const auto& item : schema.items()) {
    const std::string child = path + "/" + item.key();
    if (item.key() == "properties") {
      for (const auto& property : item.value().items()) {
        EXPECT_FALSE(property.value().value("description", "").empty())
            << child << "/" << property.key() << " has no description";
      }
    }
    if (item.value().is_object() || item.value().is_array()) {
      for (const auto& sub : item.value().items()) {
        ExpectDescribed(sub.value(), child + "/" + sub.key());
      }
    }
  }
}

TEST(ScenarioSchemaTest, DescribesEveryProperty) { ExpectDescribed(Schema(), "#"); }

TEST(ScenarioSchemaTest, PolicyNamesAreTheRegisteredOnes) {
  const json names = Schema().at(json::json_pointer("/properties/policy/properties/name/enum"));
  EXPECT_EQ(names.get<std::vector<std::string>>(), BuiltinPolicies().Names())
      << "update the policy name enum in scenarios/schema/scenario.schema.json";
}

// ---- Examples and fixtures ------------------------------------------------------------------

std::vector<std::string> ValidScenarioFiles() {
  std::vector<std::string> files = FilesIn("scenarios/examples", ".json");
  for (const std::string& path : FilesIn("tests/data/schema", ".json")) {
    if (path.find("/valid-") != std::string::npos) {
      files.push_back(path);
    }
  }
  return files;
}

TEST(ScenarioSchemaTest, EveryExampleValidatesAndLoadsWithoutDiagnostics) {
  const std::vector<std::string> files = ValidScenarioFiles();
  ASSERT_GE(files.size(), 4U) << "expected scenarios/examples/*.json and a valid- fixture";
  for (const std::string& path : files) {
    const std::string text = ReadFile(path);
    EXPECT_EQ(ValidateAgainstSchema(Schema(), json::parse(text)), std::vector<std::string>{})
        << path;
    const LoadResult result = LoadStrict(text, path);
    EXPECT_TRUE(result.scenario.has_value()) << path << "\n" << Messages(result);
    EXPECT_TRUE(result.diagnostics.empty()) << path << "\n" << Messages(result);
  }
}

// Each invalid fixture and the JSON pointer ("" for the whole document) where both the schema
// and the loader must report it.
const std::map<std::string, std::string>& InvalidFixtures() {
  static const auto* const kFixtures = new std::map<std::string, std::string>{
      {"invalid-bad-job-id.json", "/jobs/0/id"},
      {"invalid-gpus-string.json", "/fleet/gpus"},
      {"invalid-missing-fleet.json", ""},
      {"invalid-negative-duration.json", "/jobs/0/duration_s"},
      {"invalid-no-jobs-or-generator.json", ""},
      {"invalid-unknown-top-level-key.json", "/polcy"},
  };
  return *kFixtures;
}

TEST(ScenarioSchemaTest, EveryInvalidFixtureIsListed) {
  std::set<std::string> on_disk;
  for (const std::string& path : FilesIn("tests/data/schema", ".json")) {
    const std::string name = path.substr(path.rfind('/') + 1);
    if (name.rfind("invalid-", 0) == 0) {
      on_disk.insert(name);
      EXPECT_EQ(InvalidFixtures().count(name), 1U) << name << " is not in InvalidFixtures()";
    }
  }
  EXPECT_EQ(on_disk.size(), InvalidFixtures().size());
}

TEST(ScenarioSchemaTest, EveryInvalidFixtureFailsSchemaAndLoaderAtTheSamePlace) {
  for (const auto& [name, pointer] : InvalidFixtures()) {
    const std::string path = DataPath("schema/" + name);
    const std::string text = ReadFile(path);
    const std::vector<std::string> errors = ValidateAgainstSchema(Schema(), json::parse(text));
    EXPECT_TRUE(SchemaErrorAt(errors, pointer))
        << name << ": no schema error at '" << pointer << "'; got:\n"
        << Lines(errors);
    const LoadResult result = LoadStrict(text, path);
    EXPECT_FALSE(result.scenario.has_value()) << name;
    EXPECT_TRUE(LoaderDiagnosticAt(result, pointer))
        << name << ": no loader diagnostic at '" << pointer << "'; got:\n"
        << Messages(result);
  }
}

TEST(ScenarioSchemaTest, EmptyJobListWithoutGeneratorIsAcceptedByBoth) {
  json scenario = MinimalScenario();
  scenario["jobs"] = json::array();
  EXPECT_EQ(ValidateAgainstSchema(Schema(), scenario), std::vector<std::string>{});
  const LoadResult result = LoadStrict(scenario);
  EXPECT_TRUE(result.scenario.has_value()) << Messages(result);
}

TEST(ScenarioSchemaTest, AllZeroWeightsAreRefusedByBoth) {
  json scenario = EveryKeyScenario();
  scenario["generator"]["priority"]["weights"] = {0, 0};
  EXPECT_TRUE(
      SchemaErrorAt(ValidateAgainstSchema(Schema(), scenario), "/generator/priority/weights"));
  const LoadResult result = LoadStrict(scenario);
  EXPECT_TRUE(LoaderDiagnosticAt(result, "/generator/priority/weights")) << Messages(result);
}

// ---- Keys: what the schema declares, the loader knows ---------------------------------------

TEST(ScenarioSchemaTest, EveryKeyFixtureUsesEveryDeclaredKey) {
  const SchemaWalk& walk = EveryKeyWalk();
  const std::set<std::string> expected_levels = {"",
                                                 "/fleet",
                                                 "/policy",
                                                 "/run",
                                                 "/jobs/0",
                                                 "/generator",
                                                 "/generator/duration_s",
                                                 "/generator/gpus",
                                                 "/generator/priority"};
  EXPECT_EQ(std::set<std::string>(walk.levels.begin(), walk.levels.end()), expected_levels);
  const json scenario = EveryKeyScenario();
  for (const std::string& pointer : walk.declared) {
    EXPECT_TRUE(scenario.contains(json::json_pointer(pointer)))
        << "tests/data/schema/valid-every-key.json does not use " << pointer;
  }
}

TEST(ScenarioSchemaTest, LoaderKnowsEveryDeclaredKey) {
  const json every_key = EveryKeyScenario();
  for (const std::string& pointer : EveryKeyWalk().declared) {
    json scenario = MinimalScenario();
    const json::json_pointer where(pointer);
    // A key the every-key fixture lacks is reported by EveryKeyFixtureUsesEveryDeclaredKey;
    // any value will do to ask the loader whether it knows the key.
    scenario[where] = every_key.contains(where) ? every_key.at(where) : json(1);
    const LoadResult result = LoadStrict(scenario);
    for (const Diagnostic& d : result.diagnostics.items()) {
      EXPECT_EQ(d.message.rfind("unknown key", 0), std::string::npos)
          << pointer << ": the schema declares it, the loader says " << d.where << ": "
          << d.message;
    }
  }
}

TEST(ScenarioSchemaTest, UnknownKeysAreRefusedByBothAtEveryLevel) {
  for (const std::string& level : EveryKeyWalk().levels) {
    json scenario = EveryKeyScenario();
    const std::string pointer = level + "/not_a_key";
    scenario[json::json_pointer(pointer)] = 1;
    const std::vector<std::string> errors = ValidateAgainstSchema(Schema(), scenario);
    EXPECT_TRUE(SchemaErrorAt(errors, pointer)) << pointer << ":\n" << Lines(errors);
    const LoadResult result = LoadStrict(scenario);
    EXPECT_FALSE(result.scenario.has_value()) << pointer;
    EXPECT_TRUE(LoaderDiagnosticAt(result, pointer, "unknown key")) << Messages(result);
  }
}

// ---- Values: the schema and the loader accept the same ones ---------------------------------

TEST(ScenarioSchemaTest, EveryLeafHasProbes) {
  for (const Leaf& leaf : EveryKeyWalk().leaves) {
    EXPECT_FALSE(ProbesFor(leaf.schema).empty()) << leaf.pointer;
  }
  EXPECT_GE(EveryKeyWalk().leaves.size(), 25U);
}

TEST(ScenarioSchemaTest, SchemaAndLoaderAgreeAroundEveryBoundTypeAndPattern) {
  for (const Leaf& leaf : EveryKeyWalk().leaves) {
    for (const Probe& probe : ProbesFor(leaf.schema)) {
      json scenario = EveryKeyScenario();
      scenario[json::json_pointer(leaf.pointer)] = probe.value;
      const std::vector<std::string> errors = ValidateAgainstSchema(Schema(), scenario);
      const LoadResult result = LoadStrict(scenario);
      EXPECT_EQ(errors.empty(), result.scenario.has_value())
          << leaf.pointer << " = " << probe.value.dump() << " (" << probe.name << ")\n"
          << "schema:\n"
          << Lines(errors) << "loader:\n"
          << Messages(result);
    }
  }
}

// ---- The test validator itself --------------------------------------------------------------

struct KeywordCase {
  const char* keyword;
  const char* schema;
  const char* passes;
  const char* fails;
  const char* error;  // the start of the failing instance's first error
};

const std::vector<KeywordCase>& KeywordCases() {
  static const auto* const kCases = new std::vector<KeywordCase>{
      {"type", R"({"type": "integer"})", "3", "3.0", "/: type: expected integer, found 3.0"},
      {"type", R"({"type": ["string", "null"]})", "null", "1", "/: type:"},
      {"type", R"({"type": "number"})", "3", "\"3\"", "/: type:"},
      {"properties", R"({"properties": {"a": {"type": "string"}}})", R"({"a": "x"})", R"({"a": 1})",
       "/a: type:"},
      {"required", R"({"required": ["a"]})", R"({"a": 1})", R"({"b": 1})",
       "/: required: missing required key \"a\""},
      {"additionalProperties", R"({"properties": {"a": true}, "additionalProperties": false})",
       R"({"a": 1})", R"({"a": 1, "b": 2})", "/b: additionalProperties:"},
      {"additionalProperties", R"({"additionalProperties": {"type": "boolean"}})", R"({"x": true})",
       R"({"x": 1})", "/x: type:"},
      {"items", R"({"items": {"type": "integer"}})", "[1, 2]", R"([1, "2"])", "/1: type:"},
      {"contains", R"({"contains": {"const": 2}})", "[1, 2]", "[1, 3]", "/: contains:"},
      {"minItems", R"({"minItems": 2})", "[1, 2]", "[1]", "/: minItems:"},
      {"minLength", R"({"minLength": 2})", "\"\u00e9a\"", "\"\u00e9\"", "/: minLength:"},
      {"minimum", R"({"minimum": 1})", "1", "0.5", "/: minimum:"},
      {"minimum", R"({"minimum": 0})", "0", "-1", "/: minimum:"},
      {"maximum", R"({"maximum": 1})", "1", "1.5", "/: maximum:"},
      {"maximum", R"({"maximum": 9007199254740992})", "9007199254740992", "9007199254740993",
       "/: maximum:"},
      {"maximum", R"({"maximum": 18446744073709551615})", "18446744073709551615", "1e30",
       "/: maximum:"},
      {"exclusiveMinimum", R"({"exclusiveMinimum": 0})", "1e-300", "0", "/: exclusiveMinimum:"},
      {"exclusiveMaximum", R"({"exclusiveMaximum": 10})", "9.99", "10", "/: exclusiveMaximum:"},
      {"pattern", R"({"pattern": "^a+$"})", "\"aa\"", "\"ab\"", "/: pattern:"},
      {"pattern", R"({"pattern": "b"})", "\"abc\"", "\"xyz\"", "/: pattern:"},
      {"enum", R"({"enum": ["x", 1]})", "1.0", "\"y\"", "/: enum:"},
      {"const", R"({"const": {"a": [1]}})", R"({"a": [1]})", R"({"a": [2]})", "/: const:"},
      {"anyOf", R"({"anyOf": [{"type": "string"}, {"minimum": 5}]})", "7", "3", "/: anyOf:"},
      {"oneOf", R"({"oneOf": [{"minimum": 0}, {"maximum": 10}]})", "20", "5", "/: oneOf:"},
      {"allOf", R"({"allOf": [{"minimum": 0}, {"maximum": 10}]})", "5", "11", "/: maximum:"},
      {"$ref", R"({"$defs": {"n": {"type": "integer"}}, "$ref": "#/$defs/n"})", "1", "\"1\"",
       "/: type:"},
      {"false", R"({"properties": {"a": false}})", "{}", R"({"a": 1})", "/a: false:"},
  };
  return *kCases;
}

TEST(JsonSchemaValidatorTest, EverySupportedKeywordCanPassAndFail) {
  for (const KeywordCase& c : KeywordCases()) {
    const json schema = json::parse(c.schema);
    EXPECT_EQ(ValidateAgainstSchema(schema, json::parse(c.passes)), std::vector<std::string>{})
        << c.keyword << ": " << c.schema << " should accept " << c.passes;
    const std::vector<std::string> errors = ValidateAgainstSchema(schema, json::parse(c.fails));
    ASSERT_FALSE(errors.empty()) << c.keyword << ": " << c.schema << " accepted " << c.fails;
    EXPECT_EQ(errors[0].rfind(c.error, 0), 0U) << c.keyword << ": got " << errors[0];
  }
}

TEST(JsonSchemaValidatorTest, KeywordsForOtherTypesIgnoreAnInstance) {
  const json schema = json::parse(R"({"required": ["a"], "minimum": 5, "pattern": "x",
                                      "items": false, "minItems": 3, "minLength": 9})");
  EXPECT_EQ(ValidateAgainstSchema(schema, json(true)), std::vector<std::string>{});
}

TEST(JsonSchemaValidatorTest, ErrorsNameEscapedPointersAndAreAllReported) {
  const json schema = json::parse(R"({"properties": {"a/b": {"properties": {"c~d":
                                      {"type": "string", "minLength": 3}}}}})");
  const std::vector<std::string> errors =
      ValidateAgainstSchema(schema, json::parse(R"({"a/b": {"c~d": 1}})"));
  EXPECT_EQ(errors, std::vector<std::string>{"/a~1b/c~0d: type: expected string, found 1"});
  const json two = json::parse(R"({"required": ["x", "y"]})");
  EXPECT_EQ(ValidateAgainstSchema(two, json::object()).size(), 2U);
}

TEST(JsonSchemaValidatorTest, AnnotationsAreIgnored) {
  const json schema = json::parse(R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
      "$id": "https://example.com/s", "title": "t", "description": "d", "$comment": "c",
      "default": 5, "examples": [1], "$defs": {"unused": {"type": "string"}}})");
  EXPECT_EQ(ValidateAgainstSchema(schema, json::parse(R"({"anything": [1, "x"]})")),
            std::vector<std::string>{});
}

// The message of the exception validating against `schema` throws, or "" if none.
std::string Refusal(const std::string& schema) {
  try {
    ValidateAgainstSchema(json::parse(schema), json(1));
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(JsonSchemaValidatorTest, RefusesKeywordsOutsideTheSubsetWherever) {
  EXPECT_NE(Refusal(R"({"if": {"type": "integer"}})").find("\"if\""), std::string::npos);
  EXPECT_NE(
      Refusal(R"({"properties": {"a": {"patternProperties": {}}}})").find("\"patternProperties\""),
      std::string::npos);
  EXPECT_NE(Refusal(R"({"$defs": {"x": {"format": "email"}}})").find("\"format\""),
            std::string::npos);
  EXPECT_NE(Refusal(R"({"anyOf": [{"maxItems": 1}]})").find("\"maxItems\""), std::string::npos);
  EXPECT_NE(Refusal(R"({"items": {"uniqueItems": true}})").find("\"uniqueItems\""),
            std::string::npos);
}

TEST(JsonSchemaValidatorTest, RefusesMalformedKeywords) {
  for (const char* schema :
       {R"({"required": "a"})", R"({"$ref": "#/definitions/x"})", R"({"$ref": "#/$defs/missing"})",
        R"({"pattern": "("})", R"({"type": "int"})", R"({"minItems": -1})", R"({"items": [{}]})",
        R"({"anyOf": []})", R"({"minimum": "1"})", R"({"properties": 1})", "[]"}) {
    EXPECT_NE(Refusal(schema), "") << schema;
  }
}

TEST(JsonSchemaValidatorTest, RefusesReferenceCycles) {
  EXPECT_NE(Refusal(R"({"$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"})"), "");
}

}  // namespace
}  // namespace fleetsim
