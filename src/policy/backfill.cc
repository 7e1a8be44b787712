// backfill: Slurm-style backfill scheduling (sched/backfill) on walltime estimates, EASY or
// conservative. Each call is one pass over the queue in submission order (at most max_job_test
// jobs). A job that can start now without delaying any reservation made earlier in the pass
// starts (the shared placement helper places it); a whole-GPU job that cannot gets, in EASY mode
// if it is the first to get one, in conservative mode always, a reservation at the earliest time
// its GPUs are free for its estimated run, unless that time lies beyond the window. Reservations
// live on an AvailabilityProfile of free whole GPUs per pool, built lazily from the running jobs'
// estimated ends (start + walltime estimate, or the default; rounded up to the resolution; a job
// past its estimate is expected to end at the next resolution tick; GPUs of a node announced for
// reclaim or down come free no earlier than the node is expected back) and redone every call, as
// Slurm redoes its plan every backfill cycle. docs/policies.md#backfill states the model and what
// differs from Slurm.
#include <algorithm>
#include <map>

#include "fleetsim/core/check.h"
#include "fleetsim/ledger/placement_rules.h"
#include "fleetsim/policy/policy.h"
#include "policy/availability_profile.h"
#include "policy/builtin.h"

namespace fleetsim {

namespace {

struct BackfillSettings {
  bool conservative = false;         // a reservation for every job that cannot start
  SimDuration window = 0;            // reservations start before now + window
  SimDuration resolution = 0;        // end times are rounded up to multiples of it
  std::int64_t max_job_test = 0;     // queued jobs examined per call
  SimDuration default_walltime = 0;  // for jobs without a walltime estimate
  // 0: a job may end exactly when a reservation begins (half-open intervals); 1 tick: it may
  // not, as in Slurm, whose backfill.c counts a reservation beginning at a job's end
  // (begin_time <= end_time) as an overlap.
  SimDuration boundary = 0;
};

bool TakesWholeGpus(const JobRequest& request) {
  return !request.IsCpuOnly() && request.sharing == GpuSharing::kNone;
}

// Power-of-two blocks and NVLink-required jobs sit in one NVLink domain, hence in one pool.
bool NeedsOnePool(const JobRequest& request) {
  return request.pow2_block || request.nvlink == NvlinkLocality::kRequired;
}

// One call's pass over the queue.
class BackfillPass {
 public:
  BackfillPass(const ClusterView& view, PlacementPlanner& planner, const BackfillSettings& settings)
      : view_(view), planner_(planner), settings_(settings) {}

  std::vector<Decision> Run() {
    std::int64_t examined = 0;
    for (const JobIndex job : view_.queue()) {
      if (examined++ == settings_.max_job_test) {
        break;
      }
      Consider(job);
    }
    return std::move(decisions_);
  }

 private:
  void Consider(JobIndex job) {
    const JobRequest& request = view_.request(job);
    if (!TakesWholeGpus(request)) {
      TryStartShared(job, request);
      return;
    }
    const bool may_reserve = settings_.conservative || reservations_ == 0;
    const bool may_start = FreeNow(request) >= request.gpus;
    if (!may_start && !may_reserve) {
      return;  // the common case on a busy fleet, kept cheap
    }
    const GpuDemand demand = DemandOf(request);
    if (may_start && TryStartWhole(job, request, demand)) {
      return;
    }
    if (may_reserve) {
      Reserve(demand);
    }
  }

  // Starts the job if the helper places it and its GPUs, held until its estimated end, leave
  // every reservation its GPUs. A job with a size range the helper sizes too large for that is
  // tried once more at the largest size the reservations leave.
  bool TryStartWhole(JobIndex job, const JobRequest& request, const GpuDemand& demand) {
    if (!profile_) {  // no reservation yet: nothing to delay
      return StartIfPlaced(job, planner_.Place(request));
    }
    const SimTime end = EndFromNow(request);
    const SimTime tested_end = TestedEnd(request, end);
    std::optional<Allocation> placement = view_.ChoosePlacement(request);
    if (placement && !profile_->Fits(TakesOf(*placement), view_.now(), tested_end)) {
      placement = SmallerPlacement(request, demand, tested_end);
    }
    if (!placement || !planner_.Hold(*placement).ok()) {
      return false;
    }
    for (const PoolTake& take : TakesOf(*placement)) {
      profile_->Take(take.pool, view_.now(), end, take.count);
    }
    decisions_.push_back(StartJob{job, std::move(*placement)});
    return true;
  }

  std::optional<Allocation> SmallerPlacement(const JobRequest& request, const GpuDemand& demand,
                                             SimTime end) const {
    if (!request.IsElastic()) {
      return std::nullopt;
    }
    std::int64_t allowed = 0;
    for (const PoolIndex pool : demand.pools) {
      allowed += std::max<std::int64_t>(0, profile_->MinFree(pool, view_.now(), end));
    }
    if (allowed < request.gpus || allowed >= request.MaxGpus()) {
      return std::nullopt;
    }
    JobRequest capped = request;
    capped.max_gpus = allowed;
    std::optional<Allocation> placement = view_.ChoosePlacement(capped);
    if (!placement || !profile_->Fits(TakesOf(*placement), view_.now(), end)) {
      return std::nullopt;
    }
    return placement;
  }

  // MIG instances, fractional shares and CPU-only jobs: they never get reservations, and start
  // whenever placeable unless the GPU they land on would then come free whole later than a
  // reservation counts on.
  void TryStartShared(JobIndex job, const JobRequest& request) {
    if (!profile_) {
      StartIfPlaced(job, planner_.Place(request));
      return;
    }
    std::optional<Allocation> placement = view_.ChoosePlacement(request);
    if (!placement) {
      return;
    }
    const SimTime end = EndFromNow(request);
    const SimTime tested_end = TestedEnd(request, end);
    std::vector<std::pair<GpuId, SimTime>> extended;  // (GPU, when it would have come free)
    for (const Grant& grant : placement->gpus) {
      const SimTime free_from = WholeFreeFrom(grant.gpu);
      if (free_from < end) {
        if (profile_->MinFree(view_.PoolOfGpu(grant.gpu), free_from, tested_end) < 1) {
          return;
        }
        extended.emplace_back(grant.gpu, free_from);
      }
    }
    if (!planner_.Hold(*placement).ok()) {
      return;
    }
    for (const auto& [gpu, free_from] : extended) {
      profile_->Take(view_.PoolOfGpu(gpu), free_from, end, 1);
      shared_release_[gpu] = end;
    }
    decisions_.push_back(StartJob{job, std::move(*placement)});
  }

  // When the GPU is expected to be free to take whole: now, at its sharers' estimated end, or
  // never (static-MIG GPUs, whose instances never merge into a whole GPU).
  SimTime WholeFreeFrom(GpuId gpu) const {
    if (IsStaticMig(gpu)) {
      return kTimeNever;
    }
    if (view_.IsFreeWhole(gpu)) {
      return view_.now();
    }
    const auto it = shared_release_.find(gpu);
    return it == shared_release_.end() ? kTimeNever : it->second;
  }

  bool StartIfPlaced(JobIndex job, std::optional<Allocation> placement) {
    if (!placement) {
      return false;
    }
    decisions_.push_back(StartJob{job, std::move(*placement)});
    return true;
  }

  // Reserves the demand's GPUs from its earliest start, if that is within the window.
  void Reserve(const GpuDemand& demand) {
    AvailabilityProfile& profile = Profile();
    GpuDemand search = demand;  // the interval tested, past the one held by the boundary
    search.duration += settings_.boundary;
    const std::optional<SimTime> start = profile.EarliestStart(search);
    if (!start) {
      return;
    }
    const SimTime end = RoundUp(*start + demand.duration);
    const std::optional<std::vector<PoolTake>> split = profile.SplitAt(search, *start);
    FLEETSIM_CHECK(split.has_value(), "a demand does not fit where the profile placed it");
    for (const PoolTake& take : *split) {
      profile.Take(take.pool, *start, end, take.count);
    }
    ++reservations_;
  }

  // The profile as of now: GPUs free whole now, plus the estimated ends of the running jobs and of
  // the jobs this pass has started so far.
  AvailabilityProfile& Profile() {
    if (profile_) {
      return *profile_;
    }
    std::vector<GpuRelease> releases;
    for (const RunningJob& running : view_.running()) {
      AddReleases(running.placement, EstimatedEnd(running.start, view_.request(running.job)),
                  releases);
    }
    for (const Decision& decision : decisions_) {
      const StartJob& start = std::get<StartJob>(decision);
      AddReleases(start.placement, EndFromNow(view_.request(start.job)), releases);
    }
    for (const auto& [gpu, end] : shared_release_) {
      if (!IsStaticMig(gpu)) {
        releases.push_back({ReleaseTime(gpu, end), view_.PoolOfGpu(gpu), 1});
      }
    }
    AddNodesComingBack(releases);
    std::vector<std::int64_t> free_now(view_.pools().size());
    for (PoolIndex pool = 0; pool < free_now.size(); ++pool) {
      free_now[pool] = view_.FreeWholeIn(pool);
    }
    profile_.emplace(view_.now(), view_.now() + settings_.window, free_now, std::move(releases));
    return *profile_;
  }

  // Whole GPUs come free at the holder's end; a shared GPU at its last sharer's end (collected in
  // shared_release_ until every holder is seen).
  void AddReleases(const Allocation& placement, SimTime end, std::vector<GpuRelease>& releases) {
    for (const Grant& grant : placement.gpus) {
      if (grant.kind != Grant::Kind::kWhole) {
        SimTime& release = shared_release_.try_emplace(grant.gpu, end).first->second;
        release = std::max(release, end);
        continue;
      }
      const PoolIndex pool = view_.PoolOfGpu(grant.gpu);
      const SimTime free_at = ReleaseTime(grant.gpu, end);
      if (!releases.empty() && releases.back().time == free_at && releases.back().pool == pool) {
        ++releases.back().count;
      } else {
        releases.push_back({free_at, pool, 1});
      }
    }
  }

  // A GPU on a node announced for reclaim or down is free only once the node is expected back.
  SimTime ReleaseTime(GpuId gpu, SimTime end) const {
    const NodeId node = view_.topology().NodeOf(gpu);
    return view_.IsUp(node) ? end : std::max(end, view_.Node(node).back_at);
  }

  // The idle GPUs of nodes that are out come back with their node.
  void AddNodesComingBack(std::vector<GpuRelease>& releases) const {
    for (NodeId node = 0; node < view_.topology().nodes(); ++node) {
      if (view_.IsUp(node)) {
        continue;
      }
      const NodeNow now = view_.Node(node);
      for (GpuId gpu = now.first_gpu; gpu < now.end_gpu; ++gpu) {
        if (view_.Gpu(gpu).idle() && !IsStaticMig(gpu)) {
          releases.push_back({now.back_at, view_.PoolOfGpu(gpu), 1});
        }
      }
    }
  }

  std::vector<PoolTake> TakesOf(const Allocation& placement) const {
    std::vector<PoolTake> takes;
    for (const Grant& grant : placement.gpus) {
      const PoolIndex pool = view_.PoolOfGpu(grant.gpu);
      const auto it = std::find_if(takes.begin(), takes.end(),
                                   [pool](const PoolTake& take) { return take.pool == pool; });
      if (it == takes.end()) {
        takes.push_back({pool, 1});
      } else {
        ++it->count;
      }
    }
    return takes;
  }

  GpuDemand DemandOf(const JobRequest& request) const {
    GpuDemand demand{.gpus = request.gpus,
                     .duration = Walltime(request),
                     .pools = {},
                     .one_pool = NeedsOnePool(request)};
    for (PoolIndex pool = 0; pool < view_.pools().size(); ++pool) {
      if (view_.Accepts(request, pool)) {
        demand.pools.push_back(pool);
      }
    }
    return demand;
  }

  // GPUs of the request's pools free now: together, or the most in one pool.
  std::int64_t FreeNow(const JobRequest& request) const {
    const bool one_pool = NeedsOnePool(request);
    std::int64_t free = 0;
    for (PoolIndex pool = 0; pool < view_.pools().size(); ++pool) {
      if (view_.Accepts(request, pool)) {
        const std::int64_t in_pool = view_.FreeWholeIn(pool);
        free = one_pool ? std::max(free, in_pool) : free + in_pool;
      }
    }
    return free;
  }

  bool IsStaticMig(GpuId gpu) const {
    return view_.pools()[view_.PoolOfGpu(gpu)].mig == MigMode::kStatic;
  }

  SimDuration Walltime(const JobRequest& request) const {
    return request.walltime_estimate > 0 ? request.walltime_estimate : settings_.default_walltime;
  }

  SimTime RoundUp(SimTime t) const {
    return (t + settings_.resolution - 1) / settings_.resolution * settings_.resolution;
  }

  // A job started at `start` is expected to end at start + walltime, rounded up to the
  // resolution; one already past that at the next resolution tick after now.
  SimTime EstimatedEnd(SimTime start, const JobRequest& request) const {
    const SimTime end = RoundUp(start + Walltime(request));
    return end > view_.now() ? end
                             : (view_.now() / settings_.resolution + 1) * settings_.resolution;
  }
  SimTime EndFromNow(const JobRequest& request) const { return EstimatedEnd(view_.now(), request); }

  // The end of the interval a job starting now is tested over: its estimated end (`end`), or
  // with the slurm boundary one tick past its unrounded end when that is later (Slurm compares
  // the exact end with a reservation's start, begin_time <= end_time).
  SimTime TestedEnd(const JobRequest& request, SimTime end) const {
    return std::max(end, view_.now() + Walltime(request) + settings_.boundary);
  }

  const ClusterView& view_;
  PlacementPlanner& planner_;
  const BackfillSettings& settings_;
  std::vector<Decision> decisions_;             // StartJob only
  std::optional<AvailabilityProfile> profile_;  // built at the first reservation
  std::map<GpuId, SimTime> shared_release_;     // GPUs held in shares: when they come free whole
  std::int64_t reservations_ = 0;
};

class BackfillPolicy final : public Policy {
 public:
  explicit BackfillPolicy(const BackfillSettings& settings) : settings_(settings) {}

  std::vector<Decision> Decide(const ClusterView& view, PlacementPlanner& planner) override {
    return BackfillPass(view, planner, settings_).Run();
  }

 private:
  BackfillSettings settings_;
};

}  // namespace

PolicyInfo BackfillPolicyInfo() {
  return {
      .name = "backfill",
      .summary =
          "Slurm-style backfill on walltime estimates: queued jobs start early only if "
          "they delay no reservation; EASY reserves for the first blocked job, "
          "conservative for every one.",
      .params =
          {{.name = "mode",
            .type = ParamType::kChoice,
            .default_value = std::string("easy"),
            .choices = {"easy", "conservative"},
            .doc = "easy: only the first whole-GPU job that cannot start gets a reservation "
                   "(classic EASY; Slurm bf_job_part_count_reserve=1); conservative: every one "
                   "examined does (Slurm's default)."},
           {.name = "window_s",
            .type = ParamType::kInt,
            .default_value = std::int64_t{86400},
            .min = 60,
            .max = 2592000,
            .doc = "Seconds ahead that reservations may start (Slurm bf_window, in minutes "
                   "there); a job whose earliest start is later gets none."},
           {.name = "resolution_s",
            .type = ParamType::kInt,
            .default_value = std::int64_t{60},
            .min = 1,
            .max = 3600,
            .doc = "Granularity of the timeline: estimated end times are rounded up to multiples "
                   "of it (Slurm bf_resolution)."},
           {.name = "max_job_test",
            .type = ParamType::kInt,
            .default_value = std::int64_t{500},
            .min = 1,
            .max = 1000000,
            .doc = "Queued jobs examined per call, oldest first (Slurm bf_max_job_test)."},
           {.name = "default_walltime_s",
            .type = ParamType::kInt,
            .default_value = std::int64_t{3600},
            .min = 1,
            .max = 31536000,
            .doc = "Walltime assumed for a job without an estimate (Slurm: the partition's "
                   "DefaultTime)."},
           {.name = "reservation_boundary",
            .type = ParamType::kChoice,
            .default_value = std::string("half-open"),
            .choices = {"half-open", "slurm"},
            .doc = "half-open: a job may end exactly when a reservation on its GPUs begins; "
                   "slurm: it may not, as in Slurm's backfill.c, which counts a reservation "
                   "beginning at a job's expected end as an overlap (begin_time <= end_time)."}},
      .make = [](const PolicyParams& params) {
        return std::make_unique<BackfillPolicy>(BackfillSettings{
            .conservative = ChoiceParam(params, "mode") == "conservative",
            .window = SecondsToTime(static_cast<double>(IntParam(params, "window_s"))),
            .resolution = SecondsToTime(static_cast<double>(IntParam(params, "resolution_s"))),
            .max_job_test = IntParam(params, "max_job_test"),
            .default_walltime =
                SecondsToTime(static_cast<double>(IntParam(params, "default_walltime_s"))),
            .boundary = ChoiceParam(params, "reservation_boundary") == "slurm" ? 1 : 0});
      }};
}

}  // namespace fleetsim
