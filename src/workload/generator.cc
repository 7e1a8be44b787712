// The synthetic workload generator.
#include "fleetsim/workload/generator.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace fleetsim {

void GenerateJobs(const GeneratorSpec& spec, const RandomStreams& streams, Workload& workload) {
  Rng rng = streams.Stream(kGeneratorStream);
  const WeightedChoice pick_gpus(spec.gpus.weights);
  const WeightedChoice pick_priority(spec.priority.weights);
  const double mu = std::log(spec.duration_median_s);
  double clock_s = 0;
  for (std::int64_t i = 1; i <= spec.jobs; ++i) {
    if (i > 1) {
      clock_s += Exponential(rng, spec.mean_interarrival_s);
    }
    double duration_s = LogNormal(rng, mu, spec.duration_sigma);
    if (spec.duration_max_s > 0) {
      duration_s = std::min(duration_s, spec.duration_max_s);
    }
    Job job;
    job.request.id = fmt::format("{}{:06}", spec.id_prefix, i);
    job.request.submit = SecondsToTime(std::min(clock_s, kMaxScenarioSeconds));
    job.request.gpus = spec.gpus.values[pick_gpus(rng)];
    job.request.priority = spec.priority.values[pick_priority(rng)];
    job.truth.duration =
        std::max<SimDuration>(1, SecondsToTime(std::min(duration_s, kMaxScenarioSeconds)));
    workload.jobs.push_back(std::move(job));
  }
}

}  // namespace fleetsim
