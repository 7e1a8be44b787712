// AvailabilityProfile: free whole GPUs per pool as a step function of time, from `now` up to a
// horizon — the timeline reservation-based policies (backfill) plan on. It starts from what is
// free now plus the times at which busy GPUs are expected to come free, and policies then take
// capacity out of it over intervals: jobs started now until their estimated end, reservations from
// their planned start. Everything at or after the horizon is outside the profile: intervals are
// clipped to [now, horizon), releases at or after it are dropped, and a start is only sought
// before it. Counts are per pool only (which GPUs, NVLink domains and nodes is the placement
// helper's business), so "fits" here means "enough GPUs of the accepted pools", not "placeable".
// Cost: a profile of s steps (distinct release, start and end times) and p pools answers MinFree
// in O(steps covered), EarliestStart in O(s x pools of the demand), Take in O(s x p) (it may split
// a step). Value type; thread-compatible.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "fleetsim/core/time.h"
#include "fleetsim/ledger/fleet_ledger.h"

namespace fleetsim {

// `count` GPUs of `pool` come free at `time`.
struct GpuRelease {
  SimTime time = 0;
  PoolIndex pool = 0;
  std::int64_t count = 0;
};

// What a job needs of the profile: `gpus` GPUs for `duration`, from the accepted `pools`, either
// counted together (a job may span pools) or all in one pool (`one_pool`: power-of-two blocks and
// NVLink-required jobs sit in one NVLink domain, hence one pool).
struct GpuDemand {
  std::int64_t gpus = 0;
  SimDuration duration = 0;
  std::vector<PoolIndex> pools{};
  bool one_pool = false;
};

// GPUs of one pool taken over [start, end).
struct PoolTake {
  PoolIndex pool = 0;
  std::int64_t count = 0;

  bool operator==(const PoolTake&) const = default;
};

class AvailabilityProfile {
 public:
  // `free_now[p]`: GPUs of pool p free at `now`. Releases may come in any order; those at or
  // before `now` count as free now. Precondition (checked): now < horizon.
  AvailabilityProfile(SimTime now, SimTime horizon, std::span<const std::int64_t> free_now,
                      std::vector<GpuRelease> releases);

  SimTime now() const { return times_.front(); }
  SimTime horizon() const { return horizon_; }
  std::size_t pools() const { return free_.size(); }
  // Distinct times at which the free counts change, `now` included.
  std::size_t steps() const { return times_.size(); }

  // The fewest GPUs of `pool` free at any time in [start, end) (clipped to the profile; the free
  // count at the horizon's edge when the interval lies wholly outside it).
  std::int64_t MinFree(PoolIndex pool, SimTime start, SimTime end) const;
  // Whether every take fits over [start, end): the free count of its pool never drops below it.
  bool Fits(std::span<const PoolTake> takes, SimTime start, SimTime end) const;
  // Takes `count` GPUs of `pool` over [start, end) (clipped). The count may go negative: callers
  // that must not over-commit check Fits first.
  void Take(PoolIndex pool, SimTime start, SimTime end, std::int64_t count);

  // The earliest time in [now, horizon) at which the demand fits until start + duration (clipped
  // to the horizon), or nullopt if it fits at no time before the horizon. Starts are sought at the
  // profile's step times only: a later start inside a step sees a superset of its steps.
  std::optional<SimTime> EarliestStart(const GpuDemand& demand) const;
  // How the demand would be taken at `start` if it fits there: for one-pool demands the first
  // accepted pool that holds it all; otherwise each accepted pool in the order given, as many as
  // it has free throughout, until the count is met. nullopt if it does not fit.
  std::optional<std::vector<PoolTake>> SplitAt(const GpuDemand& demand, SimTime start) const;

 private:
  // The index of the step containing t (t >= now).
  std::size_t StepAt(SimTime t) const;
  // Makes `t` (now < t < horizon) a step boundary; returns its step index.
  std::size_t SplitStepAt(SimTime t);
  // The first step index at or after `t` (steps() when t is at or past the last step).
  std::size_t FirstStepFrom(SimTime t) const;

  SimTime horizon_;
  std::vector<SimTime> times_;                   // step start times, ascending; times_[0] == now
  std::vector<std::vector<std::int64_t>> free_;  // [pool][step]
};

}  // namespace fleetsim
