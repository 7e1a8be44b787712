// Scenario input for the processes that take nodes away: a spot pool's "spot" block (rate or AWS
// Spot Advisor bucket, notice by cloud, replacement delay, waves) and the top-level "failures"
// section (rate or MTBF per GPU model, repair time), resolved into PoolSpec; and every mistake in
// them reported, all at once, with its JSON pointer and exact text.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "fleetsim/fleet/fleet_spec.h"
#include "fleetsim/scenario/scenario.h"

namespace fleetsim {
namespace {

// A scenario with `fleet` and, when given, `failures`, loaded as "f.json".
LoadResult Load(const std::string& fleet, const std::string& failures = "", bool strict = false) {
  const std::string failures_member = failures.empty() ? "" : R"("failures": )" + failures + ",";
  const std::string text = R"({"format_version": 1, "name": "f", "fleet": )" + fleet + "," +
                           failures_member +
                           R"("jobs": [{"id": "a", "submit_s": 0, "gpus": 1, "duration_s": 1}]})";
  return ParseScenario(text, "f.json", BuiltinPolicies(), {.strict = strict});
}

// A fleet of one two-node hgx-h100 spot pool in `cloud` with the spot block `spot`.
std::string SpotFleet(const std::string& spot, const std::string& cloud = "aws") {
  return R"({"pools": [{"name": "s", "template": "hgx-h100", "nodes": 2, "tier": "spot",
             "cloud": ")" +
         cloud + R"(", "spot": )" + spot + "}]}";
}

std::string Messages(const LoadResult& r) {
  return r.diagnostics.Format("f.json") + r.file_status.message();
}

// The spot settings of the only pool of a scenario that must load.
SpotInterruptions SpotOf(const LoadResult& r) {
  EXPECT_TRUE(r.scenario) << Messages(r);
  return r.scenario ? r.scenario->fleet.pools.at(0).spot : SpotInterruptions{};
}

// ---- The spot block ------------------------------------------------------------------------

TEST(SpotInputTest, ARateTakesTheNoticeOfTheCloudAndTheDefaultReplacementDelay) {
  const std::vector<std::pair<std::string, SimDuration>> notice_by_cloud = {
      {"aws", 120'000}, {"gcp", 30'000}, {"azure", 30'000}};
  for (const auto& [cloud, notice] : notice_by_cloud) {
    const SpotInterruptions spot =
        SpotOf(Load(SpotFleet(R"({"interruptions_per_node_hour": 0.0025})", cloud)));
    EXPECT_EQ(spot.per_node_hour, 0.0025) << cloud;
    EXPECT_EQ(spot.advisor_bucket, "") << cloud;
    EXPECT_EQ(spot.notice, notice) << cloud;
    EXPECT_EQ(spot.replacement_delay, 300'000) << cloud;
    EXPECT_EQ(spot.waves_per_day, 0) << cloud;
    EXPECT_EQ(spot.wave_nodes, 0) << cloud;
  }
}

TEST(SpotInputTest, NoticeAndReplacementDelayOverrideTheDefaultsToTheMillisecond) {
  const SpotInterruptions spot = SpotOf(Load(SpotFleet(
      R"({"interruptions_per_node_hour": 0.01, "notice_s": 45.0004, "replacement_delay_s": 0})",
      "on-prem")));
  EXPECT_EQ(spot.notice, 45'000);
  EXPECT_EQ(spot.replacement_delay, 0);
  EXPECT_EQ(SpotOf(Load(SpotFleet(R"({"notice_s": 0.5})"))).notice, 500);
}

TEST(SpotInputTest, EachAdvisorBucketIsAPoissonHazardAtTheBucketMidpoint) {
  const std::vector<std::pair<std::string, double>> monthly_fraction = {
      {"<5%", 0.025}, {"5-10%", 0.075}, {"10-15%", 0.125}, {"15-20%", 0.175}, {">20%", 0.30}};
  for (const auto& [bucket, p] : monthly_fraction) {
    const SpotInterruptions spot =
        SpotOf(Load(SpotFleet(R"({"advisor_bucket": ")" + bucket + R"("})")));
    EXPECT_NEAR(spot.per_node_hour, -std::log(1 - p) / 730, 1e-12) << bucket;
    EXPECT_EQ(spot.advisor_bucket, bucket);
    EXPECT_EQ(spot.notice, 120'000) << bucket;
  }
}

TEST(SpotInputTest, TheBucketTableIsTheAdvisorsInItsOrder) {
  EXPECT_EQ(SpotAdvisorBucketNames(),
            (std::vector<std::string>{"<5%", "5-10%", "10-15%", "15-20%", ">20%"}));
  for (const SpotAdvisorBucket& bucket : SpotAdvisorBuckets()) {
    EXPECT_EQ(SpotAdvisorBucketRate(bucket.name),
              HazardPerHourFromMonthlyFraction(bucket.monthly_fraction))
        << bucket.name;
  }
  EXPECT_NEAR(*SpotAdvisorBucketRate("<5%"), 3.46819e-5, 1e-10);
  EXPECT_NEAR(*SpotAdvisorBucketRate(">20%"), 4.88596e-4, 1e-9);
  EXPECT_FALSE(SpotAdvisorBucketRate("<5 %").has_value());
}

TEST(SpotInputTest, TheNoticeIsKnownForThreeCloudsByExactName) {
  EXPECT_EQ(SpotNoticeOfCloud("aws"), 120'000);
  EXPECT_EQ(SpotNoticeOfCloud("gcp"), 30'000);
  EXPECT_EQ(SpotNoticeOfCloud("azure"), 30'000);
  EXPECT_FALSE(SpotNoticeOfCloud("AWS").has_value());
  EXPECT_FALSE(SpotNoticeOfCloud("").has_value());
}

TEST(SpotInputTest, WavesMayTakeMoreNodesThanThePoolHas) {
  const SpotInterruptions spot =
      SpotOf(Load(SpotFleet(R"({"waves": {"per_day": 0.5, "nodes": 100}})", "gcp")));
  EXPECT_EQ(spot.per_node_hour, 0);
  EXPECT_EQ(spot.waves_per_day, 0.5);
  EXPECT_EQ(spot.wave_nodes, 100);
  EXPECT_EQ(spot.notice, 30'000);
  EXPECT_TRUE(spot.any());
}

TEST(SpotInputTest, ABlockWithNeitherRateNorWavesNeedsNoNotice) {
  const SpotInterruptions spot = SpotOf(Load(SpotFleet("{}", "on-prem")));
  EXPECT_FALSE(spot.any());
  EXPECT_EQ(spot.notice, 0);
  EXPECT_EQ(spot.replacement_delay, 300'000);
}

TEST(SpotInputTest, APoolWithoutABlockHasNoReclaims) {
  const LoadResult r =
      Load(R"({"pools": [{"name": "s", "template": "hgx-h100", "nodes": 1, "tier": "spot"}]})");
  const SpotInterruptions spot = SpotOf(r);
  EXPECT_FALSE(spot.any());
  EXPECT_EQ(spot.replacement_delay, 0);
}

TEST(SpotInputTest, ABlockNeedsTheSpotTier) {
  EXPECT_EQ(Messages(Load(R"({"pools": [
      {"name": "a", "template": "hgx-h100", "nodes": 1, "tier": "spot", "cloud": "aws"},
      {"name": "b", "template": "hgx-h100", "nodes": 1, "tier": "reserved", "spot": {}},
      {"name": "c", "template": "hgx-h100", "nodes": 1, "spot": {}}]})")),
            "f.json: /fleet/pools/1/spot: error: a spot block needs \"tier\": \"spot\", found "
            "\"reserved\"\n"
            "f.json: /fleet/pools/2/spot: error: a spot block needs \"tier\": \"spot\", found "
            "\"on-demand\"\n");
}

TEST(SpotInputTest, AWrongTierIsReportedOnlyOnce) {
  EXPECT_EQ(Messages(Load(R"({"pools": [
      {"name": "a", "template": "hgx-h100", "nodes": 1, "tier": "spto", "spot": {}}]})")),
            "f.json: /fleet/pools/0/tier: error: expected one of 'on-demand', 'reserved', "
            "'spot', found 'spto', did you mean 'spot'?\n");
}

TEST(SpotInputTest, ARateAndABucketAreExclusive) {
  EXPECT_EQ(Messages(Load(
                SpotFleet(R"({"interruptions_per_node_hour": 0.01, "advisor_bucket": "<5%"})"))),
            "f.json: /fleet/pools/0/spot: error: expected 'interruptions_per_node_hour' or "
            "'advisor_bucket', not both\n");
}

TEST(SpotInputTest, AnUnknownBucketIsNamedWithTheClosestOne) {
  EXPECT_EQ(Messages(Load(SpotFleet(R"({"advisor_bucket": "5-10"})"))),
            "f.json: /fleet/pools/0/spot/advisor_bucket: error: expected one of '<5%', '5-10%', "
            "'10-15%', '15-20%', '>20%', found '5-10', did you mean '5-10%'?\n");
  EXPECT_EQ(Messages(Load(SpotFleet(R"({"advisor_bucket": "high"})"))),
            "f.json: /fleet/pools/0/spot/advisor_bucket: error: expected one of '<5%', '5-10%', "
            "'10-15%', '15-20%', '>20%', found 'high'\n");
}

TEST(SpotInputTest, ANoticeIsNeededWhereTheCloudGivesNone) {
  EXPECT_EQ(Messages(Load(SpotFleet(R"({"interruptions_per_node_hour": 0.01})", "on-prem"))),
            "f.json: /fleet/pools/0/spot: error: expected notice_s: the notice time is known for "
            "clouds aws (120 s), gcp (30 s) and azure (30 s), found cloud 'on-prem'\n");
  EXPECT_EQ(Messages(Load(R"({"pools": [{"name": "s", "template": "hgx-h100", "nodes": 1,
                "tier": "spot", "spot": {"waves": {"per_day": 1, "nodes": 1}}}]})")),
            "f.json: /fleet/pools/0/spot: error: expected notice_s: the notice time is known for "
            "clouds aws (120 s), gcp (30 s) and azure (30 s), found no cloud\n");
}

TEST(SpotInputTest, ReportsBadValuesAtTheirPointers) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"interruptions_per_node_hour": -1})",
       "/fleet/pools/0/spot/interruptions_per_node_hour: error: expected a number ≥ 0 and ≤ "
       "1000000, found -1"},
      {R"({"advisor_bucket": 5})",
       "/fleet/pools/0/spot/advisor_bucket: error: expected a string, found 5"},
      {R"({"notice_s": "2m"})",
       "/fleet/pools/0/spot/notice_s: error: expected a number ≥ 0 and ≤ 3155760000, found "
       "\"2m\""},
      {R"({"replacement_delay_s": -300})",
       "/fleet/pools/0/spot/replacement_delay_s: error: expected a number ≥ 0 and ≤ "
       "3155760000, found -300"},
      {R"({"waves": {"per_day": 0, "nodes": 1}})",
       "/fleet/pools/0/spot/waves/per_day: error: expected a number > 0 and ≤ 1000000, found 0"},
      {R"({"waves": {"per_day": 1, "nodes": 0}})",
       "/fleet/pools/0/spot/waves/nodes: error: expected an integer ≥ 1, found 0"},
      {R"({"waves": {"per_day": 1}})",
       "/fleet/pools/0/spot/waves: error: missing required key 'nodes'"},
      {R"({"waves": [1, 2]})", "/fleet/pools/0/spot/waves: error: expected an object, found [1,2]"},
      {"true", "/fleet/pools/0/spot: error: expected an object, found true"},
  };
  for (const auto& [spot, expected] : cases) {
    EXPECT_EQ(Messages(Load(SpotFleet(spot))), "f.json: " + expected + "\n") << spot;
  }
}

TEST(SpotInputTest, UnknownKeysAreWarningsThatStrictMakesErrors) {
  const std::string fleet = SpotFleet(R"({"notice": 30, "waves": {"per_day": 1, "node": 2}})");
  EXPECT_EQ(Messages(Load(fleet)),
            "f.json: /fleet/pools/0/spot/notice: warning: unknown key 'notice', did you mean "
            "'notice_s'?\n"
            "f.json: /fleet/pools/0/spot/waves/node: warning: unknown key 'node', did you mean "
            "'nodes'?\n"
            "f.json: /fleet/pools/0/spot/waves: error: missing required key 'nodes'\n");
  const LoadResult strict = Load(SpotFleet(R"({"notice": 30})"), "", true);
  EXPECT_FALSE(strict.scenario);
  EXPECT_EQ(Messages(strict),
            "f.json: /fleet/pools/0/spot/notice: error: unknown key 'notice', did you mean "
            "'notice_s'?\n");
}

// ---- Hardware failures ---------------------------------------------------------------------

constexpr char kMixedFleet[] = R"({"pools": [
    {"name": "h100-a", "template": "hgx-h100", "nodes": 1},
    {"name": "b200", "template": "hgx-b200", "nodes": 1},
    {"name": "h100-b", "template": "hgx-h100", "nodes": 2, "tier": "spot", "cloud": "aws"}]})";

TEST(FailuresInputTest, AnEntryAppliesToEveryPoolOfItsModel) {
  const LoadResult r = Load(kMixedFleet, R"({"H100-SXM": {"per_gpu_hour": 2e-5}})");
  ASSERT_TRUE(r.scenario) << Messages(r);
  const std::vector<PoolSpec>& pools = r.scenario->fleet.pools;
  for (const std::size_t i : {0U, 2U}) {
    EXPECT_EQ(pools[i].failures.per_gpu_hour, 2e-5) << i;
    EXPECT_EQ(pools[i].failures.repair, 4 * 3600 * 1000) << i;
  }
  EXPECT_FALSE(pools[1].failures.any());
  EXPECT_EQ(pools[1].failures.repair, 0);
}

TEST(FailuresInputTest, AnMtbfIsTheInverseRate) {
  const LoadResult r =
      Load(kMixedFleet, R"({"B200": {"mtbf_gpu_hours": 50000, "repair_s": 1800.5}})");
  ASSERT_TRUE(r.scenario) << Messages(r);
  const HardwareFailures& failures = r.scenario->fleet.pools[1].failures;
  EXPECT_DOUBLE_EQ(failures.per_gpu_hour, 1.0 / 50000);
  EXPECT_EQ(failures.repair, 1'800'500);
  EXPECT_FALSE(r.scenario->fleet.pools[0].failures.any());
}

TEST(FailuresInputTest, ARateOfZeroAndAnEmptySectionAreAccepted) {
  const LoadResult zero = Load(kMixedFleet, R"({"B200": {"per_gpu_hour": 0}})");
  ASSERT_TRUE(zero.scenario) << Messages(zero);
  EXPECT_FALSE(zero.scenario->fleet.pools[1].failures.any());
  EXPECT_TRUE(Load(kMixedFleet, "{}").scenario.has_value());
}

TEST(FailuresInputTest, AKeyMustBeTheModelOfAPool) {
  EXPECT_EQ(Messages(Load(kMixedFleet, R"({"H100-SMX": {"per_gpu_hour": 1e-5},
                                          "H200": {"per_gpu_hour": 1e-5}})")),
            "f.json: /failures/H100-SMX: error: no pool of the fleet has GPU model 'H100-SMX', "
            "did you mean 'H100-SXM'? (the pools' models: 'H100-SXM', 'B200')\n"
            "f.json: /failures/H200: error: no pool of the fleet has GPU model 'H200', did you "
            "mean 'B200'? (the pools' models: 'H100-SXM', 'B200')\n");
}

TEST(FailuresInputTest, AFleetOfBareGpusHasNoModels) {
  EXPECT_EQ(Messages(Load(R"({"gpus": 8})", R"({"H100-SXM": {"per_gpu_hour": 1e-5}})")),
            "f.json: /failures/H100-SXM: error: no pool of the fleet has GPU model 'H100-SXM': "
            "a fleet of bare GPUs ({\"gpus\": N}) has no GPU models\n");
}

TEST(FailuresInputTest, ModelsAreNotCheckedAgainstAFleetInError) {
  EXPECT_EQ(Messages(Load(R"({"pools": [{"name": "a", "template": "hgx-h10", "nodes": 1}]})",
                          R"({"H100-SXM": {"per_gpu_hour": 1e-5}})")),
            "f.json: /fleet/pools/0/template: error: unknown node template 'hgx-h10', did you "
            "mean 'hgx-h100'? (see `fleetsim list node-templates`)\n");
}

TEST(FailuresInputTest, ReportsBadEntriesAtTheirPointers) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"per_gpu_hour": 1e-5, "mtbf_gpu_hours": 1e5})",
       "/failures/B200: error: expected exactly one of 'per_gpu_hour' and 'mtbf_gpu_hours'"},
      {R"({"repair_s": 60})",
       "/failures/B200: error: expected exactly one of 'per_gpu_hour' and 'mtbf_gpu_hours'"},
      {R"({"per_gpu_hour": -1})",
       "/failures/B200/per_gpu_hour: error: expected a number ≥ 0 and ≤ 1000000, found -1"},
      {R"({"mtbf_gpu_hours": 0})",
       "/failures/B200/mtbf_gpu_hours: error: expected a number ≥ 1e-06 and ≤ 1000000000000, "
       "found 0"},
      {R"({"per_gpu_hour": 1e-5, "repair_s": 0})",
       "/failures/B200/repair_s: error: expected a number > 0 and ≤ 3155760000, found 0"},
      {R"({"per_gpu_hour": 1e-5, "repair_s": 0.0004})",
       "/failures/B200/repair_s: error: expected a duration of at least 1 ms after rounding to "
       "the millisecond, found 0.0004"},
      {"5",
       "/failures/B200: error: expected an object with 'per_gpu_hour' or 'mtbf_gpu_hours', "
       "found 5"},
  };
  for (const auto& [entry, expected] : cases) {
    EXPECT_EQ(Messages(Load(kMixedFleet, R"({"B200": )" + entry + "}")),
              "f.json: " + expected + "\n")
        << entry;
  }
  EXPECT_EQ(Messages(Load(kMixedFleet, "[1]")),
            "f.json: /failures: error: expected an object, "
            "found [1]\n");
}

TEST(FailuresInputTest, UnknownKeysAreWarnings) {
  const LoadResult r = Load(kMixedFleet, R"({"B200": {"per_gpu_hour": 1e-5, "repair": 60}})");
  ASSERT_TRUE(r.scenario) << Messages(r);
  EXPECT_EQ(Messages(r),
            "f.json: /failures/B200/repair: warning: unknown key 'repair', did you mean "
            "'repair_s'?\n");
}

// ---- Both at once --------------------------------------------------------------------------

TEST(InterruptionsInputTest, ReportsEveryProblemAtOnce) {
  const LoadResult r = Load(
      R"({"pools": [
          {"name": "a", "template": "hgx-h100", "nodes": 1, "tier": "on-demand", "spot": {}},
          {"name": "b", "template": "hgx-h100", "nodes": 1, "tier": "spot", "cloud": "lab",
           "spot": {"advisor_bucket": ">20", "waves": {"per_day": -1, "nodes": 1}}},
          {"name": "c", "template": "hgx-b200", "nodes": 1, "tier": "spot", "cloud": "gcp",
           "spot": {"interruptions_per_node_hour": 0.1, "replacement_delay_s": -1}}]})",
      R"({"B200": {"mtbf_gpu_hours": 1e5, "per_gpu_hour": 1}})");
  EXPECT_FALSE(r.scenario);
  EXPECT_EQ(Messages(r),
            "f.json: /fleet/pools/0/spot: error: a spot block needs \"tier\": \"spot\", found "
            "\"on-demand\"\n"
            "f.json: /fleet/pools/1/spot/advisor_bucket: error: expected one of '<5%', '5-10%', "
            "'10-15%', '15-20%', '>20%', found '>20', did you mean '>20%'?\n"
            "f.json: /fleet/pools/1/spot/waves/per_day: error: expected a number > 0 and ≤ "
            "1000000, found -1\n"
            "f.json: /fleet/pools/2/spot/replacement_delay_s: error: expected a number ≥ 0 and ≤ "
            "3155760000, found -1\n"
            "f.json: /failures/B200: error: expected exactly one of 'per_gpu_hour' and "
            "'mtbf_gpu_hours'\n");
}

}  // namespace
}  // namespace fleetsim
