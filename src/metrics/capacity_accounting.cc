// CapacityAccounting: the fleet's GPU-time split into useful, lost, overhead, reconfiguration,
// allocated-idle, idle and down, per pool, from segment accounts, holdings and node events.
#include "fleetsim/metrics/capacity_accounting.h"

#include <algorithm>
#include <cmath>

namespace fleetsim {

namespace {

constexpr double kMillisPerHour = 3'600'000.0;
constexpr double kShareRounding = 1e-9;  // GPU-equivalents

GpuTimeSplit InHours(const GpuTimeSplit& ms) {
  return {.useful = ms.useful / kMillisPerHour,
          .lost = ms.lost / kMillisPerHour,
          .overhead = ms.overhead / kMillisPerHour,
          .reconfiguration = ms.reconfiguration / kMillisPerHour,
          .allocated_idle = ms.allocated_idle / kMillisPerHour,
          .idle = ms.idle / kMillisPerHour,
          .down = ms.down / kMillisPerHour,
          .capacity = ms.capacity / kMillisPerHour};
}

void AddTo(GpuTimeSplit& sum, const GpuTimeSplit& s) {
  sum.useful += s.useful;
  sum.lost += s.lost;
  sum.overhead += s.overhead;
  sum.reconfiguration += s.reconfiguration;
  sum.allocated_idle += s.allocated_idle;
  sum.idle += s.idle;
  sum.down += s.down;
  sum.capacity += s.capacity;
}

// GPU-ms of min(held, demand(t)) over [from, to), step by step of the curve.
std::int64_t ServedGpuMs(const DemandCurve& curve, std::int64_t held, SimTime from, SimTime to) {
  std::int64_t served = 0;
  for (SimTime step = from - from % curve.step; step < to; step += curve.step) {
    const SimDuration overlap = std::min(to, step + curve.step) - std::max(from, step);
    served += std::min(held, curve.At(step)) * overlap;
  }
  return served;
}

}  // namespace

void CapacityAccounting::OnRunStarted(const RunStarted& event) {
  pools_.assign(event.pools.begin(), event.pools.end());
  nodes_.assign(event.nodes.begin(), event.nodes.end());
  const std::size_t pools = pools_.size();
  any_submitted_ = false;
  nodes_integrated_to_ = event.time;
  pool_ms_.assign(pools, GpuTimeSplit{});
  allocated_ms_.assign(pools, 0);
  up_gpu_ms_.assign(pools, 0);
  up_gpus_.assign(pools, 0);
  down_gpus_.assign(pools, 0);
  node_down_.assign(nodes_.size(), false);
  for (NodeId node = 0; node < node_down_.size(); ++node) {
    node_down_[node] = nodes_[node].down;
    (nodes_[node].down ? down_gpus_ : up_gpus_)[nodes_[node].pool] += GpusOfNode(node);
  }
  holdings_.assign(event.jobs.size(), Holding{});
  held_share_ = 0;
  queued_.assign(event.jobs.size(), false);
  queued_count_ = 0;
  idle_while_queued_ms_ = 0;
  useful_ms_.assign(event.jobs.size(), 0);
  useful_work_ms_.assign(event.jobs.size(), 0);
  wave_instants_.clear();
  weighted_work_ms_ = 0;
  summary_ = AccountingSummary{};
}

void CapacityAccounting::OnJobSubmitted(const JobSubmitted& event) {
  AdvanceNodes(event.time);
  if (!any_submitted_) {
    // The window opens: node time before it does not count.
    any_submitted_ = true;
    summary_.window_start = event.time;
    std::fill(up_gpu_ms_.begin(), up_gpu_ms_.end(), 0.0);
    for (GpuTimeSplit& pool : pool_ms_) {
      pool.down = 0;
    }
  }
  SetQueued(event.job, true);
}

void CapacityAccounting::SetQueued(JobIndex job, bool queued) {
  if (queued_[job] != queued) {
    queued_[job] = queued;
    queued_count_ += queued ? 1 : -1;
  }
}

void CapacityAccounting::OnJobStarted(const JobStarted& event) {
  AdvanceNodes(event.time);
  SetQueued(event.job, false);
  Hold(event.job, event.time, event.summary);
}

void CapacityAccounting::OnJobRejected(const JobRejected& event) {
  AdvanceNodes(event.time);
  SetQueued(event.job, false);
}

void CapacityAccounting::OnJobResized(const JobResized& event) {
  AdvanceNodes(event.time);
  Release(event.job, event.time);
  Hold(event.job, event.time, event.summary);
}

void CapacityAccounting::OnJobFinished(const JobFinished& event) {
  AdvanceNodes(event.time);
  Release(event.job, event.time);
}

void CapacityAccounting::OnJobPreempted(const JobPreempted& event) {
  AdvanceNodes(event.time);
  Release(event.job, event.time);
  SetQueued(event.job, true);
  InterruptionCounts& c = summary_.counts;
  if (event.cause == StopCause::kPolicy) {
    ++c.policy_preemptions;
  } else {
    ++c.jobs_interrupted;
  }
  if (event.emergency_checkpoint) {
    ++c.emergency_checkpoints;
  }
}

void CapacityAccounting::Hold(JobIndex job, SimTime time, const PlacementSummary& summary) {
  holdings_[job] = {.share_by_pool = summary.share_by_pool, .since = time};
  for (const auto& [pool, share] : summary.share_by_pool) {
    held_share_ += share;
  }
}

void CapacityAccounting::Release(JobIndex job, SimTime time) {
  Holding& holding = holdings_[job];
  for (const auto& [pool, share] : holding.share_by_pool) {
    allocated_ms_[pool] += share * static_cast<double>(time - holding.since);
    held_share_ -= share;
  }
  holding.share_by_pool.clear();
}

void CapacityAccounting::OnJobSegmentEnded(const JobSegmentEnded& event) {
  const SegmentAccount& a = event.account;
  for (const auto& [pool, share] : event.summary.share_by_pool) {
    GpuTimeSplit& p = pool_ms_[pool];
    p.lost += share * static_cast<double>(a.lost);
    p.overhead += share * static_cast<double>(a.overhead);
    p.reconfiguration += share * static_cast<double>(a.reconfiguration);
    if (!event.request.demand) {
      p.useful += share * static_cast<double>(a.useful);
      useful_ms_[event.job] += share * static_cast<double>(a.useful);
    }
  }
  if (!event.request.demand) {
    const double work = event.summary.work_rate * static_cast<double>(a.useful);
    useful_work_ms_[event.job] += work;
    weighted_work_ms_ += static_cast<double>(event.request.priority) * work;
  }
  if (event.request.demand && event.summary.gpu_share > 0) {
    SplitServiceUseful(event);
  }
}

void CapacityAccounting::SplitServiceUseful(const JobSegmentEnded& event) {
  const PlacementSummary& held = event.summary;
  const SimDuration useful = event.account.useful;
  const auto served = static_cast<double>(ServedGpuMs(
      *event.request.demand, std::llround(held.gpu_share), event.time - useful, event.time));
  weighted_work_ms_ += static_cast<double>(event.request.priority) * served;
  useful_ms_[event.job] += served;
  useful_work_ms_[event.job] += served;
  for (const auto& [pool, share] : held.share_by_pool) {
    const double pool_served = served * share / held.gpu_share;
    pool_ms_[pool].useful += pool_served;
    pool_ms_[pool].allocated_idle += share * static_cast<double>(useful) - pool_served;
  }
}

std::int64_t CapacityAccounting::GpusOfNode(NodeId node) const {
  return static_cast<std::int64_t>(nodes_[node].end_gpu - nodes_[node].first_gpu);
}

void CapacityAccounting::AdvanceNodes(SimTime time) {
  const auto elapsed = static_cast<double>(time - nodes_integrated_to_);
  double up_now = 0;
  for (std::size_t pool = 0; pool < up_gpus_.size(); ++pool) {
    up_gpu_ms_[pool] += static_cast<double>(up_gpus_[pool]) * elapsed;
    pool_ms_[pool].down += static_cast<double>(down_gpus_[pool]) * elapsed;
    up_now += static_cast<double>(up_gpus_[pool]);
  }
  // held_share_ is a running sum of shares such as 3/7: differences below kShareRounding are
  // rounding, not idle GPUs.
  if (const double idle = up_now - held_share_; queued_count_ > 0 && idle > kShareRounding) {
    idle_while_queued_ms_ += idle * elapsed;
  }
  nodes_integrated_to_ = time;
}

void CapacityAccounting::OnNodeNoticed(const NodeNoticed& event) {
  ++summary_.counts.spot_notices;
  if (event.wave) {
    wave_instants_.emplace(event.time, event.pool);
  }
}

void CapacityAccounting::OnNodeWentDown(const NodeWentDown& event) {
  if (event.cause == NodeDownCause::kSpotReclaim) {
    ++summary_.counts.spot_reclaims;
  } else if (event.cause == NodeDownCause::kHardwareFailure) {
    ++summary_.counts.hardware_failures;
  }
  if (node_down_[event.node]) {
    return;
  }
  AdvanceNodes(event.time);
  node_down_[event.node] = true;
  const PoolIndex pool = nodes_[event.node].pool;
  up_gpus_[pool] -= GpusOfNode(event.node);
  down_gpus_[pool] += GpusOfNode(event.node);
}

void CapacityAccounting::OnNodeCameBack(const NodeCameBack& event) {
  if (!node_down_[event.node]) {
    return;
  }
  AdvanceNodes(event.time);
  node_down_[event.node] = false;
  const PoolIndex pool = nodes_[event.node].pool;
  up_gpus_[pool] += GpusOfNode(event.node);
  down_gpus_[pool] -= GpusOfNode(event.node);
}

double CapacityAccounting::UsefulGpuHours(JobIndex job) const {
  return useful_ms_[job] / kMillisPerHour;
}

double CapacityAccounting::UsefulWorkGpuHours(JobIndex job) const {
  return useful_work_ms_[job] / kMillisPerHour;
}

void CapacityAccounting::OnRunEnded(const RunEnded& event) {
  AccountingSummary& s = summary_;
  s.window_end = std::max(event.time, s.window_start);
  AdvanceNodes(s.window_end);
  for (JobIndex job = 0; job < holdings_.size(); ++job) {
    Release(job, event.time);
  }
  const auto window = static_cast<double>(s.window_end - s.window_start);
  GpuTimeSplit total_ms;
  for (PoolIndex pool = 0; pool < pool_ms_.size(); ++pool) {
    const PoolSpec& spec = pools_[pool];
    GpuTimeSplit& ms = pool_ms_[pool];
    ms.idle = up_gpu_ms_[pool] - allocated_ms_[pool];
    ms.capacity = static_cast<double>(spec.gpus()) * window;
    AddTo(total_ms, ms);
    s.pools.push_back(
        {.name = spec.name, .tier = spec.tier, .gpus = spec.gpus(), .hours = InHours(ms)});
  }
  s.total = InHours(total_ms);
  s.identity_gap_gpu_seconds = (total_ms.capacity - total_ms.Accounted()) / 1000.0;
  s.goodput = total_ms.capacity > 0 ? total_ms.useful / total_ms.capacity : 0;
  const double up_ms = total_ms.capacity - total_ms.down;
  const double working_ms =
      total_ms.useful + total_ms.lost + total_ms.overhead + total_ms.reconfiguration;
  s.utilization = up_ms > 0 ? std::min(1.0, working_ms / up_ms) : 0;  // rounding never tops 1
  s.idle_while_queued_gpu_hours = idle_while_queued_ms_ / kMillisPerHour;
  s.idle_while_queued = up_ms > 0 ? idle_while_queued_ms_ / up_ms : 0;
  s.priority_weighted_output = weighted_work_ms_ / kMillisPerHour;

  s.counts.reclaim_waves = static_cast<std::int64_t>(wave_instants_.size());
}

}  // namespace fleetsim
