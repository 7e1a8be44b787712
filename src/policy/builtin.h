// Registration hooks of the policies shipped with fleetsim; BuiltinPolicies() calls each.
#pragma once

#include "fleetsim/policy/registry.h"

namespace fleetsim {

PolicyInfo FifoPolicyInfo();
PolicyInfo FirstFitPolicyInfo();
PolicyInfo BackfillPolicyInfo();
PolicyInfo FairSharePolicyInfo();
PolicyInfo ConstraintAwarePolicyInfo();

}  // namespace fleetsim
