// The fleetsim Python module's contents (docs/python.md), defined once for the two ways it is
// loaded: the extension module `import fleetsim` finds (python/fleetsim_module.cc) and the module
// embedded in the fleetsim command for --policy-module (policy_module.cc).
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <vector>

#include "fleetsim/policy/registry.h"
#include "python/python_policy.h"

namespace fleetsim::python {

// Fills `module` with the classes and functions of docs/python.md.
void DefineModule(py::module_& module);

// The Python policy classes registered in this process, in registration order. Never destroyed:
// the interpreter may be gone by the time static objects are.
std::vector<std::shared_ptr<const PythonPolicyClass>>& RegisteredClasses();

// The built-in policies, then the registered Python ones.
PolicyRegistry RegistryWithPython();

}  // namespace fleetsim::python
