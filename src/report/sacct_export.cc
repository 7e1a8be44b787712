// sacct rows of a run's jobs: states in Slurm's words, TRES strings of what each job asked for
// and held, host lists of its last placement.
#include "fleetsim/report/sacct_export.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>

#include "fleetsim/report/fleet_hosts.h"
#include "text/text_fields.h"
#include "text/utc_time.h"

namespace fleetsim {

namespace {

constexpr const char* kHeader =
    "JobID|User|Account|Partition|Submit|Start|End|Elapsed|Timelimit|AllocTRES|ReqTRES|State|"
    "NodeList\n";

// sacct neither quotes nor escapes: a delimiter or line break in a name would break the row.
std::string Field(const std::string& text) {
  std::string out = text;
  for (char& c : out) {
    if (c == '|' || c == '\n' || c == '\r') {
      c = '_';
    }
  }
  return out;
}

std::int64_t WholeSeconds(SimTime time) { return time / kMillisPerSecond; }

// What a job held last: its final segment in the timeline.
struct LastPlacement {
  std::vector<GpuId> gpus;
  double gpu_share = 0;
};

std::vector<std::optional<LastPlacement>> LastPlacements(const AllocationTimelineData& timeline,
                                                         std::size_t jobs) {
  std::vector<std::optional<LastPlacement>> last(jobs);
  for (const TimelineSegment& segment : timeline.segments) {
    last[segment.job] = LastPlacement{.gpus = segment.gpus, .gpu_share = segment.gpu_share};
  }
  return last;
}

// The MIG profile of an instance of `model` holding `share` of a GPU's compute for a job that
// needs `memory_gb`: the smallest such profile without media extensions.
const MigProfile* MigProfileOf(const GpuModel& model, double share, double memory_gb) {
  const int slices = static_cast<int>(std::lround(share * kMigComputeSlices));
  const MigProfile* best = nullptr;
  for (const MigProfile& profile : model.mig_profiles) {
    if (profile.compute_slices == slices && !profile.media_extensions &&
        profile.memory_gb >= memory_gb &&
        (best == nullptr || profile.memory_gb < best->memory_gb)) {
      best = &profile;
    }
  }
  return best;
}

// "mem=64G" (whole GiB) or "mem=1500M".
std::string MemoryEntry(std::int64_t mib) {
  return mib % 1024 == 0 ? fmt::format("mem={}G", mib / 1024) : fmt::format("mem={}M", mib);
}

// billing=GPUs,cpu=...,mem=...,node=N,gres/gpu=G, then each typed entry.
std::string Tres(const JobRequest& request, std::int64_t gpus, std::int64_t nodes,
                 const std::vector<std::pair<std::string, std::int64_t>>& types) {
  std::vector<std::string> entries = {fmt::format("billing={}", gpus)};
  if (request.cpu_milli > 0) {
    entries.push_back(fmt::format("cpu={}", (request.cpu_milli + 999) / 1000));
  }
  if (request.memory_mib > 0) {
    entries.push_back(MemoryEntry(request.memory_mib));
  }
  entries.push_back(fmt::format("node={}", nodes));
  if (gpus > 0) {
    entries.push_back(fmt::format("gres/gpu={}", gpus));
  }
  for (const auto& [type, count] : types) {
    entries.push_back(fmt::format("gres/gpu:{}={}", type, count));
  }
  return fmt::format("{}", fmt::join(entries, ","));
}

// The GRES types of a placement: one per model held, counted by GPU; a MIG instance as
// "<model>_<profile>".
std::vector<std::pair<std::string, std::int64_t>> HeldTypes(const FleetHosts& hosts,
                                                            const JobRequest& request,
                                                            const LastPlacement& held) {
  std::map<std::string, std::int64_t> types;
  for (const GpuId gpu : held.gpus) {
    const GpuModel* model = hosts.gpus[gpu].model;
    if (model == nullptr) {
      continue;
    }
    std::string type = GresTypeOf(*model);
    if (request.sharing == GpuSharing::kMig) {
      if (const MigProfile* profile = MigProfileOf(*model, held.gpu_share, request.gpu_memory_gb)) {
        type += "_" + profile->name;
      }
    }
    ++types[type];
  }
  return {types.begin(), types.end()};
}

std::int64_t NodesOf(const FleetHosts& hosts, const std::vector<GpuId>& gpus) {
  std::vector<std::size_t> nodes;
  for (const GpuId gpu : gpus) {
    nodes.push_back(hosts.gpus[gpu].host);
  }
  std::sort(nodes.begin(), nodes.end());
  return std::unique(nodes.begin(), nodes.end()) - nodes.begin();
}

// The pools of a placement, comma-separated as sacct lists several partitions; "gpu" on a bare
// fleet or for a job that never held a GPU.
std::string PartitionOf(const FleetSpec& fleet, const FleetHosts& hosts,
                        const std::optional<LastPlacement>& held) {
  std::vector<std::string> pools;
  for (const GpuId gpu : held ? held->gpus : std::vector<GpuId>{}) {
    const std::size_t pool = hosts.gpus[gpu].pool;
    if (!fleet.pools.empty() &&
        std::find(pools.begin(), pools.end(), fleet.pools[pool].name) == pools.end()) {
      pools.push_back(fleet.pools[pool].name);
    }
  }
  return pools.empty() ? "gpu" : Field(fmt::format("{}", fmt::join(pools, ",")));
}

const char* SlurmState(FinalState state) {
  switch (state) {
    case FinalState::kCompleted:
      return "COMPLETED";
    case FinalState::kRunning:
      return "RUNNING";
    case FinalState::kQueued:
      return "PENDING";
    case FinalState::kRejected:
      return "CANCELLED";
    case FinalState::kNotSubmitted:
      break;
  }
  return "";
}

// The timelimit: the walltime estimate rounded up to the second, or UNLIMITED.
std::string Timelimit(const JobRequest& request) {
  if (request.walltime_estimate <= 0) {
    return "UNLIMITED";
  }
  return FormatSlurmDuration((request.walltime_estimate + kMillisPerSecond - 1) / kMillisPerSecond);
}

struct RowContext {
  const FleetSpec& fleet;
  const FleetHosts& hosts;
  std::int64_t epoch = 0;
  SimTime run_end = 0;
};

// Start, End and Elapsed as sacct shows a job in `row`'s final state.
struct RowTimes {
  std::string start = "Unknown";
  std::string end = "Unknown";
  std::int64_t elapsed = 0;
};

RowTimes TimesOf(const RowContext& c, const JobRecordRow& row) {
  RowTimes times;
  const auto when = [&](SimTime time) {
    return FormatUtcTimestamp(c.epoch + WholeSeconds(time), 'T');
  };
  if (row.state == FinalState::kCompleted) {
    times = {when(row.start), when(row.end), WholeSeconds(row.end) - WholeSeconds(row.start)};
  } else if (row.state == FinalState::kRunning) {
    times.start = when(row.start);
    times.elapsed = WholeSeconds(c.run_end) - WholeSeconds(row.start);
  } else if (row.state == FinalState::kRejected) {
    times = {"None", when(row.submit), 0};
  }
  return times;
}

// The GRES types a job asked for (ReqTRES): those it holds when they add up to its request (an
// elastic job may hold more: one type is scaled to the request, several are left out); for a
// job that holds nothing, the model it named, if exactly one.
std::vector<std::pair<std::string, std::int64_t>> AskedTypes(
    const JobRequest& request, const std::vector<std::pair<std::string, std::int64_t>>& held) {
  if (held.empty()) {
    if (request.gpu_models.size() == 1 && request.sharing != GpuSharing::kMig) {
      return {{AsciiLower(request.gpu_models.front()), request.gpus}};
    }
    return {};
  }
  std::int64_t count = 0;
  for (const auto& [type, gpus] : held) {
    count += gpus;
  }
  if (count == request.gpus) {
    return held;
  }
  return held.size() == 1
             ? std::vector<std::pair<std::string, std::int64_t>>{{held.front().first, request.gpus}}
             : std::vector<std::pair<std::string, std::int64_t>>{};
}

std::string Row(const RowContext& c, const JobRecordRow& row, const JobRequest& request,
                const std::optional<LastPlacement>& held) {
  const RowTimes times = TimesOf(c, row);
  // Only a job that ran to the end or still runs has an allocation; a job preempted back into
  // the queue has none, whatever it held before.
  const bool allocated = row.state == FinalState::kCompleted || row.state == FinalState::kRunning;
  const bool holds = allocated && held && !held->gpus.empty();
  const auto types = holds ? HeldTypes(c.hosts, request, *held)
                           : std::vector<std::pair<std::string, std::int64_t>>{};
  const std::int64_t nodes = holds ? NodesOf(c.hosts, held->gpus) : 1;
  const std::int64_t gpus_held = holds ? static_cast<std::int64_t>(held->gpus.size()) : 0;
  std::vector<std::pair<std::string, std::int64_t>> asked = AskedTypes(request, types);
  const std::string tenant = Field(row.tenant);
  return fmt::format("{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}\n", row.id, tenant, tenant,
                     PartitionOf(c.fleet, c.hosts, held),
                     FormatUtcTimestamp(c.epoch + WholeSeconds(row.submit), 'T'), times.start,
                     times.end, FormatSlurmDuration(times.elapsed), Timelimit(request),
                     allocated ? Tres(request, gpus_held, nodes, types) : "",
                     Tres(request, request.gpus, nodes, asked), SlurmState(row.state),
                     holds ? HostListOf(c.hosts, held->gpus) : "None assigned");
}

}  // namespace

std::string GresTypeOf(const GpuModel& model) { return AsciiLower(model.name); }

std::string SacctExport(const RunReport& report, const Workload& workload, const FleetSpec& fleet,
                        std::int64_t epoch) {
  const FleetHosts hosts = HostsOf(fleet);
  const std::vector<std::optional<LastPlacement>> held =
      LastPlacements(*report.timeline, report.jobs.size());
  const RowContext context{
      .fleet = fleet, .hosts = hosts, .epoch = epoch, .run_end = report.timeline->window_end};
  std::string out = kHeader;
  for (std::size_t job = 0; job < report.jobs.size(); ++job) {
    if (report.jobs[job].state != FinalState::kNotSubmitted) {
      out += Row(context, report.jobs[job], workload.jobs[job].request, held[job]);
    }
  }
  return out;
}

}  // namespace fleetsim
