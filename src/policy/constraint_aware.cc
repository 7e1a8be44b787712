// constraint-aware: the rolling-horizon allocator of docs/policies.md (after the "constraint-aware"
// allocator of the seven-scenario benchmark post). At every call it translates the ClusterView
// into a PlanProblem (policy/horizon_plan.h) over a grid of `horizon_steps` steps of `step_s`
// aligned to time 0, plans the whole horizon and commits only step 0:
//  - lanes are the GPUs that can ever be taken whole; running work is pinned to its GPUs until its
//    estimated end (start + walltime estimate, else + default_runtime_s; a job past its estimate
//    is assumed to end within the current step);
//  - elastic real-time services (a demand curve and a size range, no block or NVLink rule) get a
//    per-step count within their swap cap; a running one is resized only at the boundary of its
//    demand step, once per step, by a call that makes only resizes and asks to be called again a
//    millisecond later, when the starts are planned on the resized fleet;
//  - batch-like jobs (and real-time services of a fixed shape, weighted by the penalty) start when
//    the plan puts them at step 0, on the plan's GPUs plus their host share, held on the planner;
//    if that hold fails, the shared placement helper places them;
//  - jobs that do not take whole GPUs (MIG, fractions, CPU-only) or that the plan cannot represent
//    go to the shared placement helper after the planned starts, in queue order;
//  - the improvement phase (local search) runs at most once every improve_period_s;
//  - what it may know of interruptions, it uses: GPUs of a node announced for reclaim or down are
//    busy until the node is expected back, and a job without checkpoints that a spot pool's known
//    reclaim rate makes likely to lose its run (spot_risk_limit) takes free non-spot GPUs first
//    and stays off that pool while other capacity is expected to finish it sooner. It never sees
//    when the next reclaim or failure will come.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include "fleetsim/ledger/placement_rules.h"
#include "fleetsim/policy/policy.h"
#include "policy/builtin.h"
#include "policy/horizon_plan.h"
#include "policy/queue_index.h"
#include "policy/running_work.h"
#include "policy/window_milp.h"

namespace fleetsim {

namespace {

struct Settings {
  SimDuration step = 0;
  std::int64_t steps = 0;
  double decay = 0;
  double realtime_penalty = 0;
  SimDuration improve_period = 0;
  std::int64_t improve_evaluations = 0;
  SimDuration default_runtime = 0;
  std::int64_t max_planned_jobs = 0;
  double spot_risk_limit = 0;
  double width_exponent = 0;
  SimDuration reserve_after = 0;
  SimDuration reserve_wider_after = 0;
  std::int64_t protected_starts = 0;
  std::int64_t full_mode_steps = 0;  // 0: off
  std::int64_t full_mode_max_nodes = 0;
};

// Ceiling of a / b for a >= 0, b > 0.
std::int64_t CeilDiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

bool IsElasticService(const JobRequest& r) {
  return r.demand && r.IsElastic() && !r.pow2_block && r.nvlink != NvlinkLocality::kRequired &&
         r.sharing == GpuSharing::kNone && !r.IsCpuOnly();
}

bool TakesWholeGpus(const JobRequest& r) {
  return !r.IsCpuOnly() && r.sharing == GpuSharing::kNone;
}

bool HasHostNeed(const JobRequest& r) { return HostNeedOf(r).any(); }

// A running job the plan treats as a resizable service (PlanRealtimeJob), given its lanes.
bool IsPlannedService(const JobRequest& r) { return IsElasticService(r) && !HasHostNeed(r); }

// The problem for one call, and the maps back from plan items to jobs and GPUs.
// Kept by the policy from call to call: the lanes and their shape are set once.
struct Translation {
  PlanProblem problem;
  std::vector<JobIndex> batch_jobs;
  std::vector<JobIndex> realtime_jobs;
  std::vector<JobIndex> helper_jobs;  // placed by the shared helper, by priority then queue order
};

// What the queue index keeps of a job.
QueuedJobBrief BriefOf(const JobRequest& r) {
  return {.priority = r.priority,
          .submit = r.submit,
          .whole = TakesWholeGpus(r),
          .reservable = TakesWholeGpus(r) && !IsElasticService(r)};
}

// A run time for a job: its walltime estimate, else the default.
SimDuration Estimate(const Settings& settings, const JobRequest& r) {
  return r.walltime_estimate > 0 ? r.walltime_estimate : settings.default_runtime;
}

// How the plan sees a running job: a service without an estimate runs past the horizon; other
// jobs until their estimate (or the default run time).
RunningRole RoleOf(const Settings& settings, const JobRequest& r, SimTime start) {
  const std::int64_t end = r.demand && r.walltime_estimate == 0
                               ? kPinnedForever
                               : CeilDiv(start + Estimate(settings, r), settings.step);
  return {.service = IsPlannedService(r), .end_step = end};
}

// The lanes whose GPUs are free (whole) now.
LaneMask FreeLanes(const ClusterView& view, const LaneLayout& layout) {
  LaneMask free(layout.words, 0);
  if (layout.identity) {
    const std::span<const std::uint64_t> busy = view.NotFreeWholeWords();
    for (std::size_t w = 0; w < layout.words; ++w) {
      free[w] = ~busy[w] & layout.all[w];
    }
    return free;
  }
  for (std::size_t lane = 0; lane < layout.gpu_of_lane.size(); ++lane) {
    if (view.IsFreeWhole(layout.gpu_of_lane[lane])) {
      free[lane / 64] |= std::uint64_t{1} << (lane % 64);
    }
  }
  return free;
}

// A set of lanes jobs accept, and how many there are.
struct AcceptedLanes {
  LaneMask mask;
  std::int64_t count = 0;
};

// The lane sets of the pool sets jobs accept (by pool: accepted or not), kept for the run: the
// pools' lanes never change, and most jobs accept one of a few sets.
using AcceptedLaneSets = std::map<std::vector<bool>, AcceptedLanes>;

class Translator {
 public:
  Translator(const ClusterView& view, const Settings& settings, const LaneLayout& layout,
             RunningWork& running, const QueueIndex& queue, AcceptedLaneSets& accepted,
             LaneMask free_now)
      : view_(view),
        settings_(settings),
        layout_(layout),
        running_(running),
        queue_(queue),
        accepted_(accepted),
        grid_start_(view.now() - view.now() % settings.step),
        free_now_(std::move(free_now)) {}

  // Fills `t` (whose lanes are the layout's) for this call.
  void Translate(const std::map<JobIndex, std::int64_t>& changed_in_step, Translation& t) {
    t.problem.steps = settings_.steps;
    t.problem.decay = settings_.decay;
    t.problem.realtime_penalty = settings_.realtime_penalty;
    t.problem.busy.clear();
    t.problem.batch.clear();
    t.problem.realtime.clear();
    t.batch_jobs.clear();
    t.realtime_jobs.clear();
    t.helper_jobs.clear();
    AddRunning(t, changed_in_step);
    AddQueued(t);
  }

 private:
  // The first step at or after `time` ends (the step holding time - 1 ms, plus one).
  std::int64_t EndStep(SimTime time) const {
    return std::max<std::int64_t>(
        1, CeilDiv(std::max<SimTime>(time - grid_start_, 1), settings_.step));
  }
  // RoleOf's end, relative to this call's grid, and at least through the current step.
  std::int64_t RunningEndStep(const JobRequest& r, SimTime start) const {
    if (r.demand && r.walltime_estimate == 0) {
      return settings_.steps;
    }
    return EndStep(std::max(start + Estimate(r), view_.now() + 1));
  }
  SimDuration Estimate(const JobRequest& r) const { return fleetsim::Estimate(settings_, r); }
  std::int64_t FirstStep() const { return grid_start_ / settings_.step; }
  // A node that is out is expected back (its GPUs busy until then) at this step of the grid; a
  // node with no return time (released by the autoscaler) is out for the whole grid.
  std::int64_t NodeBackStep(NodeId node) const {
    const SimTime back = view_.Node(node).back_at;  // called for nodes that are out
    return back == kTimeNever ? settings_.steps : EndStep(back);
  }

  // The work the plan cannot move, from the running-work index: pinned lanes as bitsets, and the
  // running services as real-time jobs on the lanes they hold.
  void AddRunning(Translation& t, const std::map<JobIndex, std::int64_t>& changed_in_step) {
    running_.Pinned(
        FirstStep(), free_now_, [&](NodeId node) { return NodeBackStep(node); }, t.problem.pinned);
    for (const RunningJob* running : running_.Services()) {
      const JobRequest& r = view_.request(running->job);
      const auto it = changed_in_step.find(running->job);
      const std::int64_t demand_step = r.demand->StepIndex(view_.now());
      const bool at_boundary = view_.now() % r.demand->step == 0;
      PlanRealtimeJob job = Service(r, RunningEndStep(r, running->start));
      job.lanes = layout_.LanesOf(running->placement);
      // A service leaving, or holding GPUs on a node that is out, keeps what it holds: the
      // engine would not grant its own GPUs on that node again.
      job.can_resize_now = at_boundary && !running->leaving && AllUp(running->placement) &&
                           (it == changed_in_step.end() || it->second != demand_step);
      t.problem.realtime.push_back(std::move(job));
      t.realtime_jobs.push_back(running->job);
    }
  }

  bool AllUp(const Allocation& placement) const {
    return std::all_of(placement.gpus.begin(), placement.gpus.end(),
                       [&](const Grant& g) { return view_.IsGpuUp(g.gpu); });
  }

  // Demand per plan step: the largest of the curve's values inside the step.
  std::vector<std::int64_t> DemandPerStep(const DemandCurve& curve) const {
    std::vector<std::int64_t> demand(static_cast<std::size_t>(settings_.steps), 0);
    const std::int64_t samples = std::clamp<std::int64_t>(settings_.step / curve.step, 1, 64);
    for (std::int64_t s = 0; s < settings_.steps; ++s) {
      const SimTime begin = grid_start_ + s * settings_.step;
      for (std::int64_t k = 0; k < samples; ++k) {
        demand[static_cast<std::size_t>(s)] =
            std::max(demand[static_cast<std::size_t>(s)], curve.At(begin + k * curve.step));
      }
    }
    return demand;
  }

  PlanRealtimeJob Service(const JobRequest& r, std::int64_t end_step) const {
    return {.priority = static_cast<double>(r.priority),
            .min_gpus = r.gpus,
            .max_gpus = r.MaxGpus(),
            .swap_cap = r.demand->swap_cap,
            .demand = DemandPerStep(*r.demand),
            .end_step = end_step,
            .lanes = {},
            .can_resize_now = false,
            .can_move = r.restart_cost == 0,
            .allowed = PlanMask(Allowed(r))};
  }

  // The lanes the job accepts. A job without checkpoints (which a reclaim costs its whole run)
  // that some spot pool it accepts makes likely to lose its run is kept off spot lanes when other
  // lanes it accepts are free for it now, and off the risky spot pools (TooRiskyOnSpot) when
  // other lanes could hold it and are expected to finish it sooner. Other jobs take any lane: a
  // short run on spot leaves the non-spot GPUs to the jobs that may not use spot at all.
  const AcceptedLanes& Allowed(const JobRequest& r) const {
    const AcceptedLanes& all = LanesAccepting(r, SpotRule::kAny);
    if (settings_.spot_risk_limit >= 1 || r.checkpoint_interval > 0 || r.demand) {
      return all;
    }
    const AcceptedLanes& likely_kept =
        LanesAccepting(r, SpotRule::kNotRisky, -std::numeric_limits<double>::infinity());
    if (likely_kept.count == all.count) {
      return all;  // no spot pool it accepts makes a reclaim during its run likely
    }
    const AcceptedLanes& off_spot = LanesAccepting(r, SpotRule::kNone);
    if (FreeNow(off_spot.mask) >= r.gpus) {
      return off_spot;
    }
    const AcceptedLanes& safe =
        LanesAccepting(r, SpotRule::kNotRisky, SafeWaitHours(off_spot.mask, r.gpus));
    return safe.count >= r.gpus && safe.count < all.count ? safe : all;
  }

  // A plan's form of a set of lanes: empty when it is every lane.
  LaneMask PlanMask(const AcceptedLanes& lanes) const {
    return lanes.count == static_cast<std::int64_t>(layout_.gpu_of_lane.size()) ? LaneMask{}
                                                                                : lanes.mask;
  }

  // How long until `gpus` lanes of `mask` are free, in hours, by the estimated ends of the work
  // running on them now (what is queued is not counted); infinite if the mask has fewer lanes.
  double SafeWaitHours(const LaneMask& mask, std::int64_t gpus) const {
    std::vector<std::int64_t> free_steps;
    const std::vector<std::int64_t>& lane_free_step = LaneFreeSteps();
    for (std::uint32_t lane = 0; lane < lane_free_step.size(); ++lane) {
      if (((mask[lane / 64] >> (lane % 64)) & 1U) != 0) {
        free_steps.push_back(lane_free_step[lane]);
      }
    }
    if (static_cast<std::int64_t>(free_steps.size()) < gpus || gpus <= 0) {
      return std::numeric_limits<double>::infinity();
    }
    const auto nth = free_steps.begin() + (gpus - 1);
    std::nth_element(free_steps.begin(), nth, free_steps.end());
    const SimTime at = grid_start_ + *nth * settings_.step;
    return static_cast<double>(std::max<SimTime>(0, at - view_.now())) / 3'600'000.0;
  }

  // Per lane, the first step at which the work the plan cannot move (running jobs and services,
  // nodes out) leaves it, by their estimates: 0 for a lane free now. Worked out (O(lanes)) at the
  // first call of a run that needs it.
  const std::vector<std::int64_t>& LaneFreeSteps() const {
    if (!lane_free_step_) {
      lane_free_step_ = running_.LaneFreeSteps(
          FirstStep(), free_now_, [&](NodeId node) { return NodeBackStep(node); }, view_);
    }
    return *lane_free_step_;
  }

  // Lanes of the mask whose GPUs are free now.
  std::int64_t FreeNow(const LaneMask& mask) const {
    std::int64_t free = 0;
    for (std::size_t w = 0; w < mask.size(); ++w) {
      free += std::popcount(mask[w] & free_now_[w]);
    }
    return free;
  }

  enum class SpotRule : std::uint8_t { kAny, kNotRisky, kNone };

  const AcceptedLanes& LanesAccepting(const JobRequest& r, SpotRule spot,
                                      double safe_wait_hours = 0) const {
    std::vector<bool> pool_ok(view_.pools().size(), true);  // decided once per pool
    for (PoolIndex p = 0; p < pool_ok.size(); ++p) {
      const PoolInfo& pool = view_.pools()[p];
      const bool is_spot = pool.tier == PriceTier::kSpot;
      pool_ok[p] = view_.Accepts(r, p) && !(spot == SpotRule::kNone && is_spot) &&
                   !(spot == SpotRule::kNotRisky && TooRiskyOnSpot(r, pool, safe_wait_hours));
    }
    if (pool_ok.empty()) {
      pool_ok.push_back(true);  // a fleet without pools: every lane
    }
    const auto [it, added] = accepted_.try_emplace(pool_ok);
    if (added) {
      it->second.mask.assign(layout_.words, 0);
      for (PoolIndex p = 0; p < pool_ok.size(); ++p) {
        if (pool_ok[p]) {
          for (std::size_t w = 0; w < layout_.words; ++w) {
            it->second.mask[w] |= layout_.pool_lanes[p][w];
          }
        }
      }
      it->second.count = Count(it->second.mask);
    }
    return it->second;
  }

  // A job that keeps no checkpoints loses its whole run to a reclaim and starts again. On a spot
  // pool whose advertised reclaim rate λ (per node-hour, waves included:
  // PoolSpec::AdvertisedReclaimsPerNodeHour, not the simulator's draws) makes a reclaim during
  // its estimated run T likelier than spot_risk_limit, it is expected to finish after
  // (e^{λT} - 1) / λ hours (restarts from scratch under reclaims at rate λ); it had better
  // wait for other capacity when that capacity is expected to finish it sooner: after
  // `safe_wait_hours` plus T. Real-time services keep no state and are never held back.
  bool TooRiskyOnSpot(const JobRequest& r, const PoolInfo& pool, double safe_wait_hours) const {
    if (pool.tier != PriceTier::kSpot || r.checkpoint_interval > 0 || r.demand) {
      return false;
    }
    const double run_hours = static_cast<double>(Estimate(r)) / 3'600'000.0;
    const double rate = pool.advertised_reclaims_per_node_hour;
    if (rate <= 0 || -std::expm1(-rate * run_hours) <= settings_.spot_risk_limit) {
      return false;
    }
    return std::expm1(rate * run_hours) / rate > safe_wait_hours + run_hours;
  }

  static std::int64_t Count(const LaneMask& mask) {
    std::int64_t lanes = 0;
    for (const std::uint64_t word : mask) {
      lanes += std::popcount(word);
    }
    return lanes;
  }

  // The widest job (GPUs) of its priority or lower the starving job's reservation holds against:
  // those no wider than it until its wait reaches reserve_wider_after, then every width. Wider
  // jobs rank ahead of it (RankFactor); held back from the outset, they would lose the room they
  // wait for to a narrow job whose leftover GPUs no one uses. The full reservation bounds its
  // wait (docs/policies.md).
  std::int64_t ReservedAgainst(const JobRequest& r) const {
    return view_.now() - r.submit >= settings_.reserve_wider_after
               ? std::numeric_limits<std::int64_t>::max()
               : r.gpus;
  }

  // The default order's weight on a queued job with an estimate, beside its priority:
  // GPUs^width_exponent. The objective pays priority x GPUs per step, so a wide job ranked by
  // priority alone loses the room it waits for to narrow jobs of a higher priority, whose
  // leftover GPUs no job can use (docs/policies.md).
  double RankFactor(const JobRequest& r) const {
    return std::pow(static_cast<double>(r.gpus), settings_.width_exponent);
  }

  // The queued jobs a plan looks at, in the order it looks at them, and the starving job: the
  // queued whole-GPU batch-like job that has waited longest, if its wait has reached
  // reserve_after (ties: queue order; elastic services follow their demand and are never
  // reserved). The order: the starving job first, then by priority (highest first), then queue
  // order; of the jobs that take whole GPUs, only the first max_planned_jobs in that order.
  // Read from the queue index, so a long queue costs no more than a short one.
  struct Candidates {
    std::vector<JobIndex> jobs;
    std::optional<JobIndex> starving;
  };
  Candidates SelectCandidates() const {
    Candidates c;
    if (!queue_.reservable().empty()) {
      const JobIndex oldest = *queue_.reservable().begin();
      if (view_.now() - queue_.BriefOf(oldest).submit >= settings_.reserve_after) {
        c.starving = oldest;
      }
    }
    const auto kept = static_cast<std::size_t>(std::min<std::int64_t>(
        static_cast<std::int64_t>(queue_.whole().size()), settings_.max_planned_jobs));
    std::vector<QueueIndex::Entry> whole;
    for (auto it = queue_.whole().begin();
         it != queue_.whole().end() && whole.size() + (c.starving ? 1 : 0) < kept; ++it) {
      if (it->job != c.starving) {
        whole.push_back(*it);
      }
    }
    if (c.starving) {
      c.jobs.push_back(*c.starving);
    }
    std::vector<QueueIndex::Entry> merged(whole.size() + queue_.other().size());
    std::merge(whole.begin(), whole.end(), queue_.other().begin(), queue_.other().end(),
               merged.begin());
    for (const QueueIndex::Entry& e : merged) {
      c.jobs.push_back(e.job);
    }
    return c;
  }

  // Whole-GPU jobs beyond the first max_planned_jobs (the starving job first, then by priority)
  // are left out of this plan. The starving job gets a reservation (PlanBatchJob::reserved).
  void AddQueued(Translation& t) {
    const std::int64_t offset = view_.now() - grid_start_;
    const Candidates candidates = SelectCandidates();
    const std::optional<JobIndex> starving = candidates.starving;
    for (const JobIndex job : candidates.jobs) {
      const JobRequest& r = view_.request(job);
      if (!TakesWholeGpus(r)) {
        t.helper_jobs.push_back(job);
        continue;
      }
      const AcceptedLanes& accepted = Allowed(r);
      if (accepted.count < r.gpus) {
        t.helper_jobs.push_back(job);
        continue;
      }
      LaneMask allowed = PlanMask(accepted);
      const bool has_estimate = r.walltime_estimate > 0;
      if (IsElasticService(r)) {
        const std::int64_t end =
            has_estimate ? EndStep(view_.now() + r.walltime_estimate) : settings_.steps;
        PlanRealtimeJob service = Service(r, end);
        service.allowed = std::move(allowed);
        t.problem.realtime.push_back(std::move(service));
        t.realtime_jobs.push_back(job);
        continue;
      }
      const bool service = r.demand.has_value();
      const SimDuration run =
          service && !has_estimate ? settings_.steps * settings_.step : Estimate(r);
      t.problem.batch.push_back(
          {.priority = static_cast<double>(r.priority) * (service ? settings_.realtime_penalty : 1),
           .min_gpus = r.gpus,
           .max_gpus = r.MaxGpus(),
           .block = r.pow2_block,
           .one_domain = r.nvlink == NvlinkLocality::kRequired,
           .steps = std::max<std::int64_t>(1, CeilDiv(offset + run, settings_.step)),
           .estimated = has_estimate,
           .allowed = std::move(allowed),
           .reserved = job == starving,
           .reserved_against_gpus =
               job == starving ? ReservedAgainst(r) : std::numeric_limits<std::int64_t>::max(),
           .rank_factor = has_estimate ? RankFactor(r) : 1});
      t.batch_jobs.push_back(job);
    }
  }

  const ClusterView& view_;
  const Settings& settings_;
  const LaneLayout& layout_;
  RunningWork& running_;
  const QueueIndex& queue_;
  AcceptedLaneSets& accepted_;
  SimTime grid_start_;
  LaneMask free_now_;  // lanes whose GPUs are free now
  mutable std::optional<std::vector<std::int64_t>> lane_free_step_;  // LaneFreeSteps
};

class ConstraintAwarePolicy final : public Policy {
 public:
  explicit ConstraintAwarePolicy(const Settings& settings) : settings_(settings) {}

  std::vector<Decision> Decide(const ClusterView& view, PlacementPlanner& planner) override {
    if (!layout_) {
      layout_.emplace(view);
      running_.emplace(*layout_, settings_.steps);
      t_.problem.lanes = layout_->lanes;
      t_.problem.shape = layout_->shape;
    }
    running_->Update(view, [&](const RunningJob& running) {
      return RoleOf(settings_, view.request(running.job), running.start);
    });
    queue_.Update(
        view, [&](JobIndex job) { return running_->Runs(job); }, BriefOf);
    LaneMask free_now = FreeLanes(view, *layout_);
    if (NothingToPlan(view, free_now)) {
      return DecideWithoutAPlan(view, planner);
    }
    Translator translator(view, settings_, *layout_, *running_, queue_, accepted_,
                          std::move(free_now));
    translator.Translate(changed_in_step_, t_);
    const Translation& t = t_;
    const Plan plan = MakePlan(view.now(), t.problem);
    std::vector<Decision> decisions = Resizes(view, t, plan);
    if (!decisions.empty()) {
      decisions.push_back(WakeAt{view.now() + 1});  // starts next, on the resized fleet
      return decisions;
    }
    StartPlanned(view, planner, t, plan, decisions);
    StartWithHelper(view, planner, t.helper_jobs, decisions);
    if (decisions.empty() && view.running().empty()) {
      StartWithHelper(view, planner, {view.queue().begin(), view.queue().end()}, decisions);
    }
    AddWakeUp(view, decisions);
    return decisions;
  }

 private:
  // Whether a plan could change nothing now: no lane is free, and no running service may be
  // resized at this instant (none is at a demand-step boundary). Then no planned job can start
  // at step 0 and no resize is due, so the call's decisions are the helper's alone — the same
  // as with a plan, at a fraction of the cost on a saturated fleet.
  bool NothingToPlan(const ClusterView& view, const LaneMask& free_now) const {
    if (view.running().empty() ||
        std::any_of(free_now.begin(), free_now.end(), [](std::uint64_t w) { return w != 0; })) {
      return false;
    }
    const std::vector<const RunningJob*> services = running_->Services();
    return std::none_of(services.begin(), services.end(), [&](const RunningJob* j) {
      return view.now() % view.request(j->job).demand->step == 0;
    });
  }

  // The call when NothingToPlan: the jobs the plan does not represent that do not take whole
  // GPUs (MIG, fractions, CPU-only) go to the helper in the plan's order, and the improvement
  // clock advances as a plan would have advanced it.
  std::vector<Decision> DecideWithoutAPlan(const ClusterView& view, PlacementPlanner& planner) {
    if (view.now() >= next_improvement_) {
      next_improvement_ =
          view.now() - view.now() % settings_.improve_period + settings_.improve_period;
    }
    std::vector<JobIndex> jobs;
    for (const QueueIndex::Entry& e : queue_.other()) {
      jobs.push_back(e.job);
    }
    std::vector<Decision> decisions;
    StartWithHelper(view, planner, jobs, decisions);
    AddWakeUp(view, decisions);
    return decisions;
  }

  // Full mode: the plan of the order the window model suggests (window_milp.h) replaces `plan`
  // if its objective is higher.
  void TryWindowMilp(const PlanProblem& problem, Plan& plan, PlanChoices& choices) const {
    const std::optional<PlanChoices> order = WindowMilpOrder(
        problem, plan, choices,
        {.window_steps = settings_.full_mode_steps, .max_nodes = settings_.full_mode_max_nodes});
    if (!order) {
      return;
    }
    Plan candidate = BuildPlan(problem, *order);
    if (candidate.objective > plan.objective + 1e-9 * std::abs(plan.objective)) {
      plan = std::move(candidate);
      choices = *order;
    }
  }

  // The plan (step 0 only between improvement calls), then backfilled (BackfillFirstStep).
  Plan MakePlan(SimTime now, const PlanProblem& problem) {
    PlanChoices choices = DefaultChoices(problem);
    Plan plan;
    if (now < next_improvement_) {
      plan = PlanFirstStep(problem, choices, settings_.protected_starts);
    } else {
      next_improvement_ = now - now % settings_.improve_period + settings_.improve_period;
      ImproveResult improved = ImprovePlan(problem, choices, settings_.improve_evaluations);
      plan = std::move(improved.plan);
      choices = std::move(improved.choices);
      if (settings_.full_mode_steps > 0) {
        TryWindowMilp(problem, plan, choices);
      }
    }
    BackfillFirstStep(problem, choices, settings_.protected_starts, plan);
    return plan;
  }

  Allocation AllocationOn(const ClusterView& view, const JobRequest& r,
                          const std::vector<std::uint32_t>& lanes,
                          const std::vector<GpuId>& gpu_of_lane) const {
    std::vector<GpuId> gpus;
    for (const std::uint32_t lane : lanes) {
      gpus.push_back(gpu_of_lane[lane]);
    }
    Allocation allocation = WholeGpus(gpus);
    const HostNeed need = HostNeedOf(r);
    if (need.any()) {
      allocation.nodes = SplitHostNeed(need, gpus, view.topology());
    }
    return allocation;
  }

  // Running services whose step-0 lanes differ from what they hold, in an order the engine can
  // apply one by one: a resize comes after the resizes that release the lanes it takes (the plan
  // may hand one service a lane another gives up in the same step). Resizes left waiting on each
  // other in a cycle are not made: those services keep what they hold until the next plan.
  std::vector<Decision> Resizes(const ClusterView& view, const Translation& t, const Plan& plan) {
    if (t.realtime_jobs.empty()) {
      return {};
    }
    std::vector<std::size_t> pending;
    std::vector<std::int64_t> holder(layout_->gpu_of_lane.size(), -1);  // lane -> pending service
    for (std::size_t k = 0; k < t.realtime_jobs.size(); ++k) {
      const PlanRealtimeJob& job = t.problem.realtime[k];
      if (!job.lanes.empty() && job.can_resize_now && plan.realtime[k][0] != job.lanes) {
        pending.push_back(k);
        for (const std::uint32_t lane : job.lanes) {
          holder[lane] = static_cast<std::int64_t>(k);
        }
      }
    }
    std::vector<Decision> decisions;
    for (bool progress = true; progress && !pending.empty();) {
      progress = false;
      for (auto it = pending.begin(); it != pending.end();) {
        const auto k = static_cast<std::int64_t>(*it);
        const std::vector<std::uint32_t>& lanes = plan.realtime[*it][0];
        if (std::any_of(lanes.begin(), lanes.end(), [&](std::uint32_t lane) {
              return holder[lane] >= 0 && holder[lane] != k;
            })) {
          ++it;
          continue;
        }
        for (const std::uint32_t lane : t.problem.realtime[*it].lanes) {
          holder[lane] = -1;
        }
        decisions.push_back(Resize(view, t, *it, lanes));
        it = pending.erase(it);
        progress = true;
      }
    }
    return decisions;
  }

  Decision Resize(const ClusterView& view, const Translation& t, std::size_t k,
                  const std::vector<std::uint32_t>& lanes) {
    const JobIndex index = t.realtime_jobs[k];
    const JobRequest& r = view.request(index);
    changed_in_step_[index] = r.demand->StepIndex(view.now());
    return ResizeJob{index, AllocationOn(view, r, lanes, layout_->gpu_of_lane)};
  }

  void Start(const ClusterView& view, PlacementPlanner& planner, JobIndex job,
             const std::vector<std::uint32_t>& lanes, std::vector<Decision>& decisions) {
    const JobRequest& r = view.request(job);
    Allocation allocation = AllocationOn(view, r, lanes, layout_->gpu_of_lane);
    if (!planner.Hold(allocation).ok()) {
      std::optional<Allocation> placed = planner.Place(r);
      if (!placed) {
        return;
      }
      allocation = std::move(*placed);
    }
    if (r.demand) {
      changed_in_step_[job] = r.demand->StepIndex(view.now());
    }
    decisions.push_back(StartJob{job, std::move(allocation)});
  }

  // Batch jobs and queued services the plan starts at step 0, in the plan's priority order.
  void StartPlanned(const ClusterView& view, PlacementPlanner& planner, const Translation& t,
                    const Plan& plan, std::vector<Decision>& decisions) {
    for (std::size_t k = 0; k < t.realtime_jobs.size(); ++k) {
      if (t.problem.realtime[k].lanes.empty() && !plan.realtime[k][0].empty()) {
        Start(view, planner, t.realtime_jobs[k], plan.realtime[k][0], decisions);
      }
    }
    std::vector<std::size_t> starting;
    for (std::size_t j = 0; j < t.batch_jobs.size(); ++j) {
      if (plan.batch[j].start_step == 0) {
        starting.push_back(j);
      }
    }
    std::stable_sort(starting.begin(), starting.end(), [&](std::size_t a, std::size_t b) {
      return t.problem.batch[a].priority > t.problem.batch[b].priority;
    });
    for (const std::size_t j : starting) {
      Start(view, planner, t.batch_jobs[j], plan.batch[j].lanes, decisions);
    }
  }

  void StartWithHelper(const ClusterView& view, PlacementPlanner& planner,
                       const std::vector<JobIndex>& jobs, std::vector<Decision>& decisions) {
    for (const JobIndex job : jobs) {
      if (std::optional<Allocation> placement = planner.Place(view.request(job))) {
        decisions.push_back(StartJob{job, std::move(*placement)});
      }
    }
  }

  // While jobs wait or services run: at the next demand-step boundary of a running service, and
  // at the next improvement time.
  void AddWakeUp(const ClusterView& view, std::vector<Decision>& decisions) const {
    SimTime wake = kTimeNever;
    if (!view.queue().empty()) {
      wake = std::max(next_improvement_, view.now() + 1);
    }
    for (const RunningJob* running : running_->Services()) {
      const JobRequest& r = view.request(running->job);
      if (HoldsALane(running->placement)) {
        const SimDuration step = r.demand->step;
        wake = std::min(wake, view.now() - view.now() % step + step);
      }
    }
    if (wake != kTimeNever) {
      decisions.push_back(WakeAt{wake});
    }
  }

  bool HoldsALane(const Allocation& placement) const {
    return std::any_of(placement.gpus.begin(), placement.gpus.end(),
                       [&](const Grant& g) { return layout_->lane_of_gpu[g.gpu] >= 0; });
  }

  Settings settings_;
  std::optional<LaneLayout> layout_;    // the fleet's lanes, from the first call on
  std::optional<RunningWork> running_;  // the running work on them, kept up to date
  Translation t_;                       // this call's problem (the lanes set once)
  AcceptedLaneSets accepted_;
  QueueIndex queue_;  // the queued jobs, kept up to date
  SimTime next_improvement_ = 0;
  std::map<JobIndex, std::int64_t> changed_in_step_;  // service -> demand step of its last change
};

}  // namespace

PolicyInfo ConstraintAwarePolicyInfo() {
  return {
      .name = "constraint-aware",
      .summary =
          "Rolling-horizon plan over a timestep grid, legal by construction: real-time "
          "demand within the swap cap first, batch jobs by priority and width into the troughs; "
          "commits the current step.",
      .params =
          {{.name = "step_s",
            .type = ParamType::kInt,
            .default_value = std::int64_t{3600},
            .min = 60,
            .max = 86400,
            .doc = "Length of one plan step, in seconds; steps are aligned to time 0."},
           {.name = "horizon_steps",
            .type = ParamType::kInt,
            .default_value = std::int64_t{24},
            .min = 1,
            .max = 1000,
            .doc = "Steps planned ahead (24 one-hour steps: one day, as in the source post)."},
           {.name = "decay",
            .type = ParamType::kReal,
            .default_value = 0.95,
            .min = 0.5,
            .max = 1,
            .doc = "Weight of a batch GPU-step t steps ahead is decay^t: earlier work is worth "
                   "more, since new jobs will have arrived by the next re-plan."},
           {.name = "realtime_penalty",
            .type = ParamType::kReal,
            .default_value = 8.0,
            .min = 1,
            .max = 100,
            .doc = "Cost of one unmet real-time GPU-step, in equal-priority batch GPU-steps "
                   "(the post: 5 to 10)."},
           {.name = "improve_period_s",
            .type = ParamType::kInt,
            .default_value = std::int64_t{1800},
            .min = 1,
            .max = 86400,
            .doc = "The improvement phase (local search) runs at most once per this many "
                   "seconds; other calls use the fast heuristic alone."},
           {.name = "improve_evaluations",
            .type = ParamType::kInt,
            .default_value = std::int64_t{24},
            .min = 1,
            .max = 100000,
            .doc = "Plans the improvement phase may build (its budget; deterministic)."},
           {.name = "default_runtime_s",
            .type = ParamType::kInt,
            .default_value = std::int64_t{3600},
            .min = 1,
            .max = 31536000,
            .doc = "Run time assumed for a job without a walltime estimate, in seconds."},
           {.name = "max_planned_jobs",
            .type = ParamType::kInt,
            .default_value = std::int64_t{64},
            .min = 1,
            .max = 1000000,
            .doc = "Queued whole-GPU jobs planned per call, highest priority first (then "
                   "queue order); the rest wait for a later plan (Slurm's bf_max_job_test "
                   "plays this role for backfill). Bounds the cost of a call on long queues."},
           {.name = "spot_risk_limit",
            .type = ParamType::kReal,
            .default_value = 0.5,
            .min = 0,
            .max = 1,
            .doc = "A job without checkpoints is kept off a spot pool when the pool's "
                   "advertised reclaim rate (its declared rate or advisor bucket, plus waves) "
                   "makes a reclaim during its estimated run likelier than this "
                   "and other accepted capacity is expected to finish it sooner (its wait for "
                   "that capacity plus its run, against the expected time to finish on spot, "
                   "restarting after each reclaim); such a job also takes free non-spot GPUs "
                   "first. 1 turns both off."},
           {.name = "width_exponent",
            .type = ParamType::kReal,
            .default_value = 0.5,
            .min = 0,
            .max = 2,
            .doc = "The plan ranks queued jobs with an estimate by priority x "
                   "GPUs^width_exponent, highest first (a job without an estimate ranks as "
                   "a 1-GPU job would), so that a wide job is not passed by narrower ones of "
                   "a priority only a little higher, whose leftover GPUs may stay idle. 0 "
                   "ranks by priority alone."},
           {.name = "reserve_after_s",
            .type = ParamType::kInt,
            .default_value = std::int64_t{21600},
            .min = 0,
            .max = 31536000,
            .doc = "The guarantee against starvation: the queued whole-GPU job that has "
                   "waited longest, once its wait reaches this many seconds, gets a "
                   "reservation (as backfill's): it is planned before every job of its "
                   "priority or lower that takes no more GPUs than it does, at the earliest "
                   "step it fits, and none of them may delay it. 0 reserves for the "
                   "longest-waiting job at every call."},
           {.name = "reserve_wider_after_s",
            .type = ParamType::kInt,
            .default_value = std::int64_t{86400},
            .min = 0,
            .max = 31536000,
            .doc = "Once the reserved job's wait reaches this many seconds, its reservation "
                   "holds against wider jobs of its priority or lower too; only higher "
                   "priorities go first."},
           {.name = "protected_starts",
            .type = ParamType::kInt,
            .default_value = std::int64_t{1},
            .min = 0,
            .max = 1000000,
            .doc = "Backfill on the plan: a job the plan starts later, or not at all, "
                   "starts now if it fits around the planned starts it may not delay — "
                   "those of the first protected_starts jobs the plan starts later, of the "
                   "reserved job and of every higher priority — and delays no job ranked "
                   "above it, or delays one and the plan's objective does not fall. 1 is "
                   "EASY backfill's rule "
                   "(only the first waiting job's start is held against its equals); "
                   "1000000 holds every planned start (conservative)."},
           {.name = "full_mode_steps",
            .type = ParamType::kInt,
            .default_value = std::int64_t{0},
            .min = 0,
            .max = 1000,
            .doc = "Full mode: at each improvement call, a MILP of this many steps ahead "
                   "(GPU counts per step, solved with CBC) suggests an order for the list "
                   "scheduler, whose plan is kept if its objective is higher. 0: off."},
           {.name = "full_mode_max_nodes",
            .type = ParamType::kInt,
            .default_value = std::int64_t{200},
            .min = 1,
            .max = 1000000,
            .doc = "Branch-and-bound nodes full mode's solver may explore per call (its "
                   "budget; deterministic, unlike a time limit)."}},
      .make = [](const PolicyParams& params) {
        const Settings settings{
            .step = IntParam(params, "step_s") * kMillisPerSecond,
            .steps = IntParam(params, "horizon_steps"),
            .decay = RealParam(params, "decay"),
            .realtime_penalty = RealParam(params, "realtime_penalty"),
            .improve_period = IntParam(params, "improve_period_s") * kMillisPerSecond,
            .improve_evaluations = IntParam(params, "improve_evaluations"),
            .default_runtime = IntParam(params, "default_runtime_s") * kMillisPerSecond,
            .max_planned_jobs = IntParam(params, "max_planned_jobs"),
            .spot_risk_limit = RealParam(params, "spot_risk_limit"),
            .width_exponent = RealParam(params, "width_exponent"),
            .reserve_after = IntParam(params, "reserve_after_s") * kMillisPerSecond,
            .reserve_wider_after = IntParam(params, "reserve_wider_after_s") * kMillisPerSecond,
            .protected_starts = IntParam(params, "protected_starts"),
            .full_mode_steps = IntParam(params, "full_mode_steps"),
            .full_mode_max_nodes = IntParam(params, "full_mode_max_nodes")};
        return std::make_unique<ConstraintAwarePolicy>(settings);
      }};
}

}  // namespace fleetsim
