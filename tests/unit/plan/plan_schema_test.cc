// Keeps scenarios/schema/plan.schema.json in agreement with the plan spec loader: the worked
// plans and the test grid pass both; plans the loader refuses for a fault the schema can see,
// the schema refuses too.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "fleetsim/plan/plan_spec.h"
#include "testutil/command.h"
#include "testutil/json_schema.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

using nlohmann::json;
using testing::ReadFile;
using testing::SourcePath;
using testing::ValidateAgainstSchema;

const json& Schema() {
  static const json schema = json::parse(ReadFile(SourcePath("scenarios/schema/plan.schema.json")));
  return schema;
}

std::vector<std::string> Plans() {
  std::vector<std::string> plans = testing::FilesIn("scenarios/plans", ".json");
  plans.push_back(testing::DataPath("plans/small-grid.json"));
  return plans;
}

TEST(PlanSchemaTest, TheSchemaUsesOnlyCheckedKeywords) {
  EXPECT_NO_THROW(testing::CheckSchemaIsSupported(Schema()));
}

TEST(PlanSchemaTest, TheWorkedPlansPassTheSchemaAndTheStrictLoader) {
  const PolicyRegistry registry = BuiltinPolicies();
  ASSERT_GE(Plans().size(), 2U);
  for (const std::string& path : Plans()) {
    EXPECT_EQ(ValidateAgainstSchema(Schema(), json::parse(ReadFile(path))),
              std::vector<std::string>{})
        << path;
    const PlanLoad load = LoadPlanSpec(DiskFileSystem(), path, registry, true);
    EXPECT_TRUE(load.spec) << path << "\n" << load.diagnostics.Format(path) << load.file_status;
  }
}

TEST(PlanSchemaTest, FaultsTheSchemaCanSeeAreRefusedByBoth) {
  const PolicyRegistry registry = BuiltinPolicies();
  const std::string dir = testing::FreshTempDir();
  json good = json::parse(ReadFile(testing::DataPath("plans/small-grid.json")));
  good["base"] = SourcePath("scenarios/plans/bases/team-week-doubled.json");
  const std::vector<std::pair<std::string, json>> faults = {
      {"/targets", json::array()},  {"/targets/0/at_least", 3},  // both bounds
      {"/targets/0/seeds", "best"}, {"/objective", "cheapest"},
      {"/kind", "sweep"},           {"/runners_up", -1},
  };
  for (const auto& [pointer, value] : faults) {
    json plan = good;
    plan[json::json_pointer(pointer)] = value;
    EXPECT_FALSE(ValidateAgainstSchema(Schema(), plan).empty()) << pointer;
    const std::string path = dir + "/plan.json";
    std::ofstream(path) << plan.dump();
    EXPECT_FALSE(LoadPlanSpec(DiskFileSystem(), path, registry, false).spec) << pointer;
  }
}

}  // namespace
}  // namespace fleetsim
