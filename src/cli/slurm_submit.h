// `fleetsim sweep --slurm`: the sweep as a Slurm job array whose task I runs shard I/N
// (`fleetsim sweep SPEC --out DIR --shard I/N`), then a merge job that depends on it
// (`--dependency=afterok`). Writes DIR/slurm/sweep.sbatch and DIR/slurm/merge.sbatch and submits
// both with `sbatch` unless it is a dry run (docs/sweeps.md#on-a-slurm-cluster). Internal to the
// command-line tool.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>

#include "cli/sweep_command.h"

namespace fleetsim::cli {

struct SlurmSweep {
  std::string name;          // the spec's
  std::string spec_path;     // absolute
  std::string out_dir;       // absolute
  std::string fleetsim;      // the fleetsim binary, absolute
  std::size_t points = 0;
  bool strict = false;
};

// The array's size for `points` runs: ceil(points / runs per task), the default runs per task
// keeping it at most kMaxDefaultArrayTasks.
inline constexpr std::size_t kMaxDefaultArrayTasks = 1'000;
std::size_t ArrayTasks(std::size_t points, std::size_t runs_per_task);

// The two job scripts' text.
std::string SweepSbatch(const SlurmSweep& sweep, const SlurmArgs& args, std::size_t tasks);
std::string MergeSbatch(const SlurmSweep& sweep, const SlurmArgs& args);

// Writes the scripts and, unless a dry run, submits them; prints what it did and how to follow
// the jobs on `out`, problems on `err`. Returns the exit status.
int SubmitSweep(const SlurmSweep& sweep, const SlurmArgs& args, std::ostream& out,
                std::ostream& err);

}  // namespace fleetsim::cli
