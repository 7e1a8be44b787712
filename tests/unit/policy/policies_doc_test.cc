// docs/policies.md must describe exactly the registered policies: same names in the same order,
// the registry's summary, and each parameter's type, default, range and doc text.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "fleetsim/policy/registry.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

struct DocumentedPolicy {
  std::string name;
  std::string summary;
  std::vector<std::string> param_rows;  // "| `name` | type | default | [min, max] | doc |"
  bool says_no_params = false;
};

std::vector<DocumentedPolicy> ParsePoliciesDoc(const std::string& text) {
  static const std::regex heading(R"(^## `([^`]+)`$)");
  std::vector<DocumentedPolicy> policies;
  std::istringstream in(text);
  std::string line;
  bool expect_summary = false;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_match(line, m, heading)) {
      policies.push_back({m[1].str(), "", {}, false});
      expect_summary = true;
    } else if (policies.empty() || line.empty()) {
      continue;
    } else if (expect_summary) {
      policies.back().summary = line;
      expect_summary = false;
    } else if (line == "Parameters: none.") {
      policies.back().says_no_params = true;
    } else if (line.rfind("| `", 0) == 0) {
      policies.back().param_rows.push_back(line);
    }
  }
  return policies;
}

TEST(PoliciesDocTest, MatchesTheRegistry) {
  const std::vector<DocumentedPolicy> documented =
      ParsePoliciesDoc(testing::ReadFile(testing::SourcePath("docs/policies.md")));
  const PolicyRegistry registry = BuiltinPolicies();
  ASSERT_EQ(documented.size(), registry.policies().size());
  for (std::size_t i = 0; i < documented.size(); ++i) {
    const PolicyInfo& info = registry.policies()[i];
    const DocumentedPolicy& doc = documented[i];
    EXPECT_EQ(doc.name, info.name);
    EXPECT_EQ(doc.summary, info.summary) << info.name;
    EXPECT_EQ(doc.says_no_params, info.params.empty()) << info.name;
    std::vector<std::string> expected_rows;
    for (const ParamSpec& p : info.params) {
      expected_rows.push_back(fmt::format("| `{}` | {} | {} | {} | {} |", p.name,
                                          ParamTypeName(p.type), FormatParamValue(p.default_value),
                                          ParamRangeText(p), p.doc));
    }
    EXPECT_EQ(doc.param_rows, expected_rows) << info.name;
  }
}

}  // namespace
}  // namespace fleetsim
