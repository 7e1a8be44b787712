// LoadPolicyModule: Python policies for the fleetsim command, through an interpreter embedded in
// the process. The fleetsim module is built in (the same definitions as the extension module),
// so a policy file's `import fleetsim` finds it without any path set up.
#include "fleetsim/python/policy_module.h"

#include <fmt/format.h>
#include <pybind11/embed.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>

#include "python/bindings.h"
#include "python/python_policy.h"

PYBIND11_EMBEDDED_MODULE(fleetsim, module) { fleetsim::python::DefineModule(module); }

namespace fleetsim {

namespace py = pybind11;

namespace {

// What policies printed reaches the command's output, even when it is not a terminal (Python
// buffers it, and the interpreter is never finalized to flush it).
void FlushPythonOutput() {
  py::gil_scoped_acquire gil;
  for (const char* stream : {"stdout", "stderr"}) {
    try {
      py::module_::import("sys").attr(stream).attr("flush")();
    } catch (py::error_already_set&) {  // a closed or replaced stream: nothing to flush
    }
  }
}

// Starts the interpreter once, leaving the command's own signal handlers in place, then lets go
// of the global lock for good: each policy call takes it (python/python_policy.h), on whichever
// thread runs the simulation. It is never finalized: policies may be released at exit.
void StartInterpreter() {
  static std::once_flag once;
  std::call_once(once, [] {
    py::initialize_interpreter(/*init_signal_handlers=*/false);
    PyEval_SaveThread();
    std::atexit(FlushPythonOutput);
  });
}

// Runs the file as a module named after it, its folder first on sys.path (so it can import its
// neighbours).
void ImportFile(const std::filesystem::path& path) {
  const py::module_ sys = py::module_::import("sys");
  sys.attr("path").attr("insert")(0, path.parent_path().string());
  const py::module_ util = py::module_::import("importlib.util");
  const std::string name = "fleetsim_policies_" + path.stem().string();
  const py::object spec = util.attr("spec_from_file_location")(name, path.string());
  const py::object module = util.attr("module_from_spec")(spec);
  sys.attr("modules")[py::str(name)] = module;
  spec.attr("loader").attr("exec_module")(module);
}

}  // namespace

bool PythonPoliciesAvailable() { return true; }

Status LoadPolicyModule(const std::string& path, PolicyRegistry& registry) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    return Status::IoError(fmt::format(
        "{}: {}", path,
        std::filesystem::exists(path, error) ? "not a regular file" : "No such file or directory"));
  }
  StartInterpreter();
  py::gil_scoped_acquire gil;
  auto& registered = python::RegisteredClasses();
  const std::size_t before = registered.size();
  try {
    ImportFile(std::filesystem::absolute(path));
  } catch (py::error_already_set& raised) {
    registered.resize(before);
    return Status::InvalidInput(
        fmt::format("{}: importing it raised {}", path, python::DescribeRaised(raised)));
  }
  if (registered.size() == before) {
    return Status::InvalidInput(
        fmt::format("{}: it registers no policy (decorate a fleetsim.Policy subclass with "
                    "@fleetsim.policy(\"name\"), or call fleetsim.register_policy)",
                    path));
  }
  for (std::size_t i = before; i < registered.size(); ++i) {
    if (registry.Find(registered[i]->name) != nullptr) {
      const std::string name = registered[i]->name;
      registered.resize(before);
      return Status::InvalidInput(
          fmt::format("{}: it registers policy '{}', a name taken already", path, name));
    }
  }
  for (std::size_t i = before; i < registered.size(); ++i) {
    registry.Add(python::PythonPolicyInfo(registered[i]));
  }
  return Status::Ok();
}

}  // namespace fleetsim
