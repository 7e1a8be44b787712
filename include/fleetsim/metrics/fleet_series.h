// FleetSeries: the fleet over time, per pool — what `timeseries.csv` holds and `run --html` draws
// (docs/outputs.md#timeseriescsv). The run is cut into equal slices; for each slice, for the
// whole fleet and for each pool, the time-weighted means of:
//  - GPUs held by jobs (GPU-equivalents: a fractional or MIG share counts its share), GPUs down
//    (their node failed, was reclaimed or released), GPUs idle (up and not held);
//  - jobs running (in a pool: holding GPUs there, a job spanning pools counting in each; in the
//    fleet: every running job once, CPU-only ones included) and, for the fleet only, jobs queued
//    (submitted and neither running nor ended: a queued job belongs to no pool yet);
//  - real-time demand and service: a service wants its demand curve's GPUs from its submission
//    to its end, and is served min(GPUs held, demand) while it runs (as RealtimeDemand counts);
//    in a pool, a running service's demand and service count in proportion to its share there.
// Each mean is exact: an integral over the slice divided by its length, not a sample.
//
// Slices start at the first submission and have a round length, the smallest of 1, 5, 15 and 30
// minutes, 1, 2, 6 and 12 hours, 1, 7 and 28 days (each a multiple of the one before) that gives
// at most kMaxSlices slices: as a run grows, slices are merged in place, so memory is bounded
// (pools x kMaxSlices x 6 numbers) whatever the run's length or number of jobs. An observer; not
// thread-safe; one per simulation; it starts afresh at every RunStarted.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fleetsim/sim/observer.h"

namespace fleetsim {

// The measures of a slice, in column order.
enum class SeriesMeasure : std::size_t {
  kHeld,
  kDown,
  kRunning,
  kQueued,
  kRealtimeDemand,
  kRealtimeServed,
};
inline constexpr std::size_t kSeriesMeasures = 6;

// The integrals (value x milliseconds) of one slice of one scope (the fleet or a pool).
using SliceIntegrals = std::array<double, kSeriesMeasures>;

struct SeriesScope {
  std::string pool{};  // empty for the whole fleet
  std::int64_t gpus = 0;
};

// What a FleetSeries recorded over one run. Plain data (a RunReport carries it).
struct FleetSeriesData {
  SimTime start = 0;  // the first submission
  SimTime end = 0;    // the end of the run
  SimDuration slice = 0;
  // The fleet, then each pool in fleet order (none for a bare fleet, whose pool has no name).
  std::vector<SeriesScope> scopes{};
  // integrals[slice][scope]; the last slice may end before start + slice x count (at `end`).
  std::vector<std::vector<SliceIntegrals>> integrals{};
};

class FleetSeries final : public SimulationObserver {
 public:
  static constexpr std::size_t kMaxSlices = 1440;

  void OnRunStarted(const RunStarted& event) override;
  void OnJobSubmitted(const JobSubmitted& event) override;
  void OnJobStarted(const JobStarted& event) override;
  void OnJobPreempted(const JobPreempted& event) override;
  void OnJobFinished(const JobFinished& event) override;
  void OnJobRejected(const JobRejected& event) override;
  void OnJobSegmentEnded(const JobSegmentEnded& event) override;
  void OnNodeWentDown(const NodeWentDown& event) override;
  void OnNodeCameBack(const NodeCameBack& event) override;
  void OnRunEnded(const RunEnded& event) override;

  // Complete after RunEnded; moves the data out and leaves an empty series.
  FleetSeriesData TakeData();

 private:
  // A measure held at `value` since `since` (queued jobs, GPUs down).
  struct Level {
    double value = 0;
    SimTime since = 0;
  };
  // The scope of a pool: 0 (the fleet) for a bare fleet's one pool.
  std::size_t PoolScope(PoolIndex pool) const;
  // `rate` of `measure` in scope `scope` over [from, to).
  void Add(SeriesMeasure measure, std::size_t scope, SimTime from, SimTime to, double rate);
  // Changes a level at `time` by `delta`, adding what it held until then.
  void Step(SeriesMeasure measure, std::size_t scope, SimTime time, double delta);
  // Merges slices until `time` falls inside the last slice kMaxSlices allow.
  void Cover(SimTime time);
  // A service's demand over its life [submit, end), into the fleet scope.
  void AddDemand(const JobRequest& request, SimTime submit, SimTime end);
  void EndLife(JobIndex job, SimTime time);

  bool started_ = false;  // the first submission was seen
  FleetSeriesData data_;
  std::vector<Level> queued_;  // one, for the fleet scope
  std::vector<Level> down_;    // per scope
  std::vector<std::int64_t> node_gpus_;
  std::vector<std::size_t> node_scope_;
  std::vector<bool> node_down_;
  std::vector<SimTime> submit_;  // per job; kTimeNever: not submitted or its life has ended
  std::vector<bool> queued_now_;
  std::vector<const JobRequest*> requests_;
};

}  // namespace fleetsim
