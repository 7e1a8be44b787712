// RunMetrics: utilization, counts, waits and makespan from engine events.
#include "fleetsim/metrics/run_metrics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace fleetsim {

namespace {
constexpr double kMillisPerHour = 3'600'000.0;
}

void RunMetrics::OnRunStarted(const RunStarted& event) {
  summary_ = {};
  summary_.fleet_gpus = event.fleet_gpus;
  summary_.jobs_total = static_cast<std::int64_t>(event.jobs.size());
  running_gpus_.assign(event.jobs.size(), 0);
  running_since_.assign(event.jobs.size(), 0);
}

void RunMetrics::OnJobSubmitted(const JobSubmitted& event) {
  if (!any_submitted_) {
    summary_.window_start = event.time;
    any_submitted_ = true;
  }
  ++submitted_;
}

void RunMetrics::OnJobStarted(const JobStarted& event) {
  waits_.push_back(event.time - event.request.submit);
  running_gpus_[event.job] = event.request.gpus;
  running_since_[event.job] = event.time;
}

void RunMetrics::OnJobFinished(const JobFinished& event) {
  allocated_gpu_ms_ += running_gpus_[event.job] * (event.time - running_since_[event.job]);
  running_gpus_[event.job] = 0;
  ++summary_.jobs_completed;
  last_completion_ = std::max(last_completion_, event.time);
}

void RunMetrics::OnJobRejected(const JobRejected& /*event*/) { ++summary_.jobs_rejected; }

void RunMetrics::OnRunEnded(const RunEnded& event) {
  MetricsSummary& s = summary_;
  s.window_end = std::max(event.time, s.window_start);
  std::int64_t allocated = allocated_gpu_ms_;
  for (std::size_t job = 0; job < running_gpus_.size(); ++job) {
    if (running_gpus_[job] > 0) {
      allocated += running_gpus_[job] * (event.time - running_since_[job]);
      ++s.jobs_running_at_end;
    }
  }
  s.jobs_never_submitted = s.jobs_total - submitted_;
  s.jobs_queued_at_end = submitted_ - s.jobs_completed - s.jobs_rejected - s.jobs_running_at_end;
  const std::int64_t available = s.fleet_gpus * (s.window_end - s.window_start);
  s.allocated_gpu_hours = static_cast<double>(allocated) / kMillisPerHour;
  s.available_gpu_hours = static_cast<double>(available) / kMillisPerHour;
  s.utilization = available > 0 ? static_cast<double>(allocated) / static_cast<double>(available) : 0;
  if (!waits_.empty()) {
    const double total_ms = std::accumulate(waits_.begin(), waits_.end(), 0.0,
                                            [](double acc, SimDuration w) {
                                              return acc + static_cast<double>(w);
                                            });
    s.wait_mean_s = total_ms / static_cast<double>(waits_.size()) / 1000.0;
  }
  s.wait_p99_s = TimeToSeconds(NearestRankPercentile(waits_, 99));
  s.makespan_s = s.jobs_completed > 0 ? TimeToSeconds(last_completion_ - s.window_start) : 0;
}

SimDuration NearestRankPercentile(std::vector<SimDuration> values, double p) {
  if (values.empty()) {
    return 0;
  }
  const auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(values.size())));
  const std::size_t index = std::clamp<std::size_t>(rank, 1, values.size()) - 1;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(index), values.end());
  return values[index];
}

}  // namespace fleetsim
