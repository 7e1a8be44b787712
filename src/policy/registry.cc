// The policy registry and parameter helpers.
#include "fleetsim/policy/registry.h"

#include <fmt/format.h>

#include <algorithm>

#include "fleetsim/core/check.h"
#include "policy/builtin.h"

namespace fleetsim {

void PolicyRegistry::Add(PolicyInfo info) {
  FLEETSIM_CHECK(Find(info.name) == nullptr, "policy registered twice");
  policies_.push_back(std::move(info));
}

const PolicyInfo* PolicyRegistry::Find(const std::string& name) const {
  const auto it = std::find_if(policies_.begin(), policies_.end(),
                               [&](const PolicyInfo& p) { return p.name == name; });
  return it == policies_.end() ? nullptr : &*it;
}

std::vector<std::string> PolicyRegistry::Names() const {
  std::vector<std::string> names;
  for (const PolicyInfo& p : policies_) {
    names.push_back(p.name);
  }
  return names;
}

PolicyRegistry BuiltinPolicies() {
  PolicyRegistry registry;
  registry.Add(FifoPolicyInfo());
  registry.Add(FirstFitPolicyInfo());
  return registry;
}

PolicyParams DefaultParams(const PolicyInfo& info) {
  PolicyParams params;
  for (const ParamSpec& spec : info.params) {
    params[spec.name] = spec.default_value;
  }
  return params;
}

std::string ParamTypeName(ParamType type) {
  switch (type) {
    case ParamType::kInt:
      return "integer";
    case ParamType::kReal:
      return "number";
    case ParamType::kBool:
      return "boolean";
  }
  return "?";
}

std::string FormatParamValue(const ParamValue& value) {
  return std::visit(
      [](const auto& v) -> std::string {
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, bool>) {
          return v ? "true" : "false";
        } else {
          return fmt::format("{}", v);
        }
      },
      value);
}

}  // namespace fleetsim
