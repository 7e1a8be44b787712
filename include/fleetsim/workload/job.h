// Jobs, split the way a real scheduler sees them:
//  - JobRequest is what a user submits and a policy may read: identity, owner, priority, kind,
//    size (a GPU count or a min..max range), shape and placement constraints (power-of-two block,
//    GPU models, NVLink locality, MIG or fractional sharing), host CPU and memory, preemption and
//    spot eligibility, checkpointing, a walltime estimate, a deadline, and for real-time
//    inference a demand curve;
//  - JobTruth is what only the simulator knows: how much work the job really is, as a run time or
//    as reference GPU-hours (converted to a run time by the speed model where it lands).
// The simulation hands policies requests only; the truth stays inside the engine.
// docs/trace-formats.md documents every field. Value types; thread-compatible.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fleetsim/core/time.h"

namespace fleetsim {

// Position of a job in its workload (dense, 0-based); the engine's handle for a job.
using JobIndex = std::uint32_t;

enum class JobKind {
  kUnspecified,  // traces that do not say; transforms can assign kinds by rule
  kPretraining,
  kFineTuning,
  kBatchInference,
  kRealtimeInference,
  kQuantization,
  kInteractive,
};

// Whether the job's GPUs must (or should) sit in one NVLink domain.
enum class NvlinkLocality { kNone, kPreferred, kRequired };

// How a job with gpus == 1 may take less than a whole GPU.
enum class GpuSharing {
  kNone,      // whole GPUs only
  kMig,       // a MIG instance: the smallest profile with at least gpu_memory_gb (and gpu_milli)
  kFraction,  // a time-sliced share of gpu_milli thousandths of one GPU
};

// Real-time inference: GPUs wanted per step, repeating. Step i covers absolute simulated time
// [i * step, (i + 1) * step), so a 24-value hourly curve is a daily profile aligned to time 0.
struct DemandCurve {
  SimDuration step = 0;            // > 0
  std::vector<std::int64_t> gpus;  // GPUs wanted per step, cyclic; non-empty, each >= 0
  std::int64_t swap_cap = 0;       // most GPUs it may gain or lose between steps; 0 = no cap

  std::int64_t At(SimTime t) const;  // demand in the step containing t (t >= 0)
  std::int64_t StepIndex(SimTime t) const { return t / step; }  // steps are aligned to time 0
  std::int64_t Peak() const;
};

inline constexpr std::int64_t kWholeGpuMilli = 1000;
inline constexpr std::int64_t kMaxJobGpus = 1'000'000;
inline constexpr std::int64_t kMaxPriority = 1'000'000;

struct JobRequest {
  std::string id;  // unique within a workload
  SimTime submit = 0;
  std::string tenant = "default";  // team or user the job is accounted to
  std::string priority_class;      // a trace's class label ("LS", "BE", "prod"...); "" if none
  std::int64_t priority = 1;       // weight, 1..kMaxPriority; larger is more important
  JobKind kind = JobKind::kUnspecified;

  std::int64_t gpus = 1;      // GPUs needed (the minimum of a range); 0 only for CPU-only jobs
  std::int64_t max_gpus = 0;  // the most it can use; 0 = a fixed size of exactly `gpus`
  bool pow2_block = false;    // needs a power-of-two, aligned, contiguous block of GPUs
  std::vector<std::string> gpu_models;  // acceptable catalog models; empty = any
  NvlinkLocality nvlink = NvlinkLocality::kNone;
  GpuSharing sharing = GpuSharing::kNone;
  std::int64_t gpu_milli = kWholeGpuMilli;  // share of each GPU, 1..1000 (< 1000: kFraction)
  double gpu_memory_gb = 0;                 // memory needed per GPU; 0 = not stated

  std::int64_t cpu_milli = 0;   // host CPU for the whole job, in thousandths of a core
  std::int64_t memory_mib = 0;  // host memory for the whole job

  // The request as the user wrote it, when it was given in a scheduler's words rather than in the
  // fields above (which it then sets): a Slurm GRES ("gpu:h100:8") or Kubernetes resources
  // ("nvidia.com/gpu=2,cpu=8"). Empty otherwise; at most one of the two is set.
  std::string gres;
  std::string resources;

  bool preemptible = false;
  bool spot_eligible = true;
  SimDuration checkpoint_interval = 0;  // 0 = never checkpoints
  SimDuration checkpoint_cost = 0;      // pause per checkpoint (per node spanned if not sharded)
  bool checkpoint_sharded = true;       // every node writes its own shard; false: one writer
  SimDuration restart_cost = 0;         // pause when it resumes from a checkpoint or is resized
  SimDuration walltime_estimate = 0;    // the user's estimate; 0 = none given
  SimTime deadline = kTimeNever;        // kTimeNever = none

  std::optional<DemandCurve> demand;  // real-time inference only

  bool IsCpuOnly() const { return gpus == 0; }
  std::int64_t MaxGpus() const { return max_gpus == 0 ? gpus : max_gpus; }
  bool IsElastic() const { return MaxGpus() > gpus; }
};

// Exactly one of duration and work_gpu_hours is set (> 0).
struct JobTruth {
  SimDuration duration = 0;   // run time once started, whatever it lands on
  double work_gpu_hours = 0;  // work in GPU-hours of the reference GPU (speed model)
  // How the job ended on the cluster its trace recorded, in that scheduler's words (sacct's
  // State: COMPLETED, TIMEOUT, CANCELLED, FAILED, NODE_FAIL...); "" when the trace does not say.
  // History, not a request: the simulation does not act on it; jobs.csv shows it beside the
  // simulated state.
  std::string recorded_state;
};

struct Job {
  JobRequest request;
  JobTruth truth;
};

// A workload: jobs sorted by (submit, id), indexed by JobIndex.
struct Workload {
  std::vector<Job> jobs;
};

// Sorts jobs by (submit time, id) — the order arrivals are scheduled in.
void SortBySubmit(Workload& workload);

// Names used in files and reports ("fine-tuning", "required", "mig"), and their inverses.
const char* JobKindName(JobKind kind);
const char* NvlinkLocalityName(NvlinkLocality locality);
const char* GpuSharingName(GpuSharing sharing);
std::optional<JobKind> ParseJobKind(const std::string& name);
std::optional<NvlinkLocality> ParseNvlinkLocality(const std::string& name);
std::optional<GpuSharing> ParseGpuSharing(const std::string& name);
std::vector<std::string> JobKindNames();
std::vector<std::string> NvlinkLocalityNames();
std::vector<std::string> GpuSharingNames();

// A problem with one field of a job: the field's name as written in the native trace formats
// (docs/trace-formats.md) and what is wrong, "expected ..., found ...".
struct JobProblem {
  std::string field;
  std::string message;
  bool text = false;  // a name or other text that is not allowed (else a value out of range)
};

// Every way the job breaks the rules that do not depend on a fleet or catalog: ranges, a
// fraction only on one GPU, max_gpus >= gpus, power-of-two sizes for block jobs, exactly one of
// duration and work, a demand curve only on real-time inference jobs... Empty when valid.
std::vector<JobProblem> ProblemsWith(const Job& job);

}  // namespace fleetsim
