// Allocation bookkeeping for a fleet of identical whole GPUs.
#include "fleetsim/fleet/fleet.h"

#include <bit>

#include "fleetsim/core/check.h"

namespace fleetsim {

namespace {
constexpr std::int64_t kWordBits = 64;
std::size_t WordOf(GpuId gpu) { return gpu / 64U; }
std::uint64_t MaskOf(GpuId gpu) { return std::uint64_t{1} << (gpu % 64U); }
}  // namespace

AllocationState::AllocationState(const FleetSpec& spec)
    : capacity_(spec.gpus),
      free_(spec.gpus),
      busy_words_(static_cast<std::size_t>((spec.gpus + kWordBits - 1) / kWordBits), 0) {
  FLEETSIM_CHECK(spec.gpus >= 0 && spec.gpus <= kMaxFleetGpus, "fleet size out of range");
}

bool AllocationState::IsFree(GpuId gpu) const {
  FLEETSIM_CHECK(IsValid(gpu), "GPU id out of range");
  return (busy_words_[WordOf(gpu)] & MaskOf(gpu)) == 0;
}

std::vector<GpuId> AllocationState::LowestFree(std::int64_t count) const {
  std::vector<GpuId> found;
  if (count > free_ || count <= 0) {
    return found;
  }
  found.reserve(static_cast<std::size_t>(count));
  for (std::size_t w = 0; w < busy_words_.size(); ++w) {
    std::uint64_t free_bits = ~busy_words_[w];
    while (free_bits != 0) {
      const auto bit = static_cast<std::uint64_t>(std::countr_zero(free_bits));
      const std::uint64_t gpu = w * 64U + bit;
      if (gpu >= static_cast<std::uint64_t>(capacity_)) {
        break;
      }
      found.push_back(static_cast<GpuId>(gpu));
      if (static_cast<std::int64_t>(found.size()) == count) {
        return found;
      }
      free_bits &= free_bits - 1;
    }
  }
  FLEETSIM_CHECK(false, "free count disagrees with the busy bitmap");
  return {};
}

void AllocationState::Allocate(std::span<const GpuId> gpus) {
  for (const GpuId gpu : gpus) {
    FLEETSIM_CHECK(IsFree(gpu), "allocating a busy GPU");
    SetBusy(gpu, true);
  }
}

void AllocationState::Release(std::span<const GpuId> gpus) {
  for (const GpuId gpu : gpus) {
    FLEETSIM_CHECK(!IsFree(gpu), "releasing a free GPU");
    SetBusy(gpu, false);
  }
}

void AllocationState::SetBusy(GpuId gpu, bool busy) {
  const std::uint64_t mask = MaskOf(gpu);
  std::uint64_t& word = busy_words_[WordOf(gpu)];
  if (busy) {
    word |= mask;
    --free_;
  } else {
    word &= ~mask;
    ++free_;
  }
  FLEETSIM_CHECK(free_ >= 0 && free_ <= capacity_, "busy + free must equal capacity");
}

}  // namespace fleetsim
