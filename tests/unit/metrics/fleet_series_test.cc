// FleetSeries on real runs: what its slices add up to is what the other observers measure —
// GPU-time held is the timeline's segments, jobs running is the jobs' run time, GPUs down is the
// timeline's outages, real-time demand and service are RealtimeDemand's, time queued is each
// job's life minus its run time — for the fleet and summed over pools, and held GPU-time slice by
// slice against the segments; slices are round, at most
// FleetSeries::kMaxSlices, and start at the first submission; and the CSV has one row per slice
// and scope. Over benchmark and example scenarios with services, spot reclaims (preempted jobs
// queued again), autoscaled (released) nodes, a rejected job, several pools and bare fleets,
// under every built-in policy.
#include "fleetsim/metrics/fleet_series.h"

#include <gtest/gtest.h>

#include <string>

#include "fleetsim/policy/registry.h"
#include "fleetsim/report/outputs.h"
#include "fleetsim/scenario/runner.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

constexpr double kMsPerHour = 3'600'000.0;

struct Case {
  std::string scenario;
  std::string policy;
};

std::string CaseName(const ::testing::TestParamInfo<Case>& info) {
  std::string name = info.param.scenario + "_" + info.param.policy;
  for (char& c : name) {
    c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  }
  return name;
}

// Σ over slices of one measure in one scope, in value-hours.
double Total(const FleetSeriesData& series, std::size_t scope, SeriesMeasure measure) {
  double sum = 0;
  for (const std::vector<SliceIntegrals>& slice : series.integrals) {
    sum += slice[scope][static_cast<std::size_t>(measure)];
  }
  return sum / kMsPerHour;
}

class FleetSeriesRunTest : public ::testing::TestWithParam<Case> {};

TEST_P(FleetSeriesRunTest, SlicesAddUpToWhatTheOtherObserversMeasure) {
  const PolicyRegistry registry = BuiltinPolicies();
  const LoadResult loaded =
      LoadScenarioFile(testing::SourcePath(GetParam().scenario), registry, {});
  ASSERT_TRUE(loaded.scenario) << loaded.file_status << loaded.diagnostics.Format("scenario");
  RunOptions options;
  options.seed = loaded.scenario->seed;
  options.record_timeline = true;
  options.record_series = true;
  const RunOutcome outcome =
      RunScenario(*loaded.scenario, registry,
                  ChoosePolicy(*loaded.scenario, registry, GetParam().policy), options);
  ASSERT_TRUE(outcome.status.ok()) << outcome.status.message();
  const RunReport& report = outcome.report;
  ASSERT_TRUE(report.series && report.timeline);
  const FleetSeriesData& s = *report.series;
  const AllocationTimelineData& t = *report.timeline;

  EXPECT_EQ(s.start, t.window_start);
  EXPECT_EQ(s.end, t.window_end);
  ASSERT_FALSE(s.integrals.empty());
  EXPECT_LE(s.integrals.size(), FleetSeries::kMaxSlices);
  EXPECT_EQ(static_cast<SimTime>(s.integrals.size()), (s.end - s.start + s.slice - 1) / s.slice);
  EXPECT_EQ(s.slice % 60'000, 0) << "whole minutes";
  EXPECT_EQ(s.scopes.front().gpus, t.fleet_gpus);

  double held = 0;
  for (const TimelineSegment& seg : t.segments) {
    held += seg.gpu_share * static_cast<double>(seg.end - seg.start) / kMsPerHour;
  }
  double down = 0;
  for (const DownSpan& span : t.down) {
    const SimTime from = std::max(span.start, t.window_start);
    const SimTime to = std::min(span.end, t.window_end);
    down += to > from ? static_cast<double>(span.gpus * (to - from)) / kMsPerHour : 0;
  }
  double running = 0;
  double queued = 0;
  for (const JobRecordRow& job : report.jobs) {
    if (job.state == FinalState::kNotSubmitted) {
      continue;
    }
    running += static_cast<double>(job.run_time) / kMsPerHour;
    // The rejected jobs of these scenarios are refused on submission (wider than the fleet):
    // they never queue. jobs.csv does not record when a job was rejected.
    const SimTime life_end =
        job.state == FinalState::kRejected ? job.submit : (job.ended ? job.end : t.window_end);
    queued += static_cast<double>(life_end - job.submit - job.run_time) / kMsPerHour;
  }
  EXPECT_NEAR(Total(s, 0, SeriesMeasure::kHeld), held, 1e-6 * (1 + held));
  EXPECT_NEAR(Total(s, 0, SeriesMeasure::kDown), down, 1e-6 * (1 + down));
  EXPECT_NEAR(Total(s, 0, SeriesMeasure::kRunning), running, 1e-6 * (1 + running));
  EXPECT_NEAR(Total(s, 0, SeriesMeasure::kQueued), queued, 1e-6 * (1 + queued));
  EXPECT_NEAR(Total(s, 0, SeriesMeasure::kRealtimeDemand), report.realtime.demand_gpu_hours, 1e-6);
  EXPECT_NEAR(Total(s, 0, SeriesMeasure::kRealtimeServed), report.realtime.served_gpu_hours, 1e-6);

  // The pools share the fleet's GPUs, GPU-time held and down, and real-time service.
  if (s.scopes.size() > 1) {
    std::int64_t gpus = 0;
    double pools_held = 0;
    double pools_down = 0;
    double pools_served = 0;
    for (std::size_t scope = 1; scope < s.scopes.size(); ++scope) {
      gpus += s.scopes[scope].gpus;
      pools_held += Total(s, scope, SeriesMeasure::kHeld);
      pools_down += Total(s, scope, SeriesMeasure::kDown);
      pools_served += Total(s, scope, SeriesMeasure::kRealtimeServed);
      EXPECT_EQ(Total(s, scope, SeriesMeasure::kQueued), 0) << "queued jobs have no pool";
    }
    EXPECT_EQ(gpus, s.scopes.front().gpus);
    EXPECT_NEAR(pools_held, held, 1e-6 * (1 + held));
    EXPECT_NEAR(pools_down, down, 1e-6 * (1 + down));
    EXPECT_NEAR(pools_served, report.realtime.served_gpu_hours, 1e-6);
  }

  // Slice by slice (so a merge that moved time between slices fails): GPU-time held and jobs
  // running, recomputed from the timeline's segments on the series' slice boundaries.
  for (std::size_t i = 0; i < s.integrals.size(); ++i) {
    const SimTime from = s.start + static_cast<SimTime>(i) * s.slice;
    const SimTime to = std::min(s.end, from + s.slice);
    double held_ms = 0;
    for (const TimelineSegment& seg : t.segments) {
      const SimTime overlap = std::min(to, seg.end) - std::max(from, seg.start);
      held_ms += overlap > 0 ? seg.gpu_share * static_cast<double>(overlap) : 0;
    }
    const double series_ms = s.integrals[i][0][static_cast<std::size_t>(SeriesMeasure::kHeld)];
    ASSERT_NEAR(series_ms, held_ms, 1e-6 * (1 + held_ms)) << "slice " << i;
  }

  // One CSV row per slice and scope, after the header.
  const std::string csv = TimeseriesCsv(report);
  EXPECT_EQ(static_cast<std::size_t>(std::count(csv.begin(), csv.end(), '\n')),
            1 + s.integrals.size() * s.scopes.size());
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (const char* scenario :
       {"scenarios/benchmark/02-mixed-control.json", "scenarios/benchmark/06-scale-test.json",
        "scenarios/examples/tiny-contended.json", "scenarios/examples/spot-heavy.json",
        "scenarios/examples/autoscaled.json", "scenarios/examples/mixed-fleet.json"}) {
    for (const char* policy : {"fifo", "first-fit", "backfill", "fair-share", "constraint-aware"}) {
      cases.push_back({scenario, policy});
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Scenarios, FleetSeriesRunTest, ::testing::ValuesIn(Cases()), CaseName);

TEST(FleetSeriesTest, SlicesGrowRoundAsTheRunGrows) {
  // A run of 10 days: 1-minute slices would be 14,400, so they merge to 15 minutes (960).
  const PolicyRegistry registry = BuiltinPolicies();
  const LoadResult loaded =
      LoadScenarioFile(testing::SourcePath("scenarios/examples/poisson-64.json"), registry, {});
  ASSERT_TRUE(loaded.scenario) << loaded.file_status << loaded.diagnostics.Format("scenario");
  RunOptions options;
  options.record_series = true;
  const RunOutcome outcome = RunScenario(*loaded.scenario, registry,
                                         ChoosePolicy(*loaded.scenario, registry, "fifo"), options);
  ASSERT_TRUE(outcome.status.ok()) << outcome.status.message();
  const FleetSeriesData& s = *outcome.report.series;
  const SimTime span = s.end - s.start;
  EXPECT_LE(static_cast<std::size_t>((span + s.slice - 1) / s.slice), FleetSeries::kMaxSlices);
  // The round length just below would not have fitted.
  for (const SimDuration shorter : {60'000, 300'000, 900'000, 1'800'000, 3'600'000, 7'200'000}) {
    if (shorter < s.slice) {
      EXPECT_GT((span + shorter - 1) / shorter, static_cast<SimTime>(FleetSeries::kMaxSlices))
          << shorter;
    }
  }
}

}  // namespace
}  // namespace fleetsim
