// IdFilter (id_filter.h): an exact set of the first ids, then a fixed-size Bloom filter.
#include "trace/id_filter.h"

#include <cstdlib>
#include <new>

#include "fleetsim/core/random.h"

namespace fleetsim {

namespace {

constexpr std::uint64_t kBits = std::uint64_t{1} << 27;
constexpr std::size_t kWords = kBits / 64;
constexpr int kProbes = 4;

}  // namespace

void IdFilter::Free::operator()(std::uint64_t* p) const { std::free(p); }

bool IdFilter::TestAndAdd(const std::string& id) {
  if (words_) {
    return BloomTestAndAdd(id);
  }
  if (!exact_.insert(id).second) {
    return true;
  }
  exact_bytes_ += id.size();
  if (exact_.size() > kExactIds || exact_bytes_ > kExactBytes) {
    MoveToBloomFilter();
  }
  return false;
}

// Empties the set one id at a time as the filter takes them, so the two are not both full.
void IdFilter::MoveToBloomFilter() {
  words_.reset(static_cast<std::uint64_t*>(std::calloc(kWords, sizeof(std::uint64_t))));
  if (!words_) {
    throw std::bad_alloc();
  }
  while (!exact_.empty()) {
    BloomTestAndAdd(exact_.extract(exact_.begin()).value());
  }
  std::unordered_set<std::string>().swap(exact_);  // and its buckets
  exact_bytes_ = 0;
}

bool IdFilter::BloomTestAndAdd(const std::string& id) {
  std::uint64_t h1 = Fnv1a64(id);
  const std::uint64_t h2 = Mix64(h1) | 1;
  bool all_set = true;
  for (int probe = 0; probe < kProbes; ++probe) {
    const std::uint64_t bit = h1 & (kBits - 1);
    std::uint64_t& word = words_.get()[bit / 64];
    const std::uint64_t mask = std::uint64_t{1} << (bit % 64);
    all_set = all_set && (word & mask) != 0;
    word |= mask;
    h1 += h2;
  }
  return all_set;
}

}  // namespace fleetsim
