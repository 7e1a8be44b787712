// BenchHtml on hand-made reports: the page's structure (one table and one GPU x time grid per
// scenario, the first grid unfolded, the deltas against fifo), escaping of every text it shows,
// byte-identical output for identical input, nothing fetched from anywhere (no external links,
// scripts, styles or fonts), the shape counts the self-check compares against, and what it says
// when the reports carry no timeline. The page is rendered in Chromium by html_render_test.cc.
#include "fleetsim/report/html_report.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string_view>

#include "fleetsim/core/version.h"
#include "fleetsim/report/report_style.h"
#include "fleetsim/report/run_charts.h"

namespace fleetsim {
namespace {

constexpr SimTime kHour = 3'600'000;

std::size_t Count(std::string_view text, std::string_view what) {
  std::size_t count = 0;
  for (std::size_t at = text.find(what); at != std::string_view::npos;
       at = text.find(what, at + what.size())) {
    ++count;
  }
  return count;
}

// A tiny timeline on 2 GPUs over [0, 2 h): one job on GPU 0 for the first hour.
AllocationTimelineData TinyTimeline(JobKind kind) {
  AllocationTimelineData t;
  t.fleet_gpus = 2;
  t.window_start = 0;
  t.window_end = 2 * kHour;
  t.segments.push_back(
      {.job = 0, .start = 0, .end = kHour, .gpus = {0}, .gpu_share = 1, .kind = kind});
  t.busy.push_back({.start = 0, .end = kHour, .gpus = 1});
  return t;
}

ScenarioFacts Named(const std::string& name) {
  ScenarioFacts facts;
  facts.name = name;
  return facts;
}

RunReport MakeRun(const ScenarioFacts& scenario, const std::string& policy, double utilization,
                  double output, bool with_timeline, std::uint64_t seed = 7) {
  RunReport r;
  r.scenario = scenario;
  r.policy.name = policy;
  r.seed = seed;
  r.metrics.fleet_gpus = 2;
  r.metrics.window_end = 2 * kHour;
  r.accounting.utilization = utilization;
  r.metrics.jobs_total = 3;
  r.metrics.jobs_completed = 2;
  r.metrics.wait_p99_s = 5400;
  r.accounting.priority_weighted_output = output;
  r.realtime.unmet_gpu_hours = 1.5;
  JobRecordRow job;
  job.id = "job<0>";
  r.jobs.push_back(job);
  if (with_timeline) {
    r.timeline = TinyTimeline(JobKind::kPretraining);
  }
  return r;
}

struct Fixture {
  ScenarioFacts first;
  ScenarioFacts second;
  std::vector<RunReport> reports;

  explicit Fixture(bool with_timeline) {
    first.name = "first <b>&amp;</b>";
    first.description = "a \"quoted\" 'description' <script>alert(1)</script>";
    second.name = "second";
    for (const ScenarioFacts* s : {&first, &second}) {
      reports.push_back(MakeRun(*s, "fifo", 0.5, 100, with_timeline));
      reports.push_back(MakeRun(*s, "first-fit", 0.55, 90, with_timeline));
      reports.push_back(MakeRun(*s, "constraint-aware", 0.6, 150, with_timeline));
    }
    reports[5].cost.total_usd = 1234.6;
  }
};

TEST(HtmlReportTest, OneTableAndOneGridPerScenarioTheFirstUnfolded) {
  const Fixture f(/*with_timeline=*/true);
  const std::string html = BenchHtml(f.reports, {});
  EXPECT_EQ(html.rfind("<!DOCTYPE html>\n", 0), 0U);
  EXPECT_NE(html.find(std::string("fleetsim ") + kVersion), std::string::npos);
  EXPECT_EQ(Count(html, "<table class=\"summary\">"), 2U);
  EXPECT_EQ(Count(html, "<details"), 2U);
  EXPECT_EQ(Count(html, "<details open>"), 1U);
  EXPECT_LT(html.find("<details open>"), html.find("<details>"));
  EXPECT_EQ(Count(html, "aria-label=\"GPU × time allocation · "), 2U);
  EXPECT_EQ(Count(html, "aria-label=\"Utilization over time · "), 2U);
  // Two overview charts, and per scenario utilization over time and the grid.
  EXPECT_EQ(Count(html, "<svg "), 6U);
  EXPECT_NE(html.find("<body data-charts=\"6\">"), std::string::npos);
  // The grid: constraint-aware above fifo.
  const std::size_t grid = html.find("aria-label=\"GPU × time allocation · second");
  ASSERT_NE(grid, std::string::npos);
  const std::size_t above = html.find(">constraint-aware</text>", grid);
  const std::size_t below = html.find(">fifo</text>", grid);
  ASSERT_NE(above, std::string::npos);
  ASSERT_NE(below, std::string::npos);
  EXPECT_LT(above, below);
  // A grid bar names its job, kind, priority and hours.
  EXPECT_NE(html.find("<title>job&lt;0&gt; · pretraining · priority 1 · 0–1 h · 1 GPU</title>"),
            std::string::npos);
}

TEST(HtmlReportTest, TheTableShowsDeltasAgainstFifo) {
  const Fixture f(/*with_timeline=*/true);
  const std::string html = BenchHtml(f.reports, {});
  // constraint-aware: 60 % vs 50 %, output 150 vs 100; first-fit: 55 %, 90.
  EXPECT_NE(html.find("<td>60.0 %</td><td class=\"pos\">+10.0 pp</td><td>150.0</td>"
                      "<td class=\"pos\">+50.0 %</td>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<td class=\"pos\">+5.0 pp</td><td>90.0</td><td class=\"neg\">−10.0 %</td>"),
            std::string::npos);
  EXPECT_EQ(Count(html, "<td class=\"baseline\">baseline</td>"), 4U);
  EXPECT_NE(html.find("<td>2 / 3</td><td>1.50</td><td>1.5</td>"), std::string::npos);
  EXPECT_NE(html.find("<td>$1,235</td>"), std::string::npos);
  EXPECT_NE(html.find("<td title=\"a pool has no price\">n/a</td>"), std::string::npos);
}

TEST(HtmlReportTest, EscapesEveryText) {
  const Fixture f(/*with_timeline=*/true);
  HtmlReportOptions options;
  options.title = "R&D <report>";
  const std::string html = BenchHtml(f.reports, options);
  EXPECT_EQ(html.find("<b>"), std::string::npos);
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  EXPECT_EQ(html.find("<report>"), std::string::npos);
  EXPECT_NE(html.find("first &lt;b&gt;&amp;amp;&lt;/b&gt;"), std::string::npos);
  EXPECT_NE(html.find("a &quot;quoted&quot; &#39;description&#39; &lt;script&gt;alert(1)"),
            std::string::npos);
  EXPECT_NE(html.find("<title>R&amp;D &lt;report&gt;</title>"), std::string::npos);
  EXPECT_EQ(HtmlEscape("<a href='x'>\"&\"</a>"),
            "&lt;a href=&#39;x&#39;&gt;&quot;&amp;&quot;&lt;/a&gt;");
}

TEST(HtmlReportTest, IdenticalInputGivesAnIdenticalPage) {
  const Fixture f(/*with_timeline=*/true);
  const Fixture g(/*with_timeline=*/true);
  EXPECT_EQ(BenchHtml(f.reports, {}), BenchHtml(f.reports, {}));
  EXPECT_EQ(BenchHtml(f.reports, {}), BenchHtml(g.reports, {}));
}

TEST(HtmlReportTest, FetchesNothing) {
  const Fixture f(/*with_timeline=*/true);
  std::string html = BenchHtml(f.reports, {});
  // The SVG namespace is a name, not a fetch; it is the only URL.
  const std::string xmlns = "xmlns=\"http://www.w3.org/2000/svg\"";
  EXPECT_EQ(Count(html, xmlns), 6U);
  for (std::size_t at = html.find(xmlns); at != std::string::npos; at = html.find(xmlns)) {
    html.erase(at, xmlns.size());
  }
  for (const char* forbidden : {"http://", "https://", "//cdn", "<link", "<script src",
                                "src=", "@import", "url(", "<img", "<iframe", "@font-face"}) {
    EXPECT_EQ(html.find(forbidden), std::string::npos) << forbidden;
  }
  // The one inline script is the self-check; without it there is none.
  EXPECT_EQ(Count(html, "<script>"), 1U);
  HtmlReportOptions no_check;
  no_check.render_check = false;
  EXPECT_EQ(BenchHtml(f.reports, no_check).find("<script"), std::string::npos);
}

// Each chart declares its shape counts for the self-check; they match the markup.
TEST(HtmlReportTest, ChartsDeclareTheShapesTheyHold) {
  const Fixture f(/*with_timeline=*/true);
  const std::string html = BenchHtml(f.reports, {});
  std::size_t charts = 0;
  for (std::size_t at = html.find("<svg "); at != std::string::npos;
       at = html.find("<svg ", at + 1)) {
    const std::size_t end = html.find("</svg>", at);
    ASSERT_NE(end, std::string::npos);
    const std::string_view svg = std::string_view(html).substr(at, end - at);
    for (const char* shape : {"rect", "path", "line", "text"}) {
      const std::string declared = "data-" + std::string(shape) + "s=\"" +
                                   std::to_string(Count(svg, "<" + std::string(shape) + " ")) +
                                   "\"";
      EXPECT_NE(svg.find(declared), std::string_view::npos) << "chart " << charts << ": " << shape;
    }
    ++charts;
  }
  EXPECT_EQ(charts, 6U);
}

TEST(HtmlReportTest, WithoutTimelinesItSaysSoInsteadOfDrawing) {
  const Fixture f(/*with_timeline=*/false);
  const std::string html = BenchHtml(f.reports, {});
  EXPECT_EQ(Count(html, "recorded no allocation timeline"), 2U);
  EXPECT_EQ(Count(html, "<details"), 0U);
  EXPECT_EQ(Count(html, "<svg "), 2U) << "the overview bars need no timeline";
  EXPECT_EQ(Count(html, "<table class=\"summary\">"), 2U);
}

TEST(HtmlReportTest, AScenarioWithoutFifoHasNoDeltas) {
  const ScenarioFacts only = Named("no-baseline");
  const std::vector<RunReport> reports = {MakeRun(only, "first-fit", 0.5, 10, true),
                                          MakeRun(only, "constraint-aware", 0.6, 20, true)};
  const std::string html = BenchHtml(reports, {});
  // Two in the table, two in the headline's row (no fifo to compare with).
  EXPECT_EQ(Count(html, "<td>n/a</td>"), 4U + 2U);
  EXPECT_NE(html.find("have no bars"), std::string::npos);
  // The grid draws the constraint-aware run alone.
  EXPECT_EQ(Count(html, "aria-label=\"GPU × time allocation · "), 1U);
}

TEST(HtmlReportTest, TheGridShowsDownNodes) {
  Fixture f(/*with_timeline=*/true);
  f.reports[2].timeline->down.push_back(
      {.start = kHour, .end = 2 * kHour, .first_gpu = 1, .gpus = 1});
  const std::string html = BenchHtml(f.reports, {});
  EXPECT_EQ(Count(html, "<title>node down · 1–2 h</title>"), 1U);
  EXPECT_EQ(Count(html, ">node down</text>"), 1U) << "in the first scenario's legend only";
}

TEST(HtmlReportTest, TheHeadlineComesFirstWithThePostsFiguresBesideOurs) {
  const Fixture f(/*with_timeline=*/true);
  PublishedSet published;
  published.source = "the post";
  published.scenarios["second"] = {.fifo_utilization = "53.6 %",
                                   .allocator_utilization = "87.0 % (+33.4 pp)",
                                   .output_gain = "+105.1 %"};
  const std::string html =
      BenchHtml(f.reports, {.published = &published, .reproduce = "fleetsim bench x --html r"});
  EXPECT_NE(html.find("<title>constraint-aware vs fifo on 2 scenarios</title>"), std::string::npos);
  const std::size_t headline = html.find("<h2>Headline</h2>");
  ASSERT_NE(headline, std::string::npos);
  EXPECT_LT(headline, html.find("<nav>"));
  EXPECT_LT(headline, html.find("<dl class=\"definitions\">"));
  EXPECT_NE(html.find("priority-weighted output higher in 2 of 2 scenarios, equal in 0, lower in "
                      "0 (+50.0 % to +50.0 %); utilization +10.0 to +10.0 pp. constraint-aware "
                      "has the highest output of all policies in 2 of 2."),
            std::string::npos);
  // Ours beside the post's, in the row of the scenario the figures are for.
  const std::size_t row = html.find("<td><a href=\"#scenario-2\">second</a></td>");
  ASSERT_NE(row, std::string::npos);
  EXPECT_EQ(html.find("<td>+10.0 pp (50.0 → 60.0 %)</td><td class=\"published\">53.6 % → 87.0 % "
                      "(+33.4 pp)</td><td>+50.0 %</td><td class=\"published\">+105.1 %</td>"
                      "<td>constraint-aware</td>",
                      row),
            row + std::string("<td><a href=\"#scenario-2\">second</a></td>").size());
  EXPECT_NE(html.find("Reproduce: <code>fleetsim bench x --html r</code> · fleetsim " +
                      std::string(kVersion) +
                      " · seeds: first &lt;b&gt;&amp;amp;&lt;/b&gt; 7, "
                      "second 7"),
            std::string::npos);
}

TEST(HtmlReportTest, PoliciesKeepTheirStyleAndTiesAreNamed) {
  const ScenarioFacts tie = Named("tie");
  const std::vector<RunReport> reports = {MakeRun(tie, "fifo", 0.5, 10, true),
                                          MakeRun(tie, "backfill", 0.5, 10, true),
                                          MakeRun(tie, "my-policy", 0.5, 10, true)};
  const std::string html = BenchHtml(reports, {});
  EXPECT_NE(html.find("<title>3 policies on tie</title>"), std::string::npos);
  EXPECT_NE(html.find(">all tie</text>"), std::string::npos);
  EXPECT_NE(html.find("All 3 policies tie on utilization and priority-weighted output here: every "
                      "job started and ended at the same time"),
            std::string::npos);
  // Each policy's line has its dash and its markers, so identical lines stay visible.
  for (const char* policy : {"fifo", "backfill", "my-policy"}) {
    const SeriesStyle style = PolicyStyle(policy);
    EXPECT_NE(html.find(fmt::format("stroke=\"{}\" class=\"marker", style.colour)),
              std::string::npos)
        << policy;
  }
  EXPECT_NE(html.find(fmt::format("stroke=\"{}\" class=\"series\" stroke-dasharray=\"{}\"",
                                  PolicyStyle("fifo").colour, PolicyStyle("fifo").dash)),
            std::string::npos);
  // Different schedules with equal totals are told apart.
  std::vector<RunReport> reshuffled = reports;
  reshuffled[1].jobs[0].start = kHour;
  EXPECT_NE(BenchHtml(reshuffled, {}).find("though their schedules differ"), std::string::npos);
}

TEST(HtmlReportTest, TheGridBandsItsPoolsAndSummarizesLargeFleets) {
  Fixture f(/*with_timeline=*/true);
  for (RunReport& r : f.reports) {
    r.timeline->bands = {
        {.pool = "h100-reserved", .model = "H100-SXM", .first_gpu = 0, .end_gpu = 1},
        {.pool = "b200-spot", .model = "B200", .first_gpu = 1, .end_gpu = 2}};
  }
  const std::string html = BenchHtml(f.reports, {});
  EXPECT_NE(html.find("<title>pool b200-spot · B200 · GPUs 1–1</title>"), std::string::npos);
  EXPECT_NE(html.find(">b200-spot · B200</text>"), std::string::npos);
  EXPECT_NE(html.find(">h100-reserved</text>"), std::string::npos) << "both would not fit";
  EXPECT_NE(html.find("class=\"band\""), std::string::npos);

  HtmlReportOptions capped;
  capped.grid.max_gpu_rows = 1;
  const std::string strips = BenchHtml(f.reports, capped);
  EXPECT_EQ(strips.find("class=\"job\""), std::string::npos) << "no GPU rows past the cap";
  // Per pool and panel (2 panels x 2 scenarios), a strip of the share held over time.
  EXPECT_EQ(Count(strips, "class=\"strip\""), 2U * 2U * 2U);
  EXPECT_NE(strips.find("<title>h100-reserved: share of its 1 GPUs held over time</title>"),
            std::string::npos);
}

// A series over [0, 2 h) in two 1-hour slices, for the fleet and two pools of one GPU each.
FleetSeriesData TinySeries(double queued_first_hour) {
  FleetSeriesData s;
  s.start = 0;
  s.end = 2 * kHour;
  s.slice = kHour;
  s.scopes = {
      {.pool = "", .gpus = 2}, {.pool = "pool-a", .gpus = 1}, {.pool = "pool-b", .gpus = 1}};
  s.integrals.assign(2, std::vector<SliceIntegrals>(3));
  s.integrals[0][0][static_cast<std::size_t>(SeriesMeasure::kQueued)] = queued_first_hour * kHour;
  s.integrals[0][1][static_cast<std::size_t>(SeriesMeasure::kHeld)] = 1.0 * kHour;
  return s;
}

TEST(HtmlReportTest, TheRunPageAddsQueuePoolsDistributionsAndEveryRunsGrid) {
  Fixture f(/*with_timeline=*/true);
  for (RunReport& r : f.reports) {
    r.series = TinySeries(3);
    r.jobs[0].state = FinalState::kCompleted;
    r.jobs[0].started = true;
    r.jobs[0].start = kHour / 2;
    r.jobs[0].end = kHour;
  }
  const std::string html = RunHtml(f.reports, {});
  EXPECT_EQ(Count(html, "aria-label=\"Jobs queued over time · "), 2U);
  EXPECT_EQ(Count(html, "aria-label=\"Pool pool-a: share of its GPUs held · "), 2U);
  EXPECT_EQ(Count(html, "aria-label=\"Pool pool-b: share of its GPUs held · "), 2U);
  EXPECT_EQ(Count(html, "aria-label=\"Wait time, CDF over the jobs submitted · "), 2U);
  EXPECT_EQ(Count(html, "aria-label=\"Completion time, CDF over the jobs submitted · "), 2U);
  // Every run of a scenario has its panel in the grid, not only constraint-aware and fifo.
  EXPECT_EQ(Count(html, "class=\"title\">first-fit</text>"), 2U);
  EXPECT_EQ(Count(BenchHtml(f.reports, {}), "class=\"title\">first-fit</text>"), 0U);
  EXPECT_NE(html.find("<title>fifo: 1 of 1 jobs (100.0 %)</title>"), std::string::npos);
  EXPECT_EQ(html, RunHtml(f.reports, {})) << "deterministic";
  // The bench page of the same runs has none of the run page's charts.
  EXPECT_EQ(BenchHtml(f.reports, {}).find("Jobs queued over time"), std::string::npos);
}

TEST(HtmlReportTest, TheRunPageNamesSeedsAndLeavesOutAHeadlineItCannotDraw) {
  const ScenarioFacts only = Named("only");
  std::vector<RunReport> reports;
  for (const std::uint64_t seed : {1U, 2U}) {
    reports.push_back(MakeRun(only, "backfill", 0.5, 10, true, seed));
  }
  const std::string html = RunHtml(reports, {});
  EXPECT_NE(html.find("<h2>only · seed 1</h2>"), std::string::npos);
  EXPECT_NE(html.find("<h2>only · seed 2</h2>"), std::string::npos);
  EXPECT_EQ(html.find("<h2>Headline</h2>"), std::string::npos) << "no fifo, no constraint-aware";
  EXPECT_NE(BenchHtml(reports, {}).find("<h2>Headline</h2>"), std::string::npos);
}

TEST(HtmlReportTest, ASeedRangeOfSeveralPoliciesComparesThePoliciesOfEachSeed) {
  const ScenarioFacts s = Named("s");
  // As `run -p fifo,constraint-aware --seed 1-2` orders them: policy by policy, seed by seed.
  std::vector<RunReport> reports;
  for (const char* policy : {"fifo", "constraint-aware"}) {
    for (const std::uint64_t seed : {1U, 2U}) {
      reports.push_back(
          MakeRun(s, policy, 0.5, policy == std::string("fifo") ? 10 : 12, true, seed));
    }
  }
  const std::string html = RunHtml(reports, {});
  EXPECT_EQ(Count(html, "<h2>s · seed 1</h2>"), 1U);
  EXPECT_EQ(Count(html, "<h2>s · seed 2</h2>"), 1U);
  EXPECT_EQ(Count(html, "<table class=\"summary\">"), 2U) << "one table per seed";
  EXPECT_NE(html.find("<title>constraint-aware vs fifo on s</title>"), std::string::npos);
  EXPECT_NE(html.find("1 scenarios · 4 runs"), std::string::npos);
  EXPECT_NE(html.find("higher in 2 of 2 scenario-seed pairs"), std::string::npos);
  EXPECT_EQ(Count(html, "<td class=\"pos\">+20.0 %</td>"), 2U);
  // The charts name the seed too: the overview's groups and each section's charts.
  EXPECT_EQ(Count(html, ">s · seed 2</text>"), 2U) << "under both overview charts' bars";
  EXPECT_EQ(Count(html, "aria-label=\"Utilization over time · s · seed 2\""), 1U);
}

TEST(HtmlReportTest, TitlesCountThePoliciesThePageHas) {
  const ScenarioFacts s = Named("s");
  EXPECT_NE(
      RunHtml({MakeRun(s, "backfill", 0.5, 10, true)}, {}).find("<title>backfill on s</title>"),
      std::string::npos);
  EXPECT_NE(RunHtml({MakeRun(s, "constraint-aware", 0.5, 10, true)}, {})
                .find("<title>constraint-aware on s</title>"),
            std::string::npos)
      << "no fifo run: no 'vs fifo'";
  EXPECT_NE(
      RunHtml({MakeRun(s, "backfill", 0.5, 10, true), MakeRun(s, "fair-share", 0.5, 10, true)}, {})
          .find("<title>2 policies on s</title>"),
      std::string::npos);
}

TEST(HtmlReportTest, ACdfLineGoesThroughAtMost200Quantiles) {
  const ScenarioFacts s = Named("s");
  RunReport run = MakeRun(s, "fifo", 0.5, 10, true);
  run.jobs.assign(1000, JobRecordRow{});
  for (std::size_t i = 0; i < run.jobs.size(); ++i) {
    JobRecordRow& job = run.jobs[i];
    job.state = i < 900 ? FinalState::kCompleted : FinalState::kQueued;
    job.started = i < 900;
    job.start = static_cast<SimTime>(i) * 60'000;
    job.end = job.start + kHour;
  }
  const CdfLine waits = WaitTimes(run);
  EXPECT_EQ(waits.seconds.size(), 900U);
  EXPECT_EQ(waits.jobs, 1000U);
  Svg svg = CdfChart({waits}, "waits", "start − submit");
  const std::string chart = svg.Finish(1, "waits");
  // The line's path comes before its markers, which carry the same title.
  const std::size_t title = chart.find("<title>fifo: 900 of 1000 jobs (90.0 %)</title>");
  ASSERT_NE(title, std::string::npos);
  const std::size_t path = chart.rfind("<path d=\"M", title);
  ASSERT_NE(path, std::string::npos);
  const std::string d = chart.substr(path, chart.find('"', path + 9) - path);
  EXPECT_LE(Count(d, " L") + 1, kCdfPoints);
  EXPECT_GE(Count(d, " L") + 1, kCdfPoints / 2) << "900 waits in groups of 5: 180 points";
  // The line ends at the share of jobs that started, 90 %: the plot runs from y = 236 (0 %) to
  // y = 46 (100 %), so at y = 65.
  EXPECT_TRUE(d.ends_with(" 65.0")) << d.substr(d.size() - 40);
}

TEST(HtmlReportTest, NoReportsGiveAPageSayingSo) {
  const std::string html = BenchHtml({}, {});
  EXPECT_NE(html.find("No runs."), std::string::npos);
  EXPECT_NE(html.find("</html>"), std::string::npos);
}

}  // namespace
}  // namespace fleetsim
