// AvailabilityProfile: free whole GPUs per pool over time, for reservation-based planning.
#include "policy/availability_profile.h"

#include <algorithm>
#include <deque>

#include "fleetsim/core/check.h"

namespace fleetsim {

AvailabilityProfile::AvailabilityProfile(SimTime now, SimTime horizon,
                                         std::span<const std::int64_t> free_now,
                                         std::vector<GpuRelease> releases)
    : horizon_(horizon), times_{now}, free_(free_now.size()) {
  FLEETSIM_CHECK(now < horizon, "an availability profile needs a horizon after now");
  std::sort(releases.begin(), releases.end(),
            [](const GpuRelease& a, const GpuRelease& b) { return a.time < b.time; });
  std::vector<std::int64_t> free(free_now.begin(), free_now.end());
  std::size_t next = 0;
  for (; next < releases.size() && releases[next].time <= now; ++next) {
    free[releases[next].pool] += releases[next].count;
  }
  for (std::size_t p = 0; p < free.size(); ++p) {
    free_[p].push_back(free[p]);
  }
  for (; next < releases.size() && releases[next].time < horizon; ++next) {
    const GpuRelease& release = releases[next];
    if (release.time != times_.back()) {
      times_.push_back(release.time);
      for (std::size_t p = 0; p < free.size(); ++p) {
        free_[p].push_back(free_[p].back());
      }
    }
    free_[release.pool].back() += release.count;
  }
}

std::size_t AvailabilityProfile::StepAt(SimTime t) const {
  return static_cast<std::size_t>(std::upper_bound(times_.begin(), times_.end(), t) -
                                  times_.begin()) -
         1;
}

std::size_t AvailabilityProfile::FirstStepFrom(SimTime t) const {
  return static_cast<std::size_t>(std::lower_bound(times_.begin(), times_.end(), t) -
                                  times_.begin());
}

std::size_t AvailabilityProfile::SplitStepAt(SimTime t) {
  const std::size_t step = StepAt(t);
  if (times_[step] == t) {
    return step;
  }
  const auto at = static_cast<std::ptrdiff_t>(step + 1);
  times_.insert(times_.begin() + at, t);
  for (std::vector<std::int64_t>& free : free_) {
    free.insert(free.begin() + at, free[step]);
  }
  return step + 1;
}

std::int64_t AvailabilityProfile::MinFree(PoolIndex pool, SimTime start, SimTime end) const {
  const std::vector<std::int64_t>& free = free_[pool];
  const SimTime from = std::max(start, now());
  if (from >= horizon_) {
    return free.back();
  }
  const std::size_t first = StepAt(from);
  const std::size_t last = std::max(first + 1, FirstStepFrom(std::min(end, horizon_)));
  return *std::min_element(free.begin() + static_cast<std::ptrdiff_t>(first),
                           free.begin() + static_cast<std::ptrdiff_t>(last));
}

bool AvailabilityProfile::Fits(std::span<const PoolTake> takes, SimTime start, SimTime end) const {
  return std::all_of(takes.begin(), takes.end(), [&](const PoolTake& take) {
    return take.count <= 0 || MinFree(take.pool, start, end) >= take.count;
  });
}

void AvailabilityProfile::Take(PoolIndex pool, SimTime start, SimTime end, std::int64_t count) {
  const SimTime from = std::max(start, now());
  const SimTime to = std::min(end, horizon_);
  if (from >= to || count == 0) {
    return;
  }
  const std::size_t first = SplitStepAt(from);
  const std::size_t last = to == horizon_ ? times_.size() : SplitStepAt(to);
  std::vector<std::int64_t>& free = free_[pool];
  for (std::size_t step = first; step < last; ++step) {
    free[step] -= count;
  }
}

namespace {

// The minimum of one pool's free counts over a window of steps that only ever moves forward.
class SlidingMin {
 public:
  explicit SlidingMin(const std::vector<std::int64_t>& free) : free_(free) {}

  void Extend(std::size_t step) {
    while (!window_.empty() && free_[window_.back()] >= free_[step]) {
      window_.pop_back();
    }
    window_.push_back(step);
  }
  void DropBefore(std::size_t step) {
    while (!window_.empty() && window_.front() < step) {
      window_.pop_front();
    }
  }
  std::int64_t min() const { return free_[window_.front()]; }

 private:
  const std::vector<std::int64_t>& free_;
  std::deque<std::size_t> window_;  // steps whose free counts increase from front to back
};

}  // namespace

std::optional<SimTime> AvailabilityProfile::EarliestStart(const GpuDemand& demand) const {
  std::vector<SlidingMin> windows;
  windows.reserve(demand.pools.size());
  for (const PoolIndex pool : demand.pools) {
    windows.emplace_back(free_[pool]);
  }
  std::size_t end = 0;  // every window holds steps [start, end)
  for (std::size_t start = 0; start < times_.size(); ++start) {
    const SimTime window_end = times_[start] + demand.duration;
    for (; end < times_.size() && (end <= start || times_[end] < window_end); ++end) {
      for (SlidingMin& window : windows) {
        window.Extend(end);
      }
    }
    std::int64_t available = 0;
    for (SlidingMin& window : windows) {
      window.DropBefore(start);
      const std::int64_t free = std::max<std::int64_t>(0, window.min());
      available = demand.one_pool ? std::max(available, free) : available + free;
    }
    if (available >= demand.gpus) {
      return times_[start];
    }
  }
  return std::nullopt;
}

std::optional<std::vector<PoolTake>> AvailabilityProfile::SplitAt(const GpuDemand& demand,
                                                                  SimTime start) const {
  const SimTime end = start + demand.duration;
  std::vector<PoolTake> takes;
  std::int64_t needed = demand.gpus;
  for (const PoolIndex pool : demand.pools) {
    const std::int64_t free = std::max<std::int64_t>(0, MinFree(pool, start, end));
    if (demand.one_pool) {
      if (free >= needed) {
        return std::vector<PoolTake>{{pool, needed}};
      }
    } else if (free > 0 && needed > 0) {
      takes.push_back({pool, std::min(free, needed)});
      needed -= takes.back().count;
    }
  }
  if (demand.one_pool || needed > 0) {
    return std::nullopt;
  }
  return takes;
}

}  // namespace fleetsim
