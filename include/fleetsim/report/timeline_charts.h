// Charts drawn from runs' allocation timelines (metrics/allocation_timeline.h), shared by the
// benchmark report and the run report (html_report.h):
//  - utilization over time, one line per run in its policy's style (report_style.h);
//  - the GPU x time allocation grid: one panel per run, one row per GPU, one bar per stretch a
//    job held it (coloured by job kind), pools marked by bands and separators at the left. Past
//    `max_gpu_rows` GPUs or `max_segments` segments, a panel draws one summary strip per pool
//    instead (the share of the pool's GPUs held, over time), so a large fleet still gets a grid.
// Pure functions of their inputs.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "fleetsim/report/html_chart.h"
#include "fleetsim/results/run_report.h"

namespace fleetsim {

inline constexpr double kChartWidth = 960;

// "1.5" for 1.5 h: a time in hours, shortest form.
std::string Hours(SimTime t);

// Vertical grid lines at round hours over [x.d0, x.d1] (milliseconds), labelled below `bottom`.
void TimeAxis(Svg& svg, const Scale& x, double top, double bottom, bool labels);

// Busy GPUs / GPUs up over `buckets` slices of the window, one line per run with a timeline; the
// run of `baseline` (if any) drawn last so it shows where others run along it.
Svg UtilizationOverTime(const std::vector<const RunReport*>& runs, const std::string& title,
                        const std::string& baseline, std::int64_t buckets);

struct GridLimits {
  std::int64_t max_gpu_rows = 512;     // a larger fleet draws one strip per pool
  std::int64_t max_segments = 20'000;  // more segments (all panels) draw one strip per pool
  std::int64_t strip_buckets = 240;    // time slices of a pool strip
};

// The grid of `panels` (runs with timelines, drawn top to bottom), titled `title`.
Svg AllocationGrid(const std::vector<const RunReport*>& panels, const std::string& title,
                   const GridLimits& limits);

}  // namespace fleetsim
