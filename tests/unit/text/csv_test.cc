// CSV splitting and quoting (RFC 4180 on one line): plain and quoted fields, "" escapes, empty
// fields, the two malformed cases with their exact messages, QuoteCsv round trips, blank lines,
// and header lookups with the message for missing columns.
#include "text/csv.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fleetsim {
namespace {

using Fields = std::vector<std::string>;

Fields Split(std::string_view line, char delimiter = ',') {
  Fields fields;
  const std::string error = SplitCsv(line, fields, delimiter).message();
  EXPECT_EQ(error, "") << line;
  return fields;
}

std::string SplitError(std::string_view line) {
  Fields fields;
  return SplitCsv(line, fields).message();
}

TEST(SplitCsvTest, SplitsPlainFieldsAsTheyAre) {
  EXPECT_EQ(Split("a,b c, d "), (Fields{"a", "b c", " d "}));
}

TEST(SplitCsvTest, EmptyFieldsCountIncludingTheLast) {
  EXPECT_EQ(Split(""), (Fields{""}));
  EXPECT_EQ(Split(",,"), (Fields{"", "", ""}));
  EXPECT_EQ(Split("a,"), (Fields{"a", ""}));
}

TEST(SplitCsvTest, QuotedFieldsKeepDelimitersAndDoubledQuotes) {
  EXPECT_EQ(Split(R"("a,b","say ""hi""",c)"), (Fields{"a,b", R"(say "hi")", "c"}));
  EXPECT_EQ(Split(R"("",x)"), (Fields{"", "x"}));
  EXPECT_EQ(Split(R"(x,"""")"), (Fields{"x", "\""}));
}

TEST(SplitCsvTest, AQuoteInsideAnUnquotedFieldIsText) {
  EXPECT_EQ(Split(R"(a"b,c)"), (Fields{"a\"b", "c"}));
}

TEST(SplitCsvTest, UsesTheGivenDelimiter) {
  EXPECT_EQ(Split("a;\"b;c\";d", ';'), (Fields{"a", "b;c", "d"}));
  EXPECT_EQ(Split("a,b;c", ';'), (Fields{"a,b", "c"}));
}

TEST(SplitCsvTest, AnUnterminatedQuoteNamesTheField) {
  EXPECT_EQ(SplitError(R"(a,"b,c)"), "field 2 has an opening quote but no closing quote");
  EXPECT_EQ(SplitError(R"("a"")"), "field 1 has an opening quote but no closing quote");
}

TEST(SplitCsvTest, TextAfterAClosingQuoteNamesTheField) {
  EXPECT_EQ(SplitError(R"(a,b,"c"d)"), "field 3 has text after its closing quote");
}

TEST(SplitCsvTest, ReusesTheFieldsVector) {
  Fields fields = {"old", "stale", "values", "more"};
  EXPECT_EQ(SplitCsv("x,y", fields).message(), "");
  EXPECT_EQ(fields, (Fields{"x", "y"}));
}

TEST(QuoteCsvTest, QuotesOnlyWhenNeeded) {
  EXPECT_EQ(QuoteCsv("plain"), "plain");
  EXPECT_EQ(QuoteCsv(""), "");
  EXPECT_EQ(QuoteCsv("a,b"), R"("a,b")");
  EXPECT_EQ(QuoteCsv(R"(say "hi")"), R"("say ""hi""")");
  EXPECT_EQ(QuoteCsv(" padded "), R"(" padded ")");
  EXPECT_EQ(QuoteCsv("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(QuoteCsv("a;b", ';'), R"("a;b")");
  EXPECT_EQ(QuoteCsv("a,b", ';'), "a,b");
}

TEST(QuoteCsvTest, QuotedFieldsSplitBackToTheOriginals) {
  const Fields originals = {"plain", "", "a,b", R"(say "hi")", " padded ", "\"", ",", "x\ry"};
  std::string line;
  for (std::size_t i = 0; i < originals.size(); ++i) {
    line += (i == 0 ? "" : ",") + QuoteCsv(originals[i]);
  }
  EXPECT_EQ(Split(line), originals);
}

TEST(IsBlankTest, OnlySpacesAndTabsAreBlank) {
  EXPECT_TRUE(IsBlank(""));
  EXPECT_TRUE(IsBlank(" \t "));
  EXPECT_FALSE(IsBlank(" x "));
  EXPECT_FALSE(IsBlank(","));
}

TEST(CsvHeaderTest, FindsColumnsByExactName) {
  const CsvHeader header({"id", "submit_s", "gpus"});
  EXPECT_EQ(header.size(), 3U);
  EXPECT_EQ(header.Find("gpus"), 2U);
  EXPECT_EQ(header.Find("GPUS"), std::nullopt);
  EXPECT_EQ(header.Find("gpu"), std::nullopt);
}

TEST(CsvHeaderTest, MissingListsWhatIsMissingAndWhatWasFound) {
  const CsvHeader header({"id", "gpus"});
  EXPECT_EQ(header.Missing({"id", "gpus"}).message(), "");
  EXPECT_EQ(header.Missing({"id", "submit_s"}).message(),
            "expected a header with the column 'submit_s', found columns 'id', 'gpus'");
  EXPECT_EQ(header.Missing({"submit_s", "duration_s", "gpus"}).message(),
            "expected a header with the columns 'submit_s', 'duration_s', found columns 'id', "
            "'gpus'");
}

}  // namespace
}  // namespace fleetsim
