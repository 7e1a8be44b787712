// A scenario's fleet in a file of its own ("fleet": "FILE", as `fleetsim import-fleet` writes
// one) and a catalog written in place ("catalog": {...}): the file is read relative to the
// scenario, its own catalog path relative to itself, its problems reported at /fleet with the
// file and the pointer inside it; the fleet it gives is the one written in place would give.
// Files are in a MemoryFileSystem.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "fleetsim/core/file_system.h"
#include "fleetsim/scenario/scenario.h"

namespace fleetsim {
namespace {

namespace fs = std::filesystem;

constexpr char kPools[] =
    R"({"pools": [{"name": "a", "template": "hgx-h100", "nodes": 2},
                  {"name": "b", "template": "mine-4", "nodes": 3, "cpu_cores": 32}],
        "catalog": "cat/mine.json"})";
constexpr char kCatalog[] =
    R"({"format_version": 1, "node_templates": [{"name": "mine-4", "gpu": "V100-32GB",
        "gpus_per_node": 4, "nvlink_domain_gpus": 4, "nodes_per_rack": 8}]})";

class FleetFileTest : public ::testing::Test {
 protected:
  void Write(const std::string& path, const std::string& text) {
    ASSERT_TRUE(files_.CreateDirectories(fs::path(path).parent_path().string()).ok());
    ASSERT_TRUE(files_.WriteFile(path, text).ok());
  }
  LoadResult LoadWithFleet(const std::string& fleet) {
    Write("work/s.json", R"({"format_version": 1, "name": "t", "fleet": )" + fleet +
                             R"(, "jobs": [{"id": "j", "gpus": 1, "duration_s": 5}]})");
    return LoadScenarioFile("work/s.json", BuiltinPolicies(), {.files = &files_});
  }
  static std::string Messages(const LoadResult& r) {
    return r.file_status.ok() ? r.diagnostics.Format("s.json") : r.file_status.message();
  }

  MemoryFileSystem files_;
};

TEST_F(FleetFileTest, AFleetFileLoadsAsTheFleetWrittenInPlace) {
  Write("work/fleets/f.json", kPools);
  Write("work/fleets/cat/mine.json", kCatalog);  // relative to the fleet file
  const LoadResult from_file = LoadWithFleet(R"("fleets/f.json")");
  ASSERT_TRUE(from_file.scenario) << Messages(from_file);
  Write("work/cat/mine.json", kCatalog);  // relative to the scenario
  const LoadResult in_place = LoadWithFleet(kPools);
  ASSERT_TRUE(in_place.scenario) << Messages(in_place);
  const FleetSpec& a = from_file.scenario->fleet;
  const FleetSpec& b = in_place.scenario->fleet;
  EXPECT_EQ(a.gpus, 28);
  EXPECT_EQ(a.gpus, b.gpus);
  ASSERT_EQ(a.pools.size(), 2U);
  EXPECT_EQ(a.pools[1].node.name, "mine-4");
  EXPECT_EQ(a.pools[1].gpu.name, "V100-32GB");
  EXPECT_EQ(a.pools[1].cpu_cores, b.pools[1].cpu_cores);
}

TEST_F(FleetFileTest, ProblemsInTheFileNameTheFileAndThePointer) {
  Write("work/f.json", R"({"pools": [{"name": "a", "template": "hgx-h10", "nodes": 2}]})");
  const LoadResult r = LoadWithFleet(R"("f.json")");
  EXPECT_FALSE(r.scenario);
  EXPECT_EQ(Messages(r),
            "s.json: /fleet: error: work/f.json: /pools/0/template: unknown node template "
            "'hgx-h10', did you mean 'hgx-h100'? (see `fleetsim list node-templates`)\n");
}

TEST_F(FleetFileTest, AMissingOrMalformedFileIsAnErrorAtFleet) {
  EXPECT_NE(Messages(LoadWithFleet(R"("none.json")")).find("s.json: /fleet: error: work/none.json"),
            std::string::npos);
  Write("work/bad.json", "{\"pools\": [");
  EXPECT_NE(
      Messages(LoadWithFleet(R"("bad.json")")).find("s.json: /fleet: error: work/bad.json:1:"),
      std::string::npos);
  Write("work/list.json", "[1, 2]");
  EXPECT_EQ(Messages(LoadWithFleet(R"("list.json")")),
            "s.json: /fleet: error: work/list.json: expected a fleet object ({\"pools\": ...} or "
            "{\"gpus\": N}), found [1,2]\n");
}

TEST_F(FleetFileTest, AnInlineCatalogExtendsTheBuiltInOne) {
  const std::string fleet = R"({"pools": [{"name": "b", "template": "mine-4", "nodes": 1}],
                                "catalog": )" +
                            std::string(kCatalog) + "}";
  const LoadResult r = LoadWithFleet(fleet);
  ASSERT_TRUE(r.scenario) << Messages(r);
  EXPECT_EQ(r.scenario->fleet.gpus, 4);
  const LoadResult bad = LoadWithFleet(
      R"({"pools": [{"name": "b", "template": "hgx-h100", "nodes": 1}],
          "catalog": {"format_version": 1, "node_templates": [{"name": "x", "gpu": "H100-SMX",
          "gpus_per_node": 4, "nvlink_domain_gpus": 4, "nodes_per_rack": 8}]}})");
  EXPECT_FALSE(bad.scenario);
  EXPECT_EQ(Messages(bad),
            "s.json: /fleet/catalog/node_templates/0/gpu: error: unknown GPU model 'H100-SMX', "
            "did you mean 'H100-SXM'?\n");
}

TEST_F(FleetFileTest, TenantsMayComeFromAFileToo) {
  Write("work/queues.json", R"([{"name": "dept", "quota_gpus": 4},
                               {"name": "team-a", "parent": "dept", "priority": 100}])");
  Write("work/s.json", R"({"format_version": 1, "name": "t", "fleet": {"gpus": 8},
                           "tenants": "queues.json",
                           "jobs": [{"id": "j", "gpus": 1, "duration_s": 5}]})");
  const LoadResult r = LoadScenarioFile("work/s.json", BuiltinPolicies(), {.files = &files_});
  ASSERT_TRUE(r.scenario) << Messages(r);
  ASSERT_EQ(r.scenario->tenants.size(), 2U);
  EXPECT_EQ(r.scenario->tenants[1].parent, "dept");
  Write("work/bad.json", R"([{"name": "team-a", "parent": "dpt"}])");
  Write("work/s.json", R"({"format_version": 1, "name": "t", "fleet": {"gpus": 8},
                           "tenants": "bad.json",
                           "jobs": [{"id": "j", "gpus": 1, "duration_s": 5}]})");
  const LoadResult bad = LoadScenarioFile("work/s.json", BuiltinPolicies(), {.files = &files_});
  EXPECT_FALSE(bad.scenario);
  EXPECT_EQ(Messages(bad),
            "s.json: /tenants: error: work/bad.json: /0/parent: unknown parent tenant 'dpt' "
            "(tenants: 'team-a')\n");
}

}  // namespace
}  // namespace fleetsim
