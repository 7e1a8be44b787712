// The benchmark report as one self-contained HTML page (`fleetsim bench --html`): every scenario
// under every policy, compared with a baseline policy (fifo). In reading order:
//  - the title, from the content ("constraint-aware vs fifo on 7 scenarios"), and the headline:
//    a sentence stating the result, and per scenario the headline policy (constraint-aware)
//    against the baseline — utilization in percentage points and priority-weighted output in % —
//    with the source post's published figures beside ours when they are given, and the best
//    policy on output;
//  - a reproduce line: the command, the fleetsim version, the seeds;
//  - two overview bar charts: per scenario, each policy's change against the baseline, a
//    scenario where every policy ties saying so;
//  - per scenario: a table (utilization, priority-weighted output and their changes, jobs
//    completed, p99 wait, unmet real-time GPU-hours, cost), a note when all policies tie (and
//    whether they made the same schedule), utilization over time with one line per policy, and
//    the GPU x time allocation grid of two policies (the headline policy above, the baseline
//    below) with pool bands, folded in a <details> for every scenario but the first;
//  - what each figure means.
// Each policy has the same colour, dash and marker on every page (report_style.h). The charts
// over time need RunReport::timeline (RunOptions::record_timeline); without it the page says so
// instead of drawing. docs/outputs.md#bench-report-html describes the page.
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

#include "fleetsim/report/bench_report.h"
#include "fleetsim/report/timeline_charts.h"
#include "fleetsim/results/run_report.h"

namespace fleetsim {

struct HtmlReportOptions {
  std::string title{};                               // empty: from the content
  std::string baseline_policy = kBaselinePolicy;     // deltas are against it; below in grids
  std::string headline_policy = "constraint-aware";  // the headline's policy; above in grids
  const PublishedSet* published = nullptr;           // the source post's figures, if given
  std::string reproduce{};                           // the command that made the page
  std::int64_t utilization_buckets = 96;             // points per utilization line
  GridLimits grid{};
  bool render_check = true;  // include the self-check script
};

// `reports` in scenario-major, policy-minor order: the runs of one scenario are contiguous (the
// same scenario name, SameScenario). A scenario without a baseline run shows no deltas.
std::string BenchHtml(const std::vector<RunReport>& reports, const HtmlReportOptions& options);

// The run report (`fleetsim run --html`): the same page for any runs — runs of one scenario and
// seed are compared side by side, the headline only when a scenario has both the headline and
// the baseline policy — with, per scenario and seed, after utilization over time: jobs queued
// over time and each pool's use (from RunReport::series), wait-time and completion-time CDFs,
// and a grid with every run (run_charts.h). docs/outputs.md#run-report-html describes it.
std::string RunHtml(const std::vector<RunReport>& reports, const HtmlReportOptions& options);

}  // namespace fleetsim
