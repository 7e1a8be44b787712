// CompareResults: identical files pass; every kind of drift (an altered metric, a result or a
// metric missing from the current file, null against a number, another seed) fails and is named,
// and what only the current file has is an addition unless strict; tolerances
// (relative, per metric, the absolute floor near zero) on both sides of their boundary; bad
// files are reported with the file, the JSON path and every problem at once; the report's exact
// text.
#include "fleetsim/report/result_compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "fleetsim/report/compare_report.h"

namespace fleetsim {
namespace {

using nlohmann::json;

// Two results, in the shape `fleetsim bench --json` writes.
json Golden() {
  return json::parse(R"({
    "format_version": 1,
    "fleetsim_version": "0.1.0",
    "results": [
      {"scenario": "01-training-heavy", "policy": "fifo", "seed": 7,
       "metrics": {"utilization": 0.786, "priority_weighted_output": 602.93, "jobs_completed": 6,
                   "jobs_total": 15, "wait_p99_s": 85980.0, "cost_usd": null}},
      {"scenario": "01-training-heavy", "policy": "backfill", "seed": 7,
       "metrics": {"utilization": 0.85, "priority_weighted_output": 700.5, "jobs_completed": 9,
                   "jobs_total": 15, "wait_p99_s": 40000.0, "cost_usd": null}}
    ]
  })");
}

json& Metric(json& doc, std::size_t result, const std::string& name) {
  return doc["results"][result]["metrics"][name];
}

CompareOutcome Compare(const json& baseline, const json& current,
                       const CompareOptions& options = {}) {
  return CompareResults(baseline.dump(2), "golden.json", current.dump(2), "current.json", options);
}

std::string Text(const CompareOutcome& outcome) {
  return CompareReport(outcome, CompareFormat::kText, false);
}

CompareOptions Tolerance(const std::vector<std::string>& args) {
  CompareOptions options;
  EXPECT_EQ(ParseTolerances(args, options).message(), "");
  return options;
}

TEST(ResultCompareTest, IdenticalFilesPass) {
  const CompareOutcome o = Compare(Golden(), Golden());
  ASSERT_TRUE(o.ok()) << o.errors;
  EXPECT_FALSE(o.drift());
  EXPECT_TRUE(o.diffs().empty());
  EXPECT_EQ(o.results_compared, 2u);
  EXPECT_EQ(Text(o),
            "baseline: golden.json (fleetsim 0.1.0, 2 results)\n"
            "current:  current.json (fleetsim 0.1.0, 2 results)\n"
            "tolerance: exact (any difference is drift)\n"
            "\n"
            "2 results compared, identical\n");
}

TEST(ResultCompareTest, ResultOrderFormattingAndVersionDoNotMatter) {
  json current = Golden();
  std::swap(current["results"][0], current["results"][1]);
  Metric(current, 1, "jobs_completed") = 6.0;  // was 6
  Metric(current, 1, "wait_p99_s") = 85980;    // was 85980.0
  current["fleetsim_version"] = "0.2.0";
  const CompareOutcome o = Compare(Golden(), current);
  ASSERT_TRUE(o.ok()) << o.errors;
  EXPECT_FALSE(o.drift()) << Text(o);
  EXPECT_NE(Text(o).find("current:  current.json (fleetsim 0.2.0, 2 results)"), std::string::npos);
}

TEST(ResultCompareTest, OneAlteredMetricFailsAndIsNamed) {
  json current = Golden();
  Metric(current, 0, "utilization") = 0.79;
  const CompareOutcome o = Compare(Golden(), current);
  ASSERT_TRUE(o.ok()) << o.errors;
  EXPECT_TRUE(o.drift());
  ASSERT_EQ(o.diffs().size(), 1u);
  const ResultDiff d = o.diffs()[0];
  EXPECT_EQ(d.scenario, "01-training-heavy");
  EXPECT_EQ(d.policy, "fifo");
  EXPECT_EQ(d.metric, "utilization");
  EXPECT_EQ(d.kind, DiffKind::kValue);
  EXPECT_EQ(d.baseline, "0.786");
  EXPECT_EQ(d.current, "0.79");
  EXPECT_DOUBLE_EQ(d.difference, 0.79 - 0.786);
  EXPECT_TRUE(d.beyond);
  EXPECT_EQ(o.metrics_beyond, 1u);
  EXPECT_EQ(Text(o),
            "baseline: golden.json (fleetsim 0.1.0, 2 results)\n"
            "current:  current.json (fleetsim 0.1.0, 2 results)\n"
            "tolerance: exact (any difference is drift)\n"
            "\n"
            "01-training-heavy  fifo  seed 7  utilization  0.786 -> 0.79  +0.004 (+0.509%)  "
            "beyond tolerance (exact)\n"
            "\n"
            "2 results compared, 1 metric differs beyond tolerance\n");
}

TEST(ResultCompareTest, ExactMeansBitForBit) {
  json current = Golden();
  Metric(current, 0, "utilization") = std::nextafter(0.786, 1.0);
  const CompareOutcome o = Compare(Golden(), current);
  EXPECT_TRUE(o.drift());
  ASSERT_EQ(o.diffs().size(), 1u);
  EXPECT_EQ(o.diffs()[0].current, "0.7860000000000001");
  // Integers are compared as integers, even where doubles cannot tell them apart.
  json big = Golden();
  Metric(big, 0, "jobs_total") = 9007199254740993u;  // 2^53 + 1
  json bigger = Golden();
  Metric(bigger, 0, "jobs_total") = 9007199254740992u;
  const CompareOutcome b = Compare(big, bigger);
  EXPECT_TRUE(b.drift());
  EXPECT_NE(Text(b).find("9007199254740993 -> 9007199254740992  -1 (-1.11e-14%)"),
            std::string::npos)
      << Text(b);
}

TEST(ResultCompareTest, AResultOnlyInTheBaselineIsDriftOneOnlyInTheCurrentAnAddition) {
  json current = Golden();
  current["results"].erase(1);  // backfill gone
  current["results"].push_back(json::parse(R"({"scenario": "02-mixed-control",
      "policy": "fifo", "seed": 3, "metrics": {"utilization": 0.5}})"));
  const CompareOutcome o = Compare(Golden(), current);
  ASSERT_TRUE(o.ok()) << o.errors;
  EXPECT_TRUE(o.drift());
  EXPECT_EQ(o.results_compared, 1u);
  EXPECT_EQ(o.results_only_in_baseline, 1u);
  EXPECT_EQ(o.results_only_in_current, 1u);
  ASSERT_EQ(o.diffs().size(), 2u);
  EXPECT_EQ(o.diffs()[0].kind, DiffKind::kResultOnlyInBaseline);
  EXPECT_EQ(o.diffs()[0].policy, "backfill");
  EXPECT_EQ(o.diffs()[1].kind, DiffKind::kResultOnlyInCurrent);
  EXPECT_EQ(o.diffs()[1].scenario, "02-mixed-control");
  EXPECT_EQ(Text(o).substr(Text(o).find("\n\n") + 2),
            "01-training-heavy  backfill  seed 7  (result)  present -> absent  "
            "drift: result only in the baseline\n"
            "02-mixed-control   fifo      seed 3  (result)  absent -> present  "
            "added: result only in the current\n"
            "\n"
            "1 result compared, 0 metrics differ beyond tolerance, 1 result only in the "
            "baseline, 1 result only in the current (additions, not drift without --strict)\n");
  // With strict, the result only in the current is drift too.
  CompareOptions strict;
  strict.strict = true;
  const CompareOutcome s = Compare(Golden(), current, strict);
  EXPECT_EQ(s.additions, 0u);
  ASSERT_EQ(s.diffs().size(), 2u);
  EXPECT_TRUE(s.diffs()[1].beyond);
}

TEST(ResultCompareTest, AMetricOnlyInTheBaselineIsDriftOneOnlyInTheCurrentAnAddition) {
  json current = Golden();
  Metric(current, 0, "goodput") = 0.5;
  current["results"][1]["metrics"].erase("wait_p99_s");
  const CompareOutcome o = Compare(Golden(), current);
  EXPECT_TRUE(o.drift());
  ASSERT_EQ(o.diffs().size(), 2u);
  EXPECT_EQ(o.diffs()[0].kind, DiffKind::kMetricOnlyInCurrent);
  EXPECT_EQ(o.diffs()[0].metric, "goodput");
  EXPECT_EQ(o.diffs()[0].current, "0.5");
  EXPECT_EQ(o.diffs()[1].kind, DiffKind::kMetricOnlyInBaseline);
  EXPECT_EQ(o.diffs()[1].policy, "backfill");
  EXPECT_EQ(o.diffs()[1].metric, "wait_p99_s");
  EXPECT_EQ(o.metrics_beyond, 1u);  // the missing one; the new one is an addition
  EXPECT_EQ(o.additions, 1u);
  EXPECT_FALSE(o.diffs()[0].beyond);
  // A tolerance does not excuse a missing metric.
  EXPECT_TRUE(Compare(Golden(), current, Tolerance({"0.5"})).drift());
}

TEST(ResultCompareTest, NullAgainstANumberIsDriftWhateverTheTolerance) {
  json current = Golden();
  Metric(current, 0, "cost_usd") = 0;
  const CompareOutcome o = Compare(Golden(), current, Tolerance({"1"}));
  EXPECT_TRUE(o.drift());
  ASSERT_EQ(o.diffs().size(), 1u);
  EXPECT_EQ(o.diffs()[0].kind, DiffKind::kNullVsNumber);
  EXPECT_NE(Text(o).find("01-training-heavy  fifo  seed 7  cost_usd  null -> 0  drift: null vs "
                         "number\n"),
            std::string::npos)
      << Text(o);
}

TEST(ResultCompareTest, ADifferentSeedIsDrift) {
  json current = Golden();
  current["results"][1]["seed"] = 8;
  const CompareOutcome o = Compare(Golden(), current, Tolerance({"1"}));
  EXPECT_TRUE(o.drift());
  EXPECT_EQ(o.seeds_differ, 1u);
  ASSERT_EQ(o.diffs().size(), 1u);
  EXPECT_EQ(o.diffs()[0].kind, DiffKind::kSeed);
  EXPECT_EQ(o.diffs()[0].metric, "seed");
  EXPECT_EQ(o.diffs()[0].baseline, "7");
  EXPECT_EQ(o.diffs()[0].current, "8");
  EXPECT_NE(Text(o).find("2 results compared, 0 metrics differ beyond tolerance, 1 seed differs"),
            std::string::npos)
      << Text(o);
}

TEST(ResultCompareTest, RelativeToleranceBoundaryOnBothSides) {
  json baseline = Golden();
  Metric(baseline, 0, "priority_weighted_output") = 300.0;
  json current = Golden();
  Metric(current, 0, "priority_weighted_output") = 400.0;
  // Allowed: tolerance × max(|300|, |400|) = 0.25 × 400 = 100, exactly the difference.
  const CompareOutcome within = Compare(baseline, current, Tolerance({"0.25"}));
  EXPECT_FALSE(within.drift()) << Text(within);
  ASSERT_EQ(within.diffs().size(), 1u);
  EXPECT_FALSE(within.diffs()[0].beyond);
  EXPECT_EQ(within.diffs()[0].allowed, 100.0);
  EXPECT_EQ(within.metrics_within, 1u);
  EXPECT_NE(Text(within).find("300 -> 400  +100 (+33.3%)  within tolerance (±100)"),
            std::string::npos)
      << Text(within);
  EXPECT_NE(Text(within).find("2 results compared, 0 metrics differ beyond tolerance "
                              "(1 within tolerance)\n"),
            std::string::npos)
      << Text(within);
  EXPECT_TRUE(Compare(current, baseline, Tolerance({"25%"})).ok());
  EXPECT_FALSE(Compare(current, baseline, Tolerance({"25%"})).drift());  // symmetric

  const CompareOutcome beyond = Compare(baseline, current, Tolerance({"0.2499"}));
  EXPECT_TRUE(beyond.drift());
  EXPECT_NE(Text(beyond).find("beyond tolerance (±99.96)"), std::string::npos) << Text(beyond);
}

TEST(ResultCompareTest, PerMetricToleranceOverridesTheDefault) {
  json current = Golden();
  Metric(current, 0, "utilization") = 0.79;    // 0.004 off
  Metric(current, 0, "wait_p99_s") = 86000.0;  // 20 s off, 0.023 %
  // Default exact; utilization may move by 0.01.
  CompareOutcome o = Compare(Golden(), current, Tolerance({"utilization=0.01"}));
  EXPECT_TRUE(o.drift());
  EXPECT_EQ(o.metrics_within, 1u);
  EXPECT_EQ(o.metrics_beyond, 1u);
  ASSERT_EQ(o.diffs().size(), 2u);
  EXPECT_FALSE(o.diffs()[0].beyond);  // utilization
  EXPECT_TRUE(o.diffs()[1].beyond);   // wait_p99_s
  EXPECT_NE(Text(o).find("tolerance: exact (any difference is drift); per metric: "
                         "utilization 0.01\n"),
            std::string::npos)
      << Text(o);
  // Both covered.
  EXPECT_FALSE(
      Compare(Golden(), current, Tolerance({"utilization=0.01", "wait_p99_s=1e-3"})).drift());
  // A default for all, but one metric kept exact.
  o = Compare(Golden(), current, Tolerance({"0.01", "wait_p99_s=0"}));
  EXPECT_TRUE(o.drift());
  ASSERT_EQ(o.diffs().size(), 2u);
  EXPECT_FALSE(o.diffs()[0].beyond);
  EXPECT_TRUE(o.diffs()[1].beyond);
  EXPECT_NE(Text(o).find("tolerance: relative 0.01 (absolute 0.01 for values below 1 in "
                         "magnitude); per metric: wait_p99_s exact\n"),
            std::string::npos)
      << Text(o);
}

TEST(ResultCompareTest, NearZeroTheToleranceIsAbsolute) {
  EXPECT_EQ(AllowedDifference(0, 0, 0.01), 0.01);
  EXPECT_EQ(AllowedDifference(0.5, -0.25, 0.01), 0.01);
  EXPECT_EQ(AllowedDifference(-200, 100, 0.5), 100.0);
  EXPECT_EQ(AllowedDifference(1e9, 1e9, 0), 0.0);

  json baseline = Golden();
  Metric(baseline, 0, "wait_p99_s") = 0.0;
  json noise = Golden();
  Metric(noise, 0, "wait_p99_s") = 1e-17;
  // Relative alone would need |1e-17| ≤ t × 1e-17: never, for t < 1.
  EXPECT_FALSE(Compare(baseline, noise, Tolerance({"1e-9"})).drift());
  EXPECT_TRUE(Compare(baseline, noise).drift());  // exact still sees it
  json off = Golden();
  Metric(off, 0, "wait_p99_s") = 0.02;
  const CompareOutcome o = Compare(baseline, off, Tolerance({"0.01"}));
  EXPECT_TRUE(o.drift());
  // No percentage relative to a zero baseline.
  EXPECT_NE(Text(o).find("0 -> 0.02  +0.02  beyond tolerance (±0.01)"), std::string::npos)
      << Text(o);
}

TEST(ResultCompareTest, ParseTolerancesAcceptsNumbersPercentagesAndMetrics) {
  CompareOptions options;
  EXPECT_EQ(ParseTolerances({"1e-6", "utilization=2%", "wait_p99_s=0"}, options).message(), "");
  EXPECT_EQ(options.tolerance, 1e-6);
  EXPECT_EQ(options.metric_tolerances.at("utilization"), 0.02);
  EXPECT_EQ(options.metric_tolerances.at("wait_p99_s"), 0.0);

  const std::string expected =
      "expected a number ≥ 0 (such as 0.01, 1e-6 or 1%) or METRIC=NUMBER, found '{}'";
  for (const std::string bad : {"abc", "", "-0.1", "+0.1", "0.1x", "nan", "inf", "1e999", "=0.1",
                                "utilization=", "utilization=-1", "%", " 0.1"}) {
    CompareOptions o;
    const std::size_t at = expected.find("{}");
    EXPECT_EQ(ParseTolerances({bad}, o).message(),
              expected.substr(0, at) + bad + expected.substr(at + 2))
        << bad;
  }
  CompareOptions twice;
  EXPECT_EQ(ParseTolerances({"0.1", "0.2"}, twice).message(),
            "the tolerance for every metric is given twice (the second is '0.2'); use "
            "METRIC=NUMBER for one metric");
  EXPECT_EQ(ParseTolerances({"utilization=0.1", "utilization=0.2"}, twice).message(),
            "the tolerance for 'utilization' is given twice");
}

TEST(ResultCompareTest, ToleranceForAMetricNeitherFileHasIsAUsageError) {
  const CompareOutcome o = Compare(Golden(), Golden(), Tolerance({"utilisation=0.01", "seed=1"}));
  EXPECT_FALSE(o.ok());
  EXPECT_TRUE(o.errors.empty());
  EXPECT_EQ(o.usage_errors,
            (std::vector<std::string>{
                "--tolerance: 'seed' is not a metric; seeds are identities and must always match",
                "--tolerance: no metric 'utilisation' in either file, did you mean "
                "'utilization'?"}));
  EXPECT_TRUE(o.checks.empty());
}

TEST(ResultCompareTest, NotJsonNamesTheFileAndPosition) {
  const CompareOutcome o =
      CompareResults(Golden().dump(), "golden.json", "{\n  \"results\": [,\n", "current.json", {});
  EXPECT_FALSE(o.ok());
  EXPECT_EQ(o.errors.rfind("current.json:2:15: invalid JSON: ", 0), 0u) << o.errors;
  EXPECT_TRUE(o.checks.empty());
}

TEST(ResultCompareTest, WrongShapeReportsEveryProblemWithItsPath) {
  json bad = Golden();
  Metric(bad, 0, "utilization") = "abc";
  Metric(bad, 0, "detail") = json::object();
  bad["results"][1].erase("policy");
  bad["results"][1]["seed"] = -1;
  bad["results"].push_back(42);
  bad["results"].push_back(Golden()["results"][0]);  // fifo again
  json also_bad = Golden();
  also_bad["results"][0]["metrics"] = json::array();
  const CompareOutcome o =
      CompareResults(bad.dump(), "golden.json", also_bad.dump(), "current.json", {});
  EXPECT_FALSE(o.ok());
  EXPECT_EQ(o.errors,
            "golden.json: /results/0/metrics/detail: error: expected a number or null, found {}\n"
            "golden.json: /results/0/metrics/utilization: error: expected a number or null, "
            "found \"abc\"\n"
            "golden.json: /results/1: error: missing required key 'policy'\n"
            "golden.json: /results/1/seed: error: expected an integer in [0, "
            "18446744073709551615], found -1\n"
            "golden.json: /results/2: error: expected an object with scenario, policy, seed "
            "and metrics, found 42\n"
            "golden.json: /results/3: error: a second result for scenario '01-training-heavy' "
            "and policy 'fifo' (the first is /results/0); each pair may appear once\n"
            "current.json: /results/0/metrics: error: expected an object, found []\n");
  EXPECT_FALSE(o.drift());
  EXPECT_TRUE(o.checks.empty());
}

TEST(ResultCompareTest, WrongTopLevelShapes) {
  const auto errors = [](const std::string& text) {
    return CompareResults(Golden().dump(), "golden.json", text, "current.json", {}).errors;
  };
  EXPECT_EQ(errors("[]"),
            "current.json: /: error: expected an object with format_version and results (as "
            "written by 'fleetsim bench --json') or runs (a sweep's results.json), found []\n");
  EXPECT_EQ(errors(R"({"results": []})"),
            "current.json: /: error: missing required key 'format_version'\n");
  EXPECT_EQ(errors(R"({"format_version": 1})"),
            "current.json: /: error: missing required key 'results'\n");
  EXPECT_EQ(errors(R"({"format_version": 1, "results": {}})"),
            "current.json: /results: error: expected an array, found {}\n");
}

TEST(ResultCompareTest, OnlyFormatVersionOneIsRead) {
  json v2 = Golden();
  v2["format_version"] = 2;
  const CompareOutcome o = Compare(Golden(), v2);
  EXPECT_EQ(o.errors,
            "current.json: /format_version: error: unsupported format_version 2; this fleetsim "
            "reads format_version 1\n");
  v2["format_version"] = "1";
  EXPECT_EQ(Compare(v2, Golden()).errors,
            "golden.json: /format_version: error: unsupported format_version \"1\"; this "
            "fleetsim reads format_version 1\n");
}

TEST(ResultCompareTest, ReportLinesStandAloneInAlignedColumns) {
  json baseline = Golden();
  baseline["results"].push_back(json::parse(R"({"scenario": "06-scale-test",
      "policy": "constraint-aware", "seed": 11,
      "metrics": {"utilization": 0.449, "jobs_completed": 27, "cost_usd": 12.5}})"));
  json current = baseline;
  Metric(current, 0, "utilization") = 0.79;
  Metric(current, 1, "jobs_completed") = 10;
  Metric(current, 2, "jobs_completed") = 28;
  Metric(current, 2, "cost_usd") = nullptr;
  const CompareOutcome o = Compare(baseline, current, Tolerance({"jobs_completed=0.2"}));
  ASSERT_TRUE(o.ok()) << o.errors;
  EXPECT_EQ(Text(o),
            "baseline: golden.json (fleetsim 0.1.0, 3 results)\n"
            "current:  current.json (fleetsim 0.1.0, 3 results)\n"
            "tolerance: exact (any difference is drift); per metric: jobs_completed 0.2\n"
            "\n"
            "01-training-heavy  fifo              seed 7   utilization     0.786 -> 0.79  "
            "+0.004 (+0.509%)  beyond tolerance (exact)\n"
            "01-training-heavy  backfill          seed 7   jobs_completed  9 -> 10        "
            "+1 (+11.1%)       within tolerance (±2)\n"
            "06-scale-test      constraint-aware  seed 11  cost_usd        12.5 -> null   "
            "                  drift: null vs number\n"
            "06-scale-test      constraint-aware  seed 11  jobs_completed  27 -> 28       "
            "+1 (+3.7%)        within tolerance (±5.6)\n"
            "\n"
            "3 results compared, 2 metrics differ beyond tolerance (2 within tolerance)\n");
}

}  // namespace
}  // namespace fleetsim
