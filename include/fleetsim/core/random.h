// Deterministic randomness owned end to end: a generator (xoshiro256**), named streams and the
// distributions fleetsim draws from. Nothing here uses std::*_distribution, whose algorithms
// differ between standard libraries; every draw is specified in docs/determinism.md, so the same
// (seed, run, stream name) yields the same numbers with any compiler and standard library. The
// continuous distributions call the C math library (log, log1p, exp, sqrt, lgamma); glibc's are
// deterministic, but another libm may differ in the last bit.
//
// Streams: every random component asks RandomStreams for a stream by a stable name
// ("workload.generator", later "spot.pool-a"); the stream's state is derived from
// (seed, run, name) alone, so adding a component never shifts the numbers another one draws.
// Rng objects are values (copy = fork of the sequence); not thread-safe, one per component.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace fleetsim {

// xoshiro256** 1.0 (Blackman & Vigna), seeded through SplitMix64.
class Rng {
 public:
  explicit Rng(std::uint64_t seed);

  std::uint64_t NextU64();
  // Uniform on [0, 1) with 53 random bits.
  double NextDouble();

 private:
  std::array<std::uint64_t, 4> state_{};
};

// Derives independent generators from (seed, run, stream name).
class RandomStreams {
 public:
  RandomStreams(std::uint64_t seed, std::uint64_t run) : seed_(seed), run_(run) {}

  Rng Stream(std::string_view name) const;
  std::uint64_t seed() const { return seed_; }
  std::uint64_t run() const { return run_; }

 private:
  std::uint64_t seed_;
  std::uint64_t run_;
};

// FNV-1a, 64-bit, of the bytes of `text`: a fixed, portable hash (stream names, per-job seeds).
std::uint64_t Fnv1a64(std::string_view text);

// SplitMix64's finalizer: a bijective mix of the bits of `x` (a hash's second opinion).
std::uint64_t Mix64(std::uint64_t x);

// Uniform real on [low, high).
double UniformReal(Rng& rng, double low, double high);
// Uniform integer on [low, high], inclusive, without modulo bias.
std::int64_t UniformInt(Rng& rng, std::int64_t low, std::int64_t high);
// Exponential with the given mean (> 0).
double Exponential(Rng& rng, double mean);
// Normal by the Marsaglia polar method (one value per call; the second is discarded).
double Normal(Rng& rng, double mean, double stddev);
// exp(Normal(mu, sigma)); the median is exp(mu).
double LogNormal(Rng& rng, double mu, double sigma);
// Poisson with mean lambda >= 0: multiplication method below 10, Hormann's PTRS from 10 on.
std::int64_t Poisson(Rng& rng, double lambda);

// Picks index i with probability weights[i] / sum(weights). Weights must be finite, >= 0, and
// not all zero (validated by the caller; checked here).
class WeightedChoice {
 public:
  explicit WeightedChoice(const std::vector<double>& weights);
  std::size_t operator()(Rng& rng) const;

 private:
  std::vector<double> cumulative_;
  std::size_t last_positive_ = 0;  // returned if rounding puts a draw on the total
};

}  // namespace fleetsim
