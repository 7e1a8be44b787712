// dcgm-exporter series of a run: per GPU, the jobs' shares and memory and the node outages as
// step functions of time, sampled at every interval.
#include "fleetsim/report/dcgm_export.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace fleetsim {

namespace {

constexpr std::int64_t kMicro = 1'000'000;  // GPU shares are summed in millionths

// A change of one GPU's state at `time`.
struct Change {
  SimTime time = 0;
  std::int64_t share = 0;     // millionths of the GPU held
  std::int64_t memory = 0;    // MiB used
  std::int64_t down = 0;      // outages under way
  std::int64_t failures = 0;  // of which hardware failures
};

// One GPU at one sample.
struct Sample {
  double share = 0;  // of the GPU held by jobs, in [0, 1]
  std::int64_t memory = 0;
  bool down = false;
  bool failed = false;
};

std::int64_t ModelMemoryMib(const GpuModel* model) {
  return model == nullptr ? 0 : std::llround(model->memory_gb * 1024);
}

// MiB a job uses on each GPU it holds: the memory it asked for per GPU, else its share of the
// GPU's memory (nothing on a bare fleet, whose GPUs have no model).
std::int64_t JobMemoryMib(const JobRequest& request, double share, const GpuModel* model) {
  const std::int64_t capacity = ModelMemoryMib(model);
  if (request.gpu_memory_gb > 0) {
    const std::int64_t asked = std::llround(request.gpu_memory_gb * 1024);
    return model == nullptr ? asked : std::min(asked, capacity);
  }
  return std::llround(share * static_cast<double>(capacity));
}

std::vector<std::vector<Change>> ChangesByGpu(const AllocationTimelineData& timeline,
                                              const Workload& workload, const FleetHosts& hosts) {
  std::vector<std::vector<Change>> changes(hosts.gpus.size());
  for (const TimelineSegment& segment : timeline.segments) {
    if (segment.gpus.empty() || segment.end <= segment.start) {
      continue;
    }
    const double share = segment.gpu_share / static_cast<double>(segment.gpus.size());
    const JobRequest& request = workload.jobs[segment.job].request;
    for (const GpuId gpu : segment.gpus) {
      const std::int64_t micro = std::llround(share * kMicro);
      const std::int64_t memory = JobMemoryMib(request, share, hosts.gpus[gpu].model);
      changes[gpu].push_back({.time = segment.start, .share = micro, .memory = memory});
      changes[gpu].push_back({.time = segment.end, .share = -micro, .memory = -memory});
    }
  }
  for (const DownSpan& span : timeline.down) {
    const std::int64_t failed = span.cause == NodeDownCause::kHardwareFailure ? 1 : 0;
    for (std::int64_t i = 0; i < span.gpus; ++i) {
      auto& gpu = changes[span.first_gpu + static_cast<GpuId>(i)];
      gpu.push_back({.time = span.start, .down = 1, .failures = failed});
      gpu.push_back({.time = span.end, .down = -1, .failures = -failed});
    }
  }
  for (auto& gpu : changes) {
    std::stable_sort(gpu.begin(), gpu.end(),
                     [](const Change& a, const Change& b) { return a.time < b.time; });
  }
  return changes;
}

// The GPU's state at every multiple of `interval` up to `samples` of them.
std::vector<Sample> SampleGpu(const std::vector<Change>& changes, const GpuModel* model,
                              SimDuration interval, std::int64_t samples) {
  std::vector<Sample> out;
  out.reserve(static_cast<std::size_t>(samples));
  Change now;
  std::size_t next = 0;
  const std::int64_t capacity = ModelMemoryMib(model);
  for (std::int64_t k = 0; k < samples; ++k) {
    const SimTime time = k * interval;
    for (; next < changes.size() && changes[next].time <= time; ++next) {
      now.share += changes[next].share;
      now.memory += changes[next].memory;
      now.down += changes[next].down;
      now.failures += changes[next].failures;
    }
    const std::int64_t share = std::clamp<std::int64_t>(now.share, 0, kMicro);
    const std::int64_t memory = std::max<std::int64_t>(now.memory, 0);
    out.push_back({.share = static_cast<double>(share) / kMicro,
                   .memory = model == nullptr ? memory : std::min(memory, capacity),
                   .down = now.down > 0,
                   .failed = now.failures > 0});
  }
  return out;
}

// OpenMetrics label value escaping.
std::string Escaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '\\' || c == '"') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::vector<std::string> LabelsOf(const FleetHosts& hosts) {
  std::vector<std::string> labels;
  for (GpuId gpu = 0; gpu < hosts.gpus.size(); ++gpu) {
    const HostGpu& where = hosts.gpus[gpu];
    labels.push_back(
        fmt::format(R"({{gpu="{}",UUID="{}",device="nvidia{}",modelName="{}",Hostname="{}"}})",
                    where.index, GpuUuid(hosts, gpu), where.index,
                    Escaped(where.model == nullptr ? "unknown" : NvidiaProductName(*where.model)),
                    Escaped(hosts.hosts[where.host].Text())));
  }
  return labels;
}

struct Family {
  const char* name;
  const char* help;
};

// One family: HELP, TYPE, then every GPU's series in time order; `value` gives a sample's text,
// or "" to leave the GPU out of the family.
template <typename ValueOf>
void WriteFamily(std::string& out, const Family& family, const std::vector<std::string>& labels,
                 const std::vector<std::vector<Sample>>& samples, const DcgmExportOptions& options,
                 ValueOf value) {
  out += fmt::format("# HELP {} {}\n# TYPE {} gauge\n", family.name, family.help, family.name);
  for (std::size_t gpu = 0; gpu < samples.size(); ++gpu) {
    for (std::size_t k = 0; k < samples[gpu].size(); ++k) {
      const std::string text = value(gpu, samples[gpu][k]);
      if (text.empty()) {
        break;
      }
      out += fmt::format("{}{} {} {}\n", family.name, labels[gpu], text,
                         options.epoch + static_cast<std::int64_t>(k) * options.interval_s);
    }
  }
}

std::uint64_t Fnv1a(const std::string& text, std::uint64_t hash) {
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  return hash;
}

}  // namespace

std::int64_t DcgmSampleCount(const RunReport& report, std::int64_t interval_s) {
  const SimTime end = report.timeline->window_end;
  return end <= 0 ? 1 : (end - 1) / (interval_s * kMillisPerSecond) + 1;
}

Status CheckDcgmExportSize(const RunReport& report, std::int64_t interval_s) {
  const std::int64_t gpus = std::max<std::int64_t>(report.timeline->fleet_gpus, 1);
  const std::int64_t samples = DcgmSampleCount(report, interval_s);
  if (samples <= kMaxDcgmPoints / gpus) {
    return Status::Ok();
  }
  // The fewest milliseconds between samples that keep (end - 1) / interval + 1 within the limit.
  const SimTime end = report.timeline->window_end;
  const std::int64_t max_samples = kMaxDcgmPoints / gpus;  // >= 1: fleets hold <= 10^6 GPUs
  const std::int64_t fitting_ms = (end - 1) / max_samples + 1;
  return Status::InvalidInput(fmt::format(
      "--dcgm: {} samples of {} GPUs (every {} s over {} s) is more than {} samples x GPUs; use "
      "a larger --interval, at least {}s",
      samples, gpus, interval_s, (end + kMillisPerSecond - 1) / kMillisPerSecond, kMaxDcgmPoints,
      (fitting_ms + kMillisPerSecond - 1) / kMillisPerSecond));
}

std::string NvidiaProductName(const GpuModel& model) {
  static const std::map<std::string, std::string> names = {
      {"A10", "NVIDIA A10"},
      {"A100-40GB", "NVIDIA A100-SXM4-40GB"},
      {"A100-80GB", "NVIDIA A100-SXM4-80GB"},
      {"B200", "NVIDIA B200"},
      {"H100-NVL", "NVIDIA H100 NVL"},
      {"H100-SXM", "NVIDIA H100 80GB HBM3"},
      {"H200", "NVIDIA H200"},
      {"H200-NVL", "NVIDIA H200 NVL"},
      {"L40S", "NVIDIA L40S"},
      {"T4", "Tesla T4"},
      {"V100-16GB", "Tesla V100-SXM2-16GB"},
      {"V100-32GB", "Tesla V100-SXM2-32GB"},
  };
  const auto found = names.find(model.name);
  return found != names.end() ? found->second : "NVIDIA " + model.name;
}

std::string GpuUuid(const FleetHosts& hosts, GpuId gpu) {
  const std::string where =
      fmt::format("{}/{}", hosts.hosts[hosts.gpus[gpu].host].Text(), hosts.gpus[gpu].index);
  const std::uint64_t high = Fnv1a(where, 14695981039346656037ULL);
  const std::uint64_t low = Fnv1a("uuid:" + where, 14695981039346656037ULL);
  return fmt::format("GPU-{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", high >> 32, (high >> 16) & 0xffff,
                     high & 0xffff, low >> 48, low & 0xffffffffffffULL);
}

std::string DcgmExport(const RunReport& report, const Workload& workload, const FleetSpec& fleet,
                       const DcgmExportOptions& options) {
  const FleetHosts hosts = HostsOf(fleet);
  const std::vector<std::string> labels = LabelsOf(hosts);
  const std::vector<std::vector<Change>> changes = ChangesByGpu(*report.timeline, workload, hosts);
  const std::int64_t count = DcgmSampleCount(report, options.interval_s);
  std::vector<std::vector<Sample>> samples;
  for (GpuId gpu = 0; gpu < hosts.gpus.size(); ++gpu) {
    samples.push_back(SampleGpu(changes[gpu], hosts.gpus[gpu].model,
                                options.interval_s * kMillisPerSecond, count));
  }
  std::string out;
  WriteFamily(
      out, {"DCGM_FI_DEV_GPU_UTIL", "GPU utilization (in %)."}, labels, samples, options,
      [](std::size_t, const Sample& s) { return fmt::format("{}", std::round(100 * s.share)); });
  WriteFamily(out, {"DCGM_FI_DEV_FB_USED", "Framebuffer memory used (in MiB)."}, labels, samples,
              options, [](std::size_t, const Sample& s) { return fmt::format("{}", s.memory); });
  WriteFamily(out, {"DCGM_FI_DEV_POWER_USAGE", "Power draw (in W)."}, labels, samples, options,
              [&](std::size_t gpu, const Sample& s) -> std::string {
                const GpuModel* model = hosts.gpus[gpu].model;
                if (model == nullptr || !model->tdp_w) {
                  return "";
                }
                const double watts =
                    s.down ? 0
                           : *model->tdp_w * (kIdlePowerShare + (1 - kIdlePowerShare) * s.share);
                return fmt::format("{:.6f}", watts);
              });
  WriteFamily(out, {"DCGM_FI_DEV_XID_ERRORS", "Value of the last XID error encountered."}, labels,
              samples, options, [](std::size_t, const Sample& s) {
                return fmt::format("{}", s.failed ? kFailureXid : 0);
              });
  out += "# EOF\n";
  return out;
}

}  // namespace fleetsim
