// Shards and Slurm job arrays. A shard I/N of a sweep's or a plan's runs is those whose index is
// I-1 modulo N. `fleetsim sweep --slurm`: the sweep as a Slurm job array whose task I runs shard
// I/N (`fleetsim sweep SPEC --out DIR --shard I/N`), then a merge job that depends on it
// (`--dependency=afterok`): DIR/slurm/sweep.sbatch and DIR/slurm/merge.sbatch
// (docs/sweeps.md#on-a-slurm-cluster). `fleetsim plan --slurm`: the plan's whole grid the same
// way (`fleetsim plan SPEC --out DIR --shard I/N`), then a job that chooses from every run
// (`fleetsim plan SPEC --out DIR --exhaustive`): DIR/slurm/plan.sbatch and DIR/slurm/choose.sbatch
// (docs/planning.md#on-a-slurm-cluster). Both scripts are submitted with `sbatch` unless it is a
// dry run. Internal to the command-line tool.
#pragma once

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>

#include "cli/sweep_command.h"

namespace fleetsim::cli {

struct Shard {
  std::size_t index = 1;  // 1-based
  std::size_t count = 1;
  bool Has(std::size_t point) const { return point % count == index - 1; }
};

// --shard's value: the whole (1/1) when empty; nothing, after printing why on `err`, when it is
// not I/N.
std::optional<Shard> ShardOption(const std::string& text, std::ostream& err);

// What an array hands out: a sweep's points, or a plan's grid.
enum class SlurmWork { kSweep, kPlan };

struct SlurmSweep {
  SlurmWork work = SlurmWork::kSweep;
  std::string name;       // the spec's
  std::string spec_path;  // absolute
  std::string out_dir;    // absolute
  std::string fleetsim;   // the fleetsim binary, absolute
  std::size_t points = 0;
  bool strict = false;
  // The command's --policy-module files, absolute: every script's fleetsim loads them too.
  std::vector<std::string> policy_modules{};
};

// The array's size for `points` runs: ceil(points / runs per task), the default runs per task
// keeping it at most kMaxDefaultArrayTasks.
inline constexpr std::size_t kMaxDefaultArrayTasks = 1'000;
std::size_t ArrayTasks(std::size_t points, std::size_t runs_per_task);

// The two job scripts' text: the array, and the job that runs after it (a sweep's merge, a
// plan's choice).
std::string SweepSbatch(const SlurmSweep& sweep, const SlurmArgs& args, std::size_t tasks);
std::string MergeSbatch(const SlurmSweep& sweep, const SlurmArgs& args);

// Writes the scripts and, unless a dry run, submits them; prints what it did and how to follow
// the jobs on `out`, problems on `err`. Returns the exit status.
int SubmitSweep(const SlurmSweep& sweep, const SlurmArgs& args, std::ostream& out,
                std::ostream& err);

}  // namespace fleetsim::cli
