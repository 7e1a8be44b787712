// The bench report page: header, overview delta bars, and per scenario a table, utilization over
// time and the GPU x time allocation grid, as inline SVG drawn here (no script libraries).
#include "fleetsim/report/html_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string_view>

#include "fleetsim/core/version.h"
#include "fleetsim/report/html_chart.h"

namespace fleetsim {

namespace {

constexpr double kMillisPerHour = 3'600'000.0;
constexpr double kChartWidth = 960;
// A grid has one row per GPU; larger fleets are not drawn.
constexpr std::int64_t kMaxGridGpus = 512;

// Colours of the job kinds in the grid, indexed by JobKind.
constexpr std::array<std::string_view, 7> kKindColours = {
    "#9e9e9e",  // unspecified
    "#0072b2",  // pretraining
    "#56b4e9",  // fine-tuning
    "#e69f00",  // batch-inference
    "#d55e00",  // realtime-inference
    "#009e73",  // quantization
    "#cc79a7",  // interactive
};
constexpr std::string_view kDownColour = "#4a4a4a";

std::string_view KindColour(JobKind kind) {
  const auto index = static_cast<std::size_t>(kind);
  return index < kKindColours.size() ? kKindColours[index] : kKindColours[0];
}

constexpr std::array<JobKind, 7> kAllKinds = {JobKind::kUnspecified,       JobKind::kPretraining,
                                              JobKind::kFineTuning,        JobKind::kBatchInference,
                                              JobKind::kRealtimeInference, JobKind::kQuantization,
                                              JobKind::kInteractive};

// ---- Formatting -------------------------------------------------------------------------------

std::string Hours(SimTime t) {
  return fmt::format("{:g}", static_cast<double>(t) / kMillisPerHour);
}

// ---- Data -------------------------------------------------------------------------------------

// The runs of one scenario, in input order, and its baseline run (if any).
struct ScenarioRuns {
  std::string name;
  std::string description;
  std::vector<const RunReport*> runs;
  const RunReport* baseline = nullptr;
};

std::vector<ScenarioRuns> GroupByScenario(const std::vector<RunReport>& reports,
                                          const std::string& baseline_policy) {
  std::vector<ScenarioRuns> groups;
  for (const RunReport& report : reports) {
    if (groups.empty() || !SameScenario(*groups.back().runs.front(), report)) {
      ScenarioRuns group;
      group.name = report.scenario.name;
      group.description = report.scenario.description;
      groups.push_back(std::move(group));
    }
    ScenarioRuns& group = groups.back();
    group.runs.push_back(&report);
    if (group.baseline == nullptr && report.policy.name == baseline_policy) {
      group.baseline = &report;
    }
  }
  return groups;
}

// Utilization change against the baseline, in percentage points.
std::optional<double> UtilizationDeltaPp(const RunReport& run, const RunReport* baseline) {
  if (baseline == nullptr) {
    return std::nullopt;
  }
  return (run.accounting.utilization - baseline->accounting.utilization) * 100;
}

// Priority-weighted output change against the baseline, in %; none if the baseline's is 0.
std::optional<double> OutputDeltaPct(const RunReport& run, const RunReport* baseline) {
  if (baseline == nullptr || baseline->accounting.priority_weighted_output <= 0) {
    return std::nullopt;
  }
  return (run.accounting.priority_weighted_output / baseline->accounting.priority_weighted_output -
          1) *
         100;
}

// Colours by policy name, in order of first appearance; the baseline is grey.
class PolicyColours {
 public:
  PolicyColours(const std::vector<RunReport>& reports, const std::string& baseline) {
    for (const RunReport& r : reports) {
      if (r.policy.name != baseline &&
          std::find(names_.begin(), names_.end(), r.policy.name) == names_.end()) {
        names_.push_back(r.policy.name);
      }
    }
    baseline_ = baseline;
  }
  std::string_view Of(const std::string& policy) const {
    if (policy == baseline_) {
      return kBaselineColour;
    }
    const auto it = std::find(names_.begin(), names_.end(), policy);
    const auto index = static_cast<std::size_t>(it - names_.begin());
    return kPolicyPalette[index % kPolicyPalette.size()];
  }
  // The policies other than the baseline, in order of first appearance.
  const std::vector<std::string>& others() const { return names_; }

 private:
  std::vector<std::string> names_;
  std::string baseline_;
};

// ---- SVG --------------------------------------------------------------------------------------

// A tick step in hours for a time axis: 1, 2, 3, 6, 12, 24, 48... giving at most 12 ticks.
double HourStep(double hours) {
  for (const double step : {1.0, 2.0, 3.0, 6.0, 12.0, 24.0, 48.0, 168.0}) {
    if (hours / step <= 12) {
      return step;
    }
  }
  return NiceStep(hours, 12);
}

// Vertical grid lines and hour labels under a plot, for times [t0, t1] on `x`.
void TimeAxis(Svg& svg, const Scale& x, double top, double bottom, bool labels) {
  const double h0 = x.d0 / kMillisPerHour;
  const double h1 = x.d1 / kMillisPerHour;
  const double step = HourStep(h1 - h0);
  for (double h = std::ceil(h0 / step) * step; h <= h1 + 1e-9; h += step) {
    const double px = x(h * kMillisPerHour);
    svg.Line(px, top, px, bottom, "grid");
    if (labels) {
      svg.Text(px, bottom + 14, fmt::format("{:g} h", h), "middle", "tick");
    }
  }
}

// ---- The page ---------------------------------------------------------------------------------

struct Page {
  const HtmlReportOptions& options;
  PolicyColours colours;
  int charts = 0;

  std::string Chart(const Svg& svg, const std::string& label) {
    return svg.Finish(++charts, label);
  }
};

std::string HeaderHtml(const std::vector<ScenarioRuns>& scenarios, const Page& page,
                       std::size_t runs) {
  const std::string& baseline = page.options.baseline_policy;
  std::string out = fmt::format(
      "<header>\n<h1>{}</h1>\n<p class=\"meta\">fleetsim {} · {} scenarios · {} runs"
      " · baseline policy {}</p>\n",
      HtmlEscape(page.options.title), HtmlEscape(kVersion), scenarios.size(), runs,
      HtmlEscape(baseline));
  out += fmt::format(
      R"(<dl class="definitions">
<dt>utilization</dt><dd>GPU-time doing work (useful, lost, overhead and reconfiguration) / GPU-time of the nodes that were up, over the window from the first submission to the end of the run. A real-time service's GPUs held above its demand (a reservation sitting idle) do not count.</dd>
<dt>priority-weighted output</dt><dd>Σ over jobs of priority × useful work: work that was kept (not lost to a stop, not spent pausing), in GPU-hours for a job given a duration and in reference GPU-hours for a job given work (the same wherever it ran), and for real-time services the demand actually served.</dd>
<dt>Δ vs {0}</dt><dd>utilization in percentage points (pp) and priority-weighted output in % against the {0} run of the same scenario.</dd>
<dt>p99 wait</dt><dd>the 99th percentile (nearest rank) of start − submit over the jobs that started.</dd>
<dt>unmet real-time</dt><dd>GPU-hours of real-time demand that were not served.</dd>
<dt>cost</dt><dd>the fleet's bill over the window, by pool price tier; n/a when a pool has no price.</dd>
<dt>charts</dt><dd>utilization over time: busy GPUs / GPUs up, over {1} equal slices of the window; allocation grid: one row per GPU, one bar per stretch a job held it, coloured by job kind (dark grey: node down).</dd>
</dl>
)",
      HtmlEscape(baseline), page.options.utilization_buckets);
  out += "</header>\n";
  return out;
}

std::string NavHtml(const std::vector<ScenarioRuns>& scenarios) {
  std::string out = "<nav><h3>Scenarios</h3><ol>\n";
  for (std::size_t i = 0; i < scenarios.size(); ++i) {
    out += fmt::format("<li><a href=\"#scenario-{}\">{}</a></li>\n", i + 1,
                       HtmlEscape(scenarios[i].name));
  }
  return out + "</ol></nav>\n";
}

// One overview chart: per scenario (groups), a bar per non-baseline policy.
std::string DeltaBarChart(const std::vector<ScenarioRuns>& scenarios, Page& page,
                          const std::string& title, const std::string& unit,
                          std::optional<double> (*delta)(const RunReport&, const RunReport*)) {
  const std::vector<std::string>& policies = page.colours.others();
  double lo = 0;
  double hi = 0;
  for (const ScenarioRuns& s : scenarios) {
    for (const RunReport* run : s.runs) {
      if (const std::optional<double> d = delta(*run, s.baseline)) {
        lo = std::min(lo, *d);
        hi = std::max(hi, *d);
      }
    }
  }
  const double step = NiceStep(hi - lo > 0 ? hi - lo : 1, 6);
  lo = std::floor(lo / step) * step;
  hi = std::max(std::ceil(hi / step) * step, lo + step);

  const double left = 80;  // room for the first rotated scenario name
  const double right = kChartWidth - 12;
  const double top = 46;
  const double bottom = 230;
  const double height = 300;
  Svg svg(kChartWidth, height);
  svg.Text(left, 16, title, "start", "title");
  std::vector<std::pair<std::string, std::string_view>> legend;
  for (const std::string& p : policies) {
    legend.emplace_back(p, page.colours.Of(p));
  }
  Legend(svg, left, 34, legend);
  const Scale y{lo, hi, bottom, top};
  const auto ticks = static_cast<int>(std::lround((hi - lo) / step));
  for (int i = 0; i <= ticks; ++i) {
    const double v = lo + step * static_cast<double>(i);
    svg.Line(left, y(v), right, y(v), "grid");
    svg.Text(left - 6, y(v) + 4, fmt::format("{:g} {}", std::abs(v) < step * 1e-6 ? 0 : v, unit),
             "end", "tick");
  }
  const double group_width =
      (right - left) / static_cast<double>(std::max<std::size_t>(scenarios.size(), 1));
  const double bar_width =
      group_width * 0.8 / static_cast<double>(std::max<std::size_t>(policies.size(), 1));
  const bool rotate_labels = scenarios.size() > 4;
  for (std::size_t g = 0; g < scenarios.size(); ++g) {
    const ScenarioRuns& s = scenarios[g];
    const double group_left = left + group_width * static_cast<double>(g) + group_width * 0.1;
    for (const RunReport* run : s.runs) {
      const auto it = std::find(policies.begin(), policies.end(), run->policy.name);
      const std::optional<double> d = delta(*run, s.baseline);
      if (it == policies.end() || !d) {
        continue;
      }
      const double x = group_left + bar_width * static_cast<double>(it - policies.begin());
      const double zero_y = y(0);
      const double value_y = y(*d);
      svg.Rect(x + 1, std::min(zero_y, value_y), bar_width - 2, std::abs(value_y - zero_y),
               page.colours.Of(run->policy.name),
               fmt::format("{} · {}: {} {}", s.name, run->policy.name, Signed(*d, 1), unit));
    }
    const double label_x = left + group_width * (static_cast<double>(g) + 0.5);
    if (rotate_labels) {
      svg.Text(label_x + 4, bottom + 14, s.name, "end", "tick", -25);
    } else {
      svg.Text(label_x, bottom + 16, s.name, "middle", "tick");
    }
  }
  svg.Line(left, y(0), right, y(0), "zero");
  return page.Chart(svg, title);
}

std::string OverviewHtml(const std::vector<ScenarioRuns>& scenarios, Page& page) {
  if (page.colours.others().empty()) {
    return "";
  }
  const std::string& baseline = page.options.baseline_policy;
  std::string out = "<section class=\"overview\">\n<h2>Change against " + HtmlEscape(baseline) +
                    ", per scenario</h2>\n";
  out += DeltaBarChart(scenarios, page, "Utilization, Δ percentage points vs " + baseline, "pp",
                       &UtilizationDeltaPp);
  out += "\n";
  out += DeltaBarChart(scenarios, page, "Priority-weighted output, Δ % vs " + baseline, "%",
                       &OutputDeltaPct);
  out += "\n";
  if (std::any_of(scenarios.begin(), scenarios.end(),
                  [](const ScenarioRuns& s) { return s.baseline == nullptr; })) {
    out += "<p class=\"note\">Scenarios without a " + HtmlEscape(baseline) +
           " run have no bars.</p>\n";
  }
  return out + "</section>\n";
}

// A delta cell: signed value with its unit, coloured by sign; "baseline" on the baseline row.
std::string DeltaCell(const RunReport& run, const ScenarioRuns& s, std::optional<double> delta,
                      const std::string& unit) {
  if (&run == s.baseline) {
    return "<td class=\"baseline\">baseline</td>";
  }
  if (!delta) {
    return "<td>n/a</td>";
  }
  const char* css = *delta > 0.05 ? "pos" : *delta < -0.05 ? "neg" : "";
  return fmt::format("<td class=\"{}\">{} {}</td>", css, Signed(*delta, 1), unit);
}

// The cost cell: the total in dollars, or n/a when a pool has no price.
std::string CostCell(const CostSummary& cost) {
  if (!cost.total_usd) {
    return "<td title=\"a pool has no price\">n/a</td>";
  }
  return "<td>$" + Fixed(*cost.total_usd, 0) + "</td>";
}

std::string SummaryTable(const ScenarioRuns& s, const Page& page) {
  std::string out = fmt::format(
      "<table class=\"summary\">\n<thead><tr><th>policy</th><th>utilization</th><th>Δ vs {0}</th>"
      "<th>priority-weighted output</th><th>Δ vs {0}</th><th>jobs completed</th>"
      "<th>p99 wait (h)</th><th>unmet real-time (GPU-h)</th><th>cost</th></tr></thead>\n"
      "<tbody>\n",
      HtmlEscape(page.options.baseline_policy));
  for (const RunReport* run : s.runs) {
    const MetricsSummary& m = run->metrics;
    out += fmt::format(
        "<tr><td><span class=\"swatch\" style=\"background:{}\"></span>{}</td><td>{} %</td>{}"
        "<td>{}</td>{}<td>{} / {}</td><td>{}</td><td>{}</td>{}</tr>\n",
        page.colours.Of(run->policy.name), HtmlEscape(run->policy.name),
        Fixed(run->accounting.utilization * 100, 1),
        DeltaCell(*run, s, UtilizationDeltaPp(*run, s.baseline), "pp"),
        Fixed(run->accounting.priority_weighted_output, 1),
        DeltaCell(*run, s, OutputDeltaPct(*run, s.baseline), "%"), m.jobs_completed, m.jobs_total,
        Fixed(m.wait_p99_s / 3600, 2), Fixed(run->realtime.unmet_gpu_hours, 1),
        CostCell(run->cost));
  }
  return out + "</tbody>\n</table>\n";
}

// The time range [start, end] shared by a scenario's timelines.
std::pair<SimTime, SimTime> TimelineRange(const ScenarioRuns& s) {
  SimTime start = kTimeNever;
  SimTime end = 0;
  for (const RunReport* run : s.runs) {
    if (run->timeline) {
      start = std::min(start, run->timeline->window_start);
      end = std::max(end, run->timeline->window_end);
    }
  }
  return {start == kTimeNever ? 0 : start, std::max(end, start == kTimeNever ? 0 : start)};
}

bool HasTimelines(const ScenarioRuns& s) {
  return std::any_of(s.runs.begin(), s.runs.end(),
                     [](const RunReport* run) { return run->timeline.has_value(); });
}

std::string UtilizationChart(const ScenarioRuns& s, Page& page) {
  const auto [t0, t1] = TimelineRange(s);
  const double left = 56;
  const double right = kChartWidth - 12;
  const double top = 46;
  const double bottom = 236;
  Svg svg(kChartWidth, 262);
  const std::string title = "Utilization over time · " + s.name;
  svg.Text(left, 16, title, "start", "title");
  std::vector<std::pair<std::string, std::string_view>> legend;
  for (const RunReport* run : s.runs) {
    if (run->timeline) {
      legend.emplace_back(run->policy.name, page.colours.Of(run->policy.name));
    }
  }
  Legend(svg, left, 34, legend);
  const Scale x{static_cast<double>(t0), static_cast<double>(t1), left, right};
  const Scale y{0, 1, bottom, top};
  TimeAxis(svg, x, top, bottom, true);
  for (int pct = 0; pct <= 100; pct += 25) {
    svg.Line(left, y(pct / 100.0), right, y(pct / 100.0), "grid");
    svg.Text(left - 6, y(pct / 100.0) + 4, fmt::format("{} %", pct), "end", "tick");
  }
  svg.Line(left, bottom, right, bottom, "axis");
  // The baseline last, dashed, so that it shows where other lines run along it.
  std::vector<const RunReport*> drawn;
  for (const RunReport* run : s.runs) {
    if (run->timeline && run != s.baseline) {
      drawn.push_back(run);
    }
  }
  if (s.baseline != nullptr && s.baseline->timeline) {
    drawn.push_back(s.baseline);
  }
  for (const RunReport* run : drawn) {
    const std::vector<UtilizationBucket> series =
        UtilizationSeries(*run->timeline, page.options.utilization_buckets);
    if (series.empty()) {
      continue;
    }
    std::string d;
    for (const UtilizationBucket& b : series) {
      const double mid = (static_cast<double>(b.start) + static_cast<double>(b.end)) / 2;
      d += fmt::format("{}{} {}", d.empty() ? "M" : " L", Coord(x(mid)),
                       Coord(y(std::clamp(b.utilization, 0.0, 1.0))));
    }
    svg.Path(d, page.colours.Of(run->policy.name), run == s.baseline ? "series baseline" : "series",
             fmt::format("{} · {}: {} % over the window", run->policy.name, s.name,
                         Fixed(run->accounting.utilization * 100, 1)));
  }
  return page.Chart(svg, title);
}

// The job's id from the run's job log, or its index.
std::string JobLabel(const RunReport& run, JobIndex job) {
  return job < run.jobs.size() ? run.jobs[job].id : fmt::format("job #{}", job);
}

// One panel of the grid: rows = GPUs of `run`'s fleet, from y = top.
void GridPanel(Svg& svg, const RunReport& run, const Scale& x, double top, double row_height) {
  const AllocationTimelineData& t = *run.timeline;
  const double bottom = top + row_height * static_cast<double>(t.fleet_gpus);
  svg.Rect(x.p0, top, x.p1 - x.p0, bottom - top, "#f4f4f4");
  TimeAxis(svg, x, top, bottom, true);
  const double gap = row_height >= 6 ? 1 : 0;
  for (const DownSpan& span : t.down) {
    const double x0 = x(static_cast<double>(std::max(span.start, t.window_start)));
    const double x1 = x(static_cast<double>(std::min(span.end, t.window_end)));
    if (x1 <= x0) {
      continue;
    }
    svg.Rect(x0, top + row_height * static_cast<double>(span.first_gpu), x1 - x0,
             row_height * static_cast<double>(span.gpus) - gap, kDownColour,
             fmt::format("node down · {}–{} h", Hours(span.start), Hours(span.end)));
  }
  for (const TimelineSegment& seg : t.segments) {
    if (seg.gpus.empty() || seg.end <= seg.start) {
      continue;
    }
    // A share below one GPU per GPU held (fractional, MIG) draws a thinner bar.
    const double per_gpu =
        std::clamp(seg.gpu_share / static_cast<double>(seg.gpus.size()), 0.15, 1.0);
    const std::string title = fmt::format(
        "{} · {} · priority {} · {}–{} h · {:g} GPU", JobLabel(run, seg.job), JobKindName(seg.kind),
        seg.priority, Hours(seg.start), Hours(seg.end), seg.gpu_share);
    const double x0 = x(static_cast<double>(seg.start));
    const double width = std::max(x(static_cast<double>(seg.end)) - x0, 0.5);
    const std::string_view colour = KindColour(seg.kind);
    // One bar per run of consecutive GPU ids.
    for (std::size_t i = 0; i < seg.gpus.size();) {
      std::size_t j = i + 1;
      while (j < seg.gpus.size() && seg.gpus[j] == seg.gpus[j - 1] + 1) {
        ++j;
      }
      const double row_top = top + row_height * static_cast<double>(seg.gpus[i]);
      const double rows = static_cast<double>(j - i);
      svg.Rect(x0, row_top, width, row_height * (rows - 1) + row_height * per_gpu - gap, colour,
               title, "job");
      i = j;
    }
  }
}

const RunReport* FindRun(const ScenarioRuns& s, const std::string& policy) {
  for (const RunReport* run : s.runs) {
    if (run->policy.name == policy && run->timeline) {
      return run;
    }
  }
  return nullptr;
}

std::size_t SegmentCount(const RunReport& run) { return run.timeline->segments.size(); }

std::string AllocationGrid(const ScenarioRuns& s, Page& page) {
  std::vector<const RunReport*> panels;
  for (const std::string& policy : {page.options.grid_policy, page.options.baseline_policy}) {
    const RunReport* run = FindRun(s, policy);
    if (run != nullptr && std::find(panels.begin(), panels.end(), run) == panels.end()) {
      panels.push_back(run);
    }
  }
  if (panels.empty()) {
    return "<p class=\"note\">Neither a " + HtmlEscape(page.options.grid_policy) + " nor a " +
           HtmlEscape(page.options.baseline_policy) + " run recorded a timeline.</p>\n";
  }
  std::size_t segments = 0;
  for (const RunReport* run : panels) {
    segments += SegmentCount(*run);
    if (run->timeline->fleet_gpus > kMaxGridGpus) {
      return fmt::format(
          "<p class=\"note\">The fleet has {} GPUs, more than the {} rows a grid "
          "draws.</p>\n",
          run->timeline->fleet_gpus, kMaxGridGpus);
    }
  }
  if (segments > static_cast<std::size_t>(page.options.max_grid_segments)) {
    return fmt::format("<p class=\"note\">{} job segments, more than the {} a grid draws.</p>\n",
                       segments, page.options.max_grid_segments);
  }

  const auto [t0, t1] = TimelineRange(s);
  const double left = 56;
  const double right = kChartWidth - 12;
  const std::int64_t gpus = panels.front()->timeline->fleet_gpus;
  const double row_height =
      std::clamp(288.0 / static_cast<double>(std::max<std::int64_t>(gpus, 1)), 1.0, 20.0);
  double y = 46;
  std::vector<double> panel_tops;
  for (const RunReport* run : panels) {
    panel_tops.push_back(y + 18);
    y += 18 + row_height * static_cast<double>(run->timeline->fleet_gpus) + 30;
  }
  Svg svg(kChartWidth, y);
  const std::string title = "GPU × time allocation · " + s.name;
  svg.Text(left, 16, title, "start", "title");
  std::vector<std::pair<std::string, std::string_view>> legend;
  for (const JobKind kind : kAllKinds) {
    const bool present = std::any_of(panels.begin(), panels.end(), [kind](const RunReport* run) {
      const std::vector<TimelineSegment>& held = run->timeline->segments;
      return std::any_of(held.begin(), held.end(),
                         [kind](const TimelineSegment& seg) { return seg.kind == kind; });
    });
    if (present) {
      legend.emplace_back(JobKindName(kind), KindColour(kind));
    }
  }
  if (std::any_of(panels.begin(), panels.end(),
                  [](const RunReport* run) { return !run->timeline->down.empty(); })) {
    legend.emplace_back("node down", kDownColour);
  }
  Legend(svg, left, 34, legend);
  const Scale x{static_cast<double>(t0), static_cast<double>(t1), left, right};
  for (std::size_t i = 0; i < panels.size(); ++i) {
    const RunReport& run = *panels[i];
    svg.Text(left, panel_tops[i] - 6, run.policy.name, "start", "title");
    svg.Text(left - 6, panel_tops[i] + row_height * 0.8, "GPU 0", "end", "tick");
    svg.Text(left - 6, panel_tops[i] + row_height * static_cast<double>(run.timeline->fleet_gpus),
             fmt::format("GPU {}", run.timeline->fleet_gpus - 1), "end", "tick");
    GridPanel(svg, run, x, panel_tops[i], row_height);
  }
  return page.Chart(svg, title);
}

std::string ScenarioSection(const ScenarioRuns& s, std::size_t index, Page& page) {
  std::string out = fmt::format("<section class=\"scenario\" id=\"scenario-{}\">\n<h2>{}</h2>\n",
                                index + 1, HtmlEscape(s.name));
  if (!s.description.empty()) {
    out += "<p class=\"description\">" + HtmlEscape(s.description) + "</p>\n";
  }
  const RunReport& first = *s.runs.front();
  out += fmt::format("<p class=\"meta\">{} GPUs · window {}–{} h · seed {}</p>\n",
                     first.metrics.fleet_gpus, Hours(first.metrics.window_start),
                     Hours(first.metrics.window_end), first.seed);
  out += SummaryTable(s, page);
  if (!HasTimelines(s)) {
    out +=
        "<p class=\"note\">These runs recorded no allocation timeline "
        "(RunOptions::record_timeline), so utilization over time and the GPU × time grid are "
        "not drawn.</p>\n";
    return out + "</section>\n";
  }
  out += UtilizationChart(s, page) + "\n";
  out += fmt::format("<details{}>\n<summary>GPU × time allocation: {} above, {} below</summary>\n",
                     index == 0 ? " open" : "", HtmlEscape(page.options.grid_policy),
                     HtmlEscape(page.options.baseline_policy));
  out += AllocationGrid(s, page);
  out += "\n</details>\n";
  return out + "</section>\n";
}

}  // namespace

std::string BenchHtml(const std::vector<RunReport>& reports, const HtmlReportOptions& options) {
  const std::vector<ScenarioRuns> scenarios = GroupByScenario(reports, options.baseline_policy);
  Page page{.options = options, .colours = PolicyColours(reports, options.baseline_policy)};
  std::string content = HeaderHtml(scenarios, page, reports.size());
  if (scenarios.empty()) {
    content += "<p class=\"note\">No runs.</p>\n";
  } else {
    content += NavHtml(scenarios);
    content += OverviewHtml(scenarios, page);
  }
  for (std::size_t i = 0; i < scenarios.size(); ++i) {
    content += ScenarioSection(scenarios[i], i, page);
  }
  return HtmlPage(options.title, content, page.charts, options.render_check);
}

}  // namespace fleetsim
