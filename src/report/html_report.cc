// The bench report page: title and headline, reproduce line, overview delta bars, and per
// scenario a table, utilization over time and the GPU x time allocation grid (timeline_charts.h),
// then what the figures mean.
#include "fleetsim/report/html_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>
#include <string_view>

#include "fleetsim/core/version.h"
#include "fleetsim/report/html_chart.h"
#include "fleetsim/report/report_style.h"
#include "fleetsim/report/run_charts.h"

namespace fleetsim {

namespace {

// Below these, a difference does not show at the page's precision: a tie.
constexpr double kTiePp = 0.05;
constexpr double kTiePct = 0.05;

// ---- Data -------------------------------------------------------------------------------------

// The runs of one scenario, in input order, and its baseline and headline runs (if any).
struct ScenarioRuns {
  std::string name;
  std::string description;
  std::vector<const RunReport*> runs;
  const RunReport* baseline = nullptr;
  const RunReport* headline = nullptr;
};

// Groups by scenario and seed, in order of first appearance (the runs of a seed range come
// policy by policy: each group gathers its policies from wherever they are).
std::vector<ScenarioRuns> GroupByScenario(const std::vector<RunReport>& reports,
                                          const HtmlReportOptions& options) {
  std::vector<ScenarioRuns> groups;
  for (const RunReport& report : reports) {
    auto group = std::find_if(groups.begin(), groups.end(), [&](const ScenarioRuns& g) {
      return SameScenario(*g.runs.front(), report) && g.runs.front()->seed == report.seed;
    });
    if (group == groups.end()) {
      groups.push_back(ScenarioRuns{.name = report.scenario.name,
                                    .description = report.scenario.description,
                                    .runs = {},
                                    .baseline = nullptr,
                                    .headline = nullptr});
      group = std::prev(groups.end());
    }
    group->runs.push_back(&report);
    if (group->baseline == nullptr && report.policy.name == options.baseline_policy) {
      group->baseline = &report;
    }
    if (group->headline == nullptr && report.policy.name == options.headline_policy) {
      group->headline = &report;
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

// Every run of the scenario has the first one's utilization and output, to the page's precision.
bool AllTie(const ScenarioRuns& s) {
  const RunReport& first = *s.runs.front();
  return s.runs.size() > 1 && std::all_of(s.runs.begin(), s.runs.end(), [&](const RunReport* run) {
           const std::optional<double> output = OutputDeltaPct(*run, &first);
           return std::abs(*UtilizationDeltaPp(*run, &first)) < kTiePp &&
                  (output ? std::abs(*output) < kTiePct
                          : run->accounting.priority_weighted_output ==
                                first.accounting.priority_weighted_output);
         });
}

// Every run started and ended every job at the same times as the first.
bool SameSchedule(const ScenarioRuns& s) {
  const std::vector<JobRecordRow>& first = s.runs.front()->jobs;
  return std::all_of(s.runs.begin(), s.runs.end(), [&](const RunReport* run) {
    return std::equal(first.begin(), first.end(), run->jobs.begin(), run->jobs.end(),
                      [](const JobRecordRow& a, const JobRecordRow& b) {
                        return a.start == b.start && a.end == b.end;
                      });
  });
}

// The policies with the highest priority-weighted output in the scenario (several on a tie).
std::vector<std::string> BestOnOutput(const ScenarioRuns& s) {
  double best = -1;
  for (const RunReport* run : s.runs) {
    best = std::max(best, run->accounting.priority_weighted_output);
  }
  std::vector<std::string> names;
  for (const RunReport* run : s.runs) {
    if (best <= 0 || (best - run->accounting.priority_weighted_output) / best * 100 < kTiePct) {
      names.push_back(run->policy.name);
    }
  }
  return names;
}

std::string Joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    out += (out.empty() ? "" : ", ") + name;
  }
  return out;
}

std::size_t PolicyCount(const std::vector<RunReport>& reports) {
  std::vector<std::string> names;
  for (const RunReport& r : reports) {
    if (std::find(names.begin(), names.end(), r.policy.name) == names.end()) {
      names.push_back(r.policy.name);
    }
  }
  return names.size();
}

// The policies other than the baseline, in order of first appearance.
std::vector<std::string> OtherPolicies(const std::vector<RunReport>& reports,
                                       const std::string& baseline) {
  std::vector<std::string> names;
  for (const RunReport& r : reports) {
    if (r.policy.name != baseline &&
        std::find(names.begin(), names.end(), r.policy.name) == names.end()) {
      names.push_back(r.policy.name);
    }
  }
  return names;
}

// Distinct scenario names among the groups (a seed range gives several groups per scenario).
std::size_t ScenarioCount(const std::vector<ScenarioRuns>& scenarios) {
  std::vector<std::string> names;
  for (const ScenarioRuns& s : scenarios) {
    if (std::find(names.begin(), names.end(), s.name) == names.end()) {
      names.push_back(s.name);
    }
  }
  return names.size();
}

// A scenario compares the headline policy with the baseline.
bool Comparable(const ScenarioRuns& s) { return s.headline != nullptr && s.baseline != nullptr; }

std::string PageTitle(const std::vector<ScenarioRuns>& scenarios, std::size_t policies,
                      const HtmlReportOptions& options) {
  if (!options.title.empty()) {
    return options.title;
  }
  const std::size_t count = ScenarioCount(scenarios);
  const std::string where =
      count == 1 ? scenarios.front().name : fmt::format("{} scenarios", count);
  if (std::any_of(scenarios.begin(), scenarios.end(), Comparable)) {
    return fmt::format("{} vs {} on {}", options.headline_policy, options.baseline_policy, where);
  }
  if (scenarios.empty()) {
    return "fleetsim report: no runs";
  }
  return fmt::format("{} on {}",
                     policies == 1 ? scenarios.front().runs.front()->policy.name
                                   : fmt::format("{} policies", policies),
                     where);
}

// ---- The page ---------------------------------------------------------------------------------

struct Page {
  const HtmlReportOptions& options;
  std::vector<std::string> others;  // the policies other than the baseline
  std::size_t policies = 0;         // distinct policies on the page
  bool run_page = false;            // RunHtml: more charts, every run in the grid
  bool many_seeds = false;          // a scenario appears with several seeds
  int charts = 0;

  std::string Chart(const Svg& svg, const std::string& label) {
    return svg.Finish(++charts, label);
  }
};

// The scenario's name, with its seed when the page has several seeds of a scenario.
std::string SectionName(const ScenarioRuns& s, const Page& page) {
  return page.many_seeds ? fmt::format("{} · seed {}", s.name, s.runs.front()->seed) : s.name;
}

// "+13.1 pp (12.0 → 25.1 %)"
std::string UtilizationChange(const RunReport& run, const RunReport& baseline) {
  return fmt::format("{} pp ({} → {} %)", Signed(*UtilizationDeltaPp(run, &baseline), 1),
                     Fixed(baseline.accounting.utilization * 100, 1),
                     Fixed(run.accounting.utilization * 100, 1));
}

std::string OutputChange(const RunReport& run, const RunReport& baseline) {
  const std::optional<double> d = OutputDeltaPct(run, &baseline);
  return d ? Signed(*d, 1) + " %" : "n/a";
}

// One sentence: where the headline policy beats, ties with and loses to the baseline on output,
// and the range of its changes.
std::string Conclusion(const std::vector<ScenarioRuns>& scenarios, const Page& page) {
  const HtmlReportOptions& o = page.options;
  int better = 0;
  int tied = 0;
  int worse = 0;
  int best = 0;
  std::vector<double> pcts;  // output change of each compared scenario, %
  std::vector<double> pps;   // its utilization change, pp
  for (const ScenarioRuns& s : scenarios) {
    if (s.headline == nullptr || s.baseline == nullptr) {
      continue;
    }
    const std::optional<double> pct = OutputDeltaPct(*s.headline, s.baseline);
    const double pp = *UtilizationDeltaPp(*s.headline, s.baseline);
    if (!pct) {
      continue;
    }
    pcts.push_back(*pct);
    pps.push_back(pp);
    (*pct >= kTiePct ? better : *pct <= -kTiePct ? worse : tied) += 1;
    const std::vector<std::string> top = BestOnOutput(s);
    best += std::find(top.begin(), top.end(), o.headline_policy) != top.end() ? 1 : 0;
  }
  if (pcts.empty()) {
    return "";
  }
  const auto [lo_pct, hi_pct] = std::minmax_element(pcts.begin(), pcts.end());
  const auto [lo_pp, hi_pp] = std::minmax_element(pps.begin(), pps.end());
  return fmt::format(
      "<p class=\"conclusion\"><strong>{0}</strong> against <strong>{1}</strong>: "
      "priority-weighted output higher in {2} of {3} {11}, equal in {4}, lower in {5} "
      "({6} % to {7} %); utilization {8} to {9} pp. {0} has the highest output of all policies "
      "in {10} of {3}.</p>\n",
      HtmlEscape(o.headline_policy), HtmlEscape(o.baseline_policy), better, pcts.size(), tied,
      worse, Signed(*lo_pct, 1), Signed(*hi_pct, 1), Signed(*lo_pp, 1), Signed(*hi_pp, 1), best,
      page.many_seeds ? "scenario-seed pairs" : "scenarios");
}

// A published figure's cell: the text as the source states it, or a dash.
std::string PublishedCell(const std::string& figure) {
  return figure.empty() ? "<td class=\"baseline\">—</td>"
                        : "<td class=\"published\">" + HtmlEscape(figure) + "</td>";
}

std::string HeadlineTable(const std::vector<ScenarioRuns>& scenarios, const Page& page) {
  const HtmlReportOptions& o = page.options;
  const bool published = o.published != nullptr;
  std::string out = fmt::format(
      "<table class=\"summary headline\">\n<thead><tr><th>scenario</th>"
      "<th>utilization, {0} vs {1}</th>{2}<th>priority-weighted output, Δ vs {1}</th>{3}"
      "<th>best on output</th></tr></thead>\n<tbody>\n",
      HtmlEscape(o.headline_policy), HtmlEscape(o.baseline_policy),
      published ? "<th>post: utilization</th>" : "", published ? "<th>post: output</th>" : "");
  for (std::size_t i = 0; i < scenarios.size(); ++i) {
    const ScenarioRuns& s = scenarios[i];
    const bool both = s.headline != nullptr && s.baseline != nullptr;
    PublishedFigures figures;
    if (published) {
      const auto it = o.published->scenarios.find(s.name);
      if (it != o.published->scenarios.end()) {
        figures = it->second;
      }
    }
    const std::string post_utilization =
        figures.fifo_utilization.empty() && figures.allocator_utilization.empty()
            ? ""
            : fmt::format(
                  "{} → {}", figures.fifo_utilization.empty() ? "?" : figures.fifo_utilization,
                  figures.allocator_utilization.empty() ? "?" : figures.allocator_utilization);
    out += fmt::format(
        "<tr><td><a href=\"#scenario-{}\">{}</a></td><td>{}</td>{}<td>{}</td>{}<td>{}</td></tr>\n",
        i + 1, HtmlEscape(SectionName(s, page)),
        both ? UtilizationChange(*s.headline, *s.baseline) : "n/a",
        published ? PublishedCell(post_utilization) : "",
        both ? OutputChange(*s.headline, *s.baseline) : "n/a",
        published ? PublishedCell(figures.output_gain) : "", HtmlEscape(Joined(BestOnOutput(s))));
  }
  out += "</tbody>\n</table>\n";
  if (published) {
    out += "<p class=\"note\">post: " + HtmlEscape(o.published->source) + "</p>\n";
  }
  return out;
}

std::string HeaderHtml(const std::vector<ScenarioRuns>& scenarios, const Page& page,
                       const std::string& title, std::size_t runs) {
  const HtmlReportOptions& o = page.options;
  std::string out = fmt::format(
      "<header>\n<h1>{}</h1>\n<p class=\"meta\">fleetsim {} · {} scenarios · {} runs · baseline "
      "policy {}</p>\n</header>\n",
      HtmlEscape(title), HtmlEscape(kVersion), ScenarioCount(scenarios), runs,
      HtmlEscape(o.baseline_policy));
  const bool comparable = std::any_of(
      scenarios.begin(), scenarios.end(),
      [](const ScenarioRuns& s) { return s.headline != nullptr && s.baseline != nullptr; });
  if (!scenarios.empty() && (comparable || !page.run_page)) {
    out += "<section class=\"headline\">\n<h2>Headline</h2>\n";
    out += Conclusion(scenarios, page);
    out += HeadlineTable(scenarios, page);
    out += "</section>\n";
  }
  std::string seeds;
  for (const ScenarioRuns& s : scenarios) {
    seeds += fmt::format("{}{} {}", seeds.empty() ? "" : ", ", s.name, s.runs.front()->seed);
  }
  out += "<p class=\"reproduce\">Reproduce: ";
  if (!o.reproduce.empty()) {
    out += "<code>" + HtmlEscape(o.reproduce) + "</code> · ";
  }
  out += fmt::format("fleetsim {} · seeds: {}</p>\n", HtmlEscape(kVersion),
                     seeds.empty() ? "none" : HtmlEscape(seeds));
  return out;
}

std::string DefinitionsHtml(const Page& page) {
  return fmt::format(
      R"(<section class="definitions">
<h2>What the figures mean</h2>
<dl class="definitions">
<dt>utilization</dt><dd>GPU-time doing work (useful, lost, overhead and reconfiguration) / GPU-time of the nodes that were up, over the window from the first submission to the end of the run. A real-time service's GPUs held above its demand (a reservation sitting idle) do not count.</dd>
<dt>priority-weighted output</dt><dd>Σ over jobs of priority × useful work: work that was kept (not lost to a stop, not spent pausing), in GPU-hours for a job given a duration and in reference GPU-hours for a job given work (the same wherever it ran), and for real-time services the demand actually served.</dd>
<dt>Δ vs {0}</dt><dd>utilization in percentage points (pp) and priority-weighted output in % against the {0} run of the same scenario.</dd>
<dt>tie</dt><dd>differences below {2} pp and {3} % do not show at this page's precision: such policies tie.</dd>
<dt>p99 wait</dt><dd>the 99th percentile (nearest rank) of start − submit over the jobs that started.</dd>
<dt>unmet real-time</dt><dd>GPU-hours of real-time demand that were not served.</dd>
<dt>cost</dt><dd>the fleet's bill over the window, by pool price tier; n/a when a pool has no price.</dd>
<dt>charts</dt><dd>utilization over time: busy GPUs / GPUs up, over {1} equal slices of the window, one line per policy (each policy keeps its colour, dash and marker on every fleetsim page); allocation grid: one row per GPU, pools banded at the left, one bar per stretch a job held it, coloured by job kind (dark grey: node down); past {4} GPUs or {5} segments, one strip per pool showing the share of its GPUs held.</dd>
</dl>
</section>
)",
      HtmlEscape(page.options.baseline_policy), page.options.utilization_buckets, kTiePp, kTiePct,
      page.options.grid.max_gpu_rows, page.options.grid.max_segments);
}

std::string NavHtml(const std::vector<ScenarioRuns>& scenarios, const Page& page) {
  std::string out = "<nav><h3>Scenarios</h3><ol>\n";
  for (std::size_t i = 0; i < scenarios.size(); ++i) {
    out += fmt::format("<li><a href=\"#scenario-{}\">{}</a></li>\n", i + 1,
                       HtmlEscape(SectionName(scenarios[i], page)));
  }
  return out + "</ol></nav>\n";
}

// One overview chart: per scenario (groups), a bar per non-baseline policy; "all tie" under a
// group where every policy ties.
std::string DeltaBarChart(const std::vector<ScenarioRuns>& scenarios, Page& page,
                          const std::string& title, const std::string& unit,
                          std::optional<double> (*delta)(const RunReport&, const RunReport*)) {
  const std::vector<std::string>& policies = page.others;
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
    legend.emplace_back(p, PolicyStyle(p).colour);
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
               PolicyStyle(run->policy.name).colour,
               fmt::format("{} · {}: {} {}", SectionName(s, page), run->policy.name, Signed(*d, 1),
                           unit));
    }
    const double label_x = left + group_width * (static_cast<double>(g) + 0.5);
    if (s.baseline != nullptr && AllTie(s)) {
      svg.Text(label_x, y(0) - 6, "all tie", "middle", "tick");
    }
    if (rotate_labels) {
      svg.Text(label_x + 4, bottom + 14, SectionName(s, page), "end", "tick", -25);
    } else {
      svg.Text(label_x, bottom + 16, SectionName(s, page), "middle", "tick");
    }
  }
  svg.Line(left, y(0), right, y(0), "zero");
  return page.Chart(svg, title);
}

std::string OverviewHtml(const std::vector<ScenarioRuns>& scenarios, Page& page) {
  if (page.others.empty()) {
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
  const double tie = unit == "pp" ? kTiePp : kTiePct;
  const char* css = *delta >= tie ? "pos" : *delta <= -tie ? "neg" : "";
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
        PolicyStyle(run->policy.name).colour, HtmlEscape(run->policy.name),
        Fixed(run->accounting.utilization * 100, 1),
        DeltaCell(*run, s, UtilizationDeltaPp(*run, s.baseline), "pp"),
        Fixed(run->accounting.priority_weighted_output, 1),
        DeltaCell(*run, s, OutputDeltaPct(*run, s.baseline), "%"), m.jobs_completed, m.jobs_total,
        Fixed(m.wait_p99_s / 3600, 2), Fixed(run->realtime.unmet_gpu_hours, 1),
        CostCell(run->cost));
  }
  return out + "</tbody>\n</table>\n";
}

std::string TieNote(const ScenarioRuns& s) {
  if (!AllTie(s)) {
    return "";
  }
  return fmt::format(
      "<p class=\"note\">All {} policies tie on utilization and priority-weighted output here{}"
      "</p>\n",
      s.runs.size(),
      SameSchedule(s) ? ": every job started and ended at the same time under each of them, so "
                        "nothing in this scenario made their choices differ."
                      : ", though their schedules differ (jobs started at different times).");
}

bool HasTimelines(const ScenarioRuns& s) {
  return std::any_of(s.runs.begin(), s.runs.end(),
                     [](const RunReport* run) { return run->timeline.has_value(); });
}

const RunReport* FindRun(const ScenarioRuns& s, const std::string& policy) {
  for (const RunReport* run : s.runs) {
    if (run->policy.name == policy && run->timeline) {
      return run;
    }
  }
  return nullptr;
}

std::string GridHtml(const ScenarioRuns& s, Page& page) {
  const HtmlReportOptions& o = page.options;
  std::vector<const RunReport*> panels;
  if (page.run_page) {
    std::copy_if(s.runs.begin(), s.runs.end(), std::back_inserter(panels),
                 [](const RunReport* run) { return run->timeline.has_value(); });
  }
  for (const std::string& policy : {o.headline_policy, o.baseline_policy}) {
    const RunReport* run = FindRun(s, policy);
    if (!page.run_page && run != nullptr &&
        std::find(panels.begin(), panels.end(), run) == panels.end()) {
      panels.push_back(run);
    }
  }
  if (panels.empty()) {
    return "<p class=\"note\">Neither a " + HtmlEscape(o.headline_policy) + " nor a " +
           HtmlEscape(o.baseline_policy) + " run recorded a timeline.</p>\n";
  }
  const std::string title = "GPU × time allocation · " + SectionName(s, page);
  return page.Chart(AllocationGrid(panels, title, o.grid), title);
}

// The run page's charts: jobs queued over time, each pool's use, wait and completion CDFs.
std::string RunCharts(const ScenarioRuns& s, Page& page) {
  std::string out;
  const bool series = std::any_of(s.runs.begin(), s.runs.end(), [](const RunReport* run) {
    return run->series && !run->series->integrals.empty();
  });
  if (series) {
    const std::string queue = "Jobs queued over time · " + SectionName(s, page);
    out += page.Chart(QueueOverTime(s.runs, queue), queue) + "\n";
    for (const std::string& pool : SeriesPools(s.runs)) {
      const std::string title =
          "Pool " + pool + ": share of its GPUs held · " + SectionName(s, page);
      out += page.Chart(PoolUseOverTime(s.runs, pool, title), title) + "\n";
    }
  }
  std::vector<CdfLine> waits;
  std::vector<CdfLine> completions;
  for (const RunReport* run : s.runs) {
    waits.push_back(WaitTimes(*run));
    completions.push_back(CompletionTimes(*run));
  }
  const std::string wait_title = "Wait time, CDF over the jobs submitted · " + SectionName(s, page);
  out += page.Chart(CdfChart(waits, wait_title, "start − submit (log scale)"), wait_title) + "\n";
  const std::string jct_title =
      "Completion time, CDF over the jobs submitted · " + SectionName(s, page);
  out += page.Chart(CdfChart(completions, jct_title, "end − submit of completed jobs (log scale)"),
                    jct_title) +
         "\n";
  return out;
}

std::string ScenarioSection(const ScenarioRuns& s, std::size_t index, Page& page) {
  std::string out = fmt::format("<section class=\"scenario\" id=\"scenario-{}\">\n<h2>{}</h2>\n",
                                index + 1, HtmlEscape(SectionName(s, page)));
  if (!s.description.empty()) {
    out += "<p class=\"description\">" + HtmlEscape(s.description) + "</p>\n";
  }
  const RunReport& first = *s.runs.front();
  out += fmt::format("<p class=\"meta\">{} GPUs · window {}–{} h · seed {}</p>\n",
                     first.metrics.fleet_gpus, Hours(first.metrics.window_start),
                     Hours(first.metrics.window_end), first.seed);
  out += SummaryTable(s, page);
  out += TieNote(s);
  if (!HasTimelines(s)) {
    out +=
        "<p class=\"note\">These runs recorded no allocation timeline "
        "(RunOptions::record_timeline), so utilization over time and the GPU × time grid are "
        "not drawn.</p>\n";
    return out + "</section>\n";
  }
  const std::string title = "Utilization over time · " + SectionName(s, page);
  out += page.Chart(UtilizationOverTime(s.runs, title, page.options.baseline_policy,
                                        page.options.utilization_buckets),
                    title) +
         "\n";
  if (page.run_page) {
    out += RunCharts(s, page);
    out += fmt::format("<details{}>\n<summary>GPU × time allocation, every policy</summary>\n",
                       index == 0 ? " open" : "");
  } else {
    out +=
        fmt::format("<details{}>\n<summary>GPU × time allocation: {} above, {} below</summary>\n",
                    index == 0 ? " open" : "", HtmlEscape(page.options.headline_policy),
                    HtmlEscape(page.options.baseline_policy));
  }
  out += GridHtml(s, page);
  out += "\n</details>\n";
  return out + "</section>\n";
}

}  // namespace

namespace {

bool ManySeeds(const std::vector<ScenarioRuns>& scenarios) {
  for (std::size_t i = 1; i < scenarios.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (scenarios[i].name == scenarios[j].name) {
        return true;
      }
    }
  }
  return false;
}

std::string ReportHtml(const std::vector<RunReport>& reports, const HtmlReportOptions& options,
                       bool run_page) {
  const std::vector<ScenarioRuns> scenarios = GroupByScenario(reports, options);
  Page page{.options = options,
            .others = OtherPolicies(reports, options.baseline_policy),
            .policies = PolicyCount(reports),
            .run_page = run_page,
            .many_seeds = ManySeeds(scenarios)};
  const std::string title = PageTitle(scenarios, page.policies, options);
  std::string content = HeaderHtml(scenarios, page, title, reports.size());
  if (scenarios.empty()) {
    content += "<p class=\"note\">No runs.</p>\n";
  } else {
    content += NavHtml(scenarios, page);
    content += OverviewHtml(scenarios, page);
  }
  for (std::size_t i = 0; i < scenarios.size(); ++i) {
    content += ScenarioSection(scenarios[i], i, page);
  }
  content += DefinitionsHtml(page);
  return HtmlPage(title, content, page.charts, options.render_check);
}

}  // namespace

std::string BenchHtml(const std::vector<RunReport>& reports, const HtmlReportOptions& options) {
  return ReportHtml(reports, options, false);
}

std::string RunHtml(const std::vector<RunReport>& reports, const HtmlReportOptions& options) {
  return ReportHtml(reports, options, true);
}

}  // namespace fleetsim
