// Policies written in Python, for the fleetsim command (`--policy-module FILE`): LoadPolicyModule
// starts an interpreter embedded in the process (once), imports the file as a module, and adds
// every policy it registers with fleetsim.register_policy (docs/python.md) to a registry, where
// it runs like a built-in: by name, with checked parameters, every decision checked by the
// engine, on any thread (each call takes Python's global lock). In a build without Python
// (FLEETSIM_PYTHON=OFF) it fails, saying so.
#pragma once

#include <string>

#include "fleetsim/core/status.h"
#include "fleetsim/policy/registry.h"

namespace fleetsim {

// Whether this build can load policy modules.
bool PythonPoliciesAvailable();

// Imports the Python file at `path` and adds the policies it registers to `registry`. Fails,
// adding nothing, when the file cannot be read, raises while it is imported (the message holds
// the traceback), registers nothing, or registers a name `registry` already has.
Status LoadPolicyModule(const std::string& path, PolicyRegistry& registry);

}  // namespace fleetsim
