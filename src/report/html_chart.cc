// The shared drawing blocks of fleetsim's HTML reports.
#include "fleetsim/report/html_chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace fleetsim {

namespace {

// Once loaded: every chart has a layout box and the shapes it was drawn with (folded <details>
// are opened for the measurement and closed again); the result goes to <body data-rendered>.
const char* const kSelfCheckScript = R"(<script>
(function () {
  function check() {
    var problems = [];
    var folds = Array.prototype.slice.call(document.querySelectorAll('details'));
    var wasOpen = folds.map(function (d) { return d.open; });
    folds.forEach(function (d) { d.open = true; });
    var charts = document.querySelectorAll('svg.chart');
    if (charts.length !== Number(document.body.dataset.charts)) {
      problems.push('expected ' + document.body.dataset.charts + ' charts, found ' + charts.length);
    }
    Array.prototype.forEach.call(charts, function (svg) {
      var box = svg.getBoundingClientRect();
      if (!(box.width > 0 && box.height > 0)) { problems.push(svg.id + ': no layout box'); }
      ['rect', 'path', 'line', 'text'].forEach(function (shape) {
        var found = svg.querySelectorAll(shape).length;
        var expected = Number(svg.dataset[shape + 's']);
        if (found !== expected) {
          problems.push(svg.id + ': ' + found + ' ' + shape + ' elements, expected ' + expected);
        }
      });
    });
    folds.forEach(function (d, i) { d.open = wasOpen[i]; });
    document.body.dataset.rendered = problems.length ? problems.join('; ') : 'ok';
  }
  if (document.readyState === 'complete') { check(); } else { window.addEventListener('load', check); }
})();
</script>
)";

}  // namespace

const char* const kReportStyle = R"(
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
       sans-serif; margin: 0 auto; max-width: 1000px; padding: 16px 24px 48px; color: #1d1d1f;
       line-height: 1.45; }
h1 { font-size: 26px; margin: 8px 0 4px; }
h2 { font-size: 20px; margin: 40px 0 4px; border-top: 1px solid #ddd; padding-top: 16px; }
h3 { font-size: 15px; margin: 20px 0 6px; }
p.meta, p.description { color: #555; margin: 4px 0; }
p.note { color: #555; font-style: italic; }
dl.definitions { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px;
                 font-size: 14px; }
dl.definitions dt { font-weight: 600; }
dl.definitions dd { margin: 0; }
nav ol { columns: 2; font-size: 14px; }
table.summary { border-collapse: collapse; font-size: 13px; margin: 8px 0; width: 100%; }
table.summary th, table.summary td { padding: 4px 8px; border-bottom: 1px solid #e4e4e4;
                                     text-align: right; white-space: nowrap; }
table.summary th:first-child, table.summary td:first-child { text-align: left; }
table.summary thead th { border-bottom: 2px solid #bbb; font-weight: 600; white-space: normal;
                         vertical-align: bottom; }
td .swatch { display: inline-block; width: 10px; height: 10px; margin-right: 6px;
             border-radius: 2px; }
td.pos { color: #087a3c; }
td.neg { color: #b3261e; }
td.baseline { color: #777; }
svg.chart { display: block; max-width: 100%; height: auto; margin: 6px 0 14px; }
svg.chart text { font-size: 11px; fill: #333; }
svg.chart text.title { font-size: 13px; font-weight: 600; fill: #111; }
svg.chart text.tick { fill: #666; }
svg.chart line.grid { stroke: #e6e6e6; stroke-width: 1; }
svg.chart line.axis { stroke: #888; stroke-width: 1; }
svg.chart line.zero { stroke: #444; stroke-width: 1; }
svg.chart path.series { fill: none; stroke-width: 1.8; stroke-linejoin: round; }
svg.chart path.baseline { stroke-dasharray: 6 4; }
svg.chart path.marker { fill: #fff; stroke-width: 1.5; }
svg.chart path.strip { fill: #4477aa; fill-opacity: 0.55; stroke-width: 0.5; }
td.published { color: #6b4e16; }
table.headline td { white-space: normal; }
svg.chart line.band { stroke: #222; stroke-width: 1; }
section.headline { background: #f7f7f4; border: 1px solid #e2e2dc; border-radius: 6px;
                   padding: 4px 16px 10px; margin-top: 12px; }
section.headline h2 { border-top: 0; margin-top: 8px; padding-top: 0; }
p.conclusion { font-size: 16px; }
p.reproduce code { background: #f2f2f2; padding: 2px 6px; border-radius: 3px; font-size: 13px;
                   word-break: break-all; }
svg.chart rect.job { stroke: #fff; stroke-width: 0.6; }
svg.chart line.whisker { stroke: #333; stroke-width: 1.2; }
svg.chart text.on-dark { fill: #fff; }
div.scroll { overflow-x: auto; }
details { margin: 8px 0; }
summary { cursor: pointer; font-weight: 600; font-size: 15px; margin: 12px 0 4px; }
)";

// A coordinate: one decimal, never "-0.0".
std::string Coord(double v) {
  if (std::abs(v) < 0.05) {
    return "0";
  }
  return fmt::format("{:.1f}", v);
}

// "1,234,567" for the integer part of a formatted number.
std::string GroupThousands(const std::string& number) {
  const std::size_t digits_begin = number.find_first_of("0123456789");
  if (digits_begin == std::string::npos) {
    return number;
  }
  std::size_t digits_end = number.find('.', digits_begin);
  if (digits_end == std::string::npos) {
    digits_end = number.size();
  }
  std::string out = number.substr(0, digits_begin);
  for (std::size_t i = digits_begin; i < digits_end; ++i) {
    out += number[i];
    const std::size_t left = digits_end - i - 1;
    if (left > 0 && left % 3 == 0) {
      out += ',';
    }
  }
  return out + number.substr(digits_end);
}

std::string Fixed(double v, int decimals) {
  return GroupThousands(fmt::format("{:.{}f}", v, decimals));
}

std::string Signed(double v, int decimals) {
  const std::string text = Fixed(std::abs(v), decimals);
  if (text == Fixed(0, decimals)) {
    return "±" + text;
  }
  return (v > 0 ? "+" : "−") + text;
}

std::string HtmlEscape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

void Svg::Rect(double x, double y, double w, double h, std::string_view fill,
               const std::string& title, std::string_view css_class) {
  ++rects_;
  body_ += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="{}")", Coord(x),
                       Coord(y), Coord(std::max(w, 0.0)), Coord(std::max(h, 0.0)), fill);
  if (!css_class.empty()) {
    body_ += fmt::format(R"( class="{}")", css_class);
  }
  body_ += title.empty() ? "/>" : fmt::format("><title>{}</title></rect>", HtmlEscape(title));
}

void Svg::Line(double x1, double y1, double x2, double y2, std::string_view css_class) {
  ++lines_;
  body_ += fmt::format(R"(<line x1="{}" y1="{}" x2="{}" y2="{}" class="{}"/>)", Coord(x1),
                       Coord(y1), Coord(x2), Coord(y2), css_class);
}

void Svg::Path(const std::string& d, std::string_view stroke, std::string_view css_class,
               const std::string& title, std::string_view dash) {
  ++paths_;
  body_ += fmt::format(R"(<path d="{}" stroke="{}" class="{}")", d, stroke, css_class);
  if (!dash.empty()) {
    body_ += fmt::format(R"( stroke-dasharray="{}")", dash);
  }
  body_ += fmt::format("><title>{}</title></path>", HtmlEscape(title));
}

void Svg::Text(double x, double y, const std::string& text, std::string_view anchor,
               std::string_view css_class, double rotate) {
  ++texts_;
  body_ += fmt::format(R"(<text x="{}" y="{}" text-anchor="{}")", Coord(x), Coord(y), anchor);
  if (!css_class.empty()) {
    body_ += fmt::format(R"( class="{}")", css_class);
  }
  if (rotate != 0) {
    body_ += fmt::format(" transform=\"rotate({} {} {})\"", Coord(rotate), Coord(x), Coord(y));
  }
  body_ += fmt::format(">{}</text>", HtmlEscape(text));
}

std::string Svg::Finish(int id, const std::string& label) const {
  return fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="chart-{}" role="img" )"
      R"(aria-label="{}" width="{}" height="{}" viewBox="0 0 {} {}" data-rects="{}" )"
      R"(data-paths="{}" data-lines="{}" data-texts="{}">{}</svg>)",
      id, HtmlEscape(label), Coord(width_), Coord(height_), Coord(width_), Coord(height_), rects_,
      paths_, lines_, texts_, body_);
}

// A round tick step (1, 2 or 5 x 10^k) giving at most `max_ticks` ticks over `range`.
double NiceStep(double range, int max_ticks) {
  if (range <= 0) {
    return 1;
  }
  const double raw = range / max_ticks;
  const double magnitude = std::pow(10, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * magnitude >= raw) {
      return m * magnitude;
    }
  }
  return 10 * magnitude;
}

// One legend row of coloured swatches with labels, from (x, y); returns the x after it.
double Legend(Svg& svg, double x, double y,
              const std::vector<std::pair<std::string, std::string_view>>& entries) {
  for (const auto& [label, colour] : entries) {
    svg.Rect(x, y - 9, 12, 12, colour);
    svg.Text(x + 16, y + 1, label);
    x += 16 + 7.0 * static_cast<double>(label.size()) + 18;
  }
  return x;
}

std::string HtmlPage(const std::string& title, const std::string& content, int charts,
                     bool render_check) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += "<title>" + HtmlEscape(title) + "</title>\n";
  out += "<style>" + std::string(kReportStyle) + "</style>\n</head>\n";
  out += fmt::format("<body data-charts=\"{}\">\n", charts);
  out += content;
  if (render_check) {
    out += kSelfCheckScript;
  }
  return out + "</body>\n</html>\n";
}

}  // namespace fleetsim
