// A sweep's report.html: one self-contained page (inline CSS and SVG, no external resources, the
// shared self-check script of report/html_chart.h) showing, for each metric the spec's "report"
// names (default utilization, priority-weighted output, p99 wait and cost):
//  - per scenario, the metric's mean over seeds along the first numeric axis (an axis whose
//    values are all numbers), one line per combination of the other axes, with 95 % confidence
//    bars from the seeds; cells without a value on that axis (a policy the parameter does not
//    apply to, such as fifo for constraint-aware's decay) as dashed horizontal reference lines;
//  - with two numeric axes, a heatmap of the mean over the first two, per combination of the
//    other axes;
//  - without a numeric axis, a bar per cell with its confidence bar;
// and a table of the grid (per cell: runs, failures, each metric's mean ± half the interval and
// the paired difference against the baseline). docs/sweeps.md#reporthtml describes it. Rendered
// from the layout and the records alone, like the other result files: byte-identical reruns.
// WriteSweepResults writes the four result files as one unit.
#pragma once

#include <cstddef>
#include <string>

#include "fleetsim/core/status.h"
#include "fleetsim/sweep/sweep_results.h"

namespace fleetsim {

struct SweepReportOptions {
  bool render_check = true;          // include the self-check script
  std::size_t max_series = 8;        // lines per chart; more are left out, and the page says so
  std::size_t max_charts = 12;       // line charts, and heatmaps, per metric
  std::size_t max_table_rows = 500;  // cells listed in the table
};

// The page of a sweep's results; `cells` are SummarizeCells(layout, records).
std::string SweepHtml(const SweepLayout& layout, const SweepRecords& records,
                      const std::vector<SweepCell>& cells, const SweepReportOptions& options);

// Renders results.csv, results.json, summary.csv and report.html (default options) and commits
// the four into `dir` as one unit (report/output_sink.h): what `fleetsim sweep` and `sweep merge`
// write once the runs are recorded.
Status WriteSweepResults(const std::string& dir, const SweepLayout& layout,
                         const SweepRecords& records);

}  // namespace fleetsim
