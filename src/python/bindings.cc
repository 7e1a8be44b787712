// The fleetsim Python module: scenarios, runs, sweeps and a stepping Simulation, results as dicts
// and pandas DataFrames rendered from the same CSV text as the result files, and the policy
// interface (the cluster view, the planner, decisions, registration). docs/python.md is its
// reference. Long C++ work (loading, running) releases Python's global lock.
#include "python/bindings.h"

#include <fmt/format.h>
#include <pybind11/eval.h>
#include <pybind11/stl.h>

#include <bit>
#include <optional>
#include <string>
#include <utility>

#include "fleetsim/core/names.h"
#include "fleetsim/policy/cluster_view.h"
#include "fleetsim/policy/placement_strategy.h"
#include "fleetsim/report/fleet_summary.h"
#include "fleetsim/report/outputs.h"
#include "fleetsim/scenario/runner.h"
#include "fleetsim/scenario/scenario.h"
#include "fleetsim/sim/simulation.h"
#include "fleetsim/sweep/sweep_results.h"
#include "fleetsim/sweep/sweep_runner.h"
#include "fleetsim/sweep/sweep_spec.h"

namespace fleetsim::python {

namespace {

using namespace pybind11::literals;  // NOLINT(build/namespaces): "name"_a

// The module's pure-Python part: the exceptions, the Policy base class and the decorator.
constexpr const char* kPythonPart = R"PY(
class FleetsimError(Exception):
    """Base class of the errors fleetsim raises."""

class ScenarioError(FleetsimError, ValueError):
    """A scenario, policy choice or sweep spec that does not load. `problems` holds every
    problem found, each a dict with "where" (a JSON pointer, "" for the whole document),
    "severity" and "message"."""
    def __init__(self, message, problems):
        super().__init__(message)
        self.problems = problems

class PolicyError(FleetsimError, RuntimeError):
    """A run stopped by an illegal policy decision, or by a Python policy that raised, returned
    something that is not a decision, or overran its call budget."""

class Policy:
    """Base class of policies written in Python. The constructor gets the parameters (every
    declared one, defaults filled in) as a dict; decide(view, planner) is called as the C++
    Policy::Decide is and returns a list of decisions (Start, Reject, Preempt, Resize, WakeAt)
    or None. docs/writing-a-policy.md is the guide."""
    def __init__(self, params):
        self.params = dict(params)

    def decide(self, view, planner):
        raise NotImplementedError(type(self).__name__ + ".decide")

def _json_text(value, source, prefix=""):
    """The JSON text of a dict given in place of a file; a number JSON cannot hold (NaN, an
    infinity) raises ScenarioError at its JSON pointer (after `prefix`), as a file's would be
    reported."""
    import json, math
    try:
        return json.dumps(value, allow_nan=False)
    except ValueError:
        pass
    pending, seen = [(value, prefix)], set()
    while pending:
        item, where = pending.pop()
        if isinstance(item, float) and not math.isfinite(item):
            message = "expected a finite number, found " + repr(item)
            raise ScenarioError("%s: %s: error: %s" % (source, where or "/", message),
                                [{"where": where, "severity": "error", "message": message}])
        if id(item) in seen or not isinstance(item, (dict, list, tuple)):
            continue
        seen.add(id(item))
        children = item.items() if isinstance(item, dict) else enumerate(item)
        for key, child in reversed(list(children)):
            pending.append((child, where + "/" + str(key).replace("~", "~0").replace("/", "~1")))
            if isinstance(item, dict) and isinstance(key, float) and not math.isfinite(key):
                pending.append((key, where))  # a key JSON cannot hold either
    return json.dumps(value, allow_nan=False)  # raises what json reports (a cycle, a type)

def policy(name, summary="", params=(), call_budget_s=60.0):
    """Class decorator: register_policy(cls, name=..., ...)."""
    def register(cls):
        register_policy(cls, name=name, summary=summary, params=list(params),
                        call_budget_s=call_budget_s)
        return cls
    return register
)PY";

// Raises fleetsim.<name>(args...).
template <typename... Args>
[[noreturn]] void Raise(const char* name, Args&&... args) {
  const py::object error = py::module_::import("fleetsim").attr(name)(std::forward<Args>(args)...);
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error.ptr())), error.ptr());
  throw py::error_already_set();
}

py::list Problems(const Diagnostics& diagnostics) {
  py::list problems;
  for (const Diagnostic& d : diagnostics.items()) {
    problems.append(py::dict("where"_a = d.where,
                             "severity"_a = d.severity == Severity::kError ? "error" : "warning",
                             "message"_a = d.message));
  }
  return problems;
}

[[noreturn]] void RaiseProblems(const Status& file_status, const Diagnostics& diagnostics,
                                const std::string& source) {
  if (!file_status.ok()) {
    py::list problems;
    problems.append(
        py::dict("where"_a = "", "severity"_a = "error", "message"_a = file_status.message()));
    Raise("ScenarioError", file_status.message(), problems);
  }
  std::string message = diagnostics.Format(source);
  while (!message.empty() && message.back() == '\n') {
    message.pop_back();
  }
  Raise("ScenarioError", message, Problems(diagnostics));
}

// ---- Scenarios ----

struct PyScenario {
  std::shared_ptr<const Scenario> scenario;
  std::string source;                 // the path, or "<dict>"
  std::vector<std::string> warnings;  // what loading it warned of
  std::vector<std::string> notes;     // what reading its trace reported
};

PyScenario LoadScenario(const py::object& source, bool strict) {
  const PolicyRegistry registry = RegistryWithPython();
  const bool is_dict = py::isinstance<py::dict>(source);
  if (!is_dict && !py::isinstance<py::str>(source) &&
      !py::isinstance(source, py::module_::import("os").attr("PathLike"))) {
    throw py::type_error("load_scenario expects a path or a dict, found a '" +
                         std::string(py::str(py::type::handle_of(source).attr("__name__"))) + "'");
  }
  const std::string name =
      is_dict ? std::string("<dict>")
              : std::string(py::str(py::module_::import("os").attr("fspath")(source)));
  const std::string text =
      is_dict
          ? std::string(py::str(py::module_::import("fleetsim").attr("_json_text")(source, name)))
          : std::string();
  LoadResult result;
  {
    py::gil_scoped_release unlocked;
    const LoadOptions options{.strict = strict};
    result = is_dict ? ParseScenario(text, name, registry, options)
                     : LoadScenarioFile(name, registry, options);
  }
  if (!result.scenario) {
    RaiseProblems(result.file_status, result.diagnostics, name);
  }
  PyScenario loaded{.scenario = std::make_shared<const Scenario>(std::move(*result.scenario)),
                    .source = name,
                    .warnings = {},
                    .notes = std::move(result.notes)};
  for (const Diagnostic& d : result.diagnostics.items()) {
    loaded.warnings.push_back((d.where.empty() ? "/" : d.where) + ": " + d.message);
  }
  return loaded;
}

// The policy a run uses: the scenario's own without `name` and `params`; `name` with its
// defaults (or the scenario's parameters, if it is the scenario's policy); with `params`, those
// checked as a scenario's "policy" block is.
PolicyChoice ChooseRunPolicy(const Scenario& scenario, const PolicyRegistry& registry,
                             const std::optional<std::string>& name,
                             const std::optional<py::dict>& params) {
  const std::string chosen = name.value_or(scenario.policy.name);
  if (!params) {
    if (registry.Find(chosen) == nullptr) {
      throw py::value_error(fmt::format("unknown policy '{}'{}; valid names are {}", chosen,
                                        DidYouMean(chosen, registry.Names()),
                                        QuotedList(registry.Names())));
    }
    return ChoosePolicy(scenario, registry, chosen);
  }
  const py::dict block("name"_a = chosen, "params"_a = *params);
  const std::string text =
      py::str(py::module_::import("fleetsim").attr("_json_text")(block, "<params>", "/policy"));
  PolicyLoad load = ParsePolicyChoice(text, "<params>", registry);
  if (!load.policy) {
    RaiseProblems(load.file_status, load.diagnostics, "<params>");
  }
  return *load.policy;
}

// ---- Results ----

py::object DataFrame(const std::string& csv, const char* what) {
  py::module_ pandas;
  try {
    pandas = py::module_::import("pandas");
  } catch (py::error_already_set&) {
    throw py::import_error(fmt::format(
        "pandas is not installed (Debian: python3-pandas); the {} are in the result's {}_csv "
        "text",
        what, what));
  }
  return pandas.attr("read_csv")(py::module_::import("io").attr("StringIO")(csv),
                                 "dtype"_a = py::dict("id"_a = "str"), "keep_default_na"_a = false,
                                 "na_values"_a = py::make_tuple(""));
}

struct PyRunResult {
  std::shared_ptr<const RunReport> report;
};

py::object JsonLoads(const std::string& text) {
  return py::module_::import("json").attr("loads")(text);
}

// ---- The cluster view and the planner ----

std::optional<PlacementStrategy> StrategyNamed(const std::optional<std::string>& name) {
  if (!name) {
    return PlacementStrategy{};
  }
  std::optional<PlacementStrategy> strategy = FindPlacementStrategy(*name);
  if (!strategy) {
    throw py::value_error(fmt::format("unknown placement strategy '{}'{}; valid names are {}",
                                      *name, DidYouMean(*name, PlacementStrategyNames()),
                                      QuotedList(PlacementStrategyNames())));
  }
  return strategy;
}

// Index arguments from Python, checked: the C++ view takes them as preconditions.
GpuId CheckedGpu(const ClusterView& view, GpuId gpu) {
  if (gpu >= view.gpus()) {
    throw py::index_error(
        fmt::format("GPU {} does not exist (the fleet has {})", gpu, view.gpus()));
  }
  return gpu;
}
NodeId CheckedNode(const ClusterView& view, NodeId node) {
  if (node >= view.topology().nodes()) {
    throw py::index_error(
        fmt::format("node {} does not exist (the fleet has {})", node, view.topology().nodes()));
  }
  return node;
}
std::uint32_t CheckedDomain(const ClusterView& view, std::uint32_t domain) {
  if (domain >= view.topology().domains()) {
    throw py::index_error(fmt::format("NVLink domain {} does not exist (the fleet has {})", domain,
                                      view.topology().domains()));
  }
  return domain;
}
PoolIndex CheckedPool(const ClusterView& view, PoolIndex pool) {
  if (pool >= view.pools().size()) {
    throw py::index_error(
        fmt::format("pool {} does not exist (the fleet has {})", pool, view.pools().size()));
  }
  return pool;
}
// exact_gpus as ChoosePlacement takes it: in [gpus, max_gpus], a power of two for a block job.
std::optional<std::int64_t> CheckedExact(const JobRequest& request,
                                         std::optional<std::int64_t> exact_gpus) {
  if (exact_gpus &&
      (*exact_gpus < request.gpus || *exact_gpus > request.MaxGpus() ||
       (request.pow2_block && !std::has_single_bit(static_cast<std::uint64_t>(*exact_gpus))))) {
    throw py::value_error(fmt::format("exact_gpus={} for job '{}': expected a count in [{}, {}]{}",
                                      *exact_gpus, request.id, request.gpus, request.MaxGpus(),
                                      request.pow2_block ? " that is a power of two" : ""));
  }
  return exact_gpus;
}

// The queue of a view: a sequence read in place (nothing is copied per call).
struct QueueHandle {
  std::shared_ptr<CallState> state;
  const JobQueue& queue() const { return state->View().queue(); }
};

struct QueueIterator {
  std::shared_ptr<CallState> state;
  std::uint64_t generation;  // of the view the iterator was made in
  JobQueue::Iterator at;
  JobQueue::Iterator end;
};

// A running job as Python sees it.
struct PyRunningJob {
  JobIndex job;
  SimTime start;
  PyAllocation placement;
  bool leaving;
};

py::dict ChangesDict(const ChangesSinceLastCall& changes) {
  return py::dict("submitted"_a = changes.submitted, "finished"_a = changes.finished,
                  "preempted"_a = changes.preempted, "nodes_changed"_a = changes.nodes_changed);
}

py::dict FreeCapacity(const ViewHandle& handle) {
  const ClusterView& view = handle.state->View();
  py::dict pools;
  for (PoolIndex pool = 0; pool < view.pools().size(); ++pool) {
    pools[py::str(view.pools()[pool].name)] = view.FreeWholeIn(pool);
  }
  std::vector<std::int64_t> domains;
  for (std::int64_t domain = 0; domain < view.topology().domains(); ++domain) {
    domains.push_back(view.FreeWholeInDomain(static_cast<std::uint32_t>(domain)));
  }
  return py::dict("total"_a = view.FreeWholeGpus(), "pools"_a = pools, "domains"_a = domains);
}

void DefineJobTypes(py::module_& m) {
  py::class_<JobRequest>(m, "JobRequest", "A submitted job's request (a copy).")
      .def_readonly("id", &JobRequest::id)
      .def_readonly("submit", &JobRequest::submit, "milliseconds")
      .def_readonly("tenant", &JobRequest::tenant)
      .def_readonly("priority_class", &JobRequest::priority_class)
      .def_readonly("priority", &JobRequest::priority)
      .def_property_readonly("kind", [](const JobRequest& r) { return JobKindName(r.kind); })
      .def_readonly("gpus", &JobRequest::gpus)
      .def_property_readonly("max_gpus", &JobRequest::MaxGpus)
      .def_readonly("pow2_block", &JobRequest::pow2_block)
      .def_readonly("gpu_models", &JobRequest::gpu_models)
      .def_property_readonly("nvlink",
                             [](const JobRequest& r) { return NvlinkLocalityName(r.nvlink); })
      .def_property_readonly("sharing",
                             [](const JobRequest& r) { return GpuSharingName(r.sharing); })
      .def_readonly("gpu_milli", &JobRequest::gpu_milli)
      .def_readonly("gpu_memory_gb", &JobRequest::gpu_memory_gb)
      .def_readonly("cpu_milli", &JobRequest::cpu_milli)
      .def_readonly("memory_mib", &JobRequest::memory_mib)
      .def_readonly("preemptible", &JobRequest::preemptible)
      .def_readonly("spot_eligible", &JobRequest::spot_eligible)
      .def_readonly("walltime_estimate", &JobRequest::walltime_estimate,
                    "milliseconds; 0 when none was given")
      .def_property_readonly("deadline",
                             [](const JobRequest& r) -> std::optional<SimTime> {
                               if (r.deadline == kTimeNever) {
                                 return std::nullopt;
                               }
                               return r.deadline;
                             })
      .def_property_readonly("demand_peak",
                             [](const JobRequest& r) -> std::optional<std::int64_t> {
                               if (!r.demand) {
                                 return std::nullopt;
                               }
                               return r.demand->Peak();
                             })
      .def_property_readonly("is_cpu_only", &JobRequest::IsCpuOnly)
      .def_property_readonly("is_elastic", &JobRequest::IsElastic)
      .def("__repr__", [](const JobRequest& r) {
        return fmt::format("<JobRequest {} gpus={}>", r.id, r.gpus);
      });

  py::class_<PyAllocation>(
      m, "Allocation",
      "A placement: GPUs (whole, a MIG instance or a share) and host shares. One found in a run "
      "(by the planner, the view) belongs to that run; whole_gpus() makes one valid in any.")
      .def_property_readonly("gpus",
                             [](const PyAllocation& a) {
                               std::vector<GpuId> gpus;
                               for (const Grant& grant : a.allocation.gpus) {
                                 gpus.push_back(grant.gpu);
                               }
                               return gpus;
                             })
      .def_property_readonly(
          "grants",
          [](const PyAllocation& a) {
            py::list grants;
            for (std::size_t i = 0; i < a.allocation.gpus.size(); ++i) {
              const Grant& g = a.allocation.gpus[i];
              const char* kind = g.kind == Grant::Kind::kWhole ? "whole"
                                 : g.kind == Grant::Kind::kMig ? "mig"
                                                               : "fraction";
              grants.append(py::dict(
                  "kind"_a = kind, "gpu"_a = g.gpu,
                  "profile"_a = g.kind == Grant::Kind::kMig ? py::object(py::str(a.profiles[i]))
                                                            : py::object(py::none()),
                  "start"_a = g.start, "milli"_a = g.milli, "gpu_memory_gb"_a = g.gpu_memory_gb));
            }
            return grants;
          })
      .def_property_readonly(
          "nodes",
          [](const PyAllocation& a) {
            py::list nodes;
            for (const NodeShare& s : a.allocation.nodes) {
              nodes.append(py::dict("node"_a = s.node, "cpu_cores"_a = s.cpu_cores,
                                    "memory_gb"_a = s.memory_gb));
            }
            return nodes;
          })
      .def("__repr__", [](const PyAllocation& a) {
        std::vector<std::string> grants;
        for (std::size_t i = 0; i < a.allocation.gpus.size(); ++i) {
          const Grant& g = a.allocation.gpus[i];
          grants.push_back(
              g.kind == Grant::Kind::kWhole ? fmt::format("GPU {}", g.gpu)
              : g.kind == Grant::Kind::kMig
                  ? fmt::format("MIG {} at slice {} of GPU {}", a.profiles[i], g.start, g.gpu)
                  : fmt::format("{} milli-GPU of GPU {}", g.milli, g.gpu));
        }
        return fmt::format("<Allocation {}{}>", grants.empty() ? "of no GPU" : "",
                           fmt::join(grants, ", "));
      });
  m.def(
      "whole_gpus",
      [](const std::vector<GpuId>& gpus) { return PyAllocation::Portable(WholeGpus(gpus)); },
      "gpus"_a, "An Allocation of these GPUs, whole, with no host share, valid in any run.");

  py::class_<PyRunningJob>(m, "RunningJob")
      .def_readonly("job", &PyRunningJob::job)
      .def_readonly("start", &PyRunningJob::start, "milliseconds")
      .def_readonly("placement", &PyRunningJob::placement)
      .def_readonly("leaving", &PyRunningJob::leaving);

  py::class_<PoolInfo>(m, "PoolInfo")
      .def_readonly("name", &PoolInfo::name)
      .def_property_readonly("gpu", [](const PoolInfo& p) { return p.gpu.name; })
      .def_readonly("gpus_per_node", &PoolInfo::gpus_per_node)
      .def_readonly("first_gpu", &PoolInfo::first_gpu)
      .def_readonly("end_gpu", &PoolInfo::end_gpu)
      .def_readonly("first_node", &PoolInfo::first_node)
      .def_readonly("end_node", &PoolInfo::end_node)
      .def_property_readonly("tier", [](const PoolInfo& p) { return PriceTierName(p.tier); })
      .def_readonly("price_per_gpu_hour", &PoolInfo::price_per_gpu_hour)
      .def_readonly("advertised_reclaims_per_node_hour",
                    &PoolInfo::advertised_reclaims_per_node_hour);

  py::class_<GpuNow>(m, "GpuNow")
      .def_readonly("whole", &GpuNow::whole)
      .def_readonly("mig_instances", &GpuNow::mig_instances)
      .def_readonly("shares", &GpuNow::shares)
      .def_readonly("free_milli", &GpuNow::free_milli)
      .def_readonly("free_memory_gb", &GpuNow::free_memory_gb)
      .def_property_readonly("idle", &GpuNow::idle);

  py::class_<NodeNow>(m, "NodeNow")
      .def_readonly("up", &NodeNow::up)
      .def_readonly("back_at", &NodeNow::back_at)
      .def_readonly("first_gpu", &NodeNow::first_gpu)
      .def_readonly("end_gpu", &NodeNow::end_gpu)
      .def_readonly("free_cpu_cores", &NodeNow::free_cpu_cores)
      .def_readonly("free_memory_gb", &NodeNow::free_memory_gb);
}

void DefineDecisions(py::module_& m) {
  py::class_<PyStart>(m, "Start", "Start a queued job now with this placement.")
      .def(py::init([](JobIndex job, PyAllocation placement) {
             return PyStart{job, std::move(placement)};
           }),
           "job"_a, "placement"_a)
      .def_readonly("job", &PyStart::job)
      .def_readonly("placement", &PyStart::placement);
  py::class_<RejectJob>(m, "Reject", "Refuse a queued job for good.")
      .def(py::init([](JobIndex job, std::string reason) {
             return RejectJob{job, std::move(reason)};
           }),
           "job"_a, "reason"_a)
      .def_readonly("job", &RejectJob::job)
      .def_readonly("reason", &RejectJob::reason);
  py::class_<PreemptJob>(m, "Preempt", "Stop a running preemptible job and queue it again.")
      .def(py::init([](JobIndex job, std::string reason) {
             return PreemptJob{job, std::move(reason)};
           }),
           "job"_a, "reason"_a)
      .def_readonly("job", &PreemptJob::job)
      .def_readonly("reason", &PreemptJob::reason);
  py::class_<PyResize>(m, "Resize", "Give a running elastic job this placement instead.")
      .def(py::init([](JobIndex job, PyAllocation placement) {
             return PyResize{job, std::move(placement)};
           }),
           "job"_a, "placement"_a)
      .def_readonly("job", &PyResize::job)
      .def_readonly("placement", &PyResize::placement);
  py::class_<WakeAt>(m, "WakeAt", "Call the policy again at `time` (milliseconds, > now).")
      .def(py::init([](SimTime time) { return WakeAt{time}; }), "time"_a)
      .def_readonly("time", &WakeAt::time);
}

void DefineView(py::module_& m) {
  py::class_<QueueIterator>(m, "_QueueIterator")
      .def(
          "__iter__", [](QueueIterator& it) -> QueueIterator& { return it; },
          py::return_value_policy::reference_internal)
      .def("__next__", [](QueueIterator& it) {
        if (it.state->view == nullptr || it.state->generation != it.generation) {
          throw std::runtime_error("a queue iterator is valid only during its decide() call");
        }
        if (it.at == it.end) {
          throw py::stop_iteration();
        }
        return *it.at++;
      });
  py::class_<QueueHandle>(m, "Queue", "The queued jobs, oldest first, read in place.")
      .def("__len__", [](const QueueHandle& q) { return q.queue().size(); })
      .def("__bool__", [](const QueueHandle& q) { return !q.queue().empty(); })
      .def("__contains__",
           [](const QueueHandle& q, JobIndex job) { return q.queue().contains(job); })
      .def("__iter__",
           [](const QueueHandle& q) {
             const JobQueue& queue = q.queue();
             return QueueIterator{q.state, q.state->generation, queue.begin(), queue.end()};
           })
      .def("front", [](const QueueHandle& q) {
        if (q.queue().empty()) {
          throw py::index_error("the queue is empty");
        }
        return q.queue().front();
      });

  using V = ViewHandle;
  py::class_<V>(m, "ClusterView",
                "What a policy may know (fleetsim/policy/cluster_view.h), valid during its call.")
      .def_property_readonly(
          "now", [](const V& v) { return v.state->View().now(); }, "milliseconds since the start")
      .def_property_readonly("gpus", [](const V& v) { return v.state->View().gpus(); })
      .def_property_readonly("domains",
                             [](const V& v) { return v.state->View().topology().domains(); })
      .def_property_readonly("nodes", [](const V& v) { return v.state->View().topology().nodes(); })
      .def("domain_of",
           [](const V& v, GpuId gpu) {
             const ClusterView& w = v.state->View();
             return w.topology().DomainOf(CheckedGpu(w, gpu));
           })
      .def("node_of",
           [](const V& v, GpuId gpu) {
             const ClusterView& w = v.state->View();
             return w.topology().NodeOf(CheckedGpu(w, gpu));
           })
      .def_property_readonly("pools",
                             [](const V& v) {
                               const auto pools = v.state->View().pools();
                               return std::vector<PoolInfo>(pools.begin(), pools.end());
                             })
      .def("pool_of_gpu",
           [](const V& v, GpuId gpu) {
             const ClusterView& w = v.state->View();
             return w.PoolOfGpu(CheckedGpu(w, gpu));
           })
      .def("pool_of_node",
           [](const V& v, NodeId node) {
             const ClusterView& w = v.state->View();
             return w.PoolOfNode(CheckedNode(w, node));
           })
      .def("accepts",
           [](const V& v, const JobRequest& request, PoolIndex pool) {
             const ClusterView& w = v.state->View();
             return w.Accepts(request, CheckedPool(w, pool));
           })
      .def("free_whole_gpus", [](const V& v) { return v.state->View().FreeWholeGpus(); })
      .def("free_whole_in",
           [](const V& v, PoolIndex pool) {
             const ClusterView& w = v.state->View();
             return w.FreeWholeIn(CheckedPool(w, pool));
           })
      .def("free_whole_in_domain",
           [](const V& v, std::uint32_t domain) {
             const ClusterView& w = v.state->View();
             return w.FreeWholeInDomain(CheckedDomain(w, domain));
           })
      .def("domains_with_free_whole",
           [](const V& v, std::int64_t count) {
             if (count < 0) {
               throw py::value_error(fmt::format(
                   "domains_with_free_whole: count must be 0 or more, found {}", count));
             }
             return v.state->View().DomainsWithFreeWhole(count);
           })
      .def("is_free_whole",
           [](const V& v, GpuId gpu) {
             const ClusterView& w = v.state->View();
             return w.IsFreeWhole(CheckedGpu(w, gpu));
           })
      .def("gpu",
           [](const V& v, GpuId gpu) {
             const ClusterView& w = v.state->View();
             return w.Gpu(CheckedGpu(w, gpu));
           })
      .def("node",
           [](const V& v, NodeId node) {
             const ClusterView& w = v.state->View();
             return w.Node(CheckedNode(w, node));
           })
      .def("is_up",
           [](const V& v, NodeId node) {
             const ClusterView& w = v.state->View();
             return w.IsUp(CheckedNode(w, node));
           })
      .def(
          "choose_placement",
          [](const V& v, const JobRequest& request, const std::optional<std::string>& placement,
             std::optional<std::int64_t> exact_gpus) {
            const std::optional<Allocation> found = v.state->View().ChoosePlacement(
                request, *StrategyNamed(placement), CheckedExact(request, exact_gpus));
            return found ? std::optional(PyAllocation::Of(*found, *v.state)) : std::nullopt;
          },
          "request"_a, "placement"_a = py::none(), "exact_gpus"_a = py::none())
      .def_property_readonly("queue",
                             [](const V& v) {
                               v.state->View();
                               return QueueHandle{v.state};
                             })
      .def("running",
           [](const V& v) {
             std::vector<PyRunningJob> running;
             for (const RunningJob& r : v.state->View().running()) {
               running.push_back(
                   {r.job, r.start, PyAllocation::Of(r.placement, *v.state), r.leaving});
             }
             return running;
           })
      .def_property_readonly(
          "tenants",
          [](const V& v) {
            py::list tenants;
            for (const TenantSpec& t : v.state->View().organization()) {
              tenants.append(py::dict("name"_a = t.name, "parent"_a = t.parent,
                                      "shares"_a = t.shares, "quota_gpus"_a = t.quota_gpus,
                                      "over_quota_weight"_a = t.over_quota_weight,
                                      "limit_gpus"_a = t.limit_gpus, "priority"_a = t.priority));
            }
            return tenants;
          },
          "The tenants jobs are accounted to, in file order (empty: every tenant has the "
          "defaults)")
      .def_property_readonly("changes",
                             [](const V& v) { return ChangesDict(v.state->View().changes()); })
      .def(
          "request", [](const V& v, JobIndex job) { return v.state->Request(job); }, "job"_a)
      .def("free_capacity", &FreeCapacity,
           "Whole GPUs free now: {'total': n, 'pools': {name: n}, 'domains': [n per domain]}.");

  py::class_<PlannerHandle>(m, "PlacementPlanner",
                            "Places requests on what is free and holds them for the call.")
      .def(
          "place",
          [](const PlannerHandle& p, const JobRequest& request,
             const std::optional<std::string>& placement, std::optional<std::int64_t> exact_gpus) {
            const std::optional<Allocation> placed = p.state->Planner().Place(
                request, *StrategyNamed(placement), CheckedExact(request, exact_gpus));
            return placed ? std::optional(PyAllocation::Of(*placed, *p.state)) : std::nullopt;
          },
          "request"_a, "placement"_a = py::none(), "exact_gpus"_a = py::none())
      .def(
          "hold",
          [](const PlannerHandle& p, const PyAllocation& held) -> std::optional<std::string> {
            PlacementPlanner& planner = p.state->Planner();
            const Allocation* allocation = held.In(*p.state);
            if (allocation == nullptr) {
              throw py::value_error("an Allocation of another run, or of a run that is over");
            }
            const Status status = planner.Hold(*allocation);
            if (status.ok()) {
              return std::nullopt;
            }
            return status.message();
          },
          "allocation"_a)
      .def_property_readonly("holds",
                             [](const PlannerHandle& p) { return p.state->Planner().holds(); });
}

// ---- Policy registration ----

ParamValue ParamValueOf(const py::handle& value, ParamType type, const std::string& where) {
  switch (type) {
    case ParamType::kBool:
      if (py::isinstance<py::bool_>(value)) {
        return value.cast<bool>();
      }
      break;
    case ParamType::kInt:
      if (py::isinstance<py::int_>(value) && !py::isinstance<py::bool_>(value)) {
        try {
          return value.cast<std::int64_t>();
        } catch (const py::cast_error&) {
          throw py::value_error(fmt::format("{}: {} is beyond a 64-bit integer", where,
                                            std::string(py::repr(value)).substr(0, 40)));
        }
      }
      break;
    case ParamType::kReal:
      if ((py::isinstance<py::int_>(value) || py::isinstance<py::float_>(value)) &&
          !py::isinstance<py::bool_>(value)) {
        return value.cast<double>();
      }
      break;
    case ParamType::kChoice:
      if (py::isinstance<py::str>(value)) {
        return value.cast<std::string>();
      }
      break;
  }
  throw py::value_error(fmt::format("{}: expected a {} value, found {}", where, ParamTypeName(type),
                                    std::string(py::repr(value))));
}

ParamSpec ParamSpecOf(const py::handle& item, const std::string& policy) {
  if (!py::isinstance<py::dict>(item)) {
    throw py::type_error(fmt::format("policy '{}': a parameter must be a dict, found {}", policy,
                                     std::string(py::repr(item))));
  }
  const py::dict d = py::reinterpret_borrow<py::dict>(item);
  for (const auto& [key, value] : d) {
    const std::string k = py::str(key);
    static const std::vector<std::string> kKeys = {"name", "type",    "default", "min",
                                                   "max",  "choices", "doc"};
    if (std::find(kKeys.begin(), kKeys.end(), k) == kKeys.end()) {
      throw py::value_error(fmt::format("policy '{}': a parameter has no key '{}'{} (keys: {})",
                                        policy, k, DidYouMean(k, kKeys), QuotedList(kKeys)));
    }
  }
  if (!d.contains("name") || !d.contains("type") || !d.contains("default")) {
    throw py::value_error(fmt::format(
        "policy '{}': every parameter needs \"name\", \"type\" and \"default\"", policy));
  }
  ParamSpec spec;
  spec.name = py::str(d["name"]);
  const std::string where = fmt::format("policy '{}', parameter '{}'", policy, spec.name);
  const std::string type = py::str(d["type"]);
  static const std::vector<std::string> kTypes = {"int", "real", "bool", "choice"};
  const auto found = std::find(kTypes.begin(), kTypes.end(), type);
  if (found == kTypes.end()) {
    throw py::value_error(fmt::format("{}: type '{}' is none of {}{}", where, type,
                                      QuotedList(kTypes), DidYouMean(type, kTypes)));
  }
  spec.type = static_cast<ParamType>(found - kTypes.begin());
  spec.default_value = ParamValueOf(d["default"], spec.type, where + ", default");
  if (d.contains("doc")) {
    spec.doc = py::str(d["doc"]);
  }
  if (spec.type == ParamType::kInt || spec.type == ParamType::kReal) {
    if (!d.contains("min") || !d.contains("max")) {
      throw py::value_error(where + ": a number needs \"min\" and \"max\"");
    }
    spec.min = d["min"].cast<double>();
    spec.max = d["max"].cast<double>();
    const double value = spec.type == ParamType::kInt
                             ? static_cast<double>(std::get<std::int64_t>(spec.default_value))
                             : std::get<double>(spec.default_value);
    if (!(spec.min <= value && value <= spec.max)) {
      throw py::value_error(fmt::format("{}: the default {} is outside [{}, {}]", where,
                                        FormatParamValue(spec.default_value), spec.min, spec.max));
    }
  }
  if (spec.type == ParamType::kChoice) {
    if (!d.contains("choices")) {
      throw py::value_error(where + ": a choice needs \"choices\"");
    }
    spec.choices = d["choices"].cast<std::vector<std::string>>();
    if (std::find(spec.choices.begin(), spec.choices.end(),
                  std::get<std::string>(spec.default_value)) == spec.choices.end()) {
      throw py::value_error(where + ": the default is not one of the choices");
    }
  }
  return spec;
}

void RegisterPolicy(const py::object& cls, const std::string& name, const std::string& summary,
                    const py::list& params, double call_budget_s) {
  const py::object base = py::module_::import("fleetsim").attr("Policy");
  if (!py::isinstance<py::type>(cls) || PyObject_IsSubclass(cls.ptr(), base.ptr()) != 1) {
    throw py::type_error(
        fmt::format("register_policy('{}'): expected a subclass of "
                    "fleetsim.Policy, found {}",
                    name, std::string(py::repr(cls))));
  }
  if (!IsPlainName(name) || name == "all") {
    std::size_t shown = std::min<std::size_t>(name.size(), 200);
    while (shown < name.size() && shown > 0 && (name[shown] & 0xC0) == 0x80) {
      --shown;  // not inside a UTF-8 character
    }
    throw py::value_error(
        fmt::format("register_policy: {} is not a usable policy name: expected {} (it names output "
                    "folders), and not 'all' (which --policy reads as every policy)",
                    std::string(py::repr(py::str(name.substr(0, shown)))), kPlainNameExpectation));
  }
  if (RegistryWithPython().Find(name) != nullptr) {
    throw py::value_error(fmt::format("register_policy: a policy named '{}' exists already", name));
  }
  if (!(call_budget_s > 0 && call_budget_s <= 86400)) {
    throw py::value_error(
        fmt::format("register_policy('{}'): call_budget_s must be in (0, 86400]", name));
  }
  PythonPolicyClass entry{
      .name = name, .summary = summary, .params = {}, .cls = cls, .call_budget_s = call_budget_s};
  for (const py::handle item : params) {
    entry.params.push_back(ParamSpecOf(item, name));
    for (std::size_t i = 0; i + 1 < entry.params.size(); ++i) {
      if (entry.params[i].name == entry.params.back().name) {
        throw py::value_error(fmt::format("policy '{}': two parameters are named '{}'", name,
                                          entry.params.back().name));
      }
    }
  }
  RegisteredClasses().push_back(ShareClass(std::move(entry)));
}

py::list PolicyList() {
  py::list out;
  const PolicyRegistry registry = RegistryWithPython();
  for (const PolicyInfo& info : registry.policies()) {
    py::list params;
    for (const ParamSpec& spec : info.params) {
      params.append(py::dict("name"_a = spec.name, "type"_a = ParamTypeName(spec.type),
                             "default"_a = ToPython(spec.default_value),
                             "range"_a = ParamRangeText(spec), "doc"_a = spec.doc));
    }
    out.append(py::dict("name"_a = info.name, "summary"_a = info.summary, "params"_a = params));
  }
  return out;
}

// ---- Running ----

RunOptions OptionsFor(const Scenario& scenario, std::optional<std::uint64_t> seed, bool timeline,
                      bool check_invariants, bool timing = false) {
  return {.seed = seed.value_or(scenario.seed),
          .measure_wall_time = timing,
          .logger = nullptr,
          .record_timeline = timeline,
          .record_series = true,  // bounded: at most FleetSeries::kMaxSlices slices
          .check_invariants = check_invariants};
}

PyRunResult Run(const PyScenario& scenario, const std::optional<std::string>& policy,
                std::optional<std::uint64_t> seed, const std::optional<py::dict>& params,
                bool timeline, bool check_invariants, bool timing) {
  const PolicyRegistry registry = RegistryWithPython();
  const PolicyChoice choice = ChooseRunPolicy(*scenario.scenario, registry, policy, params);
  const RunOptions options =
      OptionsFor(*scenario.scenario, seed, timeline, check_invariants, timing);
  RunOutcome outcome;
  {
    py::gil_scoped_release unlocked;
    outcome = RunScenario(*scenario.scenario, registry, choice, options);
  }
  if (!outcome.status.ok()) {
    Raise("PolicyError",
          fmt::format("scenario '{}', policy '{}', seed {}: {}", scenario.scenario->name,
                      choice.name, options.seed, outcome.status.message()));
  }
  return {std::make_shared<const RunReport>(std::move(outcome.report))};
}

// A run in steps (ScenarioRun), with a view of its state between steps.
class PySimulation {
 public:
  PySimulation(const PyScenario& scenario, const std::optional<std::string>& policy,
               std::optional<std::uint64_t> seed, const std::optional<py::dict>& params,
               bool timeline)
      : registry_(RegistryWithPython()),
        scenario_(scenario.scenario),
        choice_(ChooseRunPolicy(*scenario_, registry_, policy, params)),
        state_(std::make_shared<CallState>()) {
    const RunOptions options = OptionsFor(*scenario_, seed, timeline, false);
    py::gil_scoped_release unlocked;
    run_ = std::make_unique<ScenarioRun>(*scenario_, registry_, choice_, options);
    pools_ = PoolInfosOf(run_->simulation().ledger());
  }
  ~PySimulation() {
    state_->End();
    state_->EndRun();
  }
  PySimulation(const PySimulation&) = delete;
  PySimulation& operator=(const PySimulation&) = delete;

  void RunUntil(SimTime limit) {
    ScenarioRun& run = Live();
    Invalidate();
    Status status;
    {
      const Busy busy(busy_);
      py::gil_scoped_release unlocked;
      status = run.RunUntil(limit);
    }
    if (!status.ok()) {
      Raise("PolicyError", status.message());
    }
  }
  SimTime now() { return run_ ? Live().simulation().now() : finished_at_; }
  bool over() { return run_ ? Live().over() : true; }

  ViewHandle View() {
    Invalidate();
    const Simulation& sim = Live().simulation();
    view_.emplace(sim.now(), sim.ledger(), std::span<const PoolInfo>(pools_), sim.submitted(),
                  sim.queue(), sim.running(), no_changes_, scenario_->tenants);
    state_->Begin(&*view_, nullptr);
    return ViewHandle{state_};
  }

  PyRunResult Finish() {
    ScenarioRun& run = Live();
    Invalidate();
    RunOutcome outcome;
    {
      const Busy busy(busy_);
      py::gil_scoped_release unlocked;
      outcome = run.Finish();
    }
    finished_at_ = run.simulation().now();
    state_->EndRun();
    run_.reset();
    return {std::make_shared<const RunReport>(std::move(outcome.report))};
  }

 private:
  // Marks the run as moving while the global lock is let go: another thread, or the run's own
  // Python policy, must not step, look at or finish it meanwhile.
  class Busy {
   public:
    explicit Busy(bool& flag) : flag_(flag) { flag_ = true; }
    ~Busy() { flag_ = false; }
    Busy(const Busy&) = delete;
    Busy& operator=(const Busy&) = delete;

   private:
    bool& flag_;
  };

  ScenarioRun& Live() {
    if (busy_) {
      throw std::runtime_error(
          "this Simulation is running (a step from another thread, or from its own policy)");
    }
    if (!run_) {
      throw std::runtime_error("this Simulation has finished");
    }
    return *run_;
  }
  void Invalidate() {
    state_->End();
    view_.reset();
  }

  PolicyRegistry registry_;
  std::shared_ptr<const Scenario> scenario_;
  PolicyChoice choice_;
  std::shared_ptr<CallState> state_;
  std::unique_ptr<ScenarioRun> run_;
  std::vector<PoolInfo> pools_;
  ChangesSinceLastCall no_changes_;
  std::optional<ClusterView> view_;
  bool busy_ = false;  // a step or the finish is under way, the global lock let go
  SimTime finished_at_ = 0;
};

// The results of a sweep run in memory: its files' CSV text and its failures.
struct PySweepResult {
  std::string results_csv;
  std::string summary_csv;
  std::vector<std::string> failures;
};

PySweepResult RunSweepSpec(const std::string& path, unsigned threads, bool strict) {
  const PolicyRegistry registry = RegistryWithPython();
  SweepLoad load;
  SweepExpansion expansion;
  {
    py::gil_scoped_release unlocked;
    load = LoadSweepSpec(DiskFileSystem(), path, registry, strict);
  }
  if (!load.spec) {
    RaiseProblems(load.file_status, load.diagnostics, path);
  }
  {
    py::gil_scoped_release unlocked;
    expansion = ExpandSweep(*load.spec, registry, {.strict = strict, .catalog = nullptr});
  }
  if (!expansion.errors.empty()) {
    py::list problems;
    std::string message;
    for (const std::string& error : expansion.errors) {
      problems.append(py::dict("where"_a = "", "severity"_a = "error", "message"_a = error));
      message += (message.empty() ? "" : "\n") + error;
    }
    Raise("ScenarioError", message, problems);
  }
  const SweepLayout layout = MakeLayout(*load.spec, expansion);
  SweepRecords records;
  PySweepResult result;
  {
    py::gil_scoped_release unlocked;
    std::vector<const SweepPoint*> points;
    for (const SweepPoint& point : expansion.points) {
      if (point.scenario_loaded) {
        points.push_back(&point);
      } else {  // the layout carries the failure into the results
        result.failures.push_back(DescribePoint(*load.spec, point) + ": " + point.error);
      }
    }
    RunSweepPoints(
        points, registry, {.threads = std::max(1U, threads), .check_invariants = false},
        [&](const SweepPoint& point, SweepRecord&& record, const RunReport*) {
          if (record.status != SweepRunStatus::kOk) {
            result.failures.push_back(DescribePoint(*load.spec, point) + ": " + record.error);
          }
          records.emplace(record.id, std::move(record));
        });
    result.results_csv = ResultsCsv(layout, records);
    result.summary_csv = SummaryCsv(layout, SummarizeCells(layout, records));
  }
  return result;
}

py::list PoolDicts(const PyScenario& s) {
  py::list pools;
  for (const PoolSpec& pool : s.scenario->fleet.pools) {
    pools.append(py::dict("name"_a = pool.name, "gpu"_a = pool.gpu.name, "nodes"_a = pool.nodes,
                          "gpus_per_node"_a = pool.node.gpus_per_node, "gpus"_a = pool.gpus(),
                          "tier"_a = PriceTierName(pool.tier),
                          "price_per_gpu_hour"_a = pool.EffectivePrice(),
                          "mig"_a = pool.mig != MigMode::kOff));
  }
  return pools;
}

void DefineRuns(py::module_& m) {
  py::class_<PyScenario>(m, "Scenario", "A loaded, validated scenario.")
      .def_property_readonly("name", [](const PyScenario& s) { return s.scenario->name; })
      .def_property_readonly("description",
                             [](const PyScenario& s) { return s.scenario->description; })
      .def_property_readonly("seed", [](const PyScenario& s) { return s.scenario->seed; })
      .def_property_readonly("policy", [](const PyScenario& s) { return s.scenario->policy.name; })
      .def_property_readonly("policy_params",
                             [](const PyScenario& s) {
                               py::dict params;
                               for (const auto& [name, value] : s.scenario->policy.params) {
                                 params[py::str(name)] = ToPython(value);
                               }
                               return params;
                             })
      .def_property_readonly("fleet_gpus",
                             [](const PyScenario& s) { return s.scenario->fleet.gpus; })
      .def_property_readonly("pools", &PoolDicts,
                             "The fleet's pools: name, gpu, nodes, gpus_per_node, gpus, tier, "
                             "price_per_gpu_hour, mig")
      .def_property_readonly(
          "fleet_summary",
          [](const PyScenario& s) {
            return FleetSummary(s.scenario->fleet, Topology(s.scenario->fleet));
          },
          "What `fleetsim fleet` prints: pools, GPUs per model, NVLink domains, racks, $/h")
      .def_property_readonly("until_s",
                             [](const PyScenario& s) -> std::optional<double> {
                               if (s.scenario->until == kTimeNever) {
                                 return std::nullopt;
                               }
                               return TimeToSeconds(s.scenario->until);
                             })
      .def_readonly("source", &PyScenario::source)
      .def_readonly("warnings", &PyScenario::warnings)
      .def_readonly("notes", &PyScenario::notes)
      .def("__repr__", [](const PyScenario& s) {
        return fmt::format("<Scenario '{}' from {}>", s.scenario->name, s.source);
      });
  m.def("load_scenario", &LoadScenario, "source"_a, py::kw_only(), "strict"_a = false,
        "Load and validate a scenario from a path or a dict; raises ScenarioError with every "
        "problem.");

  py::class_<PyRunResult>(m, "RunResult", "What one run gave.")
      .def_property_readonly("scenario",
                             [](const PyRunResult& r) { return r.report->scenario.name; })
      .def_property_readonly("policy", [](const PyRunResult& r) { return r.report->policy.name; })
      .def_property_readonly("seed", [](const PyRunResult& r) { return r.report->seed; })
      .def_property_readonly("summary",
                             [](const PyRunResult& r) { return JsonLoads(SummaryJson(*r.report)); })
      .def_property_readonly("metrics",
                             [](const PyRunResult& r) {
                               const py::object summary = JsonLoads(SummaryJson(*r.report));
                               return py::object(summary["metrics"]);
                             })
      .def_property_readonly("jobs_csv", [](const PyRunResult& r) { return JobsCsv(*r.report); })
      .def_property_readonly(
          "jobs", [](const PyRunResult& r) { return DataFrame(JobsCsv(*r.report), "jobs"); })
      .def_property_readonly("realtime_csv",
                             [](const PyRunResult& r) { return RealtimeCsv(*r.report); })
      .def_property_readonly(
          "realtime",
          [](const PyRunResult& r) { return DataFrame(RealtimeCsv(*r.report), "realtime"); })
      .def_property_readonly("timeline_csv",
                             [](const PyRunResult& r) { return TimelineCsv(*r.report); })
      .def_property_readonly(
          "timeline",
          [](const PyRunResult& r) { return DataFrame(TimelineCsv(*r.report), "timeline"); })
      .def_property_readonly("timeseries_csv",
                             [](const PyRunResult& r) { return TimeseriesCsv(*r.report); })
      .def_property_readonly(
          "timeseries",
          [](const PyRunResult& r) { return DataFrame(TimeseriesCsv(*r.report), "timeseries"); })
      .def_property_readonly("comparison_csv",
                             [](const PyRunResult& r) { return ComparisonCsv({*r.report}); })
      .def("__repr__", [](const PyRunResult& r) {
        return fmt::format("<RunResult '{}' under '{}', seed {}>", r.report->scenario.name,
                           r.report->policy.name, r.report->seed);
      });
  m.def(
      "comparison_csv",
      [](const std::vector<PyRunResult>& results) {
        std::vector<RunReport> reports;
        for (const PyRunResult& r : results) {
          reports.push_back(*r.report);
        }
        return ComparisonCsv(reports);
      },
      "results"_a, "comparison.csv of these runs, one row each.");
  m.def(
      "comparison",
      [](const std::vector<PyRunResult>& results) {
        std::vector<RunReport> reports;
        for (const PyRunResult& r : results) {
          reports.push_back(*r.report);
        }
        return DataFrame(ComparisonCsv(reports), "comparison");
      },
      "results"_a, "comparison.csv of these runs as a DataFrame.");
  m.def(
      "table",
      [](const std::vector<PyRunResult>& results) {
        std::vector<RunReport> reports;
        for (const PyRunResult& r : results) {
          reports.push_back(*r.report);
        }
        return MetricsTable(reports);
      },
      "results"_a, "The terminal table of `fleetsim run` for these runs.");
  m.def("run", &Run, "scenario"_a, py::kw_only(), "policy"_a = py::none(), "seed"_a = py::none(),
        "params"_a = py::none(), "timeline"_a = false, "check_invariants"_a = false,
        "timing"_a = false,
        "Run a scenario under a policy and a seed; raises PolicyError on an illegal decision.");

  py::class_<PySimulation>(m, "Simulation", "A run in steps, with its state between them.")
      .def(py::init<const PyScenario&, const std::optional<std::string>&,
                    std::optional<std::uint64_t>, const std::optional<py::dict>&, bool>(),
           "scenario"_a, py::kw_only(), "policy"_a = py::none(), "seed"_a = py::none(),
           "params"_a = py::none(), "timeline"_a = false)
      .def(
          "run_until",
          [](PySimulation& s, double seconds) {
            if (!(seconds >= 0 && seconds <= kMaxScenarioSeconds)) {
              throw py::value_error(fmt::format("run_until: expected seconds in [0, {}], found {}",
                                                kMaxScenarioSeconds, seconds));
            }
            s.RunUntil(SecondsToTime(seconds));
          },
          "seconds"_a)
      .def("run", [](PySimulation& s) { s.RunUntil(kTimeNever); })
      .def_property_readonly("now", &PySimulation::now, "milliseconds")
      .def_property_readonly("now_s", [](PySimulation& s) { return TimeToSeconds(s.now()); })
      .def_property_readonly("over", &PySimulation::over)
      .def("view", &PySimulation::View, "The cluster as a policy would see it now.")
      .def("finish", &PySimulation::Finish);

  py::class_<PySweepResult>(m, "SweepResult")
      .def_readonly("results_csv", &PySweepResult::results_csv)
      .def_readonly("summary_csv", &PySweepResult::summary_csv)
      .def_readonly("failures", &PySweepResult::failures)
      .def_property_readonly(
          "results", [](const PySweepResult& r) { return DataFrame(r.results_csv, "results"); })
      .def_property_readonly(
          "summary", [](const PySweepResult& r) { return DataFrame(r.summary_csv, "summary"); });
  m.def(
      "run_sweep",
      [](const py::object& spec, std::int64_t threads, bool strict) {
        if (!py::isinstance<py::str>(spec) && !py::hasattr(spec, "__fspath__")) {
          throw py::type_error(
              fmt::format("run_sweep: spec must be the path of a sweep spec file "
                          "(str or os.PathLike), found {}",
                          std::string(py::str(py::type::of(spec).attr("__name__")))));
        }
        if (threads < 1 || threads > 4096) {
          throw py::value_error(
              fmt::format("run_sweep: threads must be in [1, 4096], found {}", threads));
        }
        return RunSweepSpec(py::str(py::module_::import("os").attr("fspath")(spec)),
                            static_cast<unsigned>(threads), strict);
      },
      "spec"_a, py::kw_only(), "threads"_a = 1, "strict"_a = false,
      "Run every point of a sweep spec (docs/sweeps.md) on `threads` threads, in memory.");
}

}  // namespace

std::vector<std::shared_ptr<const PythonPolicyClass>>& RegisteredClasses() {
  static auto* classes = new std::vector<std::shared_ptr<const PythonPolicyClass>>();
  return *classes;
}

PolicyRegistry RegistryWithPython() {
  PolicyRegistry registry = BuiltinPolicies();
  for (const auto& cls : RegisteredClasses()) {
    registry.Add(PythonPolicyInfo(cls));
  }
  return registry;
}

void DefineModule(py::module_& m) {
  m.doc() = "fleetsim: a discrete-event simulator of GPU-cluster scheduling (docs/python.md)";
  py::exec(kPythonPart, m.attr("__dict__"));
  DefineJobTypes(m);
  DefineDecisions(m);
  DefineView(m);
  DefineRuns(m);
  m.def("register_policy", &RegisterPolicy, "cls"_a, py::kw_only(), "name"_a, "summary"_a = "",
        "params"_a = py::list(), "call_budget_s"_a = 60.0,
        "Register a fleetsim.Policy subclass under a name, with its parameters.");
  m.def("policies", &PolicyList, "Every policy: the built-in ones, then those registered.");
  m.def("placement_strategies", &PlacementStrategyNames, "Names of the placement strategies.");
}

}  // namespace fleetsim::python
