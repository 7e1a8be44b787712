// report.html of a sweep: per reported metric, lines over a numeric axis with confidence bars,
// heatmaps over two numeric axes, or bars per cell; then the table of the grid. And
// WriteSweepResults, which commits it with the other three result files.
#include "fleetsim/sweep/sweep_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "fleetsim/core/file_system.h"
#include "fleetsim/core/version.h"
#include "fleetsim/report/html_chart.h"
#include "fleetsim/report/output_sink.h"
#include "fleetsim/report/report_style.h"

namespace fleetsim {

namespace {

constexpr double kWidth = 960;
constexpr double kPlotLeft = 70;
constexpr double kPlotRight = 640;  // the legend sits to the right of the plot
constexpr double kPlotTop = 40;
constexpr double kPlotHeight = 220;
constexpr std::size_t kMaxBars = 40;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

std::optional<double> Number(const std::string& label) {
  double value = 0;
  const char* end = label.data() + label.size();
  const auto [ptr, ec] = std::from_chars(label.data(), end, value);
  if (label.empty() || ec != std::errc() || ptr != end || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::string Short(double v) { return fmt::format("{:.4g}", v); }

// The axes whose values are all numbers (where they apply) with at least two of them.
std::vector<std::size_t> NumericAxes(const SweepLayout& layout,
                                     const std::vector<SweepCell>& cells) {
  std::vector<std::size_t> numeric;
  for (std::size_t a = 0; a < layout.axes.size(); ++a) {
    std::set<double> values;
    bool all = true;
    for (const SweepCell& cell : cells) {
      const std::string& label = cell.first->labels[a];
      const std::optional<double> v = Number(label);
      all = all && (label.empty() || v);
      if (v) {
        values.insert(*v);
      }
    }
    if (all && values.size() >= 2) {
      numeric.push_back(a);
    }
  }
  return numeric;
}

// What tells cells apart in one chart: the axes whose labels vary among them (not counting
// `skip`), and whether the policy does.
struct Varying {
  bool policy = false;
  std::vector<std::size_t> axes{};
};

Varying VaryingAmong(const SweepLayout& layout, const std::vector<const SweepCell*>& cells,
                     const std::vector<std::size_t>& skip) {
  Varying v;
  for (const SweepCell* cell : cells) {
    v.policy = v.policy || cell->first->policy != cells.front()->first->policy;
  }
  for (std::size_t a = 0; a < layout.axes.size(); ++a) {
    const bool varies = std::any_of(cells.begin(), cells.end(), [&](const SweepCell* cell) {
      return cell->first->labels[a] != cells.front()->first->labels[a];
    });
    if (varies && std::find(skip.begin(), skip.end(), a) == skip.end()) {
      v.axes.push_back(a);
    }
  }
  return v;
}

// "policy · axis=value · ..." over what varies (the policy alone when nothing does).
std::string SeriesName(const SweepLayout& layout, const SweepCell& cell, const Varying& varying) {
  std::string name = varying.policy || varying.axes.empty() ? cell.first->policy : "";
  for (const std::size_t a : varying.axes) {
    if (!cell.first->labels[a].empty()) {
      name +=
          fmt::format("{}{}={}", name.empty() ? "" : " · ", layout.axes[a], cell.first->labels[a]);
    }
  }
  return name.empty() ? cell.first->policy : name;
}

// What all cells of a chart share: "policy · axis=value" over what does not vary.
std::string SharedName(const SweepLayout& layout, const std::vector<const SweepCell*>& cells,
                       const Varying& varying, const std::vector<std::size_t>& skip) {
  const SweepCell& first = *cells.front();
  std::string name = varying.policy ? "" : first.first->policy;
  for (std::size_t a = 0; a < layout.axes.size(); ++a) {
    const bool shown =
        std::find(varying.axes.begin(), varying.axes.end(), a) != varying.axes.end() ||
        std::find(skip.begin(), skip.end(), a) != skip.end();
    if (!shown && !first.first->labels[a].empty()) {
      name +=
          fmt::format("{}{}={}", name.empty() ? "" : " · ", layout.axes[a], first.first->labels[a]);
    }
  }
  return name;
}

// Tick labels: thousands grouped from 1,000 up, else four significant digits.
std::string TickText(double v) { return std::abs(v) >= 1000 ? Fixed(v, 0) : Short(v); }

struct Page {
  const SweepLayout& layout;
  const SweepReportOptions& options;
  int charts = 0;
  std::string Chart(const Svg& svg, const std::string& label) {
    return svg.Finish(++charts, label);
  }
};

// The cells of each scenario, in order of first appearance.
std::vector<std::pair<std::string, std::vector<const SweepCell*>>> ByScenario(
    const std::vector<SweepCell>& cells) {
  std::vector<std::pair<std::string, std::vector<const SweepCell*>>> groups;
  for (const SweepCell& cell : cells) {
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const auto& g) { return g.first == cell.first->scenario; });
    if (it == groups.end()) {
      groups.emplace_back(cell.first->scenario, std::vector<const SweepCell*>{});
      it = std::prev(groups.end());
    }
    it->second.push_back(&cell);
  }
  return groups;
}

// The value range a chart must show: every mean and confidence bound, and 0 for bars.
std::pair<double, double> Range(const std::vector<const SweepStats*>& stats, bool include_zero) {
  double lo = include_zero ? 0 : kInfinity;
  double hi = include_zero ? 0 : -kInfinity;
  for (const SweepStats* s : stats) {
    for (const auto& v : {s->mean, s->ci_low, s->ci_high}) {
      if (v) {
        lo = std::min(lo, *v);
        hi = std::max(hi, *v);
      }
    }
  }
  if (!std::isfinite(lo)) {
    return {0, 1};
  }
  if (hi - lo < 1e-12) {
    const double pad = std::max(std::abs(hi) * 0.05, 1e-9);
    return {lo - pad, hi + pad};
  }
  return {lo, hi};
}

void ValueAxis(Svg& svg, const Scale& y, double left, double right) {
  const double step = NiceStep(y.d1 - y.d0, 5);
  for (double v = std::ceil(y.d0 / step) * step; v <= y.d1 + step * 1e-9; v += step) {
    svg.Line(left, y(v), right, y(v), "grid");
    svg.Text(left - 6, y(v) + 4, TickText(v), "end", "tick");
  }
}

// A series of a line chart: its cells in x order.
struct Series {
  std::string name{};
  std::string policy{};
  std::vector<std::pair<double, const SweepStats*>> points{};
  const SweepStats* reference = nullptr;  // the cell has no value on the x axis
};

std::string LineChart(Page& page, const std::string& scenario,
                      const std::vector<const SweepCell*>& cells, std::size_t metric,
                      std::size_t x_axis) {
  const SweepLayout& layout = page.layout;
  const Varying varying = VaryingAmong(layout, cells, {x_axis});
  std::vector<Series> series;
  for (const SweepCell* cell : cells) {
    const std::string name = SeriesName(layout, *cell, varying);
    auto it =
        std::find_if(series.begin(), series.end(), [&](const Series& s) { return s.name == name; });
    if (it == series.end()) {
      series.push_back({.name = name, .policy = cell->first->policy});
      it = std::prev(series.end());
    }
    const std::optional<double> x = Number(cell->first->labels[x_axis]);
    if (x) {
      it->points.emplace_back(*x, &cell->metrics[metric]);
    } else {
      it->reference = &cell->metrics[metric];
    }
  }
  const std::size_t total = series.size();
  series.resize(std::min(series.size(), page.options.max_series));
  std::vector<const SweepStats*> all;
  double x0 = kInfinity;
  double x1 = -kInfinity;
  for (Series& s : series) {
    std::sort(s.points.begin(), s.points.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [x, stats] : s.points) {
      x0 = std::min(x0, x);
      x1 = std::max(x1, x);
      all.push_back(stats);
    }
    if (s.reference != nullptr) {
      all.push_back(s.reference);
    }
  }
  const std::string& metric_name = SweepMetricNames()[metric];
  const double legend_height = 16.0 * static_cast<double>(series.size()) + 50;
  Svg svg(kWidth, std::max(kPlotTop + kPlotHeight + 44, legend_height));
  const std::string shared = SharedName(layout, cells, varying, {x_axis});
  const std::string title = fmt::format("{} · {} over {}{}", scenario, metric_name,
                                        layout.axes[x_axis], shared.empty() ? "" : " · " + shared);
  svg.Text(kPlotLeft, 18, title, "start", "title");
  const auto [lo, hi] = Range(all, false);
  const Scale y{lo, hi, kPlotTop + kPlotHeight, kPlotTop};
  const Scale x{x0, x1, kPlotLeft + 10, kPlotRight - 10};
  ValueAxis(svg, y, kPlotLeft, kPlotRight);
  std::set<double> ticks;
  for (const Series& s : series) {
    for (const auto& point : s.points) {
      ticks.insert(point.first);
    }
  }
  for (const double t : ticks) {
    svg.Text(x(t), kPlotTop + kPlotHeight + 16, TickText(t), "middle", "tick");
  }
  svg.Text((kPlotLeft + kPlotRight) / 2, kPlotTop + kPlotHeight + 34, layout.axes[x_axis],
           "middle");
  svg.Line(kPlotLeft, kPlotTop + kPlotHeight, kPlotRight, kPlotTop + kPlotHeight, "axis");
  for (std::size_t i = 0; i < series.size(); ++i) {
    const Series& s = series[i];
    // A policy keeps its colour on every page; its series under other settings (axis values)
    // differ in dash and marker.
    const auto variant = static_cast<std::size_t>(
        std::count_if(series.begin(), series.begin() + static_cast<std::ptrdiff_t>(i),
                      [&](const Series& other) { return other.policy == s.policy; }));
    const SeriesStyle style = VariantStyle(s.policy, variant);
    if (s.reference != nullptr && s.reference->mean) {
      const double py = y(*s.reference->mean);
      svg.Path(fmt::format("M{} {}H{}", Coord(kPlotLeft), Coord(py), Coord(kPlotRight)),
               style.colour, "series baseline",
               fmt::format("{}: {}", s.name, Short(*s.reference->mean)));
    }
    std::vector<std::pair<double, double>> points;
    for (const auto& [px, stats] : s.points) {
      if (!stats->mean) {
        continue;
      }
      points.emplace_back(x(px), y(*stats->mean));
      if (stats->ci_low && stats->ci_high) {
        svg.Line(x(px), y(*stats->ci_low), x(px), y(*stats->ci_high), "whisker");
      }
    }
    DrawSeries(svg, points, style, s.name, 1);
    const double ly = kPlotTop + 16.0 * static_cast<double>(i);
    svg.Path(
        fmt::format("M{} {}H{}", Coord(kPlotRight + 12), Coord(ly - 3), Coord(kPlotRight + 30)),
        style.colour, "series", s.name, style.dash);
    DrawMarker(svg, kPlotRight + 21, ly - 3, style, s.name);
    svg.Text(kPlotRight + 36, ly + 1, s.name);
  }
  std::string out = page.Chart(svg, title);
  if (total > series.size()) {
    out += fmt::format(
        "<p class=\"note\">{} series; the first {} are drawn (summary.csv has "
        "them all).</p>\n",
        total, series.size());
  }
  return out;
}

// A light-to-dark blue for a share in [0, 1].
std::string Blue(double share) {
  const auto mix = [share](int light, int dark) {
    return static_cast<int>(std::lround(light + (dark - light) * std::clamp(share, 0.0, 1.0)));
  };
  return fmt::format("#{:02x}{:02x}{:02x}", mix(0xf2, 0x08), mix(0xf7, 0x30), mix(0xfd, 0x6b));
}

std::string Heatmap(Page& page, const std::string& name, const std::vector<const SweepCell*>& cells,
                    std::size_t metric, std::size_t x_axis, std::size_t y_axis) {
  std::set<double> xs;
  std::set<double> ys;
  std::map<std::pair<double, double>, const SweepStats*> at;
  for (const SweepCell* cell : cells) {
    const auto x = Number(cell->first->labels[x_axis]);
    const auto y = Number(cell->first->labels[y_axis]);
    if (x && y) {
      xs.insert(*x);
      ys.insert(*y);
      at[{*x, *y}] = &cell->metrics[metric];
    }
  }
  std::vector<const SweepStats*> all;
  for (const auto& entry : at) {
    all.push_back(entry.second);
  }
  const auto [lo, hi] = Range(all, false);
  const double cell_w = std::min(80.0, (kPlotRight - kPlotLeft) / static_cast<double>(xs.size()));
  const double cell_h = std::min(36.0, 260.0 / static_cast<double>(ys.size()));
  const double height = kPlotTop + cell_h * static_cast<double>(ys.size()) + 44;
  Svg svg(kWidth, height);
  const std::string& metric_name = SweepMetricNames()[metric];
  const std::string title = fmt::format("{} · {} by {} and {}", name, metric_name,
                                        page.layout.axes[x_axis], page.layout.axes[y_axis]);
  svg.Text(kPlotLeft, 18, title, "start", "title");
  std::size_t col = 0;
  for (const double x : xs) {
    const double px = kPlotLeft + cell_w * static_cast<double>(col++);
    svg.Text(px + cell_w / 2, height - 24, Short(x), "middle", "tick");
    std::size_t row = 0;
    for (auto it = ys.rbegin(); it != ys.rend(); ++it, ++row) {
      const double py = kPlotTop + cell_h * static_cast<double>(row);
      const auto found = at.find({x, *it});
      const SweepStats* stats = found == at.end() ? nullptr : found->second;
      if (stats == nullptr || !stats->mean) {
        svg.Rect(px, py, cell_w - 2, cell_h - 2, "#e8e8e8",
                 fmt::format("{}={}, {}={}: no value", page.layout.axes[x_axis], Short(x),
                             page.layout.axes[y_axis], Short(*it)));
        continue;
      }
      const double share = (*stats->mean - lo) / (hi - lo);
      svg.Rect(px, py, cell_w - 2, cell_h - 2, Blue(share),
               fmt::format("{}={}, {}={}: {} (n={})", page.layout.axes[x_axis], Short(x),
                           page.layout.axes[y_axis], Short(*it), Short(*stats->mean), stats->n));
      svg.Text(px + cell_w / 2 - 1, py + cell_h / 2 + 3, Short(*stats->mean), "middle",
               share > 0.55 ? "on-dark" : "");
    }
  }
  std::size_t row = 0;
  for (auto it = ys.rbegin(); it != ys.rend(); ++it, ++row) {
    svg.Text(kPlotLeft - 6, kPlotTop + cell_h * (static_cast<double>(row) + 0.5) + 3, Short(*it),
             "end", "tick");
  }
  svg.Text(kPlotLeft + cell_w * static_cast<double>(xs.size()) / 2, height - 8,
           page.layout.axes[x_axis], "middle");
  svg.Text(kPlotLeft - 44, kPlotTop - 8, page.layout.axes[y_axis], "start");
  return page.Chart(svg, title);
}

std::string BarChart(Page& page, const std::string& scenario,
                     const std::vector<const SweepCell*>& cells, std::size_t metric) {
  const std::size_t bars = std::min(cells.size(), kMaxBars);
  std::vector<const SweepStats*> all;
  for (std::size_t i = 0; i < bars; ++i) {
    all.push_back(&cells[i]->metrics[metric]);
  }
  const auto [lo, hi] = Range(all, true);
  const Varying varying = VaryingAmong(page.layout, cells, {});
  const double row = 20;
  const double left = 300;
  Svg svg(kWidth, kPlotTop + row * static_cast<double>(bars) + 30);
  const std::string& metric_name = SweepMetricNames()[metric];
  const std::string title = fmt::format("{} · {}", scenario, metric_name);
  svg.Text(kPlotLeft, 18, title, "start", "title");
  const Scale x{lo, hi, left, kWidth - 40};
  svg.Line(x(0), kPlotTop - 4, x(0), kPlotTop + row * static_cast<double>(bars), "zero");
  for (std::size_t i = 0; i < bars; ++i) {
    const SweepStats& s = *all[i];
    const double py = kPlotTop + row * static_cast<double>(i);
    svg.Text(left - 8, py + 13, SeriesName(page.layout, *cells[i], varying), "end");
    if (!s.mean) {
      continue;
    }
    svg.Rect(std::min(x(0), x(*s.mean)), py + 3, std::abs(x(*s.mean) - x(0)), row - 6,
             PolicyStyle(cells[i]->first->policy).colour,
             fmt::format("{} (n={})", Short(*s.mean), s.n));
    if (s.ci_low && s.ci_high) {
      svg.Line(x(*s.ci_low), py + row / 2, x(*s.ci_high), py + row / 2, "whisker");
    }
  }
  std::string out = page.Chart(svg, title);
  if (cells.size() > bars) {
    out += fmt::format("<p class=\"note\">{} cells; the first {} are drawn.</p>\n", cells.size(),
                       bars);
  }
  return out;
}

std::string MetricSection(Page& page, const std::vector<SweepCell>& cells, std::size_t metric) {
  const std::string& name = SweepMetricNames()[metric];
  std::string out = fmt::format("<section class=\"metric\" id=\"metric-{}\">\n<h2>{}</h2>\n",
                                HtmlEscape(name), HtmlEscape(name));
  const std::vector<std::size_t> numeric = NumericAxes(page.layout, cells);
  std::size_t drawn = 0;
  const auto scenarios = ByScenario(cells);
  for (const auto& [scenario, scenario_cells] : scenarios) {
    if (drawn++ == page.options.max_charts) {
      out += "<p class=\"note\">More scenarios than charts drawn per metric.</p>\n";
      break;
    }
    out += numeric.empty() ? BarChart(page, scenario, scenario_cells, metric)
                           : LineChart(page, scenario, scenario_cells, metric, numeric[0]);
  }
  if (numeric.size() < 2) {
    return out + "</section>\n";
  }
  // Heatmaps: one per combination of everything but the two axes drawn.
  std::vector<const SweepCell*> all_cells;
  for (const SweepCell& cell : cells) {
    all_cells.push_back(&cell);
  }
  const Varying heatmap_varying = VaryingAmong(page.layout, all_cells, {numeric[0], numeric[1]});
  std::vector<std::pair<std::string, std::vector<const SweepCell*>>> maps;
  for (const SweepCell& cell : cells) {
    if (cell.first->labels[numeric[0]].empty() || cell.first->labels[numeric[1]].empty()) {
      continue;
    }
    const std::string key =
        cell.first->scenario + " · " + SeriesName(page.layout, cell, heatmap_varying);
    auto it = std::find_if(maps.begin(), maps.end(), [&](const auto& m) { return m.first == key; });
    if (it == maps.end()) {
      maps.emplace_back(key, std::vector<const SweepCell*>{});
      it = std::prev(maps.end());
    }
    it->second.push_back(&cell);
  }
  out += "<details>\n<summary>Heatmaps</summary>\n";
  for (std::size_t i = 0; i < maps.size() && i < page.options.max_charts; ++i) {
    out += Heatmap(page, maps[i].first, maps[i].second, metric, numeric[0], numeric[1]);
  }
  if (maps.size() > page.options.max_charts) {
    out += fmt::format("<p class=\"note\">{} heatmaps; the first {} are drawn.</p>\n", maps.size(),
                       page.options.max_charts);
  }
  return out + "</details>\n</section>\n";
}

std::string StatsText(const SweepStats& s) {
  if (!s.mean) {
    return "";
  }
  if (!s.ci_high) {
    return Short(*s.mean);
  }
  return fmt::format("{} ± {}", Short(*s.mean), Short(*s.ci_high - *s.mean));
}

std::string GridTable(const Page& page, const std::vector<SweepCell>& cells,
                      const std::vector<std::size_t>& metrics) {
  std::string out = "<section id=\"grid\">\n<h2>The grid</h2>\n";
  out += "<p class=\"meta\">Per cell: mean over its runs ± half the 95 % confidence interval";
  if (!page.layout.baseline_policy.empty()) {
    out += fmt::format("; Δ: the paired difference against {} on the same seeds",
                       HtmlEscape(page.layout.baseline_policy));
  }
  out +=
      ".</p>\n<div class=\"scroll\"><table "
      "class=\"summary\">\n<thead><tr><th>scenario</th><th>policy</th>";
  for (const std::string& axis : page.layout.axes) {
    out += "<th>" + HtmlEscape(axis) + "</th>";
  }
  out += "<th>runs</th><th>failed</th>";
  for (const std::size_t m : metrics) {
    out += fmt::format("<th>{}</th><th>Δ</th>", HtmlEscape(SweepMetricNames()[m]));
  }
  out += "</tr></thead>\n<tbody>\n";
  const std::size_t rows = std::min(cells.size(), page.options.max_table_rows);
  for (std::size_t i = 0; i < rows; ++i) {
    const SweepCell& cell = cells[i];
    out += fmt::format("<tr><td>{}</td><td>{}</td>", HtmlEscape(cell.first->scenario),
                       HtmlEscape(cell.first->policy));
    for (const std::string& label : cell.first->labels) {
      out += "<td>" + HtmlEscape(label) + "</td>";
    }
    out += fmt::format("<td>{}</td><td>{}</td>", cell.points.size(), cell.failed);
    for (const std::size_t m : metrics) {
      out += fmt::format("<td>{}</td><td>{}</td>", StatsText(cell.metrics[m]),
                         cell.paired ? StatsText(cell.differences[m]) : "");
    }
    out += "</tr>\n";
  }
  out += "</tbody></table></div>\n";
  if (cells.size() > rows) {
    out += fmt::format(
        "<p class=\"note\">{} cells; the first {} are listed (summary.csv has "
        "them all).</p>\n",
        cells.size(), rows);
  }
  return out + "</section>\n";
}

std::string Header(const SweepLayout& layout, const SweepRecords& records) {
  const std::vector<std::size_t> failed = FailedRuns(layout, records);
  std::string out = fmt::format(
      "<header>\n<h1>Sweep {}</h1>\n<p class=\"meta\">fleetsim {} · {} runs · {} failed{}</p>\n",
      HtmlEscape(layout.name), HtmlEscape(kVersion), layout.points.size(), failed.size(),
      layout.baseline_policy.empty() ? std::string()
                                     : " · baseline policy " + HtmlEscape(layout.baseline_policy));
  out +=
      "<p class=\"description\">Each point of a chart is a cell of the grid (every axis but the "
      "seed): the mean of its runs, with a bar for the 95 % confidence interval of that mean "
      "(Student's t over the seeds). Dashed lines are cells that have no value on the chart's "
      "axis (a parameter their policy does not have). Metrics are defined in docs/metrics.md; "
      "results.csv and summary.csv hold every number.</p>\n";
  return out + "</header>\n";
}

}  // namespace

std::string SweepHtml(const SweepLayout& layout, const SweepRecords& records,
                      const std::vector<SweepCell>& cells, const SweepReportOptions& options) {
  Page page{.layout = layout, .options = options};
  std::vector<std::size_t> metrics;
  for (const std::string& name : layout.report_metrics) {
    const auto& names = SweepMetricNames();
    const auto it = std::find(names.begin(), names.end(), name);
    if (it != names.end()) {
      metrics.push_back(static_cast<std::size_t>(it - names.begin()));
    }
  }
  std::string content = Header(layout, records);
  for (const std::size_t m : metrics) {
    content += MetricSection(page, cells, m);
  }
  content += GridTable(page, cells, metrics);
  return HtmlPage("fleetsim sweep " + layout.name, content, page.charts, options.render_check);
}

Status WriteSweepResults(const std::string& dir, const SweepLayout& layout,
                         const SweepRecords& records) {
  DirectorySink sink(DiskFileSystem(), dir);
  sink.Stage("results.csv", ResultsCsv(layout, records));
  sink.Stage("results.json", ResultsJson(layout, records));
  const std::vector<SweepCell> cells = SummarizeCells(layout, records);
  sink.Stage("summary.csv", SummaryCsv(layout, cells));
  sink.Stage("report.html", SweepHtml(layout, records, cells, {}));
  return sink.Commit();
}

}  // namespace fleetsim
