// The scenario's "tenants" section, word for word: a valid tree loads in file order with the
// defaults filled in; unknown parents (with did-you-mean), duplicate names, cycles, shares <= 0,
// a limit of 0 or below the quota, and out-of-range numbers are reported with their JSON paths.
#include <gtest/gtest.h>

#include "fleetsim/scenario/scenario.h"

namespace fleetsim {
namespace {

LoadResult ParseWithTenants(const std::string& tenants) {
  return ParseScenario(R"({"format_version": 1, "name": "t", "fleet": {"gpus": 8}, "tenants": )" +
                           tenants + R"(, "jobs": [{"id": "a", "gpus": 1, "duration_s": 10}]})",
                       "s.json", BuiltinPolicies(), {});
}

std::string Messages(const LoadResult& result) {
  return result.file_status.ok() ? result.diagnostics.Format("s.json")
                                 : result.file_status.message();
}

TEST(TenantsTest, ValidTreeLoadsInFileOrderWithDefaults) {
  const LoadResult r = ParseWithTenants(R"([
    {"name": "research", "shares": 3, "quota_gpus": 16, "over_quota_weight": 2,
     "limit_gpus": 32, "priority": 1},
    {"name": "vision", "parent": "research"},
    {"name": "prod", "quota_gpus": -1}
  ])");
  ASSERT_TRUE(r.scenario) << Messages(r);
  const Organization& tenants = r.scenario->tenants;
  ASSERT_EQ(tenants.size(), 3U);
  EXPECT_EQ(tenants[0].name, "research");
  EXPECT_EQ(tenants[0].shares, 3);
  EXPECT_EQ(tenants[0].quota_gpus, 16);
  EXPECT_EQ(tenants[0].over_quota_weight, 2);
  EXPECT_EQ(tenants[0].limit_gpus, 32);
  EXPECT_EQ(tenants[0].priority, 1);
  EXPECT_EQ(tenants[1].parent, "research");
  EXPECT_EQ(tenants[1].shares, 1);
  EXPECT_EQ(tenants[1].quota_gpus, 0);
  EXPECT_EQ(tenants[1].over_quota_weight, 1);
  EXPECT_EQ(tenants[1].limit_gpus, kUnlimitedGpus);
  EXPECT_EQ(tenants[2].quota_gpus, kUnlimitedGpus);
}

TEST(TenantsTest, NoTenantsSectionMeansAnEmptyOrganization) {
  const LoadResult r = ParseScenario(R"({"format_version": 1, "name": "t", "fleet": {"gpus": 8},
                        "jobs": [{"id": "a", "gpus": 1, "duration_s": 10}]})",
                                     "s.json", BuiltinPolicies(), {});
  ASSERT_TRUE(r.scenario) << Messages(r);
  EXPECT_TRUE(r.scenario->tenants.empty());
}

TEST(TenantsTest, UnknownParentSuggestsTheClosestName) {
  const LoadResult r = ParseWithTenants(R"([
    {"name": "research"},
    {"name": "vision", "parent": "reserch"}
  ])");
  EXPECT_FALSE(r.scenario);
  EXPECT_EQ(Messages(r),
            "s.json: /tenants/1/parent: error: unknown parent tenant 'reserch', did you mean "
            "'research'? (tenants: 'research', 'vision')\n");
}

TEST(TenantsTest, DuplicateNamesPointAtTheFirstUse) {
  const LoadResult r = ParseWithTenants(R"([{"name": "a"}, {"name": "b"}, {"name": "a"}])");
  EXPECT_FALSE(r.scenario);
  EXPECT_EQ(Messages(r),
            "s.json: /tenants/2/name: error: duplicate tenant name 'a' (first used at "
            "/tenants/0/name)\n");
}

TEST(TenantsTest, TreeProblemsPointAtTheirItemPastItemsThatAreNotObjects) {
  const LoadResult r =
      ParseWithTenants(R"(["x", {"name": "a"}, 3, {"name": "a", "parent": "research"}])");
  EXPECT_FALSE(r.scenario);
  EXPECT_EQ(Messages(r),
            "s.json: /tenants/0: error: expected a tenant object, found \"x\"\n"
            "s.json: /tenants/2: error: expected a tenant object, found 3\n"
            "s.json: /tenants/3/name: error: duplicate tenant name 'a' (first used at "
            "/tenants/1/name)\n"
            "s.json: /tenants/3/parent: error: unknown parent tenant 'research' (tenants: 'a')\n");
}

TEST(TenantsTest, CyclesAreReportedForEveryTenantOnThem) {
  const LoadResult r = ParseWithTenants(R"([
    {"name": "a", "parent": "c"},
    {"name": "b", "parent": "a"},
    {"name": "c", "parent": "b"},
    {"name": "self", "parent": "self"},
    {"name": "ok", "parent": "a"}
  ])");
  EXPECT_FALSE(r.scenario);
  EXPECT_EQ(Messages(r),
            "s.json: /tenants/0/parent: error: tenant 'a' is its own ancestor (a -> c -> b -> a)\n"
            "s.json: /tenants/1/parent: error: tenant 'b' is its own ancestor (b -> a -> c -> b)\n"
            "s.json: /tenants/2/parent: error: tenant 'c' is its own ancestor (c -> b -> a -> c)\n"
            "s.json: /tenants/3/parent: error: tenant 'self' is its own ancestor (self -> "
            "self)\n");
}

TEST(TenantsTest, NumbersOutOfRange) {
  const LoadResult r = ParseWithTenants(R"([
    {"name": "zero-shares", "shares": 0},
    {"name": "negative-weight", "over_quota_weight": -1},
    {"name": "zero-limit", "limit_gpus": 0},
    {"name": "limit-below-quota", "quota_gpus": 8, "limit_gpus": 4},
    {"name": "bad-quota", "quota_gpus": -2},
    {"name": "bad name"},
    {"shares": 2},
    "vision"
  ])");
  EXPECT_FALSE(r.scenario);
  EXPECT_EQ(
      Messages(r),
      "s.json: /tenants/0/shares: error: expected a number > 0 and ≤ 1000000000, found 0\n"
      "s.json: /tenants/1/over_quota_weight: error: expected a number ≥ 0 and ≤ "
      "1000000000, found -1\n"
      "s.json: /tenants/2/limit_gpus: error: expected -1 (no limit) or at least 1 GPU, "
      "found 0\n"
      "s.json: /tenants/3/limit_gpus: error: expected a limit of at least quota_gpus (8), "
      "found 4\n"
      "s.json: /tenants/4/quota_gpus: error: expected an integer ≥ -1, found -2\n"
      "s.json: /tenants/5/name: error: expected a name of 1 to 128 letters, digits, '.', '_' or "
      "'-', not starting with '.', found \"bad name\"\n"
      "s.json: /tenants/6: error: missing required key 'name'\n"
      "s.json: /tenants/7: error: expected a tenant object, found \"vision\"\n");
}

TEST(TenantsTest, UnknownKeysAreWarnings) {
  const LoadResult r = ParseWithTenants(R"([{"name": "a", "quota": 4}])");
  ASSERT_TRUE(r.scenario) << Messages(r);
  EXPECT_EQ(Messages(r), "s.json: /tenants/0/quota: warning: unknown key 'quota'\n");
}

}  // namespace
}  // namespace fleetsim
