// JobLog: one record per job of the workload — who submitted it and what it asked for (tenant,
// priority class and weight, kind, GPU range, sharing, host CPU and memory), when it was
// submitted, started and ended, how long it ran, what it got (GPUs, GPU-equivalents, NVLink
// domains, GPU models, pools, price tiers, nodes),
// how often it was stopped (by its policy; by a spot reclaim or hardware failure) and the
// GPU-hours of computing those stops threw away, its final state and the reason for anything that
// did not complete — collected by observing engine events. The source of jobs.csv. Not thread-safe;
// one per simulation.
#pragma once

#include <string>
#include <vector>

#include "fleetsim/sim/observer.h"

namespace fleetsim {

enum class FinalState { kCompleted, kRejected, kRunning, kQueued, kNotSubmitted };

std::string FinalStateName(FinalState state);

struct JobRecordRow {
  std::string id;
  std::string tenant;
  std::string priority_class;
  std::int64_t priority = 0;
  SimTime submit = 0;
  std::int64_t gpus = 0;      // requested (the minimum of a range)
  std::int64_t max_gpus = 0;  // requested maximum (MaxGpus(): equal to gpus for a fixed size)
  std::int64_t cpu_milli = 0;
  std::int64_t memory_mib = 0;
  std::string gres;       // the request as a Slurm GRES, when it was given so (JobRequest::gres)
  std::string resources;  // the request as Kubernetes resources (JobRequest::resources)
  SimTime start = 0;      // when first started
  SimTime end = 0;        // when ended
  // What the job held last (PlacementSummary at its latest start or resize).
  std::int64_t gpus_allocated = 0;  // GPUs held whole or in part
  double gpu_share = 0;
  std::int64_t domains = 0;
  std::string gpu_models;
  std::string pools;             // the pools of its GPUs, '|'-joined in fleet order
  std::string tiers;             // their price tiers, distinct, '|'-joined in the pools' order
  std::string nodes;             // its nodes' ids (fleet order, from 0), ascending, space-separated
  SimTime run_time = 0;          // time it ran: the sum of its segments (start or resize to a stop)
  std::int64_t preemptions = 0;  // times its policy stopped it and put it back in the queue
  std::int64_t interruptions = 0;  // times a spot reclaim or hardware failure stopped it
  double lost_gpu_hours = 0;       // computing thrown away at stops, GPU-equivalents x hours
  // Computing kept (for a real-time service: GPU-hours serving demand), GPU-equivalents x hours;
  // filled from CapacityAccounting by the runner.
  double useful_gpu_hours = 0;
  // Its useful work (useful time x the placement's work rate): for a job given work, the work kept
  // in reference GPU-hours; otherwise useful_gpu_hours. Filled from CapacityAccounting by the
  // runner.
  double useful_work_gpu_hours = 0;
  std::string reason;  // why the job was rejected, or why it is unfinished
  // How the job ended where its trace was recorded (JobTruth::recorded_state); filled by the
  // runner.
  std::string recorded_state;
  JobKind kind = JobKind::kUnspecified;
  GpuSharing sharing = GpuSharing::kNone;
  FinalState state = FinalState::kNotSubmitted;
  bool started = false;
  bool ended = false;
};

class JobLog final : public SimulationObserver {
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

  // In workload order (submit time, then id). Complete after RunEnded.
  const std::vector<JobRecordRow>& rows() const { return rows_; }
  // Moves the rows out (for a RunReport) and leaves none: a row is ~280 bytes, and a 100k-job
  // run's rows are worth moving rather than copying.
  std::vector<JobRecordRow> TakeRows();

 private:
  void Describe(JobRecordRow& row, const PlacementSummary& summary) const;

  std::vector<JobRecordRow> rows_;
  std::vector<std::string> pool_names_;   // by PoolIndex
  std::vector<std::string> pool_tiers_;   // by PoolIndex
  std::vector<std::size_t> node_of_gpu_;  // by GpuId
};

}  // namespace fleetsim
