// The conformance suites' policies: the built-in ones and the example Python ones.
#include "testutil/policies.h"

#include <cstdio>
#include <cstdlib>

#include "fleetsim/python/policy_module.h"

namespace fleetsim::testing {

const PolicyRegistry& EveryPolicy() {
  static const PolicyRegistry registry = [] {
    PolicyRegistry policies = BuiltinPolicies();
    if (PythonPoliciesAvailable()) {
      const Status status =
          LoadPolicyModule(FLEETSIM_SOURCE_DIR "/python/examples/policies.py", policies);
      if (!status.ok()) {
        std::fprintf(stderr, "the example Python policies did not load: %s\n",
                     status.message().c_str());
        std::abort();
      }
    }
    return policies;
  }();
  return registry;
}

}  // namespace fleetsim::testing
