// Jain's fairness over tenants, worked by hand: equal output per entitlement gives 1, one tenant
// getting everything gives 1/n, entitlements follow shares down the tree, unlisted tenants count
// as top-level ones with shares 1, and fewer than two tenants give no index.
#include "fleetsim/metrics/tenant_fairness.h"

#include <gtest/gtest.h>

namespace fleetsim {
namespace {

JobRecordRow Row(const std::string& tenant, double useful_gpu_hours) {
  JobRecordRow row;
  row.tenant = tenant;
  row.useful_gpu_hours = useful_gpu_hours;
  return row;
}

TEST(TenantFairnessTest, EqualOutputPerEntitlementIsOneAndAllToOneIsOneOverN) {
  EXPECT_DOUBLE_EQ(*TenantFairness({Row("a", 5), Row("b", 2), Row("b", 3)}, {}), 1.0);
  EXPECT_DOUBLE_EQ(*TenantFairness({Row("a", 10), Row("b", 0), Row("c", 0)}, {}), 1.0 / 3);
  // x = 1, 3: (1 + 3)² / (2 (1 + 9)) = 0.8.
  EXPECT_DOUBLE_EQ(*TenantFairness({Row("a", 1), Row("b", 3)}, {}), 0.8);
}

TEST(TenantFairnessTest, EntitlementsFollowSharesDownTheTree) {
  // Top level: research (shares 3) and prod (1): 3/4 and 1/4. Under research: nlp (1) and
  // vision (1): 3/8 each. An unlisted tenant "misc" would add 1 to the top level.
  const Organization org = {{.name = "research", .shares = 3},
                            {.name = "prod", .shares = 1},
                            {.name = "nlp", .parent = "research", .shares = 1},
                            {.name = "vision", .parent = "research", .shares = 1}};
  EXPECT_DOUBLE_EQ(TenantEntitlement("prod", org, {}), 0.25);
  EXPECT_DOUBLE_EQ(TenantEntitlement("nlp", org, {}), 0.375);
  EXPECT_DOUBLE_EQ(TenantEntitlement("nlp", org, {"misc"}), 3.0 / 5 / 2);
  EXPECT_DOUBLE_EQ(TenantEntitlement("misc", org, {"misc"}), 0.2);
  // Output in proportion to entitlement: perfectly fair.
  EXPECT_DOUBLE_EQ(*TenantFairness({Row("prod", 2), Row("nlp", 3), Row("vision", 3)}, org), 1.0);
  // The same output each: x = 2 / 0.25 = 8, 2 / 0.375 = 16/3 twice.
  const double x1 = 8;
  const double x2 = 16.0 / 3;
  const double expected = (x1 + 2 * x2) * (x1 + 2 * x2) / (3 * (x1 * x1 + 2 * x2 * x2));
  EXPECT_DOUBLE_EQ(*TenantFairness({Row("prod", 2), Row("nlp", 2), Row("vision", 2)}, org),
                   expected);
}

TEST(TenantFairnessTest, NoIndexForOneTenantOrNoOutput) {
  EXPECT_FALSE(TenantFairness({Row("a", 5), Row("a", 1)}, {}).has_value());
  EXPECT_FALSE(TenantFairness({}, {}).has_value());
  EXPECT_FALSE(TenantFairness({Row("a", 0), Row("b", 0)}, {}).has_value());
}

}  // namespace
}  // namespace fleetsim
