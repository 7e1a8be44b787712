// The synthetic generator: reproducible per seed, different across seeds, values drawn only from
// the configured sets.
#include "fleetsim/workload/generator.h"

#include <gtest/gtest.h>

namespace fleetsim {
namespace {

GeneratorSpec Spec() {
  GeneratorSpec spec;
  spec.jobs = 500;
  spec.mean_interarrival_s = 60;
  spec.duration_median_s = 600;
  spec.duration_sigma = 1.0;
  spec.duration_max_s = 3600;
  spec.gpus = {{1, 2, 8}, {1, 1, 1}};
  spec.priority = {{1, 5}, {3, 1}};
  return spec;
}

Workload Generate(std::uint64_t seed) {
  Workload w;
  GenerateJobs(Spec(), RandomStreams(seed, 0), w);
  return w;
}

TEST(GeneratorTest, SameSeedSameJobs) {
  const Workload a = Generate(3);
  const Workload b = Generate(3);
  ASSERT_EQ(a.jobs.size(), 500U);
  for (std::size_t i = 0; i < a.jobs.size(); ++i) {
    EXPECT_EQ(a.jobs[i].request.id, b.jobs[i].request.id);
    EXPECT_EQ(a.jobs[i].request.submit, b.jobs[i].request.submit);
    EXPECT_EQ(a.jobs[i].truth.duration, b.jobs[i].truth.duration);
  }
}

TEST(GeneratorTest, DifferentSeedDifferentJobs) {
  const Workload a = Generate(3);
  const Workload b = Generate(4);
  int same_submit = 0;
  for (std::size_t i = 1; i < a.jobs.size(); ++i) {
    same_submit += a.jobs[i].request.submit == b.jobs[i].request.submit ? 1 : 0;
  }
  EXPECT_LT(same_submit, 5);
}

TEST(GeneratorTest, RespectsSpecification) {
  const Workload w = Generate(9);
  EXPECT_EQ(w.jobs.front().request.id, "g000001");
  EXPECT_EQ(w.jobs.front().request.submit, 0);
  double total_gap_s = 0;
  for (std::size_t i = 0; i < w.jobs.size(); ++i) {
    const Job& job = w.jobs[i];
    EXPECT_TRUE(job.request.gpus == 1 || job.request.gpus == 2 || job.request.gpus == 8);
    EXPECT_TRUE(job.request.priority == 1 || job.request.priority == 5);
    EXPECT_GT(job.truth.duration, 0);
    EXPECT_LE(job.truth.duration, 3'600'000);
    if (i > 0) {
      EXPECT_GE(job.request.submit, w.jobs[i - 1].request.submit);
      total_gap_s += TimeToSeconds(job.request.submit - w.jobs[i - 1].request.submit);
    }
  }
  // 499 exponential gaps of mean 60 s: standard error 60/sqrt(499) ~ 2.7 s.
  EXPECT_NEAR(total_gap_s / 499, 60, 12);
}

}  // namespace
}  // namespace fleetsim
