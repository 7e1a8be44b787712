// The input of the clairvoyant upper bound (`fleetsim bound`, docs/benchmark.md#measured-against-
// the-optimum): a scenario's jobs with their true run times and arrival times, its window and its
// fleet reduced to what the bound's model needs — the whole-GPU capacity and the sizes of the
// NVLink domains (for block alignment) — on a time grid of equal steps aligned to time 0.
//
// BoundProblemFromScenario checks that the scenario is of the kind the model is sound for and
// says exactly why not otherwise: a window (`run.until_s`), jobs given a run time (`duration_s`)
// on whole GPUs, no preemption and no interruptions (no preemptible job, no spot reclaims or
// failures), no static-MIG pool, and elastic jobs only as real-time services with a demand
// curve. What the model ignores (GPU models, host CPU and memory, NVLink preferences, restart
// pauses) only widens what a schedule may do, so the bound stays an upper bound; jobs no schedule
// can ever start (too large for the fleet or a domain, or submitted at or after the window's end)
// are left out, with the reason. Value types and pure functions; thread-compatible.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fleetsim/core/time.h"
#include "fleetsim/scenario/scenario.h"
#include "fleetsim/workload/job.h"

namespace fleetsim {

// The grid step when the scenario's services do not set one: an hour.
inline constexpr SimDuration kDefaultBoundStep = 3600 * kMillisPerSecond;

// A job that holds a fixed number of GPUs from its start for exactly its run time (every job
// given a duration and a fixed size: training, fine-tuning, batch inference, quantization, and a
// real-time job without a demand curve).
struct BoundBatchJob {
  std::string id{};
  std::int64_t priority = 1;
  std::int64_t gpus = 1;
  bool block = false;  // an aligned power-of-two block inside one NVLink domain (pow2_block)
  SimTime submit = 0;
  SimDuration duration = 0;
};

// A real-time service: elastic in [min_gpus, max_gpus] while it runs, valued at
// min(held, demand) per instant, resized within its swap cap per demand step (0: no cap).
struct BoundService {
  std::string id{};
  std::int64_t priority = 1;
  std::int64_t min_gpus = 1;
  std::int64_t max_gpus = 1;
  SimTime submit = 0;
  SimDuration duration = 0;  // its life once started
  DemandCurve demand{};
};

struct BoundProblem {
  std::string scenario{};  // the scenario's name
  std::uint64_t seed = 0;  // the workload's seed (the scenario's own)
  SimTime window_end = 0;  // run.until_s: output counts inside [0, window_end)
  SimDuration step = kDefaultBoundStep;
  std::int64_t gpus = 0;                 // whole GPUs of the fleet
  std::vector<std::int64_t> domains{};   // GPUs per NVLink domain, in fleet order
  std::vector<BoundBatchJob> batch{};    // in workload order
  std::vector<BoundService> services{};  // in workload order
  std::vector<std::string> left_out{};   // "'id': why no schedule can start it", per job

  std::int64_t steps() const { return (window_end + step - 1) / step; }
};

struct BoundProblemResult {
  std::optional<BoundProblem> problem;
  std::vector<std::string> errors;  // why the model does not fit the scenario; empty when it does
};

// The bound's input for `scenario` run with its own seed. The grid step is the demand curves'
// step (they must all have the same one), or kDefaultBoundStep when there is no service;
// `step` overrides it when given (a service's swap cap is then modelled only if its curve's step
// is a multiple of the grid's).
BoundProblemResult BoundProblemFromScenario(const Scenario& scenario,
                                            std::optional<SimDuration> step = std::nullopt);

}  // namespace fleetsim
