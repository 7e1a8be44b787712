// Deterministic workload transforms, applied in scenario order to the combined jobs (listed,
// trace and generated) before the final sort by submit time: a time window, arrival-rate
// scaling, sampling N jobs, shuffling which job arrives at which instant, assigning tenants,
// priorities and kinds by rules or a weighted mix, fitting GPU counts to node shapes,
// replicating every job, and modelling walltime estimates.
// Each keeps every job valid (ProblemsWith stays empty) and returns a short report. A transform
// that draws numbers uses its own stream "workload.transform.<index>.<name>" (or the same name
// under its own seed), so adding a transform never changes what another draws.
// docs/scenario-format.md documents each one. Pure functions of their inputs; thread-compatible.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "fleetsim/core/random.h"
#include "fleetsim/workload/generator.h"
#include "fleetsim/workload/job.h"

namespace fleetsim {

// Keeps jobs submitted in [from, to); with `shift`, moves them so that `from` becomes time 0.
struct TimeWindow {
  SimTime from = 0;
  SimTime to = kTimeNever;  // kTimeNever: no end
  bool shift = false;
};

// Divides every submit time by `factor` (> 0): 2 doubles the arrival rate.
struct ScaleArrivals {
  double factor = 1;
};

// Keeps `jobs` jobs chosen uniformly without replacement, in their existing relative order.
struct SampleJobs {
  std::int64_t jobs = 0;
  std::optional<std::uint64_t> seed{};  // set: drawn under this seed, not the run's
};

// Permutes which job arrives at which of the existing submit times.
struct ShuffleArrivals {
  std::optional<std::uint64_t> seed{};
};

// Half-open [min, max) or closed [min, max] ranges for rule predicates.
struct IntBounds {
  std::int64_t min = 0;
  std::int64_t max = kMaxJobGpus;  // inclusive
};
struct DurationBounds {
  SimDuration min = 0;
  SimDuration max = kTimeNever;  // exclusive
};

// What a rule matches; every field that is set must hold.
struct JobPredicate {
  std::optional<IntBounds> gpus{};  // the request's gpus
  // The job's true duration (read from JobTruth: the transform sees what policies cannot).
  // A job given as work_gpu_hours has no duration and never matches.
  std::optional<DurationBounds> duration{};
  std::optional<std::string> tenant{};
  std::optional<std::string> priority_class{};
  std::optional<JobKind> kind{};

  bool Matches(const Job& job) const;
};

// Fields a rule or the mix sets; unset fields are left alone. The life-cycle fields (checkpoints,
// restart cost, preemptible, spot eligibility) are set by rules only.
struct FieldValues {
  std::optional<std::string> tenant{};
  std::optional<std::string> priority_class{};
  std::optional<std::int64_t> priority{};
  std::optional<JobKind> kind{};
  std::optional<SimDuration> checkpoint_interval{};
  std::optional<SimDuration> checkpoint_cost{};  // dropped (0) for a job left without an interval
  std::optional<bool> checkpoint_sharded{};
  std::optional<SimDuration> restart_cost{};
  std::optional<bool> preemptible{};
  std::optional<bool> spot_eligible{};
};

struct AssignRule {
  JobPredicate when{};
  FieldValues set{};
};

// Weighted draws, one per listed field, for jobs no rule matched.
struct FieldMix {
  Weighted<std::string> tenant{};
  Weighted<std::string> priority_class{};
  WeightedValues priority{};
  Weighted<JobKind> kind{};
};

// Rules in order, the first match wins; jobs matching none get the mix. A job with a demand
// curve keeps kind realtime-inference whatever a rule or the mix says.
struct AssignFields {
  std::vector<AssignRule> rules{};
  FieldMix mix{};
  std::optional<std::uint64_t> seed{};
};

// Maps GPU counts onto nodes of `gpus_per_node` GPUs: counts of a node or more round up to a
// multiple of it; smaller ones round up to a power of two (capped at the node size) or stay;
// power-of-two block jobs always round up to a power of two. Jobs still above `max_gpus` are
// dropped or clamped to the largest fitting size at most `max_gpus`. CPU-only jobs stay.
struct FitToNodes {
  std::int64_t gpus_per_node = 8;
  bool round_small_to_pow2 = true;
  std::int64_t max_gpus = 0;   // 0: no cap
  bool drop_above_max = true;  // false: clamp
};

// Makes `copies` copies of every job (the first is the job itself): copy k (1-based after the
// original) is submitted k x `offset` later (its deadline keeps its slack) and has the id
// "<id>.r<k>" (with '_' appended until no job has it). A workload scaled up for what-if sizing.
struct Replicate {
  std::int64_t copies = 2;
  SimDuration offset = 0;
};

// How walltime estimates are made for jobs whose true run time is known: exactly it, it times
// `factor`, or it times a lognormal error of median `factor` and log-spread `sigma`; then
// optionally rounded up to the limits users ask for (kCommonWalltimeLimits). Applied to jobs
// without an estimate, or (`all`) to every job. Jobs given as work have no run time and keep
// theirs. Gives backfill something to plan with on traces that carry no estimates.
enum class WalltimeEstimate { kExact, kFactor, kLognormal };
struct WalltimeModel {
  WalltimeEstimate estimate = WalltimeEstimate::kExact;
  double factor = 1;
  double sigma = 0.5;
  bool round_to_common_limits = false;
  bool all = false;  // false: only jobs without an estimate
  std::optional<std::uint64_t> seed{};
};

// The walltime limits WalltimeModel rounds up to: 15 and 30 minutes; 1, 2, 4, 8, 12 hours; 1, 2,
// 3 and 7 days; beyond 7 days, whole days.
inline constexpr std::int64_t kCommonWalltimeLimitsS[] = {900,   1800,  3600,   7200,   14400, 28800,
                                                          43200, 86400, 172800, 259200, 604800};

using TransformSpec = std::variant<TimeWindow, ScaleArrivals, SampleJobs, ShuffleArrivals,
                                   AssignFields, FitToNodes, Replicate, WalltimeModel>;

// What a transform did, one line each ("kept 120 of 500 jobs submitted in [0 s, 3600 s)").
struct TransformReport {
  std::vector<std::string> notes{};
};

// The scenario name of a transform ("window", "scale_arrivals", "sample", "shuffle", "assign",
// "fit_to_nodes", "replicate", "walltime_model"), also the last part of its stream name.
const char* TransformName(const TransformSpec& transform);

// Applies one transform, the `index`-th of its list (which names its stream), to `workload`,
// whose jobs may be in any order; they stay in their order (shuffle moves submit times, not
// jobs). Random transforms draw from `streams` unless they carry their own seed.
TransformReport ApplyTransform(const TransformSpec& transform, std::size_t index,
                               const RandomStreams& streams, Workload& workload);

}  // namespace fleetsim
