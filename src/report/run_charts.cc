// The run report's charts: queue and pool use over time (from the runs' series), wait and
// completion-time CDFs (from their jobs).
#include "fleetsim/report/run_charts.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "fleetsim/report/report_style.h"
#include "fleetsim/report/timeline_charts.h"

namespace fleetsim {

namespace {

constexpr double kLeft = 64;
constexpr double kRight = kChartWidth - 12;
constexpr double kTop = 46;
constexpr double kBottom = 236;
constexpr double kHeight = 266;
constexpr double kMinSeconds = 60;

std::vector<const RunReport*> WithSeries(const std::vector<const RunReport*>& runs) {
  std::vector<const RunReport*> out;
  for (const RunReport* run : runs) {
    if (run->series && !run->series->integrals.empty()) {
      out.push_back(run);
    }
  }
  return out;
}

std::vector<std::string> Policies(const std::vector<const RunReport*>& runs) {
  std::vector<std::string> names;
  for (const RunReport* run : runs) {
    names.push_back(run->policy.name);
  }
  return names;
}

// The index of `pool`'s scope in the series, if it has one.
std::optional<std::size_t> ScopeOf(const FleetSeriesData& series, const std::string& pool) {
  for (std::size_t scope = 1; scope < series.scopes.size(); ++scope) {
    if (series.scopes[scope].pool == pool) {
      return scope;
    }
  }
  return std::nullopt;
}

// (mid time, mean of `measure` in `scope` / divisor) per slice.
std::vector<std::pair<double, double>> SeriesPoints(const FleetSeriesData& s, std::size_t scope,
                                                    SeriesMeasure measure, double divisor) {
  std::vector<std::pair<double, double>> points;
  for (std::size_t i = 0; i < s.integrals.size(); ++i) {
    const SimTime start = s.start + static_cast<SimTime>(i) * s.slice;
    const SimTime end = std::min(s.end, start + s.slice);
    const double mean =
        s.integrals[i][scope][static_cast<std::size_t>(measure)] / static_cast<double>(end - start);
    points.emplace_back((static_cast<double>(start) + static_cast<double>(end)) / 2,
                        divisor > 0 ? mean / divisor : 0);
  }
  return points;
}

// A chart over the runs' common time range with y in [0, y_max]; draws each run's points.
Svg OverTime(const std::vector<const RunReport*>& runs,
             const std::vector<std::vector<std::pair<double, double>>>& lines,
             const std::string& title, double y_max, bool percent) {
  Svg svg(kChartWidth, kHeight);
  svg.Text(kLeft, 16, title, "start", "title");
  SeriesLegend(svg, kLeft, 34, Policies(runs));
  SimTime t0 = kTimeNever;
  SimTime t1 = 0;
  for (const RunReport* run : runs) {
    t0 = std::min(t0, run->series->start);
    t1 = std::max(t1, run->series->end);
  }
  const Scale x{static_cast<double>(t0), static_cast<double>(std::max(t1, t0 + 1)), kLeft, kRight};
  const Scale y{0, y_max, kBottom, kTop};
  TimeAxis(svg, x, kTop, kBottom, true);
  const double step = NiceStep(y_max, 5);
  for (double v = 0; v <= y_max + step * 1e-9; v += step) {
    svg.Line(kLeft, y(v), kRight, y(v), "grid");
    svg.Text(kLeft - 6, y(v) + 4, percent ? fmt::format("{:g} %", v * 100) : fmt::format("{:g}", v),
             "end", "tick");
  }
  svg.Line(kLeft, kBottom, kRight, kBottom, "axis");
  for (std::size_t r = 0; r < runs.size(); ++r) {
    std::vector<std::pair<double, double>> pixels;
    for (const auto& [t, v] : lines[r]) {
      pixels.emplace_back(x(t), y(std::clamp(v, 0.0, y_max)));
    }
    DrawSeries(svg, pixels, PolicyStyle(runs[r]->policy.name), runs[r]->policy.name,
               std::max<std::size_t>(pixels.size() / 8, 1));
  }
  return svg;
}

// "1 min", "10 min", "1 h", "10 h", "100 h" ...
std::string DurationTick(double seconds) {
  if (seconds < 3600) {
    return fmt::format("{:g} min", seconds / 60);
  }
  return fmt::format("{:g} h", seconds / 3600);
}

// One CDF line over a run's submitted jobs: the seconds `measure` gives for each job it counts
// (nullopt: counted, but not reached, as a job that never started or never completed).
template <typename Measure>
CdfLine SubmittedJobsCdf(const RunReport& run, Measure measure) {
  CdfLine line{.policy = run.policy.name, .seconds = {}, .jobs = 0};
  for (const JobRecordRow& job : run.jobs) {
    if (job.state == FinalState::kNotSubmitted) {
      continue;
    }
    ++line.jobs;
    if (const std::optional<double> seconds = measure(job)) {
      line.seconds.push_back(*seconds);
    }
  }
  return line;
}

}  // namespace

Svg QueueOverTime(const std::vector<const RunReport*>& runs, const std::string& title) {
  const std::vector<const RunReport*> drawn = WithSeries(runs);
  std::vector<std::vector<std::pair<double, double>>> lines;
  double most = 0;
  for (const RunReport* run : drawn) {
    lines.push_back(SeriesPoints(*run->series, 0, SeriesMeasure::kQueued, 1));
    for (const auto& point : lines.back()) {
      most = std::max(most, point.second);
    }
  }
  const double step = NiceStep(std::max(most, 1.0), 5);
  return OverTime(drawn, lines, title, std::ceil(std::max(most, 1.0) / step) * step, false);
}

std::vector<std::string> SeriesPools(const std::vector<const RunReport*>& runs) {
  std::vector<std::string> pools;
  const std::vector<const RunReport*> with = WithSeries(runs);
  if (!with.empty()) {
    const FleetSeriesData& s = *with.front()->series;
    for (std::size_t scope = 1; scope < s.scopes.size(); ++scope) {
      pools.push_back(s.scopes[scope].pool);
    }
  }
  return pools;
}

Svg PoolUseOverTime(const std::vector<const RunReport*>& runs, const std::string& pool,
                    const std::string& title) {
  std::vector<const RunReport*> drawn;
  std::vector<std::vector<std::pair<double, double>>> lines;
  for (const RunReport* run : WithSeries(runs)) {
    if (const std::optional<std::size_t> scope = ScopeOf(*run->series, pool)) {
      drawn.push_back(run);
      lines.push_back(SeriesPoints(*run->series, *scope, SeriesMeasure::kHeld,
                                   static_cast<double>(run->series->scopes[*scope].gpus)));
    }
  }
  return OverTime(drawn, lines, title, 1, true);
}

CdfLine WaitTimes(const RunReport& run) {
  return SubmittedJobsCdf(run, [](const JobRecordRow& job) -> std::optional<double> {
    return job.started ? std::optional(TimeToSeconds(job.start - job.submit)) : std::nullopt;
  });
}

CdfLine CompletionTimes(const RunReport& run) {
  return SubmittedJobsCdf(run, [](const JobRecordRow& job) -> std::optional<double> {
    return job.state == FinalState::kCompleted ? std::optional(TimeToSeconds(job.end - job.submit))
                                               : std::nullopt;
  });
}

Svg CdfChart(const std::vector<CdfLine>& lines, const std::string& title,
             const std::string& x_label) {
  Svg svg(kChartWidth, kHeight + 14);
  svg.Text(kLeft, 16, title, "start", "title");
  std::vector<std::string> policies;
  double most = 3600;
  for (const CdfLine& line : lines) {
    policies.push_back(line.policy);
    for (const double s : line.seconds) {
      most = std::max(most, s);
    }
  }
  SeriesLegend(svg, kLeft, 34, policies);
  // Ticks at 1 min, 10 min, 1 h, 10 h, 100 h, ...: the axis ends at the first one past every value.
  std::vector<double> ticks = {kMinSeconds, 10 * kMinSeconds};
  for (double t = 3600; ticks.back() < most; t *= 10) {
    ticks.push_back(t);
  }
  const Scale x{0, std::log10(ticks.back() / kMinSeconds), kLeft, kRight};
  const Scale y{0, 1, kBottom, kTop};
  for (const double tick : ticks) {
    const double px = x(std::log10(tick / kMinSeconds));
    svg.Line(px, kTop, px, kBottom, "grid");
    svg.Text(px, kBottom + 14, DurationTick(tick), "middle", "tick");
  }
  for (int pct = 0; pct <= 100; pct += 25) {
    svg.Line(kLeft, y(pct / 100.0), kRight, y(pct / 100.0), "grid");
    svg.Text(kLeft - 6, y(pct / 100.0) + 4, fmt::format("{} %", pct), "end", "tick");
  }
  svg.Line(kLeft, kBottom, kRight, kBottom, "axis");
  svg.Text((kLeft + kRight) / 2, kBottom + 32, x_label, "middle");
  for (const CdfLine& line : lines) {
    std::vector<double> sorted = line.seconds;
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::pair<double, double>> pixels;
    const std::size_t n = sorted.size();
    const std::size_t every = std::max<std::size_t>((n + kCdfPoints - 1) / kCdfPoints, 1);
    for (std::size_t k = 0; k < n; k += every) {
      const std::size_t rank = std::min(k + every, n) - 1;  // the last of the group
      const double value = std::log10(std::max(sorted[rank], kMinSeconds) / kMinSeconds);
      pixels.emplace_back(x(value), y(static_cast<double>(rank + 1) /
                                      static_cast<double>(std::max<std::size_t>(line.jobs, 1))));
    }
    const double share =
        line.jobs > 0 ? static_cast<double>(n) / static_cast<double>(line.jobs) : 0;
    DrawSeries(
        svg, pixels, PolicyStyle(line.policy),
        fmt::format("{}: {} of {} jobs ({} %)", line.policy, n, line.jobs, Fixed(share * 100, 1)),
        std::max<std::size_t>(pixels.size() / 6, 1));
  }
  return svg;
}

}  // namespace fleetsim
