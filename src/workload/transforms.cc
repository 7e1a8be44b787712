// The workload transforms declared in transforms.h.
#include "fleetsim/workload/transforms.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

namespace fleetsim {

namespace {

std::string Seconds(SimTime t) { return fmt::format("{} s", TimeToSeconds(t)); }

// Moves a job's submit time, keeping the slack before its deadline.
void MoveSubmit(Job& job, SimTime submit) {
  if (job.request.deadline != kTimeNever) {
    job.request.deadline += submit - job.request.submit;
  }
  job.request.submit = submit;
}

TransformReport Apply(const TimeWindow& window, Workload& workload) {
  const std::size_t before = workload.jobs.size();
  std::erase_if(workload.jobs, [&window](const Job& job) {
    return job.request.submit < window.from || job.request.submit >= window.to;
  });
  if (window.shift) {
    for (Job& job : workload.jobs) {
      MoveSubmit(job, job.request.submit - window.from);
    }
  }
  const std::string end = window.to == kTimeNever ? "no end" : Seconds(window.to);
  std::string note = fmt::format("kept {} of {} jobs submitted in [{}, {})", workload.jobs.size(),
                                 before, Seconds(window.from), end);
  if (window.shift) {
    note += fmt::format(", moved {} earlier", Seconds(window.from));
  }
  return {{note}};
}

TransformReport Apply(const ScaleArrivals& scale, Workload& workload) {
  const SimTime latest = SecondsToTime(kMaxScenarioSeconds);
  std::size_t clamped = 0;
  for (Job& job : workload.jobs) {
    const double scaled = std::round(static_cast<double>(job.request.submit) / scale.factor);
    if (scaled > static_cast<double>(latest)) {
      ++clamped;
      MoveSubmit(job, latest);
    } else {
      MoveSubmit(job, std::llround(scaled));
    }
  }
  std::string note =
      fmt::format("divided the submit times of {} jobs by {}", workload.jobs.size(), scale.factor);
  if (clamped > 0) {
    note += fmt::format("; {} would have passed {} and were set to it", clamped, Seconds(latest));
  }
  return {{note}};
}

// Selection sampling (Knuth's algorithm S): job i of n is kept with probability
// (wanted − kept so far) / (n − i), one uniform draw per job examined.
TransformReport Apply(const SampleJobs& sample, Rng& rng, Workload& workload) {
  const std::size_t total = workload.jobs.size();
  const auto wanted = static_cast<std::size_t>(sample.jobs);
  if (wanted >= total) {
    return {{fmt::format("kept all {} jobs ({} asked for)", total, wanted)}};
  }
  std::vector<Job> kept;
  kept.reserve(wanted);
  for (std::size_t i = 0; i < total && kept.size() < wanted; ++i) {
    const auto left = static_cast<double>(total - i);
    if (rng.NextDouble() * left < static_cast<double>(wanted - kept.size())) {
      kept.push_back(std::move(workload.jobs[i]));
    }
  }
  workload.jobs = std::move(kept);
  return {{fmt::format("kept {} of {} jobs, chosen at random", wanted, total)}};
}

// Fisher–Yates over the submit times: position i (from the last down to 1) swaps with a
// uniform j in [0, i].
TransformReport Apply(const ShuffleArrivals& /*shuffle*/, Rng& rng, Workload& workload) {
  std::vector<SimTime> times;
  times.reserve(workload.jobs.size());
  for (const Job& job : workload.jobs) {
    times.push_back(job.request.submit);
  }
  for (std::size_t i = times.size(); i > 1; --i) {
    const auto j = static_cast<std::size_t>(UniformInt(rng, 0, static_cast<std::int64_t>(i - 1)));
    std::swap(times[i - 1], times[j]);
  }
  for (std::size_t i = 0; i < times.size(); ++i) {
    MoveSubmit(workload.jobs[i], times[i]);
  }
  return {{fmt::format("permuted the submit times of {} jobs", times.size())}};
}

// Draws, for a job no rule matched, one value per non-empty field of the mix, in the order
// tenant, priority_class, priority, kind.
class MixDraws {
 public:
  explicit MixDraws(const FieldMix& mix)
      : tenant_(mix.tenant), class_(mix.priority_class), priority_(mix.priority), kind_(mix.kind) {}

  bool empty() const {
    return !tenant_.active() && !class_.active() && !priority_.active() && !kind_.active();
  }

  FieldValues Next(Rng& rng) const {
    FieldValues values;
    values.tenant = tenant_.Next(rng);
    values.priority_class = class_.Next(rng);
    values.priority = priority_.Next(rng);
    values.kind = kind_.Next(rng);
    return values;
  }

 private:
  template <typename T>
  class Field {
   public:
    explicit Field(const Weighted<T>& mix) : mix_(mix) {
      if (!mix.empty()) {
        choice_.emplace(mix.weights);
      }
    }
    bool active() const { return choice_.has_value(); }
    std::optional<T> Next(Rng& rng) const {
      return choice_ ? std::optional<T>(mix_.values[(*choice_)(rng)]) : std::nullopt;
    }

   private:
    const Weighted<T>& mix_;
    std::optional<WeightedChoice> choice_;
  };

  Field<std::string> tenant_;
  Field<std::string> class_;
  Field<std::int64_t> priority_;
  Field<JobKind> kind_;
};

// Sets the given fields; returns false if a kind change was refused (a demand curve needs
// kind realtime-inference).
bool SetFields(const FieldValues& values, Job& job) {
  JobRequest& r = job.request;
  r.tenant = values.tenant.value_or(r.tenant);
  r.priority_class = values.priority_class.value_or(r.priority_class);
  r.priority = values.priority.value_or(r.priority);
  if (values.kind && r.demand && *values.kind != JobKind::kRealtimeInference) {
    return false;
  }
  r.kind = values.kind.value_or(r.kind);
  r.checkpoint_interval = values.checkpoint_interval.value_or(r.checkpoint_interval);
  // A job left without checkpoints has no checkpoint cost.
  r.checkpoint_cost =
      r.checkpoint_interval > 0 ? values.checkpoint_cost.value_or(r.checkpoint_cost) : 0;
  r.checkpoint_sharded = values.checkpoint_sharded.value_or(r.checkpoint_sharded);
  r.restart_cost = values.restart_cost.value_or(r.restart_cost);
  r.preemptible = values.preemptible.value_or(r.preemptible);
  r.spot_eligible = values.spot_eligible.value_or(r.spot_eligible);
  return true;
}

std::string AssignNote(const std::vector<std::size_t>& per_rule, std::size_t unmatched,
                       bool has_mix, std::size_t kinds_kept) {
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < per_rule.size(); ++i) {
    parts.push_back(fmt::format("rule {} matched {} jobs", i, per_rule[i]));
  }
  parts.push_back(has_mix
                      ? fmt::format("the mix set {} others", unmatched)
                      : fmt::format("{} matched no rule and were left as they were", unmatched));
  if (kinds_kept > 0) {
    parts.push_back(
        fmt::format("{} jobs with demand curves kept kind 'realtime-inference'", kinds_kept));
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

TransformReport Apply(const AssignFields& assign, Rng& rng, Workload& workload) {
  std::vector<std::size_t> per_rule(assign.rules.size(), 0);
  std::size_t unmatched = 0;
  std::size_t kinds_kept = 0;
  const MixDraws mix(assign.mix);
  for (Job& job : workload.jobs) {
    const auto rule = std::find_if(assign.rules.begin(), assign.rules.end(),
                                   [&job](const AssignRule& r) { return r.when.Matches(job); });
    bool kind_set = true;
    if (rule != assign.rules.end()) {
      ++per_rule[static_cast<std::size_t>(rule - assign.rules.begin())];
      kind_set = SetFields(rule->set, job);
    } else {
      ++unmatched;
      kind_set = SetFields(mix.Next(rng), job);
    }
    kinds_kept += kind_set ? 0 : 1;
  }
  return {{AssignNote(per_rule, unmatched, !mix.empty(), kinds_kept)}};
}

std::int64_t PowerOfTwoAtLeast(std::int64_t n) {
  std::int64_t p = 1;
  while (p < n) {
    p *= 2;
  }
  return p;
}

std::int64_t PowerOfTwoAtMost(std::int64_t n) {
  std::int64_t p = 1;
  while (p * 2 <= n) {
    p *= 2;
  }
  return p;
}

class NodeFitter {
 public:
  explicit NodeFitter(const FitToNodes& fit)
      : fit_(fit), cap_(fit.max_gpus > 0 ? fit.max_gpus : kMaxJobGpus) {}

  std::int64_t cap() const { return cap_; }

  // The size `gpus` (>= 1) rounds up to.
  std::int64_t Fit(std::int64_t gpus, bool pow2_block) const {
    const std::int64_t node = fit_.gpus_per_node;
    if (pow2_block) {
      return PowerOfTwoAtLeast(gpus);
    }
    if (gpus >= node) {
      return (gpus + node - 1) / node * node;
    }
    return fit_.round_small_to_pow2 ? std::min(PowerOfTwoAtLeast(gpus), node) : gpus;
  }

  // The largest size Fit can produce that is at most the cap.
  std::int64_t Clamped(bool pow2_block) const {
    const std::int64_t node = fit_.gpus_per_node;
    if (pow2_block || (cap_ < node && fit_.round_small_to_pow2)) {
      return PowerOfTwoAtMost(cap_);
    }
    return cap_ >= node ? cap_ / node * node : cap_;
  }

 private:
  const FitToNodes& fit_;
  std::int64_t cap_;
};

struct FitCounts {
  std::size_t resized = 0;
  std::size_t clamped = 0;
  std::size_t dropped = 0;
  std::int64_t largest_dropped = 0;
};

// Fits one GPU job; returns false if it is to be dropped.
bool FitJob(const NodeFitter& fitter, bool drop_above_max, Job& job, FitCounts& counts) {
  JobRequest& r = job.request;
  const bool block = r.pow2_block;
  std::int64_t gpus = fitter.Fit(r.gpus, block);
  std::int64_t max_gpus = r.max_gpus == 0 ? 0 : fitter.Fit(r.max_gpus, block);
  if (gpus > fitter.cap()) {
    if (drop_above_max) {
      ++counts.dropped;
      counts.largest_dropped = std::max(counts.largest_dropped, r.gpus);
      return false;
    }
    ++counts.clamped;
    gpus = fitter.Clamped(block);
  }
  max_gpus = std::min(max_gpus, fitter.Clamped(block));
  max_gpus = max_gpus > gpus ? max_gpus : 0;
  if (gpus != r.gpus || max_gpus != r.max_gpus) {
    ++counts.resized;
    r.gres.clear();  // the words asked for the old size: the fields now say what it asks for
    r.resources.clear();
  }
  r.gpus = gpus;
  r.max_gpus = max_gpus;
  if (r.demand) {
    for (std::int64_t& demand : r.demand->gpus) {
      demand = std::min(demand, r.MaxGpus());
    }
  }
  return true;
}

TransformReport Apply(const FitToNodes& fit, Workload& workload) {
  const NodeFitter fitter(fit);
  const std::size_t total = workload.jobs.size();
  FitCounts counts;
  std::erase_if(workload.jobs, [&](Job& job) {
    return !job.request.IsCpuOnly() && !FitJob(fitter, fit.drop_above_max, job, counts);
  });
  std::string note = fmt::format("resized {} of {} jobs for {}-GPU nodes", counts.resized, total,
                                 fit.gpus_per_node);
  if (counts.dropped > 0) {
    note += fmt::format("; dropped {} needing more than {} GPUs (largest asked for {})",
                        counts.dropped, fitter.cap(), counts.largest_dropped);
  }
  if (counts.clamped > 0) {
    note += fmt::format("; cut {} down to at most {} GPUs", counts.clamped, fitter.cap());
  }
  return {{note}};
}

TransformReport Apply(const Replicate& replicate, Workload& workload) {
  std::set<std::string> ids;
  for (const Job& job : workload.jobs) {
    ids.insert(job.request.id);
  }
  const std::size_t originals = workload.jobs.size();
  const SimTime latest = SecondsToTime(kMaxScenarioSeconds);
  std::size_t clamped = 0;
  workload.jobs.reserve(originals * static_cast<std::size_t>(replicate.copies));
  for (std::int64_t k = 1; k < replicate.copies; ++k) {
    for (std::size_t i = 0; i < originals; ++i) {
      Job copy = workload.jobs[i];
      std::string id = fmt::format("{}.r{}", copy.request.id, k);
      while (!ids.insert(id).second) {
        id += '_';
      }
      copy.request.id = std::move(id);
      const SimTime submit = copy.request.submit + k * replicate.offset;
      clamped += submit > latest ? 1U : 0U;
      MoveSubmit(copy, std::min(submit, latest));
      workload.jobs.push_back(std::move(copy));
    }
  }
  std::string note =
      fmt::format("{} copies of each of {} jobs ({} jobs), copy k submitted k x {} later",
                  replicate.copies, originals, workload.jobs.size(), Seconds(replicate.offset));
  if (clamped > 0) {
    note += fmt::format("; {} would have passed {} and were set to it", clamped, Seconds(latest));
  }
  return {{note}};
}

// The first common limit at or above `estimate`; beyond the last, whole days.
SimDuration RoundUpToCommonLimit(SimDuration estimate) {
  for (const std::int64_t limit : kCommonWalltimeLimitsS) {
    const SimDuration limit_time = SecondsToTime(static_cast<double>(limit));
    if (estimate <= limit_time) {
      return limit_time;
    }
  }
  const SimDuration day = SecondsToTime(86400);
  return (estimate + day - 1) / day * day;
}

TransformReport Apply(const WalltimeModel& model, Rng& rng, Workload& workload) {
  const SimDuration longest = SecondsToTime(kMaxScenarioSeconds);
  std::size_t set = 0;
  std::size_t work_only = 0;
  for (Job& job : workload.jobs) {
    if (!model.all && job.request.walltime_estimate > 0) {
      continue;
    }
    if (job.truth.duration == 0) {
      ++work_only;
      continue;
    }
    double estimate = static_cast<double>(job.truth.duration);
    if (model.estimate == WalltimeEstimate::kFactor) {
      estimate *= model.factor;
    } else if (model.estimate == WalltimeEstimate::kLognormal) {
      estimate *= LogNormal(rng, std::log(model.factor), model.sigma);
    }
    SimDuration rounded = std::clamp<SimDuration>(std::llround(std::min(estimate, double(longest))),
                                                  SecondsToTime(1), longest);
    if (model.round_to_common_limits) {
      rounded = std::min(RoundUpToCommonLimit(rounded), longest);
    }
    job.request.walltime_estimate = rounded;
    ++set;
  }
  static constexpr const char* kModels[] = {"exact run times", "run times x factor",
                                            "lognormal errors"};
  std::string note =
      fmt::format("set the walltime estimates of {} jobs from {}{}", set,
                  kModels[static_cast<int>(model.estimate)],
                  model.round_to_common_limits ? ", rounded up to common limits" : "");
  if (work_only > 0) {
    note += fmt::format("; {} jobs given as work have no run time and kept theirs", work_only);
  }
  return {{note}};
}

}  // namespace

bool JobPredicate::Matches(const Job& job) const {
  const JobRequest& r = job.request;
  if (gpus && (r.gpus < gpus->min || r.gpus > gpus->max)) {
    return false;
  }
  if (duration && (job.truth.duration == 0 || job.truth.duration < duration->min ||
                   job.truth.duration >= duration->max)) {
    return false;
  }
  return (!tenant || r.tenant == *tenant) &&
         (!priority_class || r.priority_class == *priority_class) && (!kind || r.kind == *kind);
}

const char* TransformName(const TransformSpec& transform) {
  static constexpr const char* kNames[] = {"window",    "scale_arrivals", "sample",
                                           "shuffle",   "assign",         "fit_to_nodes",
                                           "replicate", "walltime_model"};
  static_assert(std::size(kNames) == std::variant_size_v<TransformSpec>);
  return kNames[transform.index()];
}

TransformReport ApplyTransform(const TransformSpec& transform, std::size_t index,
                               const RandomStreams& streams, Workload& workload) {
  const auto stream = [&](const std::optional<std::uint64_t>& seed) {
    const std::string name =
        fmt::format("workload.transform.{}.{}", index, TransformName(transform));
    return seed ? RandomStreams(*seed, 0).Stream(name) : streams.Stream(name);
  };
  struct Visitor {
    decltype(stream)& make_stream;
    Workload& workload;
    TransformReport operator()(const TimeWindow& t) const { return Apply(t, workload); }
    TransformReport operator()(const ScaleArrivals& t) const { return Apply(t, workload); }
    TransformReport operator()(const SampleJobs& t) const {
      Rng rng = make_stream(t.seed);
      return Apply(t, rng, workload);
    }
    TransformReport operator()(const ShuffleArrivals& t) const {
      Rng rng = make_stream(t.seed);
      return Apply(t, rng, workload);
    }
    TransformReport operator()(const AssignFields& t) const {
      Rng rng = make_stream(t.seed);
      return Apply(t, rng, workload);
    }
    TransformReport operator()(const FitToNodes& t) const { return Apply(t, workload); }
    TransformReport operator()(const Replicate& t) const { return Apply(t, workload); }
    TransformReport operator()(const WalltimeModel& t) const {
      Rng rng = make_stream(t.seed);
      return Apply(t, rng, workload);
    }
  };
  return std::visit(Visitor{stream, workload}, transform);
}

}  // namespace fleetsim
