// The generator, stream derivation and distributions declared in random.h.
#include "fleetsim/core/random.h"

#include <algorithm>
#include <cmath>

#include "fleetsim/core/check.h"

namespace fleetsim {

namespace {

std::uint64_t SplitMix64(std::uint64_t& x) {
  x += 0x9E3779B97F4A7C15ULL;
  return Mix64(x);
}

std::uint64_t Rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

std::uint64_t Mix64(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

std::uint64_t Fnv1a64(std::string_view text) {
  std::uint64_t hash = 0xCBF29CE484222325ULL;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001B3ULL;
  }
  return hash;
}

Rng::Rng(std::uint64_t seed) {
  std::uint64_t x = seed;
  for (std::uint64_t& word : state_) {
    word = SplitMix64(x);
  }
}

std::uint64_t Rng::NextU64() {
  const std::uint64_t result = Rotl(state_[1] * 5, 7) * 9;
  const std::uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = Rotl(state_[3], 45);
  return result;
}

double Rng::NextDouble() { return static_cast<double>(NextU64() >> 11) * 0x1.0p-53; }

Rng RandomStreams::Stream(std::string_view name) const {
  std::uint64_t x = seed_;
  std::uint64_t mixed = SplitMix64(x);
  x = mixed ^ run_;
  mixed = SplitMix64(x);
  x = mixed ^ Fnv1a64(name);
  return Rng(SplitMix64(x));
}

double UniformReal(Rng& rng, double low, double high) {
  return low + (high - low) * rng.NextDouble();
}

std::int64_t UniformInt(Rng& rng, std::int64_t low, std::int64_t high) {
  FLEETSIM_CHECK(low <= high, "UniformInt needs low <= high");
  const std::uint64_t range =
      static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low) + 1;
  if (range == 0) {  // the full 64-bit range
    return static_cast<std::int64_t>(rng.NextU64());
  }
  // Reject the lowest (2^64 mod range) values so that every residue is equally likely.
  const std::uint64_t threshold = (0 - range) % range;
  std::uint64_t r = rng.NextU64();
  while (r < threshold) {
    r = rng.NextU64();
  }
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(low) + r % range);
}

double Exponential(Rng& rng, double mean) { return -std::log1p(-rng.NextDouble()) * mean; }

double Normal(Rng& rng, double mean, double stddev) {
  double u = 0;
  double v = 0;
  double s = 0;
  do {
    u = 2.0 * rng.NextDouble() - 1.0;
    v = 2.0 * rng.NextDouble() - 1.0;
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  return mean + stddev * u * std::sqrt(-2.0 * std::log(s) / s);
}

double LogNormal(Rng& rng, double mu, double sigma) { return std::exp(Normal(rng, mu, sigma)); }

namespace {

std::int64_t PoissonByMultiplication(Rng& rng, double lambda) {
  const double limit = std::exp(-lambda);
  std::int64_t k = 0;
  double product = rng.NextDouble();
  while (product > limit) {
    ++k;
    product *= rng.NextDouble();
  }
  return k;
}

// W. Hormann, "The transformed rejection method for generating Poisson random variables",
// Insurance: Mathematics and Economics 12 (1993), algorithm PTRS.
std::int64_t PoissonByTransformedRejection(Rng& rng, double lambda) {
  const double slam = std::sqrt(lambda);
  const double loglam = std::log(lambda);
  const double b = 0.931 + 2.53 * slam;
  const double a = -0.059 + 0.02483 * b;
  const double inv_alpha = 1.1239 + 1.1328 / (b - 3.4);
  const double vr = 0.9277 - 3.6224 / (b - 2);
  while (true) {
    const double u = rng.NextDouble() - 0.5;
    const double v = rng.NextDouble();
    const double us = 0.5 - std::fabs(u);
    const double k = std::floor((2 * a / us + b) * u + lambda + 0.43);
    if (us >= 0.07 && v <= vr) {
      return static_cast<std::int64_t>(k);
    }
    if (k < 0 || (us < 0.013 && v > us)) {
      continue;
    }
    if (std::log(v) + std::log(inv_alpha) - std::log(a / (us * us) + b) <=
        -lambda + k * loglam - std::lgamma(k + 1)) {
      return static_cast<std::int64_t>(k);
    }
  }
}

}  // namespace

std::int64_t Poisson(Rng& rng, double lambda) {
  FLEETSIM_CHECK(lambda >= 0 && std::isfinite(lambda), "Poisson needs a finite lambda >= 0");
  return lambda < 10 ? PoissonByMultiplication(rng, lambda)
                     : PoissonByTransformedRejection(rng, lambda);
}

WeightedChoice::WeightedChoice(const std::vector<double>& weights) {
  double total = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    const double w = weights[i];
    FLEETSIM_CHECK(std::isfinite(w) && w >= 0, "weights must be finite and >= 0");
    total += w;
    cumulative_.push_back(total);
    if (w > 0) {
      last_positive_ = i;
    }
  }
  FLEETSIM_CHECK(total > 0, "at least one weight must be positive");
}

std::size_t WeightedChoice::operator()(Rng& rng) const {
  const double x = rng.NextDouble() * cumulative_.back();
  const auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), x);
  // x < total unless rounding put it on the total; then the last positive weight wins.
  return it == cumulative_.end() ? last_positive_
                                 : static_cast<std::size_t>(it - cumulative_.begin());
}

}  // namespace fleetsim
