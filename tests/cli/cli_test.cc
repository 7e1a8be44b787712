// End-to-end tests of the fleetsim command: exit codes, messages, output files, byte-identical
// reruns, seeds, and that bad input never leaves partial output.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "testutil/command.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;
using testing::ReadFile;
using testing::SourcePath;

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = testing::FreshTempDir(); }
  void TearDown() override { fs::remove_all(dir_); }

  CommandResult Fleetsim(const std::string& args) {
    return testing::RunCommand(fmt::format("'{}' {}", FLEETSIM_CLI_PATH, args), dir_);
  }
  std::string Example(const std::string& name) {
    return SourcePath("scenarios/examples/" + name + ".json");
  }
  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }

  std::string dir_;
};

TEST_F(CliTest, VersionAndHelp) {
  const CommandResult v = Fleetsim("--version");
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_EQ(v.out, "fleetsim 0.1.0\n");
  const CommandResult h = Fleetsim("--help");
  EXPECT_EQ(h.exit_code, 0);
  EXPECT_NE(h.out.find("run"), std::string::npos);
  EXPECT_NE(h.out.find("validate"), std::string::npos);
}

TEST_F(CliTest, NoCommandIsAUsageError) {
  const CommandResult r = Fleetsim("");
  EXPECT_EQ(r.exit_code, 2);
}

TEST_F(CliTest, ListPolicies) {
  const CommandResult r = Fleetsim("list policies");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("fifo\n"), std::string::npos);
  EXPECT_NE(r.out.find("first-fit\n"), std::string::npos);
  EXPECT_NE(r.out.find("- lookahead (integer, default 0"), std::string::npos);
}

// The first fenced block after `heading` in docs/outputs.md.
std::string OutputsPageBlockAfter(const std::string& heading) {
  const std::string page = ReadFile(SourcePath("docs/outputs.md"));
  const std::size_t at = page.find("\n" + heading + "\n");
  const std::size_t open = page.find("\n```\n", at);
  const std::size_t close = page.find("\n```\n", open + 1);
  if (at == std::string::npos || open == std::string::npos || close == std::string::npos) {
    ADD_FAILURE() << "docs/outputs.md has no fenced block under " << heading;
    return "";
  }
  return page.substr(open + 5, close + 1 - (open + 5));
}

// outputs.md's examples are what this command prints and writes, so that a figure whose
// definition changes takes its example with it.
TEST_F(CliTest, TheOutputsPageExamplesAreWhatTheRunPrintsAndWrites) {
  const CommandResult r =
      Fleetsim(fmt::format("run '{}' '{}' --policy fifo,first-fit --out '{}/out'",
                           Example("tiny-contended"), Example("team-trace"), dir_));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, OutputsPageBlockAfter("## The stdout table"));
  EXPECT_EQ(ReadFile(dir_ + "/out/comparison.csv"), OutputsPageBlockAfter("## `comparison.csv`"));
}

TEST_F(CliTest, RunWritesTableSummaryAndJobs) {
  const std::string out = dir_ + "/out";
  const CommandResult r =
      Fleetsim(fmt::format("run '{}' --out '{}'", Example("tiny-contended"), out));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("tiny-contended"), std::string::npos);
  EXPECT_EQ(r.err, "");
  const std::string jobs = ReadFile(out + "/jobs.csv");
  EXPECT_EQ(jobs.substr(0, jobs.find('\n')),
            "id,tenant,priority_class,priority,kind,submit_s,start_s,end_s,wait_s,run_time_s,gpus,"
            "max_gpus,sharing,cpu_milli,memory_mib,gres,resources,gpus_allocated,gpu_share,"
            "gpu_models,domains,pools,tiers,nodes,preemptions,interruptions,lost_gpu_hours,"
            "useful_gpu_hours,useful_work_gpu_hours,recorded_state,state,reason");
  EXPECT_NE(jobs.find("huge-f,default,,5,unspecified,300.000,,,,,16,16,none,0,0,,,,,,,,,,0,0,"
                      "0.000000,0.000000,0.000000,,rejected,"
                      "needs 16 GPUs; the whole fleet has 8"),
            std::string::npos);
  const std::string summary = ReadFile(out + "/summary.json");
  EXPECT_NE(summary.find("\"utilization\""), std::string::npos);
  EXPECT_EQ(summary.find("wall"), std::string::npos) << "no wall-clock values without --timing";
  for (const auto& entry : fs::directory_iterator(out)) {
    EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos);
  }
}

TEST_F(CliTest, SameScenarioAndSeedGiveByteIdenticalOutputs) {
  for (const char* example : {"tiny-contended", "poisson-64", "mixed-until"}) {
    const CommandResult a = Fleetsim(fmt::format("run '{}' --out '{}/a'", Example(example), dir_));
    const CommandResult b = Fleetsim(fmt::format("run '{}' --out '{}/b'", Example(example), dir_));
    ASSERT_EQ(a.exit_code, 0) << a.err;
    ASSERT_EQ(b.exit_code, 0) << b.err;
    EXPECT_EQ(a.out, b.out);
    EXPECT_EQ(ReadFile(dir_ + "/a/summary.json"), ReadFile(dir_ + "/b/summary.json")) << example;
    EXPECT_EQ(ReadFile(dir_ + "/a/jobs.csv"), ReadFile(dir_ + "/b/jobs.csv")) << example;
  }
}

// --check-invariants checks after every event and changes nothing in the results.
TEST_F(CliTest, CheckInvariantsChangesNoOutput) {
  const std::string spot = Example("spot-heavy");
  ASSERT_EQ(Fleetsim(fmt::format("run '{}' -p all --out '{}/a'", spot, dir_)).exit_code, 0);
  const CommandResult checked =
      Fleetsim(fmt::format("run '{}' -p all --check-invariants --out '{}/b'", spot, dir_));
  ASSERT_EQ(checked.exit_code, 0) << checked.err;
  EXPECT_EQ(ReadFile(dir_ + "/a/comparison.csv"), ReadFile(dir_ + "/b/comparison.csv"));
  EXPECT_EQ(ReadFile(dir_ + "/a/.fleetsim-manifest.json"),
            ReadFile(dir_ + "/b/.fleetsim-manifest.json"));
}

TEST_F(CliTest, DifferentSeedGivesDifferentResultsForGeneratedWorkload) {
  ASSERT_EQ(Fleetsim(fmt::format("run '{}' --seed 1 --out '{}/a'", Example("poisson-64"), dir_))
                .exit_code,
            0);
  ASSERT_EQ(Fleetsim(fmt::format("run '{}' --seed 2 --out '{}/b'", Example("poisson-64"), dir_))
                .exit_code,
            0);
  EXPECT_NE(ReadFile(dir_ + "/a/jobs.csv"), ReadFile(dir_ + "/b/jobs.csv"));
  const std::string a = ReadFile(dir_ + "/a/summary.json");
  const std::string b = ReadFile(dir_ + "/b/summary.json");
  EXPECT_NE(a.substr(a.find("\"metrics\"")), b.substr(b.find("\"metrics\"")));
  EXPECT_NE(a.find("\"seed\": 1,"), std::string::npos);
}

TEST_F(CliTest, EveryExampleRunsUnderEveryPolicyWithComparison) {
  std::string files;
  for (const std::string& f : testing::FilesIn("scenarios/examples", ".json")) {
    files += " '" + f + "'";
  }
  const CommandResult r =
      Fleetsim(fmt::format("run {} --policy all --strict --out '{}/m'", files, dir_));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string comparison = ReadFile(dir_ + "/m/comparison.csv");
  EXPECT_NE(comparison.find("tiny-contended,fifo,1,7,6,1,"), std::string::npos) << comparison;
  EXPECT_TRUE(fs::exists(dir_ + "/m/poisson-64/first-fit/summary.json"));
  EXPECT_TRUE(fs::exists(dir_ + "/m/mixed-until/fifo/jobs.csv"));
}

TEST_F(CliTest, TimingIsOnlyRecordedWhenAsked) {
  ASSERT_EQ(Fleetsim(fmt::format("run '{}' --timing --out '{}/t'", Example("tiny-contended"), dir_))
                .exit_code,
            0);
  EXPECT_NE(ReadFile(dir_ + "/t/summary.json").find("\"wall_seconds\""), std::string::npos);
}

TEST_F(CliTest, ValidateReportsEveryMistakeWithPathsAndFails) {
  const std::string bad = Write("bad.json", R"({
  "format_version": 1,
  "name": "bad",
  "fleet": {"gpus": 0},
  "policy": {"name": "fifo"},
  "jobs": [
    {"id": "a", "submit_s": 0, "gpus": -3, "duration_s": 10},
    {"id": "b", "submit_s": "soon", "gpus": 1, "duration_s": -5, "prio": 2}
  ]
})");
  const CommandResult r = Fleetsim(fmt::format("validate '{}'", bad));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(
      r.err,
      fmt::format(
          "{0}: /fleet/gpus: error: expected an integer ≥ 1, found 0\n"
          "{0}: /jobs/0/gpus: error: expected an integer ≥ 0, found -3\n"
          "{0}: /jobs/1/prio: warning: unknown key 'prio'\n"
          "{0}: /jobs/1/submit_s: error: expected a number ≥ 0 and ≤ 3155760000, found \"soon\"\n"
          "{0}: /jobs/1/duration_s: error: expected a number > 0 and ≤ 3155760000, found -5\n",
          bad));
}

TEST_F(CliTest, ValidateAcceptsGoodFilesAndChecksAllGiven) {
  const std::string bad = Write("bad.json", "{");
  const CommandResult r =
      Fleetsim(fmt::format("validate '{}' '{}'", Example("tiny-contended"), bad));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, fmt::format("{}:1:2: invalid JSON: syntax error while parsing object key - "
                               "unexpected end of input; expected string literal\n",
                               bad));
  const CommandResult ok = Fleetsim(fmt::format("validate '{}'", Example("tiny-contended")));
  EXPECT_EQ(ok.exit_code, 0);
  EXPECT_EQ(ok.out, Example("tiny-contended") + ": ok\n");
}

TEST_F(CliTest, StrictTurnsUnknownKeysIntoErrors) {
  const std::string typo = Write("typo.json", R"({"format_version": 1, "name": "t",
    "fleet": {"gpus": 4}, "jobs": [{"id": "a", "submit_s": 0, "gpus": 1, "duration_s": 1}],
    "polcy": {"name": "fifo"}})");
  const CommandResult lenient = Fleetsim(fmt::format("run '{}' --out '{}/o1'", typo, dir_));
  EXPECT_EQ(lenient.exit_code, 0);
  EXPECT_EQ(lenient.err, typo + ": /polcy: warning: unknown key 'polcy', did you mean 'policy'?\n");
  const CommandResult strict = Fleetsim(fmt::format("run '{}' --strict --out '{}/o2'", typo, dir_));
  EXPECT_EQ(strict.exit_code, 1);
  EXPECT_EQ(strict.err, typo + ": /polcy: error: unknown key 'polcy', did you mean 'policy'?\n");
  EXPECT_FALSE(fs::exists(dir_ + "/o2"));
}

TEST_F(CliTest, UnknownPolicyGetsSuggestionAndList) {
  const CommandResult r =
      Fleetsim(fmt::format("run '{}' --policy fifi --out '{}/o'", Example("tiny-contended"), dir_));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "fleetsim: unknown policy 'fifi', did you mean 'fifo'? (valid policies: "
            "'fifo', 'first-fit', 'backfill', 'fair-share', 'constraint-aware', or 'all')\n");
  EXPECT_FALSE(fs::exists(dir_ + "/o"));
}

TEST_F(CliTest, PolicyOptionTakesOneNameEachTimeOrACommaList) {
  const CommandResult r = Fleetsim(fmt::format("run -p fifo '{}' '{}' -p first-fit,fifo",
                                               Example("tiny-contended"), Example("poisson-64")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("poisson-64      first-fit"), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 11)
      << "two tables (scheduling; interruptions and cost), each a header + 2 scenarios x 2 "
         "policies, with a blank line between";
}

// --seed FIRST-LAST runs every scenario x policy once per seed, each into its own directory,
// each run the same as a run given that one seed; comparison.csv has a row per run.
TEST_F(CliTest, ASeedRangeRunsEverySeedIntoItsOwnDirectory) {
  const CommandResult r = Fleetsim(fmt::format(
      "run '{}' --policy fifo,first-fit --seed 3-5 --out '{}/r'", Example("poisson-64"), dir_));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* policy : {"fifo", "first-fit"}) {
    for (int seed = 3; seed <= 5; ++seed) {
      EXPECT_TRUE(
          fs::exists(fmt::format("{}/r/poisson-64/{}/seed-{}/jobs.csv", dir_, policy, seed)));
    }
  }
  const std::string comparison = ReadFile(dir_ + "/r/comparison.csv");
  EXPECT_EQ(std::count(comparison.begin(), comparison.end(), '\n'), 1 + 2 * 3) << comparison;
  EXPECT_NE(comparison.find("\npoisson-64,first-fit,5,"), std::string::npos) << comparison;
  ASSERT_EQ(Fleetsim(fmt::format("run '{}' --policy first-fit --seed 4 --out '{}/one'",
                                 Example("poisson-64"), dir_))
                .exit_code,
            0);
  EXPECT_EQ(ReadFile(dir_ + "/one/summary.json"),
            ReadFile(dir_ + "/r/poisson-64/first-fit/seed-4/summary.json"));
  EXPECT_NE(ReadFile(dir_ + "/r/poisson-64/first-fit/seed-3/jobs.csv"),
            ReadFile(dir_ + "/r/poisson-64/first-fit/seed-4/jobs.csv"));
  // A range of one seed is still laid out by seed.
  ASSERT_EQ(Fleetsim(fmt::format("run '{}' --policy fifo --seed 7-7 --out '{}/single'",
                                 Example("poisson-64"), dir_))
                .exit_code,
            0);
  EXPECT_TRUE(fs::exists(dir_ + "/single/poisson-64/fifo/seed-7/summary.json"));
  EXPECT_TRUE(fs::exists(dir_ + "/single/comparison.csv"));
}

TEST_F(CliTest, BadSeedIsAUsageError) {
  for (const char* seed :
       {"-1", "1x", "18446744073709551616", "''", "5-3", "1-", "1-2-3", "0-1000"}) {
    const CommandResult r =
        Fleetsim(fmt::format("run '{}' --seed {}", Example("tiny-contended"), seed));
    EXPECT_EQ(r.exit_code, 2) << seed;
    EXPECT_NE(r.err.find("fleetsim: --seed: expected an integer in [0, 18446744073709551615] "
                         "or a range FIRST-LAST of them (FIRST <= LAST, at most 1000 seeds)"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.out, "");
  }
}

TEST_F(CliTest, BadInputLeavesNoOutput) {
  const std::string missing = dir_ + "/missing.json";
  const CommandResult r = Fleetsim(fmt::format("run '{}' --out '{}/o'", missing, dir_));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, missing + ": cannot read: No such file or directory\n");
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(fs::exists(dir_ + "/o"));

  const std::string nan = Write("nan.json", "{\"format_version\": 1, \"fleet\": {\"gpus\": NaN}}");
  const CommandResult n = Fleetsim(fmt::format("run '{}' --out '{}/o'", nan, dir_));
  EXPECT_EQ(n.exit_code, 1);
  EXPECT_NE(n.err.find(nan + ":1:41: invalid JSON"), std::string::npos) << n.err;
  EXPECT_FALSE(fs::exists(dir_ + "/o"));
}

// `run --out` ends its commit with a manifest; `verify` checks a folder against it (issue 19).
TEST_F(CliTest, VerifyChecksARunFolderAgainstItsManifest) {
  const std::string out = dir_ + "/o";
  ASSERT_EQ(
      Fleetsim(fmt::format("run '{}' -p fifo,backfill --out '{}'", Example("tiny-contended"), out))
          .exit_code,
      0);
  EXPECT_TRUE(fs::exists(out + "/.fleetsim-manifest.json"));
  const CommandResult ok = Fleetsim(fmt::format("verify '{}'", out));
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.out, out + ": complete\n");

  std::ofstream(out + "/tiny-contended/fifo/jobs.csv", std::ios::app) << "extra\n";
  const CommandResult changed = Fleetsim(fmt::format("verify '{}'", out));
  EXPECT_EQ(changed.exit_code, 1);
  EXPECT_NE(changed.err.find(out + "/tiny-contended/fifo/jobs.csv: not the file the manifest "
                                   "lists"),
            std::string::npos)
      << changed.err;

  const CommandResult none = Fleetsim(fmt::format("verify '{}'", dir_));
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_NE(none.err.find("no readable manifest"), std::string::npos) << none.err;
}

// A listed file replaced by a link (to a device, read without end; to a file outside the folder)
// or by a FIFO is refused, not read (issue 19).
TEST_F(CliTest, VerifyRefusesAListedFileThatIsNotARegularFile) {
  const std::string out = dir_ + "/o";
  ASSERT_EQ(Fleetsim(fmt::format("run '{}' --out '{}'", Example("tiny-contended"), out)).exit_code,
            0);
  const std::string jobs = ReadFile(out + "/jobs.csv");
  Write("outside.csv", jobs);
  for (const std::string& target : {std::string("/dev/zero"), dir_ + "/outside.csv"}) {
    fs::remove(out + "/jobs.csv");
    fs::create_symlink(target, out + "/jobs.csv");
    const CommandResult r = Fleetsim(fmt::format("verify '{}'", out));
    EXPECT_EQ(r.exit_code, 1) << target;
    EXPECT_NE(r.err.find(out + "/jobs.csv (listed in the manifest): a symbolic link on its way"),
              std::string::npos)
        << r.err;
  }
  fs::remove(out + "/jobs.csv");
  ASSERT_EQ(mkfifo((out + "/jobs.csv").c_str(), 0600), 0);
  const CommandResult fifo =
      testing::RunCommand(fmt::format("timeout 20 '{}' verify '{}'", FLEETSIM_CLI_PATH, out), dir_);
  EXPECT_EQ(fifo.exit_code, 1);
  EXPECT_NE(fifo.err.find(out + "/jobs.csv (listed in the manifest): not a regular file"),
            std::string::npos)
      << fifo.err;
}

// A folder of a run folder moved elsewhere and linked back: its files lie outside the folder,
// and `compare` would not see them (issue 19).
TEST_F(CliTest, VerifyRefusesAFolderOfTheRunThatIsALink) {
  const std::string out = dir_ + "/o";
  ASSERT_EQ(
      Fleetsim(fmt::format("run '{}' -p fifo,backfill --out '{}'", Example("tiny-contended"), out))
          .exit_code,
      0);
  fs::rename(out + "/tiny-contended/backfill", dir_ + "/elsewhere");
  fs::create_symlink(dir_ + "/elsewhere", out + "/tiny-contended/backfill");
  const CommandResult r = Fleetsim(fmt::format("verify '{}'", out));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(out + "/tiny-contended/backfill/summary.json (listed in the manifest): a "
                             "symbolic link on its way"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(Fleetsim(fmt::format("compare '{0}' '{0}'", out)).exit_code, 1);
}

// No command writes over what it reads: an output that is one of its inputs (by any spelling),
// or lies inside an input folder, is a usage error, and the input is left as it was.
TEST_F(CliTest, NoOutputMayReplaceAnInputOfItsCommand) {
  const auto in_dir = [&](const std::string& command) {
    return testing::RunCommand(fmt::format("cd '{}' && '{}' {}", dir_, FLEETSIM_CLI_PATH, command),
                               dir_);
  };
  ASSERT_TRUE(fs::copy_file(Example("tiny-contended"), dir_ + "/t.json"));
  Write("s.conf",
        "NodeName=n[1-2] Gres=gpu:h100:8 CPUs=64 RealMemory=512000\n"
        "PartitionName=p Nodes=n[1-2]\n");
  Write("t.jsonl", R"({"id": "a", "submit_s": 0, "gpus": 1, "duration_s": 60})"
                   "\n");
  ASSERT_EQ(in_dir("run t.json --out r1").exit_code, 0);
  ASSERT_EQ(in_dir("bench t.json --json g.json").exit_code, 0);
  ASSERT_TRUE(fs::copy_file(dir_ + "/g.json", dir_ + "/n.json"));
  const struct {
    std::string command;
    std::string input;  // the file that must be left as it was
    std::string message;
  } cases[] = {
      {"compare g.json n.json -o g.json", "g.json", "-o: 'g.json' is the baseline 'g.json'"},
      {"compare g.json n.json -o ./n.json", "n.json", "is the current results 'n.json'"},
      {"export r1 --scenario t.json --sacct r1/jobs.csv", "r1/jobs.csv",
       "--sacct: 'r1/jobs.csv' is inside the run folder 'r1', which this command reads"},
      {"export r1 --scenario t.json --dcgm t.json", "t.json", "is the scenario 't.json'"},
      {"bench t.json --check g.json --json g.json", "g.json", "is the goldens file 'g.json'"},
      {"bound t.json --json t.json", "t.json", "--json: 't.json' is the scenario 't.json'"},
      {"bench . --json r.json", "t.json",
       "--json: 'r.json' is inside the scenario path '.', which this command reads"},
      {"import-fleet --from slurm s.conf -o s.conf", "s.conf", "is the input 's.conf'"},
      {"import --from jsonl t.jsonl -o ../" + fs::path(dir_).filename().string() + "/t.jsonl",
       "t.jsonl", "is the trace 't.jsonl'"},
      {"run t.json --html t.json", "t.json", "--html: 't.json' is the scenario 't.json'"},
      {"fill t.json --markdown t.json", "t.json", "is the fill scenario 't.json'"},
  };
  for (const auto& c : cases) {
    const std::string before = ReadFile(dir_ + "/" + c.input);
    const CommandResult r = in_dir(c.command);
    EXPECT_EQ(r.exit_code, 2) << c.command << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.command << "\n" << r.err;
    EXPECT_EQ(ReadFile(dir_ + "/" + c.input), before) << c.command;
  }
}

// Links planted beside a run's outputs at the names its temporaries will take (the id of the
// shell that then becomes fleetsim by `exec`, and the first counts: comparison.csv is the first
// file a run stages) are skipped, not written through; 16 taken names fail the commit (exit 4),
// still writing through none (issue 19: a fixed ".NAME.tmp" let such a link redirect a write).
TEST_F(CliTest, LinksPlantedAtTemporaryNamesAreNotWrittenThrough) {
  const auto run_past = [&](const std::string& out, int links) {
    return testing::RunCommand(
        fmt::format("cd '{}' && mkdir {} && exec sh -c 'for n in $(seq 0 {}); do "
                    "ln -s ../victim-$n {}/.comparison.csv.$$-$n.tmp; done; "
                    "exec \"$0\" run \"$1\" -p fifo,backfill --out {}' '{}' '{}'",
                    dir_, out, links - 1, out, out, FLEETSIM_CLI_PATH, Example("tiny-contended")),
        dir_);
  };
  const auto links_left = [&](const std::string& out) {
    int count = 0;
    for (const fs::directory_entry& entry : fs::directory_iterator(dir_ + "/" + out)) {
      count += fs::is_symlink(entry.symlink_status()) ? 1 : 0;
    }
    return count;
  };
  const CommandResult past = run_past("out", 15);
  ASSERT_EQ(past.exit_code, 0) << past.err;
  EXPECT_EQ(links_left("out"), 15);
  EXPECT_EQ(Fleetsim(fmt::format("verify '{}/out'", dir_)).exit_code, 0);
  EXPECT_NE(ReadFile(dir_ + "/out/comparison.csv").find("fifo"), std::string::npos);

  const CommandResult taken = run_past("full", 16);
  EXPECT_EQ(taken.exit_code, 4) << taken.err;
  EXPECT_NE(taken.err.find(".comparison.csv."), std::string::npos) << taken.err;
  EXPECT_NE(taken.err.find("-15.tmp: cannot create: File exists"), std::string::npos) << taken.err;
  EXPECT_EQ(links_left("full"), 16);
  EXPECT_FALSE(fs::exists(dir_ + "/full/comparison.csv"));
  for (const fs::directory_entry& entry : fs::directory_iterator(dir_)) {
    EXPECT_EQ(entry.path().filename().string().find("victim"), std::string::npos)
        << entry.path() << " was written through a planted link";
  }
}

// A signal that lands while a temporary's name is tried removes the file only if this process
// made it: strace (-e inject) delivers SIGTERM as the open(2) of the first temporary returns, once
// where a file planted at that name makes it fail (the planted file must stay), once where it
// succeeds (the new, empty temporary must go: the signal waits until the file is registered as
// this process's). The open(2) to hit is found by a first run without the signal.
TEST_F(CliTest, ASignalWhileATemporaryIsMadeRemovesOnlyWhatThisProcessMade) {
  const auto run = [&](const std::string& out, bool planted, const std::string& inject) {
    return testing::RunCommand(
        fmt::format("cd '{}' && rm -rf {} && mkdir {} && "
                    // LeakSanitizer cannot run under ptrace (the ci-sanitize build)
                    "ASAN_OPTIONS=\"${{ASAN_OPTIONS:+$ASAN_OPTIONS:}}detect_leaks=0\" "
                    "strace -f -o {}.strace -e trace=openat "
                    "{} sh -c 'if [ \"$2\" = yes ]; then echo mine > {}/.jobs.csv.$$-0.tmp; fi; "
                    "exec \"$0\" run \"$1\" -p fifo --out {}' '{}' '{}' {}",
                    dir_, out, out, out, inject, out, out, FLEETSIM_CLI_PATH,
                    Example("tiny-contended"), planted ? "yes" : "no"),
        dir_);
  };
  // The position, among the traced open(2) calls, of the first temporary's (fleetsim's own).
  const auto first_temporary = [&](const std::string& out) {
    std::istringstream trace(ReadFile(dir_ + "/" + out + ".strace"));
    int position = 0;
    for (std::string line; std::getline(trace, line);) {
      if (line.find("openat(") == std::string::npos) {
        continue;
      }
      ++position;
      if (line.find("/.jobs.csv.") != std::string::npos &&
          line.find("O_EXCL") != std::string::npos) {  // not the shell's planting
        return position;
      }
    }
    return 0;
  };
  for (const bool planted : {true, false}) {
    SCOPED_TRACE(planted ? "a file planted at the name" : "a free name");
    const CommandResult dry = run("dry", planted, "");
    ASSERT_EQ(dry.exit_code, 0) << dry.err;
    const int position = first_temporary("dry");
    ASSERT_GT(position, 0) << ReadFile(dir_ + "/dry.strace");
    const CommandResult hit =
        run("hit", planted, fmt::format("-e inject=openat:signal=SIGTERM:when={}", position));
    EXPECT_NE(hit.exit_code, 0) << "SIGTERM ends the run";
    // The call the signal came with: the first temporary's, failed or made as planned.
    const std::string trace = ReadFile(dir_ + "/hit.strace");
    const std::size_t signal = trace.find("--- SIGTERM {si_signo=SIGTERM, si_code=SI_KERNEL");
    ASSERT_NE(signal, std::string::npos) << trace;
    const std::size_t signal_line = trace.rfind('\n', signal) + 1;  // after "PID  "
    ASSERT_GT(signal_line, 1U) << trace;
    const std::size_t call = trace.rfind('\n', signal_line - 2) + 1;
    const std::string call_line = trace.substr(call, signal_line - call);
    EXPECT_NE(call_line.find("/.jobs.csv."), std::string::npos) << call_line;
    EXPECT_NE(call_line.find("O_EXCL"), std::string::npos) << call_line;
    EXPECT_EQ(call_line.find("EEXIST") != std::string::npos, planted) << call_line;
    std::vector<std::string> left;
    for (const fs::directory_entry& entry : fs::directory_iterator(dir_ + "/hit")) {
      left.push_back(entry.path().filename().string());
    }
    if (planted) {
      ASSERT_EQ(left.size(), 1U) << fmt::format("{}", fmt::join(left, ", "));
      EXPECT_EQ(ReadFile(dir_ + "/hit/" + left[0]), "mine\n");
    } else {
      EXPECT_TRUE(left.empty()) << fmt::format("{}", fmt::join(left, ", "));
    }
  }
}

// A character device or FIFO, directly or through a link, or the process's own standard output,
// is written in place, never replaced by a regular file; a link to a regular file is replaced by
// the output, as atomic writers do (issue 19: `--sacct /dev/full` had replaced the device, as
// root, and reported success; `--html /dev/stdout > file` must reach that file after the table).
TEST_F(CliTest, AnOutputOntoADeviceOrFifoIsWrittenInPlace) {
  const std::string trace = SourcePath("tests/data/traces/jsonl/good.jsonl");
  const auto import_to = [&](const std::string& target) {
    return Fleetsim(
        fmt::format("import --from jsonl '{}' --to csv -o '{}/{}'", trace, dir_, target));
  };
  Write("real.csv", "old");
  fs::create_symlink(dir_ + "/real.csv", dir_ + "/link.csv");
  ASSERT_EQ(import_to("link.csv").exit_code, 0);
  EXPECT_FALSE(fs::is_symlink(dir_ + "/link.csv"));
  EXPECT_NE(ReadFile(dir_ + "/link.csv").find("submit_s"), std::string::npos);
  EXPECT_EQ(ReadFile(dir_ + "/real.csv"), "old");

  ASSERT_TRUE(fs::is_character_file("/dev/full"));
  fs::create_symlink("/dev/full", dir_ + "/full.csv");
  const CommandResult full = import_to("full.csv");
  EXPECT_EQ(full.exit_code, 4) << full.err;
  EXPECT_NE(full.err.find("cannot write: No space left on device"), std::string::npos) << full.err;
  EXPECT_TRUE(fs::is_symlink(dir_ + "/full.csv"));
  EXPECT_TRUE(fs::is_character_file("/dev/full"));

  ASSERT_EQ(mkfifo((dir_ + "/pipe").c_str(), 0600), 0);
  const CommandResult fifo = testing::RunCommand(
      fmt::format("cd '{}' && {{ timeout 20 cat pipe > got & timeout 20 '{}' import --from jsonl "
                  "'{}' --to csv -o pipe; rc=$?; wait; exit $rc; }}",
                  dir_, FLEETSIM_CLI_PATH, trace),
      dir_);
  EXPECT_EQ(fifo.exit_code, 0) << fifo.err;
  EXPECT_TRUE(fs::is_fifo(dir_ + "/pipe"));
  EXPECT_EQ(ReadFile(dir_ + "/got"), ReadFile(dir_ + "/link.csv"));

  // A regular file under /proc (or /dev/shm) is a file like any other: staged and renamed, so a
  // second run replaces the page rather than appending to it.
  for (int run = 0; run < 2; ++run) {
    ASSERT_EQ(
        testing::RunCommand(fmt::format("cd '{}' && '{}' run '{}' --html /proc/self/cwd/p.html",
                                        dir_, FLEETSIM_CLI_PATH, Example("tiny-contended")),
                            dir_)
            .exit_code,
        0);
  }
  const std::string twice = ReadFile(dir_ + "/p.html");
  EXPECT_EQ(twice.find("<!DOCTYPE"), twice.rfind("<!DOCTYPE")) << "one page, not two";

  // Standard output is a regular file here (RunCommand's): the page goes after the table.
  const CommandResult page =
      Fleetsim(fmt::format("run '{}' --html /dev/stdout", Example("tiny-contended")));
  EXPECT_EQ(page.exit_code, 0) << page.err;
  EXPECT_NE(page.out.find("tiny-contended"), std::string::npos);
  EXPECT_NE(page.out.find("<html"), std::string::npos);
  EXPECT_LT(page.out.find("tiny-contended"), page.out.find("<html"));
}

TEST_F(CliTest, UnwritableOutputDirectoryFailsWithoutPartialFiles) {
  const std::string blocker = Write("blocker", "a file where a directory should be");
  const CommandResult r =
      Fleetsim(fmt::format("run '{}' --out '{}/sub'", Example("tiny-contended"), blocker));
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_NE(r.err.find("fleetsim: cannot write results: "), std::string::npos) << r.err;
  EXPECT_EQ(ReadFile(blocker), "a file where a directory should be");
}

// Standard output on a full device: every command that writes there fails with exit status 4 and
// says so, instead of exiting 0 having written nothing (issue 19).
TEST_F(CliTest, AFullStandardOutputIsAnOutputError) {
  ASSERT_TRUE(fs::exists("/dev/full"));
  const std::string trace = SourcePath("tests/data/traces/jsonl/good.jsonl");
  for (const char* seed : {"1", "2"}) {
    ASSERT_EQ(Fleetsim(fmt::format("run '{}' --seed {} --out {}", Example("tiny-contended"), seed,
                                   seed[0] == '1' ? "a" : "b"))
                  .exit_code,
              0);
  }
  ASSERT_EQ(Fleetsim("compare a b").exit_code, 5);
  for (const std::string& args :
       {std::string("list gpus"), fmt::format("run '{}'", Example("tiny-contended")),
        fmt::format("import --from jsonl '{}' -o -", trace),
        // drift found (the seeds differ), but its report lost: 4, not 5
        std::string("compare a b")}) {
    const CommandResult r = testing::RunCommand(
        fmt::format("{{ '{}' {} > /dev/full; }}", FLEETSIM_CLI_PATH, args), dir_);
    EXPECT_EQ(r.exit_code, 4) << args;
    EXPECT_NE(r.err.find("fleetsim: cannot write to standard output"), std::string::npos)
        << args << ": " << r.err;
  }
}

TEST_F(CliTest, ListGpusShowsTheCatalogWithUnverifiedMarks) {
  const CommandResult r = Fleetsim("list gpus");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* model : {"A100-80GB", "H100-SXM", "H100-NVL", "H200", "B200", "B300", "GB200",
                            "GB300", "Rubin", "L40S"}) {
    EXPECT_NE(r.out.find(std::string("\n") + model + " "), std::string::npos) << model;
  }
  EXPECT_NE(r.out.find("'?': not verified by the sources"), std::string::npos);
}

TEST_F(CliTest, ListMigProfilesOfH100ShowsProfilesAndValidStarts) {
  const CommandResult r = Fleetsim("list mig-profiles H100");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "MIG profiles of H100-SXM\n"
            "profile      compute  memory  mem GB     valid starts max/GPU\n"
            "1g.10gb            1       1      10  {0,1,2,3,4,5,6}       7\n"
            "1g.10gb+me         1       1      10  {0,1,2,3,4,5,6}       1\n"
            "1g.20gb            1       2      20        {0,2,4,6}       4\n"
            "2g.20gb            2       2      20          {0,2,4}       3\n"
            "3g.40gb            3       4      40            {0,4}       2\n"
            "4g.40gb            4       4      40              {0}       1\n"
            "7g.80gb            7       8      80              {0}       1\n"
            "compute/memory: slices of 7 and 8; starts are memory-slice positions.\n");
  const CommandResult bad = Fleetsim("list mig-profiles H10");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("fleetsim: unknown GPU model 'H10', did you mean"), std::string::npos);
  EXPECT_EQ(Fleetsim("list mig-profiles L40S").out, "L40S does not support MIG.\n");
  // GPU names as labels and schedulers write them (issue 24); suggestions keep the generation.
  EXPECT_NE(Fleetsim("list mig-profiles NVIDIA-A100-SXM4-40GB").out.find("1g.5gb "),
            std::string::npos);
  EXPECT_EQ(Fleetsim("list mig-profiles h100").exit_code, 0);
  EXPECT_NE(Fleetsim("list mig-profiles h100x").err.find("did you mean 'H100'?"),
            std::string::npos);
}

TEST_F(CliTest, StaticMigLayoutsAreCheckedAgainstTheGeometry) {
  const std::string rejected = testing::DataPath("fleet/h100-4g-4g.json");
  const CommandResult r = Fleetsim(fmt::format("validate '{}'", rejected));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, rejected +
                       ": /fleet/pools/0/mig/static: error: 4g.40gb ×2 cannot be placed: 4g.40gb "
                       "can only start at memory slice 0, so the second instance overlaps the "
                       "first (memory slices 0-3); and 4 + 4 compute slices exceed the GPU's 7\n");
  const CommandResult ok =
      Fleetsim(fmt::format("validate '{}'", testing::DataPath("fleet/h100-4g-3g.json")));
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
}

// The same workload asked for in Slurm and Kubernetes words and in the job model's fields runs
// the same under every policy; jobs.csv shows the words back.
TEST_F(CliTest, RequestsInSchedulerWordsRunAsTheirFields) {
  const std::string words = testing::DataPath("request-words/words.json");
  const std::string fields = testing::DataPath("request-words/fields.json");
  for (const std::string policy : {"fifo", "backfill", "constraint-aware"}) {
    const CommandResult a = Fleetsim(
        fmt::format("run '{}' --policy {} --out '{}/words-{}'", words, policy, dir_, policy));
    const CommandResult b = Fleetsim(
        fmt::format("run '{}' --policy {} --out '{}/fields-{}'", fields, policy, dir_, policy));
    ASSERT_EQ(a.exit_code, 0) << a.err;
    ASSERT_EQ(b.exit_code, 0) << b.err;
    EXPECT_EQ(a.out, b.out) << policy;
    std::string jobs = ReadFile(dir_ + "/words-" + policy + "/jobs.csv");
    for (const std::string shown : {",gpu:h100:8,,", ",,\"cpu=16,memory=64Gi,nvidia.com/gpu=2\",",
                                    ",,nvidia.com/mig-3g.40gb=1,", ",gpu:a100_4g.40gb:1,,",
                                    ",gpu:4,,", ",gpu:h100:16,,", ",,cpu=8,"}) {
      const std::size_t at = jobs.find(shown);
      ASSERT_NE(at, std::string::npos) << shown << "\n" << jobs;
      jobs.replace(at, shown.size(), ",,,");
    }
    EXPECT_EQ(jobs, ReadFile(dir_ + "/fields-" + policy + "/jobs.csv")) << policy;
  }
}

TEST_F(CliTest, RequestWordsAreCheckedWhereTheyAreWritten) {
  const std::string bad = Write("bad-words.json", R"({
  "format_version": 1,
  "name": "bad-words",
  "fleet": {"pools": [{"name": "h100", "template": "hgx-h100", "nodes": 1}]},
  "jobs": [
    {"id": "a", "gres": "gpu:h900:8", "duration_s": 10},
    {"id": "b", "gres": "gpu:h100:8", "gpus": 8, "duration_s": 10},
    {"id": "c", "resources": {"nvidia.com/gpus": 1}, "duration_s": 10}
  ]
})");
  const CommandResult r = Fleetsim(fmt::format("validate '{}'", bad));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(bad + ": /jobs/0/gres: error: unknown GPU model 'h900'"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find(bad + ": /jobs/1/gpus: error: expected no 'gpus' beside 'gres', which "
                             "sets it, found 8"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find(bad + ": /jobs/2/resources: error: expected nvidia.com/gpu, "
                             "nvidia.com/mig-<profile>, cpu or memory, found 'nvidia.com/gpus', "
                             "did you mean 'nvidia.com/gpu'?"),
            std::string::npos)
      << r.err;
}

TEST_F(CliTest, FleetDescribesPoolsDomainsAndCost) {
  const CommandResult r = Fleetsim(fmt::format("fleet '{}'", Example("mixed-fleet")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("GPUs: 216 in 36 nodes, 6 racks"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("        1 of 72 GPUs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  total           1457.95"), std::string::npos) << r.out;
}

TEST_F(CliTest, CatalogOptionExtendsTheCatalogForEveryCommand) {
  const std::string catalog = testing::DataPath("fleet/extra-catalog.json");
  const std::string scenario = testing::DataPath("fleet/uses-extra-template.json");
  const CommandResult without = Fleetsim(fmt::format("validate '{}'", scenario));
  EXPECT_EQ(without.exit_code, 1);
  EXPECT_NE(without.err.find("unknown node template 'mi300x-8'"), std::string::npos) << without.err;
  const CommandResult with = Fleetsim(fmt::format("--catalog '{}' run '{}'", catalog, scenario));
  EXPECT_EQ(with.exit_code, 0) << with.err;
  EXPECT_NE(with.out.find("uses-extra-template"), std::string::npos);
  const CommandResult fleet = Fleetsim(fmt::format("--catalog '{}' fleet '{}'", catalog, scenario));
  EXPECT_NE(fleet.out.find("GPUs: 16 in 2 nodes, 1 rack\n"), std::string::npos) << fleet.out;
  const CommandResult missing =
      Fleetsim(fmt::format("--catalog /nonexistent.json validate '{}'", scenario));
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.err, "/nonexistent.json: cannot read: No such file or directory\n");
}

TEST_F(CliTest, VerboseLogsEngineEventsWithSimulatedTime) {
  for (const char* form : {"-v run '{}'", "run '{}' -v"}) {
    const CommandResult r = Fleetsim(fmt::format(fmt::runtime(form), Example("tiny-contended")));
    EXPECT_EQ(r.exit_code, 0) << form;
    EXPECT_NE(r.err.find("debug: [0d 00:00:00.000] start train-a on GPUs [0, 1, 2, 3]"),
              std::string::npos)
        << r.err;
  }
}

}  // namespace
}  // namespace fleetsim
