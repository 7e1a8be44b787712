// Diagnostics formatting, --strict promotion, and "did you mean" suggestions.
#include "fleetsim/core/diagnostics.h"

#include <gtest/gtest.h>

namespace fleetsim {
namespace {

TEST(DiagnosticsTest, FormatsEveryItemWithSourceAndPath) {
  Diagnostics d;
  d.Error("/jobs/12/gpus", "expected an integer ≥ 1, found -3");
  d.Warning("/fleet/gpu", "unknown key 'gpu', did you mean 'gpus'?");
  d.Error("", "a scenario needs 'jobs', 'generator' or both");
  EXPECT_EQ(d.Format("s.json"),
            "s.json: /jobs/12/gpus: error: expected an integer ≥ 1, found -3\n"
            "s.json: /fleet/gpu: warning: unknown key 'gpu', did you mean 'gpus'?\n"
            "s.json: /: error: a scenario needs 'jobs', 'generator' or both\n");
  EXPECT_TRUE(d.HasErrors());
}

TEST(DiagnosticsTest, WarningsAloneAreNotErrorsUntilPromoted) {
  Diagnostics d;
  d.Warning("/x", "unknown key 'x'");
  EXPECT_FALSE(d.HasErrors());
  d.PromoteWarnings();
  EXPECT_TRUE(d.HasErrors());
}

TEST(SpellingTest, SuggestsCloseNamesOnly) {
  const std::vector<std::string> names = {"fifo", "first-fit", "backfill"};
  EXPECT_EQ(ClosestMatch("fifi", names), "fifo");
  EXPECT_EQ(ClosestMatch("first_fit", names), "first-fit");
  EXPECT_EQ(ClosestMatch("round-robin", names), "");
  EXPECT_EQ(DidYouMean("backfil", names), ", did you mean 'backfill'?");
  EXPECT_EQ(DidYouMean("zzz", names), "");
  EXPECT_EQ(QuotedList(names), "'fifo', 'first-fit', 'backfill'");
}

}  // namespace
}  // namespace fleetsim
