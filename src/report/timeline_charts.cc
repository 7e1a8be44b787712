// Utilization over time and the GPU x time allocation grid, as inline SVG.
#include "fleetsim/report/timeline_charts.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

#include "fleetsim/report/report_style.h"

namespace fleetsim {

namespace {

constexpr double kMillisPerHour = 3'600'000.0;
constexpr std::string_view kDownColour = "#4a4a4a";
constexpr std::string_view kStripColour = "#4477aa";
constexpr double kGridLeft = 150;  // room for pool names
constexpr double kStripHeight = 26;

constexpr std::array<JobKind, 7> kAllKinds = {JobKind::kUnspecified,       JobKind::kPretraining,
                                              JobKind::kFineTuning,        JobKind::kBatchInference,
                                              JobKind::kRealtimeInference, JobKind::kQuantization,
                                              JobKind::kInteractive};

// A tick step in hours for a time axis: 1, 2, 3, 6, 12, 24, 48... giving at most 12 ticks.
double HourStep(double hours) {
  for (const double step : {1.0, 2.0, 3.0, 6.0, 12.0, 24.0, 48.0, 168.0}) {
    if (hours / step <= 12) {
      return step;
    }
  }
  return NiceStep(hours, 12);
}

// The job's id from the run's job log, or its index.
std::string JobLabel(const RunReport& run, JobIndex job) {
  return job < run.jobs.size() ? run.jobs[job].id : fmt::format("job #{}", job);
}

// Characters (not bytes) of UTF-8 text.
std::size_t Characters(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

// "pool · model" when it fits the grid's left margin, else the pool's name, cut to fit.
std::string BandLabel(const GpuBand& band) {
  constexpr std::size_t kMax = 22;
  const std::string both = band.model.empty() ? band.pool : band.pool + " · " + band.model;
  if (Characters(both) <= kMax) {
    return both;
  }
  if (Characters(band.pool) <= kMax) {
    return band.pool;
  }
  std::size_t cut = 0;
  for (std::size_t kept = 0; cut < band.pool.size(); ++cut) {
    const bool starts_character = (static_cast<unsigned char>(band.pool[cut]) & 0xC0) != 0x80;
    if (starts_character && ++kept == kMax) {
      break;  // room for the ellipsis
    }
  }
  return band.pool.substr(0, cut) + "…";
}

// Bands of the pools, each with a shaded label column and a separator line above it.
void PoolBands(Svg& svg, const AllocationTimelineData& t, const Scale& x, double top,
               double row_height) {
  for (std::size_t i = 0; i < t.bands.size(); ++i) {
    const GpuBand& band = t.bands[i];
    const double y0 = top + row_height * static_cast<double>(band.first_gpu);
    const double height = row_height * static_cast<double>(band.end_gpu - band.first_gpu);
    svg.Rect(8, y0, kGridLeft - 12, height, i % 2 == 0 ? "#ececec" : "#f7f7f7",
             fmt::format("pool {} · {} · GPUs {}–{}", band.pool, band.model, band.first_gpu,
                         band.end_gpu - 1));
    if (height >= 10) {
      svg.Text(12, y0 + std::min(height / 2 + 4, 13.0), BandLabel(band), "start", "tick");
    }
    if (i > 0) {
      svg.Line(8, y0, x.p1, y0, "band");
    }
  }
}

// One panel of GPU rows from y = top.
void GpuRowsPanel(Svg& svg, const RunReport& run, const Scale& x, double top, double row_height) {
  const AllocationTimelineData& t = *run.timeline;
  const double bottom = top + row_height * static_cast<double>(t.fleet_gpus);
  svg.Rect(x.p0, top, x.p1 - x.p0, bottom - top, "#f4f4f4");
  TimeAxis(svg, x, top, bottom, true);
  PoolBands(svg, t, x, top, row_height);
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
    const std::string_view colour = JobKindColour(seg.kind);
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

// The timeline's pool bands, or one band for the whole fleet when it has none.
std::vector<GpuBand> BandsOf(const AllocationTimelineData& t) {
  if (!t.bands.empty()) {
    return t.bands;
  }
  return {GpuBand{
      .pool = "fleet", .model = "", .first_gpu = 0, .end_gpu = static_cast<GpuId>(t.fleet_gpus)}};
}

// One panel of pool strips from y = top: per pool, the share of its GPUs held over time, over
// `limits.strip_buckets` slices of the run's own window.
void PoolStripsPanel(Svg& svg, const RunReport& run, const Scale& x, double top,
                     const GridLimits& limits) {
  const AllocationTimelineData& t = *run.timeline;
  const std::vector<GpuBand> bands = BandsOf(t);
  const double bottom = top + kStripHeight * static_cast<double>(bands.size());
  svg.Rect(x.p0, top, x.p1 - x.p0, bottom - top, "#f4f4f4");
  TimeAxis(svg, x, top, bottom, true);
  const auto window = static_cast<double>(t.window_end - t.window_start);
  const auto buckets = static_cast<double>(limits.strip_buckets);
  for (std::size_t i = 0; i < bands.size(); ++i) {
    const GpuBand& band = bands[i];
    const double y0 = top + kStripHeight * static_cast<double>(i);
    const auto gpus = static_cast<double>(band.end_gpu - band.first_gpu);
    svg.Rect(8, y0, kGridLeft - 12, kStripHeight, i % 2 == 0 ? "#ececec" : "#f7f7f7",
             fmt::format("pool {} · {} · {} GPUs", band.pool, band.model, gpus));
    svg.Text(12, y0 + 17, BandLabel(band), "start", "tick");
    if (i > 0) {
      svg.Line(8, y0, x.p1, y0, "band");
    }
    const std::vector<double> held =
        HeldSeries(t, band.first_gpu, band.end_gpu, limits.strip_buckets);
    std::string d = fmt::format("M{} {}", Coord(x(static_cast<double>(t.window_start))),
                                Coord(y0 + kStripHeight));
    for (std::size_t b = 0; b < held.size(); ++b) {
      const double share = gpus > 0 ? std::clamp(held[b] / gpus, 0.0, 1.0) : 0;
      const double end =
          static_cast<double>(t.window_start) + window * static_cast<double>(b + 1) / buckets;
      d += fmt::format("V{}H{}", Coord(y0 + kStripHeight - share * (kStripHeight - 2)),
                       Coord(x(end)));
    }
    d += fmt::format("V{}Z", Coord(y0 + kStripHeight));
    svg.Path(d, kStripColour, "strip",
             fmt::format("{}: share of its {} GPUs held over time", band.pool, gpus));
  }
}

// The time range [start, end] shared by the runs' timelines ({0, 0} when none has one).
std::pair<SimTime, SimTime> TimelineRange(const std::vector<const RunReport*>& runs) {
  SimTime start = kTimeNever;
  SimTime end = 0;
  for (const RunReport* run : runs) {
    if (run->timeline) {
      start = std::min(start, run->timeline->window_start);
      end = std::max(end, run->timeline->window_end);
    }
  }
  return {start == kTimeNever ? 0 : start, std::max(end, start == kTimeNever ? 0 : start)};
}

std::size_t Segments(const std::vector<const RunReport*>& panels) {
  std::size_t segments = 0;
  for (const RunReport* run : panels) {
    segments += run->timeline->segments.size();
  }
  return segments;
}

double PanelHeight(const RunReport& run, bool strips, double row_height) {
  const AllocationTimelineData& t = *run.timeline;
  return strips ? kStripHeight * static_cast<double>(BandsOf(t).size())
                : row_height * static_cast<double>(t.fleet_gpus);
}

void KindLegend(Svg& svg, const std::vector<const RunReport*>& panels, bool strips) {
  std::vector<std::pair<std::string, std::string_view>> legend;
  if (strips) {
    legend.emplace_back("share of the pool's GPUs held", kStripColour);
  } else {
    for (const JobKind kind : kAllKinds) {
      const bool present = std::any_of(panels.begin(), panels.end(), [kind](const RunReport* run) {
        const std::vector<TimelineSegment>& held = run->timeline->segments;
        return std::any_of(held.begin(), held.end(),
                           [kind](const TimelineSegment& seg) { return seg.kind == kind; });
      });
      if (present) {
        legend.emplace_back(JobKindName(kind), JobKindColour(kind));
      }
    }
    if (std::any_of(panels.begin(), panels.end(),
                    [](const RunReport* run) { return !run->timeline->down.empty(); })) {
      legend.emplace_back("node down", kDownColour);
    }
  }
  Legend(svg, kGridLeft, 34, legend);
}

// Whether the grid draws pool strips rather than GPU rows.
bool GridUsesPoolStrips(const std::vector<const RunReport*>& panels, const GridLimits& limits) {
  return std::any_of(panels.begin(), panels.end(),
                     [&](const RunReport* run) {
                       return run->timeline->fleet_gpus > limits.max_gpu_rows;
                     }) ||
         Segments(panels) > static_cast<std::size_t>(limits.max_segments);
}

}  // namespace

std::string Hours(SimTime t) {
  return fmt::format("{:g}", static_cast<double>(t) / kMillisPerHour);
}

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

Svg UtilizationOverTime(const std::vector<const RunReport*>& runs, const std::string& title,
                        const std::string& baseline, std::int64_t buckets) {
  const auto [t0, t1] = TimelineRange(runs);
  const double left = 56;
  const double right = kChartWidth - 12;
  const double top = 46;
  const double bottom = 236;
  Svg svg(kChartWidth, 262);
  svg.Text(left, 16, title, "start", "title");
  // The baseline last, dashed, so that it shows where other lines run along it.
  std::vector<const RunReport*> drawn;
  for (const RunReport* run : runs) {
    if (run->timeline && run->policy.name != baseline) {
      drawn.push_back(run);
    }
  }
  for (const RunReport* run : runs) {
    if (run->timeline && run->policy.name == baseline) {
      drawn.push_back(run);
    }
  }
  std::vector<std::string> legend;
  for (const RunReport* run : drawn) {
    legend.push_back(run->policy.name);
  }
  SeriesLegend(svg, left, 34, legend);
  const Scale x{static_cast<double>(t0), static_cast<double>(t1), left, right};
  const Scale y{0, 1, bottom, top};
  TimeAxis(svg, x, top, bottom, true);
  for (int pct = 0; pct <= 100; pct += 25) {
    svg.Line(left, y(pct / 100.0), right, y(pct / 100.0), "grid");
    svg.Text(left - 6, y(pct / 100.0) + 4, fmt::format("{} %", pct), "end", "tick");
  }
  svg.Line(left, bottom, right, bottom, "axis");
  for (const RunReport* run : drawn) {
    std::vector<std::pair<double, double>> points;
    for (const UtilizationBucket& b : UtilizationSeries(*run->timeline, buckets)) {
      const double mid = (static_cast<double>(b.start) + static_cast<double>(b.end)) / 2;
      points.emplace_back(x(mid), y(std::clamp(b.utilization, 0.0, 1.0)));
    }
    DrawSeries(svg, points, PolicyStyle(run->policy.name),
               fmt::format("{}: {} % over the window", run->policy.name,
                           Fixed(run->accounting.utilization * 100, 1)),
               std::max<std::size_t>(points.size() / 8, 1));
  }
  return svg;
}

Svg AllocationGrid(const std::vector<const RunReport*>& panels, const std::string& title,
                   const GridLimits& limits) {
  const bool strips = GridUsesPoolStrips(panels, limits);
  const auto [t0, t1] = TimelineRange(panels);
  const double right = kChartWidth - 12;
  const std::int64_t gpus = panels.empty() ? 1 : panels.front()->timeline->fleet_gpus;
  const double row_height =
      std::clamp(288.0 / static_cast<double>(std::max<std::int64_t>(gpus, 1)), 1.0, 20.0);
  double y = 46;
  std::vector<double> panel_tops;
  for (const RunReport* run : panels) {
    panel_tops.push_back(y + 18);
    y += 18 + PanelHeight(*run, strips, row_height) + 30;
  }
  Svg svg(kChartWidth, y);
  svg.Text(kGridLeft, 16, title, "start", "title");
  KindLegend(svg, panels, strips);
  const Scale x{static_cast<double>(t0), static_cast<double>(t1), kGridLeft, right};
  for (std::size_t i = 0; i < panels.size(); ++i) {
    const RunReport& run = *panels[i];
    svg.Text(kGridLeft, panel_tops[i] - 6, run.policy.name, "start", "title");
    if (strips) {
      PoolStripsPanel(svg, run, x, panel_tops[i], limits);
    } else {
      GpuRowsPanel(svg, run, x, panel_tops[i], row_height);
    }
  }
  return svg;
}

}  // namespace fleetsim
