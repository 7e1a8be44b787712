// Policy and job-kind styles shared by the HTML reports.
#include "fleetsim/report/report_style.h"

#include <fmt/format.h>

#include <array>
#include <cstdint>

namespace fleetsim {

namespace {

struct NamedStyle {
  std::string_view policy;
  SeriesStyle style;
};

// Paul Tol's dark "muted/high-contrast" tones for policies; the baseline (fifo) is grey, dashed.
constexpr std::array<NamedStyle, 5> kBuiltinStyles = {{
    {"constraint-aware", {"#cc3311", "", MarkerShape::kCircle, 0}},
    {"fifo", {"#666666", "6 4", MarkerShape::kCross, 1}},
    {"backfill", {"#004488", "2 3", MarkerShape::kSquare, 2}},
    {"fair-share", {"#117733", "9 3 2 3", MarkerShape::kTriangle, 3}},
    {"first-fit", {"#882255", "12 4", MarkerShape::kDiamond, 4}},
}};

// For other policies, by a hash of the name.
constexpr std::array<std::string_view, 4> kOtherColours = {"#997700", "#332288", "#000000",
                                                           "#aa4499"};
constexpr std::array<std::string_view, 3> kOtherDashes = {"", "4 2", "1 2"};
constexpr std::array<MarkerShape, 5> kOtherMarkers = {MarkerShape::kCircle, MarkerShape::kSquare,
                                                      MarkerShape::kTriangle, MarkerShape::kDiamond,
                                                      MarkerShape::kCross};
constexpr int kSlots = 6;

// Every colour PolicyStyle returns: the built-in ones, then the others'.
constexpr std::array<std::string_view, kBuiltinStyles.size() + kOtherColours.size()>
AllPolicyColours() {
  std::array<std::string_view, kBuiltinStyles.size() + kOtherColours.size()> all{};
  for (std::size_t i = 0; i < kBuiltinStyles.size(); ++i) {
    all[i] = kBuiltinStyles[i].style.colour;
  }
  for (std::size_t i = 0; i < kOtherColours.size(); ++i) {
    all[kBuiltinStyles.size() + i] = kOtherColours[i];
  }
  return all;
}
constexpr auto kAllPolicyColours = AllPolicyColours();

// Paul Tol's "light" scheme, indexed by JobKind.
constexpr std::array<std::string_view, 7> kKindColours = {
    "#dddddd",  // unspecified
    "#77aadd",  // pretraining
    "#99ddff",  // fine-tuning
    "#eedd88",  // batch-inference
    "#ee8866",  // realtime-inference
    "#bbcc33",  // quantization
    "#ffaabb",  // interactive
};

std::uint64_t Fnv1a(std::string_view text) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (const char c : text) {
    hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  }
  return hash;
}

std::string MarkerPath(MarkerShape shape, double x, double y) {
  const double r = 3.5;
  switch (shape) {
    case MarkerShape::kCircle:
      return fmt::format("M{} {}a{} {} 0 1 0 {} 0a{} {} 0 1 0 {} 0Z", Coord(x - r), Coord(y),
                         Coord(r), Coord(r), Coord(2 * r), Coord(r), Coord(r), Coord(-2 * r));
    case MarkerShape::kSquare:
      return fmt::format("M{} {}h{}v{}h{}Z", Coord(x - r), Coord(y - r), Coord(2 * r), Coord(2 * r),
                         Coord(-2 * r));
    case MarkerShape::kTriangle:
      return fmt::format("M{} {}L{} {}L{} {}Z", Coord(x), Coord(y - r - 0.5), Coord(x + r + 0.5),
                         Coord(y + r), Coord(x - r - 0.5), Coord(y + r));
    case MarkerShape::kDiamond:
      return fmt::format("M{} {}L{} {}L{} {}L{} {}Z", Coord(x), Coord(y - r - 1), Coord(x + r + 1),
                         Coord(y), Coord(x), Coord(y + r + 1), Coord(x - r - 1), Coord(y));
    case MarkerShape::kCross:
      return fmt::format("M{} {}L{} {}M{} {}L{} {}", Coord(x - r), Coord(y - r), Coord(x + r),
                         Coord(y + r), Coord(x - r), Coord(y + r), Coord(x + r), Coord(y - r));
    case MarkerShape::kNone:
      break;
  }
  return "";
}

}  // namespace

SeriesStyle PolicyStyle(std::string_view policy) {
  for (const NamedStyle& named : kBuiltinStyles) {
    if (named.policy == policy) {
      return named.style;
    }
  }
  const std::uint64_t hash = Fnv1a(policy);
  return SeriesStyle{
      .colour = kOtherColours[hash % kOtherColours.size()],
      .dash = kOtherDashes[(hash / kOtherColours.size()) % kOtherDashes.size()],
      .marker = kOtherMarkers[(hash / 16) % kOtherMarkers.size()],
      .slot = static_cast<int>((hash / 128) % kSlots),
  };
}

std::span<const std::string_view> PolicyColours() { return kAllPolicyColours; }

SeriesStyle VariantStyle(std::string_view policy, std::size_t variant) {
  SeriesStyle style = PolicyStyle(policy);
  if (variant > 0) {
    style.dash = kOtherDashes[variant % kOtherDashes.size()];
    style.marker = kOtherMarkers[variant % kOtherMarkers.size()];
    style.slot = static_cast<int>(variant % kSlots);
  }
  return style;
}

std::string_view JobKindColour(JobKind kind) {
  const auto index = static_cast<std::size_t>(kind);
  return index < kKindColours.size() ? kKindColours[index] : kKindColours[0];
}

std::span<const std::string_view> JobKindColours() { return kKindColours; }

void DrawMarker(Svg& svg, double x, double y, const SeriesStyle& style, const std::string& title) {
  if (style.marker == MarkerShape::kNone) {
    return;
  }
  svg.Path(MarkerPath(style.marker, x, y), style.colour, "marker", title);
}

void DrawSeries(Svg& svg, const std::vector<std::pair<double, double>>& points,
                const SeriesStyle& style, const std::string& title, std::size_t marker_every) {
  if (points.empty()) {
    return;
  }
  std::string d;
  for (const auto& [x, y] : points) {
    d += fmt::format("{}{} {}", d.empty() ? "M" : " L", Coord(x), Coord(y));
  }
  svg.Path(d, style.colour, "series", title, style.dash);
  const std::size_t every = std::max<std::size_t>(marker_every, 1);
  const std::size_t first = every * static_cast<std::size_t>(style.slot) / kSlots;
  for (std::size_t i = first; i < points.size(); i += every) {
    DrawMarker(svg, points[i].first, points[i].second, style, title);
  }
}

double SeriesLegend(Svg& svg, double x, double y, const std::vector<std::string>& policies) {
  for (const std::string& policy : policies) {
    const SeriesStyle style = PolicyStyle(policy);
    svg.Path(fmt::format("M{} {}H{}", Coord(x), Coord(y - 3), Coord(x + 22)), style.colour,
             "series", policy, style.dash);
    DrawMarker(svg, x + 11, y - 3, style, policy);
    svg.Text(x + 28, y + 1, policy);
    x += 28 + 7.0 * static_cast<double>(policy.size()) + 18;
  }
  return x;
}

}  // namespace fleetsim
