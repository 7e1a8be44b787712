// Keeps scenarios/schema/scenario.schema.json in agreement with the scenario loader:
//  - the schema is valid JSON, uses only keywords the test validator supports, and describes
//    every property;
//  - every example scenario passes both the schema and the strict loader, and every invalid
//    fixture (tests/data/schema/invalid-*.json) fails both, at the same JSON pointer;
//  - every key the schema declares, at every level, is a key the loader knows, and an unknown
//    key is refused by both at every level;
//  - at every bound, type and pattern of every value, the schema and the loader accept and
//    refuse the same values (probing around the every-key fixtures,
//    tests/data/schema/valid-every-key*.json, which between them use every declared key: one
//    file cannot, since a fleet has 'gpus' or 'pools', not both);
//  - the fleet's forms, MIG values, spot blocks and failures entries, which the probes do not
//    reach, are accepted and refused alike, and each check the schema leaves to the loader is
//    accepted by the schema and refused by the loader where the schema's descriptions say.
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

// The pools form of the fleet; pool 0 uses every pool key, with a MIG-capable one-GPU template
// from the fixture's own catalog file (tests/data/schema/catalog-every-key.json).
std::string PoolsFixturePath() { return DataPath("schema/valid-every-key-pools.json"); }
json PoolsScenario() { return json::parse(ReadFile(PoolsFixturePath())); }

json MinimalScenario() {
  return json::parse(R"({"format_version": 1, "name": "minimal", "fleet": {"gpus": 8},
                         "jobs": [{"id": "a", "submit_s": 0, "gpus": 1, "duration_s": 60}]})");
}

LoadResult LoadStrict(const std::string& text, const std::string& source) {
  static const auto* const kRegistry = new PolicyRegistry(BuiltinPolicies());
  return ParseScenario(text, source, *kRegistry, {.strict = true});
}

LoadResult LoadStrict(const json& scenario) { return LoadStrict(scenario.dump(), "probe.json"); }

// Loads `scenario` as if it were the file at `source`, so that a fleet catalog path in it
// resolves beside that file.
LoadResult LoadStrictAs(const json& scenario, const std::string& source) {
  return LoadStrict(scenario.dump(), source);
}

std::string Messages(const LoadResult& result) {
  return result.file_status.message() + result.diagnostics.Format("loader");
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

// One every-key fixture: where it is (loads resolve its fleet catalog path beside it), its
// content, and the schema walked alongside it.
struct EveryKeyFixture {
  std::string path;
  json scenario;
  SchemaWalk walk;
};

// tests/data/schema/valid-every-key*.json, sorted by path.
const std::vector<EveryKeyFixture>& EveryKeyFixtures() {
  static const auto* const kFixtures = [] {
    auto* fixtures = new std::vector<EveryKeyFixture>;
    for (const std::string& path : FilesIn("tests/data/schema", ".json")) {
      if (path.substr(path.rfind('/') + 1).rfind("valid-every-key", 0) == 0) {
        EveryKeyFixture fixture{path, json::parse(ReadFile(path)), {}};
        Walk(Schema(), fixture.scenario, "", fixture.walk);
        fixtures->push_back(std::move(fixture));
      }
    }
    return fixtures;
  }();
  return *kFixtures;
}

// Every declared key, over all every-key fixtures, once each, in walk order.
std::vector<std::string> AllDeclared() {
  std::vector<std::string> all;
  for (const EveryKeyFixture& fixture : EveryKeyFixtures()) {
    for (const std::string& pointer : fixture.walk.declared) {
      if (std::find(all.begin(), all.end(), pointer) == all.end()) {
        all.push_back(pointer);
      }
    }
  }
  return all;
}

// The first every-key fixture that uses `pointer`, or nullptr.
const EveryKeyFixture* FixtureUsing(const std::string& pointer) {
  for (const EveryKeyFixture& fixture : EveryKeyFixtures()) {
    if (fixture.scenario.contains(json::json_pointer(pointer))) {
      return &fixture;
    }
  }
  return nullptr;
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
  for (const char* dir :
       {"scenarios/benchmark", "scenarios/benchmark/extended", "scenarios/sweeps/bases"}) {
    for (const std::string& path : FilesIn(dir, ".json")) {
      if (path.find("/published-figures.json") == std::string::npos) {  // not a scenario
        files.push_back(path);
      }
    }
  }
  for (const std::string& path : FilesIn("tests/data/schema", ".json")) {
    if (path.find("/valid-") != std::string::npos) {
      files.push_back(path);
    }
  }
  return files;
}

TEST(ScenarioSchemaTest, EveryExampleValidatesAndLoadsWithoutDiagnostics) {
  const std::vector<std::string> files = ValidScenarioFiles();
  ASSERT_GE(files.size(), 15U)
      << "expected scenarios/examples/*.json, scenarios/benchmark/**.json, "
         "scenarios/sweeps/bases/*.json and valid- fixtures";
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
      {"invalid-fleet-gpus-and-pools.json", "/fleet"},
      {"invalid-gpus-string.json", "/fleet/gpus"},
      {"invalid-missing-fleet.json", ""},
      {"invalid-negative-duration.json", "/jobs/0/duration_s"},
      {"invalid-no-jobs-or-generator.json", ""},
      {"invalid-pool-tier.json", "/fleet/pools/1/tier"},
      {"invalid-every-pool-zero-nodes.json", "/fleet/pools"},
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

TEST(ScenarioSchemaTest, EveryKeyFixturesTogetherUseEveryDeclaredKey) {
  const std::vector<EveryKeyFixture>& fixtures = EveryKeyFixtures();
  ASSERT_GE(fixtures.size(), 2U) << "expected valid-every-key.json and valid-every-key-pools.json";
  std::set<std::string> levels;
  for (const EveryKeyFixture& fixture : fixtures) {
    levels.insert(fixture.walk.levels.begin(), fixture.walk.levels.end());
  }
  const std::set<std::string> expected_levels = {
      "",
      "/fleet",
      "/fleet/pools/0",
      "/fleet/pools/0/autoscale",
      "/fleet/pools/0/spot",
      "/fleet/pools/0/spot/waves",
      "/policy",
      "/run",
      "/jobs/0",
      "/jobs/0/demand",
      "/trace",
      "/generator",
      "/generator/duration_s",
      "/generator/gpus",
      "/generator/priority",
      "/generator/kind",
      "/generator/tenant",
      "/generator/demand",
      "/generators/0",
      "/generators/0/duration_s",
      "/generators/0/gpus",
      "/generators/0/priority",
      "/generators/0/kind",
      "/generators/0/tenant",
      "/generators/0/demand",
      "/transforms/0",
      "/transforms/0/window",
      "/transforms/0/scale_arrivals",
      "/transforms/0/sample",
      "/transforms/0/shuffle",
      "/transforms/0/assign",
      "/transforms/0/assign/rules/0",
      "/transforms/0/assign/rules/0/when",
      "/transforms/0/assign/rules/0/when/gpus",
      "/transforms/0/assign/rules/0/when/duration_s",
      "/transforms/0/assign/rules/0/set",
      "/transforms/0/assign/mix",
      "/transforms/0/assign/mix/tenant",
      "/transforms/0/assign/mix/priority_class",
      "/transforms/0/assign/mix/priority",
      "/transforms/0/assign/mix/kind",
      "/transforms/0/fit_to_nodes",
      "/transforms/0/replicate",
      "/transforms/0/walltime_model",
      "/tenants/0",
  };
  EXPECT_EQ(levels, expected_levels);
  for (const std::string& pointer : AllDeclared()) {
    EXPECT_NE(FixtureUsing(pointer), nullptr)
        << "no tests/data/schema/valid-every-key*.json uses " << pointer;
  }
}

TEST(ScenarioSchemaTest, LoaderKnowsEveryDeclaredKey) {
  const json minimal_pools = json::parse(R"({"pools": [{"name": "p", "template": "hgx-h100",
                                                         "nodes": 1}]})");
  for (const std::string& pointer : AllDeclared()) {
    json scenario = MinimalScenario();
    // Keys of the pools form go into a pools fleet, so that only the key itself is in question.
    if (pointer.rfind("/fleet/pools", 0) == 0 || pointer == "/fleet/catalog") {
      scenario["fleet"] = minimal_pools;
    }
    const json::json_pointer where(pointer);
    // A key no every-key fixture uses is reported by EveryKeyFixturesTogetherUseEveryDeclaredKey;
    // any value will do to ask the loader whether it knows the key.
    const EveryKeyFixture* fixture = FixtureUsing(pointer);
    scenario[where] = fixture != nullptr ? fixture->scenario.at(where) : json(1);
    const LoadResult result =
        LoadStrictAs(scenario, fixture != nullptr ? fixture->path : "probe.json");
    for (const Diagnostic& d : result.diagnostics.items()) {
      EXPECT_EQ(d.message.rfind("unknown key", 0), std::string::npos)
          << pointer << ": the schema declares it, the loader says " << d.where << ": "
          << d.message;
    }
  }
}

TEST(ScenarioSchemaTest, UnknownKeysAreRefusedByBothAtEveryLevel) {
  for (const EveryKeyFixture& fixture : EveryKeyFixtures()) {
    for (const std::string& level : fixture.walk.levels) {
      json scenario = fixture.scenario;
      const std::string pointer = level + "/not_a_key";
      scenario[json::json_pointer(pointer)] = 1;
      const std::vector<std::string> errors = ValidateAgainstSchema(Schema(), scenario);
      EXPECT_TRUE(SchemaErrorAt(errors, pointer)) << pointer << ":\n" << Lines(errors);
      const LoadResult result = LoadStrictAs(scenario, fixture.path);
      EXPECT_FALSE(result.scenario.has_value()) << pointer;
      EXPECT_TRUE(LoaderDiagnosticAt(result, pointer, "unknown key")) << Messages(result);
    }
  }
}

// ---- Values: the schema and the loader accept the same ones ---------------------------------

// A check the schema leaves to the loader (see the schema's descriptions) that a probe the
// schema accepts can still fail: where the loader reports it and how its message starts.
struct LoaderOnlyCheck {
  std::string pointer;
  std::string message_prefix;
};

const std::vector<LoaderOnlyCheck>& ProbedLoaderOnlyChecks() {
  static const auto* const kChecks = new std::vector<LoaderOnlyCheck>{
      // A template name of the right pattern that the catalog does not hold.
      {"/fleet/pools/0/template", "unknown node template"},
      // Job rules tying fields together (ProblemsWith), met by bounds of one field.
      {"/jobs/0/gpus", "expected at least 1 GPU (a CPU-only job"},             // gpus 0
      {"/jobs/0/max_gpus", "expected 0 (fixed size) or an integer in [gpus"},  // gpus > max_gpus
      {"/jobs/0/gpu_milli", "a share below 1000 needs sharing"},               // sharing none
      {"/jobs/0/checkpoint_cost_s", "a checkpoint cost needs a checkpoint interval"},
      {"/jobs/0/deadline_s", "expected a deadline at or after submit_s"},
      {"/jobs/0/demand/gpus", "expected demands in [0, max_gpus"},
  };
  return *kChecks;
}

// The index in ProbedLoaderOnlyChecks() of the check explaining every error of `result`, or -1.
int ExplainingCheck(const LoadResult& result) {
  if (!result.file_status.ok()) {
    return -1;
  }
  int found = -1;
  for (const Diagnostic& d : result.diagnostics.items()) {
    const auto& checks = ProbedLoaderOnlyChecks();
    int index = -1;
    for (std::size_t i = 0; i < checks.size(); ++i) {
      if (d.where == checks[i].pointer && d.message.rfind(checks[i].message_prefix, 0) == 0) {
        index = static_cast<int>(i);
      }
    }
    if (index < 0 || (found >= 0 && found != index)) {
      return -1;
    }
    found = index;
  }
  return found;
}

TEST(ScenarioSchemaTest, EveryLeafHasProbes) {
  std::size_t leaves = 0;
  for (const EveryKeyFixture& fixture : EveryKeyFixtures()) {
    for (const Leaf& leaf : fixture.walk.leaves) {
      EXPECT_FALSE(ProbesFor(leaf.schema).empty()) << leaf.pointer;
      ++leaves;
    }
  }
  EXPECT_GE(leaves, 40U);
}

TEST(ScenarioSchemaTest, SchemaAndLoaderAgreeAroundEveryBoundTypeAndPattern) {
  std::vector<int> explained(ProbedLoaderOnlyChecks().size(), 0);
  for (const EveryKeyFixture& fixture : EveryKeyFixtures()) {
    for (const Leaf& leaf : fixture.walk.leaves) {
      for (const Probe& probe : ProbesFor(leaf.schema)) {
        json scenario = fixture.scenario;
        scenario[json::json_pointer(leaf.pointer)] = probe.value;
        const std::vector<std::string> errors = ValidateAgainstSchema(Schema(), scenario);
        const LoadResult result = LoadStrictAs(scenario, fixture.path);
        if (errors.empty() && !result.scenario.has_value()) {
          if (const int check = ExplainingCheck(result); check >= 0) {
            ++explained[static_cast<std::size_t>(check)];
            continue;
          }
        }
        EXPECT_EQ(errors.empty(), result.scenario.has_value())
            << leaf.pointer << " = " << probe.value.dump() << " (" << probe.name << ")\n"
            << "schema:\n"
            << Lines(errors) << "loader:\n"
            << Messages(result);
      }
    }
  }
  for (std::size_t i = 0; i < explained.size(); ++i) {
    EXPECT_GT(explained[i], 0) << ProbedLoaderOnlyChecks()[i].pointer
                               << ": no probe needed this loader-only check; remove it";
  }
}

// ---- The fleet: forms, pools, MIG values, spot blocks and failures the probes do not reach ---

// A change to an every-key fixture and whether the schema and the loader must accept it.
struct FleetCase {
  const char* what;
  bool pools_fixture;  // valid-every-key-pools.json, else valid-every-key.json
  const char* pointer;
  const char* value;  // JSON text
  bool valid;
  const char* where;  // when invalid: where both report it, or nullptr when they may differ
};

const std::vector<FleetCase>& FleetCases() {
  static const auto* const kCases = new std::vector<FleetCase>{
      {"gpus form", false, "/fleet", R"({"gpus": 8})", true, nullptr},
      {"a fleet file", false, "/fleet", R"("fleet-file.json")", true, nullptr},
      {"an empty fleet file name", false, "/fleet", R"("")", false, "/fleet"},
      {"an inline catalog", true, "/fleet/catalog",
       R"({"format_version": 1, "node_templates": [{"name": "h100-nvl-single", "gpu": "H100-NVL",
           "gpus_per_node": 1, "nvlink_domain_gpus": 1, "nodes_per_rack": 16}]})",
       true, nullptr},
      {"pools form", true, "/fleet/catalog", R"("catalog-every-key.json")", true, nullptr},
      {"pools without a catalog", false, "/fleet",
       R"({"pools": [{"name": "p", "template": "hgx-h100", "nodes": 2}]})", true, nullptr},
      {"both gpus and pools", true, "/fleet/gpus", "8", false, "/fleet"},
      {"neither gpus nor pools", false, "/fleet", "{}", false, "/fleet"},
      {"only a catalog", false, "/fleet", R"({"catalog": "catalog-every-key.json"})", false,
       "/fleet"},
      {"no pools", true, "/fleet/pools", "[]", false, "/fleet/pools"},
      {"pools not an array", true, "/fleet/pools", "{}", false, "/fleet/pools"},
      {"a pool not an object", true, "/fleet/pools/0", "8", false, "/fleet/pools/0"},
      {"pool without name", true, "/fleet/pools/0", R"({"template": "hgx-h100", "nodes": 1})",
       false, "/fleet/pools/0"},
      {"pool without template", true, "/fleet/pools/0", R"({"name": "p", "nodes": 1})", false,
       "/fleet/pools/0"},
      {"pool without nodes", true, "/fleet/pools/0", R"({"name": "p", "template": "hgx-h100"})",
       false, "/fleet/pools/0"},
      {"minimal pool", true, "/fleet/pools/0",
       R"({"name": "p", "template": "h100-nvl-single", "nodes": 1})", true, nullptr},
      {"empty pool name", true, "/fleet/pools/0/name", R"("")", false, "/fleet/pools/0/name"},
      {"pool name with space and slash", true, "/fleet/pools/0/name", R"("a b/c")", true, nullptr},
      {"pool name not ASCII", true, "/fleet/pools/0/name", R"("pool-\u00e9")", true, nullptr},
      {"empty cloud and region", true, "/fleet/pools/0/cloud", R"("")", true, nullptr},
      {"tier on-demand", true, "/fleet/pools/0/tier", R"("on-demand")", true, nullptr},
      {"tier reserved", true, "/fleet/pools/0/tier", R"("reserved")", true, nullptr},
      {"tier in capitals", true, "/fleet/pools/0/tier", R"("Spot")", false, "/fleet/pools/0/tier"},
      {"built-in NVL72 template, whole rack", true, "/fleet/pools/0",
       R"({"name": "p", "template": "gb200-nvl72", "nodes": 36})", true, nullptr},
      // MIG: "off" | "dynamic" | {"static": {PROFILE: 1..7}}, with exactly the key "static".
      {"mig off", true, "/fleet/pools/0/mig", R"("off")", true, nullptr},
      {"mig dynamic", true, "/fleet/pools/0/mig", R"("dynamic")", true, nullptr},
      {"mig one 7g", true, "/fleet/pools/0/mig", R"({"static": {"7g.94gb": 1}})", true, nullptr},
      {"mig 7 x 1g, the most", true, "/fleet/pools/0/mig", R"({"static": {"1g.12gb": 7}})", true,
       nullptr},
      {"mig count 8", true, "/fleet/pools/0/mig", R"({"static": {"1g.12gb": 8}})", false, nullptr},
      {"mig count 0", true, "/fleet/pools/0/mig", R"({"static": {"1g.12gb": 0}})", false, nullptr},
      {"mig count negative", true, "/fleet/pools/0/mig", R"({"static": {"1g.12gb": -1}})", false,
       nullptr},
      {"mig count 1.0", true, "/fleet/pools/0/mig", R"({"static": {"1g.12gb": 1.0}})", false,
       nullptr},
      {"mig count a string", true, "/fleet/pools/0/mig", R"({"static": {"1g.12gb": "1"}})", false,
       nullptr},
      {"mig empty static", true, "/fleet/pools/0/mig", R"({"static": {}})", false, nullptr},
      {"mig static not an object", true, "/fleet/pools/0/mig", R"({"static": ["1g.12gb"]})", false,
       nullptr},
      {"mig static null", true, "/fleet/pools/0/mig", R"({"static": null})", false, nullptr},
      {"mig static and another key", true, "/fleet/pools/0/mig",
       R"({"static": {"7g.94gb": 1}, "dynamic": true})", false, nullptr},
      {"mig other key only", true, "/fleet/pools/0/mig", R"({"dynamic": {"7g.94gb": 1}})", false,
       nullptr},
      {"mig empty object", true, "/fleet/pools/0/mig", "{}", false, nullptr},
      {"mig in capitals", true, "/fleet/pools/0/mig", R"("Dynamic")", false, nullptr},
      {"mig \"static\" as a string", true, "/fleet/pools/0/mig", R"("static")", false, nullptr},
      {"mig true", true, "/fleet/pools/0/mig", "true", false, nullptr},
      {"mig null", true, "/fleet/pools/0/mig", "null", false, nullptr},
      {"mig an array", true, "/fleet/pools/0/mig", R"(["off"])", false, nullptr},
      {"mig off on a GPU without MIG", true, "/fleet/pools/0",
       R"({"name": "p", "template": "l40s-8", "nodes": 1, "mig": "off"})", true, nullptr},
      // Spot: only on a spot pool; a rate or a bucket, not both; waves need both keys.
      {"spot rate with a notice", true, "/fleet/pools/0/spot",
       R"({"interruptions_per_node_hour": 0.01, "notice_s": 30})", true, nullptr},
      {"spot waves alone", true, "/fleet/pools/0/spot",
       R"({"waves": {"per_day": 1, "nodes": 1}, "notice_s": 0})", true, nullptr},
      {"spot bucket >20%", true, "/fleet/pools/0/spot",
       R"({"advisor_bucket": ">20%", "notice_s": 30})", true, nullptr},
      {"empty spot block", true, "/fleet/pools/0/spot", "{}", true, nullptr},
      {"spot on an on-demand pool", true, "/fleet/pools/0",
       R"({"name": "p", "template": "h100-nvl-single", "nodes": 1, "tier": "on-demand",
           "spot": {}})",
       false, nullptr},
      {"spot on a pool without a tier", true, "/fleet/pools/0",
       R"({"name": "p", "template": "h100-nvl-single", "nodes": 1, "spot": {}})", false, nullptr},
      {"spot rate and bucket", true, "/fleet/pools/0/spot",
       R"({"interruptions_per_node_hour": 0.01, "advisor_bucket": "<5%", "notice_s": 30})", false,
       "/fleet/pools/0/spot"},
      {"spot waves without nodes", true, "/fleet/pools/0/spot",
       R"({"waves": {"per_day": 1}, "notice_s": 30})", false, "/fleet/pools/0/spot/waves"},
      {"spot not an object", true, "/fleet/pools/0/spot", "true", false, "/fleet/pools/0/spot"},
      // Failures: a rate or an MTBF, exactly one; a repair time of at least 1 ms.
      {"failures at rate 0", true, "/failures", R"({"H100-NVL": {"per_gpu_hour": 0}})", true,
       nullptr},
      {"failures by the shortest MTBF and repair", true, "/failures",
       R"({"H100-NVL": {"mtbf_gpu_hours": 0.000001, "repair_s": 0.0005}})", true, nullptr},
      {"no failures", true, "/failures", "{}", true, nullptr},
      {"failures with rate and MTBF", true, "/failures",
       R"({"H100-NVL": {"per_gpu_hour": 1, "mtbf_gpu_hours": 1}})", false, "/failures/H100-NVL"},
      {"failures with neither rate nor MTBF", true, "/failures",
       R"({"H100-NVL": {"repair_s": 60}})", false, "/failures/H100-NVL"},
      {"failures with repair 0", true, "/failures",
       R"({"H100-NVL": {"per_gpu_hour": 1, "repair_s": 0}})", false, "/failures/H100-NVL/repair_s"},
      {"failures with a repair that rounds to 0 ms", true, "/failures",
       R"({"H100-NVL": {"per_gpu_hour": 1, "repair_s": 0.0004}})", false,
       "/failures/H100-NVL/repair_s"},
      {"failures with an MTBF below 1e-6", true, "/failures",
       R"({"H100-NVL": {"mtbf_gpu_hours": 0.0000001}})", false,
       "/failures/H100-NVL/mtbf_gpu_hours"},
      {"failures entry not an object", true, "/failures", R"({"H100-NVL": 1})", false,
       "/failures/H100-NVL"},
      {"failures entry with an unknown key", true, "/failures",
       R"({"H100-NVL": {"per_gpu_hour": 1, "repiar_s": 1}})", false, "/failures/H100-NVL/repiar_s"},
  };
  return *kCases;
}

TEST(ScenarioSchemaTest, FleetFormsAndMigValuesAreJudgedAlike) {
  for (const FleetCase& c : FleetCases()) {
    json scenario = c.pools_fixture ? PoolsScenario() : EveryKeyScenario();
    scenario[json::json_pointer(c.pointer)] = json::parse(c.value);
    const std::vector<std::string> errors = ValidateAgainstSchema(Schema(), scenario);
    const LoadResult result = LoadStrictAs(
        scenario, c.pools_fixture ? PoolsFixturePath() : DataPath("schema/valid-every-key.json"));
    EXPECT_EQ(errors.empty(), c.valid) << c.what << ": schema:\n" << Lines(errors);
    EXPECT_EQ(result.scenario.has_value(), c.valid) << c.what << ": loader:\n" << Messages(result);
    if (!c.valid && c.where != nullptr) {
      EXPECT_TRUE(SchemaErrorAt(errors, c.where)) << c.what << ": schema:\n" << Lines(errors);
      EXPECT_TRUE(LoaderDiagnosticAt(result, c.where)) << c.what << ": loader:\n"
                                                       << Messages(result);
    }
  }
}

// The loader also accepts a catalog file next to 'gpus' (loaded and checked, then unused); the
// schema says so rather than refusing what the loader accepts.
TEST(ScenarioSchemaTest, CatalogNextToGpusIsJudgedAlike) {
  json scenario = EveryKeyScenario();
  scenario["fleet"]["catalog"] = "catalog-every-key.json";
  const std::vector<std::string> errors = ValidateAgainstSchema(Schema(), scenario);
  const LoadResult result = LoadStrictAs(scenario, DataPath("schema/valid-every-key.json"));
  EXPECT_EQ(errors.empty(), result.scenario.has_value()) << "schema:\n"
                                                         << Lines(errors) << "loader:\n"
                                                         << Messages(result);
}

// A change the schema accepts and the loader refuses, for a reason the schema's descriptions
// leave to the loader: where the loader reports it and what its message contains.
struct LoaderOnlyCase {
  const char* what;
  std::vector<std::pair<std::string, std::string>> changes;  // pointer, JSON text
  const char* where;
  const char* message_part;
};

const std::vector<LoaderOnlyCase>& LoaderOnlyCases() {
  static const auto* const kCases = new std::vector<LoaderOnlyCase>{
      {"template not in the catalog",
       {{"/fleet/pools/0/template", R"("hgx-h10")"}},
       "/fleet/pools/0/template",
       "unknown node template 'hgx-h10', did you mean 'hgx-h100'?"},
      {"catalog file that cannot be read",
       {{"/fleet/catalog", R"("no-such-catalog.json")"}},
       "/fleet/catalog",
       "cannot read"},
      {"NVL72 pool of 10 nodes",
       {{"/fleet/pools/0", R"({"name": "p", "template": "gb200-nvl72", "nodes": 10})"}},
       "/fleet/pools/0/nodes",
       "10 nodes is not a multiple of 18"},
      {"duplicate pool names",
       {{"/fleet/pools/1", R"({"name": "mig-pool", "template": "hgx-h100", "nodes": 1})"}},
       "/fleet/pools/1/name",
       "duplicate pool name 'mig-pool'"},
      {"a pool named as timeseries.csv names the fleet",
       {{"/fleet/pools/1", R"({"name": "*", "template": "hgx-h100", "nodes": 1})"}},
       "/fleet/pools/1/name",
       "expected a pool name that is not empty, not '*' and has no '|'"},
      {"a pool name with jobs.csv's separator",
       {{"/fleet/pools/0/name", R"("a|b")"}},
       "/fleet/pools/0/name",
       "jobs.csv joins pools with '|'), found \"a|b\""},
      {"more than 1000000 GPUs in all",
       {{"/fleet/pools/0/nodes", "1000000"},
        {"/fleet/pools/1", R"({"name": "more", "template": "hgx-h100", "nodes": 1})"}},
       "/fleet/pools",
       "the pools hold 1000008 GPUs; at most 1000000 are supported"},
      {"MIG on a GPU without MIG",
       {{"/fleet/pools/0", R"({"name": "p", "template": "l40s-8", "nodes": 1, "mig": "dynamic"})"}},
       "/fleet/pools/0/mig",
       "GPU model L40S (template l40s-8) does not support MIG"},
      {"a profile of another GPU",
       {{"/fleet/pools/0/mig", R"({"static": {"3g.40gb": 1}})"}},
       "/fleet/pools/0/mig/static",
       "GPU model H100-NVL has no MIG profile '3g.40gb', did you mean '3g.47gb'?"},
      {"a layout that does not fit",
       {{"/fleet/pools/0/mig", R"({"static": {"4g.47gb": 1, "3g.47gb": 2}})"}},
       "/fleet/pools/0/mig/static",
       "cannot be placed"},
      {"more than 7 instances",
       {{"/fleet/pools/0/mig", R"({"static": {"1g.12gb": 7, "2g.24gb": 1}})"}},
       "/fleet/pools/0/mig/static",
       "8 instances requested, at most 7 per GPU"},
      {"two +me instances",
       {{"/fleet/pools/0/mig", R"({"static": {"1g.12gb+me": 2}})"}},
       "/fleet/pools/0/mig/static",
       "at most 1 per GPU"},
      {"spot reclaims on a cloud with no known notice",
       {{"/fleet/pools/0/spot", R"({"interruptions_per_node_hour": 0.01})"}},
       "/fleet/pools/0/spot",
       "expected notice_s: the notice time is known for clouds aws (120 s), gcp (30 s) and azure "
       "(30 s), found cloud 'on-prem'"},
      {"failures of a model no pool has",
       {{"/failures", R"({"H100-NV": {"per_gpu_hour": 0.001}})"}},
       "/failures/H100-NV",
       "no pool of the fleet has GPU model 'H100-NV', did you mean 'H100-NVL'? (the pools' "
       "models: 'H100-NVL')"},
      // Job rules (ProblemsWith) the probes of one field do not meet.
      {"a power-of-two block of 3 GPUs",
       {{"/jobs/0/pow2_block", "true"}, {"/jobs/0/gpus", "3"}},
       "/jobs/0/pow2_block",
       "a power-of-two block job needs power-of-two gpus and max_gpus, found 3 and 3"},
      {"fractional sharing on 2 GPUs",
       {{"/jobs/0/sharing", R"("fraction")"}, {"/jobs/0/gpu_milli", "500"}, {"/jobs/0/gpus", "2"}},
       "/jobs/0/sharing",
       "'fraction' sharing needs exactly 1 GPU"},
      {"MIG sharing without GPU memory",
       {{"/jobs/0/sharing", R"("mig")"}},
       "/jobs/0/gpu_memory_gb",
       "'mig' sharing needs the memory per GPU"},
      {"a demand curve on a job of another kind",
       {{"/jobs/0/demand", R"({"step_s": 60, "gpus": [1]})"}},
       "/jobs/0/demand",
       "a demand curve needs kind 'realtime-inference'"},
      {"duplicate listed job ids",
       {{"/jobs/1", R"({"id": "a", "work_gpu_hours": 1})"}},
       "/jobs/1/id",
       "duplicate job id 'a'"},
      // The trace: its file, its format's options, its ids.
      {"a trace file that cannot be read",
       {{"/trace", R"({"format": "ms-itp", "path": "no-such-trace.csv"})"}},
       "/trace",
       "cannot read"},
      {"an option the trace format does not have",
       {{"/trace", R"({"format": "ms-itp", "path": "every-key-trace.csv",
                       "options": {"tenat": "t1"}})"}},
       "/trace/options",
       "trace format 'ms-itp' has no option 'tenat', did you mean 'tenant'?"},
      {"a trace id equal to a listed id",
       {{"/trace", R"({"format": "ms-itp", "path": "every-key-trace.csv"})"},
        {"/jobs/0/id", R"("itp-1")"}},
       "/trace",
       "trace job id 'itp-1' collides with /jobs/0/id"},
  };
  return *kCases;
}

TEST(ScenarioSchemaTest, ChecksLeftToTheLoaderPassTheSchemaAndFailTheLoader) {
  for (const LoaderOnlyCase& c : LoaderOnlyCases()) {
    json scenario = PoolsScenario();
    for (const auto& [pointer, value] : c.changes) {
      scenario[json::json_pointer(pointer)] = json::parse(value);
    }
    EXPECT_EQ(ValidateAgainstSchema(Schema(), scenario), std::vector<std::string>{}) << c.what;
    const LoadResult result = LoadStrictAs(scenario, PoolsFixturePath());
    EXPECT_FALSE(result.scenario.has_value()) << c.what;
    bool found = false;
    for (const Diagnostic& d : result.diagnostics.items()) {
      found = found || (d.where == c.where && d.message.find(c.message_part) != std::string::npos);
    }
    EXPECT_TRUE(found) << c.what << ": expected '" << c.message_part << "' at " << c.where
                       << "; got:\n"
                       << Messages(result);
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
