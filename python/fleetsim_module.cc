// The fleetsim Python extension module (`import fleetsim`), built with pybind11 from the same
// libraries as the command; its contents are src/python/bindings.cc's (docs/python.md).
#include <pybind11/pybind11.h>

#include "python/bindings.h"

PYBIND11_MODULE(fleetsim, module) { fleetsim::python::DefineModule(module); }
