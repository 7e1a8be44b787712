// The capacity planner's search: which candidate fleet of a plan's decision grid meets every
// target at the least objective, found with far fewer runs than the whole grid.
//
// Candidates are the grid's points less the seed axis; each is judged on every seed. A minimized
// objective is a property of the fleet, so candidates are taken cheapest first, and the first
// that meets every target is the answer; a measured one (output per dollar) is known only after
// the runs, so every fleet not proven infeasible is run and the best figure wins. Runs are saved by monotonicity, which the search
// assumes and then checks: adding nodes to a pool never makes a wait, JCT, slowdown, makespan,
// unmet real-time demand, rejection or deadline-miss count worse, nor completions or
// priority-weighted output lower. So a fleet that misses such a target proves every fleet of the same other choices with
// no more nodes in any pool misses it too. A coarse pass (each group's largest fleet, then a
// bisection per node-count axis with the others at their largest) finds those proofs early; a
// candidate is run seed by seed and dropped as soon as its seeds cannot meet a target; after the
// answer, its one-step-smaller neighbours are run to test the assumption where it matters, and
// every pair of run fleets is checked against it. docs/planning.md#the-search.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "fleetsim/plan/plan_spec.h"
#include "fleetsim/sweep/sweep_store.h"

namespace fleetsim {

// One candidate fleet: a point of the decision grid with its runs, one per seed.
struct PlanCandidate {
  std::size_t index = 0;                  // in grid order
  std::vector<std::string> labels{};      // per axis of the spec; "" for the seed axis
  std::vector<const SweepPoint*> runs{};  // one per seed, in seed order
  double objective = 0;  // PlanSpec::objective's value for this fleet; for a measured objective,
                         // the fleet's cost per day (the order candidates are taken in)
  std::string group{};                    // the labels of the axes that are not node counts
  std::vector<std::int64_t> counts{};     // the node-count axes' values
};

struct PlanCandidates {
  std::vector<PlanCandidate> candidates{};  // valid ones only
  std::vector<std::string> count_axes{};    // names of the axes treated as node counts
  std::size_t seeds = 1;
  std::size_t invalid = 0;  // grid points whose scenario is invalid, left out
  std::size_t repeats = 0;  // fleets that resolve to the runs of a fleet listed before them
  std::string first_invalid{};  // the first one's description and messages
  std::vector<std::string> errors{};  // fatal: nothing valid, an unpriced pool, ...
};

// Groups an expanded plan into candidates and prices each. A target on a tenant or kind that no
// job of the first candidate's workload belongs to is an error (a misspelt tenant would
// otherwise be a target no run can miss or meet).
PlanCandidates BuildCandidates(const PlanSpec& plan, const SweepExpansion& expansion);

// The metrics over groups of jobs the plan's targets need, from a run's report: kept in the run's
// record, where the search reads them.
std::vector<std::pair<std::string, SweepMetric>> PlanGroupMetrics(const PlanSpec& plan,
                                                                  const RunReport& report);

// Whether a recorded run holds every group metric the plan needs (one recorded by a plan with
// other targets may not: it is run again).
bool HasPlanGroupMetrics(const PlanSpec& plan, const SweepRecord& record);

enum class CandidateStatus {
  kNotRun,            // never needed
  kFeasible,          // every target met on the seeds
  kInfeasible,        // a target missed (possibly decided before every seed ran)
  kInferred,          // infeasible by monotonicity from a run fleet, not run itself
  kFailed,            // a run failed (the record's error)
};

struct TargetOutcome {
  std::optional<double> value{};  // the rule's figure over the seeds run: mean, worst or K-th best
  bool decided = false;
  bool met = false;
  bool missing = false;  // a seed run had no value for the metric (no job finished, say)
  std::size_t seeds_met = 0;
  std::size_t seeds_missed = 0;
};

struct CandidateResult {
  CandidateStatus status = CandidateStatus::kNotRun;
  std::size_t seeds_run = 0;
  std::vector<TargetOutcome> targets{};  // per PlanSpec::targets
  std::optional<std::size_t> inferred_from{};  // kInferred: the candidate that proves it
  std::string error{};                         // kFailed
  // A measured objective's figure (output per dollar), for a fleet run on every seed.
  std::optional<double> measured{};
};

// The objective's figure for a candidate: the fleet's own value, or the measured one.
std::optional<double> ObjectiveValue(const PlanSpec& plan, const PlanCandidate& candidate,
                                     const CandidateResult& result);

struct PlanOutcome {
  std::vector<CandidateResult> results{};  // per candidate
  std::optional<std::size_t> answer{};     // candidate index
  std::vector<std::size_t> runners_up{};
  std::vector<std::size_t> closest_infeasible{};  // cheapest first (no answer: fewest misses)
  std::size_t runs_asked = 0;  // runs the search used (some may come from an earlier call); runs
                               // a batch made past a candidate's decision are not counted
  std::size_t grid_runs = 0;   // candidates x seeds
  std::size_t pairs_checked = 0;             // run fleet pairs compared for monotonicity
  std::vector<std::string> contradictions{};  // where the runs contradict it
};

// Runs the points (in any order, on any number of threads) and returns their records in the
// order given.
using PlanRunner = std::function<std::vector<SweepRecord>(const std::vector<const SweepPoint*>&)>;

struct PlanSearchOptions {
  bool exhaustive = false;  // run the whole grid on every seed, then choose
  std::size_t batch = 1;    // seeds of a candidate run together (the runner's threads)
};

PlanOutcome SearchPlan(const PlanSpec& plan, const PlanCandidates& candidates,
                       const PlanRunner& run, const PlanSearchOptions& options);

// How more nodes move a metric, as the search assumes: -1 never up, +1 never down, 0 unknown.
int CapacityTrend(const std::string& metric);

// A candidate's fleet (its first run's scenario's).
const FleetSpec& CandidateFleet(const PlanCandidate& candidate);

// "h100_nodes=8, model=h100" for messages: a candidate's decision axes.
std::string DescribeCandidate(const PlanSpec& plan, const PlanCandidate& candidate);

}  // namespace fleetsim
