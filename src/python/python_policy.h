// Policies written in Python: a class registered with fleetsim.register_policy (its name, summary,
// parameters and call budget) becomes a PolicyInfo whose make() instantiates the class, and each
// instance is a C++ Policy (PythonPolicy) that calls the object's decide(view, planner) under
// Python's global lock and turns what it returns into Decisions for the engine to check. A call
// that raises, returns something that is not a list of decisions, or runs past its budget gives
// no decisions and a failure (Policy::TakeFailure) carrying the Python traceback; the engine
// stops the run with it. The view and planner Python sees are handles on the call's state,
// refused once the call is over, so a policy that keeps them cannot read freed memory.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

#include "fleetsim/policy/policy.h"
#include "fleetsim/policy/registry.h"

namespace fleetsim::python {

namespace py = pybind11;

// What one decide() call (or one look at a stepped run) may read and hold, shared by the handles
// Python gets. `view` and `planner` are set only during the call.
struct CallState {
  const ClusterView* view = nullptr;
  PlacementPlanner* planner = nullptr;
  // Bumped whenever the view comes or goes: a queue iterator made under another generation
  // refuses to go on (the view's address alone may repeat from call to call).
  std::uint64_t generation = 0;
  // Lives as long as the run: Allocations handed to Python hold it weakly, so one from another
  // run, or from a run that is over, is refused rather than read.
  std::shared_ptr<const int> run = std::make_shared<const int>(0);
  // The requests handed to Python so far in this run, by JobIndex: each job's is copied once.
  std::vector<py::object> requests;

  void Begin(const ClusterView* call_view, PlacementPlanner* call_planner);
  void End();
  // The run is over: its Allocations are refused from now on.
  void EndRun() { run.reset(); }
  // The call's view and planner; raise RuntimeError outside a call.
  const ClusterView& View() const;
  PlacementPlanner& Planner() const;
  // The Python copy of a submitted job's request.
  py::object Request(JobIndex job);
};

// An Allocation as Python holds it: the placement, its grants' MIG profiles by name (so reading it
// never touches the run's memory, where a grant's profile lives), and the run it belongs to. One
// built with whole_gpus names no profile and belongs to no run: it is valid in any.
struct PyAllocation {
  Allocation allocation;
  std::vector<std::string> profiles;  // per grant; "" when not a MIG instance
  std::weak_ptr<const int> run;
  bool portable = false;

  static PyAllocation Of(const Allocation& allocation, const CallState& state);
  static PyAllocation Portable(Allocation allocation);
  // The C++ allocation for use in the run of `state`, or null when it belongs to another run or
  // to one that is over.
  const Allocation* In(const CallState& state) const;
};

// The start and resize decisions as Python builds them (the others are the C++ structs).
struct PyStart {
  JobIndex job = 0;
  PyAllocation placement;
};
struct PyResize {
  JobIndex job = 0;
  PyAllocation placement;
};

// The `view` and `planner` arguments of decide().
struct ViewHandle {
  std::shared_ptr<CallState> state;
};
struct PlannerHandle {
  std::shared_ptr<CallState> state;
};

// A Python policy class as registered.
struct PythonPolicyClass {
  std::string name;
  std::string summary;
  std::vector<ParamSpec> params;
  py::object cls;             // a subclass of fleetsim.Policy
  double call_budget_s = 60;  // wall-clock seconds one decide() call may take
};

// Shares `cls`; it is released under the global lock, whichever thread drops it last.
std::shared_ptr<const PythonPolicyClass> ShareClass(PythonPolicyClass cls);

// The registry entry of a Python policy class: make() builds an instance with the parameters as
// a dict (under the global lock).
PolicyInfo PythonPolicyInfo(std::shared_ptr<const PythonPolicyClass> cls);

// A parameter value as Python sees it, and back.
py::object ToPython(const ParamValue& value);

// What a raised Python exception says, under the global lock: "Type: message", then "At:" and
// the frames between the call that raised and the raise, innermost first, each as
// "file(line): function". Only those frames: not the callers' (a script that called
// fleetsim.run_sweep on its own thread), so a failure's text does not depend on who ran it.
// A frame's file under the working folder is named relative to it (Python makes it absolute).
std::string DescribeRaised(const py::error_already_set& raised);

}  // namespace fleetsim::python
