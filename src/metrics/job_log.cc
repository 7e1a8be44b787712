// JobLog: the per-job record behind jobs.csv.
#include "fleetsim/metrics/job_log.h"

#include <algorithm>
#include <string>

#include "fleetsim/fleet/fleet_spec.h"

namespace fleetsim {

namespace {
constexpr double kMillisPerHour = 3'600'000.0;
}

std::string FinalStateName(FinalState state) {
  switch (state) {
    case FinalState::kCompleted:
      return "completed";
    case FinalState::kRejected:
      return "rejected";
    case FinalState::kRunning:
      return "running";
    case FinalState::kQueued:
      return "queued";
    case FinalState::kNotSubmitted:
      return "not-submitted";
  }
  return "?";
}

void JobLog::OnRunStarted(const RunStarted& event) {
  pool_names_.clear();
  pool_tiers_.clear();
  for (const PoolSpec& pool : event.pools) {
    pool_names_.push_back(pool.name);
    pool_tiers_.push_back(PriceTierName(pool.tier));
  }
  node_of_gpu_.assign(static_cast<std::size_t>(event.fleet_gpus), 0);
  for (std::size_t node = 0; node < event.nodes.size(); ++node) {
    for (GpuId gpu = event.nodes[node].first_gpu; gpu < event.nodes[node].end_gpu; ++gpu) {
      node_of_gpu_[static_cast<std::size_t>(gpu)] = node;
    }
  }
  rows_.clear();
  rows_.reserve(event.jobs.size());
  for (const JobRequest& request : event.jobs) {
    JobRecordRow& row = rows_.emplace_back();
    row.id = request.id;
    row.tenant = request.tenant;
    row.priority_class = request.priority_class;
    row.priority = request.priority;
    row.kind = request.kind;
    row.submit = request.submit;
    row.gpus = request.gpus;
    row.max_gpus = request.MaxGpus();
    row.sharing = request.sharing;
    row.cpu_milli = request.cpu_milli;
    row.memory_mib = request.memory_mib;
    row.gres = request.gres;
    row.resources = request.resources;
  }
}

std::vector<JobRecordRow> JobLog::TakeRows() {
  std::vector<JobRecordRow> rows = std::move(rows_);
  rows_.clear();
  return rows;
}

void JobLog::OnJobSubmitted(const JobSubmitted& event) {
  rows_[event.job].state = FinalState::kQueued;
}

void JobLog::OnJobStarted(const JobStarted& event) {
  JobRecordRow& row = rows_[event.job];
  if (!row.started) {
    row.started = true;
    row.start = event.time;
  }
  row.state = FinalState::kRunning;
  Describe(row, event.summary);
}

void JobLog::OnJobResized(const JobResized& event) { Describe(rows_[event.job], event.summary); }

void JobLog::OnJobPreempted(const JobPreempted& event) {
  JobRecordRow& row = rows_[event.job];
  row.state = FinalState::kQueued;
  if (event.cause == StopCause::kPolicy) {
    ++row.preemptions;
  } else {
    ++row.interruptions;
  }
}

void JobLog::OnJobSegmentEnded(const JobSegmentEnded& event) {
  JobRecordRow& row = rows_[event.job];
  row.lost_gpu_hours +=
      event.summary.gpu_share * static_cast<double>(event.account.lost) / kMillisPerHour;
  row.run_time += event.time - event.start;
}

void JobLog::Describe(JobRecordRow& row, const PlacementSummary& summary) const {
  row.gpus_allocated = static_cast<std::int64_t>(summary.gpus.size());
  row.gpu_share = summary.gpu_share;
  row.domains = summary.domains;
  row.gpu_models = summary.gpu_models;
  row.pools.clear();
  row.tiers.clear();
  std::vector<std::string> tiers;
  for (const auto& [pool, share] : summary.share_by_pool) {
    if (pool_names_[pool].empty()) {
      continue;  // a bare {"gpus": N} fleet's anonymous pool
    }
    row.pools += (row.pools.empty() ? "" : "|") + pool_names_[pool];
    const std::string& tier = pool_tiers_[pool];
    if (std::find(tiers.begin(), tiers.end(), tier) == tiers.end()) {
      tiers.push_back(tier);
      row.tiers += (row.tiers.empty() ? "" : "|") + tier;
    }
  }
  row.nodes.clear();
  std::size_t last = 0;
  for (const GpuId gpu : summary.gpus) {  // ascending, so a node's GPUs are consecutive
    const std::size_t node = node_of_gpu_[static_cast<std::size_t>(gpu)];
    if (row.nodes.empty() || node != last) {
      row.nodes += (row.nodes.empty() ? "" : " ") + std::to_string(node);
      last = node;
    }
  }
}

void JobLog::OnJobFinished(const JobFinished& event) {
  JobRecordRow& row = rows_[event.job];
  row.ended = true;
  row.end = event.time;
  row.state = FinalState::kCompleted;
}

void JobLog::OnJobRejected(const JobRejected& event) {
  JobRecordRow& row = rows_[event.job];
  row.state = FinalState::kRejected;
  row.reason = event.reason;
}

void JobLog::OnRunEnded(const RunEnded& /*event*/) {
  for (JobRecordRow& row : rows_) {
    switch (row.state) {
      case FinalState::kRunning:
        row.reason = "still running when the run ended";
        break;
      case FinalState::kQueued:
        row.reason = "still queued when the run ended";
        break;
      case FinalState::kNotSubmitted:
        row.reason = "submit time is after the end of the run";
        break;
      case FinalState::kCompleted:
      case FinalState::kRejected:
        break;
    }
  }
}

}  // namespace fleetsim
