// Synthetic workloads for the thin slice: Poisson arrivals, lognormal durations, and job sizes
// and priorities drawn from weighted choices. All draws come from the stream
// "workload.generator", so a generated workload depends only on (spec, seed, run).
// Pure function of its inputs; thread-compatible.
#pragma once

#include <cstdint>
#include <vector>

#include "fleetsim/core/random.h"
#include "fleetsim/workload/job.h"

namespace fleetsim {

struct WeightedValues {
  std::vector<std::int64_t> values;
  std::vector<double> weights;  // same length as values
};

struct GeneratorSpec {
  std::int64_t jobs = 0;
  double mean_interarrival_s = 0;  // Poisson arrivals: exponential gaps with this mean
  double duration_median_s = 0;    // lognormal durations: median exp(mu) ...
  double duration_sigma = 0;       // ... and shape sigma
  double duration_max_s = 0;       // durations are capped here (0: uncapped)
  WeightedValues gpus;
  WeightedValues priority;
  std::string id_prefix = "g";
};

inline constexpr const char* kGeneratorStream = "workload.generator";

// Appends spec.jobs generated jobs, ids "<prefix>000001"...; submit times start at 0.
void GenerateJobs(const GeneratorSpec& spec, const RandomStreams& streams, Workload& workload);

}  // namespace fleetsim
