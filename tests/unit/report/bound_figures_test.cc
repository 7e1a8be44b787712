// Reading the bounds file for the bench: what it keeps, and every problem with its JSON pointer.
#include "fleetsim/report/bound_figures.h"

#include <gtest/gtest.h>

namespace fleetsim {
namespace {

TEST(BoundFiguresTest, KeepsEachScenariosBoundProofAndGap) {
  const BoundFiguresLoad load = ParseBoundFigures(R"({"format_version": 1, "threads": 1,
      "bounds": [
        {"scenario": "a", "bound": 748.9, "gap": 0, "proven_optimal": true, "schedule": []},
        {"scenario": "b", "bound": 12, "gap": 0.25, "proven_optimal": false}]})",
                                                  "bounds.json");
  ASSERT_TRUE(load.figures) << load.status.message();
  ASSERT_EQ(load.figures->scenarios.size(), 2U);
  const BoundFigure& a = load.figures->scenarios.at("a");
  EXPECT_EQ(a.bound, 748.9);
  EXPECT_TRUE(a.proven_optimal);
  const BoundFigure& b = load.figures->scenarios.at("b");
  EXPECT_EQ(b.gap, 0.25);
  EXPECT_FALSE(b.proven_optimal);
}

TEST(BoundFiguresTest, ReportsEveryProblem) {
  EXPECT_EQ(ParseBoundFigures("{", "f").status.message().rfind("f:1:2: invalid JSON: ", 0), 0U)
      << ParseBoundFigures("{", "f").status.message();
  EXPECT_EQ(ParseBoundFigures(R"({"bounds": []})", "f").status.message(),
            "f: /format_version: expected 1 (a file of 'fleetsim bound --json')");
  EXPECT_EQ(ParseBoundFigures(R"({"format_version": 1})", "f").status.message(),
            "f: /bounds: expected an array of scenario bounds");
  EXPECT_EQ(ParseBoundFigures(R"({"format_version": 1, "bounds": [3,
      {"bound": 1, "gap": 0, "proven_optimal": true},
      {"scenario": "a", "bound": -1, "proven_optimal": 1},
      {"scenario": "b", "bound": 1, "gap": 0, "proven_optimal": true},
      {"scenario": "b", "bound": 2, "gap": 0, "proven_optimal": true}]})",
                              "f")
                .status.message(),
            "f: /bounds/0: expected an object, found 3\n"
            "f: /bounds/1/scenario: expected the scenario's name\n"
            "f: /bounds/2/bound: expected a number >= 0, found -1\n"
            "f: /bounds/2: missing \"gap\"\n"
            "f: /bounds/2/proven_optimal: expected true or false\n"
            "f: /bounds/4/scenario: 'b' has a bound already");
  EXPECT_EQ(LoadBoundFigures("/no/such/bounds.json").status.message(),
            "/no/such/bounds.json: cannot open the file");
}

}  // namespace
}  // namespace fleetsim
