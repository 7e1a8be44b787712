// The bench report, rendered by a real browser: real runs of a benchmark scenario (fifo and
// constraint-aware, with timelines) go through BenchHtml into a file that headless Chromium
// (Debian's `chromium`) opens offline. The page's self-check script must report every chart laid
// out with the shapes it was drawn with (<body data-rendered="ok"> in the dumped DOM), and a
// screenshot must come out as a non-trivial PNG; a page with a wrong shape count must fail the
// self-check. When /usr/bin/chromium is missing the test fails, saying how to install it (the
// setup scripts install it). Each Chromium launch is bounded by `timeout 60`.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "fleetsim/policy/registry.h"
#include "fleetsim/report/html_report.h"
#include "fleetsim/scenario/runner.h"
#include "testutil/chromium.h"
#include "testutil/command.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

using testing::ChromiumCommand;
using testing::kChromium;
using testing::RenderedAttribute;

std::vector<RunReport> RunBenchmarkScenario(const Scenario& scenario,
                                            const PolicyRegistry& registry) {
  std::vector<RunReport> reports;
  for (const char* policy : {"fifo", "constraint-aware"}) {
    RunOptions options;
    options.seed = scenario.seed;
    options.record_timeline = true;
    RunOutcome outcome =
        RunScenario(scenario, registry, ChoosePolicy(scenario, registry, policy), options);

    EXPECT_TRUE(outcome.status.ok()) << outcome.status.message();
    reports.push_back(std::move(outcome.report));
  }
  return reports;
}

TEST(HtmlRenderTest, ChromiumRendersEveryChartOfTheBenchReport) {
  // The setup scripts install chromium: a missing browser fails the test, it never skips.
  ASSERT_TRUE(std::filesystem::exists(kChromium))
      << kChromium << " is missing; install it with: apt-get install chromium";
  const PolicyRegistry registry = BuiltinPolicies();
  const LoadResult loaded = LoadScenarioFile(
      testing::SourcePath("scenarios/benchmark/01-training-heavy.json"), registry, {});
  ASSERT_TRUE(loaded.scenario) << loaded.file_status << loaded.diagnostics.Format("scenario");
  const std::vector<RunReport> reports = RunBenchmarkScenario(*loaded.scenario, registry);
  ASSERT_EQ(reports.size(), 2U);
  ASSERT_TRUE(reports[0].timeline && reports[1].timeline);

  const std::string dir = testing::FreshTempDir();
  const std::string page = dir + "/report.html";
  {
    std::ofstream out(page, std::ios::binary);
    out << BenchHtml(reports, {});
    ASSERT_TRUE(out.good()) << "could not write " << page;
  }

  const testing::CommandResult dom =
      testing::RunCommand(ChromiumCommand(dir, "--dump-dom", page), dir);
  ASSERT_EQ(dom.exit_code, 0) << "chromium --dump-dom failed:\n" << dom.err;
  EXPECT_EQ(RenderedAttribute(dom.out), "ok") << "the page's self-check reported problems";
  // Four charts: two overview bars, utilization over time and the grid.
  EXPECT_NE(dom.out.find("data-charts=\"4\""), std::string::npos);

  // The check is not vacuous: a chart declaring one rect too many is reported.
  std::string tampered = BenchHtml(reports, {});
  const std::size_t declared = tampered.find("data-rects=\"");
  ASSERT_NE(declared, std::string::npos);
  tampered.insert(declared + std::string("data-rects=\"").size(), "1");
  const std::string bad_page = dir + "/tampered.html";
  {
    std::ofstream out(bad_page, std::ios::binary);
    out << tampered;
  }
  const testing::CommandResult bad_dom =
      testing::RunCommand(ChromiumCommand(dir, "--dump-dom", bad_page), dir);
  ASSERT_EQ(bad_dom.exit_code, 0) << bad_dom.err;
  EXPECT_NE(RenderedAttribute(bad_dom.out).find("chart-1: "), std::string::npos)
      << RenderedAttribute(bad_dom.out);

  const std::string png = dir + "/report.png";
  const testing::CommandResult shot =
      testing::RunCommand(ChromiumCommand(dir, "--screenshot='" + png + "'", page), dir);
  ASSERT_EQ(shot.exit_code, 0) << "chromium --screenshot failed:\n" << shot.err;
  ASSERT_TRUE(std::filesystem::exists(png)) << shot.err;
  EXPECT_GT(std::filesystem::file_size(png), 20'000U) << "a blank page would be a few KB";
  const std::string header = testing::ReadFile(png).substr(0, 8);
  EXPECT_EQ(header, "\x89PNG\r\n\x1a\n");
  // Kept for a look when something failed; the Chromium profile alone is a few MB.
  if (HasFailure()) {
    ADD_FAILURE() << "the page, screenshot and Chromium profile are in " << dir;
  } else {
    std::filesystem::remove_all(dir);
  }
}

}  // namespace
}  // namespace fleetsim
