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

TEST(SpellingTest, NamesAreShownWholeUpTo64BytesThenCut) {
  EXPECT_EQ(ShownName("gpus"), "gpus");
  EXPECT_EQ(ShownName(std::string(64, 'a')), std::string(64, 'a'));
  EXPECT_EQ(ShownName(std::string(65, 'a')), std::string(61, 'a') + "...");
  // "é" is two bytes: byte 61 is the second byte of one, so the cut falls before that character.
  std::string accents;
  for (int i = 0; i < 40; ++i) {
    accents += "\xc3\xa9";
  }
  EXPECT_EQ(ShownName(accents), accents.substr(0, 60) + "...");
  // Not UTF-8 (a CSV header may be anything): cut at 61 bytes rather than stepping back further.
  const std::string continuation(100, '\x80');
  EXPECT_EQ(ShownName(continuation), continuation.substr(0, 61) + "...");
  EXPECT_EQ(QuotedInputNames({"id", std::string(65, 'a')}),
            "'id', '" + std::string(61, 'a') + "...'");
  EXPECT_EQ(QuotedList({std::string(65, 'a')}), "'" + std::string(65, 'a') + "'");
}

// Candidates whose length alone puts them no closer than the best so far are skipped; the
// closest one is still found wherever it is in the list, and long words are still matched.
TEST(SpellingTest, TheClosestNameWinsWhateverTheLengthsBeforeIt) {
  EXPECT_EQ(ClosestMatch("priorty", {"priority_class_x", "prior", "priority"}), "priority");
  EXPECT_EQ(ClosestMatch("abce", {"abcdefgh", "abcd"}), "abcd");
  EXPECT_EQ(ClosestMatch("fifo", {"fifo-2", "fifo"}), "fifo");
  const std::string long_name(3000, 'a');
  EXPECT_EQ(ClosestMatch(long_name + "b", {"fifo", long_name}), long_name);
  EXPECT_EQ(ClosestMatch(std::string(100000, 'x'), {"fifo", "backfill", long_name}), "");
}

}  // namespace
}  // namespace fleetsim
