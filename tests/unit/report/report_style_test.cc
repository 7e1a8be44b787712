// PolicyStyle and JobKindColour: a policy's style depends on its name alone (the same on every
// page, whatever else is drawn), the built-in policies differ in colour, dash and marker, and no
// policy colour can be mistaken for a job kind's (CIE76 colour difference of at least 30 between
// every pair).
#include "fleetsim/report/report_style.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <set>
#include <string>

namespace fleetsim {
namespace {

struct Lab {
  double l, a, b;
};

// sRGB "#rrggbb" to CIELAB (D65).
Lab ToLab(std::string_view hex) {
  auto channel = [&](std::size_t at) {
    const double c = std::stoi(std::string(hex.substr(at, 2)), nullptr, 16) / 255.0;
    return c > 0.04045 ? std::pow((c + 0.055) / 1.055, 2.4) : c / 12.92;
  };
  const double r = channel(1);
  const double g = channel(3);
  const double b = channel(5);
  const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const double z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  auto f = [](double v) { return v > 0.008856 ? std::cbrt(v) : 7.787 * v + 16.0 / 116; };
  return {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
}

double DeltaE(std::string_view a, std::string_view b) {
  const Lab p = ToLab(a);
  const Lab q = ToLab(b);
  return std::hypot(p.l - q.l, p.a - q.a, p.b - q.b);
}

constexpr std::array<const char*, 5> kBuiltin = {"fifo", "first-fit", "backfill", "fair-share",
                                                 "constraint-aware"};

TEST(ReportStyleTest, NoPolicyColourLooksLikeAJobKind) {
  for (const std::string_view policy : PolicyColours()) {
    for (const std::string_view kind : JobKindColours()) {
      EXPECT_GE(DeltaE(policy, kind), 30) << policy << " vs " << kind;
    }
  }
  EXPECT_LT(DeltaE("#0072b2", "#0072b3"), 1) << "the measure itself";
  EXPECT_EQ(JobKindColour(JobKind::kPretraining), JobKindColours()[1]);
}

TEST(ReportStyleTest, BuiltinPoliciesDifferInColourDashAndMarker) {
  std::set<std::string_view> colours;
  std::set<std::string_view> dashes;
  std::set<MarkerShape> markers;
  std::set<int> slots;
  for (const char* policy : kBuiltin) {
    const SeriesStyle style = PolicyStyle(policy);
    colours.insert(style.colour);
    dashes.insert(style.dash);
    markers.insert(style.marker);
    slots.insert(style.slot);
  }
  EXPECT_EQ(colours.size(), kBuiltin.size());
  EXPECT_EQ(dashes.size(), kBuiltin.size());
  EXPECT_EQ(markers.size(), kBuiltin.size());
  EXPECT_EQ(slots.size(), kBuiltin.size());
}

TEST(ReportStyleTest, AnyOtherNameGetsAStableStyleFromThePalette) {
  const SeriesStyle once = PolicyStyle("my-plugin-policy");
  const SeriesStyle again = PolicyStyle("my-plugin-policy");
  EXPECT_EQ(once.colour, again.colour);
  EXPECT_EQ(once.dash, again.dash);
  EXPECT_EQ(once.marker, again.marker);
  EXPECT_EQ(once.slot, again.slot);
  const auto colours = PolicyColours();
  EXPECT_NE(std::find(colours.begin(), colours.end(), once.colour), colours.end());
  EXPECT_NE(once.marker, MarkerShape::kNone);
}

TEST(ReportStyleTest, VariantsOfAPolicyKeepItsColourAndChangeTheirStyle) {
  const SeriesStyle first = VariantStyle("backfill", 0);
  EXPECT_EQ(first.colour, PolicyStyle("backfill").colour);
  EXPECT_EQ(first.marker, PolicyStyle("backfill").marker);
  const SeriesStyle second = VariantStyle("backfill", 1);
  EXPECT_EQ(second.colour, first.colour);
  EXPECT_TRUE(second.marker != first.marker || second.dash != first.dash);
}

}  // namespace
}  // namespace fleetsim
