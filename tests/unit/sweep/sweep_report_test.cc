// The sweep report: a grid with two numeric axes gets line charts (with confidence bars and the
// baseline as a reference line) and heatmaps, a grid without one gets bar charts, the table lists
// every cell, the page is deterministic, and headless Chromium lays out every chart with the
// shapes it was drawn with (the page's self-check), failing when a chart is tampered with.
// Chromium is required: without it the test fails.
#include "fleetsim/sweep/sweep_report.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "fleetsim/sweep/sweep_runner.h"
#include "testutil/chromium.h"
#include "testutil/command.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

namespace fs = std::filesystem;

struct Swept {
  SweepLayout layout;
  SweepRecords records;
};

// Runs a spec over the sweep fixture's base scenario (tests/data/sweep/base.json).
Swept RunSpec(const std::string& axes) {
  const std::string dir = testing::FreshTempDir();
  fs::copy_file(testing::DataPath("sweep/base.json"), dir + "/base.json");
  std::ofstream(dir + "/spec.json") << R"({"format_version": 1, "kind": "sweep", "name": "r",
    "base": "base.json", "axes": )" << axes
                                    << "}";
  const PolicyRegistry registry = BuiltinPolicies();
  const SweepLoad load = LoadSweepSpec(DiskFileSystem(), dir + "/spec.json", registry, true);
  EXPECT_TRUE(load.spec) << load.diagnostics.Format("spec");
  const SweepExpansion expansion = ExpandSweep(*load.spec, registry, {});
  Swept swept{.layout = MakeLayout(*load.spec, expansion), .records = {}};
  for (const SweepPoint& point : expansion.points) {
    swept.records[point.id] = RunSweepPoint(point, registry, {}, nullptr);
  }
  fs::remove_all(dir);
  return swept;
}

const char* kTwoNumericAxes = R"([
  {"name": "policy", "values": ["fifo", "constraint-aware"]},
  {"param": "decay", "values": [0.8, 0.95]},
  {"name": "nodes", "pointer": "/fleet/pools/0/nodes", "values": [1, 2]},
  {"name": "seed", "values": [1, 2, 3]}])";

std::size_t Count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

TEST(SweepReportTest, NumericAxesGetLinesAndHeatmaps) {
  const Swept s = RunSpec(kTwoNumericAxes);
  const std::string page = SweepHtml(s.layout, s.records, SummarizeCells(s.layout, s.records), {});
  // Four metrics by default, each a line chart (one scenario) and a heatmap (constraint-aware).
  EXPECT_EQ(Count(page, "<svg "), 8U);
  EXPECT_NE(page.find("small · utilization over decay"), std::string::npos);
  EXPECT_NE(page.find("utilization by decay and nodes"), std::string::npos);
  EXPECT_NE(page.find("class=\"series baseline\""), std::string::npos)
      << "fifo has no decay: a reference line";
  EXPECT_NE(page.find("class=\"whisker\""), std::string::npos) << "confidence bars from 3 seeds";
  // The table: a row per cell (fifo x 2 node counts, constraint-aware x 2 x 2).
  EXPECT_EQ(Count(page, "<tr><td>small</td>"), 6U);
  EXPECT_EQ(page, SweepHtml(s.layout, s.records, SummarizeCells(s.layout, s.records), {}))
      << "deterministic";
  EXPECT_EQ(Count(page, "http"), Count(page, "http://www.w3.org/2000/svg"))
      << "no external resources";
}

TEST(SweepReportTest, WithoutANumericAxisEachCellIsABar) {
  const Swept s = RunSpec(R"([{"name": "policy", "values": ["fifo", "backfill"]},
                              {"name": "seed", "values": [1, 2]}])");
  const std::string page = SweepHtml(s.layout, s.records, SummarizeCells(s.layout, s.records), {});
  EXPECT_EQ(Count(page, "<svg "), 4U);
  EXPECT_EQ(Count(page, "<tr><td>small</td>"), 2U);
}

TEST(SweepReportTest, ChromiumRendersEveryChart) {
  // The setup scripts install chromium: a missing browser fails the test, it never skips.
  ASSERT_TRUE(fs::exists(testing::kChromium))
      << testing::kChromium << " is missing; install it with: apt-get install chromium";
  const Swept s = RunSpec(kTwoNumericAxes);
  const std::string dir = testing::FreshTempDir();
  std::ofstream(dir + "/report.html")
      << SweepHtml(s.layout, s.records, SummarizeCells(s.layout, s.records), {});
  const testing::CommandResult dom =
      testing::RunCommand(testing::ChromiumCommand(dir, "--dump-dom", dir + "/report.html"), dir);
  ASSERT_EQ(dom.exit_code, 0) << dom.err;
  EXPECT_EQ(testing::RenderedAttribute(dom.out), "ok");
  std::string tampered = SweepHtml(s.layout, s.records, SummarizeCells(s.layout, s.records), {});
  const std::string key = "data-paths=\"";
  tampered.insert(tampered.find(key) + key.size(), "1");
  std::ofstream(dir + "/tampered.html") << tampered;
  const testing::CommandResult bad =
      testing::RunCommand(testing::ChromiumCommand(dir, "--dump-dom", dir + "/tampered.html"), dir);
  ASSERT_EQ(bad.exit_code, 0) << bad.err;
  EXPECT_NE(testing::RenderedAttribute(bad.out).find("chart-1: "), std::string::npos)
      << testing::RenderedAttribute(bad.out);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fleetsim
