// Result files and the terminal tables, rendered from RunReports: summary.json (effective
// configuration, version, seed, metrics, capacity accounting, cost), jobs.csv (one row per job),
// comparison.csv (one row per scenario x policy) and two fixed-width tables for stdout
// (scheduling; interruptions and cost). Every renderer is a pure function of its input, and no
// wall-clock value appears unless the report carries one (--timing), so reruns are
// byte-identical. Formats are documented column by column in docs/outputs.md.
#pragma once

#include <string>
#include <vector>

#include "fleetsim/report/output_sink.h"
#include "fleetsim/results/run_report.h"

namespace fleetsim {

inline constexpr int kOutputFormatVersion = 1;

std::string SummaryJson(const RunReport& report);
std::string JobsCsv(const RunReport& report);
// realtime.csv: one row per step of each real-time job's life (docs/outputs.md#realtimecsv).
std::string RealtimeCsv(const RunReport& report);
std::string ComparisonCsv(const std::vector<RunReport>& reports);
// The allocation timeline (docs/outputs.md#timeline-csv): one row per segment of a job's life on
// one placement, in the order they ended; only the header when the report has no timeline.
std::string TimelineCsv(const RunReport& report);
// timeseries.csv (docs/outputs.md#timeseriescsv): per slice of the run, one row for the fleet
// (pool "*") and one per pool, from RunReport::series; only the header without it.
std::string TimeseriesCsv(const RunReport& report);
std::string MetricsTable(const std::vector<RunReport>& reports);

// Stages one run's files under `prefix` ("" or "dir/"): summary.json, jobs.csv, realtime.csv
// when it has real-time jobs, and timeseries.csv when it recorded its series.
void StageRunFiles(const std::string& prefix, const RunReport& report, OutputSink& sink);

// RFC 4180 quoting when a field contains a comma, quote or line break.
std::string CsvField(const std::string& value);

}  // namespace fleetsim
