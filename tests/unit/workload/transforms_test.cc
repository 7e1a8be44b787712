// Workload transforms: what each keeps, moves or sets, the notes they report, determinism (same
// seed same result, other seed other result, an own seed independent of the run's), and that
// every job stays valid.
#include "fleetsim/workload/transforms.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

namespace fleetsim {
namespace {

Job MakeJob(const std::string& id, double submit_s, std::int64_t gpus = 1, double duration_s = 60) {
  Job job;
  job.request.id = id;
  job.request.submit = SecondsToTime(submit_s);
  job.request.gpus = gpus;
  job.truth.duration = SecondsToTime(duration_s);
  return job;
}

// `n` one-GPU jobs j0, j1, ... submitted 10 s apart from time 0.
Workload Spaced(int n) {
  Workload w;
  for (int i = 0; i < n; ++i) {
    w.jobs.push_back(MakeJob("j" + std::to_string(i), 10.0 * i));
  }
  return w;
}

std::vector<std::string> Ids(const Workload& w) {
  std::vector<std::string> ids;
  for (const Job& job : w.jobs) {
    ids.push_back(job.request.id);
  }
  return ids;
}

std::vector<SimTime> Submits(const Workload& w) {
  std::vector<SimTime> submits;
  for (const Job& job : w.jobs) {
    submits.push_back(job.request.submit);
  }
  return submits;
}

std::string Problems(const Workload& w) {
  std::string out;
  for (const Job& job : w.jobs) {
    for (const JobProblem& p : ProblemsWith(job)) {
      out += job.request.id + ": " + p.field + ": " + p.message + "\n";
    }
  }
  return out;
}

TransformReport Apply(const TransformSpec& transform, Workload& w, std::uint64_t seed = 1,
                      std::size_t index = 0) {
  return ApplyTransform(transform, index, RandomStreams(seed, 0), w);
}

TEST(TransformsTest, Names) {
  EXPECT_STREQ(TransformName(TimeWindow{}), "window");
  EXPECT_STREQ(TransformName(ScaleArrivals{}), "scale_arrivals");
  EXPECT_STREQ(TransformName(SampleJobs{}), "sample");
  EXPECT_STREQ(TransformName(ShuffleArrivals{}), "shuffle");
  EXPECT_STREQ(TransformName(AssignFields{}), "assign");
  EXPECT_STREQ(TransformName(FitToNodes{}), "fit_to_nodes");
  EXPECT_STREQ(TransformName(Replicate{}), "replicate");
  EXPECT_STREQ(TransformName(WalltimeModel{}), "walltime_model");
}

// ---- window ---------------------------------------------------------------------------------

TEST(TimeWindowTest, KeepsSubmitsInTheHalfOpenWindow) {
  Workload w = Spaced(10);
  const TransformReport report = Apply(TimeWindow{.from = 20'000, .to = 50'000}, w);
  EXPECT_EQ(Ids(w), (std::vector<std::string>{"j2", "j3", "j4"}));
  EXPECT_EQ(Submits(w), (std::vector<SimTime>{20'000, 30'000, 40'000}));
  EXPECT_EQ(report.notes, std::vector<std::string>{"kept 3 of 10 jobs submitted in [20 s, 50 s)"});
}

TEST(TimeWindowTest, ShiftMovesTheStartToZeroWithDeadlines) {
  Workload w = Spaced(10);
  w.jobs[5].request.deadline = SecondsToTime(75);
  const TransformReport report = Apply(TimeWindow{.from = 45'000, .shift = true}, w);
  EXPECT_EQ(Ids(w), (std::vector<std::string>{"j5", "j6", "j7", "j8", "j9"}));
  EXPECT_EQ(Submits(w), (std::vector<SimTime>{5'000, 15'000, 25'000, 35'000, 45'000}));
  EXPECT_EQ(w.jobs[0].request.deadline, 30'000);
  EXPECT_EQ(report.notes, std::vector<std::string>{"kept 5 of 10 jobs submitted in [45 s, no end), "
                                                   "moved 45 s earlier"});
  EXPECT_EQ(Problems(w), "");
}

// ---- scale_arrivals -------------------------------------------------------------------------

TEST(ScaleArrivalsTest, DividesSubmitTimesKeepingDeadlineSlack) {
  Workload w = Spaced(4);
  w.jobs[3].request.deadline = SecondsToTime(100);
  const TransformReport report = Apply(ScaleArrivals{.factor = 2}, w);
  EXPECT_EQ(Submits(w), (std::vector<SimTime>{0, 5'000, 10'000, 15'000}));
  EXPECT_EQ(w.jobs[3].request.deadline, 85'000);
  EXPECT_EQ(report.notes, std::vector<std::string>{"divided the submit times of 4 jobs by 2"});
}

TEST(ScaleArrivalsTest, RoundsToTheMillisecondAndStopsAtTheLatestTime) {
  Workload w;
  w.jobs.push_back(MakeJob("a", 0.001));
  w.jobs.push_back(MakeJob("b", 2e9));
  Apply(ScaleArrivals{.factor = 3}, w);
  EXPECT_EQ(Submits(w), (std::vector<SimTime>{0, 666'666'666'667}));
  const TransformReport report = Apply(ScaleArrivals{.factor = 0.2}, w);
  EXPECT_EQ(w.jobs[1].request.submit, SecondsToTime(kMaxScenarioSeconds));
  EXPECT_EQ(report.notes,
            std::vector<std::string>{"divided the submit times of 2 jobs by 0.2; 1 would have "
                                     "passed 3155760000 s and were set to it"});
}

// ---- sample ---------------------------------------------------------------------------------

TEST(SampleJobsTest, KeepsNJobsInTheirOrder) {
  Workload w = Spaced(100);
  const TransformReport report = Apply(SampleJobs{.jobs = 30}, w);
  ASSERT_EQ(w.jobs.size(), 30U);
  EXPECT_TRUE(std::is_sorted(w.jobs.begin(), w.jobs.end(), [](const Job& a, const Job& b) {
    return a.request.submit < b.request.submit;
  }));
  EXPECT_EQ(report.notes, std::vector<std::string>{"kept 30 of 100 jobs, chosen at random"});
}

TEST(SampleJobsTest, SameSeedSameJobsOtherSeedOthers) {
  Workload a = Spaced(100);
  Workload b = Spaced(100);
  Workload c = Spaced(100);
  Apply(SampleJobs{.jobs = 30}, a, 7);
  Apply(SampleJobs{.jobs = 30}, b, 7);
  Apply(SampleJobs{.jobs = 30}, c, 8);
  EXPECT_EQ(Ids(a), Ids(b));
  EXPECT_NE(Ids(a), Ids(c));
}

TEST(SampleJobsTest, AnOwnSeedIgnoresTheRunSeed) {
  Workload a = Spaced(100);
  Workload b = Spaced(100);
  Apply(SampleJobs{.jobs = 10, .seed = 99}, a, 1);
  Apply(SampleJobs{.jobs = 10, .seed = 99}, b, 2);
  EXPECT_EQ(Ids(a), Ids(b));
}

TEST(SampleJobsTest, EveryJobIsEquallyLikely) {
  std::map<std::string, int> chosen;
  for (std::uint64_t seed = 0; seed < 2000; ++seed) {
    Workload w = Spaced(10);
    Apply(SampleJobs{.jobs = 3}, w, seed);
    for (const std::string& id : Ids(w)) {
      ++chosen[id];
    }
  }
  // Each job is kept with p = 0.3: 600 of 2000, standard deviation ~ 20.5.
  ASSERT_EQ(chosen.size(), 10U);
  for (const auto& [id, count] : chosen) {
    EXPECT_NEAR(count, 600, 90) << id;
  }
}

TEST(SampleJobsTest, AskingForAtLeastAllKeepsAll) {
  Workload w = Spaced(5);
  const TransformReport report = Apply(SampleJobs{.jobs = 8}, w);
  EXPECT_EQ(w.jobs.size(), 5U);
  EXPECT_EQ(report.notes, std::vector<std::string>{"kept all 5 jobs (8 asked for)"});
}

// ---- shuffle --------------------------------------------------------------------------------

TEST(ShuffleArrivalsTest, JobsMoveTheArrivalInstantsStay) {
  Workload w = Spaced(50);
  w.jobs[0].request.deadline = SecondsToTime(30);
  const TransformReport report = Apply(ShuffleArrivals{}, w);
  EXPECT_EQ(Ids(w), Ids(Spaced(50)));
  std::vector<SimTime> submits = Submits(w);
  EXPECT_NE(submits, Submits(Spaced(50)));
  std::sort(submits.begin(), submits.end());
  EXPECT_EQ(submits, Submits(Spaced(50)));
  EXPECT_EQ(w.jobs[0].request.deadline, w.jobs[0].request.submit + 30'000);
  EXPECT_EQ(report.notes, std::vector<std::string>{"permuted the submit times of 50 jobs"});
}

TEST(ShuffleArrivalsTest, SameSeedSamePermutationOtherSeedOrIndexAnother) {
  Workload a = Spaced(50);
  Workload b = Spaced(50);
  Workload c = Spaced(50);
  Workload d = Spaced(50);
  Apply(ShuffleArrivals{}, a, 3);
  Apply(ShuffleArrivals{}, b, 3);
  Apply(ShuffleArrivals{}, c, 4);
  Apply(ShuffleArrivals{}, d, 3, 1);
  EXPECT_EQ(Submits(a), Submits(b));
  EXPECT_NE(Submits(a), Submits(c));
  EXPECT_NE(Submits(a), Submits(d));
}

// ---- assign ---------------------------------------------------------------------------------

TEST(AssignFieldsTest, FirstMatchingRuleWins) {
  Workload w;
  w.jobs.push_back(MakeJob("small", 0, 1, 600));
  w.jobs.push_back(MakeJob("big", 0, 64, 86400));
  w.jobs.push_back(MakeJob("mid", 0, 8, 7200));
  w.jobs.push_back(MakeJob("quick", 0, 8, 60));
  AssignFields assign;
  assign.rules.push_back(
      {.when = {.gpus = IntBounds{.min = 32}},
       .set = {.tenant = "research", .priority = 5, .kind = JobKind::kPretraining}});
  assign.rules.push_back(
      {.when = {.duration = DurationBounds{.max = 3'600'000}}, .set = {.priority_class = "short"}});
  assign.rules.push_back(
      {.when = {.gpus = IntBounds{.min = 2, .max = 8}}, .set = {.kind = JobKind::kFineTuning}});
  const TransformReport report = Apply(assign, w);
  EXPECT_EQ(w.jobs[0].request.priority_class, "short");  // 600 s < 3600 s
  EXPECT_EQ(w.jobs[0].request.kind, JobKind::kUnspecified);
  EXPECT_EQ(w.jobs[1].request.tenant, "research");
  EXPECT_EQ(w.jobs[1].request.priority, 5);
  EXPECT_EQ(w.jobs[1].request.kind, JobKind::kPretraining);
  EXPECT_EQ(w.jobs[2].request.kind, JobKind::kFineTuning);
  EXPECT_EQ(w.jobs[2].request.priority_class, "");
  EXPECT_EQ(w.jobs[3].request.priority_class, "short");  // rule 1 before rule 2
  EXPECT_EQ(w.jobs[3].request.kind, JobKind::kUnspecified);
  EXPECT_EQ(report.notes, std::vector<std::string>{"rule 0 matched 1 jobs; rule 1 matched 2 jobs; "
                                                   "rule 2 matched 1 jobs; 0 matched no rule and "
                                                   "were left as they were"});
}

TEST(AssignFieldsTest, PredicatesOnTenantClassAndKind) {
  Workload w = Spaced(4);
  w.jobs[0].request.tenant = "a";
  w.jobs[1].request.priority_class = "LS";
  w.jobs[2].request.kind = JobKind::kInteractive;
  AssignFields assign;
  assign.rules.push_back({.when = {.tenant = "a"}, .set = {.priority = 2}});
  assign.rules.push_back({.when = {.priority_class = "LS"}, .set = {.priority = 3}});
  assign.rules.push_back({.when = {.kind = JobKind::kInteractive}, .set = {.priority = 4}});
  Apply(assign, w);
  EXPECT_EQ(w.jobs[0].request.priority, 2);
  EXPECT_EQ(w.jobs[1].request.priority, 3);
  EXPECT_EQ(w.jobs[2].request.priority, 4);
  EXPECT_EQ(w.jobs[3].request.priority, 1);
}

TEST(AssignFieldsTest, JobsGivenAsWorkNeverMatchADurationRange) {
  Workload w = Spaced(1);
  w.jobs[0].truth = {.duration = 0, .work_gpu_hours = 2, .recorded_state = ""};
  AssignFields assign;
  assign.rules.push_back({.when = {.duration = DurationBounds{}}, .set = {.tenant = "t"}});
  Apply(assign, w);
  EXPECT_EQ(w.jobs[0].request.tenant, "default");
}

TEST(AssignFieldsTest, TheMixSetsOnlyItsFieldsOnUnmatchedJobs) {
  Workload w = Spaced(1000);
  w.jobs[0].request.gpus = 4;
  AssignFields assign;
  assign.rules.push_back(
      {.when = {.gpus = IntBounds{.min = 4, .max = 4}}, .set = {.tenant = "fixed"}});
  assign.mix.tenant = {{"x", "y"}, {1, 3}};
  assign.mix.kind = {{JobKind::kBatchInference}, {1}};
  const TransformReport report = Apply(assign, w);
  EXPECT_EQ(w.jobs[0].request.tenant, "fixed");
  EXPECT_EQ(w.jobs[0].request.kind, JobKind::kUnspecified);
  std::map<std::string, int> tenants;
  for (std::size_t i = 1; i < w.jobs.size(); ++i) {
    ++tenants[w.jobs[i].request.tenant];
    EXPECT_EQ(w.jobs[i].request.kind, JobKind::kBatchInference);
    EXPECT_EQ(w.jobs[i].request.priority, 1);
    EXPECT_EQ(w.jobs[i].request.priority_class, "");
  }
  // 999 draws with p = 3/4: standard deviation ~ 13.7.
  EXPECT_NEAR(tenants["y"], 749, 60);
  EXPECT_EQ(tenants["x"] + tenants["y"], 999);
  EXPECT_EQ(report.notes,
            std::vector<std::string>{"rule 0 matched 1 jobs; the mix set 999 others"});
}

TEST(AssignFieldsTest, MixIsReproducibleAndSeedDependent) {
  AssignFields assign;
  assign.mix.priority = {{1, 2, 3, 4}, {1, 1, 1, 1}};
  const auto priorities = [&assign](std::uint64_t seed) {
    Workload w = Spaced(100);
    Apply(assign, w, seed);
    std::vector<std::int64_t> out;
    for (const Job& job : w.jobs) {
      out.push_back(job.request.priority);
    }
    return out;
  };
  EXPECT_EQ(priorities(1), priorities(1));
  EXPECT_NE(priorities(1), priorities(2));
}

TEST(AssignFieldsTest, JobsWithDemandCurvesKeepTheirKind) {
  Workload w = Spaced(2);
  w.jobs[0].request.kind = JobKind::kRealtimeInference;
  w.jobs[0].request.demand = DemandCurve{.step = 3'600'000, .gpus = {1}, .swap_cap = 0};
  AssignFields assign;
  assign.rules.push_back({.when = {}, .set = {.tenant = "svc", .kind = JobKind::kPretraining}});
  const TransformReport report = Apply(assign, w);
  EXPECT_EQ(w.jobs[0].request.kind, JobKind::kRealtimeInference);
  EXPECT_EQ(w.jobs[0].request.tenant, "svc");
  EXPECT_EQ(w.jobs[1].request.kind, JobKind::kPretraining);
  EXPECT_EQ(report.notes, std::vector<std::string>{"rule 0 matched 2 jobs; 0 matched no rule and "
                                                   "were left as they were; 1 jobs with demand "
                                                   "curves kept kind 'realtime-inference'"});
  EXPECT_EQ(Problems(w), "");
}

// ---- fit_to_nodes ---------------------------------------------------------------------------

std::vector<std::int64_t> FittedSizes(const FitToNodes& fit, const std::vector<std::int64_t>& gpus,
                                      bool pow2_block = false) {
  Workload w;
  for (const std::int64_t g : gpus) {
    w.jobs.push_back(MakeJob("j" + std::to_string(g), 0, g));
    w.jobs.back().request.pow2_block = pow2_block && (g & (g - 1)) == 0;
  }
  Apply(fit, w);
  EXPECT_EQ(Problems(w), "");
  std::vector<std::int64_t> out;
  for (const Job& job : w.jobs) {
    out.push_back(job.request.gpus);
  }
  return out;
}

using Sizes = std::vector<std::int64_t>;

TEST(FitToNodesTest, PhillySizesOntoEightGpuNodes) {
  EXPECT_EQ(FittedSizes({.gpus_per_node = 8}, {1, 2, 3, 5, 8, 12, 17, 128}),
            (Sizes{1, 2, 4, 8, 8, 16, 24, 128}));
  EXPECT_EQ(FittedSizes({.gpus_per_node = 8, .round_small_to_pow2 = false}, {3, 5, 8, 12}),
            (Sizes{3, 5, 8, 16}));
}

TEST(FitToNodesTest, AResizedJobNoLongerCarriesTheWordsOfItsOldSize) {
  Workload w;
  w.jobs = {MakeJob("resized", 0, 3), MakeJob("kept", 0, 8)};
  w.jobs[0].request.gres = "gpu:3";
  w.jobs[1].request.resources = "nvidia.com/gpu=8";
  Apply(FitToNodes{.gpus_per_node = 8}, w);
  EXPECT_EQ(w.jobs[0].request.gpus, 4);
  EXPECT_EQ(w.jobs[0].request.gres, "");
  EXPECT_EQ(w.jobs[1].request.resources, "nvidia.com/gpu=8");
}

TEST(FitToNodesTest, SmallJobsRoundUpNoFurtherThanANode) {
  EXPECT_EQ(FittedSizes({.gpus_per_node = 6}, {3, 5, 7}), (Sizes{4, 6, 12}));
}

TEST(FitToNodesTest, BlockJobsStayPowersOfTwo) {
  Workload w;
  w.jobs.push_back(MakeJob("block", 0, 16));
  w.jobs.back().request.pow2_block = true;
  w.jobs.back().request.max_gpus = 64;
  Apply(FitToNodes{.gpus_per_node = 6, .max_gpus = 48, .drop_above_max = false}, w);
  EXPECT_EQ(w.jobs[0].request.gpus, 16);
  EXPECT_EQ(w.jobs[0].request.max_gpus, 32);
  EXPECT_EQ(Problems(w), "");
}

TEST(FitToNodesTest, JobsAboveTheCapAreDroppedAndCounted) {
  Workload w;
  for (const std::int64_t g : {1, 64, 65, 128, 100}) {
    w.jobs.push_back(MakeJob("j" + std::to_string(g), 0, g));
  }
  const TransformReport report = Apply(FitToNodes{.gpus_per_node = 8, .max_gpus = 64}, w);
  EXPECT_EQ(Ids(w), (std::vector<std::string>{"j1", "j64"}));
  EXPECT_EQ(report.notes, std::vector<std::string>{"resized 0 of 5 jobs for 8-GPU nodes; dropped 3 "
                                                   "needing more than 64 GPUs (largest asked for "
                                                   "128)"});
}

TEST(FitToNodesTest, OrClampedToTheLargestFittingSize) {
  Workload w;
  for (const std::int64_t g : {60, 128}) {
    w.jobs.push_back(MakeJob("j" + std::to_string(g), 0, g));
  }
  const TransformReport report =
      Apply(FitToNodes{.gpus_per_node = 8, .max_gpus = 60, .drop_above_max = false}, w);
  ASSERT_EQ(w.jobs.size(), 2U);
  EXPECT_EQ(w.jobs[0].request.gpus, 56);
  EXPECT_EQ(w.jobs[1].request.gpus, 56);
  EXPECT_EQ(report.notes, std::vector<std::string>{"resized 2 of 2 jobs for 8-GPU nodes; cut 2 "
                                                   "down to at most 60 GPUs"});
}

TEST(FitToNodesTest, ElasticJobsAndDemandCurvesFollowTheirMaximum) {
  Workload w;
  w.jobs.push_back(MakeJob("svc", 0, 3));
  JobRequest& r = w.jobs[0].request;
  r.kind = JobKind::kRealtimeInference;
  r.max_gpus = 40;
  r.demand = DemandCurve{.step = 3'600'000, .gpus = {3, 20, 40}, .swap_cap = 0};
  Apply(FitToNodes{.gpus_per_node = 8, .max_gpus = 32}, w);
  EXPECT_EQ(w.jobs[0].request.gpus, 4);
  EXPECT_EQ(w.jobs[0].request.max_gpus, 32);
  EXPECT_EQ(w.jobs[0].request.demand->gpus, (Sizes{3, 20, 32}));
  EXPECT_EQ(Problems(w), "");
}

TEST(FitToNodesTest, CpuOnlyAndFractionalJobsStay) {
  Workload w;
  w.jobs.push_back(MakeJob("cpu", 0, 0));
  w.jobs.back().request.cpu_milli = 4000;
  w.jobs.push_back(MakeJob("share", 0, 1));
  w.jobs.back().request.sharing = GpuSharing::kFraction;
  w.jobs.back().request.gpu_milli = 250;
  const TransformReport report = Apply(FitToNodes{.gpus_per_node = 8, .max_gpus = 8}, w);
  EXPECT_EQ(w.jobs[0].request.gpus, 0);
  EXPECT_EQ(w.jobs[1].request.gpus, 1);
  EXPECT_EQ(report.notes, std::vector<std::string>{"resized 0 of 2 jobs for 8-GPU nodes"});
  EXPECT_EQ(Problems(w), "");
}

TEST(FitToNodesTest, NeverExceedsTheLargestJobSize) {
  Workload w;
  w.jobs.push_back(MakeJob("huge", 0, kMaxJobGpus));
  Apply(FitToNodes{.gpus_per_node = 7, .drop_above_max = false}, w);
  EXPECT_EQ(w.jobs[0].request.gpus, kMaxJobGpus / 7 * 7);
  EXPECT_EQ(Problems(w), "");
}

// ---- replicate ------------------------------------------------------------------------------

TEST(ReplicateTest, CopiesEveryJobWithDistinctIdsAndOffsets) {
  Workload w = Spaced(2);
  w.jobs[1].request.deadline = SecondsToTime(100);
  const TransformReport r = Apply(Replicate{.copies = 3, .offset = SecondsToTime(1000)}, w);
  EXPECT_EQ(Ids(w), (std::vector<std::string>{"j0", "j1", "j0.r1", "j1.r1", "j0.r2", "j1.r2"}));
  EXPECT_EQ(Submits(w),
            (std::vector<SimTime>{0, SecondsToTime(10), SecondsToTime(1000), SecondsToTime(1010),
                                  SecondsToTime(2000), SecondsToTime(2010)}));
  EXPECT_EQ(w.jobs[5].request.deadline, SecondsToTime(2100)) << "the deadline keeps its slack";
  EXPECT_EQ(w.jobs[4].truth.duration, w.jobs[0].truth.duration);
  EXPECT_EQ(r.notes,
            (std::vector<std::string>{
                "3 copies of each of 2 jobs (6 jobs), copy k submitted k x 1000 s later"}));
  EXPECT_EQ(Problems(w), "");
}

TEST(ReplicateTest, ACopysIdNeverCollidesWithAnExistingOne) {
  Workload w;
  w.jobs.push_back(MakeJob("a", 0));
  w.jobs.push_back(MakeJob("a.r1", 0));
  Apply(Replicate{.copies = 2, .offset = 0}, w);
  EXPECT_EQ(Ids(w), (std::vector<std::string>{"a", "a.r1", "a.r1_", "a.r1.r1"}));
}

TEST(ReplicateTest, OneCopyLeavesTheWorkload) {
  Workload w = Spaced(3);
  Apply(Replicate{.copies = 1, .offset = SecondsToTime(5)}, w);
  EXPECT_EQ(Ids(w), (std::vector<std::string>{"j0", "j1", "j2"}));
}

// ---- walltime_model -------------------------------------------------------------------------

std::vector<SimDuration> Estimates(const Workload& w) {
  std::vector<SimDuration> estimates;
  for (const Job& job : w.jobs) {
    estimates.push_back(job.request.walltime_estimate);
  }
  return estimates;
}

TEST(WalltimeModelTest, ExactAndFactorOnJobsWithoutAnEstimate) {
  Workload w = Spaced(2);
  w.jobs[1].request.walltime_estimate = SecondsToTime(7);
  Apply(WalltimeModel{.estimate = WalltimeEstimate::kExact}, w);
  EXPECT_EQ(Estimates(w), (std::vector<SimDuration>{SecondsToTime(60), SecondsToTime(7)}));
  const TransformReport r =
      Apply(WalltimeModel{.estimate = WalltimeEstimate::kFactor, .factor = 1.5, .all = true}, w);
  EXPECT_EQ(Estimates(w), (std::vector<SimDuration>{SecondsToTime(90), SecondsToTime(90)}));
  EXPECT_EQ(
      r.notes,
      (std::vector<std::string>{"set the walltime estimates of 2 jobs from run times x factor"}));
}

TEST(WalltimeModelTest, RoundsUpToCommonLimitsThenWholeDays) {
  Workload w;
  for (const double duration_s : {60.0, 901.0, 3600.0, 50000.0, 700000.0}) {
    w.jobs.push_back(MakeJob("j" + std::to_string(w.jobs.size()), 0, 1, duration_s));
  }
  Apply(WalltimeModel{.estimate = WalltimeEstimate::kExact, .round_to_common_limits = true}, w);
  EXPECT_EQ(Estimates(w),
            (std::vector<SimDuration>{SecondsToTime(900), SecondsToTime(1800), SecondsToTime(3600),
                                      SecondsToTime(86400), SecondsToTime(9 * 86400)}));
}

TEST(WalltimeModelTest, LognormalErrorsAreSeededAndCentredOnTheFactor) {
  const WalltimeModel model{.estimate = WalltimeEstimate::kLognormal, .factor = 2, .sigma = 0.5};
  Workload a = Spaced(2000);
  Workload b = Spaced(2000);
  Workload c = Spaced(2000);
  Apply(model, a, 1);
  Apply(model, b, 1);
  Apply(model, c, 2);
  EXPECT_EQ(Estimates(a), Estimates(b));
  EXPECT_NE(Estimates(a), Estimates(c));
  std::vector<SimDuration> sorted = Estimates(a);
  std::sort(sorted.begin(), sorted.end());
  const double median_ratio = TimeToSeconds(sorted[sorted.size() / 2]) / 60.0;
  EXPECT_NEAR(median_ratio, 2.0, 0.1);
  EXPECT_EQ(Problems(a), "");
}

TEST(WalltimeModelTest, JobsGivenAsWorkKeepTheirEstimate) {
  Workload w = Spaced(2);
  w.jobs[0].truth.duration = 0;
  w.jobs[0].truth.work_gpu_hours = 1;
  const TransformReport r = Apply(WalltimeModel{.estimate = WalltimeEstimate::kExact}, w);
  EXPECT_EQ(Estimates(w), (std::vector<SimDuration>{0, SecondsToTime(60)}));
  EXPECT_EQ(r.notes, (std::vector<std::string>{
                         "set the walltime estimates of 1 jobs from exact run times; 1 jobs given "
                         "as work have no run time and kept theirs"}));
}

}  // namespace
}  // namespace fleetsim
