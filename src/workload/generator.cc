// The synthetic workload generator.
#include "fleetsim/workload/generator.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "workload/demand_generator.h"

namespace fleetsim {

namespace {

constexpr double kSecondsPerHour = 3600;

template <typename T>
class WeightedPick {
 public:
  explicit WeightedPick(const Weighted<T>& mix) : mix_(mix), choice_(mix.weights) {}
  const T& operator()(Rng& rng) const { return mix_.values[choice_(rng)]; }

 private:
  const Weighted<T>& mix_;
  WeightedChoice choice_;
};

// An optional attribute drawn from its own stream, so that adding it leaves every other draw
// of the block unchanged. Draws nothing and yields `fallback` when the mix is empty.
template <typename T>
class OptionalAttribute {
 public:
  OptionalAttribute(const Weighted<T>& mix, T fallback, const RandomStreams& streams,
                    const std::string& stream_name)
      : fallback_(std::move(fallback)), rng_(streams.Stream(stream_name)) {
    if (!mix.empty()) {
      pick_.emplace(mix);
    }
  }

  T Next() { return pick_ ? (*pick_)(rng_) : fallback_; }

 private:
  T fallback_;
  Rng rng_;
  std::optional<WeightedPick<T>> pick_;
};

// Arrival times in seconds: Poisson (exponential gaps, the first job at 0) or, with an hourly
// profile, a Poisson process whose rate is constant within each hour of the day, sampled by
// inverting its cumulative rate (one unit-mean exponential per arrival).
class Arrivals {
 public:
  explicit Arrivals(const GeneratorSpec& spec) : mean_gap_s_(spec.mean_interarrival_s) {
    const std::vector<double>& profile = spec.arrival_profile;
    if (profile.empty()) {
      return;
    }
    const double mean_weight =
        std::accumulate(profile.begin(), profile.end(), 0.0) / static_cast<double>(kHoursPerDay);
    for (const double weight : profile) {
      hourly_rate_.push_back(weight / mean_weight / mean_gap_s_);
    }
  }

  double Next(Rng& rng, bool first) {
    if (hourly_rate_.empty()) {
      clock_s_ += first ? 0 : Exponential(rng, mean_gap_s_);
    } else {
      clock_s_ = AfterCumulativeRate(clock_s_, Exponential(rng, 1.0));
    }
    return clock_s_;
  }

 private:
  // The time at which the integral of the rate from `from_s` reaches `amount`.
  double AfterCumulativeRate(double from_s, double amount) const {
    double t = from_s;
    while (true) {
      const double hour = std::floor(t / kSecondsPerHour);
      const double hour_end = (hour + 1) * kSecondsPerHour;
      const double rate = hourly_rate_[static_cast<std::size_t>(std::fmod(hour, kHoursPerDay))];
      const double in_hour = rate * (hour_end - t);
      if (rate > 0 && amount <= in_hour) {
        return t + amount / rate;
      }
      amount -= in_hour;
      t = hour_end;
    }
  }

  double mean_gap_s_;
  std::vector<double> hourly_rate_;  // arrivals per second in each hour of the day
  double clock_s_ = 0;
};

class Durations {
 public:
  explicit Durations(const GeneratorSpec& spec)
      : spec_(spec), mu_(std::log(spec.duration_median_s)) {
    if (!spec.duration_mix.empty()) {
      mix_.emplace(spec.duration_mix);
    }
  }

  // Seconds, capped at kMaxScenarioSeconds.
  double Next(Rng& rng) const {
    if (mix_) {
      return std::min((*mix_)(rng), kMaxScenarioSeconds);
    }
    double duration_s = LogNormal(rng, mu_, spec_.duration_sigma);
    if (spec_.duration_max_s > 0) {
      duration_s = std::min(duration_s, spec_.duration_max_s);
    }
    return std::min(duration_s, kMaxScenarioSeconds);
  }

 private:
  const GeneratorSpec& spec_;
  double mu_;
  std::optional<WeightedPick<double>> mix_;
};

// A service's size follows its curve: at least its lowest demand (and 1 GPU), at most its peak.
void MakeService(const DemandProfileSpec& profile, std::int64_t peak, Rng& rng, Job& job) {
  DemandCurve curve = DailyDemandCurve(profile, peak, rng);
  const std::int64_t lowest = *std::min_element(curve.gpus.begin(), curve.gpus.end());
  job.request.kind = JobKind::kRealtimeInference;
  job.request.gpus = std::max<std::int64_t>(1, lowest);
  job.request.max_gpus = curve.Peak() > job.request.gpus ? curve.Peak() : 0;
  job.request.demand = std::move(curve);
}

}  // namespace

std::string GeneratorStreamName(std::size_t block) {
  return block == 0 ? std::string(kGeneratorStream) : fmt::format("{}.{}", kGeneratorStream, block);
}

void GenerateJobs(const GeneratorSpec& spec, const RandomStreams& streams, Workload& workload,
                  const std::string& stream_name) {
  Rng rng = streams.Stream(stream_name);
  Rng demand_rng = streams.Stream(stream_name + ".demand");
  OptionalAttribute<JobKind> kind(spec.kind, JobKind::kUnspecified, streams, stream_name + ".kind");
  OptionalAttribute<std::string> tenant(spec.tenant, "default", streams, stream_name + ".tenant");
  Arrivals arrivals(spec);
  const Durations durations(spec);
  const WeightedPick<std::int64_t> pick_gpus(spec.gpus);
  const WeightedPick<std::int64_t> pick_priority(spec.priority);
  for (std::int64_t i = 1; i <= spec.jobs; ++i) {
    const double submit_s = arrivals.Next(rng, i == 1);
    const double duration_s = durations.Next(rng);
    Job job;
    job.request.id = fmt::format("{}{:06}", spec.id_prefix, i);
    job.request.submit = SecondsToTime(std::min(submit_s, kMaxScenarioSeconds));
    job.request.gpus = pick_gpus(rng);
    job.request.priority = pick_priority(rng);
    job.request.kind = kind.Next();
    job.request.tenant = tenant.Next();
    job.truth.duration = std::max<SimDuration>(1, SecondsToTime(duration_s));
    if (spec.walltime_factor > 0) {
      job.request.walltime_estimate =
          SecondsToTime(std::min(duration_s * spec.walltime_factor, kMaxScenarioSeconds));
    }
    if (spec.demand) {
      MakeService(*spec.demand, job.request.gpus, demand_rng, job);
    }
    workload.jobs.push_back(std::move(job));
  }
}

}  // namespace fleetsim
