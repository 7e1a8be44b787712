// Drawing blocks shared by fleetsim's self-contained HTML reports (the benchmark report,
// html_report.h, and the sweep report, sweep/sweep_report.h): an inline SVG chart that counts the
// shapes it draws, a linear scale, round tick steps, legends, number formatting, the pages' style
// sheet, and the page frame with its self-check script (which, once the page has loaded, checks
// every chart was laid out with the shapes it was drawn with and sets <body data-rendered="ok">).
// No external resources; pure functions of their inputs.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fleetsim {

// Okabe-Ito colours (distinguishable with colour-blindness) for series that are not policies
// (the plan report's groups of candidate fleets); policies have theirs (report_style.h).
inline constexpr std::array<std::string_view, 7> kSeriesPalette = {
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000"};

// A coordinate: one decimal, never "-0.0".
std::string Coord(double v);
// "1,234,567" for the integer part of a formatted number.
std::string GroupThousands(const std::string& number);
// `v` with `decimals` decimals and thousands grouped.
std::string Fixed(double v, int decimals);
// As Fixed, with a sign ("+1.5", "−2.0", "±0.0").
std::string Signed(double v, int decimals);

// Text made safe for HTML content and attribute values: & < > " ' escaped.
std::string HtmlEscape(const std::string& text);

// An SVG chart being drawn: counts the shapes it emits, so the page's self-check can compare
// them with what the browser laid out.
class Svg {
 public:
  Svg(double width, double height) : width_(width), height_(height) {}

  void Rect(double x, double y, double w, double h, std::string_view fill,
            const std::string& title = "", std::string_view css_class = "");
  void Line(double x1, double y1, double x2, double y2, std::string_view css_class);
  // `dash`: an SVG stroke-dasharray, none when empty.
  void Path(const std::string& d, std::string_view stroke, std::string_view css_class,
            const std::string& title, std::string_view dash = "");
  // anchor: "start", "middle" or "end".
  void Text(double x, double y, const std::string& text, std::string_view anchor = "start",
            std::string_view css_class = "", double rotate = 0);
  // The <svg> element, with id "chart-<id>" and its shape counts as data attributes.
  std::string Finish(int id, const std::string& label) const;

 private:
  double width_;
  double height_;
  std::string body_;
  int rects_ = 0;
  int paths_ = 0;
  int lines_ = 0;
  int texts_ = 0;
};

// A linear map from a data interval to a pixel interval.
struct Scale {
  double d0;
  double d1;
  double p0;
  double p1;
  double operator()(double v) const {
    return d1 == d0 ? p0 : p0 + (v - d0) / (d1 - d0) * (p1 - p0);
  }
};

// A round tick step (1, 2 or 5 x 10^k) giving at most `max_ticks` ticks over `range`.
double NiceStep(double range, int max_ticks);

// One legend row of coloured swatches with labels, from (x, y); returns the x after it.
double Legend(Svg& svg, double x, double y,
              const std::vector<std::pair<std::string, std::string_view>>& entries);

// The reports' shared style sheet.
extern const char* const kReportStyle;

// A whole page: the style sheet, `content` in the body (which declares `charts` charts for the
// self-check), and the self-check script when `render_check`.
std::string HtmlPage(const std::string& title, const std::string& content, int charts,
                     bool render_check);

}  // namespace fleetsim
