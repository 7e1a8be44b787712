// Job ordering, the names of job enums, and the fleet-independent validity rules of a job.
#include "fleetsim/workload/job.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

#include "fleetsim/core/check.h"
#include "fleetsim/core/diagnostics.h"

namespace fleetsim {

namespace {

template <typename Enum, std::size_t N>
using NameTable = std::array<std::pair<Enum, const char*>, N>;

constexpr NameTable<JobKind, 7> kKindNames = {{
    {JobKind::kUnspecified, "unspecified"},
    {JobKind::kPretraining, "pretraining"},
    {JobKind::kFineTuning, "fine-tuning"},
    {JobKind::kBatchInference, "batch-inference"},
    {JobKind::kRealtimeInference, "realtime-inference"},
    {JobKind::kQuantization, "quantization"},
    {JobKind::kInteractive, "interactive"},
}};
constexpr NameTable<NvlinkLocality, 3> kLocalityNames = {{
    {NvlinkLocality::kNone, "none"},
    {NvlinkLocality::kPreferred, "preferred"},
    {NvlinkLocality::kRequired, "required"},
}};
constexpr NameTable<GpuSharing, 3> kSharingNames = {{
    {GpuSharing::kNone, "none"},
    {GpuSharing::kMig, "mig"},
    {GpuSharing::kFraction, "fraction"},
}};

template <typename Enum, std::size_t N>
const char* NameOf(const NameTable<Enum, N>& table, Enum value) {
  for (const auto& [v, name] : table) {
    if (v == value) {
      return name;
    }
  }
  FLEETSIM_CHECK(false, "enum value missing from its name table");
  return "";
}

template <typename Enum, std::size_t N>
std::optional<Enum> ValueOf(const NameTable<Enum, N>& table, const std::string& name) {
  for (const auto& [v, n] : table) {
    if (name == n) {
      return v;
    }
  }
  return std::nullopt;
}

template <typename Enum, std::size_t N>
std::vector<std::string> NamesOf(const NameTable<Enum, N>& table) {
  std::vector<std::string> names;
  for (const auto& entry : table) {
    names.emplace_back(entry.second);
  }
  return names;
}

bool IsPowerOfTwo(std::int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

bool IsValidId(const std::string& id) {
  return !id.empty() && std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '.' || c == '_' || c == '-';
  });
}

class ProblemList {
 public:
  void Add(std::string field, std::string message) {
    problems_.push_back({std::move(field), std::move(message)});
  }
  void AddText(std::string field, std::string message) {
    problems_.push_back({std::move(field), std::move(message), true});
  }
  std::vector<JobProblem> Take() { return std::move(problems_); }

 private:
  std::vector<JobProblem> problems_;
};

bool IsControl(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte < 0x20 || byte == 0x7f;
}

// `text` as a message shows it: each control character as \xNN, then cut as ShownName cuts.
std::string WithControlsEscaped(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (IsControl(c)) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
    } else {
      out += c;
    }
  }
  return ShownName(out);
}

// What is wrong with a name or other text a job sets (`text` non-empty), or "" when nothing:
// every native format must carry it unchanged, a line of CSV among them, so no control
// characters (a line break would end the row) and not spaces alone (a CSV cell of spaces reads
// as empty, that is, as the field's default).
std::string TextProblem(std::string_view text) {
  if (std::any_of(text.begin(), text.end(), IsControl)) {
    return fmt::format(
        "expected text without control characters (tabs, line breaks...), found '{}'",
        WithControlsEscaped(text));
  }
  if (text.find_first_not_of(' ') == std::string_view::npos) {
    return fmt::format("expected text that is not spaces alone, found '{}'", ShownName(text));
  }
  return "";
}

// Adds TextProblem(text) for `field` when `text` is set and has one.
void CheckText(std::string_view field, std::string_view text, ProblemList& out) {
  if (text.empty()) {
    return;
  }
  if (std::string problem = TextProblem(text); !problem.empty()) {
    out.AddText(std::string(field), std::move(problem));
  }
}

void CheckIdentity(const JobRequest& r, ProblemList& out) {
  if (!IsValidId(r.id)) {
    out.AddText("id", fmt::format("expected an id of letters, digits, '.', '_' or '-', found '{}'",
                                  ShownName(r.id)));
  }
  if (r.submit < 0) {
    out.Add("submit_s", fmt::format("expected a time >= 0, found {}", TimeToSeconds(r.submit)));
  }
  if (r.tenant.empty()) {
    out.AddText("tenant", "expected a non-empty tenant name, found ''");
  }
  CheckText("tenant", r.tenant, out);
  CheckText("priority_class", r.priority_class, out);
  CheckText("gres", r.gres, out);
  CheckText("resources", r.resources, out);
  if (r.priority < 1 || r.priority > kMaxPriority) {
    out.Add("priority",
            fmt::format("expected an integer in [1, {}], found {}", kMaxPriority, r.priority));
  }
}

void CheckSize(const JobRequest& r, ProblemList& out) {
  if (r.gpus < 0 || r.gpus > kMaxJobGpus) {
    out.Add("gpus", fmt::format("expected an integer in [0, {}], found {}", kMaxJobGpus, r.gpus));
  }
  if (r.gpus == 0 && r.cpu_milli == 0) {
    out.Add("gpus", "expected at least 1 GPU (a CPU-only job, gpus 0, must ask for cpu_milli), "
                    "found 0");
  }
  if (r.max_gpus != 0 && (r.max_gpus < r.gpus || r.max_gpus > kMaxJobGpus)) {
    out.Add("max_gpus", fmt::format("expected 0 (fixed size) or an integer in [gpus = {}, {}], "
                                    "found {}",
                                    r.gpus, kMaxJobGpus, r.max_gpus));
  }
  if (r.pow2_block && (!IsPowerOfTwo(r.gpus) || !IsPowerOfTwo(r.MaxGpus()))) {
    out.Add("pow2_block", fmt::format("a power-of-two block job needs power-of-two gpus and "
                                      "max_gpus, found {} and {}",
                                      r.gpus, r.MaxGpus()));
  }
  // Models named through gres are reported there, where the user wrote them.
  const char* models = r.gres.empty() ? "gpu_models" : "gres";
  for (const std::string& model : r.gpu_models) {
    if (model.empty()) {
      out.AddText(models, "expected GPU model names, found an empty name");
    } else if (model.find('|') != std::string::npos) {
      out.AddText(models, fmt::format("expected GPU model names without '|' (it separates the "
                                      "names of a CSV cell), found '{}'",
                                      ShownName(model)));
    } else {
      CheckText(models, model, out);
    }
  }
}

void CheckSharing(const JobRequest& r, ProblemList& out) {
  if (r.gpu_milli < 1 || r.gpu_milli > kWholeGpuMilli) {
    out.Add("gpu_milli", fmt::format("expected an integer in [1, 1000], found {}", r.gpu_milli));
  }
  if (r.gpu_memory_gb < 0) {
    out.Add("gpu_memory_gb", fmt::format("expected a size >= 0, found {}", r.gpu_memory_gb));
  }
  const bool partial = r.sharing != GpuSharing::kNone;
  if (partial && (r.gpus != 1 || r.MaxGpus() != 1)) {
    out.Add("sharing", fmt::format("'{}' sharing needs exactly 1 GPU, found gpus {} max_gpus {}",
                                   GpuSharingName(r.sharing), r.gpus, r.MaxGpus()));
  }
  if (r.sharing == GpuSharing::kNone && r.gpu_milli != kWholeGpuMilli && r.gpus > 0) {
    out.Add("gpu_milli", fmt::format("a share below 1000 needs sharing 'fraction' or 'mig', "
                                     "found {} with sharing 'none'",
                                     r.gpu_milli));
  }
  if (r.sharing == GpuSharing::kMig && r.gpu_memory_gb <= 0) {
    out.Add("gpu_memory_gb", "'mig' sharing needs the memory per GPU (> 0), found 0");
  }
}

void CheckHostAndTimes(const JobRequest& r, ProblemList& out) {
  if (r.cpu_milli < 0) {
    out.Add("cpu_milli", fmt::format("expected an integer >= 0, found {}", r.cpu_milli));
  }
  if (r.memory_mib < 0) {
    out.Add("memory_mib", fmt::format("expected an integer >= 0, found {}", r.memory_mib));
  }
  if (r.checkpoint_interval < 0 || r.checkpoint_cost < 0) {
    out.Add("checkpoint_interval_s", "expected checkpoint interval and cost >= 0");
  }
  if (r.checkpoint_interval == 0 && r.checkpoint_cost > 0) {
    out.Add("checkpoint_cost_s", "a checkpoint cost needs a checkpoint interval, found none");
  }
  if (r.restart_cost < 0) {
    out.Add("restart_cost_s",
            fmt::format("expected a restart cost >= 0, found {}", TimeToSeconds(r.restart_cost)));
  }
  if (r.walltime_estimate < 0) {
    out.Add("walltime_s", fmt::format("expected a duration >= 0, found {}",
                                      TimeToSeconds(r.walltime_estimate)));
  }
  if (r.deadline != kTimeNever && r.deadline < r.submit) {
    out.Add("deadline_s", fmt::format("expected a deadline at or after submit_s {}, found {}",
                                      TimeToSeconds(r.submit), TimeToSeconds(r.deadline)));
  }
}

void CheckDemand(const JobRequest& r, ProblemList& out) {
  const bool realtime = r.kind == JobKind::kRealtimeInference;
  if (!r.demand) {
    return;
  }
  if (!realtime) {
    out.Add("demand", fmt::format("a demand curve needs kind 'realtime-inference', found '{}'",
                                  JobKindName(r.kind)));
  }
  const DemandCurve& d = *r.demand;
  if (d.step <= 0) {
    out.Add("demand.step_s", "expected a step > 0");
  }
  if (d.gpus.empty()) {
    out.Add("demand.gpus", "expected at least one step of demand, found none");
  }
  for (const std::int64_t g : d.gpus) {
    if (g < 0 || g > r.MaxGpus()) {
      out.Add("demand.gpus", fmt::format("expected demands in [0, max_gpus = {}], found {}",
                                         r.MaxGpus(), g));
      break;
    }
  }
  if (d.swap_cap < 0) {
    out.Add("demand.swap_cap", fmt::format("expected an integer >= 0, found {}", d.swap_cap));
  }
}

void CheckTruth(const JobTruth& t, ProblemList& out) {
  CheckText("recorded_state", t.recorded_state, out);
  const bool has_duration = t.duration != 0;
  const bool has_work = t.work_gpu_hours != 0;
  if (has_duration == has_work) {
    out.Add("duration_s", has_duration ? "expected either duration_s or work_gpu_hours, found both"
                                       : "expected duration_s or work_gpu_hours, found neither");
  }
  if (t.duration < 0) {
    out.Add("duration_s",
            fmt::format("expected a duration > 0, found {}", TimeToSeconds(t.duration)));
  }
  if (t.work_gpu_hours < 0) {
    out.Add("work_gpu_hours", fmt::format("expected work > 0, found {}", t.work_gpu_hours));
  }
}

}  // namespace

std::int64_t DemandCurve::At(SimTime t) const {
  FLEETSIM_CHECK(step > 0 && !gpus.empty() && t >= 0, "demand curve queried out of its domain");
  return gpus[static_cast<std::size_t>((t / step) % static_cast<SimTime>(gpus.size()))];
}

std::int64_t DemandCurve::Peak() const {
  return gpus.empty() ? 0 : *std::max_element(gpus.begin(), gpus.end());
}

void SortBySubmit(Workload& workload) {
  std::stable_sort(workload.jobs.begin(), workload.jobs.end(), [](const Job& a, const Job& b) {
    if (a.request.submit != b.request.submit) {
      return a.request.submit < b.request.submit;
    }
    return a.request.id < b.request.id;
  });
}

const char* JobKindName(JobKind kind) { return NameOf(kKindNames, kind); }
const char* NvlinkLocalityName(NvlinkLocality locality) { return NameOf(kLocalityNames, locality); }
const char* GpuSharingName(GpuSharing sharing) { return NameOf(kSharingNames, sharing); }
std::optional<JobKind> ParseJobKind(const std::string& name) { return ValueOf(kKindNames, name); }
std::optional<NvlinkLocality> ParseNvlinkLocality(const std::string& name) {
  return ValueOf(kLocalityNames, name);
}
std::optional<GpuSharing> ParseGpuSharing(const std::string& name) {
  return ValueOf(kSharingNames, name);
}
std::vector<std::string> JobKindNames() { return NamesOf(kKindNames); }
std::vector<std::string> NvlinkLocalityNames() { return NamesOf(kLocalityNames); }
std::vector<std::string> GpuSharingNames() { return NamesOf(kSharingNames); }

std::vector<JobProblem> ProblemsWith(const Job& job) {
  ProblemList out;
  CheckIdentity(job.request, out);
  CheckSize(job.request, out);
  CheckSharing(job.request, out);
  CheckHostAndTimes(job.request, out);
  CheckDemand(job.request, out);
  CheckTruth(job.truth, out);
  return out.Take();
}

}  // namespace fleetsim
