// RunMetrics: job counts and times of one run, computed by observing engine events.
// Definitions (docs/metrics.md is the reference):
//  - window: from the first submission to the end of the run;
//  - allocated share: GPU-time held by jobs inside the window / (fleet GPUs x window length),
//    counting a fractional share as milli / 1000 of a GPU and a MIG instance as its compute
//    slices / 7 — idle real-time reservations included (the headline utilization, which leaves
//    them out, is CapacityAccounting's);
//  - wait: first start - submit, over jobs that started; mean, p50, p90, p99 (nearest rank);
//  - JCT (job completion time): finish - submit, over completed batch jobs (real-time services —
//    kind realtime-inference or a demand curve — whose length is their lifetime, left out);
//    mean, p50, p90, p99;
//  - bounded slowdown: max(1, JCT / max(run time, 10 s)) per completed batch job, averaged, where
//    the run time is the wall time of its kept computing (segment useful time: no work lost at a
//    stop, no checkpoint or restart pause), i.e. how long it would have run undisturbed;
//  - makespan: last completion - first submission;
//  - deadlines: a job with a deadline meets it if it finished at or before it, and misses it if
//    it finished later, was rejected, or had not finished when the run ended at or after the
//    deadline; a job whose deadline lies beyond the run's end and has not finished is undecided
//    and counted in neither.
// Not thread-safe; one per simulation.
#pragma once

#include <cstdint>
#include <vector>

#include "fleetsim/sim/observer.h"

namespace fleetsim {

struct MetricsSummary {
  std::int64_t jobs_total = 0;
  std::int64_t jobs_completed = 0;
  std::int64_t jobs_rejected = 0;
  std::int64_t jobs_running_at_end = 0;
  std::int64_t jobs_queued_at_end = 0;
  std::int64_t jobs_never_submitted = 0;
  // Runs stopped by the policy (a job may be preempted repeatedly); stops by a spot reclaim or a
  // hardware failure are not counted here (CapacityAccounting counts them).
  std::int64_t preemptions = 0;
  std::int64_t fleet_gpus = 0;
  SimTime window_start = 0;
  SimTime window_end = 0;
  double allocated_gpu_hours = 0;
  double available_gpu_hours = 0;
  double allocated_share = 0;  // in [0, 1]; 0 when the window is empty
  double wait_mean_s = 0;
  double wait_p50_s = 0;
  double wait_p90_s = 0;
  double wait_p99_s = 0;
  std::int64_t batch_jobs_completed = 0;  // the jobs JCT and slowdown are taken over
  double jct_mean_s = 0;
  double jct_p50_s = 0;
  double jct_p90_s = 0;
  double jct_p99_s = 0;
  double bounded_slowdown_mean = 0;  // 0 when no batch job completed
  double makespan_s = 0;
  std::int64_t deadline_jobs = 0;    // jobs with a deadline decided in the run: met or missed
  std::int64_t deadline_misses = 0;  // of those, the ones that missed it
};

class RunMetrics final : public SimulationObserver {
 public:
  void OnRunStarted(const RunStarted& event) override;
  void OnJobSubmitted(const JobSubmitted& event) override;
  void OnJobStarted(const JobStarted& event) override;
  void OnJobFinished(const JobFinished& event) override;
  void OnJobPreempted(const JobPreempted& event) override;
  void OnJobResized(const JobResized& event) override;
  void OnJobSegmentEnded(const JobSegmentEnded& event) override;
  void OnJobRejected(const JobRejected& event) override;
  void OnRunEnded(const RunEnded& event) override;

  // Valid after RunEnded.
  const MetricsSummary& summary() const { return summary_; }

 private:
  struct Accumulators {
    bool any_submitted = false;
    SimTime last_completion = 0;
    double allocated_gpu_ms = 0;  // closed allocations; running ones are added at the end
    std::int64_t submitted = 0;
    std::vector<SimDuration> waits;
    std::vector<SimDuration> completion_times;  // completed batch jobs
    double slowdown_sum = 0;                    // over completed batch jobs
    std::vector<SimDuration> useful_time;       // by job: wall time of kept computing
    std::vector<double> running_share;  // by job index: GPU-equivalents held, 0 if not running
    std::vector<bool> running;
    std::vector<SimTime> running_since;  // since the last start or resize
    std::vector<bool> started;           // started at least once (waits count the first start)
    std::vector<SimTime> deadline;       // by job: the request's deadline (kTimeNever: none)
    std::vector<bool> decided;           // by job: finished or rejected
  };

  // Adds the GPU-time the job held since running_since and restarts the count at `time`.
  void CloseSegment(JobIndex job, SimTime time);
  void SummarizeTimes();
  // Counts a decided job's deadline, met or missed by `time`.
  void CountDeadline(JobIndex job, SimTime time, bool rejected);

  MetricsSummary summary_;
  Accumulators acc_;  // reset at every RunStarted
};

// Whether a job is a real-time service (kind realtime-inference, or a demand curve): its length is
// its lifetime, not a result, so completion times and slowdown leave it out.
bool IsRealtimeService(const JobRequest& request);

// Bounded slowdown's floor on a job's run time (Feitelson's τ = 10 s), in milliseconds.
inline constexpr SimDuration kSlowdownBound = 10'000;

// Nearest-rank percentile (p in (0, 100]) of `values`; 0 for an empty set. Sorts its copy.
SimDuration NearestRankPercentile(std::vector<SimDuration> values, double p);

// The mean and nearest-rank p50/p90/p99 of some durations, in seconds, all 0 for none: how the
// summary gives its waits and JCTs (and a plan its waits over a group of jobs).
struct DurationSummary {
  double mean_s = 0;
  double p50_s = 0;
  double p90_s = 0;
  double p99_s = 0;
};
DurationSummary SummarizeDurations(const std::vector<SimDuration>& values);

}  // namespace fleetsim
