// The policy registry and parameter helpers.
#include "fleetsim/policy/registry.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

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
  registry.Add(BackfillPolicyInfo());
  registry.Add(FairSharePolicyInfo());
  registry.Add(ConstraintAwarePolicyInfo());
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
    case ParamType::kChoice:
      return "choice";
  }
  return "?";
}

std::string FormatParamValue(const ParamValue& value) {
  return std::visit(
      [](const auto& v) -> std::string {
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, bool>) {
          return v ? "true" : "false";
        } else if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::string>) {
          return v;
        } else {
          return fmt::format("{}", v);
        }
      },
      value);
}

std::string ParamRangeText(const ParamSpec& spec) {
  switch (spec.type) {
    case ParamType::kBool:
      return "true, false";
    case ParamType::kChoice:
      return fmt::format("{}", fmt::join(spec.choices, ", "));
    case ParamType::kInt:
    case ParamType::kReal:
      break;
  }
  return fmt::format("[{}, {}]", spec.min, spec.max);
}

namespace {

template <typename T>
const T& TypedParam(const PolicyParams& params, const std::string& name) {
  const auto it = params.find(name);
  FLEETSIM_CHECK(it != params.end(), "a policy read a parameter it does not declare");
  const T* value = std::get_if<T>(&it->second);
  FLEETSIM_CHECK(value != nullptr, "a policy read a parameter as the wrong type");
  return *value;
}

}  // namespace

std::int64_t IntParam(const PolicyParams& params, const std::string& name) {
  return TypedParam<std::int64_t>(params, name);
}
double RealParam(const PolicyParams& params, const std::string& name) {
  return TypedParam<double>(params, name);
}
bool BoolParam(const PolicyParams& params, const std::string& name) {
  return TypedParam<bool>(params, name);
}
const std::string& ChoiceParam(const PolicyParams& params, const std::string& name) {
  return TypedParam<std::string>(params, name);
}

}  // namespace fleetsim
