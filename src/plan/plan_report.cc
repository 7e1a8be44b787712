// Rendering a plan's outcome as text, plan.csv and plan.json.
#include "fleetsim/plan/plan_report.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "fleetsim/report/outputs.h"
#include "plan/plan_horizon.h"

namespace fleetsim {

namespace {

using json = nlohmann::json;

std::string RuleText(const PlanTarget& t) {
  switch (t.rule) {
    case SeedRule::kMean:
      return "mean over the seeds";
    case SeedRule::kWorst:
      return "worst seed";
    case SeedRule::kAtLeast:
      return fmt::format("in at least {} seeds", t.at_least);
  }
  return "";
}

std::string Number(double value) { return fmt::format("{:.6g}", value); }

// A fleet property's value with its unit.
std::string FleetFigure(PlanObjective objective, double value) {
  if (objective == PlanObjective::kCostPerDay) {
    return fmt::format("{:.2f} USD/day ({:.2f} USD/h)", value, value / 24);
  }
  return fmt::format("{} {}", Number(value), PlanObjectiveUnit(objective));
}

// plan.csv's name for a fleet property's column: "cost_per_day_usd", "gpus_gpus", ...
std::string FleetColumn(PlanObjective objective) {
  return fmt::format("{}_{}", PlanObjectiveName(objective),
                     objective == PlanObjective::kCostPerDay ? "usd"
                     : objective == PlanObjective::kGpus     ? "gpus"
                                                             : "kwh");
}

json Optional(const std::optional<double>& value) { return value ? json(*value) : json(); }

// How far the figure is inside the bound (negative: outside).
std::optional<double> Margin(const PlanTarget& t, const TargetOutcome& o) {
  if (!o.value) {
    return std::nullopt;
  }
  return t.at_most ? t.bound - *o.value : *o.value - t.bound;
}

std::string TargetLine(const PlanTarget& t, const TargetOutcome& o) {
  const std::string bound = fmt::format("{} {} {} ({})", TargetMetricName(t), t.at_most ? "<=" : ">=",
                                        Number(t.bound), RuleText(t));
  if (!o.value) {
    return fmt::format("{}: {}", bound,
                       o.missing   ? "no value (a seed had none)"
                       : o.decided ? "no figure (the fleet was dropped before enough seeds ran)"
                                   : "undecided");
  }
  const double margin = *Margin(t, o);
  return fmt::format("{}: {} — {} {}{}", bound, Number(*o.value),
                     margin >= 0 ? "margin" : "missed by", Number(std::abs(margin)),
                     o.decided ? "" : " (undecided: the search stopped this fleet early)");
}

std::string Misses(const PlanSpec& plan, const CandidateResult& r) {
  std::string text;
  for (std::size_t t = 0; t < plan.targets.size() && t < r.targets.size(); ++t) {
    const TargetOutcome& o = r.targets[t];
    if (o.decided && !o.met) {
      text += fmt::format("{}{}", text.empty() ? "" : "; ", TargetLine(plan.targets[t], o));
    }
  }
  return text;
}

void Candidate(std::string& out, const PlanSpec& plan, const PlanCandidates& c,
               const PlanOutcome& outcome, std::size_t i, bool margins) {
  const PlanCandidate& candidate = c.candidates[i];
  const CandidateResult& r = outcome.results[i];
  out += fmt::format("  {} — {}\n", DescribeCandidate(plan, candidate),
                     ObjectiveFigure(plan, candidate, r));
  if (margins) {
    for (std::size_t t = 0; t < plan.targets.size() && t < r.targets.size(); ++t) {
      out += fmt::format("    {}\n", TargetLine(plan.targets[t], r.targets[t]));
    }
  } else {
    out += fmt::format("    misses {}\n", Misses(plan, r));
  }
}

std::size_t CountStatus(const PlanOutcome& outcome, CandidateStatus status) {
  std::size_t n = 0;
  for (const CandidateResult& r : outcome.results) {
    n += r.status == status ? 1U : 0U;
  }
  return n;
}

json CandidateJson(const PlanSpec& plan, const PlanCandidates& c, const PlanOutcome& outcome,
                   std::size_t i) {
  const PlanCandidate& candidate = c.candidates[i];
  const CandidateResult& r = outcome.results[i];
  json axes = json::object();
  for (std::size_t a = 0; a < plan.runs.axes.size(); ++a) {
    if (plan.runs.axes[a].target != AxisTarget::kSeed) {
      axes[plan.runs.axes[a].name] = candidate.labels[a];
    }
  }
  json targets = json::array();
  for (std::size_t t = 0; t < plan.targets.size(); ++t) {
    const PlanTarget& target = plan.targets[t];
    const TargetOutcome o = t < r.targets.size() ? r.targets[t] : TargetOutcome{};
    const std::optional<double> margin = Margin(target, o);
    json entry = {{"metric", target.metric}, {"name", TargetMetricName(target)}};
    if (target.group && !target.group->tenant.empty()) {
      entry["tenant"] = target.group->tenant;
    }
    if (target.group && target.group->kind) {
      entry["kind"] = JobKindName(*target.group->kind);
    }
    entry.update(json{{target.at_most ? "at_most" : "at_least", target.bound},
                       {"value", Optional(o.value)},
                       {"decided", o.decided},
                       {"met", o.decided && o.met},
                       {"margin", Optional(margin)},
                       {"seeds_met", o.seeds_met},
                       {"seeds_missed", o.seeds_missed}});
    targets.push_back(std::move(entry));
  }
  json entry = {{"candidate", i},
                {"axes", axes},
                {"objective", Optional(ObjectiveValue(plan, candidate, r))}};
  if (IsMeasuredObjective(plan.objective)) {
    entry[FleetColumn(OrderObjective(plan.objective))] = candidate.objective;
  }
  entry.update(json{{"status", CandidateStatusName(r.status)},
                    {"seeds_run", r.seeds_run},
                    {"targets", targets},
                    {"error", r.error}});
  return entry;
}

}  // namespace

std::string CandidateStatusName(CandidateStatus status) {
  switch (status) {
    case CandidateStatus::kNotRun:
      return "not-run";
    case CandidateStatus::kFeasible:
      return "feasible";
    case CandidateStatus::kInfeasible:
      return "infeasible";
    case CandidateStatus::kInferred:
      return "inferred-infeasible";
    case CandidateStatus::kFailed:
      return "failed";
  }
  return "";
}

std::string ObjectiveFigure(const PlanSpec& plan, const PlanCandidate& candidate,
                            const CandidateResult& result) {
  if (!IsMeasuredObjective(plan.objective)) {
    return FleetFigure(plan.objective, candidate.objective);
  }
  const std::string cost = FleetFigure(OrderObjective(plan.objective), candidate.objective);
  if (!result.measured) {
    return fmt::format("{}; {} not measured", cost, PlanObjectiveName(plan.objective));
  }
  return fmt::format("{} {} at {}", Number(*result.measured), PlanObjectiveUnit(plan.objective),
                     cost);
}

std::string HorizonSummary(const PlanSpec& plan, const PlanCandidates& c,
                           const PlanOutcome& outcome) {
  if (!plan.horizon || !outcome.answer) {
    return "";
  }
  const HorizonSpec& h = *plan.horizon;
  const HorizonCost cost = CostOverHorizon(h, CandidateFleet(c.candidates[*outcome.answer]));
  std::string out = fmt::format(
      "over {} months, the answer's fleet:\n  reserved now (its on-demand and reserved pools at "
      "reserved prices fixed for the horizon, its spot pools rented as planned): {:.0f} USD\n"
      "  rented as planned, re-planned every {} months at the stated yearly price changes: "
      "{:.0f} USD\n",
      h.months, cost.reserve_now_usd, h.replan_every_months, cost.replan_usd);
  for (const HorizonPeriod& p : cost.periods) {
    out += fmt::format("    months {}-{}: prices x{:.3f}, {:.0f} USD\n", p.start_month,
                       p.start_month + p.months, p.price_factor, p.cost_usd);
  }
  const FleetSpec& fleet = CandidateFleet(c.candidates[*outcome.answer]);
  if (std::any_of(fleet.pools.begin(), fleet.pools.end(), [](const PoolSpec& pool) {
        return pool.nodes > 0 && pool.autoscale.enabled;
      })) {
    out += "  (an autoscaled pool is priced here as if all its nodes were always up)\n";
  }
  const double saving = cost.reserve_now_usd - cost.replan_usd;
  if (saving == 0) {
    out += "  both cost the same: nothing in the fleet can be reserved\n";
    return out;
  }
  out += fmt::format("  {} costs {:.0f} USD ({:.1f} %) less\n",
                     saving > 0 ? "re-planning" : "reserving now", std::abs(saving),
                     100 * std::abs(saving) /
                         std::max(cost.reserve_now_usd, cost.replan_usd));
  if (cost.break_even_yearly_change) {
    out += fmt::format("  break-even: re-planning costs less if the prices of what can be "
                       "reserved change by less than {:+.1f} % a year\n",
                       100 * *cost.break_even_yearly_change);
  } else {
    out += fmt::format("  break-even: none; {} costs less whatever prices do (-100 % to "
                       "+1,000 % a year)\n",
                       saving < 0 ? "reserving now" : "re-planning");
  }
  return out;
}

namespace {

json HorizonJson(const PlanSpec& plan, const PlanCandidates& c, const PlanOutcome& outcome) {
  if (!plan.horizon || !outcome.answer) {
    return json();
  }
  const HorizonSpec& h = *plan.horizon;
  const HorizonCost cost = CostOverHorizon(h, CandidateFleet(c.candidates[*outcome.answer]));
  json periods = json::array();
  for (const HorizonPeriod& p : cost.periods) {
    periods.push_back({{"start_month", p.start_month},
                       {"months", p.months},
                       {"price_factor", p.price_factor},
                       {"cost_usd", p.cost_usd}});
  }
  return {{"months", h.months},
          {"replan_every_months", h.replan_every_months},
          {"reserve_now_usd", cost.reserve_now_usd},
          {"replan_usd", cost.replan_usd},
          {"break_even_yearly_change", Optional(cost.break_even_yearly_change)},
          {"periods", periods}};
}

}  // namespace

std::string PlanText(const PlanSpec& plan, const PlanCandidates& c, const PlanOutcome& outcome) {
  std::string out = fmt::format(
      "plan {}: {} {} over {} candidate fleets x {} seed{} ({} runs in the grid)\n",
      plan.runs.name, IsMeasuredObjective(plan.objective) ? "most" : "least",
      PlanObjectiveName(plan.objective), c.candidates.size(), c.seeds,
      c.seeds == 1 ? "" : "s", outcome.grid_runs);
  if (outcome.answer) {
    out += "answer:\n";
    Candidate(out, plan, c, outcome, *outcome.answer, true);
    if (!outcome.runners_up.empty()) {
      out += "runners-up:\n";
      for (const std::size_t i : outcome.runners_up) {
        Candidate(out, plan, c, outcome, i, true);
      }
    }
    out += HorizonSummary(plan, c, outcome);
    if (!outcome.closest_infeasible.empty()) {
      out += "the dearest run fleets below the answer that miss a target:\n";
    }
  } else {
    out += "no candidate fleet meets every target.\n";
    if (!outcome.closest_infeasible.empty()) {
      out += "the closest (fewest targets missed):\n";
    }
  }
  for (const std::size_t i : outcome.closest_infeasible) {
    Candidate(out, plan, c, outcome, i, false);
  }
  const double share = outcome.grid_runs == 0 ? 0
                                              : 100.0 * double(outcome.runs_asked) /
                                                    double(outcome.grid_runs);
  out += fmt::format("search: {} runs, {:.1f} % of the grid's {}; fleets run: {} feasible, {} "
                     "infeasible, {} failed; {} inferred infeasible by monotonicity; {} never "
                     "needed\n",
                     outcome.runs_asked, share, outcome.grid_runs,
                     CountStatus(outcome, CandidateStatus::kFeasible),
                     CountStatus(outcome, CandidateStatus::kInfeasible),
                     CountStatus(outcome, CandidateStatus::kFailed),
                     CountStatus(outcome, CandidateStatus::kInferred),
                     CountStatus(outcome, CandidateStatus::kNotRun));
  if (c.invalid > 0) {
    out += fmt::format("left out: {} grid point{} whose scenario is invalid; the first: {}\n",
                       c.invalid, c.invalid == 1 ? "" : "s", c.first_invalid);
  }
  if (c.repeats > 0) {
    out += fmt::format("left out: {} fleet{} whose runs repeat those of a fleet listed before\n",
                       c.repeats, c.repeats == 1 ? "" : "s");
  }
  out += fmt::format("monotonicity: {} pairs of run fleets checked, {}\n", outcome.pairs_checked,
                     outcome.contradictions.empty()
                         ? std::string("no contradiction")
                         : fmt::format("{} contradiction{}:", outcome.contradictions.size(),
                                       outcome.contradictions.size() == 1 ? "" : "s"));
  for (std::size_t k = 0; k < outcome.contradictions.size() && k < 10; ++k) {
    out += fmt::format("  {}\n", outcome.contradictions[k]);
  }
  return out;
}

std::string PlanCsv(const PlanSpec& plan, const PlanCandidates& c, const PlanOutcome& outcome) {
  std::string out = "candidate";
  for (const SweepAxis& axis : plan.runs.axes) {
    if (axis.target != AxisTarget::kSeed) {
      out += "," + CsvField(axis.name);
    }
  }
  out += "," + FleetColumn(OrderObjective(plan.objective));
  if (IsMeasuredObjective(plan.objective)) {
    out += "," + PlanObjectiveName(plan.objective);
  }
  out += ",status,seeds_run";
  for (std::size_t t = 0; t < plan.targets.size(); ++t) {
    out += fmt::format(",{},target{}_met",
                       CsvField(fmt::format("target{}_{}", t, TargetMetricName(plan.targets[t]))),
                       t);
  }
  out += ",error\n";
  for (std::size_t i = 0; i < c.candidates.size(); ++i) {
    const PlanCandidate& candidate = c.candidates[i];
    const CandidateResult& r = outcome.results[i];
    out += fmt::format("{}", i);
    for (std::size_t a = 0; a < plan.runs.axes.size(); ++a) {
      if (plan.runs.axes[a].target != AxisTarget::kSeed) {
        out += "," + CsvField(candidate.labels[a]);
      }
    }
    out += fmt::format(",{}", candidate.objective);
    if (IsMeasuredObjective(plan.objective)) {
      out += r.measured ? fmt::format(",{}", *r.measured) : std::string(",");
    }
    out += fmt::format(",{},{}", CandidateStatusName(r.status), r.seeds_run);
    for (std::size_t t = 0; t < plan.targets.size(); ++t) {
      const TargetOutcome o = t < r.targets.size() ? r.targets[t] : TargetOutcome{};
      out += fmt::format(",{},{}", o.value ? fmt::format("{}", *o.value) : "",
                         !o.decided ? "" : o.met ? "true" : "false");
    }
    out += "," + CsvField(r.error) + "\n";
  }
  return out;
}

std::string PlanJson(const PlanSpec& plan, const PlanCandidates& c, const PlanOutcome& outcome) {
  const auto list = [&](const std::vector<std::size_t>& indexes) {
    json items = json::array();
    for (const std::size_t i : indexes) {
      items.push_back(CandidateJson(plan, c, outcome, i));
    }
    return items;
  };
  const json root = {
      {"format_version", 1},
      {"name", plan.runs.name},
      {"objective", {{"name", PlanObjectiveName(plan.objective)},
                     {"unit", PlanObjectiveUnit(plan.objective)},
                     {"sense", IsMeasuredObjective(plan.objective) ? "maximize" : "minimize"}}},
      {"candidates", c.candidates.size()},
      {"seeds", c.seeds},
      {"grid_runs", outcome.grid_runs},
      {"runs", outcome.runs_asked},
      {"invalid_points", c.invalid},
      {"repeated_fleets", c.repeats},
      {"answer", outcome.answer ? CandidateJson(plan, c, outcome, *outcome.answer) : json()},
      {"runners_up", list(outcome.runners_up)},
      {"closest_infeasible", list(outcome.closest_infeasible)},
      {"horizon", HorizonJson(plan, c, outcome)},
      {"monotonicity", {{"pairs_checked", outcome.pairs_checked},
                        {"contradictions", outcome.contradictions}}},
  };
  return root.dump(2) + "\n";
}

}  // namespace fleetsim
