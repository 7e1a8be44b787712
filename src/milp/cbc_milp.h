// A mixed-integer linear program, built column by column and row by row, and its solution with
// COIN-OR CBC (through CBC's C interface, Cbc_C_Interface.h). The milp module is the one that
// sees CBC: the model is plain data, so it can be built and inspected without a solver. Used by
// the bound module (the clairvoyant upper bound) and by constraint-aware's full mode. Milp is a
// value type; SolveMilp owns its CBC model for the call and is safe to call from several threads
// at once (each call has its own model).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "fleetsim/core/status.h"

namespace fleetsim::milp {

inline constexpr double kMilpInfinity = 1e30;

struct MilpColumn {
  double lower = 0;
  double upper = kMilpInfinity;
  double objective = 0;
  bool integer = false;
};

// lower <= sum of coefficient x column <= upper.
struct MilpRow {
  std::vector<int> columns{};
  std::vector<double> coefficients{};
  double lower = -kMilpInfinity;
  double upper = kMilpInfinity;
};

struct Milp {
  bool maximize = true;
  std::vector<MilpColumn> columns{};
  std::vector<MilpRow> rows{};

  int AddColumn(const MilpColumn& column) {
    columns.push_back(column);
    return static_cast<int>(columns.size()) - 1;
  }
  void AddRow(MilpRow row) { rows.push_back(std::move(row)); }
};

struct MilpOptions {
  double time_limit_s = 60;  // the search stops here; what it has is then reported
  // Branch-and-bound nodes the search may explore (0: no limit). With one thread a node limit
  // stops the search at the same point on every run, which a time limit does not.
  std::int64_t max_nodes = 0;
  int threads = 1;  // CBC's branch-and-bound threads
  // More CBC parameters (name, value), as CBC's command line takes them, after ours.
  std::vector<std::pair<std::string, std::string>> parameters{};
};

struct MilpSolution {
  bool has_solution = false;    // a feasible solution was found (values, objective)
  bool proven_optimal = false;  // the search finished: objective is the optimum
  bool infeasible = false;      // proven to have no solution
  bool time_limit = false;      // stopped by the time limit
  bool node_limit = false;      // stopped by the node limit
  double objective = 0;         // of the best solution
  // The best bound on the optimum the search proved (>= objective when maximizing). Equal to
  // the objective when proven optimal.
  double best_bound = 0;
  std::vector<double> values{};  // by column, of the best solution
  double seconds = 0;            // wall-clock time of the solve
  std::int64_t nodes = 0;        // branch-and-bound nodes explored
  std::string status{};          // CBC's status in words, for messages
  // Refused when CBC's solution breaks the model (a row, a bound or integrality, beyond 1e-6):
  // then its search is not to be trusted, and has_solution and proven_optimal are false.
  Status model_check{};
};

// Solves `milp` with CBC, quietly (no solver log). Gaps: none allowed (ratio gap 0, absolute gap
// 1e-9), so "proven optimal" means the search closed. CBC's preprocessing is off: on this
// project's models it has reported false optima (a solution found in the preprocessed model
// failed to map back, "Postprocessed model is infeasible", yet its value cut the search), which
// would make an upper bound unsound. CBC's feasibility pump (a heuristic that looks for a first
// solution) is off too: in Debian's CBC 2.10.8, built with its assertions, it aborted the whole
// process on small models of full mode's window (a failed assertion in Clp, SIGABRT; four
// scenarios of the random family, tests/data/repro/full-mode-cbc-abort). Without it the same
// models solve, and the seven benchmark bounds reach the same optima in about the same total
// time. The solution is checked against the model.
MilpSolution SolveMilp(const Milp& milp, const MilpOptions& options);

// Whether CBC's command line takes a parameter of this name that sets a value (exactly, or as an
// abbreviation it accepts), not one of its actions (export, import, solve, stop: they would
// write files or cut the search short): CBC itself only prints "No match" for a name it does not
// know, and goes on.
bool IsSolverParameter(const std::string& name);

// The optimum of the LP relaxation (every column continuous): a weaker bound, but one that needs
// no search. Returns nullopt-like NaN when CBC finds none.
double SolveLpRelaxation(const Milp& milp);

// The largest violation by `values` of a row, a column bound or integrality (0 when feasible).
double MaxViolation(const Milp& milp, const std::vector<double>& values);

}  // namespace fleetsim::milp
