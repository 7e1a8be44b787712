// Jain's fairness over tenants, worked by hand: equal output per entitlement gives 1, one tenant
// getting everything gives 1/n, entitlements follow shares down the active part of the tree
// (idle tenants take none), unlisted tenants count as top-level ones with shares 1, jobs booked to
// a tenant with sub-tenants are an implicit child of it with shares 1, jobs never submitted make
// no tenant count (rejected ones do), and fewer than two tenants give no index.
#include "fleetsim/metrics/tenant_fairness.h"

#include <gtest/gtest.h>

namespace fleetsim {
namespace {

JobRecordRow Row(const std::string& tenant, double useful_gpu_hours,
                 FinalState state = FinalState::kCompleted) {
  JobRecordRow row;
  row.tenant = tenant;
  row.useful_gpu_hours = useful_gpu_hours;
  row.state = state;
  return row;
}

// Top level: research (shares 3) and prod (1). Under research: nlp (1) and vision (1).
const Organization& ResearchAndProd() {
  static const Organization org = {{.name = "research", .shares = 3},
                                   {.name = "prod", .shares = 1},
                                   {.name = "nlp", .parent = "research", .shares = 1},
                                   {.name = "vision", .parent = "research", .shares = 1}};
  return org;
}

TEST(TenantFairnessTest, EqualOutputPerEntitlementIsOneAndAllToOneIsOneOverN) {
  EXPECT_DOUBLE_EQ(*TenantFairness({Row("a", 5), Row("b", 2), Row("b", 3)}, {}), 1.0);
  EXPECT_DOUBLE_EQ(*TenantFairness({Row("a", 10), Row("b", 0), Row("c", 0)}, {}), 1.0 / 3);
  // x = 1, 3: (1 + 3)² / (2 (1 + 9)) = 0.8.
  EXPECT_DOUBLE_EQ(*TenantFairness({Row("a", 1), Row("b", 3)}, {}), 0.8);
}

TEST(TenantFairnessTest, EntitlementsFollowSharesDownTheTree) {
  const Organization& org = ResearchAndProd();
  // All leaves active: research 3/4, prod 1/4; nlp and vision 3/4 · 1/2 = 3/8 each.
  const std::set<std::string> leaves = {"prod", "nlp", "vision"};
  EXPECT_DOUBLE_EQ(TenantEntitlement("prod", org, leaves), 0.25);
  EXPECT_DOUBLE_EQ(TenantEntitlement("nlp", org, leaves), 0.375);
  // An unlisted "misc" adds 1 at the top: research 3/5, prod 1/5, misc 1/5; nlp 3/5 · 1/2 = 0.3.
  const std::set<std::string> with_misc = {"prod", "nlp", "vision", "misc"};
  EXPECT_DOUBLE_EQ(TenantEntitlement("nlp", org, with_misc), 0.3);
  EXPECT_DOUBLE_EQ(TenantEntitlement("misc", org, with_misc), 0.2);
  // A tenant no job was submitted to has no entitlement.
  EXPECT_DOUBLE_EQ(TenantEntitlement("vision", org, {"prod", "nlp"}), 0.0);
  // Output in proportion to entitlement (2 : 3 : 3 = 1/4 : 3/8 : 3/8): perfectly fair.
  EXPECT_DOUBLE_EQ(*TenantFairness({Row("prod", 2), Row("nlp", 3), Row("vision", 3)}, org), 1.0);
  // The same output each: x = 2 / (1/4) = 8, 2 / (3/8) = 16/3 twice.
  // J = (8 + 32/3)² / (3 (64 + 2 · 256/9)) = (56/3)² / (3 · 1088/9) = 3136/3264 = 49/51.
  EXPECT_DOUBLE_EQ(*TenantFairness({Row("prod", 2), Row("nlp", 2), Row("vision", 2)}, org),
                   49.0 / 51);
}

TEST(TenantFairnessTest, JobsNeverSubmittedMakeNoTenantCountButRejectedOnesDo) {
  // "c" only has a job that was never submitted: a and b, x = 4, 4, J = 1 (counting c with x = 0
  // would give (8)² / (3 · 32) = 2/3).
  EXPECT_DOUBLE_EQ(
      *TenantFairness({Row("a", 4), Row("b", 4), Row("c", 0, FinalState::kNotSubmitted)}, {}), 1.0);
  // "c" submitted a job that was rejected: it counts with x = 0, J = 8² / (3 · (16 + 16)) = 2/3.
  EXPECT_DOUBLE_EQ(
      *TenantFairness({Row("a", 4), Row("b", 4), Row("c", 0, FinalState::kRejected)}, {}), 2.0 / 3);
  // Queued and running jobs count too: x = 4, 0 → 4² / (2 · 16) = 1/2.
  EXPECT_DOUBLE_EQ(*TenantFairness({Row("a", 4), Row("b", 0, FinalState::kQueued)}, {}), 0.5);
  EXPECT_DOUBLE_EQ(*TenantFairness({Row("a", 4), Row("b", 0, FinalState::kRunning)}, {}), 0.5);
  // One submitting tenant is no index, whatever was never submitted.
  EXPECT_FALSE(
      TenantFairness({Row("a", 4), Row("b", 0, FinalState::kNotSubmitted)}, {}).has_value());
}

TEST(TenantFairnessTest, IdleTenantsTakeNoEntitlement) {
  const Organization& org = ResearchAndProd();
  // vision idle: research 3/4 and prod 1/4 at the top; nlp is research's only active child, so
  // it gets all of research's 3/4 (with vision counted it would be 3/8).
  EXPECT_DOUBLE_EQ(TenantEntitlement("nlp", org, {"prod", "nlp"}), 0.75);
  EXPECT_DOUBLE_EQ(TenantEntitlement("prod", org, {"prod", "nlp"}), 0.25);
  // prod idle too, "misc" unlisted: research 3/(3 + 1) = 3/4, misc 1/4; nlp 3/4 · 1 = 3/4.
  EXPECT_DOUBLE_EQ(TenantEntitlement("nlp", org, {"nlp", "misc"}), 0.75);
  EXPECT_DOUBLE_EQ(TenantEntitlement("misc", org, {"nlp", "misc"}), 0.25);
  // A whole idle subtree: research idle, prod and misc split the top 1 : 1.
  EXPECT_DOUBLE_EQ(TenantEntitlement("prod", org, {"prod", "misc"}), 0.5);
  // prod 2, nlp 6: x = 2 / (1/4) = 8 and 6 / (3/4) = 8, J = 1: a fair-share scheduler handing
  // vision's share to nlp is not unfair. (With vision's share kept, x = 8 and 6 / (3/8) = 16:
  // 24² / (2 (64 + 256)) = 0.9.) A vision job never submitted does not make vision active.
  EXPECT_DOUBLE_EQ(*TenantFairness({Row("prod", 2), Row("nlp", 6)}, org), 1.0);
  EXPECT_DOUBLE_EQ(
      *TenantFairness({Row("prod", 2), Row("nlp", 6), Row("vision", 0, FinalState::kNotSubmitted)},
                      org),
      1.0);
  // A submitted vision job that got nothing does: nlp and vision 3/8 each again, x = 8, 16, 0:
  // 24² / (3 (64 + 256)) = 576/960 = 0.6.
  EXPECT_DOUBLE_EQ(
      *TenantFairness({Row("prod", 2), Row("nlp", 6), Row("vision", 0, FinalState::kRejected)},
                      org),
      0.6);
}

TEST(TenantFairnessTest, JobsBookedToATenantWithSubTenantsAreAnImplicitChildOfIt) {
  const Organization& org = ResearchAndProd();
  // Jobs booked to research itself, nlp, vision and prod: research 3/4, prod 1/4 at the top;
  // under research, its own jobs (shares 1), nlp (1) and vision (1): 3/4 · 1/3 = 1/4 each. The
  // four members' entitlements sum to 1 (with research's own jobs at its whole 3/4 they would sum
  // to 7/4).
  const std::set<std::string> all = {"research", "nlp", "vision", "prod"};
  EXPECT_DOUBLE_EQ(TenantEntitlement("research", org, all), 0.25);
  EXPECT_DOUBLE_EQ(TenantEntitlement("nlp", org, all), 0.25);
  EXPECT_DOUBLE_EQ(TenantEntitlement("vision", org, all), 0.25);
  EXPECT_DOUBLE_EQ(TenantEntitlement("prod", org, all), 0.25);
  // Equal output, equal entitlements: J = 1. (Counting research at 3/4: x = 8/3, 16/3, 16/3, 8,
  // J = (64/3)² / (4 · 1152/9) = 4096/4608 = 8/9.)
  EXPECT_DOUBLE_EQ(
      *TenantFairness({Row("research", 2), Row("nlp", 2), Row("vision", 2), Row("prod", 2)}, org),
      1.0);
  // research's sub-tenants idle: its own jobs are its only active child and get its 3/4.
  EXPECT_DOUBLE_EQ(TenantEntitlement("research", org, {"research", "prod"}), 0.75);
  EXPECT_DOUBLE_EQ(*TenantFairness({Row("research", 3), Row("prod", 1)}, org), 1.0);
  // With nlp and "misc" (unlisted): top research 3/5, prod 1/5, misc 1/5; research's own jobs
  // and nlp 3/5 · 1/2 = 0.3 each; vision idle. Sum: 0.3 + 0.3 + 0.2 + 0.2 = 1.
  const std::set<std::string> mixed = {"research", "nlp", "prod", "misc"};
  EXPECT_DOUBLE_EQ(TenantEntitlement("research", org, mixed), 0.3);
  EXPECT_DOUBLE_EQ(TenantEntitlement("nlp", org, mixed), 0.3);
  EXPECT_DOUBLE_EQ(TenantEntitlement("prod", org, mixed), 0.2);
  EXPECT_DOUBLE_EQ(TenantEntitlement("misc", org, mixed), 0.2);
  // Sub-tenants active but no job booked to research itself: no own-jobs member.
  EXPECT_DOUBLE_EQ(TenantEntitlement("research", org, {"nlp", "prod"}), 0.0);
}

TEST(TenantFairnessTest, SharesMultiplyDownThreeLevels) {
  // a (1) and b (1) at the top; under a: a1 (3) and a2 (1); under a1: x (1) and y (3).
  const Organization org = {{.name = "a"},
                            {.name = "b"},
                            {.name = "a1", .parent = "a", .shares = 3},
                            {.name = "a2", .parent = "a", .shares = 1},
                            {.name = "x", .parent = "a1", .shares = 1},
                            {.name = "y", .parent = "a1", .shares = 3}};
  // All leaves active: y = 1/2 · 3/4 · 3/4 = 9/32, x = 1/2 · 3/4 · 1/4 = 3/32, a2 = 1/2 · 1/4.
  const std::set<std::string> leaves = {"b", "a2", "x", "y"};
  EXPECT_DOUBLE_EQ(TenantEntitlement("y", org, leaves), 9.0 / 32);
  EXPECT_DOUBLE_EQ(TenantEntitlement("x", org, leaves), 3.0 / 32);
  EXPECT_DOUBLE_EQ(TenantEntitlement("a2", org, leaves), 1.0 / 8);
  EXPECT_DOUBLE_EQ(TenantEntitlement("b", org, leaves), 0.5);
  // a2 and x idle: y is a1's only active child and a1 is a's: y = 1/2 · 1 · 1 = 1/2.
  EXPECT_DOUBLE_EQ(TenantEntitlement("y", org, {"b", "y"}), 0.5);
  // Jobs booked to a1 with x and y: a1's own jobs 1, x 1, y 3 → own = 1/2 · 1 · 1/5 = 1/10,
  // y = 1/2 · 3/5 = 3/10; a2 idle, so a1 gets all of a's 1/2.
  EXPECT_DOUBLE_EQ(TenantEntitlement("a1", org, {"a1", "x", "y", "b"}), 0.1);
  EXPECT_DOUBLE_EQ(TenantEntitlement("y", org, {"a1", "x", "y", "b"}), 0.3);
}

TEST(TenantFairnessTest, NoIndexForOneTenantOrNoOutput) {
  EXPECT_FALSE(TenantFairness({Row("a", 5), Row("a", 1)}, {}).has_value());
  EXPECT_FALSE(TenantFairness({}, {}).has_value());
  EXPECT_FALSE(TenantFairness({Row("a", 0), Row("b", 0)}, {}).has_value());
}

}  // namespace
}  // namespace fleetsim
