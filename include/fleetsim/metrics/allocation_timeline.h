// AllocationTimeline: who held which GPUs when, and how busy the fleet was over time — the data
// behind the bench report's GPU x time grid and its utilization-over-time chart
// (docs/metrics.md#utilization-over-time).
//
// It records every segment of every job's life (a stretch on one placement, from a start or
// resize to its finish, resize, stop or the end of the run) from JobSegmentEnded: the job, the
// segment's start and end, the GPUs held, the GPU-equivalents held, and the job's kind and
// priority. Alongside, it keeps what the project's utilization needs over time — GPU-time doing
// work (useful + lost + overhead + reconfiguration) over the GPU-time of up nodes, as
// CapacityAccounting's `utilization` counts it:
//  - busy GPU-time, as pieces of constant rate. A batch-like segment is busy at its GPU share for
//    its whole length. A real-time service (a job with a demand curve) is busy at its share
//    during the part of the segment that is not useful (restart pause, lost and reconfiguration
//    time, placed first, as CapacityAccounting does) and, during its useful part
//    [end - useful, end), at min(GPUs held, demand(t)) step by step of its curve: GPUs it holds
//    above its demand are not busy. Summed over pieces, busy GPU-time is CapacityAccounting's
//    useful + lost + overhead + reconfiguration;
//  - node outages (NodeWentDown to NodeCameBack, or to the end of the run), whose GPUs are not up.
// Over the buckets of UtilizationSeries, Σ busy / Σ up GPU-time is the run's utilization.
//
// Memory: one TimelineSegment per segment (with its GPU ids); one BusyPiece per segment, plus one
// per demand-curve step a service's useful part spans (equal consecutive rates merged); one
// DownSpan per outage. No per-second sampling. An observer; not thread-safe; one per simulation.
// It starts afresh at every RunStarted.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fleetsim/sim/observer.h"

namespace fleetsim {

// One segment of one job's life on one placement.
struct TimelineSegment {
  JobIndex job = 0;
  SimTime start = 0;
  SimTime end = 0;
  std::vector<GpuId> gpus{};  // held whole or in part, distinct, ascending
  double gpu_share = 0;       // GPU-equivalents held (PlacementSummary::gpu_share)
  JobKind kind = JobKind::kUnspecified;
  std::int64_t priority = 1;
  bool realtime = false;  // the job has a demand curve
};

// During [start, end) jobs did work on `gpus` GPU-equivalents (one piece of one segment).
struct BusyPiece {
  SimTime start = 0;
  SimTime end = 0;
  double gpus = 0;
};

// During [start, end) the node holding GPUs first_gpu .. first_gpu + gpus - 1 was down, for
// `cause` (a node down when the run started is an autoscaled pool's released node: kReleased).
struct DownSpan {
  SimTime start = 0;
  SimTime end = 0;
  GpuId first_gpu = 0;
  std::int64_t gpus = 0;
  NodeDownCause cause = NodeDownCause::kReleased;
};

// GPUs [first_gpu, end_gpu) belong to one pool: consecutive nodes of the same pool, in GPU order.
struct GpuBand {
  std::string pool{};   // "fleet" for a bare fleet's one pool
  std::string model{};  // the pool's catalog GPU model
  GpuId first_gpu = 0;
  GpuId end_gpu = 0;
};

// What an AllocationTimeline recorded over one run. Plain data (a RunReport carries it).
struct AllocationTimelineData {
  std::int64_t fleet_gpus = 0;
  SimTime window_start = 0;                 // the first submission (RunMetrics' window)
  SimTime window_end = 0;                   // the end of the run
  std::vector<TimelineSegment> segments{};  // in the order they ended
  std::vector<BusyPiece> busy{};            // in the order their segments ended
  std::vector<DownSpan> down{};  // in the order nodes came back (those still down: at the end)
  std::vector<GpuBand> bands{};  // the fleet's pools over its GPU ids, ascending
};

// One bucket of a utilization series.
struct UtilizationBucket {
  SimTime start = 0;
  SimTime end = 0;
  double busy_gpu_hours = 0;  // GPU-time doing work in [start, end)
  double up_gpu_hours = 0;    // GPU-time of up nodes in [start, end)
  double utilization = 0;     // busy / up, in [0, 1]; 0 when no GPU was up
};

// The window [window_start, window_end) cut into `buckets` buckets of equal length (boundaries
// window_start + length x i / buckets, rounded down to the millisecond), each with its busy and
// up GPU-time and their ratio, the mean busy GPU-equivalents over the GPUs that were up. Empty
// when `buckets` <= 0, the window is empty or the fleet has no GPUs. Buckets shorter than a
// millisecond (a window shorter than `buckets` ms) are dropped. Σ busy / Σ up over the buckets is
// the run's utilization as CapacityAccounting counts it; with no node down and equal bucket
// lengths, that is the mean of the buckets' utilization.
std::vector<UtilizationBucket> UtilizationSeries(const AllocationTimelineData& timeline,
                                                 std::int64_t buckets);

// The mean GPU-equivalents held on GPUs [first_gpu, end_gpu) in each of `buckets` buckets of the
// window, cut as UtilizationSeries cuts it (a segment on GPUs inside and outside the range counts
// the share of its GPUs inside). Empty when `buckets` <= 0 or the window is empty.
std::vector<double> HeldSeries(const AllocationTimelineData& timeline, GpuId first_gpu,
                               GpuId end_gpu, std::int64_t buckets);

// Busy GPU-time of the whole timeline, in GPU-hours.
double BusyGpuHours(const AllocationTimelineData& timeline);

class AllocationTimeline final : public SimulationObserver {
 public:
  void OnRunStarted(const RunStarted& event) override;
  void OnJobSubmitted(const JobSubmitted& event) override;
  void OnJobSegmentEnded(const JobSegmentEnded& event) override;
  void OnNodeWentDown(const NodeWentDown& event) override;
  void OnNodeCameBack(const NodeCameBack& event) override;
  void OnRunEnded(const RunEnded& event) override;

  // Complete after RunEnded.
  const AllocationTimelineData& data() const { return data_; }
  // Moves the data out (for a RunReport) and leaves an empty timeline.
  AllocationTimelineData TakeData();

 private:
  // Extends the last band with `node`, or starts a band.
  void AddToBands(const RunStarted& event, const NodeAtStart& node);
  void AddBusy(SimTime start, SimTime end, double gpus);
  // A service's useful part [from, to): min(held, demand(t)) step by step of its curve.
  void AddServiceUseful(const DemandCurve& curve, std::int64_t held, SimTime from, SimTime to);
  // Records the node's outage up to `time`, if it is down.
  void CloseDownSpan(NodeId node, SimTime time);

  bool any_submitted_ = false;
  std::vector<GpuId> node_first_gpu_;      // by node
  std::vector<std::int64_t> node_gpus_;    // by node
  std::vector<SimTime> down_since_;        // by node; kTimeNever while up
  std::vector<NodeDownCause> down_cause_;  // by node, while down
  AllocationTimelineData data_;
};

}  // namespace fleetsim
