// Reading and writing the native job object.
#include "job_json/job_json.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <optional>

#include "fleetsim/core/diagnostics.h"
#include "job_json/request_words.h"

namespace fleetsim {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

constexpr RealRange kTimeRange{0, kMaxScenarioSeconds};
constexpr RealRange kPositiveTimeRange{0, kMaxScenarioSeconds, true};

// Reads the fields of one JSON object, remembering whether any present (or required) field
// failed its check.
class FieldReader {
 public:
  FieldReader(const json& object, std::string path, JsonChecker& check)
      : object_(object), path_(std::move(path)), check_(check) {}

  bool clean() const { return clean_; }
  const std::string& path() const { return path_; }

  void Text(const std::string& key, bool required, std::string& out) {
    Keep(key, required, check_.String(object_, path_, key, required), out);
  }

  void Integer(const std::string& key, IntRange range, std::int64_t& out) {
    Keep(key, false, check_.Int(object_, path_, key, range, false), out);
  }

  void Real(const std::string& key, RealRange range, double& out) {
    Keep(key, false, check_.Real(object_, path_, key, range, false), out);
  }

  // Seconds to milliseconds; with an exclusive minimum of 0 the value must be at least 1 ms once
  // rounded.
  void Seconds(const std::string& key, RealRange range, bool required, SimDuration& out) {
    const auto seconds = check_.Real(object_, path_, key, range, required);
    if (seconds && range.min_exclusive && SecondsToTime(*seconds) == 0) {
      check_.Error(ChildPath(path_, key),
                   fmt::format("expected a duration of at least 1 ms after rounding to the "
                               "millisecond, found {}",
                               Shown(object_.at(key))));
      clean_ = false;
      return;
    }
    Keep(key, required, seconds ? std::optional(SecondsToTime(*seconds)) : std::nullopt, out);
  }

  void Flag(const std::string& key, bool& out) {
    const auto it = object_.find(key);
    if (it == object_.end()) {
      return;
    }
    if (!it->is_boolean()) {
      Fail(key, fmt::format("expected true or false, found {}", Shown(*it)));
      return;
    }
    out = it->get<bool>();
  }

  template <typename Enum>
  void Name(const std::string& key, std::optional<Enum> (*parse)(const std::string&),
            const std::vector<std::string>& names, Enum& out) {
    const auto name = check_.String(object_, path_, key, false);
    if (!name) {
      Keep(key, false, std::optional<Enum>(), out);
      return;
    }
    if (const std::optional<Enum> value = parse(*name)) {
      out = *value;
      return;
    }
    Fail(key, fmt::format("expected one of {}, found {}{}", QuotedList(names),
                          Shown(object_.at(key)), DidYouMean(*name, names)));
  }

  void Models(const std::string& key, std::vector<std::string>& out) {
    const json* list = check_.Array(object_, path_, key, false);
    if (list == nullptr) {
      clean_ = clean_ && !object_.contains(key);
      return;
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
      const json& item = (*list)[i];
      if (!item.is_string()) {
        check_.Error(ChildPath(ChildPath(path_, key), i),
                     fmt::format("expected a GPU model name, found {}", Shown(item)));
        clean_ = false;
        continue;
      }
      out.push_back(item.get<std::string>());
    }
  }

  void Integers(const std::string& key, IntRange range, std::vector<std::int64_t>& out) {
    const json* list = check_.Array(object_, path_, key, true);
    if (list == nullptr) {
      clean_ = false;
      return;
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
      const auto value = check_.IntValue((*list)[i], ChildPath(ChildPath(path_, key), i), range);
      if (!value) {
        clean_ = false;
        continue;
      }
      out.push_back(*value);
    }
  }

  // The child object at `key`, or nullptr (absent, or not an object: recorded).
  const json* Child(const std::string& key) {
    const json* child = check_.Object(object_, path_, key, false);
    clean_ = clean_ && (child != nullptr || !object_.contains(key));
    return child;
  }

  void Absorb(const FieldReader& child) { clean_ = clean_ && child.clean_; }

  // "gres" or "resources": the request in a scheduler's words (ApplyRequestWords).
  void RequestWords(JobRequest& r) {
    if (!object_.contains("gres") && !object_.contains("resources")) {
      return;  // no words: nothing to apply, and no field to show in a problem
    }
    GivenRequestWords given;
    if (object_.contains("gres")) {
      given.gres = check_.String(object_, path_, "gres", false);
      if (!given.gres) {
        clean_ = false;
        return;
      }
    }
    if (object_.contains("resources")) {
      given.resources = ResourceRequests("resources");
      if (!given.resources) {
        return;
      }
    }
    for (const auto& [key, value] : object_.items()) {
      given.fields.emplace_back(key, Shown(value));
    }
    for (const RequestWordsProblem& problem : ApplyRequestWords(given, r)) {
      Fail(problem.field, problem.message);
    }
  }

 private:
  // Stores a value that was read; a missing value is a failure when the key was there or needed.
  template <typename T, typename U>
  void Keep(const std::string& key, bool required, const std::optional<T>& value, U& out) {
    if (value) {
      out = *value;
    } else if (required || object_.contains(key)) {
      clean_ = false;
    }
  }

  // The object at `key` as resource requests: values are integers or quantity strings.
  std::optional<std::vector<ResourceRequest>> ResourceRequests(const std::string& key) {
    const json* object = check_.Object(object_, path_, key, false);
    if (object == nullptr) {
      clean_ = false;
      return std::nullopt;
    }
    std::vector<ResourceRequest> requests;
    for (const auto& [name, value] : object->items()) {
      if (value.is_number_integer()) {
        requests.push_back({name, value.dump()});
      } else if (value.is_string()) {
        requests.push_back({name, value.get<std::string>()});
      } else {
        check_.Error(ChildPath(ChildPath(path_, key), name),
                     fmt::format("expected a quantity (an integer, or a string such as "
                                 "\"64Gi\"), found {}",
                                 Shown(value)));
        clean_ = false;
        return std::nullopt;
      }
    }
    return requests;
  }

  void Fail(const std::string& key, const std::string& message) {
    check_.Error(ChildPath(path_, key), message);
    clean_ = false;
  }

  const json& object_;
  std::string path_;
  JsonChecker& check_;
  bool clean_ = true;
};

void ReadRequest(FieldReader& in, JobRequest& r) {
  in.Text("id", true, r.id);
  in.Seconds("submit_s", kTimeRange, false, r.submit);
  in.Text("tenant", false, r.tenant);
  in.Text("priority_class", false, r.priority_class);
  in.Integer("priority", {1, kMaxPriority}, r.priority);
  in.Name("kind", &ParseJobKind, JobKindNames(), r.kind);
  in.Integer("gpus", {0, kMaxJobGpus}, r.gpus);
  in.Integer("max_gpus", {0, kMaxJobGpus}, r.max_gpus);
  in.Flag("pow2_block", r.pow2_block);
  in.Models("gpu_models", r.gpu_models);
  in.Name("nvlink", &ParseNvlinkLocality, NvlinkLocalityNames(), r.nvlink);
  in.Name("sharing", &ParseGpuSharing, GpuSharingNames(), r.sharing);
  in.Integer("gpu_milli", {1, kWholeGpuMilli}, r.gpu_milli);
  in.Real("gpu_memory_gb", {0, kMaxGpuMemoryGb}, r.gpu_memory_gb);
  in.Integer("cpu_milli", {0, kMaxHostAmount}, r.cpu_milli);
  in.Integer("memory_mib", {0, kMaxHostAmount}, r.memory_mib);
  in.Flag("preemptible", r.preemptible);
  in.Flag("spot_eligible", r.spot_eligible);
  in.Seconds("checkpoint_interval_s", kTimeRange, false, r.checkpoint_interval);
  in.Seconds("checkpoint_cost_s", kTimeRange, false, r.checkpoint_cost);
  in.Flag("checkpoint_sharded", r.checkpoint_sharded);
  in.Seconds("restart_cost_s", kTimeRange, false, r.restart_cost);
  in.Seconds("walltime_s", kTimeRange, false, r.walltime_estimate);
  in.Seconds("deadline_s", kTimeRange, false, r.deadline);
  in.RequestWords(r);
}

void ReadDemand(const json& object, JsonChecker& check, FieldReader& parent,
                std::optional<DemandCurve>& demand) {
  FieldReader in(object, ChildPath(parent.path(), "demand"), check);
  DemandCurve curve;
  in.Seconds("step_s", kPositiveTimeRange, true, curve.step);
  in.Integers("gpus", {0, kMaxJobGpus}, curve.gpus);
  in.Integer("swap_cap", {0, kMaxJobGpus}, curve.swap_cap);
  parent.Absorb(in);
  demand = std::move(curve);
}

void ReadTruth(FieldReader& in, JobTruth& t) {
  in.Seconds("duration_s", kPositiveTimeRange, false, t.duration);
  in.Real("work_gpu_hours", {0, kMaxWorkGpuHours, true}, t.work_gpu_hours);
  in.Text("recorded_state", false, t.recorded_state);
}

// "demand.gpus" -> "/demand/gpus" under `path`.
std::string FieldPointer(const std::string& path, const std::string& field) {
  std::string pointer = path;
  std::size_t begin = 0;
  while (begin <= field.size()) {
    const std::size_t dot = std::min(field.find('.', begin), field.size());
    pointer = ChildPath(pointer, field.substr(begin, dot - begin));
    begin = dot + 1;
  }
  return pointer;
}

ordered_json SecondsValue(SimDuration t) {
  if (t % kMillisPerSecond == 0) {
    return t / kMillisPerSecond;
  }
  return TimeToSeconds(t);
}

// Whole numbers as integers (exact up to 2^53), others in nlohmann's shortest exact form.
ordered_json NumberValue(double value) {
  constexpr double kExactIntegers = 9007199254740992.0;  // 2^53
  if (std::trunc(value) == value && std::fabs(value) < kExactIntegers) {
    return static_cast<std::int64_t>(value);
  }
  return value;
}

// "cpu=8,nvidia.com/gpu=2" as {"cpu": 8, "nvidia.com/gpu": 2}: whole numbers as integers,
// other quantities as strings.
ordered_json ResourcesToJson(const std::string& text) {
  ordered_json out = ordered_json::object();
  for (const ResourceRequest& request :
       SplitResources(text).value_or(std::vector<ResourceRequest>{})) {
    const bool whole = !request.value.empty() && request.value.size() <= 15 &&
                       request.value.find_first_not_of("0123456789") == std::string::npos;
    out[request.name] =
        whole ? ordered_json(std::stoll(request.value)) : ordered_json(request.value);
  }
  return out;
}

ordered_json DemandToJson(const DemandCurve& curve) {
  ordered_json out;
  out["step_s"] = SecondsValue(curve.step);
  out["gpus"] = curve.gpus;
  if (curve.swap_cap != 0) {
    out["swap_cap"] = curve.swap_cap;
  }
  return out;
}

}  // namespace

const std::vector<std::string>& JobObjectKeys() {
  static const std::vector<std::string> keys = {"id",
                                                "submit_s",
                                                "tenant",
                                                "priority_class",
                                                "priority",
                                                "kind",
                                                "gres",
                                                "resources",
                                                "gpus",
                                                "max_gpus",
                                                "pow2_block",
                                                "gpu_models",
                                                "nvlink",
                                                "sharing",
                                                "gpu_milli",
                                                "gpu_memory_gb",
                                                "cpu_milli",
                                                "memory_mib",
                                                "preemptible",
                                                "spot_eligible",
                                                "checkpoint_interval_s",
                                                "checkpoint_cost_s",
                                                "checkpoint_sharded",
                                                "restart_cost_s",
                                                "walltime_s",
                                                "deadline_s",
                                                "demand",
                                                "duration_s",
                                                "work_gpu_hours",
                                                "recorded_state"};
  return keys;
}

const std::vector<std::string>& DemandObjectKeys() {
  static const std::vector<std::string> keys = {"step_s", "gpus", "swap_cap"};
  return keys;
}

bool ReadJobFields(const json& object, const std::string& path, JsonChecker& check, Job& job) {
  if (!object.is_object()) {
    check.Error(path, fmt::format("expected a job object, found {}", Shown(object)));
    return false;
  }
  FieldReader in(object, path, check);
  ReadRequest(in, job.request);
  if (const json* demand = in.Child("demand")) {
    ReadDemand(*demand, check, in, job.request.demand);
  }
  ReadTruth(in, job.truth);
  return in.clean();
}

Job ParseJobObject(const json& object, const std::string& path, JsonChecker& check) {
  Job job;
  if (object.is_object()) {
    check.UnknownKeys(object, path, JobObjectKeys());
    const auto demand = object.find("demand");
    if (demand != object.end() && demand->is_object()) {
      check.UnknownKeys(*demand, ChildPath(path, "demand"), DemandObjectKeys());
    }
  }
  if (!ReadJobFields(object, path, check, job)) {
    return job;
  }
  for (const JobProblem& problem : ProblemsWith(job)) {
    check.Error(FieldPointer(path, problem.field), problem.message);
  }
  return job;
}

ordered_json JobToJson(const Job& job) {
  const JobRequest& r = job.request;
  const JobRequest d;
  ordered_json out;
  out["id"] = r.id;
  out["submit_s"] = SecondsValue(r.submit);
  // A field the job sets: one that differs from the default and that the request's words do
  // not already state, written as show(value). Most jobs set few fields, so show() runs only
  // for those (a JSON value built for every field costs more than the rest of the object).
  const auto put = [&out, &r](const char* key, const auto& value, const auto& fallback,
                              const auto& show) {
    if (value != fallback && !SetByRequestWords(r, key)) {
      out[key] = show(value);
    }
  };
  const auto as_is = [](const auto& value) -> const auto& { return value; };
  put("tenant", r.tenant, d.tenant, as_is);
  put("priority_class", r.priority_class, d.priority_class, as_is);
  put("priority", r.priority, d.priority, as_is);
  put("kind", r.kind, d.kind, JobKindName);
  if (!r.gres.empty()) {
    out["gres"] = r.gres;
  } else if (!r.resources.empty()) {
    out["resources"] = ResourcesToJson(r.resources);
  } else {
    out["gpus"] = r.gpus;
  }
  put("max_gpus", r.max_gpus, d.max_gpus, as_is);
  put("pow2_block", r.pow2_block, d.pow2_block, as_is);
  put("gpu_models", r.gpu_models, d.gpu_models, as_is);
  put("nvlink", r.nvlink, d.nvlink, NvlinkLocalityName);
  put("sharing", r.sharing, d.sharing, GpuSharingName);
  put("gpu_milli", r.gpu_milli, d.gpu_milli, as_is);
  put("gpu_memory_gb", r.gpu_memory_gb, d.gpu_memory_gb, NumberValue);
  put("cpu_milli", r.cpu_milli, d.cpu_milli, as_is);
  put("memory_mib", r.memory_mib, d.memory_mib, as_is);
  put("preemptible", r.preemptible, d.preemptible, as_is);
  put("spot_eligible", r.spot_eligible, d.spot_eligible, as_is);
  put("checkpoint_interval_s", r.checkpoint_interval, d.checkpoint_interval, SecondsValue);
  put("checkpoint_cost_s", r.checkpoint_cost, d.checkpoint_cost, SecondsValue);
  put("checkpoint_sharded", r.checkpoint_sharded, d.checkpoint_sharded, as_is);
  put("restart_cost_s", r.restart_cost, d.restart_cost, SecondsValue);
  put("walltime_s", r.walltime_estimate, d.walltime_estimate, SecondsValue);
  if (r.deadline != kTimeNever) {
    out["deadline_s"] = SecondsValue(r.deadline);
  }
  if (r.demand) {
    out["demand"] = DemandToJson(*r.demand);
  }
  if (job.truth.work_gpu_hours == 0 || job.truth.duration != 0) {
    out["duration_s"] = SecondsValue(job.truth.duration);
  }
  if (job.truth.work_gpu_hours != 0) {
    out["work_gpu_hours"] = NumberValue(job.truth.work_gpu_hours);
  }
  if (!job.truth.recorded_state.empty()) {
    out["recorded_state"] = job.truth.recorded_state;
  }
  return out;
}

std::string SecondsText(SimDuration t) {
  const std::int64_t whole = t / kMillisPerSecond;
  const std::int64_t millis = std::abs(t % kMillisPerSecond);
  if (millis == 0) {
    return fmt::format("{}", whole);
  }
  std::string fraction = fmt::format("{:03}", millis);
  fraction.erase(fraction.find_last_not_of('0') + 1);
  return fmt::format("{}{}.{}", t < 0 && whole == 0 ? "-" : "", whole, fraction);
}

}  // namespace fleetsim
