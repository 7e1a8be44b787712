// The one total order on simulation events, defined here and nowhere else:
// (time, phase, sequence). Events at the same time run phase by phase, and within a phase in the
// order they were scheduled (sequence numbers are unique per queue and increase). Phases make
// same-time outcomes independent of scheduling order: capacity released at t is visible to
// arrivals at t, a job that finishes at the instant its node goes has finished, and the policy
// runs once after all of them.
// Value type; thread-compatible.
#pragma once

#include <compare>
#include <cstdint>

#include "fleetsim/core/time.h"

namespace fleetsim {

enum class Phase : std::uint8_t {
  kRelease = 0,   // jobs finish, capacity comes back
  kFleet = 1,     // nodes are announced for reclaim, go down, come back; jobs leave them
  kArrival = 2,   // jobs are submitted
  kSchedule = 3,  // the policy is consulted
  kObserve = 4,   // samplers and end-of-step observers
};

inline constexpr int kSequenceBits = 56;
inline constexpr std::uint64_t kMaxSequence = (std::uint64_t{1} << kSequenceBits) - 1;

class EventKey {
 public:
  EventKey(SimTime time, Phase phase, std::uint64_t sequence)
      : time_(time),
        phase_and_sequence_((static_cast<std::uint64_t>(phase) << kSequenceBits) | sequence) {}

  SimTime time() const { return time_; }
  Phase phase() const { return static_cast<Phase>(phase_and_sequence_ >> kSequenceBits); }
  std::uint64_t sequence() const { return phase_and_sequence_ & kMaxSequence; }

  // Lexicographic on (time, phase, sequence): phase sits above the sequence bits.
  friend auto operator<=>(const EventKey&, const EventKey&) = default;

 private:
  SimTime time_;
  std::uint64_t phase_and_sequence_;
};

}  // namespace fleetsim
