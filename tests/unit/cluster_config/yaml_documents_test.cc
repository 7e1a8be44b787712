// The YAML reader of the Kubernetes and KAI importers: documents as JSON trees with scalars kept
// as text, nulls, aliases expanded, views that never throw, and malformed or explosive text
// refused with its place.
#include "cluster_config/yaml_documents.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fleetsim {
namespace {

std::vector<nlohmann::json> Parse(const std::string& text) {
  std::vector<nlohmann::json> docs;
  const Status status = ParseYamlText(text, "t.yaml", docs);
  EXPECT_TRUE(status.ok()) << status.message();
  return docs;
}

std::string Error(const std::string& text) {
  std::vector<nlohmann::json> docs;
  return ParseYamlText(text, "t.yaml", docs).message();
}

TEST(YamlDocumentsTest, KeepsScalarsAsTextAndPlainNullsAsNull) {
  const std::vector<nlohmann::json> docs =
      Parse("a: 12\nb: '12'\nc: true\nd: ~\ne:\nf: null\ng: 'null'\nh: [1, x]\n");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0], nlohmann::json::parse(R"({"a": "12", "b": "12", "c": "true", "d": null,
      "e": null, "f": null, "g": "null", "h": ["1", "x"]})"));
}

TEST(YamlDocumentsTest, ReadsEveryDocumentAndEmptyOnesAsNull) {
  const std::vector<nlohmann::json> docs = Parse("kind: A\n---\n---\nkind: B\n");
  ASSERT_EQ(docs.size(), 3u);
  EXPECT_EQ(docs[0]["kind"], "A");
  EXPECT_TRUE(docs[1].is_null());
  EXPECT_EQ(docs[2]["kind"], "B");
  EXPECT_TRUE(Parse("").empty());
}

TEST(YamlDocumentsTest, ExpandsAliasesAndRefusesOneWithoutAnAnchor) {
  const std::vector<nlohmann::json> docs =
      Parse("base: &gpu {quota: 4, limit: 8}\nq1: *gpu\nq2: [*gpu]\n");
  EXPECT_EQ(docs[0]["q1"], docs[0]["base"]);
  EXPECT_EQ(docs[0]["q2"][0]["limit"], "8");
  EXPECT_EQ(Error("a: *nowhere\n"), "t.yaml:1:4: alias '*nowhere' names no anchor before it");
}

// Found in review: nested anchors each keep a copy, which used to be free (an 800 KB file took
// 8 GB); a long scalar aliased many times counted as few values; aliases could paste a deep value
// deeper still; an alias could name an anchor of an earlier document.
TEST(YamlDocumentsTest, AnchorsAndAliasesCannotExpandOrNestWithoutBound) {
  std::string copies = "[1";
  for (int i = 1; i < 200'000; ++i) {
    copies += ",1";
  }
  copies += "]";
  for (int level = 0; level < 50; ++level) {
    copies = "&l" + std::to_string(level) + " [" + copies + "]";
  }
  const std::string too_much =
      "expands to more than 1000000 values and bytes beyond its own length (through its anchors "
      "and aliases)";
  EXPECT_NE(Error("x: " + copies).find(too_much), std::string::npos);
  // A 100 kB scalar aliased a thousand times: few values, 100 MB of text.
  std::string aliases = "a: &long " + std::string(100'000, 'x') + "\nb: [*long";
  for (int i = 1; i < 1'000; ++i) {
    aliases += ", *long";
  }
  EXPECT_NE(Error(aliases + "]\n").find(too_much), std::string::npos);
  std::string deep;
  for (int k = 0; k < 3; ++k) {
    deep += "- &a" + std::to_string(k) + " " + std::string(300, '[') +
            (k == 0 ? std::string("1") : "*a" + std::to_string(k - 1)) + std::string(300, ']') +
            "\n";
  }
  EXPECT_EQ(Error(deep), "t.yaml:2:307: nested deeper than 512 levels (through alias '*a0')");
  EXPECT_EQ(Error("a: &x 1\n---\nb: *x\n"), "t.yaml:3:4: alias '*x' names no anchor before it");
}

TEST(YamlDocumentsTest, RefusesMalformedTextAndKeysThatAreNotScalars) {
  EXPECT_EQ(Error("a: [1, 2\n"),
            "t.yaml:2:1: did not find expected ',' or ']' (while parsing a flow sequence)");
  EXPECT_EQ(Error("? [a, b]\n: c\n"),
            "t.yaml:1:3: expected a scalar map key, found a map or a sequence");
  EXPECT_EQ(Error("kind: Node\nname: \xff\n"), "t.yaml:2:7: invalid leading UTF-8 octet");
}

TEST(YamlDocumentsTest, ViewsOfMissingOrWronglyShapedValuesAreAbsentNotErrors) {
  const std::vector<nlohmann::json> docs = Parse("metadata: x\nitems: [a, {b: 2}]\nn: 3\n");
  const DocumentNode doc(docs[0]);
  EXPECT_FALSE(doc["metadata"]["name"]);
  EXPECT_EQ(YamlText(doc["metadata"]["name"]), "");
  EXPECT_FALSE(doc["n"][0]);
  EXPECT_FALSE(doc["items"][5]);
  EXPECT_EQ(YamlText(doc["items"][1]["b"]), "2");
  EXPECT_EQ(YamlNumber(doc["n"]), 3.0);
  EXPECT_EQ(YamlNumber(doc["items"]), std::nullopt);
  EXPECT_EQ(doc["items"].Elements().size(), 2u);
  EXPECT_TRUE(doc["n"].Elements().empty());
  EXPECT_TRUE(doc["items"].Entries().empty());
}

}  // namespace
}  // namespace fleetsim
