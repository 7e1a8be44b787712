// `fleetsim plan`: load a plan spec, expand its decision grid, search it for the cheapest fleet
// that meets every target (or run the whole grid with --exhaustive), recording each run so a
// second call resumes, and write plan.csv and plan.json (docs/planning.md). Internal to the
// command-line tool.
#pragma once

#include <string>

#include "cli/sweep_command.h"

namespace fleetsim::cli {

struct PlanArgs {
  std::string spec;
  std::string out_dir;
  unsigned threads = 0;  // 0: one per hardware thread
  bool exhaustive = false;
  bool strict = false;
  std::string shard;  // "I/N": run only that shard of the whole grid, record it, report nothing
  SlurmArgs slurm{};  // --slurm: the whole grid as a job array, then a job that chooses
};

int RunPlanCommand(const PlanArgs& args, const SweepContext& context);

}  // namespace fleetsim::cli
