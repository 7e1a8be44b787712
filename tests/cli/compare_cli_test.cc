// End-to-end tests of `fleetsim compare`: identical files exit 0, drift exits 5 and the report
// names the scenario, policy and metric, tolerances on the command line, and the exit statuses
// and messages for unreadable or invalid files (1) and bad usage (2).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "testutil/command.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;

// A two-result file in the shape of `fleetsim bench --json`; `utilization` is fifo's.
std::string Results(const std::string& utilization) {
  return fmt::format(R"({{
  "format_version": 1,
  "fleetsim_version": "0.1.0",
  "results": [
    {{"scenario": "01-training-heavy", "policy": "fifo", "seed": 7,
     "metrics": {{"utilization": {}, "jobs_completed": 6, "wait_p99_s": 85980.0,
                 "cost_usd": null}}}},
    {{"scenario": "01-training-heavy", "policy": "constraint-aware", "seed": 7,
     "metrics": {{"utilization": 0.87, "jobs_completed": 9, "wait_p99_s": 4000.0,
                 "cost_usd": null}}}}
  ]
}}
)",
                     utilization);
}

class CompareCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::FreshTempDir();
    golden_ = Write("golden.json", Results("0.786"));
  }
  void TearDown() override { fs::remove_all(dir_); }

  CommandResult Fleetsim(const std::string& args) {
    return testing::RunCommand(fmt::format("'{}' {}", FLEETSIM_CLI_PATH, args), dir_);
  }
  std::string Write(const std::string& name, const std::string& text) {
    std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  std::string dir_;
  std::string golden_;
};

TEST_F(CompareCliTest, IdenticalFilesPass) {
  const std::string same = Write("same.json", Results("0.786"));
  const CommandResult r = Fleetsim(fmt::format("compare '{}' '{}'", golden_, same));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, fmt::format("baseline: {} (fleetsim 0.1.0, 2 results)\n"
                               "current:  {} (fleetsim 0.1.0, 2 results)\n"
                               "tolerance: exact (any difference is drift)\n"
                               "\n"
                               "2 results compared, identical\n",
                               golden_, same));
  // A file against itself, too.
  EXPECT_EQ(Fleetsim(fmt::format("compare '{}' '{}'", golden_, golden_)).exit_code, 0);
}

TEST_F(CompareCliTest, AnAlteredResultExitsFiveAndNamesWhatDrifted) {
  const std::string altered = Write("altered.json", Results("0.79"));
  const CommandResult r = Fleetsim(fmt::format("compare '{}' '{}'", golden_, altered));
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  EXPECT_EQ(r.err, "");
  // Each line stands alone: scenario, policy, seed, metric, values, change, verdict.
  EXPECT_NE(r.out.find("\n01-training-heavy  fifo  seed 7  utilization  0.786 -> 0.79  "
                       "+0.004 (+0.509%)  beyond tolerance (exact)\n"
                       "\n"
                       "2 results compared, 1 metric differs beyond tolerance\n"),
            std::string::npos)
      << r.out;
}

TEST_F(CompareCliTest, ATolerancePassesSmallDifferencesButListsThem) {
  const std::string altered = Write("altered.json", Results("0.79"));
  for (const std::string tolerance : {"--tolerance 0.01", "--tolerance=1%", "-t utilization=0.01",
                                      "-t 0.5 -t utilization=0.01"}) {
    const CommandResult r =
        Fleetsim(fmt::format("compare {} '{}' '{}'", tolerance, golden_, altered));
    EXPECT_EQ(r.exit_code, 0) << tolerance << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("01-training-heavy  fifo  seed 7  utilization  0.786 -> 0.79  "
                         "+0.004 (+0.509%)  within tolerance (±0.01)\n"),
              std::string::npos)
        << tolerance << "\n"
        << r.out;
    EXPECT_NE(r.out.find("2 results compared, 0 metrics differ beyond tolerance (1 within "
                         "tolerance)\n"),
              std::string::npos)
        << r.out;
  }
  // Options may also follow the files; a tolerance too small still fails.
  const CommandResult small =
      Fleetsim(fmt::format("compare '{}' '{}' --tolerance 0.001", golden_, altered));
  EXPECT_EQ(small.exit_code, 5) << small.out << small.err;
  EXPECT_NE(small.out.find("beyond tolerance (±0.001)"), std::string::npos) << small.out;
}

TEST_F(CompareCliTest, AMissingResultIsDrift) {
  const std::string one = Write("one.json", R"({"format_version": 1, "results": [
    {"scenario": "01-training-heavy", "policy": "fifo", "seed": 7,
     "metrics": {"utilization": 0.786, "jobs_completed": 6, "wait_p99_s": 85980.0,
                 "cost_usd": null}}]})");
  const CommandResult r = Fleetsim(fmt::format("compare '{}' '{}' -t 0.5", golden_, one));
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  EXPECT_NE(r.out.find("01-training-heavy  constraint-aware  seed 7  (result)  present -> "
                       "absent  drift: result only in the baseline\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(fmt::format("current:  {} (1 result)\n", one)), std::string::npos) << r.out;
}

// A policy or metric only the current results have is an addition: listed, not drift, unless
// --strict.
TEST_F(CompareCliTest, AdditionsAreNotDriftUnlessStrict) {
  nlohmann::json added = nlohmann::json::parse(Results("0.786"));
  added["results"].push_back(nlohmann::json::parse(
      R"({"scenario": "01-training-heavy", "policy": "my-policy", "seed": 7,
          "metrics": {"utilization": 0.9}})"));
  added["results"][0]["metrics"]["goodput"] = 0.5;
  const std::string current = Write("added.json", added.dump(1));
  const CommandResult r = Fleetsim(fmt::format("compare '{}' '{}'", golden_, current));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("01-training-heavy  fifo       seed 7  goodput   absent -> 0.5      "
                       "added: metric only in the current\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("01-training-heavy  my-policy  seed 7  (result)  absent -> present  "
                       "added: result only in the current\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("2 results compared, 0 metrics differ beyond tolerance, 1 result only in "
                       "the current, 1 metric only in the current (additions, not drift without "
                       "--strict)\n"),
            std::string::npos)
      << r.out;
  const CommandResult strict =
      Fleetsim(fmt::format("compare --strict '{}' '{}'", golden_, current));
  EXPECT_EQ(strict.exit_code, 5) << strict.out;
  EXPECT_NE(strict.out.find("drift: result only in the current"), std::string::npos);
  EXPECT_NE(strict.out.find("drift: metric only in the current"), std::string::npos);
  // --only-drift leaves the additions out of the list, not out of the summary.
  const CommandResult only =
      Fleetsim(fmt::format("compare --only-drift '{}' '{}'", golden_, current));
  EXPECT_EQ(only.exit_code, 0);
  EXPECT_EQ(only.out.find("added:"), std::string::npos) << only.out;
  EXPECT_NE(only.out.find("1 result only in the current"), std::string::npos) << only.out;
}

// --only-drift lists what fails: a difference within tolerance is left out.
TEST_F(CompareCliTest, OnlyDriftListsWhatFails) {
  nlohmann::json altered = nlohmann::json::parse(Results("0.79"));
  altered["results"][1]["metrics"]["jobs_completed"] = 10;
  const std::string current = Write("altered.json", altered.dump(1));
  const CommandResult r =
      Fleetsim(fmt::format("compare --only-drift -t utilization=0.01 '{}' '{}'", golden_, current));
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  EXPECT_EQ(r.out.find("0.786 -> 0.79"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(1 within tolerance)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("01-training-heavy  constraint-aware  seed 7  jobs_completed  9 -> 10  "
                       "+1 (+11.1%)  beyond tolerance (exact)\n"),
            std::string::npos)
      << r.out;
}

// The machine-readable forms: JSON with exact values, JUnit XML that parses (one test case per
// scenario x policy x metric, a failure for each drift), Markdown for a pull request; -o writes
// the report to a file and prints the summary line.
TEST_F(CompareCliTest, ReportFormatsForCi) {
  const std::string altered = Write("altered.json", Results("0.7860000000000001"));
  const CommandResult json =
      Fleetsim(fmt::format("compare --format json '{}' '{}'", golden_, altered));
  EXPECT_EQ(json.exit_code, 5) << json.err;
  const nlohmann::json report = nlohmann::json::parse(json.out);
  EXPECT_EQ(report["drift"], true);
  EXPECT_EQ(report["summary"]["results_compared"], 2);
  ASSERT_EQ(report["differences"].size(), 1U);
  const nlohmann::json& d = report["differences"][0];
  EXPECT_EQ(d["scenario"], "01-training-heavy");
  EXPECT_EQ(d["policy"], "fifo");
  EXPECT_EQ(d["seed"], 7);
  EXPECT_EQ(d["metric"], "utilization");
  EXPECT_EQ(d["kind"], "value");
  EXPECT_EQ(d["status"], "drift");
  EXPECT_EQ(d["current"].get<double>(), 0.7860000000000001);  // exact
  // The text shows as many digits as tell the two values apart.
  EXPECT_NE(Fleetsim(fmt::format("compare '{}' '{}'", golden_, altered))
                .out.find("0.786 -> 0.7860000000000001"),
            std::string::npos);

  const CommandResult junit = Fleetsim(
      fmt::format("compare --format junit -o '{}/junit.xml' '{}' '{}'", dir_, golden_, altered));
  EXPECT_EQ(junit.exit_code, 5) << junit.err;
  EXPECT_EQ(junit.out, "2 results compared, 1 metric differs beyond tolerance\n");
  const CommandResult parsed = testing::RunCommand(
      fmt::format("python3 -c \"import xml.etree.ElementTree as E; r = E.parse('{}/junit.xml')"
                  ".getroot(); print(r.get('tests'), r.get('failures'), "
                  "[c.get('classname') + ':' + c.get('name') for c in r.iter('testcase') "
                  "if c.find('failure') is not None])\"",
                  dir_),
      dir_);
  EXPECT_EQ(parsed.out, "8 1 ['01-training-heavy.fifo:utilization (seed 7)']\n") << parsed.err;
  // -o - and -o naming standard output (/dev/stdout, here a file): the report alone on standard
  // output, no summary line after it, and no file named "-".
  for (const char* name : {"-", "/dev/stdout"}) {
    const CommandResult to_stdout =
        testing::RunCommand(fmt::format("cd '{}' && '{}' compare --format json -o {} '{}' '{}'",
                                        dir_, FLEETSIM_CLI_PATH, name, golden_, altered),
                            dir_);
    EXPECT_EQ(to_stdout.exit_code, 5) << name << ": " << to_stdout.err;
    EXPECT_EQ(nlohmann::json::parse(to_stdout.out)["drift"], true) << name << ": " << to_stdout.out;
    EXPECT_FALSE(std::filesystem::exists(dir_ + "/-")) << name;
  }

  const CommandResult markdown =
      Fleetsim(fmt::format("compare --format markdown '{}' '{}'", golden_, altered));
  EXPECT_NE(markdown.out.find("### fleetsim compare: drift\n"), std::string::npos) << markdown.out;
  EXPECT_NE(markdown.out.find("| 01-training-heavy | fifo | seed 7 | utilization | 0.786 → "
                              "0.7860000000000001 | +1.11022e-16 (+1.41e-14%) | beyond tolerance "
                              "(exact) |\n"),
            std::string::npos)
      << markdown.out;

  const CommandResult bad =
      Fleetsim(fmt::format("compare --format xml '{}' '{}'", golden_, altered));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err,
            "fleetsim: --format: unknown report format 'xml' (formats: 'text', 'json', "
            "'junit', 'markdown')\n");
}

// ---- Sweeps and run folders ----

// The small scenario of the sweep tests, under fifo; `median` is its job durations' median.
std::string SmallScenario(int median) {
  return fmt::format(R"({{"format_version": 1, "name": "small", "seed": 5,
  "fleet": {{"pools": [{{"name": "h100", "template": "hgx-h100", "nodes": 2, "tier": "on-demand"}}]}},
  "policy": {{"name": "fifo"}}, "run": {{"until_s": 86400}},
  "generator": {{"jobs": 40, "mean_interarrival_s": 900,
    "duration_s": {{"median": {}, "sigma": 1.0, "max": 36000}},
    "gpus": {{"values": [1, 2, 4, 8], "weights": [40, 25, 20, 15]}},
    "priority": {{"values": [1, 2, 4], "weights": [60, 30, 10]}}}}}})",
                     median);
}

class CompareSweepCliTest : public CompareCliTest {
 protected:
  // Sweeps the small scenario (durations of `median`) over seeds first..last into DIR/name;
  // the path of its results.json.
  std::string Sweep(const std::string& name, int median, int first, int last) {
    Write(name + "-base.json", SmallScenario(median));
    Write(name + ".json", fmt::format(R"({{"format_version": 1, "kind": "sweep", "name": "{}",
                          "base": "{}-base.json",
                          "axes": [{{"name": "seed", "values": {{"first": {}, "last": {}}}}}]}})",
                                      name, name, first, last));
    const CommandResult r =
        Fleetsim(fmt::format("sweep '{0}/{1}.json' --out '{0}/{1}' -j 2", dir_, name));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return dir_ + "/" + name + "/results.json";
  }
};

// Sweep results are matched run by run, on scenario, policy, axes and seed.
TEST_F(CompareSweepCliTest, SweepResultsAreComparedRunByRun) {
  const std::string a = Sweep("a", 3600, 1, 3);
  EXPECT_EQ(Fleetsim(fmt::format("compare '{}' '{}'", a, a)).exit_code, 0);
  const std::string b = Sweep("b", 3600, 2, 4);
  const CommandResult r = Fleetsim(fmt::format("compare '{}' '{}'", a, b));
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  EXPECT_NE(r.out.find("small  fifo  seed 1  (result)  present -> absent"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("small  fifo  seed 4  (result)  absent -> present"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("2 results compared, 0 metrics differ beyond tolerance, 1 result only in "
                       "the baseline, 1 result only in the current"),
            std::string::npos)
      << r.out;
}

// --seeds: a reshuffle of the seeds (other seeds' runs, labelled 1..20) moves every run but not
// the means beyond noise, and passes; durations 1.5 times longer are a real shift, and fail.
TEST_F(CompareSweepCliTest, SeedsTellAShiftFromAReshuffle) {
  const std::string base = Sweep("base", 3600, 1, 20);
  nlohmann::json other = nlohmann::json::parse(testing::ReadFile(Sweep("other", 3600, 21, 40)));
  for (nlohmann::json& run : other["runs"]) {
    run["seed"] = run["seed"].get<int>() - 20;
  }
  const std::string reshuffled = Write("reshuffled.json", other.dump(1));
  const std::string shifted = Sweep("shifted", 5400, 1, 20);

  const CommandResult run_by_run =
      Fleetsim(fmt::format("compare -t 0.02 '{}' '{}'", base, reshuffled));
  EXPECT_EQ(run_by_run.exit_code, 5) << "run by run, a reshuffle moves results";

  const CommandResult pass =
      Fleetsim(fmt::format("compare --seeds -t 0.02 '{}' '{}'", base, reshuffled));
  EXPECT_EQ(pass.exit_code, 0) << pass.out;
  EXPECT_NE(pass.out.find("within tolerance (interval meets ±"), std::string::npos) << pass.out;

  const CommandResult fail =
      Fleetsim(fmt::format("compare --seeds -t 0.02 '{}' '{}'", base, shifted));
  EXPECT_EQ(fail.exit_code, 5) << fail.out;
  EXPECT_NE(fail.out.find("small  fifo  20 seeds  jct_mean_s"), std::string::npos) << fail.out;
  EXPECT_NE(fail.out.find("beyond tolerance (interval beyond ±"), std::string::npos) << fail.out;

  const nlohmann::json report = nlohmann::json::parse(
      Fleetsim(fmt::format("compare --seeds --format json '{}' '{}'", base, shifted)).out);
  const auto jct =
      std::find_if(report["differences"].begin(), report["differences"].end(),
                   [](const nlohmann::json& d) { return d["metric"] == "jct_mean_s"; });
  ASSERT_NE(jct, report["differences"].end());
  EXPECT_EQ((*jct)["kind"], "paired_mean");
  EXPECT_EQ((*jct)["seeds"], 20);
  EXPECT_GT((*jct)["ci_low"].get<double>(), 0.0);
  EXPECT_EQ((*jct)["status"], "drift");
}

// A sweep's axes are part of a result's identity, and of its line; under --seeds, a seed whose
// metric is missing is reported with its seed, and the other pairs still make the mean.
TEST_F(CompareSweepCliTest, AxesAndOddSeeds) {
  Write("axes-base.json", SmallScenario(3600));
  Write("axes.json", R"({"format_version": 1, "kind": "sweep", "name": "axes",
      "base": "axes-base.json",
      "axes": [{"name": "nodes", "pointer": "/fleet/pools/0/nodes", "values": [2, 3]},
               {"name": "seed", "values": {"first": 1, "last": 3}}]})");
  ASSERT_EQ(Fleetsim(fmt::format("sweep '{0}/axes.json' --out '{0}/axes'", dir_)).exit_code, 0);
  const std::string base = dir_ + "/axes/results.json";
  nlohmann::json altered = nlohmann::json::parse(testing::ReadFile(base));
  for (nlohmann::json& run : altered["runs"]) {
    if (run["axes"]["nodes"] == "3" && run["seed"] == 2) {
      run["metrics"]["jobs_total"] = 41;
      run["metrics"].erase("utilization");
    }
  }
  const std::string current = Write("altered.json", altered.dump(1));
  const CommandResult r = Fleetsim(fmt::format("compare '{}' '{}'", base, current));
  EXPECT_EQ(r.exit_code, 5) << r.out;
  EXPECT_NE(r.out.find("small  fifo  nodes=3  seed 2  jobs_total   40 -> 41"), std::string::npos)
      << r.out;
  const CommandResult seeds = Fleetsim(fmt::format("compare --seeds '{}' '{}'", base, current));
  EXPECT_EQ(seeds.exit_code, 5) << seeds.out;
  EXPECT_NE(seeds.out.find("small  fifo  nodes=3  seed 2   utilization  "), std::string::npos)
      << seeds.out;
  EXPECT_NE(seeds.out.find("drift: metric only in the baseline"), std::string::npos) << seeds.out;
  EXPECT_NE(seeds.out.find("small  fifo  nodes=3  3 seeds  jobs_total   40 -> 40.3333"),
            std::string::npos)
      << seeds.out;
}

// Run folders (every summary.json under them) are compared as results are.
TEST_F(CompareSweepCliTest, RunFoldersAreComparedByTheirSummaries) {
  const std::string scenario = Write("small.json", SmallScenario(3600));
  for (const char* out : {"a", "b"}) {
    ASSERT_EQ(Fleetsim(fmt::format("run '{}' --policy fifo,backfill --seed 1-2 --out '{}/{}'",
                                   scenario, dir_, out))
                  .exit_code,
              0);
  }
  const CommandResult same = Fleetsim(fmt::format("compare '{0}/a' '{0}/b' --format json", dir_));
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  EXPECT_EQ(nlohmann::json::parse(same.out)["summary"]["results_compared"], 4);
  ASSERT_EQ(Fleetsim(fmt::format("run '{}' --policy fifo --seed 3 --out '{}/c'", scenario, dir_))
                .exit_code,
            0);
  const CommandResult other =
      Fleetsim(fmt::format("compare '{0}/a/small/fifo/seed-1' '{0}/c'", dir_));
  EXPECT_EQ(other.exit_code, 5) << other.out;
  EXPECT_NE(other.out.find("drift: seeds differ"), std::string::npos) << other.out;
  const CommandResult missing = Fleetsim(fmt::format("compare '{0}/a' '{0}/none'", dir_));
  EXPECT_EQ(missing.exit_code, 1);
  fs::create_directories(dir_ + "/empty");
  const CommandResult empty = Fleetsim(fmt::format("compare '{0}/a' '{0}/empty'", dir_));
  EXPECT_EQ(empty.exit_code, 1);
  EXPECT_NE(empty.err.find(dir_ + "/empty: not one complete run's results (`fleetsim verify`): " +
                           dir_ + "/empty: no readable manifest"),
            std::string::npos)
      << empty.err;
}

// A run folder is read as its manifest lists it (issue 19): one that does not verify is refused,
// and the files of an earlier run left in it are not taken for this run's.
TEST_F(CompareSweepCliTest, RunFoldersAreReadAsTheirManifestsList) {
  const std::string scenario = Write("small.json", SmallScenario(3600));
  const auto run = [&](const std::string& args) {
    return Fleetsim(fmt::format("run '{}' {}", scenario, args)).exit_code;
  };
  ASSERT_EQ(run(fmt::format("--policy fifo,backfill --out '{}/a'", dir_)), 0);
  ASSERT_EQ(run(fmt::format("--policy fifo,backfill --out '{}/b'", dir_)), 0);
  // An earlier run of another policy left in b: b's manifest does not list it.
  ASSERT_EQ(run(fmt::format("--policy first-fit,fair-share --out '{}/b'", dir_)), 0);
  ASSERT_EQ(run(fmt::format("--policy fifo,backfill --out '{}/b'", dir_)), 0);
  ASSERT_TRUE(fs::exists(dir_ + "/b/small/first-fit/summary.json"));
  const CommandResult same = Fleetsim(fmt::format("compare '{0}/a' '{0}/b'", dir_));
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  // A changed summary is not compared as if it were the run's.
  std::ofstream(dir_ + "/b/small/fifo/summary.json", std::ios::app) << "\n";
  // A folder inside the run folder, named relative to the working folder; a seed range's policy
  // folder, whose summaries are one level down.
  ASSERT_EQ(run(fmt::format("--policy fifo,backfill --seed 1-2 --out '{}/r'", dir_)), 0);
  const CommandResult inside =
      testing::RunCommand(fmt::format("cd '{}/a/small' && '{}' compare fifo '{}/a/small/fifo'",
                                      dir_, FLEETSIM_CLI_PATH, dir_),
                          dir_);
  EXPECT_EQ(inside.exit_code, 0) << inside.out << inside.err;
  const CommandResult seeds =
      Fleetsim(fmt::format("compare '{0}/r/small/fifo' '{0}/r/small/fifo' --format json", dir_));
  EXPECT_EQ(seeds.exit_code, 0) << seeds.out << seeds.err;
  EXPECT_EQ(nlohmann::json::parse(seeds.out)["summary"]["results_compared"], 2);
  const CommandResult changed = Fleetsim(fmt::format("compare '{0}/a' '{0}/b'", dir_));
  EXPECT_EQ(changed.exit_code, 1) << changed.out;
  EXPECT_NE(changed.err.find(dir_ + "/b/small/fifo/summary.json: not the file the manifest lists"),
            std::string::npos)
      << changed.err;
}

TEST_F(CompareCliTest, AMissingFileExitsOneNamingIt) {
  const std::string missing = dir_ + "/nope.json";
  const CommandResult r = Fleetsim(fmt::format("compare '{}' '{}'", golden_, missing));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, fmt::format("{}: cannot read: No such file or directory\n", missing));
}

TEST_F(CompareCliTest, InvalidFilesExitOneWithEveryProblem) {
  const std::string bad = Write("bad.json", R"({"format_version": 1, "results": [
    {"scenario": "s", "policy": "fifo", "seed": 1, "metrics": {"utilization": "abc"}},
    {"scenario": "s", "metrics": {}}]})");
  const std::string not_json = Write("not.json", "{\"format_version\": 1,");
  const CommandResult r = Fleetsim(fmt::format("compare '{}' '{}'", bad, not_json));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  // Both files' problems, file by file; the first file's with their JSON paths.
  const std::string bad_lines = fmt::format(
      "{0}: /results/0/metrics/utilization: error: expected a number or null, found \"abc\"\n"
      "{0}: /results/1: error: missing required key 'policy'\n"
      "{0}: /results/1: error: missing required key 'seed'\n",
      bad);
  EXPECT_EQ(r.err.substr(0, bad_lines.size()), bad_lines) << r.err;
  EXPECT_EQ(r.err.substr(bad_lines.size()).rfind(not_json + ":1:22: invalid JSON: ", 0), 0u)
      << r.err;

  const std::string v2 = Write("v2.json", R"({"format_version": 2, "results": []})");
  const CommandResult version = Fleetsim(fmt::format("compare '{}' '{}'", golden_, v2));
  EXPECT_EQ(version.exit_code, 1);
  EXPECT_EQ(version.err, fmt::format("{}: /format_version: error: unsupported format_version 2; "
                                     "this fleetsim reads format_version 1\n",
                                     v2));
}

TEST_F(CompareCliTest, BadUsageExitsTwo) {
  const CommandResult one_file = Fleetsim(fmt::format("compare '{}'", golden_));
  EXPECT_EQ(one_file.exit_code, 2);
  EXPECT_NE(one_file.err.find("current is required"), std::string::npos) << one_file.err;

  const CommandResult bad_value =
      Fleetsim(fmt::format("compare '{}' '{}' --tolerance abc", golden_, golden_));
  EXPECT_EQ(bad_value.exit_code, 2);
  EXPECT_EQ(bad_value.err,
            "fleetsim: --tolerance: expected a number ≥ 0 (such as 0.01, 1e-6 or 1%) or "
            "METRIC=NUMBER, found 'abc'\n");

  const CommandResult misspelt =
      Fleetsim(fmt::format("compare '{}' '{}' -t utilisation=0.1", golden_, golden_));
  EXPECT_EQ(misspelt.exit_code, 2);
  EXPECT_EQ(misspelt.out, "");
  EXPECT_EQ(misspelt.err,
            "fleetsim: --tolerance: no metric 'utilisation' in either file, did you mean "
            "'utilization'?\n");

  const CommandResult extra =
      Fleetsim(fmt::format("compare '{}' '{}' '{}'", golden_, golden_, golden_));
  EXPECT_EQ(extra.exit_code, 2);
}

TEST_F(CompareCliTest, HelpListsTheCommand) {
  const CommandResult r = Fleetsim("--help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("compare"), std::string::npos);
  const CommandResult c = Fleetsim("compare --help");
  EXPECT_EQ(c.exit_code, 0);
  EXPECT_NE(c.out.find("--tolerance"), std::string::npos) << c.out;
}

}  // namespace
}  // namespace fleetsim
