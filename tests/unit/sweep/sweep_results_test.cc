// Sweep results from a layout and records: rows in point order whatever the records' order,
// failures recorded with their status, statistics over seeds, and paired differences against
// the baseline policy on the same seeds (policy parameters aside).
#include "fleetsim/sweep/sweep_results.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "fleetsim/sweep/sweep_store.h"

namespace fleetsim {
namespace {

// fifo and constraint-aware (decay 0.9) on seeds 1-3: fifo's utilization 0.5, 0.6, 0.7;
// constraint-aware's 0.6, 0.8, 0.9; the last constraint-aware run failed.
SweepLayout Layout() {
  SweepLayout layout{.name = "t",
                     .axes = {"decay"},
                     .pairing_ignores = {true},
                     .baseline_policy = "fifo",
                     .report_metrics = {},
                     .points = {}};
  std::size_t index = 0;
  for (const char* policy : {"fifo", "constraint-aware"}) {
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      layout.points.push_back({.index = index,
                               .id = fmt::format("{:016x}", index),
                               .scenario = "s",
                               .policy = policy,
                               .seed = seed,
                               .labels = {std::string(policy) == "fifo" ? "" : "0.9"},
                               .error = ""});
      ++index;
    }
  }
  return layout;
}

// A metric's position in a record.
std::size_t MetricIndex(const std::string& name) {
  const std::vector<std::string>& names = SweepMetricNames();
  return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
}

// A run's record with two metrics; the others have no value.
SweepRecord Ok(std::size_t index, double utilization) {
  SweepRecord record{.id = fmt::format("{:016x}", index),
                     .status = SweepRunStatus::kOk,
                     .error = "",
                     .metrics = std::vector<SweepMetric>(SweepMetricNames().size())};
  record.metrics.at(MetricIndex("utilization")) = {.value = utilization,
                                                   .text = MetricText(false, utilization)};
  record.metrics.at(MetricIndex("jobs_total")) = {.value = 10.0, .text = "10"};
  return record;
}

SweepRecords Records() {
  SweepRecords records;
  const std::vector<double> values = {0.5, 0.6, 0.7, 0.8, 0.6, 0.8, 0.9, 0};
  for (std::size_t i = 0; i < 7; ++i) {
    records[fmt::format("{:016x}", i)] = Ok(i, values[i]);
  }
  records["0000000000000007"] = {.id = "0000000000000007",
                                 .status = SweepRunStatus::kIllegalDecision,
                                 .error = "resize job 'x' to GPUs [7]: GPU 7 is busy",
                                 .metrics = {}};
  return records;
}

// The cells of the summary row of `policy` and `metric`, by column name.
std::map<std::string, std::string> SummaryRow(const std::string& csv, const std::string& policy,
                                              const std::string& metric) {
  std::istringstream in(csv);
  std::string header;
  std::getline(in, header);
  std::vector<std::string> names;
  std::stringstream hs(header);
  for (std::string cell; std::getline(hs, cell, ',');) {
    names.push_back(cell);
  }
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::stringstream ls(line);
    for (std::string cell; std::getline(ls, cell, ',');) {
      cells.push_back(cell);
    }
    cells.resize(names.size());
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < names.size(); ++i) {
      row[names[i]] = cells[i];
    }
    if (row["policy"] == policy && row["metric"] == metric) {
      return row;
    }
  }
  ADD_FAILURE() << "no row for " << policy << " " << metric;
  return {};
}

TEST(SweepResultsTest, RowsFollowThePointsAndRecordFailures) {
  const std::string csv = ResultsCsv(Layout(), Records());
  std::istringstream in(csv);
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header.rfind("point,run_id,scenario,policy,seed,decay,status,exit_status,error,"
                         "utilization,",
                         0),
            0U)
      << header;
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    lines.push_back(line);
  }
  ASSERT_EQ(lines.size(), 8U);
  EXPECT_EQ(lines[0].rfind("0,0000000000000000,s,fifo,1,,ok,0,,0.5,", 0), 0U) << lines[0];
  EXPECT_EQ(lines[7].rfind("7,0000000000000007,s,constraint-aware,4,0.9,illegal-decision,3,"
                           "resize job 'x' to GPUs [7]: GPU 7 is busy,,",
                           0),
            0U)
      << lines[7];
  EXPECT_NE(lines[0].find(",10,"), std::string::npos) << "counts are integers: " << lines[0];
  EXPECT_EQ(FailedRuns(Layout(), Records()), (std::vector<std::size_t>{7}));
  EXPECT_TRUE(MissingRuns(Layout(), Records()).empty());
}

TEST(SweepResultsTest, SummaryGivesMeanIntervalAndThePairedDifference) {
  const std::string csv = SummaryCsv(Layout(), SummarizeCells(Layout(), Records()));
  auto fifo = SummaryRow(csv, "fifo", "utilization");
  EXPECT_EQ(fifo["runs"], "4");
  EXPECT_EQ(fifo["failed_runs"], "0");
  EXPECT_NEAR(std::stod(fifo["mean"]), 0.65, 1e-12);
  EXPECT_EQ(fifo["min"], "0.5");
  EXPECT_EQ(fifo["max"], "0.8");
  EXPECT_EQ(fifo["baseline_policy"], "");
  auto ca = SummaryRow(csv, "constraint-aware", "utilization");
  EXPECT_EQ(ca["runs"], "3");
  EXPECT_EQ(ca["failed_runs"], "1");
  EXPECT_EQ(ca["baseline_policy"], "fifo");
  EXPECT_EQ(ca["pairs"], "3");
  // Differences on seeds 1-3: 0.1, 0.2, 0.2; mean 1/6, sd 0.0577, t(2) = 4.303.
  EXPECT_NEAR(std::stod(ca["diff_mean"]), 1.0 / 6, 1e-12);
  const double half = 4.302652729911275 * 0.05773502691896258 / std::sqrt(3.0);
  EXPECT_NEAR(std::stod(ca["diff_ci95_low"]), 1.0 / 6 - half, 1e-9);
  EXPECT_NEAR(std::stod(ca["diff_ci95_high"]), 1.0 / 6 + half, 1e-9);
}

TEST(SweepResultsTest, EqualValuesHaveExactlyThatMeanAndNoSpread) {
  SweepLayout layout = Layout();
  SweepRecords records;
  for (std::size_t i = 0; i < 8; ++i) {
    records[fmt::format("{:016x}", i)] = Ok(i, 0.7862847222222222);
  }
  auto row = SummaryRow(SummaryCsv(layout, SummarizeCells(layout, records)), "fifo", "utilization");
  EXPECT_EQ(row["mean"], "0.7862847222222222");
  EXPECT_EQ(row["sd"], "0");
}

TEST(SweepResultsTest, StudentQuantiles) {
  EXPECT_NEAR(StudentT95(2), 12.7062, 1e-4);
  EXPECT_NEAR(StudentT95(20), 2.0930, 1e-4);
  EXPECT_NEAR(StudentT95(1000), 1.9623, 1e-4);
}

// A sweep formats its runs' metric texts in batches (JournalWriter); a record whose texts are not
// formatted yet is written exactly as if they were.
TEST(SweepResultsTest, TextsNotFormattedYetAreWrittenAsFormattedOnes) {
  const SweepLayout layout = Layout();
  const SweepRecords formatted = Records();
  SweepRecords bare = formatted;
  for (auto& [id, record] : bare) {
    for (SweepMetric& m : record.metrics) {
      m.text.clear();
    }
  }
  EXPECT_EQ(ResultsCsv(layout, bare), ResultsCsv(layout, formatted));
  EXPECT_EQ(ResultsJson(layout, bare), ResultsJson(layout, formatted));
  SweepRecord& record = bare.begin()->second;
  EXPECT_EQ(RecordLine(record), RecordLine(formatted.begin()->second));
  FormatMetricTexts(record);
  EXPECT_EQ(record.metrics.at(MetricIndex("utilization")).text, "0.5");
  EXPECT_EQ(record.metrics.at(MetricIndex("jobs_total")).text, "10");
}

// A metric with nothing to write (no value, a value that is not finite, or a failed run's) is an
// empty cell in results.csv and null in results.json and the journal.
TEST(SweepResultsTest, AMetricWithoutAValueIsEmptyInCsvAndNullInJson) {
  SweepRecords records = Records();
  SweepRecord& first = records.at("0000000000000000");
  first.metrics.at(MetricIndex("utilization")) = {.value = std::numeric_limits<double>::quiet_NaN(),
                                                  .text = ""};
  const std::string csv = ResultsCsv(Layout(), records);
  EXPECT_NE(csv.find("\n0,0000000000000000,s,fifo,1,,ok,0,,,"), std::string::npos) << csv;
  const nlohmann::json runs = nlohmann::json::parse(ResultsJson(Layout(), records)).at("runs");
  const nlohmann::json& metrics = runs.at(0).at("metrics");
  EXPECT_TRUE(metrics.at("utilization").is_null());
  EXPECT_TRUE(metrics.at("wait_mean_s").is_null()) << "Ok() gives it no value";
  EXPECT_EQ(metrics.at("jobs_total"), 10);
  for (const auto& [name, value] : runs.at(7).at("metrics").items()) {
    EXPECT_TRUE(value.is_null()) << name << " of the failed run";
  }
  const std::string line = RecordLine(first);
  EXPECT_NE(line.find("[\"utilization\",null]"), std::string::npos) << line;
  EXPECT_NE(line.find("[\"jobs_total\",10]"), std::string::npos) << line;
}

TEST(SweepResultsTest, ARunWithoutARecordIsMissing) {
  SweepRecords records = Records();
  records.erase("0000000000000003");
  EXPECT_EQ(MissingRuns(Layout(), records), (std::vector<std::size_t>{3}));
}

// Result files reserve room for all their rows from the size of the first row without an
// error: a first row that carries a long error must not have every row reserved at its size.
TEST(SweepResultsTest, AFirstRowWithALongErrorDoesNotSizeTheOthers) {
  SweepLayout layout = Layout();
  const LayoutPoint first = layout.points.front();
  layout.points.clear();
  for (std::size_t i = 0; i < 2000; ++i) {
    LayoutPoint p = first;
    p.index = i;
    p.id = fmt::format("{:016x}", i);
    layout.points.push_back(p);
  }
  layout.points[0].error = std::string(100000, 'e');  // an invalid document's diagnostics
  SweepRecords records;
  for (std::size_t i = 1; i < layout.points.size(); ++i) {
    records[layout.points[i].id] = Ok(i, 0.5);
  }
  const std::string csv = ResultsCsv(layout, records);
  const std::string json = ResultsJson(layout, records);
  EXPECT_LT(csv.capacity(), 4 * csv.size());  // not 2,000 rows of 100 kB: 200 MB
  EXPECT_LT(json.capacity(), 4 * json.size());
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 2001);
}

}  // namespace
}  // namespace fleetsim
