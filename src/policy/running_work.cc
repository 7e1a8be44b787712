// LaneLayout and RunningWork: the constraint-aware policy's state between calls (running_work.h).
#include "running_work.h"

#include <algorithm>

#include "fleetsim/core/check.h"

namespace fleetsim {

namespace {

void SetBitTo(LaneMask& mask, std::uint32_t lane, bool on) {
  const std::uint64_t bit = std::uint64_t{1} << (lane % 64);
  mask[lane / 64] = on ? (mask[lane / 64] | bit) : (mask[lane / 64] & ~bit);
}

bool Bit(const LaneMask& mask, std::uint32_t lane) {
  return ((mask[lane / 64] >> (lane % 64)) & 1U) != 0;
}

}  // namespace

LaneLayout::LaneLayout(const ClusterView& view) {
  const std::span<const PoolInfo> pools = view.pools();
  const Topology& topology = view.topology();
  double fastest = 0;
  for (const PoolInfo& pool : pools) {
    fastest = std::max(fastest, pool.gpu.bf16_dense_tflops.value_or(0));
  }
  const auto gpus = static_cast<GpuId>(topology.gpus());
  lane_of_gpu.assign(gpus, -1);
  node_lanes.resize(static_cast<std::size_t>(topology.nodes()));
  for (GpuId gpu = 0; gpu < gpus; ++gpu) {
    const PoolIndex pool = view.PoolOfGpu(gpu);
    if (!pools.empty() && pools[pool].mig == MigMode::kStatic) {
      continue;  // never whole
    }
    const std::uint32_t domain = topology.DomainOf(gpu);
    const double tflops = pools.empty() ? 0 : pools[pool].gpu.bf16_dense_tflops.value_or(0);
    const auto lane = static_cast<std::uint32_t>(gpu_of_lane.size());
    lane_of_gpu[gpu] = lane;
    node_lanes[topology.NodeOf(gpu)].push_back(lane);
    gpu_of_lane.push_back(gpu);
    lanes.push_back({.domain = domain,
                     .slot = gpu - topology.DomainGpus(domain).front(),
                     .speed = fastest > 0 && tflops > 0 ? tflops / fastest : 1});
  }
  identity = gpu_of_lane.size() == gpus;
  words = (gpu_of_lane.size() + 63) / 64;
  shape = MakePlanShape(lanes);
  all.assign(words, 0);
  pool_lanes.assign(std::max<std::size_t>(1, pools.size()), LaneMask(words, 0));
  for (std::uint32_t lane = 0; lane < gpu_of_lane.size(); ++lane) {
    const PoolIndex pool = pools.empty() ? 0 : view.PoolOfGpu(gpu_of_lane[lane]);
    SetBitTo(pool_lanes[pool], lane, true);
    SetBitTo(all, lane, true);
  }
}

std::vector<std::uint32_t> LaneLayout::LanesOf(const Allocation& placement) const {
  std::vector<std::uint32_t> found;
  for (const Grant& grant : placement.gpus) {
    if (lane_of_gpu[grant.gpu] >= 0) {
      found.push_back(static_cast<std::uint32_t>(lane_of_gpu[grant.gpu]));
    }
  }
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  return found;
}

RunningWork::RunningWork(const LaneLayout& layout, std::int64_t steps)
    : layout_(layout),
      steps_(steps),
      holders_(layout.gpu_of_lane.size()),
      lane_end_(layout.gpu_of_lane.size(), -1),
      service_holders_(layout.gpu_of_lane.size(), 0),
      held_(layout.words, 0),
      covered_(layout.words, 0),
      after_(static_cast<std::size_t>(steps) * layout.words, 0) {}

void RunningWork::Update(const ClusterView& view, const Classify& classify) {
  if (!started_) {
    started_ = true;
    for (const RunningJob& running : view.running()) {
      Add(running, classify);
    }
    for (NodeId node = 0; node < view.topology().nodes(); ++node) {
      if (!view.IsUp(node)) {
        nodes_out_.insert(node);
      }
    }
  } else {
    for (const RunningJob& change : view.changes().placements) {
      if (change.placement.gpus.empty() && change.placement.nodes.empty()) {
        Remove(change.job);
      } else {
        Add(change, classify);
      }
    }
    for (const NodeId node : view.changes().nodes_changed) {
      if (view.IsUp(node)) {
        nodes_out_.erase(node);
      } else {
        nodes_out_.insert(node);
      }
    }
  }
  FLEETSIM_CHECK(slots_.size() == view.running().size(),
                 "the constraint-aware policy lost track of the running jobs");
}

void RunningWork::Add(const RunningJob& running, const Classify& classify) {
  auto it = entries_.find(running.job);
  if (it != entries_.end()) {
    ReleaseLanes(running.job, it->second);  // resized or leaving: same place in the running order
  } else {
    it = entries_
             .emplace(running.job, Entry{.job = {}, .lanes = {}, .role = {}, .slot = slots_.size()})
             .first;
    slots_.push_back(running.job);
  }
  Entry& entry = it->second;
  entry.role = classify(running);
  entry.lanes = layout_.LanesOf(running.placement);
  entry.job = {.job = running.job,
               .start = running.start,
               .placement = entry.role.service ? running.placement : Allocation{},
               .leaving = running.leaving};
  for (const std::uint32_t lane : entry.lanes) {
    if (entry.role.service) {
      ++service_holders_[lane];
      SetBitTo(covered_, lane, true);
    } else {
      holders_[lane].push_back(running.job);
      SetLaneEnd(lane);
    }
  }
  if (entry.role.service) {
    services_.insert(running.job);
  }
}

void RunningWork::ReleaseLanes(JobIndex job, const Entry& entry) {
  for (const std::uint32_t lane : entry.lanes) {
    if (entry.role.service) {
      --service_holders_[lane];
    } else {
      std::vector<JobIndex>& on = holders_[lane];
      on.erase(std::find(on.begin(), on.end(), job));
    }
    SetLaneEnd(lane);
  }
  services_.erase(job);
}

void RunningWork::Remove(JobIndex job) {
  const auto it = entries_.find(job);
  FLEETSIM_CHECK(it != entries_.end(), "a placement change for a job that is not running");
  ReleaseLanes(job, it->second);
  const std::size_t slot = it->second.slot;
  entries_.erase(it);
  // The engine's swap-remove: the last running job takes the released slot.
  if (slot != slots_.size() - 1) {
    slots_[slot] = slots_.back();
    entries_.at(slots_[slot]).slot = slot;
  }
  slots_.pop_back();
}

void RunningWork::SetLaneEnd(std::uint32_t lane) {
  std::int64_t end = -1;
  for (const JobIndex holder : holders_[lane]) {
    end = std::max(end, entries_.at(holder).role.end_step);
  }
  SetBitTo(held_, lane, end >= 0);
  SetBitTo(covered_, lane, end >= 0 || service_holders_[lane] > 0);
  if (end == lane_end_[lane]) {
    return;
  }
  lane_end_[lane] = end;
  if (window_ < 0) {
    return;
  }
  const std::uint64_t bit = std::uint64_t{1} << (lane % 64);
  for (std::int64_t a = window_; a < window_ + steps_; ++a) {
    std::uint64_t& word = After(a)[lane / 64];
    word = end > a ? (word | bit) : (word & ~bit);
  }
}

void RunningWork::MoveWindow(std::int64_t first_step) {
  if (first_step == window_) {
    return;
  }
  const bool overlap = window_ >= 0 && first_step > window_ && first_step < window_ + steps_;
  const std::int64_t fill_from = overlap ? window_ + steps_ : first_step;
  window_ = first_step;
  for (std::int64_t a = fill_from; a < first_step + steps_; ++a) {
    FillStep(a);
  }
}

void RunningWork::FillStep(std::int64_t step) {
  std::uint64_t* words = After(step);
  std::fill(words, words + layout_.words, 0);
  for (std::uint32_t lane = 0; lane < lane_end_.size(); ++lane) {
    if (lane_end_[lane] > step) {
      words[lane / 64] |= std::uint64_t{1} << (lane % 64);
    }
  }
}

void RunningWork::Pinned(std::int64_t first_step, const LaneMask& free_now,
                         const std::function<std::int64_t(NodeId)>& node_back_step,
                         std::vector<std::uint64_t>& out) {
  MoveWindow(first_step);
  const std::size_t words = layout_.words;
  out.assign(static_cast<std::size_t>(steps_) * words, 0);
  for (std::size_t w = 0; w < words; ++w) {
    out[w] = (layout_.all[w] & ~free_now[w] & ~covered_[w]) | held_[w];
  }
  for (std::int64_t t = 1; t < steps_; ++t) {
    const std::uint64_t* after = After(first_step + t);
    std::copy(after, after + words, out.begin() + t * static_cast<std::ptrdiff_t>(words));
  }
  for (const NodeId node : nodes_out_) {
    const std::int64_t back = std::min(node_back_step(node), steps_);
    for (const std::uint32_t lane : layout_.node_lanes[node]) {
      if (Bit(covered_, lane) || Bit(free_now, lane)) {
        continue;
      }
      for (std::int64_t t = 1; t < back; ++t) {
        out[static_cast<std::size_t>(t) * words + lane / 64] |= std::uint64_t{1} << (lane % 64);
      }
    }
  }
}

std::vector<std::int64_t> RunningWork::LaneFreeSteps(
    std::int64_t first_step, const LaneMask& free_now,
    const std::function<std::int64_t(NodeId)>& node_back_step, const ClusterView& view) const {
  const auto relative = [&](std::int64_t end) {
    return end == kPinnedForever ? steps_ : std::max<std::int64_t>(1, end - first_step);
  };
  std::vector<std::int64_t> free_step(lane_end_.size(), 0);
  for (std::uint32_t lane = 0; lane < lane_end_.size(); ++lane) {
    if (lane_end_[lane] >= 0) {
      free_step[lane] = relative(lane_end_[lane]);
    } else if (!Bit(covered_, lane) && !Bit(free_now, lane)) {
      const NodeId node = view.topology().NodeOf(layout_.gpu_of_lane[lane]);
      free_step[lane] = view.IsUp(node) ? 1 : std::max<std::int64_t>(1, node_back_step(node));
    }
  }
  for (const JobIndex job : services_) {
    const Entry& entry = entries_.at(job);
    for (const std::uint32_t lane : entry.lanes) {
      free_step[lane] = std::max(free_step[lane], relative(entry.role.end_step));
    }
  }
  return free_step;
}

std::vector<const RunningJob*> RunningWork::Services() const {
  std::vector<const Entry*> found;
  for (const JobIndex job : services_) {
    found.push_back(&entries_.at(job));
  }
  std::sort(found.begin(), found.end(),
            [](const Entry* a, const Entry* b) { return a->slot < b->slot; });
  std::vector<const RunningJob*> jobs;
  for (const Entry* entry : found) {
    jobs.push_back(&entry->job);
  }
  return jobs;
}

}  // namespace fleetsim
