// RunMetrics: allocated share, counts, waits, completion times, slowdown, makespan and deadline
// misses from engine events.
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
  acc_ = {};
  summary_.fleet_gpus = event.fleet_gpus;
  summary_.jobs_total = static_cast<std::int64_t>(event.jobs.size());
  acc_.running_share.assign(event.jobs.size(), 0);
  acc_.running.assign(event.jobs.size(), false);
  acc_.running_since.assign(event.jobs.size(), 0);
  acc_.started.assign(event.jobs.size(), false);
  acc_.useful_time.assign(event.jobs.size(), 0);
  acc_.decided.assign(event.jobs.size(), false);
  acc_.deadline.reserve(event.jobs.size());
  for (const JobRequest& job : event.jobs) {
    acc_.deadline.push_back(job.deadline);
  }
}

void RunMetrics::CountDeadline(JobIndex job, SimTime time, bool rejected) {
  acc_.decided[job] = true;
  if (acc_.deadline[job] == kTimeNever) {
    return;
  }
  ++summary_.deadline_jobs;
  if (rejected || time > acc_.deadline[job]) {
    ++summary_.deadline_misses;
  }
}

void RunMetrics::OnJobSubmitted(const JobSubmitted& event) {
  if (!acc_.any_submitted) {
    summary_.window_start = event.time;
    acc_.any_submitted = true;
  }
  ++acc_.submitted;
}

void RunMetrics::OnJobStarted(const JobStarted& event) {
  if (!acc_.started[event.job]) {
    acc_.started[event.job] = true;
    acc_.waits.push_back(event.time - event.request.submit);
  }
  acc_.running_share[event.job] = event.summary.gpu_share;
  acc_.running[event.job] = true;
  acc_.running_since[event.job] = event.time;
}

void RunMetrics::CloseSegment(JobIndex job, SimTime time) {
  acc_.allocated_gpu_ms +=
      acc_.running_share[job] * static_cast<double>(time - acc_.running_since[job]);
  acc_.running_since[job] = time;
}

void RunMetrics::OnJobPreempted(const JobPreempted& event) {
  CloseSegment(event.job, event.time);
  acc_.running[event.job] = false;
  if (event.cause == StopCause::kPolicy) {
    ++summary_.preemptions;
  }
}

void RunMetrics::OnJobResized(const JobResized& event) {
  CloseSegment(event.job, event.time);
  acc_.running_share[event.job] = event.summary.gpu_share;
}

void RunMetrics::OnJobFinished(const JobFinished& event) {
  CloseSegment(event.job, event.time);
  acc_.running[event.job] = false;
  ++summary_.jobs_completed;
  CountDeadline(event.job, event.time, false);
  acc_.last_completion = std::max(acc_.last_completion, event.time);
  if (!IsRealtimeService(event.request)) {
    const SimDuration completion = event.time - event.request.submit;
    acc_.completion_times.push_back(completion);
    acc_.slowdown_sum += std::max(
        1.0, static_cast<double>(completion) /
                 static_cast<double>(std::max(acc_.useful_time[event.job], kSlowdownBound)));
  }
}

void RunMetrics::OnJobSegmentEnded(const JobSegmentEnded& event) {
  acc_.useful_time[event.job] += event.account.useful;
}

void RunMetrics::OnJobRejected(const JobRejected& event) {
  ++summary_.jobs_rejected;
  CountDeadline(event.job, event.time, true);
}

void RunMetrics::OnRunEnded(const RunEnded& event) {
  MetricsSummary& s = summary_;
  s.window_end = std::max(event.time, s.window_start);
  double allocated = acc_.allocated_gpu_ms;
  for (std::size_t job = 0; job < acc_.running.size(); ++job) {
    if (acc_.running[job]) {
      allocated +=
          acc_.running_share[job] * static_cast<double>(event.time - acc_.running_since[job]);
      ++s.jobs_running_at_end;
    }
  }
  for (std::size_t job = 0; job < acc_.decided.size(); ++job) {
    if (!acc_.decided[job] && acc_.deadline[job] <= event.time) {
      ++s.deadline_jobs;  // unfinished at the end, its deadline passed
      ++s.deadline_misses;
    }
  }
  s.jobs_never_submitted = s.jobs_total - acc_.submitted;
  s.jobs_queued_at_end =
      acc_.submitted - s.jobs_completed - s.jobs_rejected - s.jobs_running_at_end;
  const std::int64_t available = s.fleet_gpus * (s.window_end - s.window_start);
  s.allocated_gpu_hours = allocated / kMillisPerHour;
  s.available_gpu_hours = static_cast<double>(available) / kMillisPerHour;
  s.allocated_share = available > 0 ? std::min(1.0, allocated / static_cast<double>(available)) : 0;
  SummarizeTimes();
  s.makespan_s = s.jobs_completed > 0 ? TimeToSeconds(acc_.last_completion - s.window_start) : 0;
}

bool IsRealtimeService(const JobRequest& request) {
  return request.kind == JobKind::kRealtimeInference || request.demand.has_value();
}

void RunMetrics::SummarizeTimes() {
  MetricsSummary& s = summary_;
  const DurationSummary waits = SummarizeDurations(acc_.waits);
  s.wait_mean_s = waits.mean_s;
  s.wait_p50_s = waits.p50_s;
  s.wait_p90_s = waits.p90_s;
  s.wait_p99_s = waits.p99_s;
  const std::vector<SimDuration>& jct = acc_.completion_times;
  const DurationSummary jcts = SummarizeDurations(jct);
  s.batch_jobs_completed = static_cast<std::int64_t>(jct.size());
  s.jct_mean_s = jcts.mean_s;
  s.jct_p50_s = jcts.p50_s;
  s.jct_p90_s = jcts.p90_s;
  s.jct_p99_s = jcts.p99_s;
  s.bounded_slowdown_mean = jct.empty() ? 0 : acc_.slowdown_sum / static_cast<double>(jct.size());
}

DurationSummary SummarizeDurations(const std::vector<SimDuration>& values) {
  if (values.empty()) {
    return {};
  }
  const double total_ms =
      std::accumulate(values.begin(), values.end(), 0.0,
                      [](double acc, SimDuration v) { return acc + static_cast<double>(v); });
  return {.mean_s = total_ms / static_cast<double>(values.size()) / 1000.0,
          .p50_s = TimeToSeconds(NearestRankPercentile(values, 50)),
          .p90_s = TimeToSeconds(NearestRankPercentile(values, 90)),
          .p99_s = TimeToSeconds(NearestRankPercentile(values, 99))};
}

SimDuration NearestRankPercentile(std::vector<SimDuration> values, double p) {
  if (values.empty()) {
    return 0;
  }
  const auto rank =
      static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(values.size())));
  const std::size_t index = std::clamp<std::size_t>(rank, 1, values.size()) - 1;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(index),
                   values.end());
  return values[index];
}

}  // namespace fleetsim
