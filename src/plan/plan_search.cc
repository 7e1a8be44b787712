// The planner's search over a plan's candidate fleets (docs/planning.md#the-search).
#include "fleetsim/plan/plan_search.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

#include "fleetsim/scenario/scenario.h"
#include "fleetsim/sweep/sweep_metrics.h"
#include "plan/plan_horizon.h"

namespace fleetsim {

namespace {

constexpr double kHoursPerDay = 24;

// Whether `path` is /fleet/pools/<index>/nodes.
bool IsPoolNodes(const std::string& path) {
  const std::string head = "/fleet/pools/";
  const std::string tail = "/nodes";
  if (path.size() <= head.size() + tail.size() || path.rfind(head, 0) != 0 ||
      path.compare(path.size() - tail.size(), tail.size(), tail) != 0) {
    return false;
  }
  const std::string index = path.substr(head.size(), path.size() - head.size() - tail.size());
  return std::all_of(index.begin(), index.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A node-count axis: a pointer to a pool's "nodes" whose values are all integers >= 0.
bool IsCountAxis(const SweepAxis& axis) {
  return axis.target == AxisTarget::kPointer && IsPoolNodes(axis.path) &&
         std::all_of(axis.values.begin(), axis.values.end(), [](const AxisValue& v) {
           return v.value.is_number_integer() && v.value.get<std::int64_t>() >= 0;
         });
}

// The fleet's objective (for output per dollar, the fleet's cost per day, the order candidates
// are taken in), or why it has none.
std::optional<double> Objective(PlanObjective objective, const FleetSpec& fleet, std::string& why) {
  if (objective == PlanObjective::kGpus) {
    return static_cast<double>(fleet.gpus);
  }
  if (fleet.pools.empty()) {
    why = "the fleet is given as {\"gpus\": N}, which has no GPU model or price: give it pools";
    return std::nullopt;
  }
  double total = 0;
  for (const PoolSpec& pool : fleet.pools) {
    const double gpu_days = static_cast<double>(pool.gpus()) * kHoursPerDay;
    if (objective == PlanObjective::kCostPerDay || objective == PlanObjective::kOutputPerDollar) {
      const std::optional<double> price = pool.EffectivePrice();
      if (!price) {
        why = fmt::format(
            "pool '{}' ({} at the {} tier) has no price: give the pool a "
            "\"price_per_gpu_hour\" (or the catalog a {} price for {})",
            pool.name, pool.node.name, PriceTierName(pool.tier), PriceTierName(pool.tier),
            pool.gpu.name);
        return std::nullopt;
      }
      total += gpu_days * *price;
    } else {
      if (!pool.gpu.tdp_w) {
        why = fmt::format("pool '{}': the catalog gives {} no TDP", pool.name, pool.gpu.name);
        return std::nullopt;
      }
      total += gpu_days * *pool.gpu.tdp_w / 1000;
    }
  }
  return total;
}

std::optional<std::size_t> SeedAxis(const SweepSpec& spec) {
  for (std::size_t a = 0; a < spec.axes.size(); ++a) {
    if (spec.axes[a].target == AxisTarget::kSeed) {
      return a;
    }
  }
  return std::nullopt;
}

// A run's value of a plan metric over all its jobs.
std::optional<double> MetricOf(const SweepRecord& record, const std::string& metric) {
  const std::vector<std::string>& names = SweepMetricNames();
  const auto at = [&](const std::string& name) -> std::optional<double> {
    const auto it = std::find(names.begin(), names.end(), name);
    const auto i = static_cast<std::size_t>(it - names.begin());
    return i < record.metrics.size() ? record.metrics[i].value : std::nullopt;
  };
  if (metric == "realtime_unmet_share") {
    const std::optional<double> demand = at("realtime_demand_gpu_hours");
    const std::optional<double> unmet = at("realtime_unmet_gpu_hours");
    if (!demand || !unmet) {
      return std::nullopt;
    }
    return *demand > 0 ? *unmet / *demand : 0.0;
  }
  return at(metric);
}

// A run's value of a target's metric.
std::optional<double> TargetValue(const SweepRecord& record, const PlanTarget& t) {
  if (!t.group) {
    return MetricOf(record, t.metric);
  }
  const std::string name = TargetMetricName(t);
  for (const auto& [recorded, metric] : record.group_metrics) {
    if (recorded == name) {
      return metric.value;
    }
  }
  return std::nullopt;
}

bool Meets(const PlanTarget& t, double value) {
  return t.at_most ? value <= t.bound : value >= t.bound;
}

// +1 when more nodes can only help the target hold, -1 when they can only hurt, 0 unknown.
int TargetTrend(const PlanTarget& t) {
  const int trend = CapacityTrend(t.metric);
  return t.at_most ? -trend : trend;
}

// Fleets a measured objective's search runs together (RunUnproven).
constexpr std::size_t kMeasuredChunk = 16;

class Search {
 public:
  Search(const PlanSpec& plan, const PlanCandidates& c, const PlanRunner& run,
         const PlanSearchOptions& options)
      : plan_(plan), c_(c), run_(run), options_(options) {
    out_.results.resize(c_.candidates.size());
    values_.resize(c_.candidates.size());
    out_.grid_runs = c_.candidates.size() * c_.seeds;
    order_.resize(c_.candidates.size());
    std::iota(order_.begin(), order_.end(), 0);
    std::stable_sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) {
      return c_.candidates[a].objective < c_.candidates[b].objective;
    });
    std::map<std::string, std::size_t> groups;
    for (const PlanCandidate& candidate : c_.candidates) {
      group_of_.push_back(groups.emplace(candidate.group, groups.size()).first->second);
    }
    runs_by_group_.resize(groups.size());
    for (const PlanTarget& t : plan_.targets) {
      trends_.push_back(TargetTrend(t));
    }
  }

  PlanOutcome Run() {
    if (options_.exhaustive) {
      Exhaustive();
    } else {
      CoarsePass();
      BestFirst();
      Measure();  // the answer so far, for a measured objective
      CheckNeighbours();
    }
    Measure();
    Choose();
    CheckMonotonicity();
    return std::move(out_);
  }

 private:
  // --- running candidates ---------------------------------------------------------------

  void Exhaustive() {
    std::vector<const SweepPoint*> points;
    for (const PlanCandidate& candidate : c_.candidates) {
      points.insert(points.end(), candidate.runs.begin(), candidate.runs.end());
    }
    const std::vector<SweepRecord> records = run_(points);
    out_.runs_asked += points.size();
    std::size_t next = 0;
    for (std::size_t i = 0; i < c_.candidates.size(); ++i) {
      for (std::size_t s = 0; s < c_.seeds; ++s) {
        Record(i, records[next++]);
      }
      Judge(i, true);
    }
  }

  // Runs a candidate's seeds a batch at a time until every target is decided.
  void Evaluate(std::size_t i) {
    CandidateResult& r = out_.results[i];
    if (r.status != CandidateStatus::kNotRun && r.status != CandidateStatus::kInferred) {
      return;
    }
    r = {};
    values_[i].clear();
    const PlanCandidate& candidate = c_.candidates[i];
    while (r.seeds_run < c_.seeds) {
      // The first seed alone (most candidates the search drops, it drops on their first
      // seed), then the others a batch at a time.
      const std::size_t size = r.seeds_run == 0 ? 1 : std::max<std::size_t>(1, options_.batch);
      const auto first = candidate.runs.begin() + static_cast<std::ptrdiff_t>(r.seeds_run);
      const std::vector<const SweepPoint*> batch(
          first, first + static_cast<std::ptrdiff_t>(std::min(size, c_.seeds - r.seeds_run)));
      const std::vector<SweepRecord> records = run_(batch);
      // Judged seed by seed in seed order, the rest of a batch unused once the candidate is
      // decided: what the search concludes does not depend on the batch size (-j).
      for (const SweepRecord& record : records) {
        ++out_.runs_asked;
        Record(i, record);
        if (r.status == CandidateStatus::kFailed || Judge(i, false)) {
          return;
        }
      }
    }
  }

  void Record(std::size_t i, const SweepRecord& record) {
    CandidateResult& r = out_.results[i];
    ++r.seeds_run;
    if (record.status != SweepRunStatus::kOk) {
      r.status = CandidateStatus::kFailed;
      r.error = record.error;
      return;
    }
    std::vector<std::optional<double>> row;
    for (const PlanTarget& t : plan_.targets) {
      row.push_back(TargetValue(record, t));
    }
    row.push_back(MetricOf(record, "jobs_rejected"));  // kRejected: for CheckMonotonicity
    row.push_back(MetricOf(record, "priority_weighted_output"));  // kOutput
    row.push_back(MetricOf(record, "cost_usd"));                  // kCost
    values_[i].push_back(std::move(row));
  }

  // Updates the targets' outcomes from the seeds run; true once the candidate is decided.
  bool Judge(std::size_t i, bool all_run) {
    CandidateResult& r = out_.results[i];
    if (r.status == CandidateStatus::kFailed) {
      return true;
    }
    const std::size_t n = c_.seeds;
    const bool complete = all_run || values_[i].size() == n;
    bool missed = false;
    bool undecided = false;
    r.targets.assign(plan_.targets.size(), {});
    for (std::size_t t = 0; t < plan_.targets.size(); ++t) {
      TargetOutcome& o = r.targets[t];
      o = Outcome(plan_.targets[t], Column(i, t), n, complete);
      missed = missed || (o.decided && !o.met);
      undecided = undecided || !o.decided;
    }
    if (missed) {
      r.status = CandidateStatus::kInfeasible;
      return true;
    }
    if (!undecided) {
      r.status = CandidateStatus::kFeasible;
      return true;
    }
    return false;
  }

  std::vector<std::optional<double>> Column(std::size_t i, std::size_t t) const {
    std::vector<std::optional<double>> column;
    for (const auto& row : values_[i]) {
      column.push_back(row[t]);
    }
    return column;
  }

  // A target over the seeds run so far (n in all). Every plan metric is >= 0, so a mean that
  // already exceeds an upper bound with the remaining seeds at 0 is decided.
  static TargetOutcome Outcome(const PlanTarget& t, const std::vector<std::optional<double>>& seeds,
                               std::size_t n, bool complete) {
    TargetOutcome o;
    std::vector<double> known;
    bool missing = false;
    for (const std::optional<double>& v : seeds) {
      missing = missing || !v;
      if (v) {
        known.push_back(*v);
        (Meets(t, *v) ? o.seeds_met : o.seeds_missed) += 1;
      } else {
        ++o.seeds_missed;
      }
    }
    o.missing = missing;
    switch (t.rule) {
      case SeedRule::kMean: {
        const double sum = std::accumulate(known.begin(), known.end(), 0.0);
        if (!known.empty() && !missing) {
          o.value = sum / static_cast<double>(known.size());
        }
        if (missing) {
          o.decided = true;  // a seed without a value (no job finished, say) has no mean
        } else if (complete) {
          o.decided = true;
          o.met = Meets(t, *o.value);
        } else if (t.at_most && sum / static_cast<double>(n) > t.bound) {
          o.decided = true;
        }
        break;
      }
      case SeedRule::kWorst:
        if (!known.empty() && !missing) {
          o.value = t.at_most ? *std::max_element(known.begin(), known.end())
                              : *std::min_element(known.begin(), known.end());
        }
        o.decided = o.seeds_missed > 0 || complete;
        o.met = o.seeds_missed == 0 && complete;
        break;
      case SeedRule::kAtLeast: {
        std::sort(known.begin(), known.end());
        if (!t.at_most) {
          std::reverse(known.begin(), known.end());
        }
        if (t.at_least >= 1 && known.size() >= t.at_least) {
          o.value = known[t.at_least - 1];  // the K-th best seed
        }
        o.decided = o.seeds_missed > n - t.at_least || complete;
        o.met = o.seeds_missed <= n - t.at_least && complete;
        break;
      }
    }
    return o;
  }

  // --- monotonicity ---------------------------------------------------------------------

  bool Below(std::size_t a, std::size_t b) const {  // a has no more nodes than b anywhere
    const PlanCandidate& x = c_.candidates[a];
    const PlanCandidate& y = c_.candidates[b];
    if (group_of_[a] != group_of_[b]) {
      return false;
    }
    for (std::size_t k = 0; k < x.counts.size(); ++k) {
      if (x.counts[k] > y.counts[k]) {
        return false;
      }
    }
    return true;
  }

  // A missed target that more nodes could only help (+1) or only hurt (-1), if any.
  bool MissedWithTrend(std::size_t i, int trend) const {
    const CandidateResult& r = out_.results[i];
    for (std::size_t t = 0; t < plan_.targets.size(); ++t) {
      if (r.targets.size() > t && r.targets[t].decided && !r.targets[t].met &&
          trends_[t] == trend) {
        return true;
      }
    }
    return false;
  }

  // Records that `i` was run.
  void Ran(std::size_t i) { runs_by_group_[group_of_[i]].push_back(i); }

  // The run candidate that proves `i` infeasible, if any: the first run that did, of those in
  // its group (no other is comparable).
  std::optional<std::size_t> Proof(std::size_t i) const {
    for (const std::size_t f : runs_by_group_[group_of_[i]]) {
      if (out_.results[f].status != CandidateStatus::kInfeasible) {
        continue;
      }
      if ((MissedWithTrend(f, +1) && Below(i, f)) || (MissedWithTrend(f, -1) && Below(f, i))) {
        return f;
      }
    }
    return std::nullopt;
  }

  // Runs `i` unless a run fleet already proves it infeasible; true when it was run.
  bool Visit(std::size_t i) {
    CandidateResult& r = out_.results[i];
    if (r.status != CandidateStatus::kNotRun) {
      return r.status != CandidateStatus::kInferred;
    }
    if (const std::optional<std::size_t> proof = Proof(i)) {
      r.status = CandidateStatus::kInferred;
      r.inferred_from = proof;
      return false;
    }
    Evaluate(i);
    Ran(i);
    return true;
  }

  bool MissedHelped(std::size_t i) const {
    const CandidateResult& r = out_.results[i];
    return (r.status == CandidateStatus::kInfeasible && MissedWithTrend(i, +1)) ||
           (r.status == CandidateStatus::kInferred && r.inferred_from &&
            Below(i, *r.inferred_from));
  }

  // --- the passes -----------------------------------------------------------------------

  // Each group's largest fleet; then, per node-count axis, a bisection for the fewest nodes
  // that meet the targets more nodes help, with the other axes at their largest.
  void CoarsePass() {
    std::map<std::string, std::vector<std::size_t>> groups;
    for (const std::size_t i : order_) {
      groups[c_.candidates[i].group].push_back(i);
    }
    for (const auto& [group, members] : groups) {
      const std::size_t top = Largest(members);
      Visit(top);
      if (MissedHelped(top) || c_.candidates[top].counts.empty()) {
        continue;
      }
      for (std::size_t axis = 0; axis < c_.candidates[top].counts.size(); ++axis) {
        Bisect(members, top, axis);
      }
    }
  }

  std::size_t Largest(const std::vector<std::size_t>& members) const {
    return *std::max_element(members.begin(), members.end(), [&](std::size_t a, std::size_t b) {
      const auto& x = c_.candidates[a].counts;
      const auto& y = c_.candidates[b].counts;
      const std::int64_t sx = std::accumulate(x.begin(), x.end(), std::int64_t{0});
      const std::int64_t sy = std::accumulate(y.begin(), y.end(), std::int64_t{0});
      return sx != sy ? sx < sy : a > b;
    });
  }

  void Bisect(const std::vector<std::size_t>& members, std::size_t top, std::size_t axis) {
    // The members that differ from the top on this axis alone, by increasing count.
    std::vector<std::size_t> line;
    for (const std::size_t m : members) {
      bool same = true;
      for (std::size_t k = 0; k < c_.candidates[m].counts.size() && same; ++k) {
        same = k == axis || c_.candidates[m].counts[k] == c_.candidates[top].counts[k];
      }
      if (same) {
        line.push_back(m);
      }
    }
    std::sort(line.begin(), line.end(), [&](std::size_t a, std::size_t b) {
      return c_.candidates[a].counts[axis] < c_.candidates[b].counts[axis];
    });
    std::size_t lo = 0;
    std::size_t hi = line.size() - 1;  // the top: meets what more nodes help
    while (lo < hi) {
      const std::size_t mid = (lo + hi) / 2;
      Visit(line[mid]);
      if (MissedHelped(line[mid])) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
  }

  // Cheapest first, until the answer and its runners-up are found.
  void BestFirst() {
    if (IsMeasuredObjective(plan_.objective)) {
      RunUnproven();
      return;
    }
    std::size_t feasible = 0;
    for (const std::size_t i : order_) {
      Visit(i);
      if (out_.results[i].status == CandidateStatus::kFeasible && ++feasible > plan_.runners_up) {
        return;
      }
    }
  }

  // A measured objective is known only once a fleet has run: every fleet not proven infeasible
  // is run, cheapest first, kMeasuredChunk fleets at a time so the runner's threads have work
  // (a fixed number: which fleets are run or inferred does not depend on -j).
  void RunUnproven() {
    std::vector<std::size_t> chunk;
    for (const std::size_t i : order_) {
      if (out_.results[i].status != CandidateStatus::kNotRun) {
        continue;
      }
      if (const std::optional<std::size_t> proof = Proof(i)) {
        out_.results[i].status = CandidateStatus::kInferred;
        out_.results[i].inferred_from = proof;
        continue;
      }
      chunk.push_back(i);
      if (chunk.size() == kMeasuredChunk) {
        EvaluateTogether(chunk);
        chunk.clear();
      }
    }
    EvaluateTogether(chunk);
  }

  // Evaluate for several candidates at once: each round runs the next seed of every one still
  // undecided, in one call to the runner.
  void EvaluateTogether(const std::vector<std::size_t>& chunk) {
    std::vector<std::size_t> open = chunk;
    for (const std::size_t i : chunk) {
      values_[i].clear();
      Ran(i);
    }
    while (!open.empty()) {
      std::vector<const SweepPoint*> points;
      for (const std::size_t i : open) {
        points.push_back(c_.candidates[i].runs[out_.results[i].seeds_run]);
      }
      const std::vector<SweepRecord> records = run_(points);
      std::vector<std::size_t> undecided;
      for (std::size_t k = 0; k < open.size(); ++k) {
        ++out_.runs_asked;
        Record(open[k], records[k]);
        if (out_.results[open[k]].status != CandidateStatus::kFailed && !Judge(open[k], false)) {
          undecided.push_back(open[k]);
        }
      }
      open = std::move(undecided);
    }
  }

  // The measured objective of every fleet run on all its seeds: output per dollar, the seeds'
  // priority-weighted output over their billed cost (none when nothing was billed).
  void Measure() {
    if (!IsMeasuredObjective(plan_.objective)) {
      return;
    }
    for (std::size_t i = 0; i < c_.candidates.size(); ++i) {
      if (values_[i].size() != c_.seeds || out_.results[i].status == CandidateStatus::kFailed) {
        continue;
      }
      const std::optional<double> output = Sum(Column(i, Extra(kOutput)));
      const std::optional<double> cost = Sum(Column(i, Extra(kCost)));
      if (output && cost && *cost > 0) {
        out_.results[i].measured = *output / *cost;
      }
    }
  }

  static std::optional<double> Sum(const std::vector<std::optional<double>>& values) {
    double sum = 0;
    for (const std::optional<double>& v : values) {
      if (!v) {
        return std::nullopt;
      }
      sum += *v;
    }
    return sum;
  }

  // The columns Record keeps after the targets' values.
  enum ExtraColumn : std::size_t { kRejected, kOutput, kCost };
  std::size_t Extra(ExtraColumn column) const { return plan_.targets.size() + column; }

  // Candidates in the order the answer is chosen in: by objective, cheapest first; for a
  // measured objective, the highest measured figure first (then the cheapest), unmeasured last.
  std::vector<std::size_t> Ranked() const {
    std::vector<std::size_t> ranked = order_;
    if (IsMeasuredObjective(plan_.objective)) {
      std::stable_sort(ranked.begin(), ranked.end(), [&](std::size_t a, std::size_t b) {
        const std::optional<double>& x = out_.results[a].measured;
        const std::optional<double>& y = out_.results[b].measured;
        return x && (!y || *x > *y);
      });
    }
    return ranked;
  }

  // The answer's neighbours one step smaller on one node-count axis: inferred, not run, yet the
  // closest cheaper fleets; run them to test the assumption where it decides the answer.
  void CheckNeighbours() {
    const std::optional<std::size_t> best = BestFeasible();
    if (!best) {
      return;
    }
    for (std::size_t i = 0; i < c_.candidates.size(); ++i) {
      if (out_.results[i].status != CandidateStatus::kInferred || !OneStepBelow(i, *best)) {
        continue;
      }
      const std::size_t proof = *out_.results[i].inferred_from;
      out_.results[i] = {};
      Evaluate(i);
      Ran(i);
      if (out_.results[i].status == CandidateStatus::kFeasible) {
        out_.contradictions.push_back(fmt::format(
            "{} meets every target, though {} (no smaller on any node count) misses one",
            DescribeCandidate(plan_, c_.candidates[i]),
            DescribeCandidate(plan_, c_.candidates[proof])));
      }
    }
  }

  bool OneStepBelow(std::size_t i, std::size_t best) const {
    if (!Below(i, best)) {
      return false;
    }
    std::size_t differing = 0;
    for (std::size_t k = 0; k < c_.candidates[i].counts.size(); ++k) {
      differing += c_.candidates[i].counts[k] != c_.candidates[best].counts[k] ? 1U : 0U;
    }
    return differing == 1;
  }

  // The answer as the runs so far have it.
  std::optional<std::size_t> BestFeasible() const {
    for (const std::size_t i : Ranked()) {
      if (Answerable(i)) {
        return i;
      }
    }
    return std::nullopt;
  }

  // Feasible, and for a measured objective with a figure.
  bool Answerable(std::size_t i) const {
    return out_.results[i].status == CandidateStatus::kFeasible &&
           (!IsMeasuredObjective(plan_.objective) || out_.results[i].measured);
  }

  void Choose() {
    for (const std::size_t i : Ranked()) {
      if (!Answerable(i)) {
        continue;
      }
      if (!out_.answer) {
        out_.answer = i;
      } else if (out_.runners_up.size() < plan_.runners_up) {
        out_.runners_up.push_back(i);
      }
    }
    std::vector<std::size_t> infeasible;
    for (const std::size_t i : order_) {
      const bool cheaper =
          !out_.answer || c_.candidates[i].objective <= c_.candidates[*out_.answer].objective;
      if (out_.results[i].status == CandidateStatus::kInfeasible && cheaper) {
        infeasible.push_back(i);
      }
    }
    if (!out_.answer) {  // the closest: fleets run on every seed, fewest targets missed first
      std::stable_sort(infeasible.begin(), infeasible.end(), [&](std::size_t a, std::size_t b) {
        const bool full_a = out_.results[a].seeds_run == c_.seeds;
        const bool full_b = out_.results[b].seeds_run == c_.seeds;
        return full_a != full_b ? full_a : Misses(a) < Misses(b);
      });
    } else {
      std::reverse(infeasible.begin(), infeasible.end());  // the dearest below the answer first
    }
    infeasible.resize(std::min<std::size_t>(infeasible.size(), 3));
    out_.closest_infeasible = infeasible;
  }

  std::size_t Misses(std::size_t i) const {
    std::size_t misses = 0;
    for (const TargetOutcome& o : out_.results[i].targets) {
      misses += o.decided && !o.met ? 1U : 0U;
    }
    return misses;
  }

  // Every pair of fully run fleets, one with no more nodes anywhere than the other and both
  // rejecting the same number of jobs on each seed: no target metric may move against its
  // assumed trend by more than 1 % (and 1e-9). A fleet that rejects fewer jobs runs more of
  // them, and its waits are over other jobs: such pairs are not compared.
  void CheckMonotonicity() {
    // Comparable fleets share a group and their rejections on every seed; each fleet's target
    // means are computed once.
    std::map<std::string, std::vector<std::size_t>> buckets;
    means_.assign(c_.candidates.size(), {});
    for (std::size_t i = 0; i < c_.candidates.size(); ++i) {
      if (values_[i].size() != c_.seeds || out_.results[i].status == CandidateStatus::kFailed) {
        continue;
      }
      std::string key = c_.candidates[i].group;
      for (const std::optional<double>& rejected : Column(i, Extra(kRejected))) {
        key += rejected ? fmt::format("{}|", *rejected) : std::string("-|");
      }
      buckets[key].push_back(i);
      for (std::size_t t = 0; t < plan_.targets.size(); ++t) {
        means_[i].push_back(Mean(Column(i, t)));
      }
    }
    for (const auto& [key, members] : buckets) {
      for (const std::size_t a : members) {
        for (const std::size_t b : members) {
          if (a == b || !Below(a, b)) {
            continue;
          }
          ++out_.pairs_checked;
          for (std::size_t t = 0; t < plan_.targets.size(); ++t) {
            CheckPair(a, b, t);
          }
        }
      }
    }
  }

  void CheckPair(std::size_t small, std::size_t large, std::size_t t) {
    const std::string metric = TargetMetricName(plan_.targets[t]);
    const int trend = CapacityTrend(plan_.targets[t].metric);
    const std::optional<double> x = means_[small][t];
    const std::optional<double> y = means_[large][t];
    if (trend == 0 || !x || !y) {
      return;
    }
    const double slack = 1e-9 + 0.01 * std::abs(*x);
    const bool against = trend < 0 ? *y > *x + slack : *y < *x - slack;
    if (against) {
      out_.contradictions.push_back(fmt::format(
          "{} {} from {:.6g} ({}) to {:.6g} with more nodes ({})", metric,
          trend < 0 ? "rose" : "fell", *x, DescribeCandidate(plan_, c_.candidates[small]), *y,
          DescribeCandidate(plan_, c_.candidates[large])));
    }
  }

  static std::optional<double> Mean(const std::vector<std::optional<double>>& values) {
    const std::optional<double> sum = Sum(values);
    return !sum || values.empty() ? std::nullopt : std::optional(*sum / double(values.size()));
  }

  const PlanSpec& plan_;
  const PlanCandidates& c_;
  const PlanRunner& run_;
  const PlanSearchOptions& options_;
  PlanOutcome out_;
  std::vector<std::size_t> order_;      // candidates by objective, then grid order
  std::vector<std::size_t> group_of_;  // per candidate, its group's number
  // Per group, the candidates run, in the order they were.
  std::vector<std::vector<std::size_t>> runs_by_group_;
  std::vector<int> trends_;  // per target, TargetTrend
  std::vector<std::vector<std::optional<double>>> means_;  // per run fleet, per target
  // Per candidate, per seed run, per target: the metric's value.
  std::vector<std::vector<std::vector<std::optional<double>>>> values_;
};

}  // namespace

int CapacityTrend(const std::string& metric) {
  static const std::vector<std::string> kFalls = {"wait_mean_s",
                                                  "wait_p50_s",
                                                  "wait_p90_s",
                                                  "wait_p99_s",
                                                  "jct_mean_s",
                                                  "jct_p50_s",
                                                  "jct_p90_s",
                                                  "jct_p99_s",
                                                  "bounded_slowdown_mean",
                                                  "makespan_s",
                                                  "realtime_unmet_gpu_hours",
                                                  "realtime_unmet_share",
                                                  "jobs_rejected",
                                                  "deadline_misses"};
  static const std::vector<std::string> kRises = {"jobs_completed", "priority_weighted_output"};
  if (std::find(kFalls.begin(), kFalls.end(), metric) != kFalls.end()) {
    return -1;
  }
  return std::find(kRises.begin(), kRises.end(), metric) != kRises.end() ? +1 : 0;
}

std::string DescribeCandidate(const PlanSpec& plan, const PlanCandidate& candidate) {
  std::string text;
  for (std::size_t a = 0; a < plan.runs.axes.size(); ++a) {
    if (plan.runs.axes[a].target == AxisTarget::kSeed || candidate.labels[a].empty()) {
      continue;
    }
    text += fmt::format("{}{}={}", text.empty() ? "" : ", ", plan.runs.axes[a].name,
                        candidate.labels[a]);
  }
  return text.empty() ? "the base fleet" : text;
}

namespace {

// OK when some job of the workload is in the target's group, else why not.
Status CheckGroupHasJobs(const PlanTarget& t, const Workload& workload) {
  std::set<std::string> tenants;
  for (const Job& job : workload.jobs) {
    if (t.group->Holds(job.request.tenant, job.request.kind)) {
      return Status::Ok();
    }
    tenants.insert(job.request.tenant);
  }
  const std::vector<std::string> names(tenants.begin(), tenants.end());
  constexpr std::size_t kShown = 12;
  const std::vector<std::string> shown(
      names.begin(), names.begin() + static_cast<std::ptrdiff_t>(std::min(names.size(), kShown)));
  return Status::InvalidInput(
      fmt::format("no job of the workload is in {}'s group (its {} tenant{}: {}{}){}",
                  TargetMetricName(t), names.size(), names.size() == 1 ? "" : "s",
                  fmt::join(shown, ", "), names.size() > kShown ? ", ..." : "",
                  t.group->tenant.empty() ? "" : DidYouMean(t.group->tenant, names)));
}

// The group targets' problems, checked on the first candidate's first run's workload.
void CheckGroups(const PlanSpec& plan, PlanCandidates& out) {
  if (out.candidates.empty()) {
    return;
  }
  const SweepPoint& first = *out.candidates.front().runs.front();
  std::optional<Workload> workload;
  for (std::size_t t = 0; t < plan.targets.size(); ++t) {
    if (!plan.targets[t].group) {
      continue;
    }
    if (!workload) {
      workload = BuildWorkload(*first.scenario_loaded, first.seed);
    }
    if (Status status = CheckGroupHasJobs(plan.targets[t], *workload); !status.ok()) {
      out.errors.push_back(
          fmt::format("{}: /targets/{}: {}", plan.runs.source, t, status.message()));
    }
  }
}

// The multi-year view's problems: every candidate fleet must be priceable over the horizon.
void CheckHorizonPrices(const PlanSpec& plan, PlanCandidates& out) {
  if (!plan.horizon) {
    return;
  }
  std::vector<const FleetSpec*> fleets;
  for (const PlanCandidate& candidate : out.candidates) {
    fleets.push_back(&CandidateFleet(candidate));
  }
  for (const std::string& problem : CheckHorizon(*plan.horizon, fleets)) {
    out.errors.push_back(fmt::format("{}: {}", plan.runs.source, problem));
  }
}

}  // namespace

std::vector<std::pair<std::string, SweepMetric>> PlanGroupMetrics(const PlanSpec& plan,
                                                                  const RunReport& report) {
  std::vector<std::pair<std::string, SweepMetric>> metrics;
  for (const PlanTarget& t : plan.targets) {
    if (t.group) {
      const std::optional<double> value = GroupMetric(report, t.metric, *t.group);
      metrics.emplace_back(TargetMetricName(t), SweepMetric{.value = value});
    }
  }
  return metrics;
}

bool HasPlanGroupMetrics(const PlanSpec& plan, const SweepRecord& record) {
  return std::all_of(plan.targets.begin(), plan.targets.end(), [&](const PlanTarget& t) {
    return !t.group || std::any_of(record.group_metrics.begin(), record.group_metrics.end(),
                                   [&](const auto& m) { return m.first == TargetMetricName(t); });
  });
}

PlanCandidates BuildCandidates(const PlanSpec& plan, const SweepExpansion& expansion) {
  PlanCandidates out;
  const std::optional<std::size_t> seed_axis = SeedAxis(plan.runs);
  out.seeds = seed_axis ? plan.runs.axes[*seed_axis].values.size() : 1;
  std::vector<std::size_t> count_axes;
  for (std::size_t a = 0; a < plan.runs.axes.size(); ++a) {
    if (IsCountAxis(plan.runs.axes[a])) {
      count_axes.push_back(a);
      out.count_axes.push_back(plan.runs.axes[a].name);
    }
  }
  std::map<std::vector<std::string>, std::size_t> by_labels;
  std::vector<PlanCandidate> all;
  for (const SweepPoint& point : expansion.points) {
    std::vector<std::string> labels = point.labels;
    if (seed_axis) {
      labels[*seed_axis].clear();
    }
    const auto [it, inserted] = by_labels.try_emplace(labels, all.size());
    if (inserted) {
      PlanCandidate candidate{.index = all.size(), .labels = labels};
      for (std::size_t a = 0; a < labels.size(); ++a) {
        if (std::find(count_axes.begin(), count_axes.end(), a) != count_axes.end()) {
          candidate.counts.push_back(plan.runs.axes[a].values.empty()
                                         ? 0
                                         : std::stoll(labels[a].empty() ? "0" : labels[a]));
        } else {
          candidate.group += labels[a] + '\x1f';
        }
      }
      all.push_back(std::move(candidate));
    }
    all[it->second].runs.push_back(&point);
  }
  for (PlanCandidate& candidate : all) {
    const SweepPoint& first = *candidate.runs.front();
    if (first.scenario_loaded == nullptr) {
      if (out.invalid++ == 0) {
        out.first_invalid = fmt::format("{}: {}", DescribeCandidate(plan, candidate), first.error);
      }
      continue;
    }
    if (candidate.runs.size() != out.seeds) {
      ++out.repeats;  // the same runs as a fleet listed before it (ExpandSweep dropped them)
      continue;
    }
    std::string why;
    const std::optional<double> objective =
        Objective(plan.objective, first.scenario_loaded->fleet, why);
    if (!objective) {
      out.errors.push_back(fmt::format("{}: the {} of {} is unknown: {}", plan.runs.source,
                                       PlanObjectiveName(plan.objective),
                                       DescribeCandidate(plan, candidate), why));
      return out;
    }
    candidate.objective = *objective;
    candidate.index = out.candidates.size();
    out.candidates.push_back(std::move(candidate));
  }
  CheckGroups(plan, out);
  CheckHorizonPrices(plan, out);
  if (out.candidates.empty()) {
    out.errors.push_back(
        out.invalid == 0
            ? fmt::format("{}: the grid holds no candidate fleet (every point excluded)",
                          plan.runs.source)
            : fmt::format("{}: no candidate fleet is a valid scenario ({} tried); the first: {}",
                          plan.runs.source, out.invalid, out.first_invalid));
  }
  return out;
}

const FleetSpec& CandidateFleet(const PlanCandidate& candidate) {
  return candidate.runs.front()->scenario_loaded->fleet;
}

std::optional<double> ObjectiveValue(const PlanSpec& plan, const PlanCandidate& candidate,
                                     const CandidateResult& result) {
  return IsMeasuredObjective(plan.objective) ? result.measured : std::optional(candidate.objective);
}

PlanOutcome SearchPlan(const PlanSpec& plan, const PlanCandidates& candidates,
                       const PlanRunner& run, const PlanSearchOptions& options) {
  return Search(plan, candidates, run, options).Run();
}

}  // namespace fleetsim
