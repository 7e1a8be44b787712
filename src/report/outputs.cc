// Rendering of summary.json, jobs.csv, comparison.csv and the stdout table.
#include "fleetsim/report/outputs.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>

#include "fleetsim/core/version.h"

namespace fleetsim {

namespace {

using nlohmann::ordered_json;

ordered_json ParamsJson(const PolicyParams& params) {
  ordered_json out = ordered_json::object();
  for (const auto& entry : params) {
    const std::string& name = entry.first;
    std::visit([&out, &name](const auto& v) { out[name] = v; }, entry.second);
  }
  return out;
}

ordered_json WeightedJson(const WeightedValues& w) {
  return {{"values", w.values}, {"weights", w.weights}};
}

// The trace a scenario replays, or null: what was asked and what reading it gave.
ordered_json TraceJson(const ScenarioFacts& s) {
  if (!s.trace) {
    return nullptr;
  }
  const TraceFacts& t = *s.trace;
  ordered_json skipped = ordered_json::object();
  for (const SkippedRows& rows : t.report.skipped) {
    skipped[rows.reason] = rows.rows;
  }
  return {{"format", t.format},
          {"path", t.path},
          {"options", t.options},
          {"on_bad_row", t.on_bad_row == BadRowPolicy::kFail ? "fail" : "skip"},
          {"jobs", t.report.jobs},
          {"rows_skipped", skipped},
          {"rows_out_of_order", t.report.out_of_order}};
}

ordered_json ConfigJson(const RunReport& report) {
  const ScenarioFacts& s = report.scenario;
  ordered_json config;
  config["fleet"] = {{"gpus", s.fleet_gpus}};
  config["until_s"] =
      s.until == kTimeNever ? ordered_json(nullptr) : ordered_json(TimeToSeconds(s.until));
  ordered_json workload;
  workload["jobs_listed"] = report.jobs_listed;
  workload["jobs_traced"] = report.jobs_traced;
  workload["jobs_generated"] = report.jobs_generated;
  workload["trace"] = TraceJson(s);
  workload["generator_blocks"] = s.generator_blocks;
  workload["transform_notes"] = report.workload_notes;
  if (s.generator) {
    const GeneratorSpec& g = *s.generator;
    workload["generator"] = {
        {"jobs", g.jobs},
        {"mean_interarrival_s", g.mean_interarrival_s},
        {"duration_s",
         {{"median", g.duration_median_s},
          {"sigma", g.duration_sigma},
          {"max", g.duration_max_s > 0 ? ordered_json(g.duration_max_s) : ordered_json(nullptr)}}},
        {"gpus", WeightedJson(g.gpus)},
        {"priority", WeightedJson(g.priority)},
        {"id_prefix", g.id_prefix}};
  } else {
    workload["generator"] = nullptr;
  }
  workload["fingerprint"] = report.workload_fingerprint;
  config["workload"] = workload;
  return config;
}

ordered_json RealtimeJson(const RealtimeSummary& r) {
  return {{"jobs", r.jobs},
          {"demand_gpu_hours", r.demand_gpu_hours},
          {"served_gpu_hours", r.served_gpu_hours},
          {"unmet_gpu_hours", r.unmet_gpu_hours},
          {"served_fraction", r.served_fraction}};
}

ordered_json OrNull(const std::optional<double>& value) {
  return value ? ordered_json(*value) : ordered_json(nullptr);
}

ordered_json MetricsJson(const RunReport& report) {
  const MetricsSummary& m = report.metrics;
  const AccountingSummary& a = report.accounting;
  return {{"jobs_total", m.jobs_total},
          {"jobs_completed", m.jobs_completed},
          {"jobs_rejected", m.jobs_rejected},
          {"jobs_running_at_end", m.jobs_running_at_end},
          {"jobs_queued_at_end", m.jobs_queued_at_end},
          {"jobs_not_submitted", m.jobs_never_submitted},
          {"preemptions", m.preemptions},
          {"jobs_interrupted", a.counts.jobs_interrupted},
          {"spot_reclaims", a.counts.spot_reclaims},
          {"hardware_failures", a.counts.hardware_failures},
          {"window_start_s", TimeToSeconds(m.window_start)},
          {"window_end_s", TimeToSeconds(m.window_end)},
          {"allocated_gpu_hours", m.allocated_gpu_hours},
          {"available_gpu_hours", m.available_gpu_hours},
          {"allocated_share", m.allocated_share},
          {"utilization", a.utilization},
          {"lost_gpu_hours", a.total.lost},
          {"overhead_gpu_hours", a.total.overhead},
          {"goodput", a.goodput},
          {"priority_weighted_output", a.priority_weighted_output},
          {"idle_while_queued_gpu_hours", a.idle_while_queued_gpu_hours},
          {"idle_while_queued", a.idle_while_queued},
          {"tenant_fairness", OrNull(report.tenant_fairness)},
          {"wait_mean_s", m.wait_mean_s},
          {"wait_p50_s", m.wait_p50_s},
          {"wait_p90_s", m.wait_p90_s},
          {"wait_p99_s", m.wait_p99_s},
          {"batch_jobs_completed", m.batch_jobs_completed},
          {"jct_mean_s", m.jct_mean_s},
          {"jct_p50_s", m.jct_p50_s},
          {"jct_p90_s", m.jct_p90_s},
          {"jct_p99_s", m.jct_p99_s},
          {"bounded_slowdown_mean", m.bounded_slowdown_mean},
          {"makespan_s", m.makespan_s},
          {"deadline_jobs", m.deadline_jobs},
          {"deadline_misses", m.deadline_misses}};
}

// The GPU-hour categories of one pool or of the fleet, capacity first.
ordered_json GpuTimeJson(const GpuTimeSplit& h) {
  return {{"capacity_gpu_hours", h.capacity},
          {"useful_gpu_hours", h.useful},
          {"allocated_idle_gpu_hours", h.allocated_idle},
          {"lost_gpu_hours", h.lost},
          {"overhead_gpu_hours", h.overhead},
          {"reconfiguration_gpu_hours", h.reconfiguration},
          {"idle_gpu_hours", h.idle},
          {"down_gpu_hours", h.down}};
}

ordered_json AccountingJson(const AccountingSummary& a) {
  ordered_json out = GpuTimeJson(a.total);
  out["identity_gap_gpu_seconds"] = a.identity_gap_gpu_seconds;
  out["goodput"] = a.goodput;
  const InterruptionCounts& c = a.counts;
  out["interruptions"] = {{"spot_notices", c.spot_notices},
                          {"reclaim_waves", c.reclaim_waves},
                          {"spot_reclaims", c.spot_reclaims},
                          {"hardware_failures", c.hardware_failures},
                          {"jobs_interrupted", c.jobs_interrupted},
                          {"emergency_checkpoints", c.emergency_checkpoints},
                          {"policy_preemptions", c.policy_preemptions}};
  out["pools"] = ordered_json::array();
  for (const PoolAccounting& pool : a.pools) {
    ordered_json entry = {
        {"name", pool.name}, {"tier", PriceTierName(pool.tier)}, {"gpus", pool.gpus}};
    entry.update(GpuTimeJson(pool.hours));
    out["pools"].push_back(std::move(entry));
  }
  return out;
}

ordered_json CostJson(const CostSummary& c) {
  ordered_json out;
  out["unpriced_pools"] = c.unpriced_pools;
  out["total_usd"] = OrNull(c.total_usd);
  out["by_tier_usd"] = {{PriceTierName(PriceTier::kOnDemand), OrNull(c.on_demand_usd)},
                        {PriceTierName(PriceTier::kReserved), OrNull(c.reserved_usd)},
                        {PriceTierName(PriceTier::kSpot), OrNull(c.spot_usd)}};
  out["per_useful_gpu_hour_usd"] = OrNull(c.per_useful_gpu_hour_usd);
  out["lost_work_usd"] = OrNull(c.lost_work_usd);
  out["overhead_usd"] = OrNull(c.overhead_usd);
  out["pools"] = ordered_json::array();
  for (const PoolCost& pool : c.pools) {
    out["pools"].push_back({{"name", pool.name},
                            {"tier", PriceTierName(pool.tier)},
                            {"price_per_gpu_hour", OrNull(pool.price_per_gpu_hour)},
                            {"billed_gpu_hours", pool.billed_gpu_hours},
                            {"usd", OrNull(pool.usd)}});
  }
  return out;
}

std::string Hours(double seconds) { return fmt::format("{:.2f} h", seconds / 3600.0); }

}  // namespace

std::string SummaryJson(const RunReport& report) {
  ordered_json out;
  out["format_version"] = kOutputFormatVersion;
  out["fleetsim_version"] = kVersion;
  out["scenario"] = {{"name", report.scenario.name}, {"description", report.scenario.description}};
  out["seed"] = report.seed;
  out["policy"] = {{"name", report.policy.name}, {"params", ParamsJson(report.policy.params)}};
  out["config"] = ConfigJson(report);
  out["metrics"] = MetricsJson(report);
  out["metrics"]["realtime"] = RealtimeJson(report.realtime);
  out["accounting"] = AccountingJson(report.accounting);
  out["cost"] = CostJson(report.cost);
  if (report.wall_seconds) {
    out["timing"] = {{"wall_seconds", *report.wall_seconds}};
  }
  return out.dump(2) + "\n";
}

std::string RealtimeCsv(const RunReport& report) {
  std::string out =
      "job,start_s,end_s,demand_gpus,demand_gpu_hours,served_gpu_hours,unmet_gpu_hours\n";
  for (const RealtimeStepRow& row : report.realtime_steps) {
    out += CsvField(row.job);
    fmt::format_to(std::back_inserter(out), ",{:.3f},{:.3f},{},{:.6f},{:.6f},{:.6f}\n",
                   TimeToSeconds(row.start), TimeToSeconds(row.end), row.demand_gpus,
                   row.demand_gpu_hours, row.served_gpu_hours, row.unmet_gpu_hours);
  }
  return out;
}

std::string CsvField(const std::string& value) {
  if (value.find_first_of(",\"\r\n") == std::string::npos) {
    return value;
  }
  std::string quoted = "\"";
  for (const char c : value) {
    quoted += c == '"' ? "\"\"" : std::string(1, c);
  }
  return quoted + "\"";
}

namespace {

using Appender = std::back_insert_iterator<std::string>;

// Appends a CSV field, quoted as CsvField says, without building a temporary.
void AppendCsvField(std::string& out, const std::string& value) {
  if (value.find_first_of(",\"\r\n") == std::string::npos) {
    out += value;
  } else {
    out += CsvField(value);
  }
}

void AppendSeconds(std::string& out, SimTime t) {
  fmt::format_to(Appender(out), "{:.3f}", TimeToSeconds(t));
}

// One jobs.csv row, field by field (see docs/outputs.md#jobscsv).
void AppendJobRow(std::string& out, const JobRecordRow& row) {
  AppendCsvField(out, row.id);
  out += ',';
  AppendCsvField(out, row.tenant);
  out += ',';
  AppendCsvField(out, row.priority_class);
  fmt::format_to(Appender(out), ",{},{},", row.priority, JobKindName(row.kind));
  AppendSeconds(out, row.submit);
  out += ',';
  if (row.started) {
    AppendSeconds(out, row.start);
  }
  out += ',';
  if (row.ended) {
    AppendSeconds(out, row.end);
  }
  out += ',';
  if (row.started) {
    AppendSeconds(out, row.start - row.submit);
  }
  out += ',';
  if (row.started) {
    AppendSeconds(out, row.run_time);
  }
  fmt::format_to(Appender(out), ",{},{},{},{},{},", row.gpus, row.max_gpus,
                 GpuSharingName(row.sharing), row.cpu_milli, row.memory_mib);
  AppendCsvField(out, row.gres);
  out += ',';
  AppendCsvField(out, row.resources);
  out += ',';
  if (row.started) {
    fmt::format_to(Appender(out), "{},{},", row.gpus_allocated, row.gpu_share);
    AppendCsvField(out, row.gpu_models);
    fmt::format_to(Appender(out), ",{},", row.domains);
    AppendCsvField(out, row.pools);
    out += ',';
    AppendCsvField(out, row.tiers);
    out += ',';
    out += row.nodes;
  } else {
    out += ",,,,,,";
  }
  fmt::format_to(Appender(out), ",{},{},{:.6f},{:.6f},{:.6f},", row.preemptions, row.interruptions,
                 row.lost_gpu_hours, row.useful_gpu_hours, row.useful_work_gpu_hours);
  AppendCsvField(out, row.recorded_state);
  out += ',';
  out += FinalStateName(row.state);
  out += ',';
  AppendCsvField(out, row.reason);
  out += '\n';
}

}  // namespace

std::string JobsCsv(const RunReport& report) {
  std::string out =
      "id,tenant,priority_class,priority,kind,submit_s,start_s,end_s,wait_s,run_time_s,gpus,"
      "max_gpus,sharing,cpu_milli,memory_mib,gres,resources,gpus_allocated,gpu_share,gpu_models,"
      "domains,pools,tiers,nodes,preemptions,"
      "interruptions,lost_gpu_hours,useful_gpu_hours,useful_work_gpu_hours,recorded_state,state,"
      "reason\n";
  out.reserve(out.size() + report.jobs.size() * 128);
  for (const JobRecordRow& row : report.jobs) {
    AppendJobRow(out, row);
  }
  return out;
}

namespace {

// A comparison.csv field: the value with `decimals` decimals, or empty when there is none.
std::string OptionalField(const std::optional<double>& value, int decimals) {
  return value ? fmt::format("{:.{}f}", *value, decimals) : "";
}

// A table cell in dollars with two decimals, or "n/a" when there is no value.
std::string Dollars(const std::optional<double>& value) {
  return value ? fmt::format("${:.2f}", *value) : "n/a";
}

// Widths of the columns that name a run (scenario, policy, seed), shared by both tables.
struct RunColumns {
  std::size_t scenario = 8;
  std::size_t policy = 6;
  std::size_t seed = 4;

  std::string Cells(const std::string& scenario_name, const std::string& policy_name,
                    const std::string& seed_text) const {
    return fmt::format("{:<{}}  {:<{}}  {:>{}}", scenario_name, scenario, policy_name, policy,
                       seed_text, seed);
  }
  std::string Cells(const RunReport& r) const {
    return Cells(r.scenario.name, r.policy.name, fmt::format("{}", r.seed));
  }
};

RunColumns RunColumnsFor(const std::vector<RunReport>& reports) {
  RunColumns columns;
  for (const RunReport& r : reports) {
    columns.scenario = std::max(columns.scenario, r.scenario.name.size());
    columns.policy = std::max(columns.policy, r.policy.name.size());
    columns.seed = std::max(columns.seed, fmt::format("{}", r.seed).size());
  }
  return columns;
}

// Jobs, utilization, waits and makespan.
std::string SchedulingTable(const std::vector<RunReport>& reports, const RunColumns& columns) {
  std::string out = columns.Cells("scenario", "policy", "seed") +
                    fmt::format("  {:>11}  {:>8}  {:>6}  {:>10}  {:>10}  {:>10}\n", "completed",
                                "rejected", "util", "mean wait", "p99 wait", "makespan");
  for (const RunReport& r : reports) {
    const MetricsSummary& m = r.metrics;
    out += columns.Cells(r) + fmt::format("  {:>11}  {:>8}  {:>5.1f}%  {:>10}  {:>10}  {:>10}\n",
                                          fmt::format("{}/{}", m.jobs_completed, m.jobs_total),
                                          m.jobs_rejected, 100.0 * r.accounting.utilization,
                                          Hours(m.wait_mean_s), Hours(m.wait_p99_s),
                                          Hours(m.makespan_s));
  }
  return out;
}

// Interruptions, GPU-hours lost and spent on overhead, goodput and cost.
std::string CapacityTable(const std::vector<RunReport>& reports, const RunColumns& columns) {
  std::string out = columns.Cells("scenario", "policy", "seed") +
                    fmt::format("  {:>11}  {:>8}  {:>8}  {:>10}  {:>14}  {:>7}  {:>10}  {:>14}\n",
                                "interrupted", "reclaims", "failures", "lost GPU-h",
                                "overhead GPU-h", "goodput", "cost", "$/useful GPU-h");
  for (const RunReport& r : reports) {
    const AccountingSummary& a = r.accounting;
    out +=
        columns.Cells(r) +
        fmt::format("  {:>11}  {:>8}  {:>8}  {:>10.2f}  {:>14.2f}  {:>6.1f}%  {:>10}  {:>14}\n",
                    a.counts.jobs_interrupted, a.counts.spot_reclaims, a.counts.hardware_failures,
                    a.total.lost, a.total.overhead, 100.0 * a.goodput, Dollars(r.cost.total_usd),
                    Dollars(r.cost.per_useful_gpu_hour_usd));
  }
  return out;
}

}  // namespace

std::string ComparisonCsv(const std::vector<RunReport>& reports) {
  std::string out =
      "scenario,policy,seed,jobs_total,jobs_completed,jobs_rejected,utilization,"
      "priority_weighted_output,wait_mean_s,wait_p99_s,jct_p50_s,bounded_slowdown_mean,"
      "makespan_s,goodput,lost_gpu_hours,cost_total,cost_per_useful_gpu_hour\n";
  for (const RunReport& r : reports) {
    const MetricsSummary& m = r.metrics;
    out += fmt::format(
        "{},{},{},{},{},{},{:.6f},{:.6f},{:.3f},{:.3f},{:.3f},{:.6f},{:.3f},{:.6f},{:.6f},{},{}\n",
        CsvField(r.scenario.name), CsvField(r.policy.name), r.seed, m.jobs_total, m.jobs_completed,
        m.jobs_rejected, r.accounting.utilization, r.accounting.priority_weighted_output,
        m.wait_mean_s, m.wait_p99_s, m.jct_p50_s, m.bounded_slowdown_mean, m.makespan_s,
        r.accounting.goodput, r.accounting.total.lost, OptionalField(r.cost.total_usd, 2),
        OptionalField(r.cost.per_useful_gpu_hour_usd, 4));
  }
  return out;
}

std::string TimelineCsv(const RunReport& report) {
  std::string out = "id,start_s,end_s,gpu_share,kind,priority,realtime,gpus\n";
  if (!report.timeline) {
    return out;
  }
  for (const TimelineSegment& segment : report.timeline->segments) {
    out += fmt::format("{},{:.3f},{:.3f},{:.6f},{},{},{},{}\n",
                       CsvField(report.jobs.at(segment.job).id), TimeToSeconds(segment.start),
                       TimeToSeconds(segment.end), segment.gpu_share, JobKindName(segment.kind),
                       segment.priority, segment.realtime ? "true" : "false",
                       fmt::join(segment.gpus, " "));
  }
  return out;
}

std::string TimeseriesCsv(const RunReport& report) {
  std::string out =
      "start_s,end_s,pool,gpus,gpus_held,gpus_idle,gpus_down,jobs_running,jobs_queued,"
      "realtime_demand_gpus,realtime_served_gpus\n";
  if (!report.series) {
    return out;
  }
  const FleetSeriesData& series = *report.series;
  for (std::size_t i = 0; i < series.integrals.size(); ++i) {
    const SimTime start = series.start + static_cast<SimTime>(i) * series.slice;
    const SimTime end = std::min(series.end, start + series.slice);
    const auto length = static_cast<double>(end - start);
    for (std::size_t scope = 0; scope < series.scopes.size(); ++scope) {
      const SliceIntegrals& sums = series.integrals[i][scope];
      auto mean = [&](SeriesMeasure m) { return sums[static_cast<std::size_t>(m)] / length; };
      const double held = mean(SeriesMeasure::kHeld);
      const double down = mean(SeriesMeasure::kDown);
      const auto gpus = static_cast<double>(series.scopes[scope].gpus);
      const std::string& pool = series.scopes[scope].pool;
      fmt::format_to(std::back_inserter(out),
                     "{:.3f},{:.3f},{},{},{:.3f},{:.3f},{:.3f},{:.3f},{},{:.3f},{:.3f}\n",
                     TimeToSeconds(start), TimeToSeconds(end), pool.empty() ? "*" : CsvField(pool),
                     series.scopes[scope].gpus, held, std::max(gpus - held - down, 0.0), down,
                     mean(SeriesMeasure::kRunning),
                     pool.empty() ? fmt::format("{:.3f}", mean(SeriesMeasure::kQueued)) : "",
                     mean(SeriesMeasure::kRealtimeDemand), mean(SeriesMeasure::kRealtimeServed));
    }
  }
  return out;
}

std::string MetricsTable(const std::vector<RunReport>& reports) {
  const RunColumns columns = RunColumnsFor(reports);
  return SchedulingTable(reports, columns) + "\n" + CapacityTable(reports, columns);
}

void StageRunFiles(const std::string& prefix, const RunReport& report, OutputSink& sink) {
  sink.Stage(prefix + "summary.json", SummaryJson(report));
  sink.Stage(prefix + "jobs.csv", JobsCsv(report));
  if (!report.realtime_steps.empty()) {
    sink.Stage(prefix + "realtime.csv", RealtimeCsv(report));
  }
  if (report.series) {
    sink.Stage(prefix + "timeseries.csv", TimeseriesCsv(report));
  }
}

}  // namespace fleetsim
