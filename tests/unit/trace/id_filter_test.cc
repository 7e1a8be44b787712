// The trace driver's repeated-id filter: exact while it holds few ids, then a Bloom filter that
// keeps every id it had (no repeat missed across the move), moving sooner for long ids.
#include "trace/id_filter.h"

#include <gtest/gtest.h>

#include <string>

namespace fleetsim {
namespace {

std::string Id(std::size_t i) { return "job-" + std::to_string(i); }

TEST(IdFilterTest, KeepsIdsExactlyUpToItsCountThenMovesToTheBloomFilter) {
  IdFilter filter;
  for (std::size_t i = 0; i < IdFilter::kExactIds; ++i) {
    ASSERT_FALSE(filter.TestAndAdd(Id(i))) << i;
  }
  EXPECT_FALSE(filter.uses_bloom_filter());
  EXPECT_TRUE(filter.TestAndAdd(Id(7)));  // a repeat, said exactly
  EXPECT_FALSE(filter.TestAndAdd(Id(IdFilter::kExactIds)));
  EXPECT_TRUE(filter.uses_bloom_filter());
}

TEST(IdFilterTest, EveryIdKeptBeforeTheMoveIsStillFoundAfterIt) {
  IdFilter filter;
  const std::size_t ids = IdFilter::kExactIds + 1000;
  for (std::size_t i = 0; i < ids; ++i) {
    filter.TestAndAdd(Id(i));
  }
  ASSERT_TRUE(filter.uses_bloom_filter());
  for (std::size_t i = 0; i < ids; ++i) {
    ASSERT_TRUE(filter.TestAndAdd(Id(i))) << i;  // a Bloom filter has no false negatives
  }
}

TEST(IdFilterTest, LongIdsMoveToTheBloomFilterOnceTheirTextPassesTheBound) {
  IdFilter filter;
  const std::string pad(64 * 1024, 'x');
  const std::size_t fit = IdFilter::kExactBytes / (pad.size() + 1);
  for (std::size_t i = 0; i < fit; ++i) {
    filter.TestAndAdd(std::string(1, static_cast<char>('!' + i)) + pad);
  }
  EXPECT_FALSE(filter.uses_bloom_filter());
  filter.TestAndAdd("~~" + pad);
  EXPECT_TRUE(filter.uses_bloom_filter());
  EXPECT_TRUE(filter.TestAndAdd(std::string(1, '!') + pad));
}

}  // namespace
}  // namespace fleetsim
