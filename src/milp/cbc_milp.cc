// SolveMilp: the Milp handed to CBC's C interface as a column-major matrix, solved by CbcMain1
// (cuts and heuristics at CBC's defaults but for preprocessing and the feasibility pump, both
// off: see SolveMilp), read back and checked against every row of the model.
#include "milp/cbc_milp.h"

#include <coin/Cbc_C_Interface.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <coin/CbcOrClpParam.hpp>
#include <limits>
#include <memory>
#include <string>

// CBC (Debian's build, not instrumented) leaves memory allocated after a solve with several
// threads (`--threads 2`: about 20 blocks, seen under LeakSanitizer; one thread leaves none). In
// a build with AddressSanitizer, LeakSanitizer would report that at exit and fail the run; these
// suppressions keep its reports to leaks that are not CBC's. This object is linked whenever
// SolveMilp is, so the hook comes with it.
#if defined(FLEETSIM_SANITIZED)
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libCbc\nleak:libCgl\nleak:libClp\nleak:libOsi\nleak:libCoinUtils\n";
}
#endif

namespace fleetsim::milp {

namespace {

struct CbcDeleter {
  void operator()(Cbc_Model* model) const { Cbc_deleteModel(model); }
};

std::string StatusText(Cbc_Model* model) {
  if (Cbc_isProvenOptimal(model) != 0) {
    return "optimal";
  }
  if (Cbc_isProvenInfeasible(model) != 0) {
    return "infeasible";
  }
  if (Cbc_isSecondsLimitReached(model) != 0) {
    return "time limit";
  }
  if (Cbc_isAbandoned(model) != 0) {
    return "abandoned (numerical difficulties)";
  }
  return fmt::format("stopped (CBC status {}, secondary {})", Cbc_status(model),
                     Cbc_secondaryStatus(model));
}

// A CBC model holding `milp` (integer columns marked when `integers`).
std::unique_ptr<Cbc_Model, CbcDeleter> Load(const Milp& milp, bool integers) {
  const auto columns = static_cast<int>(milp.columns.size());
  const auto rows = static_cast<int>(milp.rows.size());
  // Column-major (compressed sparse column) copy of the rows.
  std::vector<int> counts(milp.columns.size() + 1, 0);
  for (const MilpRow& row : milp.rows) {
    for (const int column : row.columns) {
      ++counts[static_cast<std::size_t>(column) + 1];
    }
  }
  std::vector<CoinBigIndex> start(milp.columns.size() + 1, 0);
  for (std::size_t c = 0; c < milp.columns.size(); ++c) {
    start[c + 1] = start[c] + counts[c + 1];
  }
  std::vector<CoinBigIndex> next(start.begin(), start.end() - 1);
  std::vector<int> index(static_cast<std::size_t>(start.back()));
  std::vector<double> value(static_cast<std::size_t>(start.back()));
  for (int r = 0; r < rows; ++r) {
    const MilpRow& row = milp.rows[static_cast<std::size_t>(r)];
    for (std::size_t k = 0; k < row.columns.size(); ++k) {
      const auto at = static_cast<std::size_t>(next[static_cast<std::size_t>(row.columns[k])]++);
      index[at] = r;
      value[at] = row.coefficients[k];
    }
  }
  std::vector<double> col_lower;
  std::vector<double> col_upper;
  std::vector<double> objective;
  for (const MilpColumn& c : milp.columns) {
    col_lower.push_back(c.lower);
    col_upper.push_back(c.upper);
    objective.push_back(c.objective);
  }
  std::vector<double> row_lower;
  std::vector<double> row_upper;
  for (const MilpRow& r : milp.rows) {
    row_lower.push_back(r.lower);
    row_upper.push_back(r.upper);
  }

  std::unique_ptr<Cbc_Model, CbcDeleter> model(Cbc_newModel());
  Cbc_Model* m = model.get();
  Cbc_loadProblem(m, columns, rows, start.data(), index.data(), value.data(), col_lower.data(),
                  col_upper.data(), objective.data(), row_lower.data(), row_upper.data());
  for (int c = 0; c < columns && integers; ++c) {
    if (milp.columns[static_cast<std::size_t>(c)].integer) {
      Cbc_setInteger(m, c);
    }
  }
  Cbc_setObjSense(m, milp.maximize ? -1 : 1);
  Cbc_setLogLevel(m, 0);
  Cbc_setParameter(m, "log", "0");
  Cbc_setParameter(m, "slog", "0");
  return model;
}

}  // namespace

double MaxViolation(const Milp& milp, const std::vector<double>& values) {
  double worst = 0;
  for (std::size_t c = 0; c < milp.columns.size(); ++c) {
    const MilpColumn& column = milp.columns[c];
    const double x = values[c];
    worst = std::max({worst, column.lower - x, x - column.upper});
    if (column.integer) {
      worst = std::max(worst, std::abs(x - std::round(x)));
    }
  }
  for (const MilpRow& row : milp.rows) {
    double activity = 0;
    for (std::size_t k = 0; k < row.columns.size(); ++k) {
      activity += row.coefficients[k] * values[static_cast<std::size_t>(row.columns[k])];
    }
    const double scale =
        1 + std::max(std::abs(row.lower) < kMilpInfinity ? std::abs(row.lower) : 0,
                     std::abs(row.upper) < kMilpInfinity ? std::abs(row.upper) : 0);
    worst = std::max({worst, (row.lower - activity) / scale, (activity - row.upper) / scale});
  }
  return worst;
}

double SolveLpRelaxation(const Milp& milp) {
  const std::unique_ptr<Cbc_Model, CbcDeleter> model = Load(milp, false);
  Cbc_solve(model.get());
  if (Cbc_isProvenOptimal(model.get()) == 0) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  return Cbc_getObjValue(model.get());
}

MilpSolution SolveMilp(const Milp& milp, const MilpOptions& options) {
  const auto columns = static_cast<int>(milp.columns.size());
  const std::unique_ptr<Cbc_Model, CbcDeleter> model = Load(milp, true);
  Cbc_Model* m = model.get();
  Cbc_setParameter(m, "preprocess", "off");
  Cbc_setParameter(m, "feas", "off");  // the feasibility pump: see SolveMilp in the header
  Cbc_setParameter(m, "ratioGap", "0");
  Cbc_setParameter(m, "allowableGap", "1e-9");
  Cbc_setParameter(m, "sec", fmt::format("{}", options.time_limit_s).c_str());
  Cbc_setMaximumSeconds(m, options.time_limit_s);
  if (options.max_nodes > 0) {
    Cbc_setMaximumNodes(m, static_cast<int>(std::min<std::int64_t>(options.max_nodes, 1 << 30)));
  }
  if (options.threads > 1) {
    Cbc_setParameter(m, "threads", fmt::format("{}", options.threads).c_str());
  }
  for (const auto& [name, value] : options.parameters) {
    Cbc_setParameter(m, name.c_str(), value.c_str());
  }

  const auto begin = std::chrono::steady_clock::now();
  Cbc_solve(m);
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - begin;

  MilpSolution solution;
  solution.seconds = elapsed.count();
  solution.status = StatusText(m);
  solution.proven_optimal = Cbc_isProvenOptimal(m) != 0;
  solution.infeasible = Cbc_isProvenInfeasible(m) != 0;
  solution.time_limit = Cbc_isSecondsLimitReached(m) != 0;
  solution.node_limit = Cbc_isNodeLimitReached(m) != 0;
  solution.nodes = Cbc_getNodeCount(m);
  const double* best = Cbc_bestSolution(m);
  solution.has_solution = best != nullptr;
  if (best != nullptr) {
    solution.values.assign(best, best + columns);
    solution.objective = Cbc_getObjValue(m);
    if (const double violation = MaxViolation(milp, solution.values); violation > 1e-6) {
      solution.model_check =
          Status::Refused(fmt::format("CBC's best solution breaks the model by {:.3g}", violation));
      solution.has_solution = false;
      solution.proven_optimal = false;
    }
  }
  solution.best_bound = Cbc_getBestPossibleObjValue(m);
  return solution;
}

bool IsSolverParameter(const std::string& name) {
  std::vector<CbcOrClpParam> parameters;
  establishParams(parameters);
  // Parameters that take a value; from CLP_PARAM_ACTION_DIRECTORY on are CBC's actions (export,
  // import, solve, stop, ...), which would read or write files or cut the search short.
  return std::any_of(parameters.begin(), parameters.end(), [&name](const CbcOrClpParam& p) {
    return p.type() < CLP_PARAM_ACTION_DIRECTORY && p.matches(name) == 1;
  });
}

}  // namespace fleetsim::milp
