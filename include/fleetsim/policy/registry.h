// The policy registry: every policy describes itself (name, summary, parameters with types,
// defaults, ranges and docs) and how to build it from checked parameter values. The registry
// drives `fleetsim list policies`, scenario validation of policy parameters, and
// docs/policies.md (a test keeps them in agreement). BuiltinPolicies() returns a fresh value:
// no global registry. Thread-compatible.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "fleetsim/policy/policy.h"

namespace fleetsim {

enum class ParamType { kInt, kReal, kBool, kChoice };

// kInt: std::int64_t; kReal: double; kBool: bool; kChoice: std::string (one of `choices`).
using ParamValue = std::variant<std::int64_t, double, bool, std::string>;

struct ParamSpec {
  std::string name;
  ParamType type = ParamType::kInt;
  ParamValue default_value;
  double min = 0;  // inclusive bounds for kInt and kReal
  double max = 0;
  std::vector<std::string> choices{};  // kChoice: the allowed values
  std::string doc;
};

// Parameter values by name; every declared parameter is present (defaults filled in).
using PolicyParams = std::map<std::string, ParamValue>;

// A policy chosen by name, with every declared parameter (defaults filled in): what a scenario
// runs and a run's report records.
struct PolicyChoice {
  std::string name = "fifo";
  PolicyParams params;
};

struct PolicyInfo {
  std::string name;
  std::string summary;
  std::vector<ParamSpec> params;
  std::function<std::unique_ptr<Policy>(const PolicyParams&)> make;
};

class PolicyRegistry {
 public:
  void Add(PolicyInfo info);
  const PolicyInfo* Find(const std::string& name) const;
  // Names in registration order.
  std::vector<std::string> Names() const;
  const std::vector<PolicyInfo>& policies() const { return policies_; }

 private:
  std::vector<PolicyInfo> policies_;
};

// All policies shipped with fleetsim.
PolicyRegistry BuiltinPolicies();

// Declared defaults for every parameter of `info`.
PolicyParams DefaultParams(const PolicyInfo& info);

std::string ParamTypeName(ParamType type);
std::string FormatParamValue(const ParamValue& value);
// The values a parameter accepts, as listings and docs show them: "[0, 10]" for numbers,
// "true, false" for booleans, "easy, conservative" for choices.
std::string ParamRangeText(const ParamSpec& spec);

// Typed access to a checked parameter (the type must match its declaration).
std::int64_t IntParam(const PolicyParams& params, const std::string& name);
double RealParam(const PolicyParams& params, const std::string& name);
bool BoolParam(const PolicyParams& params, const std::string& name);
const std::string& ChoiceParam(const PolicyParams& params, const std::string& name);

}  // namespace fleetsim
