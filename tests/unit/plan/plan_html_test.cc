// plan.html: one frontier chart per target with a mark per run fleet (filled when it meets every
// target, hollow when not), the answer ringed, the table of run fleets; deterministic; and
// headless Chromium lays out every chart with the shapes it was drawn with. Chromium is
// required: without it the test fails.
#include "fleetsim/plan/plan_html.h"

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

std::size_t Count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

struct Planned {
  PlanLoad load;
  SweepExpansion expansion;
  PlanCandidates candidates;
  PlanOutcome outcome;
};

// The test grid cut to 12 fleets, searched.
Planned Plan(const PolicyRegistry& registry) {
  Planned p;
  p.load =
      LoadPlanSpec(DiskFileSystem(), testing::DataPath("plans/small-grid.json"), registry, true);
  EXPECT_TRUE(p.load.spec);
  PlanSpec& plan = *p.load.spec;
  const auto keep = [&](std::size_t axis, std::vector<std::int64_t> values) {
    std::vector<AxisValue> kept;
    for (const std::int64_t v : values) {
      kept.push_back({.value = v, .label = std::to_string(v)});
    }
    plan.runs.axes[axis].values = kept;
  };
  keep(0, {2, 3, 4});
  keep(1, {0, 2});
  keep(2, {1, 2});
  keep(3, {0});
  p.expansion = ExpandSweep(plan.runs, registry, {});
  p.candidates = BuildCandidates(plan, p.expansion);
  const PlanRunner runner = [&](const std::vector<const SweepPoint*>& points) {
    std::vector<SweepRecord> records;
    for (const SweepPoint* point : points) {
      records.push_back(RunSweepPoint(*point, registry, {}, nullptr));
    }
    return records;
  };
  p.outcome = SearchPlan(plan, p.candidates, runner, {.exhaustive = true});
  return p;
}

TEST(PlanHtmlTest, OneChartPerTargetAMarkPerRunFleetTheAnswerRingedAndATable) {
  const PolicyRegistry registry = BuiltinPolicies();
  const Planned p = Plan(registry);
  ASSERT_TRUE(p.outcome.answer);
  const std::string page = PlanHtml(*p.load.spec, p.candidates, p.outcome);
  EXPECT_EQ(Count(page, "<svg "), p.load.spec->targets.size());
  EXPECT_EQ(Count(page, "class=\"answer\"><title>the answer</title>"), p.load.spec->targets.size());
  EXPECT_EQ(Count(page, "<tr><td>"), p.candidates.candidates.size()) << "every fleet was run";
  EXPECT_EQ(Count(page, "<tr><td><strong>answer</strong> "), 1U);
  EXPECT_NE(page.find("<strong>Answer:</strong> " +
                      DescribeCandidate(*p.load.spec, p.candidates.candidates[*p.outcome.answer])),
            std::string::npos);
  EXPECT_EQ(page, PlanHtml(*p.load.spec, p.candidates, p.outcome)) << "deterministic";
  EXPECT_EQ(page.find("<link"), std::string::npos) << "no external resources";
  EXPECT_EQ(page.find(" src="), std::string::npos) << "no external resources";
}

TEST(PlanHtmlTest, ChromiumRendersEveryChart) {
  // The setup scripts install chromium: a missing browser fails the test, it never skips.
  ASSERT_TRUE(fs::exists(testing::kChromium))
      << testing::kChromium << " is missing; install it with: apt-get install chromium";
  const PolicyRegistry registry = BuiltinPolicies();
  const Planned p = Plan(registry);
  const std::string dir = testing::FreshTempDir();
  std::ofstream(dir + "/plan.html") << PlanHtml(*p.load.spec, p.candidates, p.outcome);
  const testing::CommandResult dom =
      testing::RunCommand(testing::ChromiumCommand(dir, "--dump-dom", dir + "/plan.html"), dir);
  ASSERT_EQ(dom.exit_code, 0) << dom.err;
  EXPECT_EQ(testing::RenderedAttribute(dom.out), "ok");
}

}  // namespace
}  // namespace fleetsim
