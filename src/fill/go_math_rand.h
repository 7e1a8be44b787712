// A reimplementation of the Go standard library's math/rand (the v1 source and the Rand methods
// below), so that fleetsim can draw exactly the numbers a Go program seeded the same way draws:
// the FGD paper's artifact (a Go simulator) takes its shuffles, resampling and node order from
// it, and replaying those is what makes a per-seed reproduction possible (docs/validation.md).
//
// The source is Mitchell and Reeds' additive lagged Fibonacci generator, x[n] = x[n-607] +
// x[n-273] mod 2^64, seeded from a Park-Miller sequence XORed with a fixed "cooked" register:
// the generator's state 7.8e12 steps after a seed of 1. Go ships that register as a table; here
// it is computed, once, by jumping the recurrence ahead (polynomial arithmetic modulo its
// characteristic polynomial), so no table is copied. Methods follow Go's definitions, including
// their rejection loops, and consume the stream exactly as Go does. Not thread-safe.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "fleetsim/core/check.h"

namespace fleetsim {

class GoMathRand {
 public:
  static constexpr int kLength = 607;  // the register
  static constexpr int kTap = 273;     // the second lag

  explicit GoMathRand(std::int64_t seed);

  std::uint64_t Uint64();
  std::int64_t Int63() { return static_cast<std::int64_t>(Uint64() & ~(std::uint64_t{1} << 63)); }
  std::int32_t Int31() { return static_cast<std::int32_t>(Int63() >> 32); }
  std::uint32_t Uint32() { return static_cast<std::uint32_t>(Int63() >> 31); }
  // Go's Int on a 64-bit platform.
  std::int64_t Int() { return Int63(); }
  // Uniform in [0, n), n in (0, 2^31): Go's rejection on Int31.
  std::int32_t Int31n(std::int32_t n);
  // Uniform in [0, n), n in (0, 2^31) (Go takes Int63n above that; not needed here).
  std::int64_t Intn(std::int64_t n);
  // Go's Shuffle of `items` (Fisher-Yates from the top, with its multiply-shift int31n).
  template <typename T>
  void Shuffle(std::vector<T>& items) {
    FLEETSIM_CHECK(items.size() < (std::size_t{1} << 31),
                   "Shuffle is implemented below 2^31 items");
    for (std::size_t i = items.size(); i > 1; --i) {
      const auto j = static_cast<std::size_t>(MultiplyShiftInt31n(static_cast<std::int32_t>(i)));
      std::swap(items[i - 1], items[j]);
    }
  }
  // Go's Perm(n): a permutation of 0..n-1.
  std::vector<std::int64_t> Perm(std::int64_t n);

  // The register Go seeds from (exposed for its test).
  static const std::array<std::uint64_t, kLength>& CookedRegister();

 private:
  std::int32_t MultiplyShiftInt31n(std::int32_t n);

  int tap_ = 0;
  int feed_ = kLength - kTap;
  std::array<std::uint64_t, kLength> register_{};
};

}  // namespace fleetsim
