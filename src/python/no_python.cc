// LoadPolicyModule in a build without Python (FLEETSIM_PYTHON=OFF): it says so.
#include "fleetsim/python/policy_module.h"

namespace fleetsim {

bool PythonPoliciesAvailable() { return false; }

Status LoadPolicyModule(const std::string& path, PolicyRegistry& /*registry*/) {
  return Status::InvalidInput(
      path +
      ": this fleetsim was built without Python (configure with -DFLEETSIM_PYTHON=ON, "
      "as the release and ci presets do), so it cannot load policy modules");
}

}  // namespace fleetsim
