// `fleetsim bound`: the clairvoyant MILP upper bound on each scenario's priority-weighted output
// (include/fleetsim/bound/milp_bound.h), solved with CBC and printed with its schedule; `--json`
// writes the bounds file `fleetsim bench` reads (docs/cli.md#fleetsim-bound). Internal to the
// command-line tool.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "fleetsim/scenario/scenario.h"

namespace fleetsim::cli {

struct BoundArgs {
  std::vector<std::string> scenarios;
  double time_limit_s = 60;
  int threads = 1;
  std::optional<double> step_s;  // the grid step; default: the services' demand step (or 1 h)
  std::vector<std::string> cbc_options;  // "NAME=VALUE": more CBC parameters
  std::string json_file;
  bool strict = false;
};

// Builds every scenario's model first (any scenario the model does not fit: every reason printed,
// exit status 1, nothing solved), then solves them in order, printing each as it is done, then
// writes --json. Returns the exit status.
int RunBoundCommand(const BoundArgs& args, const std::vector<Scenario>& scenarios,
                    const std::vector<std::string>& files, std::ostream& out, std::ostream& err);

}  // namespace fleetsim::cli
