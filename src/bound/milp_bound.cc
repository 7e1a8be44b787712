// SolveBound: the time-indexed model of include/fleetsim/bound/milp_bound.h, built as a Milp
// (columns and rows), solved with CBC, and the best solution read back as a schedule.
#include "fleetsim/bound/milp_bound.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "milp/cbc_milp.h"

namespace fleetsim {

namespace {

using milp::Milp;
using milp::MilpColumn;
using milp::MilpRow;

constexpr double kMillisPerHour = 3600.0 * 1000.0;

double Hours(SimDuration ms) { return static_cast<double>(ms) / kMillisPerHour; }

// The grid: step m covers [begin(m), end(m)); the last ends at the window's end.
struct Grid {
  SimDuration step = 0;
  SimTime window_end = 0;
  std::int64_t steps = 0;

  SimTime Begin(std::int64_t m) const { return m * step; }
  SimTime End(std::int64_t m) const { return std::min((m + 1) * step, window_end); }
  double LengthHours(std::int64_t m) const { return Hours(End(m) - Begin(m)); }
  // The instant just before boundary m (m = 1..steps): the end of step m - 1.
  SimTime Boundary(std::int64_t m) const { return End(m - 1); }
};

// GPU-hours of [s, s + d) in step m, for g GPUs (0 outside the window).
double GpuHoursInStep(const Grid& grid, std::int64_t g, SimTime s, SimDuration d, std::int64_t m) {
  const SimTime from = std::max(s, grid.Begin(m));
  const SimTime to = std::min(s + d, grid.End(m));
  return to > from ? static_cast<double>(g) * Hours(to - from) : 0.0;
}

// GPU-hours of demand over [from, to).
double DemandGpuHours(const DemandCurve& curve, SimTime from, SimTime to) {
  double total = 0;
  for (SimTime t = from - from % curve.step; t < to; t += curve.step) {
    const SimTime a = std::max(from, t);
    const SimTime b = std::min(to, t + curve.step);
    if (b > a) {
      total += static_cast<double>(curve.At(t)) * Hours(b - a);
    }
  }
  return total;
}

// One segment of a job's possible starts: s in [from, to), exact in the model.
struct Segment {
  SimTime from = 0;
  SimTime to = 0;
  int z = -1;       // column: starts in this segment (binary)
  int lambda = -1;  // column: how far into it, in [0, z]
};

struct JobColumns {
  std::vector<Segment> segments;
};

struct ServiceColumns {
  std::vector<int> held;       // A_m by step (-1 before submission)
  std::vector<int> served;     // σ_m by step (-1 before submission)
  std::vector<int> count;      // b_m by boundary m = 1..steps, at [m - 1]
  std::vector<int> running;    // u_m by boundary, at [m - 1]
  std::vector<double> demand;  // demand GPU-hours by step
};

// The kinks of a job's GPU-hours per step and output as functions of its start: where the start
// or the end crosses a step boundary or the window's end, and its submission. Sorted, in
// [submit, window_end].
std::vector<SimTime> Kinks(const Grid& grid, const BoundBatchJob& job) {
  std::set<SimTime> kinks{job.submit, grid.window_end};
  for (std::int64_t m = 0; m <= grid.steps; ++m) {
    const SimTime boundary = m == grid.steps ? grid.window_end : grid.Begin(m);
    for (const SimTime t : {boundary, boundary - job.duration}) {
      if (t >= job.submit && t <= grid.window_end) {
        kinks.insert(t);
      }
    }
  }
  return {kinks.begin(), kinks.end()};
}

class ModelBuilder {
 public:
  explicit ModelBuilder(const BoundProblem& problem)
      : problem_(problem),
        grid_{.step = problem.step, .window_end = problem.window_end, .steps = problem.steps()} {}

  void Build() {
    capacity_.resize(static_cast<std::size_t>(grid_.steps));
    instant_.resize(static_cast<std::size_t>(grid_.steps));
    for (const BoundBatchJob& job : problem_.batch) {
      AddJob(job);
    }
    for (const BoundService& service : problem_.services) {
      AddService(service);
    }
    for (std::int64_t m = 0; m < grid_.steps; ++m) {
      MilpRow& row = capacity_[static_cast<std::size_t>(m)];
      row.upper = static_cast<double>(problem_.gpus) * grid_.LengthHours(m);
      milp_.AddRow(std::move(row));
      MilpRow& at = instant_[static_cast<std::size_t>(m)];
      at.upper = static_cast<double>(problem_.gpus);
      milp_.AddRow(std::move(at));
    }
    AddBlockRows();
  }

  const Milp& milp() const { return milp_; }
  const Grid& grid() const { return grid_; }
  const std::vector<JobColumns>& jobs() const { return jobs_; }
  const std::vector<ServiceColumns>& services() const { return services_; }

 private:
  // Adds a term; a coefficient that is only rounding noise (GPU-hours are multiples of a
  // millisecond, 2.8e-7 h) is left out.
  static void Add(MilpRow& row, int column, double coefficient) {
    if (std::abs(coefficient) > 1e-12) {
      row.columns.push_back(column);
      row.coefficients.push_back(coefficient);
    }
  }

  void AddJob(const BoundBatchJob& job) {
    const std::vector<SimTime> kinks = Kinks(grid_, job);
    const auto p = static_cast<double>(job.priority);
    JobColumns columns;
    MilpRow once{.upper = 1};  // at most one start
    for (std::size_t i = 0; i + 1 < kinks.size(); ++i) {
      Segment seg{.from = kinks[i], .to = kinks[i + 1]};
      // Output at either end; linear in between.
      double out_from = 0;
      double out_to = 0;
      std::vector<double> from_hours(static_cast<std::size_t>(grid_.steps));
      std::vector<double> to_hours(static_cast<std::size_t>(grid_.steps));
      for (std::int64_t m = 0; m < grid_.steps; ++m) {
        const auto k = static_cast<std::size_t>(m);
        from_hours[k] = GpuHoursInStep(grid_, job.gpus, seg.from, job.duration, m);
        to_hours[k] = GpuHoursInStep(grid_, job.gpus, seg.to, job.duration, m);
        out_from += p * from_hours[k];
        out_to += p * to_hours[k];
      }
      seg.z = milp_.AddColumn({.lower = 0, .upper = 1, .objective = out_from, .integer = true});
      seg.lambda = milp_.AddColumn({.lower = 0, .upper = 1, .objective = out_to - out_from});
      MilpRow link{.upper = 0};  // λ <= z
      Add(link, seg.lambda, 1);
      Add(link, seg.z, -1);
      milp_.AddRow(std::move(link));
      Add(once, seg.z, 1);
      for (std::int64_t m = 0; m < grid_.steps; ++m) {
        const auto k = static_cast<std::size_t>(m);
        Add(capacity_[k], seg.z, from_hours[k]);
        Add(capacity_[k], seg.lambda, to_hours[k] - from_hours[k]);
      }
      // Surely running just before boundary m: started before it (the segment ends by then)
      // and still running (the earliest start lasts past it).
      for (std::int64_t m = 1; m <= grid_.steps; ++m) {
        const SimTime t = grid_.Boundary(m);
        if (seg.to <= t && seg.from + job.duration >= t) {
          Add(instant_[static_cast<std::size_t>(m - 1)], seg.z, static_cast<double>(job.gpus));
          sure_.push_back({.job = jobs_.size(), .z = seg.z, .boundary = m});
        }
      }
      columns.segments.push_back(seg);
    }
    milp_.AddRow(std::move(once));
    jobs_.push_back(std::move(columns));
  }

  void AddService(const BoundService& s) {
    const std::int64_t steps = grid_.steps;
    const auto max = static_cast<double>(s.max_gpus);
    const auto min = static_cast<double>(std::min(s.min_gpus, s.max_gpus));
    const auto cap = static_cast<double>(s.demand.swap_cap);
    const bool lives_to_end = s.submit + s.duration >= grid_.window_end;
    // The cap is modelled when each demand step is a whole number of grid steps (both are
    // aligned to time 0); then demand step boundaries are grid boundaries.
    const bool capped = s.demand.swap_cap > 0 && s.demand.step % grid_.step == 0;
    const std::int64_t per_demand_step = capped ? s.demand.step / grid_.step : 1;
    ServiceColumns c;
    c.held.assign(static_cast<std::size_t>(steps), -1);
    c.served.assign(static_cast<std::size_t>(steps), -1);
    c.demand.assign(static_cast<std::size_t>(steps), 0.0);
    MilpRow total_served{.upper = static_cast<double>(std::min(s.demand.Peak(), s.max_gpus)) *
                                  Hours(s.duration)};
    for (std::int64_t m = 0; m < steps; ++m) {
      const auto k = static_cast<std::size_t>(m);
      const SimTime from = std::max(grid_.Begin(m), s.submit);
      if (from >= grid_.End(m)) {
        continue;  // before its submission
      }
      c.demand[k] = DemandGpuHours(s.demand, from, grid_.End(m));
      c.held[k] = milp_.AddColumn({.lower = 0, .upper = max * Hours(grid_.End(m) - from)});
      c.served[k] = milp_.AddColumn(
          {.lower = 0, .upper = c.demand[k], .objective = static_cast<double>(s.priority)});
      MilpRow served_le_held{.upper = 0};
      Add(served_le_held, c.served[k], 1);
      Add(served_le_held, c.held[k], -1);
      milp_.AddRow(std::move(served_le_held));
      Add(capacity_[k], c.held[k], 1);
      Add(total_served, c.served[k], 1);
    }
    if (!lives_to_end) {
      milp_.AddRow(std::move(total_served));
    }
    for (std::int64_t m = 1; m <= steps; ++m) {
      const bool may_run = grid_.Boundary(m) > s.submit;
      c.running.push_back(
          milp_.AddColumn({.lower = 0, .upper = may_run ? 1.0 : 0.0, .integer = true}));
      c.count.push_back(milp_.AddColumn({.lower = 0, .upper = max, .integer = true}));
      const int u = c.running.back();
      const int b = c.count.back();
      Add(instant_[static_cast<std::size_t>(m - 1)], b, 1);
      MilpRow held_if_running{.upper = 0};  // b <= max u
      Add(held_if_running, b, 1);
      Add(held_if_running, u, -max);
      milp_.AddRow(std::move(held_if_running));
      if (lives_to_end) {
        MilpRow at_least_min{.lower = 0};  // b >= min u
        Add(at_least_min, b, 1);
        Add(at_least_min, u, -min);
        milp_.AddRow(std::move(at_least_min));
      }
    }
    for (std::int64_t m = 0; m < steps; ++m) {
      const auto k = static_cast<std::size_t>(m);
      const int held = c.held[k];
      if (held < 0) {
        continue;
      }
      const double len = grid_.LengthHours(m);
      // u_m: running at the step's start (the boundary before it); u_{m+1}: at its end.
      const int u_start = m >= 1 ? c.running[k - 1] : -1;
      const int u_end = c.running[k];
      if (lives_to_end) {
        // Never started by the step's end: it held nothing in the step.
        MilpRow none_before{.upper = 0};
        Add(none_before, held, 1);
        Add(none_before, u_end, -max * len);
        milp_.AddRow(std::move(none_before));
        if (u_start >= 0) {
          MilpRow u_monotone{.upper = 0};  // running at a boundary: running at the next
          Add(u_monotone, u_start, 1);
          Add(u_monotone, u_end, -1);
          milp_.AddRow(std::move(u_monotone));
          MilpRow min_all_step{.lower = 0};  // running all step: at least min GPUs
          Add(min_all_step, held, 1);
          Add(min_all_step, u_start, -min * len);
          milp_.AddRow(std::move(min_all_step));
        }
      }
      if (!capped) {
        continue;
      }
      // The boundaries where this step's demand step begins and ends (0: time 0; past `steps`:
      // after the window's end).
      const std::int64_t first = m / per_demand_step * per_demand_step;
      const std::int64_t last = first + per_demand_step;
      if (last <= steps) {
        // Running at the demand step's end with b' GPUs: it began the demand step (or started
        // in it) with a count c within cap of b', and held counts within cap of c: at most
        // b' + 2 cap.
        const auto e = static_cast<std::size_t>(last - 1);
        MilpRow held_below_end{.upper = len * (2 * cap + max)};
        Add(held_below_end, held, 1);
        Add(held_below_end, c.count[e], -len);
        Add(held_below_end, c.running[e], len * max);
        milp_.AddRow(std::move(held_below_end));
      }
      if (first < 1) {
        continue;
      }
      // Running at the demand step's start with b GPUs: every count in it is within cap of b
      // (relaxed by max when not running then: b is 0 and the count it starts with is free).
      const auto f = static_cast<std::size_t>(first - 1);
      MilpRow held_up{.upper = len * (cap + max)};
      Add(held_up, held, 1);
      Add(held_up, c.count[f], -len);
      Add(held_up, c.running[f], len * max);
      milp_.AddRow(std::move(held_up));
      if (lives_to_end) {
        MilpRow held_down{.lower = -len * cap};
        Add(held_down, held, 1);
        Add(held_down, c.count[f], -len);
        milp_.AddRow(std::move(held_down));
      }
    }
    // The counts just before each boundary inside a demand step and at its end are within cap
    // of the count it began with.
    for (std::int64_t first = per_demand_step; capped && first < steps; first += per_demand_step) {
      const auto f = static_cast<std::size_t>(first - 1);
      for (std::int64_t j = first + 1; j <= std::min(first + per_demand_step, steps); ++j) {
        const auto k = static_cast<std::size_t>(j - 1);
        MilpRow count_up{.upper = cap + max};
        Add(count_up, c.count[k], 1);
        Add(count_up, c.count[f], -1);
        Add(count_up, c.running[f], max);
        milp_.AddRow(std::move(count_up));
        if (lives_to_end) {
          MilpRow count_down{.lower = -cap};
          Add(count_down, c.count[k], 1);
          Add(count_down, c.count[f], -1);
          milp_.AddRow(std::move(count_down));
        }
      }
    }
    services_.push_back(std::move(c));
  }

  // For each block size b the block jobs reach: at each boundary, jobs of blocks >= b take
  // g / b whole aligned b-blocks; every other GPU in use (services, smaller or unaligned jobs)
  // spoils ceil((X - L) / b) more at least, L being the GPUs outside every b-block. When every
  // domain's size is a multiple of b (L = 0) this follows from the capacity at that instant
  // (sizes that are powers of two always pack, buddy fashion), so the rows are left out.
  void AddBlockRows() {
    std::int64_t largest_block = 0;
    for (const BoundBatchJob& job : problem_.batch) {
      if (job.block) {
        largest_block = std::max(largest_block, job.gpus);
      }
    }
    for (std::int64_t b = 2; b <= largest_block; b *= 2) {
      std::int64_t blocks = 0;
      std::int64_t outside = 0;
      for (const std::int64_t n : problem_.domains) {
        blocks += n / b;
        outside += n % b;
      }
      if (outside == 0) {
        continue;
      }
      std::vector<MilpRow> whole(static_cast<std::size_t>(grid_.steps),
                                 MilpRow{.upper = static_cast<double>(blocks)});
      std::vector<MilpRow> spoiled(static_cast<std::size_t>(grid_.steps),
                                   MilpRow{.lower = -static_cast<double>(outside)});
      for (const Sure& sure : sure_) {
        const BoundBatchJob& job = problem_.batch[sure.job];
        const auto k = static_cast<std::size_t>(sure.boundary - 1);
        if (job.block && job.gpus >= b) {
          Add(whole[k], sure.z, static_cast<double>(job.gpus) / static_cast<double>(b));
        } else {
          Add(spoiled[k], sure.z, -static_cast<double>(job.gpus));
        }
      }
      for (const ServiceColumns& service : services_) {
        for (std::size_t k = 0; k < service.count.size(); ++k) {
          Add(spoiled[k], service.count[k], -1);
        }
      }
      for (std::size_t k = 0; k < whole.size(); ++k) {
        const int w =
            milp_.AddColumn({.lower = 0, .upper = static_cast<double>(blocks), .integer = true});
        Add(whole[k], w, 1);
        Add(spoiled[k], w, static_cast<double>(b));
        milp_.AddRow(std::move(whole[k]));
        milp_.AddRow(std::move(spoiled[k]));
      }
    }
  }

  struct Sure {
    std::size_t job = 0;
    int z = -1;
    std::int64_t boundary = 0;
  };

  const BoundProblem& problem_;
  Grid grid_;
  Milp milp_;
  std::vector<MilpRow> capacity_;  // per step: GPU-hours
  std::vector<MilpRow> instant_;   // per boundary: GPUs just before it
  std::vector<Sure> sure_;         // segments surely running at a boundary
  std::vector<JobColumns> jobs_;
  std::vector<ServiceColumns> services_;
};

BoundModelSize SizeOf(const Milp& milp) {
  BoundModelSize size;
  size.columns = static_cast<std::int64_t>(milp.columns.size());
  size.rows = static_cast<std::int64_t>(milp.rows.size());
  for (const MilpColumn& c : milp.columns) {
    size.integer_columns += c.integer ? 1 : 0;
  }
  for (const MilpRow& r : milp.rows) {
    size.nonzeros += static_cast<std::int64_t>(r.columns.size());
  }
  return size;
}

}  // namespace

BoundResult SolveBound(const BoundProblem& problem, const BoundOptions& options) {
  ModelBuilder builder(problem);
  builder.Build();
  const Milp& milp = builder.milp();
  const milp::MilpSolution solution =
      milp::SolveMilp(milp, {.time_limit_s = options.time_limit_s,
                             .threads = options.threads,
                             .parameters = options.solver_parameters});
  const double lp_bound = milp::SolveLpRelaxation(milp);

  BoundResult result;
  result.scenario = problem.scenario;
  result.seed = problem.seed;
  result.steps = builder.grid().steps;
  result.step = problem.step;
  result.window_end = problem.window_end;
  result.size = SizeOf(milp);
  result.has_solution = solution.has_solution;
  result.proven_optimal = solution.proven_optimal;
  result.time_limit = solution.time_limit;
  result.seconds = solution.seconds;
  result.nodes = solution.nodes;
  result.status = solution.status;
  result.left_out = problem.left_out;
  result.lp_bound = lp_bound;
  result.objective = solution.has_solution ? solution.objective : 0.0;
  // The sound figure is the bound the search proved, or the LP relaxation's when that is lower
  // or the search proved none (stopped before its root, or its solution broke the model); it is
  // never below a solution the model has.
  const bool searched = solution.model_check.ok() && std::isfinite(solution.best_bound) &&
                        std::abs(solution.best_bound) < 1e40;
  result.bound = searched ? solution.best_bound : lp_bound;
  if (searched && std::isfinite(lp_bound)) {
    result.bound = std::min(result.bound, lp_bound);
  }
  result.bound = std::max(result.bound, result.objective);
  if (!solution.model_check.ok()) {
    result.status = solution.model_check.message() + "; the bound is the LP relaxation's";
  }
  result.gap = result.proven_optimal || result.bound <= 0
                   ? 0.0
                   : (result.bound - result.objective) / result.bound;
  if (!solution.has_solution) {
    return result;
  }
  const std::vector<double>& x = solution.values;
  auto value = [&](int column) { return x[static_cast<std::size_t>(column)]; };
  for (std::size_t j = 0; j < problem.batch.size(); ++j) {
    const BoundBatchJob& job = problem.batch[j];
    for (const Segment& seg : builder.jobs()[j].segments) {
      if (value(seg.z) < 0.5) {
        continue;
      }
      const double into = std::clamp(value(seg.lambda), 0.0, 1.0);
      const SimTime start = seg.from + std::llround(into * static_cast<double>(seg.to - seg.from));
      double hours = 0;
      for (std::int64_t m = 0; m < result.steps; ++m) {
        hours += GpuHoursInStep(builder.grid(), job.gpus, start, job.duration, m);
      }
      result.starts.push_back({.id = job.id,
                               .priority = job.priority,
                               .gpus = job.gpus,
                               .start = start,
                               .end = start + job.duration,
                               .output = static_cast<double>(job.priority) * hours});
    }
  }
  std::sort(result.starts.begin(), result.starts.end(),
            [](const BoundStart& a, const BoundStart& b) {
              return a.start != b.start ? a.start < b.start : a.id < b.id;
            });
  for (std::size_t s = 0; s < problem.services.size(); ++s) {
    const BoundService& service = problem.services[s];
    const ServiceColumns& c = builder.services()[s];
    BoundServicePlan plan{.id = service.id, .priority = service.priority};
    for (std::size_t k = 0; k < c.held.size(); ++k) {
      const double held = c.held[k] >= 0 ? value(c.held[k]) : 0.0;
      const double served = c.served[k] >= 0 ? value(c.served[k]) : 0.0;
      plan.held_gpu_hours.push_back(held);
      plan.served_gpu_hours.push_back(served);
      plan.demand_gpu_hours.push_back(c.demand[k]);
      plan.gpus_at_end.push_back(std::llround(value(c.count[k])));
      plan.output += static_cast<double>(service.priority) * served;
    }
    result.services.push_back(std::move(plan));
  }
  return result;
}

bool IsSolverParameter(const std::string& name) { return milp::IsSolverParameter(name); }

}  // namespace fleetsim
