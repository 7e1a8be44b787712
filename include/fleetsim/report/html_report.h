// The benchmark report as one self-contained HTML page (`fleetsim bench`): every scenario under
// every policy, compared with a baseline policy (fifo). It holds
//  - a header: the fleetsim version and what each figure means;
//  - two overview bar charts: per scenario, each policy's change against the baseline in
//    utilization (percentage points) and in priority-weighted output (%);
//  - per scenario: a table (utilization, priority-weighted output and their changes, jobs
//    completed, p99 wait, unmet real-time GPU-hours, cost), utilization over time with one line
//    per policy, and the GPU x time allocation grid of two policies (constraint-aware above, fifo
//    below), folded in a <details> for every scenario but the first.
// The last two need RunReport::timeline (RunOptions::record_timeline); without it the page says
// so instead of drawing. docs/outputs.md#bench-report-html describes the page.
//
// Self-contained: CSS and SVG inline, no external scripts, styles, fonts, images or links; the
// only script is a small self-check (HtmlReportOptions::render_check) that, once the page has
// loaded, verifies every chart was laid out with the number of shapes it was drawn with and sets
// <body data-rendered="ok"> (or the problems found). A pure function of its input: identical
// reports give byte-identical pages (no timestamps; wall-clock values appear only if the reports
// carry them, and this page shows none).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fleetsim/report/html_chart.h"
#include "fleetsim/results/run_report.h"

namespace fleetsim {

struct HtmlReportOptions {
  std::string title = "fleetsim benchmark report";
  std::string baseline_policy = "fifo";          // deltas are against it; drawn below in grids
  std::string grid_policy = "constraint-aware";  // drawn above the baseline in grids
  std::int64_t utilization_buckets = 96;         // points per utilization line (15 min in 24 h)
  std::int64_t max_grid_segments = 20'000;       // a grid with more segments is not drawn
  bool render_check = true;                      // include the self-check script
};

// `reports` in scenario-major, policy-minor order: the runs of one scenario are contiguous (the
// same scenario name, SameScenario). A policy keeps its colour across the page (by name, in order
// of first appearance); a scenario without a baseline run shows no deltas.
std::string BenchHtml(const std::vector<RunReport>& reports, const HtmlReportOptions& options);

}  // namespace fleetsim
