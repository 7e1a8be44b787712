// RealtimeDemand: served and unmet demand of real-time inference jobs, step by step. A job with a
// DemandCurve wants curve.At(t) GPUs at every instant from its submission until it finishes (or
// the run ends); while it runs it is served min(GPUs held, demand) — what it holds changes when
// its policy resizes it — and while it waits (before its start, or after a preemption) it is
// served nothing. Each step of the job's curve that overlaps that life gives one row; the totals
// are in GPU-hours. docs/metrics.md defines the measures. An observer; not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fleetsim/sim/observer.h"

namespace fleetsim {

// One step of one job: GPU-hours wanted, served and unmet within [start, end).
struct RealtimeStepRow {
  std::string job;
  SimTime start = 0;  // the part of the step inside the job's life
  SimTime end = 0;
  std::int64_t demand_gpus = 0;  // the curve's value for the step
  double demand_gpu_hours = 0;
  double served_gpu_hours = 0;
  double unmet_gpu_hours = 0;
};

struct RealtimeSummary {
  std::int64_t jobs = 0;  // jobs with a demand curve that were submitted
  double demand_gpu_hours = 0;
  double served_gpu_hours = 0;
  double unmet_gpu_hours = 0;
  double served_fraction = 0;  // served / demand; 1 when nothing was demanded
};

class RealtimeDemand final : public SimulationObserver {
 public:
  void OnRunStarted(const RunStarted& event) override;
  void OnJobSubmitted(const JobSubmitted& event) override;
  void OnJobStarted(const JobStarted& event) override;
  void OnJobFinished(const JobFinished& event) override;
  void OnJobPreempted(const JobPreempted& event) override;
  void OnJobResized(const JobResized& event) override;
  void OnJobRejected(const JobRejected& event) override;
  void OnRunEnded(const RunEnded& event) override;

  // Valid after RunEnded: rows in job (workload) order, then step order.
  const std::vector<RealtimeStepRow>& rows() const { return rows_; }
  const RealtimeSummary& summary() const { return summary_; }

 private:
  // From `time` on, the job held `gpus` (0 while queued).
  struct Holding {
    SimTime time = 0;
    std::int64_t gpus = 0;
  };
  struct Life {
    const JobRequest* request = nullptr;
    SimTime submit = kTimeNever;      // kTimeNever: not submitted
    SimTime end = kTimeNever;         // finished or rejected; kTimeNever while alive
    std::vector<Holding> holdings{};  // in time order
  };

  void Hold(std::size_t job, SimTime time, std::int64_t gpus);
  void AddRows(const Life& life, SimTime run_end);
  // GPU-milliseconds of min(demand, held) over [from, to), with the holdings from `next` on
  // (advanced past those that end before `to`).
  static std::int64_t Served(const Life& life, std::size_t& next, SimTime from, SimTime to,
                             std::int64_t demand);

  std::vector<Life> lives_;  // by JobIndex; only jobs with a demand curve are filled in
  std::vector<RealtimeStepRow> rows_;
  RealtimeSummary summary_;
};

}  // namespace fleetsim
