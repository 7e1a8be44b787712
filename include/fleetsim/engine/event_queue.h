// EventQueue<Payload>: the pending events of one simulation, popped in EventKey order, with
// cancellation. A 4-ary min-heap of (key, slot) entries; payloads live in a slot table so that a
// cancelled event is marked dead in O(1) and skipped when it reaches the top. Handles carry a
// generation, so cancelling an event that already ran (or was already cancelled) is a no-op
// that returns false rather than hitting a reused slot.
// Owned by one simulation; not thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "fleetsim/core/check.h"
#include "fleetsim/engine/event_key.h"

namespace fleetsim {

struct EventHandle {
  std::uint32_t slot = UINT32_MAX;
  std::uint32_t generation = 0;
};

template <typename Payload>
class EventQueue {
 public:
  struct Event {
    EventKey key;
    Payload payload;
  };

  // Schedules `payload` at (time, phase); the sequence number is assigned here.
  EventHandle Schedule(SimTime time, Phase phase, Payload payload) {
    FLEETSIM_CHECK(next_sequence_ <= kMaxSequence, "event sequence numbers exhausted");
    const std::uint32_t slot = AcquireSlot(std::move(payload));
    heap_.push_back({EventKey(time, phase, next_sequence_++), slot});
    SiftUp(heap_.size() - 1);
    ++live_;
    return {slot, slots_[slot].generation};
  }

  // Cancels a pending event. Returns false if it already ran or was cancelled.
  bool Cancel(EventHandle handle) {
    if (handle.slot >= slots_.size()) {
      return false;
    }
    Slot& s = slots_[handle.slot];
    if (!s.pending || s.generation != handle.generation) {
      return false;
    }
    s.pending = false;
    --live_;
    return true;
  }

  // The key of the next live event, if any.
  std::optional<EventKey> PeekKey() {
    DropCancelledTop();
    if (heap_.empty()) {
      return std::nullopt;
    }
    return heap_.front().key;
  }

  // Removes and returns the next live event.
  std::optional<Event> Pop() {
    DropCancelledTop();
    if (heap_.empty()) {
      return std::nullopt;
    }
    const Entry top = heap_.front();
    RemoveTop();
    Slot& s = slots_[top.slot];
    s.pending = false;
    --live_;
    Event event{top.key, std::move(s.payload)};
    ReleaseSlot(top.slot);
    return event;
  }

  std::size_t size() const { return live_; }
  bool empty() const { return live_ == 0; }

  void Reserve(std::size_t n) {
    heap_.reserve(n);
    slots_.reserve(n);
  }

 private:
  static constexpr std::size_t kArity = 4;

  struct Entry {
    EventKey key;
    std::uint32_t slot;
  };
  struct Slot {
    Payload payload{};
    std::uint32_t generation = 0;
    bool pending = false;  // scheduled, not yet run or cancelled (cancelled entries linger in
                           // the heap until they reach the top)
  };

  std::uint32_t AcquireSlot(Payload payload) {
    std::uint32_t slot = 0;
    if (free_slots_.empty()) {
      slot = static_cast<std::uint32_t>(slots_.size());
      slots_.emplace_back();
    } else {
      slot = free_slots_.back();
      free_slots_.pop_back();
    }
    Slot& s = slots_[slot];
    s.payload = std::move(payload);
    s.pending = true;
    return slot;
  }

  void ReleaseSlot(std::uint32_t slot) {
    ++slots_[slot].generation;
    free_slots_.push_back(slot);
  }

  void DropCancelledTop() {
    while (!heap_.empty() && !slots_[heap_.front().slot].pending) {
      const std::uint32_t slot = heap_.front().slot;
      RemoveTop();
      ReleaseSlot(slot);
    }
  }

  void RemoveTop() {
    heap_.front() = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) {
      SiftDown(0);
    }
  }

  void SiftUp(std::size_t i) {
    const Entry moving = heap_[i];
    while (i > 0) {
      const std::size_t parent = (i - 1) / kArity;
      if (!(moving.key < heap_[parent].key)) {
        break;
      }
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = moving;
  }

  void SiftDown(std::size_t i) {
    const Entry moving = heap_[i];
    const std::size_t n = heap_.size();
    while (true) {
      const std::size_t first = i * kArity + 1;
      if (first >= n) {
        break;
      }
      std::size_t best = first;
      const std::size_t last = first + kArity < n ? first + kArity : n;
      for (std::size_t c = first + 1; c < last; ++c) {
        if (heap_[c].key < heap_[best].key) {
          best = c;
        }
      }
      if (!(heap_[best].key < moving.key)) {
        break;
      }
      heap_[i] = heap_[best];
      i = best;
    }
    heap_[i] = moving;
  }

  std::vector<Entry> heap_;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_slots_;
  std::uint64_t next_sequence_ = 0;
  std::size_t live_ = 0;
};

}  // namespace fleetsim
