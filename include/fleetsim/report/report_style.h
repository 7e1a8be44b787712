// How fleetsim's HTML reports draw policies and job kinds, the same on every page (the benchmark
// report, `run --html`, the sweep report): each policy has one colour, dash pattern and marker,
// chosen by its name alone, so a policy looks the same in every report whatever else the page
// shows; job kinds (the allocation grid's bars) are pale colours far from every policy colour
// (CIE76 ΔE >= 30, tested), so a bar is never read as a policy. Markers and dashes differ between
// policies, so two policies whose lines coincide both stay visible (the markers of each policy
// sit at its own offsets along the line). Pure functions.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fleetsim/report/html_chart.h"
#include "fleetsim/workload/job.h"

namespace fleetsim {

enum class MarkerShape { kNone, kCircle, kSquare, kTriangle, kDiamond, kCross };

struct SeriesStyle {
  std::string_view colour;
  std::string_view dash;  // an SVG stroke-dasharray; empty for a solid line
  MarkerShape marker = MarkerShape::kNone;
  int slot = 0;  // where along a line its markers sit, so coinciding lines show every marker
};

// The built-in policies have fixed styles (constraint-aware vermilion and solid, fifo grey and
// dashed, ...); any other name gets one from a hash of the name: stable across reports and runs.
SeriesStyle PolicyStyle(std::string_view policy);

// Every colour PolicyStyle can return (for tests).
std::span<const std::string_view> PolicyColours();

// The policy's colour, and for variant > 0 another dash and marker: the lines of one policy
// under several settings (a sweep's axis values) keep the policy's colour and differ in style.
SeriesStyle VariantStyle(std::string_view policy, std::size_t variant);

// The grid colour of a job kind; pale, distinct from every policy colour.
std::string_view JobKindColour(JobKind kind);
std::span<const std::string_view> JobKindColours();

// A marker of `style` at (x, y), as one SVG path (no shape for kNone).
void DrawMarker(Svg& svg, double x, double y, const SeriesStyle& style, const std::string& title);

// A line through `points` (pixel coordinates) in the policy's style, with a marker at every
// `marker_every`-th point, starting at a point set by the style's slot.
void DrawSeries(Svg& svg, const std::vector<std::pair<double, double>>& points,
                const SeriesStyle& style, const std::string& title, std::size_t marker_every);

// One legend row of line samples (dash and marker) with policy names, from (x, y); returns the x
// after it.
double SeriesLegend(Svg& svg, double x, double y, const std::vector<std::string>& policies);

}  // namespace fleetsim
