// The policies the conformance suites hold to their rules: every built-in policy and, in a build
// with Python (FLEETSIM_PYTHON), the example Python policies of python/examples/policies.py,
// loaded through the same LoadPolicyModule as `fleetsim --policy-module`.
#pragma once

#include "fleetsim/policy/registry.h"

namespace fleetsim::testing {

// Loaded once per process; a module that fails to load aborts with why.
const PolicyRegistry& EveryPolicy();

}  // namespace fleetsim::testing
