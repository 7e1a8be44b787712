// Synthetic workloads: Poisson or diurnal arrivals, lognormal or empirical durations, and job
// sizes, priorities, kinds and tenants drawn from weighted mixes, optionally with a walltime
// estimate; or real-time inference services with daily demand curves. A scenario may hold
// several generator blocks; block k draws from its own streams (GeneratorStreamName), so a
// generated workload depends only on (spec, block number, seed, run), and adding a block or a
// new attribute to a block never changes what the others draw. docs/scenario-format.md gives
// the draw order. Pure functions of their inputs; thread-compatible.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fleetsim/core/random.h"
#include "fleetsim/workload/job.h"

namespace fleetsim {

// Values and how often each is drawn: index i with probability weights[i] / sum(weights).
template <typename T>
struct Weighted {
  std::vector<T> values{};
  std::vector<double> weights{};  // same length as values; finite, >= 0, not all 0

  bool empty() const { return values.empty(); }
};

using WeightedValues = Weighted<std::int64_t>;

inline constexpr std::size_t kHoursPerDay = 24;

// The daily demand of a generated real-time inference service: 24 hourly steps shaped as a
// raised cosine between the trough (base_fraction × the service's peak) and the peak (at
// peak_hour), each step scaled by (1 + noise × a standard normal draw), then limited by the
// swap cap (demand_generator.h).
struct DemandProfileSpec {
  double base_fraction = 0;    // demand at the trough as a share of the peak, in [0, 1]
  std::int64_t peak_hour = 0;  // hour of the day with the highest demand, 0..23
  double noise = 0;            // relative standard deviation of each hour's demand
  std::int64_t swap_cap = 0;   // most GPUs gained or lost from one hour to the next; 0 = no cap
};

struct GeneratorSpec {
  std::int64_t jobs = 0;
  double mean_interarrival_s = 0;  // mean gap between arrivals, over a whole day if diurnal
  // Relative arrival rate in each hour of the day (24 values, >= 0, not all 0), hour 0 starting
  // at time 0; empty: homogeneous Poisson arrivals.
  std::vector<double> arrival_profile{};
  double duration_median_s = 0;     // lognormal durations: median exp(mu) ...
  double duration_sigma = 0;        // ... and shape sigma
  double duration_max_s = 0;        // lognormal durations are capped here (0: uncapped)
  Weighted<double> duration_mix{};  // empirical durations (seconds); when set, replaces lognormal
  WeightedValues gpus{};            // GPU counts; for services, each service's peak demand
  WeightedValues priority{};
  Weighted<JobKind> kind{};        // empty: every job is kUnspecified
  Weighted<std::string> tenant{};  // empty: every job's tenant is "default"
  double walltime_factor = 0;      // walltime estimate = duration × factor; 0: no estimate
  std::optional<DemandProfileSpec> demand{};  // set: the block generates real-time services
  std::string id_prefix = "g";
};

inline constexpr const char* kGeneratorStream = "workload.generator";

// The main stream of generator block `block` (0-based, in scenario order): "workload.generator"
// for block 0, as before blocks existed, then "workload.generator.1", ... Attributes added
// later draw from "<main stream>.kind", ".tenant" and ".demand".
std::string GeneratorStreamName(std::size_t block);

// Appends spec.jobs generated jobs, ids "<prefix>000001"..., drawing from the streams named
// after `stream_name`. Poisson arrivals start with a job at time 0; diurnal arrivals are a
// Poisson process from time 0, its first arrival drawn like the others.
void GenerateJobs(const GeneratorSpec& spec, const RandomStreams& streams, Workload& workload,
                  const std::string& stream_name = kGeneratorStream);

}  // namespace fleetsim
