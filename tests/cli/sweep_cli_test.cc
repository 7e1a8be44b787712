// End-to-end tests of `fleetsim sweep`: results byte-identical whatever -j is and when run as
// shards then merged; a rerun skips finished runs and a changed spec reruns only what changed;
// a failed run is recorded while the others finish (exit 6); bad specs, a bad --shard, a folder
// holding another sweep and an incomplete merge each get a clear message, a non-zero exit and
// leave nothing half-written.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "testutil/command.h"
#include "testutil/paths.h"

namespace fleetsim {
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;
using testing::DataPath;
using testing::ReadFile;

const std::vector<std::string> kResultFiles = {"results.csv", "results.json", "summary.csv",
                                               "report.html"};

class SweepCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::FreshTempDir();
    fs::copy_file(DataPath("sweep/base.json"), dir_ + "/base.json");
    fs::copy_file(DataPath("sweep/grid.json"), dir_ + "/grid.json");
  }
  void TearDown() override { fs::remove_all(dir_); }

  CommandResult Fleetsim(const std::string& args) {
    return testing::RunCommand(fmt::format("'{}' {}", FLEETSIM_CLI_PATH, args), dir_);
  }
  CommandResult Sweep(const std::string& out, const std::string& extra = "",
                      const std::string& spec = "grid.json") {
    return Fleetsim(fmt::format("sweep '{}/{}' -o '{}/{}' {}", dir_, spec, dir_, out, extra));
  }
  std::string Write(const std::string& name, const std::string& text) {
    std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  void ExpectSameResults(const std::string& a, const std::string& b) {
    for (const std::string& file : kResultFiles) {
      EXPECT_EQ(ReadFile(dir_ + "/" + a + "/" + file), ReadFile(dir_ + "/" + b + "/" + file))
          << file << " differs between " << a << " and " << b;
    }
  }

  std::string dir_;
};

TEST_F(SweepCliTest, ResultsAreTheSameWhateverTheThreadsAndShards) {
  const CommandResult one = Sweep("one", "-j 1");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_NE(one.err.find("sweep 'grid': 42 runs (12 combinations excluded, 18 that repeat a run "
                         "listed before them, 0 invalid)"),
            std::string::npos)
      << one.err;
  ASSERT_EQ(Sweep("four", "-j 4").exit_code, 0);
  ExpectSameResults("one", "four");
  // Three shards, two of them in one folder (as array tasks on a shared filesystem), one apart.
  ASSERT_EQ(Sweep("shards", "--shard 1/3").exit_code, 0);
  ASSERT_EQ(Sweep("shards", "--shard 3/3 -j 2").exit_code, 0);
  const CommandResult apart = Sweep("apart", "--shard 2/3");
  ASSERT_EQ(apart.exit_code, 0) << apart.err;
  EXPECT_NE(apart.out.find("shard 2/3 of sweep 'grid' done (0 failed)"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir_ + "/apart/results.csv")) << "a shard writes no results";
  const CommandResult merged =
      Fleetsim(fmt::format("sweep merge '{0}/shards' '{0}/apart'", dir_));
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  ExpectSameResults("one", "shards");
  const std::string csv = ReadFile(dir_ + "/one/results.csv");
  EXPECT_EQ(csv.rfind("point,run_id,scenario,policy,seed,decay,nodes,fleet,status,", 0), 0U);
  EXPECT_EQ(Fleetsim(fmt::format("verify '{}/one'", dir_)).exit_code, 0);
}

TEST_F(SweepCliTest, ARerunSkipsFinishedRunsAndAChangedSpecRunsOnlyWhatChanged) {
  ASSERT_EQ(Sweep("out").exit_code, 0);
  const std::string before = ReadFile(dir_ + "/out/results.csv");
  const CommandResult again = Sweep("out");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.err.find("0 to run, 42 done before"), std::string::npos) << again.err;
  EXPECT_EQ(ReadFile(dir_ + "/out/results.csv"), before);
  // One more seed: 14 new runs (fifo 4, backfill 2, constraint-aware 8), the rest reused.
  std::string spec = ReadFile(dir_ + "/grid.json");
  spec.replace(spec.find(R"("last": 3)"), 9, R"("last": 4)");
  Write("grid.json", spec);
  const CommandResult changed = Sweep("out");
  ASSERT_EQ(changed.exit_code, 0) << changed.err;
  EXPECT_NE(changed.err.find("14 to run, 42 done before"), std::string::npos) << changed.err;
}

TEST_F(SweepCliTest, AFailedRunIsRecordedAndTheOthersFinish) {
  Write("bad.json", R"({"format_version": 1, "kind": "sweep", "name": "bad", "base": "base.json",
    "axes": [{"name": "nodes", "pointer": "/fleet/pools/0/nodes", "values": [1, "four", 2]}]})");
  const CommandResult r = Sweep("out", "", "bad.json");
  EXPECT_EQ(r.exit_code, 6) << r.err;
  EXPECT_NE(r.err.find("fleetsim: run 1 failed (scenario=small, policy=constraint-aware, seed=5, "
                       "nodes=four): base.json: /fleet/pools/0/nodes: error: expected an "
                       "integer"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("/fleet/pools/0/nodes: error: expected an integer"), std::string::npos)
      << r.err;
  const std::string csv = ReadFile(dir_ + "/out/results.csv");
  EXPECT_NE(csv.find("\n0,"), std::string::npos);
  EXPECT_NE(csv.find(",four,invalid,1,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\n2,"), std::string::npos);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n') >= 4, true);
}

TEST_F(SweepCliTest, BadSpecsAndArgumentsAreRefusedAndWriteNothing) {
  Write("empty-axis.json", R"({"format_version": 1, "kind": "sweep", "name": "e", "base": "base.json",
    "axes": [{"name": "nodes", "pointer": "/fleet/pools/0/nodes", "values": []}]})");
  CommandResult r = Sweep("e", "", "empty-axis.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("/axes/0/values: error: expected at least one value, found none"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir_ + "/e"));

  Write("nothing.json", R"({"format_version": 1, "kind": "sweep", "name": "n", "base": "base.json",
    "axes": [{"name": "nodes", "pointer": "/fleet/pool/0/nodes", "values": [1]}]})");
  r = Sweep("n", "", "nothing.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("/axes/0/pointer: \"/fleet/pool/0/nodes\" points to nothing"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir_ + "/n"));

  r = Sweep("s", "--shard 3/2");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--shard: expected I/N with 1 <= I <= N, found '3/2'"), std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir_ + "/s"));
}

TEST_F(SweepCliTest, AFolderHoldingAnotherSweepIsRefusedUntouched) {
  ASSERT_EQ(Sweep("out").exit_code, 0);
  const std::string before = ReadFile(dir_ + "/out/results.csv");
  Write("other.json", R"({"format_version": 1, "kind": "sweep", "name": "other",
    "base": "base.json", "axes": [{"name": "policy", "values": ["fifo"]}]})");
  const CommandResult r = Sweep("out", "", "other.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("holds the results of another sweep ('grid', not 'other')"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(ReadFile(dir_ + "/out/results.csv"), before);
  fs::create_directories(dir_ + "/busy");
  Write("busy/notes.txt", "mine");
  const CommandResult busy = Sweep("busy");
  EXPECT_EQ(busy.exit_code, 2);
  EXPECT_NE(busy.err.find("exists and holds no sweep"), std::string::npos) << busy.err;
}

TEST_F(SweepCliTest, MergingIncompleteShardsNamesWhatIsMissing) {
  ASSERT_EQ(Sweep("a", "--shard 1/2").exit_code, 0);
  const CommandResult r = Fleetsim(fmt::format("sweep merge '{}/a'", dir_));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("21 of 42 runs have no record yet (first: run 1,"), std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir_ + "/a/results.csv"));
}

TEST_F(SweepCliTest, MergingIntoAFolderHoldingAnotherSweepOrRunIsRefusedUntouched) {
  ASSERT_EQ(Sweep("a", "--shard 1/2").exit_code, 0);
  ASSERT_EQ(Sweep("b", "--shard 2/2").exit_code, 0);
  Write("other.json", R"({"format_version": 1, "kind": "sweep", "name": "other",
    "base": "base.json", "axes": [{"name": "policy", "values": ["fifo"]}]})");
  ASSERT_EQ(Sweep("other", "", "other.json").exit_code, 0);
  const std::string before = ReadFile(dir_ + "/other/results.csv");
  const CommandResult r = Fleetsim(fmt::format("sweep merge '{0}/a' '{0}/b' -o '{0}/other'", dir_));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("holds the results of another sweep ('other', not 'grid')"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(ReadFile(dir_ + "/other/results.csv"), before);
  ASSERT_EQ(Fleetsim(fmt::format("run '{0}/base.json' --out '{0}/run'", dir_)).exit_code, 0);
  const CommandResult run = Fleetsim(fmt::format("sweep merge '{0}/a' '{0}/b' -o '{0}/run'", dir_));
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("exists and holds no sweep"), std::string::npos) << run.err;
  EXPECT_FALSE(fs::exists(dir_ + "/run/results.csv"));
  // A new folder takes the merge, and is this sweep's from then on: merging again is allowed.
  ASSERT_EQ(Fleetsim(fmt::format("sweep merge '{0}/a' '{0}/b' -o '{0}/merged'", dir_)).exit_code,
            0);
  ASSERT_EQ(Fleetsim(fmt::format("sweep merge '{0}/a' '{0}/b' -o '{0}/merged'", dir_)).exit_code,
            0);
  ASSERT_EQ(Sweep("one").exit_code, 0);
  ExpectSameResults("one", "merged");
}

TEST_F(SweepCliTest, ARecordCutShortIsRunAgainAndTheJournalStaysReadable) {
  // What a kill or a full disk in the middle of a journal write leaves: a last line cut short.
  ASSERT_EQ(Sweep("out", "--shard 1/2").exit_code, 0);
  ASSERT_EQ(Sweep("out", "--shard 2/2").exit_code, 0);
  const fs::path journal = fs::path(dir_) / "out" / ".sweep" / "runs-1-of-2.jsonl";
  fs::resize_file(journal, fs::file_size(journal) - 50);
  const CommandResult again = Sweep("out", "--shard 1/2");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.err.find("not a run record (a run cut short?)"), std::string::npos) << again.err;
  const std::string text = ReadFile(journal.string());
  EXPECT_EQ(text.back(), '\n');
  // Every line is a whole record: a rerun finds nothing to do and warns of nothing.
  const CommandResult third = Sweep("out", "--shard 1/2");
  ASSERT_EQ(third.exit_code, 0) << third.err;
  EXPECT_EQ(third.err.find("warning"), std::string::npos) << third.err;
  EXPECT_NE(third.err.find("0 to run, 21 done before"), std::string::npos) << third.err;
  ASSERT_EQ(Fleetsim(fmt::format("sweep merge '{}/out'", dir_)).exit_code, 0);
  ASSERT_EQ(Sweep("one").exit_code, 0);
  ExpectSameResults("one", "out");
  // Only the newline lost: the record is whole, read, kept, and its line ended.
  fs::resize_file(journal, fs::file_size(journal) - 1);
  const CommandResult kept = Sweep("out", "--shard 1/2");
  ASSERT_EQ(kept.exit_code, 0) << kept.err;
  EXPECT_NE(kept.err.find("0 to run, 21 done before"), std::string::npos) << kept.err;
  EXPECT_EQ(ReadFile(journal.string()), text);
  ASSERT_EQ(Fleetsim(fmt::format("sweep merge '{}/out'", dir_)).exit_code, 0);
}

TEST_F(SweepCliTest, KeepRunsWritesEachRunsFiles) {
  Write("two.json", R"({"format_version": 1, "kind": "sweep", "name": "two", "base": "base.json",
    "axes": [{"name": "policy", "values": ["fifo", "backfill"]}]})");
  ASSERT_EQ(Sweep("out", "--keep-runs", "two.json").exit_code, 0);
  std::size_t runs = 0;
  for (const auto& entry : fs::directory_iterator(dir_ + "/out/runs")) {
    EXPECT_TRUE(fs::exists(entry.path() / "summary.json"));
    EXPECT_TRUE(fs::exists(entry.path() / "jobs.csv"));
    ++runs;
  }
  EXPECT_EQ(runs, 2U);
}

TEST_F(SweepCliTest, TheWorkedExamplesMatchTheSchemaAndExpand) {
  for (const std::string& spec : testing::FilesIn("scenarios/sweeps", ".json")) {
    const CommandResult r = Fleetsim(fmt::format("sweep '{}' --list --strict", spec));
    EXPECT_EQ(r.exit_code, 0) << spec << "\n" << r.err;
  }
}

TEST_F(SweepCliTest, AKilledSweepResumesToTheSameResults) {
  // Seeds 1-100 of the grid: long enough (about a second) to be killed part way on most machines;
  // if it finishes first, the rerun has nothing to do and the results must still match.
  std::string spec = ReadFile(dir_ + "/grid.json");
  spec.replace(spec.find(R"("last": 3)"), 9, R"("last": 100)");
  Write("long.json", spec);
  const CommandResult killed = Fleetsim(fmt::format(
      "sweep '{0}/long.json' -o '{0}/out' -j 1 --check-invariants & pid=$!; sleep 0.2; "
      "kill -9 $pid; wait $pid",
      dir_));
  const CommandResult resumed = Sweep("out", "", "long.json");
  ASSERT_EQ(resumed.exit_code, 0) << killed.err << resumed.err;
  ASSERT_EQ(Sweep("fresh", "", "long.json").exit_code, 0);
  ExpectSameResults("out", "fresh");
  EXPECT_NE(resumed.err.find(" done before"), std::string::npos) << resumed.err;
}

TEST_F(SweepCliTest, AFolderHoldingOnlyTheStateFolderIsOneAShardIsLayingOut) {
  // What a shard sees when another, started at the same time, has created the state folder but
  // not yet written the layout into it.
  fs::create_directories(fs::path(dir_) / "starting" / ".sweep");  // the state folder
  ASSERT_EQ(Sweep("starting").exit_code, 0);
  ASSERT_EQ(Sweep("one").exit_code, 0);
  ExpectSameResults("one", "starting");
  // With anything else beside it, the folder is someone else's.
  fs::create_directories(fs::path(dir_) / "taken" / ".sweep");
  std::ofstream(fs::path(dir_) / "taken" / "notes.txt") << "mine";
  const CommandResult taken = Sweep("taken");
  EXPECT_EQ(taken.exit_code, 2) << taken.err;
  EXPECT_NE(taken.err.find("exists and holds no sweep"), std::string::npos) << taken.err;
}

TEST_F(SweepCliTest, ShardsStartedTogetherInOneNewFolderMergeToTheSameResults) {
  // As array tasks do: every shard writes the folder's layout, at once.
  const CommandResult shards = Fleetsim(fmt::format(
      "sweep '{0}/grid.json' -o '{0}/together' --shard 1/3 & a=$!; "
      "'{1}' sweep '{0}/grid.json' -o '{0}/together' --shard 2/3 & b=$!; "
      "'{1}' sweep '{0}/grid.json' -o '{0}/together' --shard 3/3 & c=$!; "
      "wait $a && wait $b && wait $c",
      dir_, FLEETSIM_CLI_PATH));
  EXPECT_EQ(shards.exit_code, 0) << shards.err;
  EXPECT_EQ(shards.err.find("fleetsim:"), std::string::npos) << shards.err;
  ASSERT_EQ(Fleetsim(fmt::format("sweep merge '{}/together'", dir_)).exit_code, 0);
  ASSERT_EQ(Sweep("one").exit_code, 0);
  ExpectSameResults("one", "together");
}

}  // namespace
}  // namespace fleetsim
