// Keeps scenarios/schema/fill-scenario.schema.json in agreement with the fill scenario loader:
// every fill scenario shipped (scenarios/fill/, tests/data/fill/) passes both, and each probe that
// breaks one rule is refused by both (the loader run strictly, as the schema refuses unknown keys).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "fleetsim/fill/fill_scenario.h"
#include "testutil/command.h"
#include "testutil/json_schema.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

const json& Schema() {
  static const auto* const kSchema = new json(json::parse(
      testing::ReadFile(testing::SourcePath("scenarios/schema/fill-scenario.schema.json"))));
  return *kSchema;
}

// Loads as `fleetsim fill --strict` does: warnings are errors.
bool LoaderAccepts(const std::string& path) {
  FillLoadResult result = LoadFillScenarioFile(DiskFileSystem(), path);
  result.diagnostics.PromoteWarnings();
  return result.file_status.ok() && !result.diagnostics.HasErrors();
}

TEST(FillSchemaTest, TheSchemaUsesOnlySupportedKeywords) {
  EXPECT_NO_THROW(testing::CheckSchemaIsSupported(Schema()));
}

TEST(FillSchemaTest, ShippedFillScenariosPassTheSchema) {
  std::vector<std::string> files = testing::FilesIn("scenarios/fill", ".json");
  files.push_back(testing::DataPath("fill/tiny-fill.json"));
  ASSERT_GE(files.size(), 6U);
  for (const std::string& file : files) {
    EXPECT_EQ(testing::ValidateAgainstSchema(Schema(), json::parse(testing::ReadFile(file))),
              std::vector<std::string>{})
        << file;
  }
  EXPECT_TRUE(LoaderAccepts(testing::DataPath("fill/tiny-fill.json")));
}

TEST(FillSchemaTest, EachBrokenRuleIsRefusedByTheSchemaAndTheLoader) {
  const std::string dir = testing::FreshTempDir();
  for (const char* file :
       {"nodes.csv", "pods.csv", "published-allocation.csv", "published-fragmentation-ratio.csv"}) {
    fs::copy_file(testing::DataPath(std::string("fill/") + file), dir + "/" + file);
  }
  const json valid = json::parse(testing::ReadFile(testing::DataPath("fill/tiny-fill.json")));
  const std::vector<std::pair<std::string, json>> probes = {
      {"/format_version", 2},       {"/kind", "simulation"},      {"/name", 7},
      {"/policies", json::array()}, {"/policies/0", "first-fit"}, {"/seeds/count", 0},
      {"/seeds/count", 10001},      {"/seeds/first", -1},         {"/target_share", 0},
      {"/target_share", 11},        {"/typical_popularity", 1.5}, {"/typical_popularity", 0},
      {"/colour", "blue"},          {"/seeds/last", 3},           {"/published/extra", 1},
  };
  for (const auto& [pointer, value] : probes) {
    json probe = valid;
    probe[json::json_pointer(pointer)] = value;
    const std::string path = dir + "/probe.json";
    std::ofstream(path, std::ios::trunc) << probe.dump(2);
    EXPECT_FALSE(testing::ValidateAgainstSchema(Schema(), probe).empty()) << pointer;
    EXPECT_FALSE(LoaderAccepts(path)) << pointer;
  }
  for (const char* required : {"/format_version", "/kind", "/name", "/nodes", "/pods", "/policies",
                               "/published/workload"}) {
    json probe = valid;
    const json::json_pointer pointer(required);
    probe[pointer.parent_pointer()].erase(pointer.back());
    const std::string path = dir + "/probe.json";
    std::ofstream(path, std::ios::trunc) << probe.dump(2);
    EXPECT_FALSE(testing::ValidateAgainstSchema(Schema(), probe).empty()) << required;
    EXPECT_FALSE(LoaderAccepts(path)) << required;
  }
  // The probe file beside the fixtures is valid as it stands.
  std::ofstream(dir + "/probe.json", std::ios::trunc) << valid.dump(2);
  EXPECT_TRUE(LoaderAccepts(dir + "/probe.json"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fleetsim
