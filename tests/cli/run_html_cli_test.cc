// `fleetsim run --html` end to end: the whole Microsoft Philly trace (82,247 rows) replayed on 64
// HGX H100 nodes in two pools under three policies gives a page that stays under its size budget
// (kPhillyPageBudget), that headless Chromium lays out with every chart it declares (the page's
// self-check) and screenshots, with the run page's charts (queue, pools, CDFs, a strip per pool
// past the grid's size), and --out beside it writes timeseries.csv for every run; the page is
// the same whatever file it is written to; and --html naming a directory is refused before
// anything runs.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "testutil/chromium.h"
#include "testutil/command.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;
using testing::ReadFile;

// The page of the Philly replay under three policies may not grow past this; it measures about
// 230 kB (docs/outputs.md#run-report-html).
constexpr std::uintmax_t kPhillyPageBudget = 512 * 1024;

std::size_t Count(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (std::size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + what.size())) {
    ++count;
  }
  return count;
}

class RunHtmlCliTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = testing::FreshTempDir(); }
  void TearDown() override {
    if (!HasFailure()) {
      fs::remove_all(dir_);
    }
  }

  CommandResult Fleetsim(const std::string& args) {
    return testing::RunCommand(fmt::format("'{}' {}", FLEETSIM_CLI_PATH, args), dir_);
  }

  // The Philly replay scenario, written into the test's folder; its path.
  std::string PhillyReplay() {
    const std::string trace = testing::SharedTracePath("philly/philly.csv");
    const std::string path = dir_ + "/philly-replay.json";
    std::ofstream(path) << fmt::format(R"({{
  "format_version": 1,
  "name": "philly-replay",
  "description": "The whole Microsoft Philly trace on 64 HGX H100 nodes in two pools.",
  "seed": 1,
  "fleet": {{"pools": [
    {{"name": "h100-a", "template": "hgx-h100", "nodes": 40}},
    {{"name": "h100-b", "template": "hgx-h100", "nodes": 24}}
  ]}},
  "policy": {{"name": "fifo"}},
  "trace": {{"format": "philly", "path": "{}"}},
  "transforms": [{{"fit_to_nodes": {{"gpus_per_node": 8, "max_gpus": 64}}}}]
}}
)",
                                       trace);
    return path;
  }

  std::string dir_;
};

TEST_F(RunHtmlCliTest, APhillyReplayPageStaysSmallAndRendersEveryChart) {
  ASSERT_TRUE(fs::exists(testing::kChromium))
      << testing::kChromium << " is missing; install it with: apt-get install chromium";
  const std::string scenario = PhillyReplay();
  const CommandResult r = Fleetsim(
      fmt::format("run '{}' -p fifo,backfill,fair-share --html '{}/philly.html' --out '{}/out'",
                  scenario, dir_, dir_));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string page = dir_ + "/philly.html";
  ASSERT_TRUE(fs::exists(page));
  EXPECT_LE(fs::file_size(page), kPhillyPageBudget) << "the page outgrew its size budget";
  const std::string html = ReadFile(page);
  EXPECT_NE(html.find("<title>3 policies on philly-replay</title>"), std::string::npos);
  EXPECT_NE(
      html.find(fmt::format("<code>fleetsim run {} -p fifo,backfill,fair-share</code>", scenario)),
      std::string::npos);
  EXPECT_EQ(Count(html, "aria-label=\"Jobs queued over time · philly-replay\""), 1U);
  EXPECT_EQ(Count(html, "aria-label=\"Pool h100-a: share of its GPUs held"), 1U);
  EXPECT_EQ(Count(html, "aria-label=\"Pool h100-b: share of its GPUs held"), 1U);
  EXPECT_EQ(Count(html, "aria-label=\"Wait time, CDF"), 1U);
  EXPECT_EQ(Count(html, "aria-label=\"Completion time, CDF"), 1U);
  // 82,244 jobs' segments are far past the grid's cap: one strip per pool and policy.
  EXPECT_EQ(Count(html, "class=\"strip\""), 2U * 3U);
  EXPECT_EQ(html.find("class=\"job\""), std::string::npos);
  for (const char* policy : {"fifo", "backfill", "fair-share"}) {
    EXPECT_TRUE(fs::exists(fmt::format("{}/out/philly-replay/{}/timeseries.csv", dir_, policy)))
        << policy;
  }

  const CommandResult dom =
      testing::RunCommand(testing::ChromiumCommand(dir_, "--dump-dom", page), dir_);
  ASSERT_EQ(dom.exit_code, 0) << "chromium --dump-dom failed:\n" << dom.err;
  EXPECT_EQ(testing::RenderedAttribute(dom.out), "ok");
  const std::string png = dir_ + "/philly.png";
  const CommandResult shot =
      testing::RunCommand(testing::ChromiumCommand(dir_, "--screenshot='" + png + "'", page), dir_);
  ASSERT_EQ(shot.exit_code, 0) << shot.err;
  EXPECT_GT(fs::file_size(png), 20'000U) << "a blank page would be a few KB";
}

TEST_F(RunHtmlCliTest, TheSameRunsGiveTheSamePageWhateverFileItGoesTo) {
  const std::string scenario = testing::SourcePath("scenarios/examples/tiny-contended.json");
  for (const char* name : {"a.html", "b.html"}) {
    const CommandResult r =
        Fleetsim(fmt::format("run '{}' -p all --html '{}/{}'", scenario, dir_, name));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  EXPECT_EQ(ReadFile(dir_ + "/a.html"), ReadFile(dir_ + "/b.html"));
  EXPECT_NE(ReadFile(dir_ + "/a.html").find("<h2>Headline</h2>"), std::string::npos);
}

TEST_F(RunHtmlCliTest, ADirectoryForThePageIsRefusedBeforeAnythingRuns) {
  fs::create_directories(dir_ + "/a-dir");
  const CommandResult r = Fleetsim(
      fmt::format("run '{}' --html '{}/a-dir' --out '{}/out'",
                  testing::SourcePath("scenarios/examples/tiny-contended.json"), dir_, dir_));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--html: '" + dir_ + "/a-dir' is a directory, not a file"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir_ + "/out"));
}

// The page may not lie in the --out folder, where it could be one of the run's files (issue 19:
// `--html out/comparison.csv` ended in exit 4 and a message about a rename; a scenario named
// "r.html" is a folder there).
TEST_F(RunHtmlCliTest, APageInsideTheRunFolderIsRefusedBeforeAnythingRuns) {
  const std::string scenario = testing::SourcePath("scenarios/examples/tiny-contended.json");
  for (const std::string page :
       {"out/comparison.csv", "out/./tiny-contended/page.html", "out", "out/report.html"}) {
    const CommandResult r = Fleetsim(fmt::format(
        "run '{}' -p fifo,backfill --html '{}/{}' --out '{}/out'", scenario, dir_, page, dir_));
    EXPECT_EQ(r.exit_code, 2) << page << ": " << r.err;
    EXPECT_NE(r.err.find("is inside --out"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir_ + "/out"));
  }
  const CommandResult beside = Fleetsim(fmt::format(
      "run '{}' -p fifo,backfill --html '{}/report.html' --out '{}/out'", scenario, dir_, dir_));
  EXPECT_EQ(beside.exit_code, 0) << beside.err;
  EXPECT_TRUE(fs::exists(dir_ + "/report.html"));
  EXPECT_TRUE(fs::exists(dir_ + "/out/comparison.csv"));
}

}  // namespace
}  // namespace fleetsim
