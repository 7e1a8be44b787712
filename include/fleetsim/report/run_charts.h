// Charts of the run report (`fleetsim run --html`, html_report.h) beyond the benchmark page's:
//  - jobs queued over time, one line per run, from RunReport::series (the fleet's row of
//    timeseries.csv, metrics/fleet_series.h);
//  - a pool's use over time: the share of its GPUs held, one line per run, one chart per pool;
//  - distributions of job times (wait, completion) as empirical CDFs, one line per run, on a log
//    time axis from one minute (shorter times are drawn at one minute), each line drawn through
//    at most kCdfPoints quantiles so that a 100,000-job trace costs the page no more than a small
//    one; the line ends at the share of jobs that have a value (a job that never started has no
//    wait), so it does not reach 100 % when some jobs never got there.
// Lines are in each policy's style (report_style.h). Pure functions of their inputs.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "fleetsim/report/html_chart.h"
#include "fleetsim/results/run_report.h"

namespace fleetsim {

inline constexpr std::size_t kCdfPoints = 200;

// The runs' fleet-wide jobs queued over time (runs without a series are left out).
Svg QueueOverTime(const std::vector<const RunReport*>& runs, const std::string& title);

// The pools of the runs' series (the first run's; none for a bare fleet).
std::vector<std::string> SeriesPools(const std::vector<const RunReport*>& runs);

// Pool `pool`'s share of GPUs held over time, one line per run whose series has that pool.
Svg PoolUseOverTime(const std::vector<const RunReport*>& runs, const std::string& pool,
                    const std::string& title);

// One CDF line: a policy's values in seconds, out of `jobs` jobs.
struct CdfLine {
  std::string policy;
  std::vector<double> seconds;
  std::size_t jobs = 0;
};

// Waits (start − submit) of the jobs that started, out of the jobs submitted.
CdfLine WaitTimes(const RunReport& run);
// Completion times (end − submit) of the jobs that completed, out of the jobs submitted.
CdfLine CompletionTimes(const RunReport& run);

Svg CdfChart(const std::vector<CdfLine>& lines, const std::string& title,
             const std::string& x_label);

}  // namespace fleetsim
