// AllocationTimeline: job segments with their GPUs, and busy GPU-time as constant-rate pieces,
// from segment events; UtilizationSeries buckets the pieces over the window.
#include "fleetsim/metrics/allocation_timeline.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace fleetsim {

namespace {
constexpr double kMillisPerHour = 3'600'000.0;
}  // namespace

void AllocationTimeline::OnRunStarted(const RunStarted& event) {
  any_submitted_ = false;
  data_ = AllocationTimelineData{};
  data_.fleet_gpus = event.fleet_gpus;
  const std::size_t nodes = event.nodes.size();
  node_first_gpu_.assign(nodes, 0);
  node_gpus_.assign(nodes, 0);
  down_since_.assign(nodes, kTimeNever);
  down_cause_.assign(nodes, NodeDownCause::kReleased);
  for (NodeId node = 0; node < nodes; ++node) {
    const NodeAtStart& at_start = event.nodes[node];
    node_first_gpu_[node] = at_start.first_gpu;
    node_gpus_[node] = static_cast<std::int64_t>(at_start.end_gpu - at_start.first_gpu);
    if (at_start.down) {
      down_since_[node] = event.time;  // released (autoscaling): down_cause_'s default
    }
    AddToBands(event, at_start);
  }
}

void AllocationTimeline::AddToBands(const RunStarted& event, const NodeAtStart& node) {
  const PoolSpec& pool = event.pools[node.pool];
  std::vector<GpuBand>& bands = data_.bands;
  const std::string name = pool.name.empty() ? "fleet" : pool.name;  // a bare fleet's one pool
  if (!bands.empty() && bands.back().end_gpu == node.first_gpu && bands.back().pool == name) {
    bands.back().end_gpu = node.end_gpu;
    return;
  }
  bands.push_back(GpuBand{
      .pool = name, .model = pool.gpu.name, .first_gpu = node.first_gpu, .end_gpu = node.end_gpu});
}

void AllocationTimeline::OnJobSubmitted(const JobSubmitted& event) {
  if (!any_submitted_) {
    any_submitted_ = true;
    data_.window_start = event.time;
  }
}

void AllocationTimeline::OnJobSegmentEnded(const JobSegmentEnded& event) {
  const JobRequest& request = event.request;
  const PlacementSummary& held = event.summary;
  data_.segments.push_back({.job = event.job,
                            .start = event.start,
                            .end = event.time,
                            .gpus = held.gpus,
                            .gpu_share = held.gpu_share,
                            .kind = request.kind,
                            .priority = request.priority,
                            .realtime = request.demand.has_value()});
  if (!request.demand) {
    AddBusy(event.start, event.time, held.gpu_share);
    return;
  }
  // A service: the parts that are not useful come first, at its share; then its useful part
  // counts only up to its demand (as CapacityAccounting splits it).
  const SimTime useful_from = event.time - event.account.useful;
  AddBusy(event.start, useful_from, held.gpu_share);
  AddServiceUseful(*request.demand, std::llround(held.gpu_share), useful_from, event.time);
}

void AllocationTimeline::OnNodeWentDown(const NodeWentDown& event) {
  if (down_since_[event.node] == kTimeNever) {
    down_since_[event.node] = event.time;
    down_cause_[event.node] = event.cause;
  }
}

void AllocationTimeline::OnNodeCameBack(const NodeCameBack& event) {
  CloseDownSpan(event.node, event.time);
}

void AllocationTimeline::CloseDownSpan(NodeId node, SimTime time) {
  if (down_since_[node] == kTimeNever) {
    return;
  }
  if (time > down_since_[node]) {
    data_.down.push_back({.start = down_since_[node],
                          .end = time,
                          .first_gpu = node_first_gpu_[node],
                          .gpus = node_gpus_[node],
                          .cause = down_cause_[node]});
  }
  down_since_[node] = kTimeNever;
}

void AllocationTimeline::OnRunEnded(const RunEnded& event) {
  data_.window_end = std::max(event.time, data_.window_start);
  for (NodeId node = 0; node < down_since_.size(); ++node) {
    CloseDownSpan(node, data_.window_end);
  }
}

AllocationTimelineData AllocationTimeline::TakeData() {
  AllocationTimelineData data = std::move(data_);
  data_ = AllocationTimelineData{};
  return data;
}

void AllocationTimeline::AddBusy(SimTime start, SimTime end, double gpus) {
  if (end > start && gpus > 0) {
    data_.busy.push_back({.start = start, .end = end, .gpus = gpus});
  }
}

void AllocationTimeline::AddServiceUseful(const DemandCurve& curve, std::int64_t held, SimTime from,
                                          SimTime to) {
  const std::size_t first_piece = data_.busy.size();
  for (SimTime step = from - from % curve.step; step < to; step += curve.step) {
    const SimTime start = std::max(from, step);
    const SimTime end = std::min(to, step + curve.step);
    const auto served = static_cast<double>(std::min(held, curve.At(step)));
    // Merge with the previous piece of this service when the rate does not change.
    if (data_.busy.size() > first_piece && data_.busy.back().end == start &&
        data_.busy.back().gpus == served) {
      data_.busy.back().end = end;
      continue;
    }
    AddBusy(start, end, served);
  }
}

namespace {

// Adds rate x overlap of [start, end) with each bucket [bounds[i], bounds[i + 1]) to sums[i].
void AddOverlaps(const std::vector<SimTime>& bounds, SimTime start, SimTime end, double rate,
                 std::vector<double>& sums) {
  start = std::max(start, bounds.front());
  end = std::min(end, bounds.back());
  if (end <= start) {
    return;
  }
  // The first bucket whose end is after `start`.
  auto bucket = static_cast<std::size_t>(std::upper_bound(bounds.begin() + 1, bounds.end(), start) -
                                         (bounds.begin() + 1));
  for (; bucket < sums.size() && bounds[bucket] < end; ++bucket) {
    const SimDuration overlap = std::min(end, bounds[bucket + 1]) - std::max(start, bounds[bucket]);
    if (overlap > 0) {
      sums[bucket] += rate * static_cast<double>(overlap);
    }
  }
}

// Boundaries window_start + window x i / buckets; bucket i is [bounds[i], bounds[i + 1]).
std::vector<SimTime> BucketBounds(const AllocationTimelineData& timeline, std::int64_t buckets) {
  const SimDuration window = timeline.window_end - timeline.window_start;
  std::vector<SimTime> bounds;
  bounds.reserve(static_cast<std::size_t>(buckets) + 1);
  for (std::int64_t i = 0; i <= buckets; ++i) {
    // window x i may not fit in 64 bits for very long windows: split the product.
    const SimTime offset = (window / buckets) * i + (window % buckets) * i / buckets;
    bounds.push_back(timeline.window_start + offset);
  }
  return bounds;
}

}  // namespace

std::vector<UtilizationBucket> UtilizationSeries(const AllocationTimelineData& timeline,
                                                 std::int64_t buckets) {
  const SimDuration window = timeline.window_end - timeline.window_start;
  if (buckets <= 0 || window <= 0 || timeline.fleet_gpus <= 0) {
    return {};
  }
  const std::vector<SimTime> bounds = BucketBounds(timeline, buckets);
  std::vector<double> busy_gpu_ms(static_cast<std::size_t>(buckets), 0.0);
  for (const BusyPiece& piece : timeline.busy) {
    AddOverlaps(bounds, piece.start, piece.end, piece.gpus, busy_gpu_ms);
  }
  std::vector<double> down_gpu_ms(static_cast<std::size_t>(buckets), 0.0);
  for (const DownSpan& span : timeline.down) {
    AddOverlaps(bounds, span.start, span.end, static_cast<double>(span.gpus), down_gpu_ms);
  }
  std::vector<UtilizationBucket> series;
  series.reserve(busy_gpu_ms.size());
  const auto fleet = static_cast<double>(timeline.fleet_gpus);
  for (std::size_t i = 0; i < busy_gpu_ms.size(); ++i) {
    const SimDuration length = bounds[i + 1] - bounds[i];
    if (length <= 0) {
      continue;
    }
    const double up_gpu_ms = fleet * static_cast<double>(length) - down_gpu_ms[i];
    series.push_back({.start = bounds[i],
                      .end = bounds[i + 1],
                      .busy_gpu_hours = busy_gpu_ms[i] / kMillisPerHour,
                      .up_gpu_hours = up_gpu_ms / kMillisPerHour,
                      .utilization = up_gpu_ms > 0 ? busy_gpu_ms[i] / up_gpu_ms : 0});
  }
  return series;
}

std::vector<double> HeldSeries(const AllocationTimelineData& timeline, GpuId first_gpu,
                               GpuId end_gpu, std::int64_t buckets) {
  const SimDuration window = timeline.window_end - timeline.window_start;
  if (buckets <= 0 || window <= 0) {
    return {};
  }
  const std::vector<SimTime> bounds = BucketBounds(timeline, buckets);
  std::vector<double> held_gpu_ms(static_cast<std::size_t>(buckets), 0.0);
  for (const TimelineSegment& seg : timeline.segments) {
    const auto inside = std::count_if(seg.gpus.begin(), seg.gpus.end(),
                                      [&](GpuId gpu) { return gpu >= first_gpu && gpu < end_gpu; });
    if (inside > 0) {
      const double share =
          seg.gpu_share * static_cast<double>(inside) / static_cast<double>(seg.gpus.size());
      AddOverlaps(bounds, seg.start, seg.end, share, held_gpu_ms);
    }
  }
  for (std::size_t i = 0; i < held_gpu_ms.size(); ++i) {
    const SimDuration length = bounds[i + 1] - bounds[i];
    held_gpu_ms[i] = length > 0 ? held_gpu_ms[i] / static_cast<double>(length) : 0;
  }
  return held_gpu_ms;
}

double BusyGpuHours(const AllocationTimelineData& timeline) {
  double busy_gpu_ms = 0;
  for (const BusyPiece& piece : timeline.busy) {
    busy_gpu_ms += piece.gpus * static_cast<double>(piece.end - piece.start);
  }
  return busy_gpu_ms / kMillisPerHour;
}

}  // namespace fleetsim
