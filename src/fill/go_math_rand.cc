// Go's math/rand, reimplemented; the cooked register computed by jumping the recurrence ahead.
#include "fill/go_math_rand.h"

#include "fleetsim/core/check.h"

namespace fleetsim {

namespace {

constexpr std::int32_t kInt32Max = 2147483647;  // 2^31 - 1, the Park-Miller modulus

// x -> 48271 x mod (2^31 - 1), by Schrage's method (no overflow in 32 bits).
std::int32_t ParkMiller(std::int32_t x) {
  constexpr std::int32_t kA = 48271;
  constexpr std::int32_t kQ = 44488;
  constexpr std::int32_t kR = 3399;
  const std::int32_t hi = x / kQ;
  const std::int32_t lo = x % kQ;
  x = kA * lo - kR * hi;
  return x < 0 ? x + kInt32Max : x;
}

constexpr int kLength = GoMathRand::kLength;
using Poly = std::vector<std::uint64_t>;  // coefficients, lowest first, mod 2^64

// a * b modulo x^607 - x^334 - 1 (the characteristic polynomial of x[n] = x[n-607] + x[n-273]).
Poly MultiplyModCharacteristic(const Poly& a, const Poly& b) {
  Poly product(2 * kLength - 1, 0);
  for (int i = 0; i < kLength; ++i) {
    if (a[static_cast<std::size_t>(i)] == 0) {
      continue;
    }
    for (int j = 0; j < kLength; ++j) {
      product[static_cast<std::size_t>(i + j)] +=
          a[static_cast<std::size_t>(i)] * b[static_cast<std::size_t>(j)];
    }
  }
  // x^607 = x^334 + 1: fold the high terms down, highest first.
  for (int k = 2 * kLength - 2; k >= kLength; --k) {
    const std::uint64_t c = product[static_cast<std::size_t>(k)];
    product[static_cast<std::size_t>(k - kLength + (kLength - GoMathRand::kTap))] += c;
    product[static_cast<std::size_t>(k - kLength)] += c;
  }
  product.resize(kLength);
  return product;
}

// x^power modulo the characteristic polynomial.
Poly PowerOfX(std::uint64_t power) {
  Poly result(kLength, 0);
  result[0] = 1;
  Poly base(kLength, 0);
  base[1] = 1;
  for (; power > 0; power >>= 1) {
    if ((power & 1U) != 0) {
      result = MultiplyModCharacteristic(result, base);
    }
    base = MultiplyModCharacteristic(base, base);
  }
  return result;
}

// Go's seeding: after 20 discarded steps of the Park-Miller sequence from `seed`, each register
// word packs three more values, shifted left by `high` and `middle` bits and not shifted.
std::array<std::uint64_t, kLength> ParkMillerRegister(std::int32_t seed, int high, int middle) {
  std::array<std::uint64_t, kLength> words{};
  std::int32_t x = seed;
  for (int i = -20; i < kLength; ++i) {
    x = ParkMiller(x);
    if (i >= 0) {
      std::uint64_t u = static_cast<std::uint64_t>(x) << high;
      x = ParkMiller(x);
      u ^= static_cast<std::uint64_t>(x) << middle;
      x = ParkMiller(x);
      u ^= static_cast<std::uint64_t>(x);
      words[static_cast<std::size_t>(i)] = u;
    }
  }
  return words;
}

// The register after `steps` steps of the generator started from Go's cooking seed (1, with the
// cooking program's shifts), laid out as Go's register: position p holds the last value written
// there. Writes go to positions 333, 332, ..., 0, 606, ..., 334, 333, ...; so the value written at
// step t lands at position (333 - t) mod 607, and the initial register holds, at position p, the
// term s[t - 607] with t = (333 - p) mod 607.
std::array<std::uint64_t, kLength> Cook(std::uint64_t steps) {
  constexpr int kFirstFeed = kLength - GoMathRand::kTap - 1;  // 333
  const std::array<std::uint64_t, kLength> initial = ParkMillerRegister(1, 20, 10);
  // terms[k] = s[k - 607] for k in [0, 2 * 607): the initial window, then 607 more terms.
  std::vector<std::uint64_t> terms(2 * kLength);
  for (int p = 0; p < kLength; ++p) {
    const int t = ((kFirstFeed - p) % kLength + kLength) % kLength;
    terms[static_cast<std::size_t>(t)] = initial[static_cast<std::size_t>(p)];
  }
  for (int k = kLength; k < 2 * kLength; ++k) {
    terms[static_cast<std::size_t>(k)] = terms[static_cast<std::size_t>(k - kLength)] +
                                         terms[static_cast<std::size_t>(k - GoMathRand::kTap)];
  }
  // s[steps - 607 + i] = sum_j q_j s[-607 + i + j] with q = x^steps.
  const Poly q = PowerOfX(steps);
  std::array<std::uint64_t, kLength> cooked{};
  for (int i = 0; i < kLength; ++i) {
    std::uint64_t value = 0;
    for (int j = 0; j < kLength; ++j) {
      value += q[static_cast<std::size_t>(j)] * terms[static_cast<std::size_t>(i + j)];
    }
    const std::uint64_t t = steps - kLength + static_cast<std::uint64_t>(i);  // its step
    const auto p = static_cast<std::size_t>(
        ((kFirstFeed - static_cast<std::int64_t>(t % kLength)) % kLength + kLength) % kLength);
    cooked[p] = value;
  }
  return cooked;
}

}  // namespace

const std::array<std::uint64_t, GoMathRand::kLength>& GoMathRand::CookedRegister() {
  static const std::array<std::uint64_t, kLength> cooked = Cook(7'800'000'000'000ULL);
  return cooked;
}

GoMathRand::GoMathRand(std::int64_t seed) {
  seed %= kInt32Max;
  if (seed < 0) {
    seed += kInt32Max;
  }
  if (seed == 0) {
    seed = 89482311;
  }
  const auto& cooked = CookedRegister();
  register_ = ParkMillerRegister(static_cast<std::int32_t>(seed), 40, 20);
  for (std::size_t i = 0; i < register_.size(); ++i) {
    register_[i] ^= cooked[i];
  }
}

std::uint64_t GoMathRand::Uint64() {
  if (--tap_ < 0) {
    tap_ += kLength;
  }
  if (--feed_ < 0) {
    feed_ += kLength;
  }
  const std::uint64_t x =
      register_[static_cast<std::size_t>(feed_)] + register_[static_cast<std::size_t>(tap_)];
  register_[static_cast<std::size_t>(feed_)] = x;
  return x;
}

std::int32_t GoMathRand::Int31n(std::int32_t n) {
  FLEETSIM_CHECK(n > 0, "Int31n needs a positive bound");
  if ((n & (n - 1)) == 0) {
    return Int31() & (n - 1);
  }
  const auto max = static_cast<std::int32_t>(
      (std::uint32_t{1} << 31) - 1 - (std::uint32_t{1} << 31) % static_cast<std::uint32_t>(n));
  std::int32_t v = Int31();
  while (v > max) {
    v = Int31();
  }
  return v % n;
}

std::int64_t GoMathRand::Intn(std::int64_t n) {
  FLEETSIM_CHECK(n > 0 && n <= kInt32Max, "Intn is implemented for bounds in (0, 2^31)");
  return Int31n(static_cast<std::int32_t>(n));
}

std::int32_t GoMathRand::MultiplyShiftInt31n(std::int32_t n) {
  const auto bound = static_cast<std::uint32_t>(n);
  std::uint64_t product = std::uint64_t{Uint32()} * bound;
  auto low = static_cast<std::uint32_t>(product);
  if (low < bound) {
    const std::uint32_t threshold = (0U - bound) % bound;
    while (low < threshold) {
      product = std::uint64_t{Uint32()} * bound;
      low = static_cast<std::uint32_t>(product);
    }
  }
  return static_cast<std::int32_t>(product >> 32);
}

std::vector<std::int64_t> GoMathRand::Perm(std::int64_t n) {
  FLEETSIM_CHECK(n >= 0 && n <= kInt32Max, "Perm is implemented for sizes in [0, 2^31)");
  std::vector<std::int64_t> m(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const auto j = static_cast<std::size_t>(Intn(i + 1));
    m[static_cast<std::size_t>(i)] = m[j];
    m[j] = i;
  }
  return m;
}

}  // namespace fleetsim
