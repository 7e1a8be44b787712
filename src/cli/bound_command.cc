// `fleetsim bound`: check, solve, print, write.
#include "cli/bound_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <filesystem>

#include "cli/exit_status.h"
#include "cli/staged_outputs.h"
#include "fleetsim/bound/bound_problem.h"
#include "fleetsim/bound/bound_replay.h"
#include "fleetsim/bound/bound_report.h"
#include "fleetsim/bound/milp_bound.h"

namespace fleetsim::cli {

int RunBoundCommand(const BoundArgs& args, const std::vector<Scenario>& scenarios,
                    const std::vector<std::string>& files, std::ostream& out, std::ostream& err) {
  std::optional<SimDuration> step;
  if (args.step_s) {
    step = SecondsToTime(*args.step_s);
  }
  std::vector<BoundProblem> problems;
  std::vector<const Scenario*> solved;
  bool ok = true;
  for (std::size_t i = 0; i < scenarios.size(); ++i) {
    BoundProblemResult built = BoundProblemFromScenario(scenarios[i], step);
    for (const std::string& error : built.errors) {
      fmt::print(err, "{}: scenario '{}': the bound does not apply: {}\n", files[i],
                 scenarios[i].name, error);
    }
    if (!built.problem) {
      ok = false;
      continue;
    }
    problems.push_back(std::move(*built.problem));
    solved.push_back(&scenarios[i]);
  }
  if (!ok) {
    return ToInt(ExitStatus::kInvalidInput);
  }
  BoundOptions options{.time_limit_s = args.time_limit_s, .threads = args.threads};
  for (const std::string& option : args.cbc_options) {
    const std::size_t eq = option.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == option.size()) {
      fmt::print(err, "fleetsim: --cbc-option: expected NAME=VALUE, found '{}'\n", option);
      return ToInt(ExitStatus::kUsage);
    }
    if (!IsSolverParameter(option.substr(0, eq))) {
      fmt::print(err,
                 "fleetsim: --cbc-option: CBC has no parameter named '{}' that sets a value (an "
                 "action such as export or stop, or an abbreviation of several, is not one)\n",
                 option.substr(0, eq));
      return ToInt(ExitStatus::kUsage);
    }
    options.solver_parameters.emplace_back(option.substr(0, eq), option.substr(eq + 1));
  }
  std::vector<BoundReport> reports;
  for (std::size_t i = 0; i < problems.size(); ++i) {
    BoundReport report{.bound = SolveBound(problems[i], options), .replay = std::nullopt};
    if (report.bound.has_solution) {
      report.replay = ReplayBound(*solved[i], report.bound);
    }
    reports.push_back(std::move(report));
    fmt::print(out, "{}{}", reports.size() > 1 ? "\n" : "", BoundText(reports.back()));
    out.flush();
  }
  if (args.json_file.empty()) {
    return ToInt(ExitStatus::kOk);
  }
  StagedOutputs staged;
  if (const int status = staged.Stage({{args.json_file, BoundsJson(reports, options)}}, err);
      status != ToInt(ExitStatus::kOk)) {
    return status;
  }
  return staged.Commit(err);
}

}  // namespace fleetsim::cli
