// JobLog: one record per job of the workload — submit, start, end, GPUs, final state and the
// reason for anything that did not complete — collected by observing engine events. The source
// of jobs.csv. Not thread-safe; one per simulation.
#pragma once

#include <string>
#include <vector>

#include "fleetsim/sim/observer.h"

namespace fleetsim {

enum class FinalState { kCompleted, kRejected, kRunning, kQueued, kNotSubmitted };

std::string FinalStateName(FinalState state);

struct JobRecordRow {
  std::string id;
  SimTime submit = 0;
  std::int64_t gpus = 0;
  std::int64_t priority = 0;
  bool started = false;
  SimTime start = 0;
  bool ended = false;
  SimTime end = 0;
  FinalState state = FinalState::kNotSubmitted;
  std::string reason;  // why the job was rejected, or why it is unfinished
  std::vector<GpuId> gpu_ids;
};

class JobLog final : public SimulationObserver {
 public:
  void OnRunStarted(const RunStarted& event) override;
  void OnJobSubmitted(const JobSubmitted& event) override;
  void OnJobStarted(const JobStarted& event) override;
  void OnJobFinished(const JobFinished& event) override;
  void OnJobRejected(const JobRejected& event) override;
  void OnRunEnded(const RunEnded& event) override;

  // In workload order (submit time, then id). Complete after RunEnded.
  const std::vector<JobRecordRow>& rows() const { return rows_; }

 private:
  std::vector<JobRecordRow> rows_;
};

}  // namespace fleetsim
