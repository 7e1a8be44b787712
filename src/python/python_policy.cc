// PythonPolicy: a Python object's decide() as a C++ Policy, with its call budget.
#include "python/python_policy.h"

#include <fmt/format.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <thread>
#include <utility>

#include "fleetsim/core/check.h"

namespace fleetsim::python {

void CallState::Begin(const ClusterView* call_view, PlacementPlanner* call_planner) {
  view = call_view;
  planner = call_planner;
  ++generation;
}

void CallState::End() {
  view = nullptr;
  planner = nullptr;
  ++generation;
}

namespace {

// A frame's file name as a failure shows it: relative to the working folder when it lies there
// (Python makes a module's file name absolute), so the text does not depend on where the
// command ran.
std::string ShownFileName(const std::string& name) {
  std::error_code error;
  const std::filesystem::path here = std::filesystem::current_path(error);
  const std::filesystem::path file(name);
  if (error || !file.is_absolute()) {
    return name;
  }
  const std::filesystem::path relative = file.lexically_relative(here);
  return relative.empty() || *relative.begin() == ".." ? name : relative.string();
}

}  // namespace

std::string DescribeRaised(const py::error_already_set& raised) {
  try {
    const py::module_ traceback = py::module_::import("traceback");
    std::string text;
    for (const py::handle line :
         traceback.attr("format_exception_only")(raised.type(), raised.value())) {
      text += line.cast<std::string>();
    }
    while (!text.empty() && text.back() == '\n') {
      text.pop_back();
    }
    const py::list frames = traceback.attr("extract_tb")(raised.trace());
    if (!frames.empty()) {
      text += "\n\nAt:";
    }
    for (std::size_t i = frames.size(); i-- > 0;) {
      const py::handle frame = frames[i];
      text +=
          fmt::format("\n  {}({}): {}", ShownFileName(frame.attr("filename").cast<std::string>()),
                      py::str(frame.attr("lineno")).cast<std::string>(),
                      frame.attr("name").cast<std::string>());
    }
    return text;
  } catch (const std::exception&) {  // the traceback module itself failed: pybind11's text
    return raised.what();
  }
}

PyAllocation PyAllocation::Of(const Allocation& allocation, const CallState& state) {
  PyAllocation held{.allocation = allocation, .profiles = {}, .run = state.run, .portable = false};
  for (const Grant& grant : allocation.gpus) {
    held.profiles.push_back(grant.profile != nullptr ? grant.profile->name : std::string());
  }
  return held;
}

PyAllocation PyAllocation::Portable(Allocation allocation) {
  PyAllocation held{
      .allocation = std::move(allocation), .profiles = {}, .run = {}, .portable = true};
  held.profiles.assign(held.allocation.gpus.size(), std::string());
  return held;
}

const Allocation* PyAllocation::In(const CallState& state) const {
  if (portable) {
    return &allocation;
  }
  const std::shared_ptr<const int> owner = run.lock();
  return owner != nullptr && owner == state.run ? &allocation : nullptr;
}

const ClusterView& CallState::View() const {
  if (view == nullptr) {
    throw std::runtime_error(
        "a ClusterView is valid only during the decide() call it was passed to");
  }
  return *view;
}

PlacementPlanner& CallState::Planner() const {
  if (planner == nullptr) {
    throw std::runtime_error(
        "a PlacementPlanner is valid only during the decide() call it was passed to");
  }
  return *planner;
}

py::object CallState::Request(JobIndex job) {
  if (job >= View().submitted()) {
    throw py::index_error(
        fmt::format("job {} has not been submitted ({} have)", job, View().submitted()));
  }
  const JobRequest& request = View().request(job);
  if (job >= requests.size()) {
    requests.resize(static_cast<std::size_t>(job) + 1);
  }
  py::object& copy = requests[job];
  if (!copy) {
    copy = py::cast(request);
  }
  return copy;
}

namespace {

// Stops a decide() call that runs past its budget: a watchdog thread raises TimeoutError in the
// calling thread (PyThreadState_SetAsyncExc, delivered at its next Python instruction), again
// every budget while the call goes on. Arm and Disarm are called with the global lock held; the
// watchdog raises only while holding it and only if the same call is still armed, so an exception
// never lands after its call.
class CallBudget {
 public:
  explicit CallBudget(double seconds)
      : budget_(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
            std::chrono::duration<double>(seconds))) {}
  ~CallBudget() { Stop(); }
  CallBudget(const CallBudget&) = delete;
  CallBudget& operator=(const CallBudget&) = delete;

  void Arm() {
    std::lock_guard lock(mutex_);
    if (!watchdog_.joinable()) {
      watchdog_ = std::thread([this] { Watch(); });
    }
    ++call_;
    armed_ = true;
    overran_ = false;
    thread_ = PyThread_get_thread_ident();
    deadline_ = std::chrono::steady_clock::now() + budget_;
    wake_.notify_one();
  }
  // Whether the call overran its budget.
  bool Disarm() {
    std::lock_guard lock(mutex_);
    if (armed_ && overran_) {
      PyThreadState_SetAsyncExc(thread_, nullptr);  // one raised too late to land is dropped
    }
    armed_ = false;
    return overran_;
  }
  // Joins the watchdog; call without the global lock (the watchdog may be waiting for it).
  void Stop() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
      wake_.notify_one();
    }
    if (watchdog_.joinable()) {
      watchdog_.join();
    }
  }

 private:
  void Watch() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
      if (!armed_) {
        wake_.wait(lock);
        continue;
      }
      if (std::chrono::steady_clock::now() < deadline_) {
        wake_.wait_until(lock, deadline_);
        continue;
      }
      const std::uint64_t call = call_;
      lock.unlock();
      {
        py::gil_scoped_acquire gil;
        std::lock_guard check(mutex_);
        if (armed_ && call_ == call) {
          overran_ = true;
          PyThreadState_SetAsyncExc(thread_, PyExc_TimeoutError);
          deadline_ = std::chrono::steady_clock::now() + budget_;
        }
      }
      lock.lock();
    }
  }

  const std::chrono::steady_clock::duration budget_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread watchdog_;
  std::uint64_t call_ = 0;
  bool armed_ = false;
  bool overran_ = false;
  bool stopping_ = false;
  unsigned long thread_ = 0;  // NOLINT(runtime/int): Python's thread ident type
  std::chrono::steady_clock::time_point deadline_{};
};

// "a 'str'" for messages.
std::string TypeNameOf(const py::handle& value) {
  return py::str(py::type::handle_of(value).attr("__name__")).cast<std::string>();
}

class PythonPolicy final : public Policy {
 public:
  PythonPolicy(std::shared_ptr<const PythonPolicyClass> cls, py::object instance)
      : cls_(std::move(cls)),
        instance_(std::move(instance)),
        decide_(instance_.attr("decide")),
        state_(std::make_shared<CallState>()),
        view_(py::cast(ViewHandle{state_})),
        planner_(py::cast(PlannerHandle{state_})),
        budget_(cls_->call_budget_s) {}

  ~PythonPolicy() override {
    if (PyGILState_Check() != 0) {
      py::gil_scoped_release unlocked;
      budget_.Stop();
    } else {
      budget_.Stop();
    }
    py::gil_scoped_acquire gil;
    state_->EndRun();
    state_->requests.clear();
    view_ = py::object();
    planner_ = py::object();
    decide_ = py::object();
    instance_ = py::object();
  }
  PythonPolicy(const PythonPolicy&) = delete;
  PythonPolicy& operator=(const PythonPolicy&) = delete;

  std::vector<Decision> Decide(const ClusterView& view, PlacementPlanner& planner) override {
    py::gil_scoped_acquire gil;
    std::vector<Decision> decisions;
    // The handles Python was given see this call's view and planner until the call is over,
    // however it ends.
    struct CallScope {
      CallState& state;
      ~CallScope() { state.End(); }
    } scope{*state_};
    state_->Begin(&view, &planner);
    try {
      budget_.Arm();
      // The budget covers decide() and the iteration of what it returns (a generator runs then).
      const py::object returned = decide_(view_, planner_);
      const Status converted = Convert(returned, decisions);
      failure_ = budget_.Disarm() ? OverranStatus("") : converted;
    } catch (py::error_already_set& error) {
      const bool overran = budget_.Disarm();
      failure_ =
          overran
              ? OverranStatus(DescribeRaised(error))
              : Status::IllegalDecision(fmt::format("decide() raised {}", DescribeRaised(error)));
    } catch (const std::bad_alloc&) {
      budget_.Disarm();
      throw;  // out of memory ends the command (exit 8), it is no decision of the policy
    } catch (const std::exception& error) {  // a C++ error (a conversion, a thread not started)
      budget_.Disarm();
      failure_ = Status::IllegalDecision(fmt::format("decide() raised {}", error.what()));
    }
    if (!failure_.ok()) {
      decisions.clear();
    }
    return decisions;
  }

  Status TakeFailure() override { return std::exchange(failure_, Status::Ok()); }

 private:
  Status OverranStatus(const std::string& what) const {
    return Status::IllegalDecision(
        fmt::format("decide() ran past its call budget of {} s and was stopped{}",
                    cls_->call_budget_s, what.empty() ? std::string() : ": " + what));
  }

  // The decisions of `returned`: None, or an iterable of fleetsim decision objects.
  Status Convert(const py::object& returned, std::vector<Decision>& decisions) const {
    if (returned.is_none()) {
      return Status::Ok();
    }
    if (!py::isinstance<py::iterable>(returned)) {
      return Status::IllegalDecision(
          fmt::format("decide() returned a '{}', expected a list of decisions (fleetsim.Start, "
                      "Reject, Preempt, Resize, WakeAt) or None",
                      TypeNameOf(returned)));
    }
    std::size_t number = 0;
    for (const py::handle item : returned) {
      ++number;
      if (py::isinstance<PyStart>(item) || py::isinstance<PyResize>(item)) {
        const bool start = py::isinstance<PyStart>(item);
        const JobIndex job =
            start ? item.cast<const PyStart&>().job : item.cast<const PyResize&>().job;
        const PyAllocation& placement =
            start ? item.cast<const PyStart&>().placement : item.cast<const PyResize&>().placement;
        const Allocation* allocation = placement.In(*state_);
        if (allocation == nullptr) {
          return Status::IllegalDecision(fmt::format(
              "decision {} of decide() places job {} with an Allocation of another run, or of a "
              "run that is over",
              number, job));
        }
        if (start) {
          decisions.emplace_back(StartJob{job, *allocation});
        } else {
          decisions.emplace_back(ResizeJob{job, *allocation});
        }
      } else if (py::isinstance<RejectJob>(item)) {
        decisions.emplace_back(item.cast<RejectJob>());
      } else if (py::isinstance<PreemptJob>(item)) {
        decisions.emplace_back(item.cast<PreemptJob>());
      } else if (py::isinstance<WakeAt>(item)) {
        decisions.emplace_back(item.cast<WakeAt>());
      } else {
        return Status::IllegalDecision(
            fmt::format("decide() returned a '{}' as decision {}, expected fleetsim.Start, "
                        "Reject, Preempt, Resize or WakeAt",
                        TypeNameOf(item), number));
      }
    }
    return Status::Ok();
  }

  std::shared_ptr<const PythonPolicyClass> cls_;
  py::object instance_;
  py::object decide_;
  std::shared_ptr<CallState> state_;
  py::object view_;
  py::object planner_;
  CallBudget budget_;
  Status failure_;
};

// A policy whose class raised when it was built: the run stops at its first call with why.
class UnbuiltPolicy final : public Policy {
 public:
  explicit UnbuiltPolicy(Status why) : why_(std::move(why)) {}
  std::vector<Decision> Decide(const ClusterView& /*view*/,
                               PlacementPlanner& /*planner*/) override {
    return {};
  }
  Status TakeFailure() override { return why_; }

 private:
  Status why_;
};

}  // namespace

std::shared_ptr<const PythonPolicyClass> ShareClass(PythonPolicyClass cls) {
  return {new PythonPolicyClass(std::move(cls)), [](const PythonPolicyClass* shared) {
            py::gil_scoped_acquire gil;
            delete shared;
          }};
}

py::object ToPython(const ParamValue& value) {
  return std::visit([](const auto& v) -> py::object { return py::cast(v); }, value);
}

PolicyInfo PythonPolicyInfo(std::shared_ptr<const PythonPolicyClass> cls) {
  PolicyInfo info{.name = cls->name, .summary = cls->summary, .params = cls->params, .make = {}};
  info.make = [cls](const PolicyParams& params) -> std::unique_ptr<Policy> {
    py::gil_scoped_acquire gil;
    py::dict values;
    for (const auto& [name, value] : params) {
      values[py::str(name)] = ToPython(value);
    }
    try {
      return std::make_unique<PythonPolicy>(cls, cls->cls(values));
    } catch (py::error_already_set& error) {
      return std::make_unique<UnbuiltPolicy>(Status::IllegalDecision(
          fmt::format("creating the policy raised {}", DescribeRaised(error))));
    }
  };
  return info;
}

}  // namespace fleetsim::python
