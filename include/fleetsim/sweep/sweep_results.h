// A sweep's result files, rendered from its layout and its run records alone (so a sweep run on
// one machine, on many threads, or as shards merged later writes the same bytes):
//   results.csv / results.json: one row per run — its axes, status and every metric;
//   summary.csv: per point of the grid but the seed, each metric's mean, standard deviation,
//   95 % confidence interval (Student's t), min and max over seeds, and the paired difference
//   against the baseline policy on the same seeds with its confidence interval.
// Columns and units: docs/sweeps.md#results. Pure functions.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fleetsim/core/sample_stats.h"
#include "fleetsim/sweep/sweep_store.h"

namespace fleetsim {

using SweepRecords = std::map<std::string, SweepRecord>;

// Points that have neither a record nor an invalid document: runs still to do.
std::vector<std::size_t> MissingRuns(const SweepLayout& layout, const SweepRecords& records);

// Points whose run failed (invalid document, illegal decision, error), in point order.
std::vector<std::size_t> FailedRuns(const SweepLayout& layout, const SweepRecords& records);

// Mean, spread and 95 % interval of a metric over a cell's runs.
using SweepStats = SampleStats;

// One cell of the grid (every axis but the seed): its runs' statistics per metric of
// SweepMetricNames(), and the paired difference against the baseline policy's matching cell.
struct SweepCell {
  const LayoutPoint* first = nullptr;  // scenario, policy and axis labels of the cell
  std::vector<const LayoutPoint*> points{};
  std::size_t failed = 0;
  bool paired = false;                    // a cell of another policy than the baseline
  std::vector<SweepStats> metrics{};      // per metric
  std::vector<SweepStats> differences{};  // per metric: this - baseline, seed by seed
};

// Every cell, in order of first appearance among the points.
std::vector<SweepCell> SummarizeCells(const SweepLayout& layout, const SweepRecords& records);

std::string ResultsCsv(const SweepLayout& layout, const SweepRecords& records);
std::string ResultsJson(const SweepLayout& layout, const SweepRecords& records);
// summary.csv of the cells SummarizeCells gives.
std::string SummaryCsv(const SweepLayout& layout, const std::vector<SweepCell>& cells);

}  // namespace fleetsim
