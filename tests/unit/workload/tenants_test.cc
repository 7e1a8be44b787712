// TenantTreeProblems: the tree rules the scenario loader and the KAI queue importer share, with the
// locations and the noun each caller gives.
#include "fleetsim/workload/tenants.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fleetsim {
namespace {

std::string Where(std::size_t index, TenantField field) {
  return fmt::format("q{}.{}", index, field == TenantField::kName ? "name" : "parent");
}

// "LOCATION: MESSAGE" per problem, in the order given.
std::vector<std::string> Problems(const Organization& tenants, std::string_view noun = "tenant") {
  std::vector<std::string> lines;
  for (const TenantProblem& p : TenantTreeProblems(tenants, Where, noun)) {
    lines.push_back(fmt::format("{}: {}", Where(p.index, p.field), p.message));
  }
  return lines;
}

TEST(TenantTreeProblemsTest, AWellFormedTreeHasNone) {
  EXPECT_TRUE(Problems({}).empty());
  EXPECT_TRUE(Problems({{.name = "org"},
                        {.name = "team-a", .parent = "org"},
                        {.name = "a.1", .parent = "team-a"},
                        {.name = "other"}})
                  .empty());
}

TEST(TenantTreeProblemsTest, AParentNotListedIsNamedWithTheListAndTheClosestName) {
  EXPECT_EQ(Problems({{.name = "test", .parent = "default"}}, "queue"),
            std::vector<std::string>{"q0.parent: unknown parent queue 'default' (queues: 'test')"});
  EXPECT_EQ(Problems({{.name = "research"}, {.name = "vision", .parent = "reserch"}}),
            std::vector<std::string>{"q1.parent: unknown parent tenant 'reserch', did you mean "
                                     "'research'? (tenants: 'research', 'vision')"});
}

TEST(TenantTreeProblemsTest, ALaterUseOfANamePointsAtTheFirst) {
  EXPECT_EQ(
      Problems({{.name = "a"}, {.name = "b"}, {.name = "a"}, {.name = "a"}}),
      (std::vector<std::string>{"q2.name: duplicate tenant name 'a' (first used at q0.name)",
                                "q3.name: duplicate tenant name 'a' (first used at q0.name)"}));
}

TEST(TenantTreeProblemsTest, NamesThatAreNotPlainAreLeftToTheCaller) {
  // Reported by the caller in its own words, once; a parent may still refer to them.
  EXPECT_TRUE(
      Problems({{.name = "bad name"}, {.name = "bad name"}, {.name = "c", .parent = "bad name"}})
          .empty());
}

TEST(TenantTreeProblemsTest, EveryTenantOnACycleIsReportedAndOnlyThey) {
  EXPECT_EQ(
      Problems({{.name = "a", .parent = "b"},
                {.name = "b", .parent = "a"},
                {.name = "self", .parent = "self"},
                {.name = "below", .parent = "a"}}),
      (std::vector<std::string>{"q0.parent: tenant 'a' is its own ancestor (a -> b -> a)",
                                "q1.parent: tenant 'b' is its own ancestor (b -> a -> b)",
                                "q2.parent: tenant 'self' is its own ancestor (self -> self)"}));
}

TEST(TenantTreeProblemsTest, ALaterTenantUnderTheFirstOfItsNameIsADuplicateNotACycle) {
  EXPECT_EQ(Problems({{.name = "a"}, {.name = "a", .parent = "a"}}),
            std::vector<std::string>{"q1.name: duplicate tenant name 'a' (first used at q0.name)"});
}

TEST(TenantTreeProblemsTest, ALongCycleIsShownCutAndADeepTreeIsFine) {
  Organization cycle;
  Organization deep = {{.name = "t0"}};
  for (int i = 0; i < 20'000; ++i) {
    cycle.push_back(
        {.name = fmt::format("t{}", i), .parent = fmt::format("t{}", (i + 1) % 20'000)});
    if (i > 0) {
      deep.push_back({.name = fmt::format("t{}", i), .parent = fmt::format("t{}", i - 1)});
    }
  }
  const std::vector<std::string> problems = Problems(cycle);
  ASSERT_EQ(problems.size(), 20'000U);
  EXPECT_EQ(problems[0],
            "q0.parent: tenant 't0' is its own ancestor (t0 -> t1 -> t2 -> t3 -> t4 -> t5 -> t6 "
            "-> ... (19993 more) -> t0)");
  EXPECT_EQ(problems[19'999],
            "q19999.parent: tenant 't19999' is its own ancestor (t19999 -> t0 -> t1 -> t2 -> t3 "
            "-> t4 -> t5 -> ... (19993 more) -> t19999)");
  EXPECT_TRUE(Problems(deep).empty());
}

TEST(TenantTreeProblemsTest, ACycleIsCutOnlyWhereTwoOrMoreNamesWouldBeHidden) {
  const auto cycle_of = [](int n) {
    Organization cycle;
    for (int i = 0; i < n; ++i) {
      cycle.push_back({.name = fmt::format("t{}", i), .parent = fmt::format("t{}", (i + 1) % n)});
    }
    return Problems(cycle)[0];
  };
  EXPECT_EQ(cycle_of(8),
            "q0.parent: tenant 't0' is its own ancestor (t0 -> t1 -> t2 -> t3 -> t4 -> t5 -> t6 "
            "-> t7 -> t0)");
  EXPECT_EQ(cycle_of(9),
            "q0.parent: tenant 't0' is its own ancestor (t0 -> t1 -> t2 -> t3 -> t4 -> t5 -> t6 "
            "-> ... (2 more) -> t0)");
}

TEST(TenantTreeProblemsTest, TheNamesListedForAnUnknownParentAreBounded) {
  Organization many;
  for (int i = 0; i < 30; ++i) {
    many.push_back({.name = fmt::format("team-{:02}", i)});
  }
  many.push_back({.name = "orphan", .parent = "research"});
  const std::vector<std::string> problems = Problems(many);
  ASSERT_EQ(problems.size(), 1U);
  EXPECT_TRUE(problems[0].ends_with("'team-18', 'team-19' and 11 more)")) << problems[0];
}

TEST(TenantTreeProblemsTest, OnlyPlainNamesAreListedAsParents) {
  EXPECT_EQ(
      Problems({{.name = "bad name"}, {.name = "vision", .parent = "bad-name"}}),
      std::vector<std::string>{"q1.parent: unknown parent tenant 'bad-name' (tenants: 'vision')"});
}

TEST(TenantTreeProblemsTest, ProblemsComeInTenantOrder) {
  const std::vector<std::string> problems =
      Problems({{.name = "a", .parent = "nowhere"}, {.name = "a", .parent = "elsewhere"}});
  EXPECT_EQ(problems, (std::vector<std::string>{
                          "q0.parent: unknown parent tenant 'nowhere' (tenants: 'a')",
                          "q1.name: duplicate tenant name 'a' (first used at q0.name)",
                          "q1.parent: unknown parent tenant 'elsewhere' (tenants: 'a')"}));
}

TEST(TenantTreeProblemsTest, AHostileParentNameIsShownCut) {
  const std::string long_name(10'000, 'p');
  const std::vector<std::string> problems = Problems({{.name = "a", .parent = long_name}});
  ASSERT_EQ(problems.size(), 1U);
  EXPECT_LT(problems[0].size(), 200U);
  EXPECT_NE(problems[0].find("..."), std::string::npos);
}

}  // namespace
}  // namespace fleetsim
