// The synthetic generator: reproducible per seed, different across seeds, values drawn only from
// the configured sets, the documented draws of the original generator unchanged, new attributes
// drawn from streams of their own, diurnal arrivals following their hourly profile (checked
// against the binomial spread), and generated services with valid demand curves.
#include "fleetsim/workload/generator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

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

Workload Generate(const GeneratorSpec& spec, std::uint64_t seed,
                  const std::string& stream = kGeneratorStream) {
  Workload w;
  GenerateJobs(spec, RandomStreams(seed, 0), w, stream);
  return w;
}

Workload Generate(std::uint64_t seed) { return Generate(Spec(), seed); }

std::string Problems(const Job& job) {
  std::string out;
  for (const JobProblem& p : ProblemsWith(job)) {
    out += p.field + ": " + p.message + "\n";
  }
  return out;
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
    EXPECT_EQ(job.request.kind, JobKind::kUnspecified);
    EXPECT_EQ(job.request.tenant, "default");
    EXPECT_EQ(job.request.walltime_estimate, 0);
    EXPECT_FALSE(job.request.demand.has_value());
    if (i > 0) {
      EXPECT_GE(job.request.submit, w.jobs[i - 1].request.submit);
      total_gap_s += TimeToSeconds(job.request.submit - w.jobs[i - 1].request.submit);
    }
  }
  // 499 exponential gaps of mean 60 s: standard error 60/sqrt(499) ~ 2.7 s.
  EXPECT_NEAR(total_gap_s / 499, 60, 12);
}

// docs/determinism.md lists the first jobs of scenarios/examples/poisson-64.json with seed 42, as
// the first generator drew them; blocks and new attributes must not have changed them.
TEST(GeneratorTest, DrawsOfTheOriginalGeneratorAreUnchanged) {
  GeneratorSpec spec;
  spec.jobs = 2000;
  spec.mean_interarrival_s = 350;
  spec.duration_median_s = 3600;
  spec.duration_sigma = 1.0;
  spec.duration_max_s = 172800;
  spec.gpus = {{1, 2, 4, 8, 16}, {40, 25, 18, 12, 5}};
  spec.priority = {{1, 2, 4}, {60, 30, 10}};
  const Workload w = Generate(spec, 42);
  ASSERT_EQ(w.jobs.size(), 2000U);
  const struct {
    SimTime submit;
    SimDuration duration;
    std::int64_t gpus;
    std::int64_t priority;
  } expected[] = {{0, 1'741'744, 2, 1}, {79'485, 492'278, 8, 2}, {242'509, 10'748'739, 1, 1}};
  for (std::size_t i = 0; i < std::size(expected); ++i) {
    EXPECT_EQ(w.jobs[i].request.submit, expected[i].submit) << i;
    EXPECT_EQ(w.jobs[i].truth.duration, expected[i].duration) << i;
    EXPECT_EQ(w.jobs[i].request.gpus, expected[i].gpus) << i;
    EXPECT_EQ(w.jobs[i].request.priority, expected[i].priority) << i;
  }
}

TEST(GeneratorTest, BlockStreamNames) {
  EXPECT_EQ(GeneratorStreamName(0), "workload.generator");
  EXPECT_EQ(GeneratorStreamName(1), "workload.generator.1");
  EXPECT_EQ(GeneratorStreamName(12), "workload.generator.12");
}

TEST(GeneratorTest, AnotherBlockStreamGivesOtherJobs) {
  const Workload a = Generate(Spec(), 3, GeneratorStreamName(0));
  const Workload b = Generate(Spec(), 3, GeneratorStreamName(1));
  int same_duration = 0;
  for (std::size_t i = 0; i < a.jobs.size(); ++i) {
    same_duration += a.jobs[i].truth.duration == b.jobs[i].truth.duration ? 1 : 0;
  }
  EXPECT_LT(same_duration, 5);
}

TEST(GeneratorTest, KindAndTenantMixesLeaveTheOtherDrawsUnchanged) {
  GeneratorSpec spec = Spec();
  spec.kind = {{JobKind::kPretraining, JobKind::kFineTuning}, {1, 3}};
  spec.tenant = {{"vision", "speech", "nlp"}, {1, 1, 2}};
  const Workload plain = Generate(Spec(), 5);
  const Workload mixed = Generate(spec, 5);
  std::map<JobKind, int> kinds;
  std::set<std::string> tenants;
  for (std::size_t i = 0; i < plain.jobs.size(); ++i) {
    const Job& a = plain.jobs[i];
    const Job& b = mixed.jobs[i];
    EXPECT_EQ(a.request.submit, b.request.submit);
    EXPECT_EQ(a.truth.duration, b.truth.duration);
    EXPECT_EQ(a.request.gpus, b.request.gpus);
    EXPECT_EQ(a.request.priority, b.request.priority);
    ++kinds[b.request.kind];
    tenants.insert(b.request.tenant);
  }
  EXPECT_EQ(kinds.size(), 2U);
  // 500 draws with p = 3/4: standard deviation ~ 9.7.
  EXPECT_NEAR(kinds[JobKind::kFineTuning], 375, 40);
  EXPECT_EQ(tenants, (std::set<std::string>{"nlp", "speech", "vision"}));
}

TEST(GeneratorTest, EmpiricalDurationsTakeOnlyTheListedValues) {
  GeneratorSpec spec = Spec();
  spec.duration_mix = {{60, 3600, 0.0004}, {1, 1, 1}};
  std::map<SimDuration, int> seen;
  for (const Job& job : Generate(spec, 2).jobs) {
    ++seen[job.truth.duration];
  }
  // 0.0004 s rounds to 0 ms and is raised to the 1 ms minimum.
  EXPECT_EQ(seen.size(), 3U);
  EXPECT_GT(seen[1], 100);
  EXPECT_GT(seen[60'000], 100);
  EXPECT_GT(seen[3'600'000], 100);
}

TEST(GeneratorTest, WalltimeEstimateIsDurationTimesFactor) {
  GeneratorSpec spec = Spec();
  spec.duration_mix = {{100, 250.5}, {1, 1}};
  spec.walltime_factor = 1.5;
  for (const Job& job : Generate(spec, 2).jobs) {
    EXPECT_EQ(job.request.walltime_estimate, job.truth.duration * 3 / 2) << job.request.id;
  }
}

// Arrivals per hour of the day over many days, for a profile with a quiet night, a busy working
// day and zero rate from 00:00 to 06:00.
GeneratorSpec DiurnalSpec(std::int64_t jobs) {
  GeneratorSpec spec = Spec();
  spec.jobs = jobs;
  spec.arrival_profile = {0, 0, 0, 0, 0, 0, 1, 1, 2, 4, 4, 4, 4, 4, 4, 4, 4, 2, 1, 1, 1, 1, 1, 1};
  return spec;
}

std::vector<int> ArrivalsPerHour(const Workload& w) {
  std::vector<int> per_hour(kHoursPerDay, 0);
  for (const Job& job : w.jobs) {
    ++per_hour[static_cast<std::size_t>((job.request.submit / 3'600'000) % 24)];
  }
  return per_hour;
}

TEST(GeneratorTest, DiurnalArrivalsFollowTheHourlyProfile) {
  const GeneratorSpec spec = DiurnalSpec(40'000);
  const Workload w = Generate(spec, 11);
  const std::vector<int> per_hour = ArrivalsPerHour(w);
  const double n = static_cast<double>(spec.jobs);
  double total_weight = 0;
  for (const double weight : spec.arrival_profile) {
    total_weight += weight;
  }
  for (std::size_t h = 0; h < kHoursPerDay; ++h) {
    const double p = spec.arrival_profile[h] / total_weight;
    const double sd = std::sqrt(n * p * (1 - p));
    // Four binomial standard deviations (plus one job for the last, partial day).
    EXPECT_NEAR(per_hour[h], n * p, 4 * sd + 1) << "hour " << h;
  }
  // The working day (09:00-17:00, 8 hours of weight 4) holds 32/44 of the arrivals.
  int peak = 0;
  for (std::size_t h = 9; h < 17; ++h) {
    peak += per_hour[h];
  }
  const double p_peak = 32.0 / 44.0;
  EXPECT_NEAR(peak, n * p_peak, 4 * std::sqrt(n * p_peak * (1 - p_peak)));
}

TEST(GeneratorTest, DiurnalArrivalsKeepTheMeanRateOverADay) {
  const Workload w = Generate(DiurnalSpec(20'000), 12);
  // 20000 arrivals at 1440 a day take ~13.9 days; a Poisson count's relative spread is
  // 1/sqrt(20000) ~ 0.7 %.
  const double days = TimeToSeconds(w.jobs.back().request.submit) / 86400;
  EXPECT_NEAR(days, 20'000.0 / 1440, 13.9 * 0.03);
  for (std::size_t i = 1; i < w.jobs.size(); ++i) {
    ASSERT_GE(w.jobs[i].request.submit, w.jobs[i - 1].request.submit);
  }
}

TEST(GeneratorTest, DiurnalArrivalsAreReproducibleAndSeedDependent) {
  const Workload a = Generate(DiurnalSpec(300), 3);
  const Workload b = Generate(DiurnalSpec(300), 3);
  const Workload c = Generate(DiurnalSpec(300), 4);
  int same = 0;
  for (std::size_t i = 0; i < a.jobs.size(); ++i) {
    EXPECT_EQ(a.jobs[i].request.submit, b.jobs[i].request.submit);
    same += a.jobs[i].request.submit == c.jobs[i].request.submit ? 1 : 0;
  }
  EXPECT_LT(same, 5);
  // The first arrival is drawn too: it falls in the first hour with a positive rate, 06:00.
  EXPECT_GE(a.jobs.front().request.submit, 6 * 3'600'000);
}

GeneratorSpec ServiceSpec() {
  GeneratorSpec spec = Spec();
  spec.jobs = 200;
  spec.gpus = {{1, 4, 16, 64}, {1, 1, 1, 1}};
  spec.demand =
      DemandProfileSpec{.base_fraction = 0.2, .peak_hour = 15, .noise = 0.3, .swap_cap = 3};
  return spec;
}

TEST(GeneratorTest, ServicesHaveValidDailyDemandCurves) {
  for (const Job& job : Generate(ServiceSpec(), 8).jobs) {
    const JobRequest& r = job.request;
    ASSERT_TRUE(r.demand.has_value()) << r.id;
    const DemandCurve& curve = *r.demand;
    EXPECT_EQ(r.kind, JobKind::kRealtimeInference);
    EXPECT_EQ(curve.step, 3'600'000);
    EXPECT_EQ(curve.swap_cap, 3);
    ASSERT_EQ(curve.gpus.size(), kHoursPerDay);
    const std::int64_t lowest = *std::min_element(curve.gpus.begin(), curve.gpus.end());
    EXPECT_EQ(r.gpus, std::max<std::int64_t>(1, lowest)) << r.id;
    EXPECT_EQ(r.MaxGpus(), std::max(r.gpus, curve.Peak())) << r.id;
    EXPECT_LE(curve.Peak(), 64);
    for (std::size_t h = 0; h < kHoursPerDay; ++h) {
      const std::int64_t before = curve.gpus[(h + kHoursPerDay - 1) % kHoursPerDay];
      EXPECT_LE(std::abs(curve.gpus[h] - before), 3) << r.id << " hour " << h;
    }
    EXPECT_EQ(Problems(job), "") << r.id;
  }
}

TEST(GeneratorTest, ServiceCurvesComeFromTheirOwnStream) {
  const Workload plain = Generate(Spec(), 6);
  GeneratorSpec spec = Spec();
  spec.demand = ServiceSpec().demand;
  const Workload services = Generate(spec, 6);
  for (std::size_t i = 0; i < plain.jobs.size(); ++i) {
    EXPECT_EQ(plain.jobs[i].request.submit, services.jobs[i].request.submit);
    EXPECT_EQ(plain.jobs[i].truth.duration, services.jobs[i].truth.duration);
    EXPECT_EQ(plain.jobs[i].request.priority, services.jobs[i].request.priority);
  }
}

TEST(GeneratorTest, EveryFeatureTogetherYieldsValidJobs) {
  GeneratorSpec spec = DiurnalSpec(2000);
  spec.duration_mix = {{1, 86400}, {1, 1}};
  spec.kind = {{JobKind::kRealtimeInference, JobKind::kInteractive}, {1, 1}};
  spec.tenant = {{"a", "b"}, {1, 0}};
  spec.walltime_factor = 0.5;
  for (const Job& job : Generate(spec, 1).jobs) {
    EXPECT_EQ(Problems(job), "") << job.request.id;
    EXPECT_EQ(job.request.tenant, "a");
  }
  spec.kind = {};
  spec.demand = ServiceSpec().demand;
  for (const Job& job : Generate(spec, 1).jobs) {
    EXPECT_EQ(Problems(job), "") << job.request.id;
  }
}

}  // namespace
}  // namespace fleetsim
