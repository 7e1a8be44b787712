// Served and unmet real-time demand, integrated step by step over each job's life.
#include "fleetsim/metrics/realtime_demand.h"

#include <algorithm>

namespace fleetsim {

namespace {

constexpr double kMillisPerHour = 3'600'000.0;

// Length of the overlap of [a0, a1) and [b0, b1).
SimDuration Overlap(SimTime a0, SimTime a1, SimTime b0, SimTime b1) {
  return std::max<SimDuration>(0, std::min(a1, b1) - std::max(a0, b0));
}

}  // namespace

void RealtimeDemand::OnRunStarted(const RunStarted& event) {
  lives_.assign(event.jobs.size(), Life{});
  for (std::size_t i = 0; i < event.jobs.size(); ++i) {
    if (event.jobs[i].demand) {
      lives_[i].request = &event.jobs[i];
    }
  }
  rows_.clear();
  summary_ = RealtimeSummary{};
}

void RealtimeDemand::OnJobSubmitted(const JobSubmitted& event) {
  lives_[event.job].submit = event.time;
}

void RealtimeDemand::OnJobStarted(const JobStarted& event) {
  Hold(event.job, event.time, static_cast<std::int64_t>(event.summary.gpus.size()));
}

void RealtimeDemand::OnJobResized(const JobResized& event) {
  Hold(event.job, event.time, static_cast<std::int64_t>(event.summary.gpus.size()));
}

void RealtimeDemand::OnJobPreempted(const JobPreempted& event) { Hold(event.job, event.time, 0); }

void RealtimeDemand::OnJobFinished(const JobFinished& event) { lives_[event.job].end = event.time; }

void RealtimeDemand::Hold(std::size_t job, SimTime time, std::int64_t gpus) {
  if (lives_[job].request != nullptr) {
    lives_[job].holdings.push_back({time, gpus});
  }
}

void RealtimeDemand::OnJobRejected(const JobRejected& event) { lives_[event.job].end = event.time; }

void RealtimeDemand::OnRunEnded(const RunEnded& event) {
  for (const Life& life : lives_) {
    if (life.request != nullptr && life.submit != kTimeNever) {
      AddRows(life, event.time);
    }
  }
  summary_.served_fraction =
      summary_.demand_gpu_hours > 0 ? summary_.served_gpu_hours / summary_.demand_gpu_hours : 1.0;
}

void RealtimeDemand::AddRows(const Life& life, SimTime run_end) {
  const DemandCurve& curve = *life.request->demand;
  const SimTime life_end = std::min(life.end, run_end);
  ++summary_.jobs;
  std::size_t next = 0;
  for (SimTime step = life.submit - life.submit % curve.step; step < life_end; step += curve.step) {
    const SimTime from = std::max(step, life.submit);
    const SimTime to = std::min(step + curve.step, life_end);
    const std::int64_t demand = curve.At(step);
    RealtimeStepRow row{
        .job = life.request->id,
        .start = from,
        .end = to,
        .demand_gpus = demand,
        .demand_gpu_hours = static_cast<double>(demand * (to - from)) / kMillisPerHour,
        .served_gpu_hours =
            static_cast<double>(Served(life, next, from, to, demand)) / kMillisPerHour,
        .unmet_gpu_hours = 0};
    row.unmet_gpu_hours = row.demand_gpu_hours - row.served_gpu_hours;
    summary_.demand_gpu_hours += row.demand_gpu_hours;
    summary_.served_gpu_hours += row.served_gpu_hours;
    summary_.unmet_gpu_hours += row.unmet_gpu_hours;
    rows_.push_back(std::move(row));
  }
}

std::int64_t RealtimeDemand::Served(const Life& life, std::size_t& next, SimTime from, SimTime to,
                                    std::int64_t demand) {
  const std::vector<Holding>& h = life.holdings;
  std::int64_t served = 0;
  for (std::size_t i = next; i < h.size() && h[i].time < to; ++i) {
    const SimTime until = i + 1 < h.size() ? h[i + 1].time : kTimeNever;
    served += std::min(demand, h[i].gpus) * Overlap(from, to, h[i].time, until);
    if (until <= to && i + 1 < h.size()) {
      next = i + 1;
    }
  }
  return served;
}

}  // namespace fleetsim
