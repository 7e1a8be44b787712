// `fleetsim sweep --slurm`: the job scripts it writes (a dry run), and the whole path on a real
// Slurm — a private cluster started by tools/slurm-local (Debian's slurmctld, slurmd,
// slurm-client and munge, which tools/run-tests installs; missing, the test fails, it never
// skips) — whose array and merge jobs must write the same bytes as a local `fleetsim sweep`.
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
using testing::ReadFile;

class SweepSlurmCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::FreshTempDir();
    fs::copy_file(testing::DataPath("sweep/base.json"), dir_ + "/base.json");
    fs::copy_file(testing::DataPath("sweep/grid.json"), dir_ + "/grid.json");
  }
  void TearDown() override {
    if (!HasFailure()) {
      fs::remove_all(dir_);
    }
  }
  CommandResult Run(const std::string& command) { return testing::RunCommand(command, dir_); }
  std::string Fleetsim() const { return fmt::format("'{}'", FLEETSIM_CLI_PATH); }

  std::string dir_;
};

TEST_F(SweepSlurmCliTest, ADryRunWritesTheJobScriptsAndSubmitsNothing) {
  const CommandResult r = Run(fmt::format(
      "PATH=/nonexistent {} sweep '{}/grid.json' -o '{}/out' --slurm --runs-per-task 8 "
      "--array-max 3 --partition gpu --account team --time 30 --dry-run",
      Fleetsim(), dir_, dir_));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("(6 tasks for 42 runs)"), std::string::npos) << r.out;
  const std::string array = ReadFile(dir_ + "/out/slurm/sweep.sbatch");
  EXPECT_NE(array.find("#SBATCH --array=1-6%3\n"), std::string::npos) << array;
  EXPECT_NE(array.find("#SBATCH --partition=gpu\n#SBATCH --account=team\n#SBATCH --time=30\n"),
            std::string::npos)
      << array;
  EXPECT_NE(array.find(fmt::format("sweep '{0}/grid.json' --out '{0}/out' --shard "
                                   "\"${{SLURM_ARRAY_TASK_ID}}/6\" -j 1",
                                   dir_)),
            std::string::npos)
      << array;
  const std::string merge = ReadFile(dir_ + "/out/slurm/merge.sbatch");
  EXPECT_NE(merge.find(fmt::format("sweep merge '{}/out'", dir_)), std::string::npos) << merge;
  EXPECT_TRUE(fs::exists(dir_ + "/out/.sweep/points.json"));
  EXPECT_FALSE(fs::exists(dir_ + "/out/results.csv"));
}

TEST_F(SweepSlurmCliTest, SlurmWithAShardIsAUsageError) {
  const CommandResult r = Run(fmt::format("{} sweep '{}/grid.json' -o '{}/out' --slurm --shard 1/2",
                                          Fleetsim(), dir_, dir_));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--slurm makes the shards itself"), std::string::npos) << r.err;
}

TEST_F(SweepSlurmCliTest, AnArrayAndItsMergeOnARealSlurmWriteWhatALocalSweepWrites) {
  // Submit, then wait (at most 120 s) until the queue is empty: the array and the merge ran.
  const std::string script = fmt::format(
      "{0} sweep '{1}/grid.json' -o '{1}/slurm-out' --slurm --runs-per-task 8 || exit 1\n"
      "for i in $(seq 1 600); do [ -z \"$(squeue -h)\" ] && exit 0; sleep 0.2; done\n"
      "echo 'the jobs did not finish in 120 s' >&2; squeue >&2; exit 1\n",
      Fleetsim(), dir_);
  std::ofstream(dir_ + "/submit.sh") << script;
  const CommandResult slurm =
      Run(fmt::format("'{}' run '{}/cluster' --nodes 2 --cpus 2 -- bash '{}/submit.sh'",
                      testing::SourcePath("tools/slurm-local"), dir_, dir_));
  ASSERT_EQ(slurm.exit_code, 0) << slurm.out << slurm.err
                                << Run(fmt::format("'{}' logs '{}/cluster'",
                                                   testing::SourcePath("tools/slurm-local"), dir_))
                                       .out;
  EXPECT_NE(slurm.out.find("array job"), std::string::npos) << slurm.out;
  const CommandResult local =
      Run(fmt::format("{} sweep '{}/grid.json' -o '{}/local'", Fleetsim(), dir_, dir_));
  ASSERT_EQ(local.exit_code, 0) << local.err;
  for (const char* file : {"results.csv", "results.json", "summary.csv", "report.html"}) {
    EXPECT_EQ(ReadFile(dir_ + "/slurm-out/" + file), ReadFile(dir_ + "/local/" + file))
        << file << " differs between the Slurm and the local sweep";
  }
  EXPECT_EQ(Run(fmt::format("{} verify '{}/slurm-out'", Fleetsim(), dir_)).exit_code, 0);
}

}  // namespace
}  // namespace fleetsim
