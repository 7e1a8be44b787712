// Allocation state of a fleet's whole GPUs, numbered 0..N-1 (fleet_spec.h). AllocationState
// records which GPUs are busy and answers "which GPUs are free" without a scan per GPU (a 64-bit
// word per 64 GPUs). The invariant busy + free == capacity is checked on every change.
// Owned by one simulation; not thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "fleetsim/fleet/fleet_spec.h"

namespace fleetsim {

using GpuId = std::uint32_t;

class AllocationState {
 public:
  explicit AllocationState(const FleetSpec& spec);

  std::int64_t capacity() const { return capacity_; }
  std::int64_t free_count() const { return free_; }
  std::int64_t busy_count() const { return capacity_ - free_; }
  bool IsFree(GpuId gpu) const;
  bool IsValid(GpuId gpu) const { return gpu < capacity_; }
  // The busy set as a bitset: GPU g is busy when bit g % 64 of word g / 64 is set (bits past
  // capacity() are clear).
  std::span<const std::uint64_t> busy_words() const { return busy_words_; }

  // The `count` lowest-numbered free GPUs, or an empty vector when fewer are free.
  std::vector<GpuId> LowestFree(std::int64_t count) const;

  // Preconditions (checked): every GPU valid, free, and listed once.
  void Allocate(std::span<const GpuId> gpus);
  // Preconditions (checked): every GPU valid and busy.
  void Release(std::span<const GpuId> gpus);

 private:
  void SetBusy(GpuId gpu, bool busy);

  std::int64_t capacity_;
  std::int64_t free_;
  std::vector<std::uint64_t> busy_words_;
};

}  // namespace fleetsim
