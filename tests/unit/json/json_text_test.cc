// The JSON text reader against hostile input (issue 19): long strings inside a syntax error, deep
// nesting, and previews of huge or deep values. Each case once killed every JSON reader with a
// stack overflow (std::regex recursing per character, dump() recursing per level).
#include "json/json_text.h"

#include <gtest/gtest.h>

#include <string>

#include "json/json_checker.h"

namespace fleetsim {
namespace {

std::string Nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

TEST(JsonTextTest, ASyntaxErrorInALongStringIsLocatedAndItsQuoteBounded) {
  const std::string text = "{\n  \"name\": \"" + std::string(200'000, 'x') + "\n}";
  nlohmann::json root;
  const std::string error = ParseJsonText(text, "s.json", root).message();
  EXPECT_EQ(error.rfind("s.json:3:0: invalid JSON: ", 0), 0U) << error.substr(0, 200);
  EXPECT_NE(error.find("invalid string: control character"), std::string::npos);
  EXPECT_LT(error.size(), 400U);
  EXPECT_NE(error.find("xxx..."), std::string::npos);  // the token read, cut
}

TEST(JsonTextTest, NestingDeeperThanTheLimitIsRejectedWhereItGoesTooDeep) {
  nlohmann::json root;
  EXPECT_EQ(ParseJsonText(Nested(kMaxJsonDepth), "d.json", root).message(), "");
  EXPECT_EQ(ParseJsonText("{\"a\":\n " + Nested(200'000) + "}", "d.json", root).message(),
            "d.json:2:513: invalid JSON: arrays and objects nested deeper than 512 levels");
  // Brackets inside strings (escaped quotes too) do not count.
  const std::string in_string = "[\"" + std::string(1000, '[') + "\\\"" + "\"]";
  EXPECT_EQ(ParseJsonText(in_string, "d.json", root).message(), "");
}

TEST(JsonTextTest, ErrorTextsAreTakenApartWithoutRegex) {
  const JsonErrorText located = SplitJsonError(
      "[json.exception.parse_error.101] parse error at line 12, column 7: syntax error while "
      "parsing value - invalid literal; last read: '" +
      std::string(100'000, 'y') + "'");
  ASSERT_TRUE(located.at);
  EXPECT_EQ(located.at->line, 12U);
  EXPECT_EQ(located.at->column, 7U);
  EXPECT_EQ(located.what, "syntax error while parsing value - invalid literal; last read: '" +
                              std::string(kMaxQuotedChars, 'y') + "...");
  const JsonErrorText plain = SplitJsonError("[json.exception.type_error.302] type must be number");
  EXPECT_FALSE(plain.at);
  EXPECT_EQ(plain.what, "type must be number");
}

TEST(JsonTextTest, ShownPreviewsDeepAndLongValuesWithinFortyCharacters) {
  nlohmann::json deep = nlohmann::json::array();
  for (int i = 0; i < 200'000; ++i) {
    deep = nlohmann::json::array({std::move(deep)});
  }
  EXPECT_EQ(Shown(deep), std::string(37, '[') + "...");
  EXPECT_EQ(Shown(nlohmann::json(std::string(100'000, 'z'))), "\"" + std::string(36, 'z') + "...");
  EXPECT_EQ(Shown(nlohmann::json::parse(R"({"a": [1, 2], "b": "c"})")), R"({"a":[1,2],"b":"c"})");
  // A multi-byte character cut at the preview's end does not make the preview throw.
  EXPECT_EQ(Shown(nlohmann::json(std::string(40, 'a') + "\xC3\xA9")).size(), 40U);
}

}  // namespace
}  // namespace fleetsim
