// Drawing plan.html from a plan's outcome.
#include "fleetsim/plan/plan_html.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "fleetsim/core/version.h"
#include "fleetsim/plan/plan_report.h"
#include "fleetsim/report/html_chart.h"

namespace fleetsim {

namespace {

constexpr double kWidth = 800;
constexpr double kPlotLeft = 80;
constexpr double kPlotRight = 560;
constexpr double kPlotTop = 40;
constexpr double kPlotHeight = 300;
constexpr std::size_t kMaxTableRows = 400;
constexpr std::size_t kMaxGroups = kSeriesPalette.size();
constexpr std::string_view kRegionFill = "#fbe6e4";  // the side of a bound that misses it

const char* const kPlanStyle = R"(<style>
svg.chart line.bound { stroke: #b3261e; stroke-width: 1.2; stroke-dasharray: 5 3; }
svg.chart path.miss { fill: #fff; stroke-width: 1.4; }
svg.chart path.answer { fill: none; stroke: #111; stroke-width: 2; }
div.answer { border: 2px solid #087a3c; border-radius: 6px; padding: 8px 14px; margin: 12px 0; }
div.none { border-color: #b3261e; }
</style>
)";

std::string Short(double v) { return fmt::format("{:.4g}", v); }

// The fleet property the charts' x axis and the table order by, with its unit.
std::string OrderAxis(const PlanSpec& plan) {
  const PlanObjective order = OrderObjective(plan.objective);
  return fmt::format("{} ({})", PlanObjectiveName(order), PlanObjectiveUnit(order));
}

// The candidates that were run, cheapest first.
std::vector<std::size_t> RunFleets(const PlanCandidates& c, const PlanOutcome& outcome) {
  std::vector<std::size_t> run;
  for (std::size_t i = 0; i < c.candidates.size(); ++i) {
    const CandidateStatus s = outcome.results[i].status;
    if (s == CandidateStatus::kFeasible || s == CandidateStatus::kInfeasible) {
      run.push_back(i);
    }
  }
  std::stable_sort(run.begin(), run.end(), [&](std::size_t a, std::size_t b) {
    return c.candidates[a].objective < c.candidates[b].objective;
  });
  return run;
}

// The groups of the non-count axes, in order of first appearance among the run fleets.
std::map<std::string, std::size_t> Groups(const PlanCandidates& c,
                                          const std::vector<std::size_t>& run) {
  std::map<std::string, std::size_t> groups;
  for (const std::size_t i : run) {
    groups.emplace(c.candidates[i].group, groups.size());
  }
  return groups;
}

// A group's name for the legend: its non-count axes' labels.
std::string GroupName(const PlanSpec& plan, const PlanCandidates& c, const std::string& group) {
  const auto it = std::find_if(c.candidates.begin(), c.candidates.end(),
                               [&](const PlanCandidate& x) { return x.group == group; });
  std::string name;
  for (std::size_t a = 0; a < plan.runs.axes.size(); ++a) {
    const SweepAxis& axis = plan.runs.axes[a];
    const bool count = std::find(c.count_axes.begin(), c.count_axes.end(), axis.name) !=
                       c.count_axes.end();
    if (axis.target == AxisTarget::kSeed || count || it->labels[a].empty()) {
      continue;
    }
    name += fmt::format("{}{}={}", name.empty() ? "" : ", ", axis.name, it->labels[a]);
  }
  return name.empty() ? "every fleet" : name;
}

std::string Circle(double x, double y, double r) {
  return fmt::format("M{} {}m{} 0a{} {} 0 1 0 {} 0a{} {} 0 1 0 {} 0", Coord(x), Coord(y),
                     Coord(-r), Coord(r), Coord(r), Coord(2 * r), Coord(r), Coord(r),
                     Coord(-2 * r));
}

class PlanPage {
 public:
  PlanPage(const PlanSpec& plan, const PlanCandidates& c, const PlanOutcome& outcome)
      : plan_(plan), c_(c), outcome_(outcome), run_(RunFleets(c, outcome)), groups_(Groups(c, run_)) {}

  std::string Content() {
    std::string out = fmt::format("<h1>Plan {}</h1>\n<p class=\"meta\">fleetsim {} · {} {} "
                                  "({}) over {} candidate fleets × {} seed{}</p>\n",
                                  HtmlEscape(plan_.runs.name), HtmlEscape(kVersion),
                                  IsMeasuredObjective(plan_.objective) ? "most" : "least",
                                  PlanObjectiveName(plan_.objective),
                                  PlanObjectiveUnit(plan_.objective), c_.candidates.size(),
                                  c_.seeds, c_.seeds == 1 ? "" : "s");
    if (!plan_.runs.description.empty()) {
      out += fmt::format("<p class=\"description\">{}</p>\n", HtmlEscape(plan_.runs.description));
    }
    out += Answer();
    out += "<h2>The frontier</h2>\n<p class=\"note\">Each run fleet's figure against its "
           + PlanObjectiveName(OrderObjective(plan_.objective)) + "; filled: meets every target, hollow: misses one; the shaded side of the "
           "dashed bound misses this target; the ring is the answer.</p>\n";
    for (std::size_t t = 0; t < plan_.targets.size(); ++t) {
      out += Chart(t);
    }
    out += Table();
    return out;
  }

  int charts() const { return charts_; }

 private:
  std::string Answer() const {
    if (!outcome_.answer) {
      return "<div class=\"answer none\"><strong>No candidate fleet meets every target.</strong> "
             "The closest are listed first in the table.</div>\n";
    }
    const std::size_t a = *outcome_.answer;
    std::string out = fmt::format("<div class=\"answer\"><strong>Answer:</strong> {} — {}\n"
                                  "<ul>\n",
                                  HtmlEscape(DescribeCandidate(plan_, c_.candidates[a])),
                                  HtmlEscape(ObjectiveFigure(plan_, c_.candidates[a],
                                                             outcome_.results[a])));
    for (std::size_t t = 0; t < plan_.targets.size(); ++t) {
      const PlanTarget& target = plan_.targets[t];
      const TargetOutcome& o = outcome_.results[a].targets[t];
      out += fmt::format("<li>{} {} {}: {}</li>\n", HtmlEscape(TargetMetricName(target)),
                         target.at_most ? "≤" : "≥", Short(target.bound),
                         o.value ? Short(*o.value) : std::string("no value"));
    }
    out += "</ul>";
    if (const std::string horizon = HorizonSummary(plan_, c_, outcome_); !horizon.empty()) {
      out += fmt::format("<pre class=\"horizon\">{}</pre>", HtmlEscape(horizon));
    }
    return out + fmt::format("{} runs, {:.1f} % of the grid's {}.</div>\n",
                             outcome_.runs_asked,
                             outcome_.grid_runs == 0
                                 ? 0.0
                                 : 100.0 * double(outcome_.runs_asked) / double(outcome_.grid_runs),
                             outcome_.grid_runs);
  }

  std::string Chart(std::size_t t) {
    const PlanTarget& target = plan_.targets[t];
    std::vector<std::pair<std::size_t, double>> points;  // candidate, figure
    double x0 = std::numeric_limits<double>::infinity();
    double x1 = -x0;
    double y0 = target.bound;
    double y1 = target.bound;
    for (const std::size_t i : run_) {
      const TargetOutcome& o = outcome_.results[i].targets[t];
      if (!o.value || !std::isfinite(*o.value)) {
        continue;
      }
      points.emplace_back(i, *o.value);
      x0 = std::min(x0, c_.candidates[i].objective);
      x1 = std::max(x1, c_.candidates[i].objective);
      y0 = std::min(y0, *o.value);
      y1 = std::max(y1, *o.value);
    }
    if (points.empty()) {
      return fmt::format("<p class=\"note\">{}: no run fleet has a value.</p>\n",
                         HtmlEscape(TargetMetricName(target)));
    }
    const double pad = (y1 - y0) * 0.05 + (y1 == y0 ? 1 : 0);
    const Scale x{x0, x1 == x0 ? x0 + 1 : x1, kPlotLeft + 10, kPlotRight - 10};
    const Scale y{y0 - pad, y1 + pad, kPlotTop + kPlotHeight, kPlotTop};
    Svg svg(kWidth, kPlotTop + kPlotHeight + 50);
    const std::string title = fmt::format("{} against {}", TargetMetricName(target),
                                          PlanObjectiveName(OrderObjective(plan_.objective)));
    svg.Text(kPlotLeft, 18, title, "start", "title");
    const double by = y(target.bound);
    if (target.at_most) {
      svg.Rect(kPlotLeft, kPlotTop, kPlotRight - kPlotLeft, std::max(0.0, by - kPlotTop),
               kRegionFill, "", "region");
    } else {
      svg.Rect(kPlotLeft, by, kPlotRight - kPlotLeft, std::max(0.0, kPlotTop + kPlotHeight - by),
               kRegionFill, "", "region");
    }
    Axes(svg, x, y);
    svg.Line(kPlotLeft, by, kPlotRight, by, "bound");
    for (const auto& [i, value] : points) {
      Mark(svg, i, x(c_.candidates[i].objective), y(value), value);
    }
    Legend(svg);
    return svg.Finish(++charts_, title);
  }

  void Axes(Svg& svg, const Scale& x, const Scale& y) const {
    const double ystep = NiceStep(y.d1 - y.d0, 5);
    for (double v = std::ceil(y.d0 / ystep) * ystep; v <= y.d1 + ystep * 1e-9; v += ystep) {
      svg.Line(kPlotLeft, y(v), kPlotRight, y(v), "grid");
      svg.Text(kPlotLeft - 6, y(v) + 4, Short(v), "end", "tick");
    }
    const double xstep = NiceStep(x.d1 - x.d0, 6);
    for (double v = std::ceil(x.d0 / xstep) * xstep; v <= x.d1 + xstep * 1e-9; v += xstep) {
      svg.Text(x(v), kPlotTop + kPlotHeight + 16, Short(v), "middle", "tick");
    }
    svg.Line(kPlotLeft, kPlotTop + kPlotHeight, kPlotRight, kPlotTop + kPlotHeight, "axis");
    svg.Text((kPlotLeft + kPlotRight) / 2, kPlotTop + kPlotHeight + 36, OrderAxis(plan_),
             "middle");
  }

  void Mark(Svg& svg, std::size_t i, double px, double py, double value) const {
    const std::size_t g = groups_.at(c_.candidates[i].group);
    const std::string_view colour = kSeriesPalette[g % kMaxGroups];
    const std::string label = fmt::format("{}: {} {}, {}",
                                          DescribeCandidate(plan_, c_.candidates[i]),
                                          Short(c_.candidates[i].objective),
                                          PlanObjectiveUnit(OrderObjective(plan_.objective)),
                                          Short(value));
    if (outcome_.results[i].status == CandidateStatus::kFeasible) {
      svg.Rect(px - 3.5, py - 3.5, 7, 7, colour, label);
    } else {
      svg.Path(Circle(px, py, 3.5), colour, "miss", label);
    }
    if (outcome_.answer && *outcome_.answer == i) {
      svg.Path(Circle(px, py, 8), "#111", "answer", "the answer");
    }
  }

  void Legend(Svg& svg) const {
    std::vector<const std::string*> named(std::min(groups_.size(), kMaxGroups));  // by number
    for (const auto& [group, g] : groups_) {
      if (g < named.size()) {
        named[g] = &group;
      }
    }
    for (std::size_t g = 0; g < named.size(); ++g) {
      const double ly = kPlotTop + 16.0 * static_cast<double>(g);
      svg.Rect(kPlotRight + 16, ly - 9, 10, 10, kSeriesPalette[g]);
      svg.Text(kPlotRight + 32, ly, GroupName(plan_, c_, *named[g]));
    }
  }

  std::string Table() const {
    std::string out = "<h2>Run fleets</h2>\n<div class=\"scroll\"><table class=\"summary\">\n"
                      "<thead><tr><th>fleet</th><th>";
    out += OrderAxis(plan_) + "</th>";
    if (IsMeasuredObjective(plan_.objective)) {
      out += fmt::format("<th>{} ({})</th>", PlanObjectiveName(plan_.objective),
                         PlanObjectiveUnit(plan_.objective));
    }
    out += "<th>status</th>";
    for (const PlanTarget& t : plan_.targets) {
      out += fmt::format("<th>{} {} {}</th>", HtmlEscape(TargetMetricName(t)), t.at_most ? "≤" : "≥",
                         Short(t.bound));
    }
    out += "</tr></thead>\n<tbody>\n";
    std::vector<std::size_t> rows = run_;
    if (!outcome_.answer) {  // the closest first
      std::stable_partition(rows.begin(), rows.end(), [&](std::size_t i) {
        return std::find(outcome_.closest_infeasible.begin(), outcome_.closest_infeasible.end(),
                         i) != outcome_.closest_infeasible.end();
      });
    }
    for (std::size_t k = 0; k < rows.size() && k < kMaxTableRows; ++k) {
      out += Row(rows[k]);
    }
    out += "</tbody></table></div>\n";
    if (rows.size() > kMaxTableRows) {
      out += fmt::format("<p class=\"note\">{} run fleets; the cheapest {} are listed (plan.csv "
                         "has every candidate).</p>\n",
                         rows.size(), kMaxTableRows);
    }
    return out;
  }

  std::string Row(std::size_t i) const {
    const CandidateResult& r = outcome_.results[i];
    const bool answer = outcome_.answer && *outcome_.answer == i;
    std::string out = fmt::format("<tr><td>{}{}</td><td>{}</td>",
                                  answer ? "<strong>answer</strong> " : "",
                                  HtmlEscape(DescribeCandidate(plan_, c_.candidates[i])),
                                  Fixed(c_.candidates[i].objective, 2));
    if (IsMeasuredObjective(plan_.objective)) {
      out += fmt::format("<td>{}</td>", r.measured ? Short(*r.measured) : std::string("—"));
    }
    out += fmt::format("<td class=\"{}\">{}</td>",
                       r.status == CandidateStatus::kFeasible ? "pos" : "neg",
                       CandidateStatusName(r.status));
    for (std::size_t t = 0; t < plan_.targets.size(); ++t) {
      const TargetOutcome& o = r.targets[t];
      out += fmt::format("<td class=\"{}\">{}</td>", !o.decided ? "" : o.met ? "pos" : "neg",
                         o.value ? Short(*o.value) : std::string("—"));
    }
    return out + "</tr>\n";
  }

  const PlanSpec& plan_;
  const PlanCandidates& c_;
  const PlanOutcome& outcome_;
  std::vector<std::size_t> run_;
  std::map<std::string, std::size_t> groups_;  // the run fleets' groups, numbered as first run
  int charts_ = 0;
};

}  // namespace

std::string PlanHtml(const PlanSpec& plan, const PlanCandidates& candidates,
                     const PlanOutcome& outcome, bool render_check) {
  PlanPage page(plan, candidates, outcome);
  const std::string content = kPlanStyle + page.Content();
  return HtmlPage("fleetsim plan " + plan.runs.name, content, page.charts(), render_check);
}

}  // namespace fleetsim
