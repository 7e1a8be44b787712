// FleetSeries: per-slice integrals of the fleet's and each pool's state, merged as the run grows.
#include "fleetsim/metrics/fleet_series.h"

#include <algorithm>
#include <utility>

namespace fleetsim {

namespace {

constexpr SimDuration kMinute = 60'000;
constexpr SimDuration kHour = 60 * kMinute;
constexpr SimDuration kDay = 24 * kHour;
// Each a multiple of the one before, so merging slices is exact.
constexpr std::array<SimDuration, 11> kSliceLengths = {
    kMinute,   5 * kMinute, 15 * kMinute, 30 * kMinute, kHour,    2 * kHour,
    6 * kHour, 12 * kHour,  kDay,         7 * kDay,     28 * kDay};

constexpr std::size_t Index(SeriesMeasure measure) { return static_cast<std::size_t>(measure); }

}  // namespace

void FleetSeries::OnRunStarted(const RunStarted& event) {
  started_ = false;
  data_ = FleetSeriesData{};
  data_.slice = kSliceLengths.front();
  data_.scopes.push_back(SeriesScope{.pool = "", .gpus = event.fleet_gpus});
  for (const PoolSpec& pool : event.pools) {
    data_.scopes.push_back(SeriesScope{.pool = pool.name, .gpus = pool.gpus()});
  }
  if (event.pools.size() == 1 && event.pools.front().name.empty()) {
    data_.scopes.pop_back();  // a bare fleet: its one pool is the fleet
  }
  queued_.assign(1, Level{.value = 0, .since = event.time});
  down_.assign(data_.scopes.size(), Level{.value = 0, .since = event.time});
  node_gpus_.clear();
  node_scope_.clear();
  node_down_.clear();
  for (const NodeAtStart& node : event.nodes) {
    node_gpus_.push_back(static_cast<std::int64_t>(node.end_gpu - node.first_gpu));
    node_scope_.push_back(PoolScope(node.pool));
    node_down_.push_back(node.down);
    if (node.down) {
      down_[0].value += static_cast<double>(node_gpus_.back());
      if (node_scope_.back() != 0) {
        down_[node_scope_.back()].value += static_cast<double>(node_gpus_.back());
      }
    }
  }
  submit_.assign(event.jobs.size(), kTimeNever);
  queued_now_.assign(event.jobs.size(), false);
  requests_.assign(event.jobs.size(), nullptr);
}

std::size_t FleetSeries::PoolScope(PoolIndex pool) const {
  return data_.scopes.size() == 1 ? 0 : static_cast<std::size_t>(pool) + 1;
}

void FleetSeries::OnJobSubmitted(const JobSubmitted& event) {
  if (!started_) {
    started_ = true;
    data_.start = event.time;
  }
  submit_[event.job] = event.time;
  requests_[event.job] = &event.request;
  queued_now_[event.job] = true;
  Step(SeriesMeasure::kQueued, 0, event.time, 1);
}

void FleetSeries::OnJobStarted(const JobStarted& event) {
  if (queued_now_[event.job]) {
    queued_now_[event.job] = false;
    Step(SeriesMeasure::kQueued, 0, event.time, -1);
  }
}

void FleetSeries::OnJobPreempted(const JobPreempted& event) {
  if (!queued_now_[event.job]) {
    queued_now_[event.job] = true;
    Step(SeriesMeasure::kQueued, 0, event.time, 1);
  }
}

void FleetSeries::OnJobFinished(const JobFinished& event) { EndLife(event.job, event.time); }

void FleetSeries::OnJobRejected(const JobRejected& event) { EndLife(event.job, event.time); }

void FleetSeries::EndLife(JobIndex job, SimTime time) {
  if (queued_now_[job]) {
    queued_now_[job] = false;
    Step(SeriesMeasure::kQueued, 0, time, -1);
  }
  if (submit_[job] != kTimeNever && requests_[job]->demand) {
    AddDemand(*requests_[job], submit_[job], time);
  }
  submit_[job] = kTimeNever;
}

void FleetSeries::AddDemand(const JobRequest& request, SimTime submit, SimTime end) {
  const DemandCurve& curve = *request.demand;
  for (SimTime t = submit; t < end;) {
    const SimTime step_end = std::min(end, (curve.StepIndex(t) + 1) * curve.step);
    Add(SeriesMeasure::kRealtimeDemand, 0, t, step_end, static_cast<double>(curve.At(t)));
    t = step_end;
  }
}

void FleetSeries::OnJobSegmentEnded(const JobSegmentEnded& event) {
  const PlacementSummary& held = event.summary;
  if (event.time <= event.start) {
    return;
  }
  // A job holding no GPU (CPU only) runs in the fleet, in no pool.
  Add(SeriesMeasure::kHeld, 0, event.start, event.time, held.gpu_share);
  Add(SeriesMeasure::kRunning, 0, event.start, event.time, 1);
  for (const auto& [pool, share] : held.share_by_pool) {
    if (share > 0 && PoolScope(pool) != 0) {
      Add(SeriesMeasure::kHeld, PoolScope(pool), event.start, event.time, share);
      Add(SeriesMeasure::kRunning, PoolScope(pool), event.start, event.time, 1);
    }
  }
  if (!event.request.demand || held.gpu_share <= 0 || held.gpus.empty()) {
    return;
  }
  const DemandCurve& curve = *event.request.demand;
  const auto gpus = static_cast<std::int64_t>(held.gpus.size());
  for (SimTime t = event.start; t < event.time;) {
    const SimTime step_end = std::min(event.time, (curve.StepIndex(t) + 1) * curve.step);
    const std::int64_t demand = curve.At(t);
    const auto served = static_cast<double>(std::min(gpus, demand));
    Add(SeriesMeasure::kRealtimeServed, 0, t, step_end, served);
    for (const auto& [pool, share] : held.share_by_pool) {
      if (PoolScope(pool) == 0) {
        continue;
      }
      const double part = share / held.gpu_share;
      Add(SeriesMeasure::kRealtimeServed, PoolScope(pool), t, step_end, served * part);
      Add(SeriesMeasure::kRealtimeDemand, PoolScope(pool), t, step_end,
          static_cast<double>(demand) * part);
    }
    t = step_end;
  }
}

void FleetSeries::OnNodeWentDown(const NodeWentDown& event) {
  if (!node_down_[event.node]) {
    node_down_[event.node] = true;
    const auto gpus = static_cast<double>(node_gpus_[event.node]);
    Step(SeriesMeasure::kDown, 0, event.time, gpus);
    if (node_scope_[event.node] != 0) {
      Step(SeriesMeasure::kDown, node_scope_[event.node], event.time, gpus);
    }
  }
}

void FleetSeries::OnNodeCameBack(const NodeCameBack& event) {
  if (node_down_[event.node]) {
    node_down_[event.node] = false;
    const auto gpus = static_cast<double>(node_gpus_[event.node]);
    Step(SeriesMeasure::kDown, 0, event.time, -gpus);
    if (node_scope_[event.node] != 0) {
      Step(SeriesMeasure::kDown, node_scope_[event.node], event.time, -gpus);
    }
  }
}

void FleetSeries::OnRunEnded(const RunEnded& event) {
  Step(SeriesMeasure::kQueued, 0, event.time, 0);
  for (std::size_t scope = 0; scope < down_.size(); ++scope) {
    Step(SeriesMeasure::kDown, scope, event.time, 0);
  }
  for (JobIndex job = 0; job < submit_.size(); ++job) {
    if (submit_[job] != kTimeNever && requests_[job]->demand) {
      AddDemand(*requests_[job], submit_[job], event.time);
    }
  }
  data_.end = started_ ? std::max(event.time, data_.start) : data_.start;
  if (started_ && data_.end > data_.start) {
    Cover(data_.end - 1);
    const auto slices =
        static_cast<std::size_t>((data_.end - data_.start + data_.slice - 1) / data_.slice);
    data_.integrals.resize(slices, std::vector<SliceIntegrals>(data_.scopes.size()));
  } else {
    data_.integrals.clear();
  }
}

FleetSeriesData FleetSeries::TakeData() { return std::exchange(data_, FleetSeriesData{}); }

void FleetSeries::Step(SeriesMeasure measure, std::size_t scope, SimTime time, double delta) {
  Level& level = measure == SeriesMeasure::kQueued ? queued_[scope] : down_[scope];
  if (level.value != 0) {
    Add(measure, scope, level.since, time, level.value);
  }
  level.value += delta;
  level.since = time;
}

void FleetSeries::Cover(SimTime time) {
  const SimDuration span = time - data_.start + 1;
  while (data_.slice * static_cast<SimDuration>(kMaxSlices) < span &&
         data_.slice < kSliceLengths.back()) {
    // Merge groups of `factor` slices into one.
    const SimDuration next =
        *std::upper_bound(kSliceLengths.begin(), kSliceLengths.end(), data_.slice);
    const auto factor = static_cast<std::size_t>(next / data_.slice);
    std::vector<std::vector<SliceIntegrals>> merged;
    for (std::size_t i = 0; i < data_.integrals.size(); ++i) {
      if (i % factor == 0) {
        merged.push_back(data_.integrals[i]);
        continue;
      }
      for (std::size_t scope = 0; scope < data_.scopes.size(); ++scope) {
        for (std::size_t m = 0; m < kSeriesMeasures; ++m) {
          merged.back()[scope][m] += data_.integrals[i][scope][m];
        }
      }
    }
    data_.integrals = std::move(merged);
    data_.slice = next;
  }
  const auto needed = static_cast<std::size_t>((span + data_.slice - 1) / data_.slice);
  if (data_.integrals.size() < needed) {
    data_.integrals.resize(needed, std::vector<SliceIntegrals>(data_.scopes.size()));
  }
}

void FleetSeries::Add(SeriesMeasure measure, std::size_t scope, SimTime from, SimTime to,
                      double rate) {
  if (!started_) {
    return;
  }
  from = std::max(from, data_.start);
  if (to <= from || rate == 0) {
    return;
  }
  Cover(to - 1);
  const SimDuration slice = data_.slice;
  for (auto i = static_cast<std::size_t>((from - data_.start) / slice);
       data_.start + static_cast<SimTime>(i) * slice < to; ++i) {
    const SimTime lo = std::max(from, data_.start + static_cast<SimTime>(i) * slice);
    const SimTime hi = std::min(to, data_.start + static_cast<SimTime>(i + 1) * slice);
    data_.integrals[i][scope][Index(measure)] += rate * static_cast<double>(hi - lo);
  }
}

}  // namespace fleetsim
