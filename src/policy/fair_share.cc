// fair-share: Slurm's multifactor priority (age, fair-share with usage decaying by a half-life,
// job size, QOS) orders the queue; optionally KAI's hierarchical queues (quota, over-quota
// weight and priority, limit) divide the fleet and reclaim GPUs by preempting jobs of queues
// above their fair share. Tenants come from the scenario's "tenants" (view.organization()); a
// job's tenant that is not listed is a top-level tenant with the defaults. docs/policies.md
// describes every choice made where Slurm's and KAI's documents are silent.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <queue>
#include <set>
#include <string>
#include <variant>

#include "fleetsim/policy/policy.h"
#include "policy/builtin.h"
#include "policy/kai_fair_share.h"
#include "policy/multifactor_priority.h"
#include "policy/queue_groups.h"

namespace fleetsim {

namespace {

constexpr double kEpsilon = 1e-9;

struct FairShareSettings {
  PriorityWeights weights{};
  SimDuration max_age = 0;
  double decay_factor = 1;
  SimDuration calc_period = 0;
  bool favor_small = false;
  bool fair_tree = true;
  double dampening = 1;
  bool blocking = true;
  bool charge_at_end = true;
  bool kai_queues = false;
  double reclaimer_multiplier = 1;
};

// GPUs a placement holds: whole GPUs count 1, a MIG instance its compute slices / 7, a
// fractional share its milli-GPU / 1000.
double PlacementGpus(const Allocation& placement) {
  double gpus = 0;
  for (const Grant& grant : placement.gpus) {
    switch (grant.kind) {
      case Grant::Kind::kWhole:
        gpus += 1;
        break;
      case Grant::Kind::kMig:
        gpus += grant.profile->compute_slices / 7.0;
        break;
      case Grant::Kind::kFraction:
        gpus += grant.milli / 1000.0;
        break;
    }
  }
  return gpus;
}

// GPUs a queued job asks for: its minimum count, or its share of one GPU for a fractional job
// (a MIG job counts one GPU until it is placed).
double RequestGpus(const JobRequest& request) {
  if (request.sharing == GpuSharing::kFraction) {
    return static_cast<double>(request.gpu_milli) / 1000.0;
  }
  return static_cast<double>(request.gpus);
}

// The tenant tree both algorithms read: the organization's tenants in file order, then the
// tenants jobs name that it does not list (top level, defaults), then for every tenant with
// sub-tenants that jobs name, an implicit leaf below it that those jobs are charged to (Slurm
// and KAI take jobs at leaves only).
class TenantTree {
 public:
  explicit TenantTree(const Organization& organization) {
    for (const TenantSpec& tenant : organization) {
      Add(tenant, true);
    }
    for (std::size_t i = 0; i < specs_.size(); ++i) {
      if (!specs_[i].parent.empty()) {
        parent_[i] = index_.at(specs_[i].parent);
        has_children_[static_cast<std::size_t>(parent_[i])] = true;
      }
    }
  }

  // The node jobs of `tenant` are charged to, adding it if new.
  int LeafFor(const std::string& tenant) {
    if (const auto it = leaf_.find(tenant); it != leaf_.end()) {
      return it->second;
    }
    const auto it = index_.find(tenant);
    int leaf = 0;
    if (it == index_.end()) {
      leaf = Add({.name = tenant}, false);
    } else if (!has_children_[static_cast<std::size_t>(it->second)]) {
      leaf = it->second;
    } else {
      leaf = Add({.name = tenant + "/", .parent = tenant}, false);
      parent_[static_cast<std::size_t>(leaf)] = it->second;
    }
    leaf_.emplace(tenant, leaf);
    return leaf;
  }

  // The node jobs of a tenant already seen are charged to.
  int LeafOf(const std::string& tenant) const { return leaf_.at(tenant); }
  std::size_t size() const { return specs_.size(); }
  const TenantSpec& spec(int node) const { return specs_[static_cast<std::size_t>(node)]; }
  int parent(int node) const { return parent_[static_cast<std::size_t>(node)]; }
  bool listed(int node) const { return listed_[static_cast<std::size_t>(node)]; }

 private:
  int Add(TenantSpec spec, bool listed) {
    const int node = static_cast<int>(specs_.size());
    index_.emplace(spec.name, node);
    specs_.push_back(std::move(spec));
    parent_.push_back(-1);
    listed_.push_back(listed);
    has_children_.push_back(false);
    return node;
  }

  std::vector<TenantSpec> specs_;
  std::vector<int> parent_;
  std::vector<bool> listed_;
  std::vector<bool> has_children_;
  std::map<std::string, int> index_;
  std::map<std::string, int> leaf_;
};

// A job's use of the fleet, charged to its tenant's usage at each calc period.
struct Charge {
  int node = 0;
  double gpus = 0;
  SimTime start = 0;
  SimTime end = kTimeNever;  // kTimeNever while running
};

double Saturation(double held, double fair_share) {
  if (fair_share > kEpsilon) {
    return held / fair_share;
  }
  return held > kEpsilon ? std::numeric_limits<double>::infinity() : 0.0;
}

double KaiGpus(std::int64_t gpus) {
  return gpus == kUnlimitedGpus ? kKaiUnlimited : static_cast<double>(gpus);
}

// One KAI scheduling cycle over the tenant tree: what each queue holds and waits for, the fair
// shares, then the starts and at most one reclaim.
class KaiCycle {
 public:
  KaiCycle(const TenantTree& tree, double reclaimer_multiplier)
      : tree_(tree),
        multiplier_(reclaimer_multiplier),
        queues_(tree.size()),
        own_held_(tree.size(), 0.0),
        held_(tree.size(), 0.0),
        waiting_(tree.size()) {
    for (std::size_t i = 0; i < tree.size(); ++i) {
      const TenantSpec& spec = tree.spec(static_cast<int>(i));
      queues_[i] = {.parent = tree.parent(static_cast<int>(i)),
                    .quota = KaiGpus(spec.quota_gpus),
                    .over_quota_weight = spec.over_quota_weight,
                    .limit = KaiGpus(spec.limit_gpus),
                    .priority = spec.priority,
                    .requested = 0};
    }
  }

  // `reclaimable`: preempting it would free GPUs others can use (it is not leaving a node
  // announced for reclaim, and it holds nothing on a node that is out).
  void AddRunning(JobIndex job, const Charge& charge, const JobRequest& request, bool reclaimable) {
    Hold(charge.node, charge.gpus);
    Queue(charge.node).requested += charge.gpus;
    if (request.preemptible && reclaimable) {
      candidates_.push_back({.job = job,
                             .queue = charge.node,
                             .gpus = charge.gpus,
                             .priority = request.priority,
                             .start = charge.start});
    }
  }

  // Queued jobs must be added in priority order.
  void AddQueued(JobIndex job, const JobRequest& request) {
    const int leaf = tree_.LeafOf(request.tenant);
    Queue(leaf).requested += RequestGpus(request);
    waiting_[static_cast<std::size_t>(leaf)].push_back(job);
  }

  void DivideFleet(double gpus) { fair_ = KaiFairShares(queues_, gpus); }

  // Starts what can start; returns the jobs that could not be placed, in the order tried.
  std::vector<JobIndex> Schedule(const ClusterView& view, PlacementPlanner& planner,
                                 std::vector<Decision>& decisions) {
    using Entry = std::pair<double, int>;  // (saturation, queue): least saturated first
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> ready;
    std::vector<std::size_t> next(waiting_.size(), 0);
    for (std::size_t i = 0; i < waiting_.size(); ++i) {
      if (!waiting_[i].empty()) {
        ready.emplace(SaturationOf(static_cast<int>(i)), static_cast<int>(i));
      }
    }
    std::vector<JobIndex> unplaced;
    while (!ready.empty()) {
      const int node = ready.top().second;
      ready.pop();
      const auto n = static_cast<std::size_t>(node);
      TryStart(view, planner, node, waiting_[n][next[n]++], unplaced, decisions);
      if (next[n] < waiting_[n].size()) {
        ready.emplace(SaturationOf(node), node);
      }
    }
    return unplaced;
  }

  // Preempts jobs of queues above their fair share so that the starved job can start, if its
  // queue is within its fair share (or quota) after it and KAI's rules allow a set of victims.
  // Returns whether it preempted any.
  bool Reclaim(const ClusterView& view, JobIndex job, std::vector<Decision>& decisions) const {
    const JobRequest& request = view.request(job);
    const int node = tree_.LeafOf(request.tenant);
    const auto n = static_cast<std::size_t>(node);
    const double gpus = RequestGpus(request);
    const double quota = queues_[n].quota == kKaiUnlimited ? 0.0 : queues_[n].quota;
    if (held_[n] + gpus > std::max(fair_[n], quota) + kEpsilon) {
      return false;
    }
    const double missing = gpus - static_cast<double>(view.FreeWholeGpus());
    if (missing <= kEpsilon) {
      return false;  // GPUs are free but do not suit the job: preempting would not help
    }
    const std::vector<JobIndex> victims = ChooseReclaimVictims(
        queues_, fair_, own_held_, candidates_,
        {.queue = node, .gpus = missing, .utilization_multiplier = multiplier_});
    for (const JobIndex victim : victims) {
      decisions.push_back(PreemptJob{
          victim, fmt::format("reclaimed for job '{}' of tenant '{}' (KAI fair-share reclaim)",
                              request.id, request.tenant)});
    }
    return !victims.empty();
  }

 private:
  KaiQueue& Queue(int node) { return queues_[static_cast<std::size_t>(node)]; }
  double SaturationOf(int node) const {
    return Saturation(held_[static_cast<std::size_t>(node)], fair_[static_cast<std::size_t>(node)]);
  }

  void Hold(int node, double gpus) {
    own_held_[static_cast<std::size_t>(node)] += gpus;
    for (int q = node; q >= 0; q = tree_.parent(q)) {
      held_[static_cast<std::size_t>(q)] += gpus;
    }
  }

  void TryStart(const ClusterView& view, PlacementPlanner& planner, int node, JobIndex job,
                std::vector<JobIndex>& unplaced, std::vector<Decision>& decisions) {
    const JobRequest& request = view.request(job);
    const double gpus = RequestGpus(request);
    if (std::string why = NeverFits(node, request, gpus); !why.empty()) {
      decisions.push_back(RejectJob{job, std::move(why)});
      return;
    }
    const double room = Room(node, request.preemptible);
    if (gpus > room + kEpsilon) {
      return;  // waits for its tenant to hold less
    }
    std::optional<Allocation> placement = planner.Place(WithinRoom(request, room));
    if (!placement) {
      unplaced.push_back(job);
      return;
    }
    Hold(node, PlacementGpus(*placement));
    decisions.push_back(StartJob{job, std::move(*placement)});
  }

  // Why a tenant's limit (or, for a non-preemptible job, its quota) can never let the job run.
  std::string NeverFits(int node, const JobRequest& request, double gpus) const {
    for (int q = node; q >= 0; q = tree_.parent(q)) {
      const TenantSpec& spec = tree_.spec(q);
      if (spec.limit_gpus != kUnlimitedGpus && gpus > static_cast<double>(spec.limit_gpus)) {
        return fmt::format("needs {} GPUs but tenant '{}' may hold at most {} (limit_gpus)", gpus,
                           spec.name, spec.limit_gpus);
      }
      if (!request.preemptible && tree_.listed(q) && spec.quota_gpus != kUnlimitedGpus &&
          gpus > static_cast<double>(spec.quota_gpus)) {
        return fmt::format(
            "is not preemptible and needs {} GPUs but tenant '{}' has a quota of {} (KAI: "
            "non-preemptible jobs use in-quota GPUs only)",
            gpus, spec.name, spec.quota_gpus);
      }
    }
    return "";
  }

  // GPUs the job may take now: what every limit on its path (and, if it is not preemptible,
  // every listed quota) leaves.
  double Room(int node, bool preemptible) const {
    double room = std::numeric_limits<double>::infinity();
    for (int q = node; q >= 0; q = tree_.parent(q)) {
      const TenantSpec& spec = tree_.spec(q);
      const double held = held_[static_cast<std::size_t>(q)];
      if (spec.limit_gpus != kUnlimitedGpus) {
        room = std::min(room, static_cast<double>(spec.limit_gpus) - held);
      }
      if (!preemptible && tree_.listed(q) && spec.quota_gpus != kUnlimitedGpus) {
        room = std::min(room, static_cast<double>(spec.quota_gpus) - held);
      }
    }
    return room;
  }

  // A size-range job asks for no more than `room` GPUs.
  static JobRequest WithinRoom(const JobRequest& request, double room) {
    JobRequest capped = request;
    if (request.IsElastic() && std::isfinite(room)) {
      const auto most = static_cast<std::int64_t>(std::floor(room + kEpsilon));
      capped.max_gpus = std::clamp(most, request.gpus, request.MaxGpus());
    }
    return capped;
  }

  const TenantTree& tree_;
  double multiplier_;
  std::vector<KaiQueue> queues_;
  std::vector<double> own_held_;  // per queue, by its own jobs
  std::vector<double> held_;      // per queue, by its subtree
  std::vector<std::vector<JobIndex>> waiting_;
  std::vector<ReclaimCandidate> candidates_;
  std::vector<double> fair_;
};

class FairSharePolicy final : public Policy {
 public:
  explicit FairSharePolicy(const FairShareSettings& settings) : settings_(settings) {}

  std::vector<Decision> Decide(const ClusterView& view, PlacementPlanner& planner) override {
    if (!tree_) {
      Begin(view);
    }
    Observe(view);
    CatchUpUsage(view.now());
    std::vector<Decision> decisions;
    if (settings_.kai_queues) {
      KaiSchedule(view, planner, PriorityOrder(view), decisions);
    } else {
      SlurmSchedule(view, planner, decisions);
    }
    ChargeStarts(view, decisions);
    const auto resolved = std::count_if(decisions.begin(), decisions.end(), [](const Decision& d) {
      return std::holds_alternative<StartJob>(d) || std::holds_alternative<RejectJob>(d);
    });
    if (static_cast<std::size_t>(resolved) < view.queue().size()) {
      decisions.push_back(WakeAt{last_calc_ + settings_.calc_period});  // priorities change then
    }
    return decisions;
  }

 private:
  void Begin(const ClusterView& view) {
    tree_.emplace(view.organization());
    const Topology& topology = view.topology();
    std::map<std::uint32_t, std::int64_t> per_node;
    for (GpuId gpu = 0; gpu < static_cast<GpuId>(topology.gpus()); ++gpu) {
      gpus_per_node_ = std::max(gpus_per_node_, ++per_node[topology.NodeOf(gpu)]);
    }
    cluster_gpus_ = static_cast<double>(std::max<std::int64_t>(1, topology.gpus()));
    cluster_nodes_ = std::max<std::int64_t>(1, topology.nodes());
  }

  // Registers new jobs' tenants and priorities, and starts and ends of charges.
  void Observe(const ClusterView& view) {
    for (const JobIndex job : view.changes().submitted) {
      const JobRequest& request = view.request(job);
      tree_->LeafFor(request.tenant);
      max_priority_ = std::max(max_priority_, request.priority);
    }
    for (const RunningJob& running : view.running()) {
      if (!charges_.contains(running.job)) {
        charges_.emplace(running.job,
                         Charge{.node = tree_->LeafFor(view.request(running.job).tenant),
                                .gpus = PlacementGpus(running.placement),
                                .start = running.start});
      }
    }
    // Charged up to its end at the next calc period; without charge_at_end only up to the last
    // calc period boundary it ran through (which the policy may not have been called at: its
    // catch-up charges it next), as Slurm without AccountingStorageEnforce=limits.
    const auto stop = [&](JobIndex job) {
      if (const auto it = charges_.find(job); it != charges_.end()) {
        it->second.end = settings_.charge_at_end ? view.now() : LastBoundary(view.now());
        ended_.push_back(it->second);
        charges_.erase(it);
      }
    };
    std::for_each(view.changes().finished.begin(), view.changes().finished.end(), stop);
    std::for_each(view.changes().preempted.begin(), view.changes().preempted.end(), stop);
    usage_.resize(tree_->size(), 0.0);
  }

  // Charges start with the jobs this call starts: a job may end before the policy is called
  // again, and would otherwise never be seen running (found by review: such jobs cost nothing).
  void ChargeStarts(const ClusterView& view, const std::vector<Decision>& decisions) {
    for (const Decision& decision : decisions) {
      if (const auto* start = std::get_if<StartJob>(&decision)) {
        charges_.emplace(start->job, Charge{.node = tree_->LeafFor(view.request(start->job).tenant),
                                            .gpus = PlacementGpus(start->placement),
                                            .start = view.now()});
      }
    }
  }

  // Runs every calc period that has ended by `now`: decay, then charge what ran in it.
  void CatchUpUsage(SimTime now) {
    const SimDuration period = settings_.calc_period;
    if (charges_.empty() && ended_.empty() && now - last_calc_ >= period) {
      const SimDuration periods = (now - last_calc_) / period;
      for (double& usage : usage_) {
        usage = DecayUsage(usage, settings_.decay_factor, TimeToSeconds(periods * period));
      }
      last_calc_ += periods * period;
    }
    while (now - last_calc_ >= period) {
      const SimTime from = last_calc_;
      const SimTime to = last_calc_ + period;
      for (double& usage : usage_) {
        usage = DecayUsage(usage, settings_.decay_factor, TimeToSeconds(period));
      }
      for (const auto& [job, charge] : charges_) {
        ChargeWithin(charge, from, to);
      }
      for (const Charge& charge : ended_) {
        ChargeWithin(charge, from, to);
      }
      std::erase_if(ended_, [to](const Charge& charge) { return charge.end <= to; });
      last_calc_ = to;
    }
  }

  // The latest calc period boundary at or before `t`.
  SimTime LastBoundary(SimTime t) const {
    return last_calc_ + (t - last_calc_) / settings_.calc_period * settings_.calc_period;
  }

  // Charges what the job ran within [from, to), decayed over its own span as Slurm's
  // _apply_new_usage does (run_delta * decay_factor^run_delta).
  void ChargeWithin(const Charge& charge, SimTime from, SimTime to) {
    const SimTime begin = std::max(from, charge.start);
    const SimTime end = std::min(to, charge.end);
    if (end > begin) {
      const double seconds = TimeToSeconds(end - begin);
      usage_[static_cast<std::size_t>(charge.node)] +=
          charge.gpus * DecayUsage(seconds, settings_.decay_factor, seconds);
    }
  }

  std::vector<double> FairShareFactors() const {
    std::vector<ShareNode> nodes(tree_->size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const int node = static_cast<int>(i);
      nodes[i] = {
          .parent = tree_->parent(node), .shares = tree_->spec(node).shares, .usage = usage_[i]};
    }
    return settings_.fair_tree ? FairTreeFairShare(nodes)
                               : ClassicFairShare(nodes, settings_.dampening);
  }

  // A job's Slurm priority (the truncated integer) at `now`, given the tenants' fair-share factors.
  std::uint32_t PriorityOf(const ClusterView& view, const std::vector<double>& fairshare,
                           JobIndex job) const {
    const JobRequest& request = view.request(job);
    const PriorityFactors factors{
        .age = AgeFactor(view.now() - request.submit, settings_.max_age),
        .fairshare = fairshare[static_cast<std::size_t>(tree_->LeafOf(request.tenant))],
        .job_size = JobSizeFactor(SizeOf(request), settings_.favor_small),
        .qos = QosFactor(request.priority, max_priority_)};
    return SlurmPriority(WeightedPriority(settings_.weights, factors));
  }

  // The queue in Slurm's order: priority (the truncated integer), then submit time, then job.
  std::vector<JobIndex> PriorityOrder(const ClusterView& view) const {
    const std::vector<double> fairshare = FairShareFactors();
    std::vector<std::pair<std::uint32_t, JobIndex>> keyed;
    keyed.reserve(view.queue().size());
    for (const JobIndex job : view.queue()) {
      keyed.emplace_back(PriorityOf(view, fairshare, job), job);
    }
    std::stable_sort(keyed.begin(), keyed.end(), [&](const auto& a, const auto& b) {
      if (a.first != b.first) {
        return a.first > b.first;
      }
      const SimTime sa = view.request(a.second).submit;
      const SimTime sb = view.request(b.second).submit;
      return sa != sb ? sa < sb : a.second < b.second;
    });
    std::vector<JobIndex> order;
    order.reserve(keyed.size());
    for (const auto& [priority, job] : keyed) {
      order.push_back(job);
    }
    return order;
  }

  // Everything PriorityOf reads but the submit time, then the placement shape: within a group
  // priority never rises along queue order, and a job that cannot be placed means no later one
  // of its group can be in this call (queue_groups.h).
  static std::string GroupKey(const JobRequest& request) {
    return fmt::format("{}|{}|{}|{}|{}|{}#{}", request.priority,
                       request.sharing == GpuSharing::kFraction, request.gpu_milli,
                       request.MaxGpus(), request.gpus, request.tenant, PlacementShapeKey(request));
  }

  JobSizeInput SizeOf(const JobRequest& request) const {
    const double gpus = request.sharing == GpuSharing::kFraction
                            ? static_cast<double>(request.gpu_milli) / 1000.0
                            : static_cast<double>(request.MaxGpus());
    const std::int64_t min_nodes =
        request.gpus <= 1 ? 1 : (request.gpus + gpus_per_node_ - 1) / gpus_per_node_;
    return {.job_gpus = gpus,
            .min_nodes = std::min(min_nodes, cluster_nodes_),
            .cluster_gpus = cluster_gpus_,
            .cluster_nodes = cluster_nodes_};
  }

  // Slurm's main scheduler: priority order; with `blocking`, stop at the first job that
  // cannot start. The order is the queue groups' heads merged by priority, as far as the scan
  // goes (PriorityOrder's order, not computed for the whole queue).
  void SlurmSchedule(const ClusterView& view, PlacementPlanner& planner,
                     std::vector<Decision>& decisions) {
    const std::vector<double> fairshare = FairShareFactors();
    queue_.Update(view);
    queue_.MergedScan(
        [&](JobIndex job) {
          return std::pair<std::int64_t, std::int64_t>{
              -std::int64_t{PriorityOf(view, fairshare, job)}, view.request(job).submit};
        },
        [&](JobIndex job) {
          if (std::optional<Allocation> placement = planner.Place(view.request(job))) {
            decisions.push_back(StartJob{job, std::move(*placement)});
            return QueueGroups::Visit::kStarted;
          }
          return settings_.blocking ? QueueGroups::Visit::kStop : QueueGroups::Visit::kSkipGroup;
        });
  }

  void KaiSchedule(const ClusterView& view, PlacementPlanner& planner,
                   const std::vector<JobIndex>& order, std::vector<Decision>& decisions);

  FairShareSettings settings_;
  std::optional<TenantTree> tree_;
  std::vector<double> usage_;  // per tree node, its own decayed GPU-seconds
  std::map<JobIndex, Charge> charges_;
  std::vector<Charge> ended_;  // ended since the last calc period, not yet fully charged
  SimTime last_calc_ = 0;
  std::int64_t max_priority_ = 1;
  SimTime last_reclaim_at_ = -1;
  std::optional<JobIndex> reclaimed_for_;  // the job the previous call reclaimed for
  std::set<JobIndex> reclaim_failed_;
  std::int64_t gpus_per_node_ = 1;
  double cluster_gpus_ = 1;
  std::int64_t cluster_nodes_ = 1;
  QueueGroups queue_{GroupKey};  // Slurm mode's queue (KAI mode sorts the whole queue)
};

// Running jobs whose preemption frees nothing usable: those taking an emergency checkpoint and
// those holding anything on a node announced for reclaim or down.
std::set<JobIndex> OutOfReach(const ClusterView& view) {
  std::set<JobIndex> jobs;
  for (const RunningJob& running : view.running()) {
    const bool on_out_node =
        std::any_of(running.placement.gpus.begin(), running.placement.gpus.end(),
                    [&](const Grant& g) { return !view.IsGpuUp(g.gpu); }) ||
        std::any_of(running.placement.nodes.begin(), running.placement.nodes.end(),
                    [&](const NodeShare& share) { return !view.IsUp(share.node); });
    if (running.leaving || on_out_node) {
      jobs.insert(running.job);
    }
  }
  return jobs;
}

// KAI's cycle: fair shares for the tree, then jobs started queue by queue, the least saturated
// queue (allocated / fair share) first, each queue's jobs in priority order, within limits (and
// within quota for non-preemptible jobs of listed tenants); then one reclaim for the first job
// that could not be placed.
void FairSharePolicy::KaiSchedule(const ClusterView& view, PlacementPlanner& planner,
                                  const std::vector<JobIndex>& order,
                                  std::vector<Decision>& decisions) {
  KaiCycle cycle(*tree_, settings_.reclaimer_multiplier);
  const std::set<JobIndex> out_of_reach = OutOfReach(view);
  for (const auto& [job, charge] : charges_) {
    cycle.AddRunning(job, charge, view.request(job), out_of_reach.count(job) == 0);
  }
  for (const JobIndex job : order) {
    cycle.AddQueued(job, view.request(job));
  }
  cycle.DivideFleet(cluster_gpus_);
  const std::vector<JobIndex> unplaced = cycle.Schedule(view, planner, decisions);
  // A job that still cannot be placed right after a reclaim for it (the GPUs freed did not suit
  // it) is never reclaimed for again; and at most one reclaim happens per instant. Both keep
  // preemptions from repeating without progress.
  if (reclaimed_for_ &&
      std::find(unplaced.begin(), unplaced.end(), *reclaimed_for_) != unplaced.end()) {
    reclaim_failed_.insert(*reclaimed_for_);
  }
  reclaimed_for_.reset();
  if (view.now() == last_reclaim_at_) {
    return;
  }
  for (const JobIndex job : unplaced) {
    if (reclaim_failed_.contains(job)) {
      continue;
    }
    if (cycle.Reclaim(view, job, decisions)) {
      last_reclaim_at_ = view.now();
      reclaimed_for_ = job;
    }
    return;  // one candidate per call: the first the cycle could not place
  }
}

FairShareSettings SettingsFrom(const PolicyParams& params) {
  return {.weights = {.age = static_cast<double>(IntParam(params, "weight_age")),
                      .fairshare = static_cast<double>(IntParam(params, "weight_fairshare")),
                      .job_size = static_cast<double>(IntParam(params, "weight_job_size")),
                      .qos = static_cast<double>(IntParam(params, "weight_qos"))},
          .max_age = SecondsToTime(RealParam(params, "max_age_s")),
          .decay_factor = DecayFactor(RealParam(params, "decay_half_life_s")),
          .calc_period = SecondsToTime(RealParam(params, "calc_period_s")),
          .favor_small = BoolParam(params, "favor_small"),
          .fair_tree = ChoiceParam(params, "fairshare_algorithm") == "fair-tree",
          .dampening = RealParam(params, "dampening"),
          .blocking = BoolParam(params, "blocking"),
          .charge_at_end = BoolParam(params, "charge_at_end"),
          .kai_queues = ChoiceParam(params, "queues") == "kai",
          .reclaimer_multiplier = RealParam(params, "reclaimer_utilization_multiplier")};
}

ParamSpec Weight(const std::string& name, std::int64_t value, const std::string& doc) {
  return {.name = name,
          .type = ParamType::kInt,
          .default_value = value,
          .min = 0,
          .max = 4294967295.0,
          .doc = doc};
}

ParamSpec Seconds(const std::string& name, double value, double min, double max,
                  const std::string& doc) {
  return {.name = name,
          .type = ParamType::kReal,
          .default_value = value,
          .min = min,
          .max = max,
          .doc = doc};
}

}  // namespace

PolicyInfo FairSharePolicyInfo() {
  constexpr double kWeek = 7 * 24 * 3600.0;
  return {
      .name = "fair-share",
      .summary =
          "Slurm's multifactor priority (age, fair-share with decaying usage, job size, "
          "QOS) orders the queue; optional KAI queues with quota, over-quota weight, "
          "limit and reclaim by preemption.",
      .params =
          {Weight("weight_age", 1000, "PriorityWeightAge: weight of the age factor."),
           Weight("weight_fairshare", 10000,
                  "PriorityWeightFairshare: weight of the fair-share factor."),
           Weight("weight_job_size", 1000, "PriorityWeightJobSize: weight of the job-size factor."),
           Weight("weight_qos", 1000,
                  "PriorityWeightQOS: weight of the QOS factor (job priority / the largest "
                  "submitted so far)."),
           Seconds("max_age_s", kWeek, 1, 1e9,
                   "PriorityMaxAge: queued time at which the age factor reaches 1."),
           Seconds("decay_half_life_s", kWeek, 1, 1e9,
                   "PriorityDecayHalfLife: usage halves after this long."),
           Seconds("calc_period_s", 300, 1, 86400,
                   "PriorityCalcPeriod: usage is decayed and charged, and the policy called, "
                   "this often while jobs wait."),
           {.name = "favor_small",
            .type = ParamType::kBool,
            .default_value = false,
            .doc = "PriorityFavorSmall: the job-size factor favors small jobs instead of large."},
           {.name = "fairshare_algorithm",
            .type = ParamType::kChoice,
            .default_value = std::string("fair-tree"),
            .choices = {"fair-tree", "classic"},
            .doc = "Fair Tree (Slurm's default) or the classic formula (PriorityFlags="
                   "NO_FAIR_TREE)."},
           {.name = "dampening",
            .type = ParamType::kReal,
            .default_value = 1.0,
            .min = 1,
            .max = 1e6,
            .doc = "FairShareDampeningFactor d of the classic formula 2^(-U/S/d)."},
           {.name = "blocking",
            .type = ParamType::kBool,
            .default_value = true,
            .doc = "Stop at the first job (in priority order) that cannot start, as Slurm's main "
                   "scheduler does; false tries every job. Without KAI queues only."},
           {.name = "charge_at_end",
            .type = ParamType::kBool,
            .default_value = true,
            .doc = "A job's usage since the last calc period is charged when it ends, as Slurm "
                   "does with AccountingStorageEnforce=limits (or safe, all); false charges only "
                   "jobs running at a calc period, up to it, as Slurm does without limits."},
           {.name = "queues",
            .type = ParamType::kChoice,
            .default_value = std::string("off"),
            .choices = {"off", "kai"},
            .doc = "kai: KAI queues divide the fleet by quota, over-quota weight and limit, and "
                   "reclaim by preemption."},
           {.name = "reclaimer_utilization_multiplier",
            .type = ParamType::kReal,
            .default_value = 1.0,
            .min = 1,
            .max = 100,
            .doc = "KAI's reclaimerUtilizationMultiplier: larger makes reclaim more "
                   "conservative."}},
      .make = [](const PolicyParams& params) {
        return std::make_unique<FairSharePolicy>(SettingsFrom(params));
      }};
}

}  // namespace fleetsim
