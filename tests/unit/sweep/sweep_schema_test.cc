// Keeps scenarios/schema/sweep.schema.json in agreement with the sweep spec loader: the worked
// examples and the test fixture pass both; specs each loader check refuses, the schema refuses
// too where it can see the fault (what it leaves to the loader is listed in its description).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "fleetsim/sweep/sweep_spec.h"
#include "testutil/command.h"
#include "testutil/json_schema.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

using nlohmann::json;
using testing::ReadFile;
using testing::SourcePath;

const json& Schema() {
  static const json schema =
      json::parse(ReadFile(SourcePath("scenarios/schema/sweep.schema.json")));
  return schema;
}

std::vector<std::string> Specs() {
  std::vector<std::string> specs = testing::FilesIn("scenarios/sweeps", ".json");
  specs.push_back(testing::DataPath("sweep/grid.json"));
  return specs;
}

TEST(SweepSchemaTest, TheSchemaUsesOnlyCheckedKeywords) {
  EXPECT_NO_THROW(testing::CheckSchemaIsSupported(Schema()));
}

TEST(SweepSchemaTest, TheExamplesPassTheSchemaAndTheStrictLoader) {
  const PolicyRegistry registry = BuiltinPolicies();
  ASSERT_GE(Specs().size(), 2U);
  for (const std::string& path : Specs()) {
    EXPECT_EQ(testing::ValidateAgainstSchema(Schema(), json::parse(ReadFile(path))),
              std::vector<std::string>{})
        << path;
    const SweepLoad load = LoadSweepSpec(DiskFileSystem(), path, registry, true);
    EXPECT_TRUE(load.spec) << load.diagnostics.Format(path);
  }
}

TEST(SweepSchemaTest, TheSchemaRefusesWhatTheLoaderRefuses) {
  const json good = json::parse(ReadFile(testing::DataPath("sweep/grid.json")));
  const std::vector<std::pair<std::string, json>> edits = {
      {"/format_version", 2},
      {"/kind", "scenario"},
      {"/name", ".hidden"},
      {"/axes/0/values", json::array()},
      {"/axes/1/pointer", "/seed"},
      {"/axes/2/pointer", "fleet/pools"},
      {"/axes/4/values", json{{"first", 1}}},
      {"/axes/3/variants/0/patch", 3},
      {"/axis", json::array()},
  };
  const std::string dir = testing::FreshTempDir();
  std::filesystem::copy_file(testing::DataPath("sweep/base.json"), dir + "/base.json");
  const PolicyRegistry registry = BuiltinPolicies();
  for (const auto& [pointer, value] : edits) {
    json bad = good;
    bad[json::json_pointer(pointer)] = value;
    EXPECT_FALSE(testing::ValidateAgainstSchema(Schema(), bad).empty()) << pointer;
    std::ofstream(dir + "/spec.json") << bad.dump();
    EXPECT_FALSE(LoadSweepSpec(DiskFileSystem(), dir + "/spec.json", registry, true).spec)
        << pointer;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace fleetsim
