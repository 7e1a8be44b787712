// `fleetsim sweep`: expand a sweep spec, run its points on all cores (or one shard of them),
// resume what a previous run left, and write the results; `fleetsim sweep merge`: join the
// shards' records into the results one machine would have written (docs/sweeps.md). Internal to
// the command-line tool.
#pragma once

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "fleetsim/fleet/catalog.h"
#include "fleetsim/policy/registry.h"
#include "fleetsim/sweep/sweep_spec.h"

namespace fleetsim::cli {

// `--slurm`: hand the sweep to Slurm as a job array of shards and a dependent merge job.
struct SlurmArgs {
  bool enabled = false;
  std::string partition{};        // #SBATCH --partition, when given
  std::string account{};          // #SBATCH --account, when given
  std::string time{};             // #SBATCH --time per task, when given (Slurm's formats)
  std::size_t array_max = 0;      // at most this many tasks at once (--array=1-N%K); 0: no limit
  std::size_t runs_per_task = 0;  // 0: enough that the array has at most 1,000 tasks
  bool dry_run = false;           // write the scripts, submit nothing
};

struct SweepArgs {
  std::string spec;
  std::string out_dir;
  unsigned threads = 0;    // 0: one per hardware thread
  std::string shard;       // "I/N", 1 <= I <= N; "" runs every point
  bool strict = false;     // unknown keys are errors, in the spec and in every point
  bool keep_runs = false;  // each run's summary.json, jobs.csv (and realtime.csv) under runs/ID/
  bool list = false;       // print the points and stop
  bool check_invariants = false;
  SlurmArgs slurm{};
};

struct SweepMergeArgs {
  std::vector<std::string> dirs;
  std::string out_dir;  // "": the first of dirs
};

struct SweepContext {
  const PolicyRegistry& registry;
  const Catalog* catalog;
  std::vector<std::string> policy_modules;  // --policy-module files, absolute
  std::ostream& out;
  std::ostream& err;
  bool err_is_terminal;
};

int RunSweepCommand(const SweepArgs& args, const SweepContext& context);

// What `fleetsim sweep` and `fleetsim plan` do first. ReportLoad prints a spec's load problems
// (a file error, or its diagnostics) on `err` and tells whether the spec loaded; ExpandReported
// expands the runs, printing the expansion's warnings and errors, and returns nothing when there
// were errors.
template <typename Load>
bool ReportLoad(const Load& load, const std::string& path, std::ostream& err) {
  if (!load.file_status.ok()) {
    err << load.file_status.message() << '\n';
    return false;
  }
  err << load.diagnostics.Format(path);
  return load.spec.has_value();
}
std::optional<SweepExpansion> ExpandReported(const SweepSpec& runs, bool strict,
                                             const SweepContext& context);
int RunSweepMerge(const SweepMergeArgs& args, const SweepContext& context);

}  // namespace fleetsim::cli
