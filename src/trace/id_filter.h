// The trace driver's test for repeated job ids (import.cc): a filter that says whether an id may
// have been seen before, in memory bounded whatever the trace's length. Every positive is
// confirmed exactly on a second pass over the trace. Internal to the trace readers.
// Thread-compatible.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_set>

namespace fleetsim {

// The first kExactIds ids (up to kExactBytes of their text) are kept exactly (a set); past that,
// every id goes into a fixed-size Bloom filter of 2^27 bits (16 MiB) and 4 probes, which gives
// under 1 % false positives up to about 14 million ids. A short trace thus never pays for the
// filter's 16 MiB (4,096 pages, each faulted in on first touch).
class IdFilter {
 public:
  static constexpr std::size_t kExactIds = 16384;
  // The ids' text the set may hold: long ids move to the filter sooner, so memory stays bounded.
  static constexpr std::size_t kExactBytes = std::size_t{4} << 20;

  // Adds `id`; returns whether it may have been added before (exactly so while the ids are kept
  // in the set).
  bool TestAndAdd(const std::string& id);

  // Whether the ids have moved to the Bloom filter.
  bool uses_bloom_filter() const { return words_ != nullptr; }

 private:
  void MoveToBloomFilter();
  bool BloomTestAndAdd(const std::string& id);

  struct Free {
    void operator()(std::uint64_t* p) const;
  };
  std::unordered_set<std::string> exact_;
  std::size_t exact_bytes_ = 0;
  std::unique_ptr<std::uint64_t, Free> words_;  // null while the ids are kept exactly
};

}  // namespace fleetsim
