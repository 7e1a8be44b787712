// KAI Scheduler's fair-share division over a queue tree and its reclaim victim choice.
#include "policy/kai_fair_share.h"

#include <algorithm>
#include <limits>
#include <set>
#include <tuple>

#include "fleetsim/core/check.h"

namespace fleetsim {

namespace {

constexpr double kEpsilon = 1e-9;

int ParentSlot(const KaiQueue& queue, std::size_t queues) {
  return queue.parent < 0 ? static_cast<int>(queues) : queue.parent;
}

// Children of every queue, in index order; [queues.size()] holds the top-level queues.
std::vector<std::vector<int>> ChildrenOf(const std::vector<KaiQueue>& queues) {
  std::vector<std::vector<int>> children(queues.size() + 1);
  for (std::size_t i = 0; i < queues.size(); ++i) {
    const int parent = ParentSlot(queues[i], queues.size());
    FLEETSIM_CHECK(parent <= static_cast<int>(queues.size()), "a queue's parent is out of range");
    children[static_cast<std::size_t>(parent)].push_back(static_cast<int>(i));
  }
  return children;
}

// The queues from the top level down to `queue`.
std::vector<int> PathFromTop(const std::vector<KaiQueue>& queues, int queue) {
  std::vector<int> path;
  for (int q = queue; q >= 0; q = queues[static_cast<std::size_t>(q)].parent) {
    path.push_back(q);
  }
  std::reverse(path.begin(), path.end());
  return path;
}

double Deserved(const KaiQueue& queue, double requested) {
  return queue.quota == kKaiUnlimited ? requested : std::min(queue.quota, requested);
}

// Divides `amount` over `siblings`: deserved quotas first, then the rest by priority level and
// over-quota weight, each capped by its request.
void DivideAmongSiblings(const std::vector<KaiQueue>& queues, const std::vector<int>& siblings,
                         const std::vector<double>& requested, double amount,
                         std::vector<double>& share) {
  double deserved_total = 0;
  for (const int q : siblings) {
    deserved_total +=
        Deserved(queues[static_cast<std::size_t>(q)], requested[static_cast<std::size_t>(q)]);
  }
  const double scale = deserved_total > amount ? amount / deserved_total : 1.0;
  double remaining = amount;
  for (const int q : siblings) {
    const auto i = static_cast<std::size_t>(q);
    share[i] = Deserved(queues[i], requested[i]) * scale;
    remaining -= share[i];
  }
  std::set<std::int64_t, std::greater<>> levels;
  for (const int q : siblings) {
    levels.insert(queues[static_cast<std::size_t>(q)].priority);
  }
  for (const std::int64_t level : levels) {
    std::vector<int> active;
    for (const int q : siblings) {
      const auto i = static_cast<std::size_t>(q);
      if (queues[i].priority == level && queues[i].over_quota_weight > 0 &&
          share[i] < requested[i] - kEpsilon) {
        active.push_back(q);
      }
    }
    // Each round gives every active queue its weighted part of what is left, capped by its
    // remaining request; a round either places everything or fills at least one queue.
    while (remaining > kEpsilon && !active.empty()) {
      double weights = 0;
      for (const int q : active) {
        weights += queues[static_cast<std::size_t>(q)].over_quota_weight;
      }
      const double round = remaining;
      std::vector<int> still_wanting;
      for (const int q : active) {
        const auto i = static_cast<std::size_t>(q);
        const double give =
            std::min(round * queues[i].over_quota_weight / weights, requested[i] - share[i]);
        share[i] += give;
        remaining -= give;
        if (share[i] < requested[i] - kEpsilon) {
          still_wanting.push_back(q);
        }
      }
      active = std::move(still_wanting);
    }
  }
}

double Saturation(double allocated, double fair_share) {
  if (fair_share > kEpsilon) {
    return allocated / fair_share;
  }
  return allocated > kEpsilon ? std::numeric_limits<double>::infinity() : 0.0;
}

// Queue amounts summed over each queue's subtree.
std::vector<double> SubtreeSums(const std::vector<KaiQueue>& queues,
                                const std::vector<double>& own) {
  std::vector<double> sum(queues.size(), 0.0);
  for (std::size_t i = 0; i < queues.size(); ++i) {
    for (int q = static_cast<int>(i); q >= 0; q = queues[static_cast<std::size_t>(q)].parent) {
      sum[static_cast<std::size_t>(q)] += own[i];
    }
  }
  return sum;
}

class VictimChooser {
 public:
  VictimChooser(const std::vector<KaiQueue>& queues, const std::vector<double>& fair_shares,
                const std::vector<double>& allocated, const ReclaimRequest& request)
      : queues_(queues),
        fair_shares_(fair_shares),
        allocated_(SubtreeSums(queues, allocated)),
        request_(request),
        reclaimer_path_(PathFromTop(queues, request.queue)) {
    for (const int q : reclaimer_path_) {
      allocated_[static_cast<std::size_t>(q)] += request.gpus;  // as it would be after
    }
  }

  std::vector<JobIndex> Choose(const std::vector<ReclaimCandidate>& candidates) {
    std::vector<JobIndex> victims;
    std::vector<bool> taken(candidates.size(), false);
    double freed = 0;
    while (freed < request_.gpus - kEpsilon) {
      const std::optional<std::size_t> best = Best(candidates, taken);
      if (!best) {
        return {};
      }
      const ReclaimCandidate& victim = candidates[*best];
      taken[*best] = true;
      for (const int q : PathFromTop(queues_, victim.queue)) {
        allocated_[static_cast<std::size_t>(q)] -= victim.gpus;
      }
      freed += victim.gpus;
      victims.push_back(victim.job);
    }
    return victims;
  }

 private:
  double Allocated(int q) const { return allocated_[static_cast<std::size_t>(q)]; }
  double FairShare(int q) const { return fair_shares_[static_cast<std::size_t>(q)]; }

  std::optional<std::size_t> Best(const std::vector<ReclaimCandidate>& candidates,
                                  const std::vector<bool>& taken) const {
    std::optional<std::size_t> best;
    auto key = [&](const ReclaimCandidate& c) {
      return std::make_tuple(-Saturation(Allocated(c.queue), FairShare(c.queue)), c.priority,
                             -c.start, -static_cast<std::int64_t>(c.job));
    };
    for (std::size_t k = 0; k < candidates.size(); ++k) {
      if (taken[k] || !Allowed(candidates[k])) {
        continue;
      }
      if (!best || key(candidates[k]) < key(candidates[*best])) {
        best = k;
      }
    }
    return best;
  }

  bool Allowed(const ReclaimCandidate& victim) const {
    const std::vector<int> victim_path = PathFromTop(queues_, victim.queue);
    std::size_t split = 0;  // first level where the paths part
    while (split < victim_path.size() && split < reclaimer_path_.size() &&
           victim_path[split] == reclaimer_path_[split]) {
      ++split;
    }
    if (split == victim_path.size() || split == reclaimer_path_.size()) {
      return false;  // the same queue, or one inside the other
    }
    const int reclaimer_side = reclaimer_path_[split];
    const int victim_side = victim_path[split];
    return FairShareReclaimAllowed(reclaimer_side, victim_side, victim_path, split, victim.gpus) ||
           QuotaReclaimAllowed(reclaimer_side, victim_side, victim.gpus);
  }

  // Strategy 1: the reclaimer's side stays no more saturated (times the multiplier) than the
  // victim's, and no queue of the victim's side drops below its fair share.
  bool FairShareReclaimAllowed(int reclaimer_side, int victim_side,
                               const std::vector<int>& victim_path, std::size_t split,
                               double gpus) const {
    const double reclaimer = Saturation(Allocated(reclaimer_side), FairShare(reclaimer_side));
    const double victim = Saturation(Allocated(victim_side) - gpus, FairShare(victim_side));
    if (request_.utilization_multiplier * reclaimer > victim + kEpsilon) {
      return false;
    }
    for (std::size_t k = split; k < victim_path.size(); ++k) {
      if (Allocated(victim_path[k]) - gpus < FairShare(victim_path[k]) - kEpsilon) {
        return false;
      }
    }
    return true;
  }

  // Strategy 2: the reclaimer's side stays within its quota, the victim's at or above its own.
  bool QuotaReclaimAllowed(int reclaimer_side, int victim_side, double gpus) const {
    const KaiQueue& reclaimer = queues_[static_cast<std::size_t>(reclaimer_side)];
    const KaiQueue& victim = queues_[static_cast<std::size_t>(victim_side)];
    if (victim.quota == kKaiUnlimited) {
      return false;
    }
    const bool reclaimer_within =
        reclaimer.quota == kKaiUnlimited || Allocated(reclaimer_side) <= reclaimer.quota + kEpsilon;
    return reclaimer_within && Allocated(victim_side) - gpus >= victim.quota - kEpsilon;
  }

  const std::vector<KaiQueue>& queues_;
  const std::vector<double>& fair_shares_;
  std::vector<double> allocated_;  // per queue, its subtree's, after the transfer so far
  ReclaimRequest request_;
  std::vector<int> reclaimer_path_;
};

}  // namespace

std::vector<double> KaiSubtreeRequests(const std::vector<KaiQueue>& queues) {
  const std::vector<std::vector<int>> children = ChildrenOf(queues);
  std::vector<double> requested(queues.size(), 0.0);
  // Post-order: children before parents.
  std::vector<std::pair<int, bool>> stack;
  for (const int top : children.back()) {
    stack.emplace_back(top, false);
  }
  while (!stack.empty()) {
    const auto [q, expanded] = stack.back();
    stack.pop_back();
    const auto i = static_cast<std::size_t>(q);
    if (!expanded) {
      stack.emplace_back(q, true);
      for (const int child : children[i]) {
        stack.emplace_back(child, false);
      }
      continue;
    }
    requested[i] = queues[i].requested;
    for (const int child : children[i]) {
      requested[i] += requested[static_cast<std::size_t>(child)];
    }
    if (queues[i].limit != kKaiUnlimited) {
      requested[i] = std::min(requested[i], queues[i].limit);
    }
  }
  return requested;
}

std::vector<double> KaiFairShares(const std::vector<KaiQueue>& queues, double total) {
  const std::vector<std::vector<int>> children = ChildrenOf(queues);
  const std::vector<double> requested = KaiSubtreeRequests(queues);
  std::vector<double> share(queues.size(), 0.0);
  std::vector<std::pair<int, double>> pending{{static_cast<int>(queues.size()), total}};
  while (!pending.empty()) {
    const auto [parent, amount] = pending.back();
    pending.pop_back();
    const std::vector<int>& siblings = children[static_cast<std::size_t>(parent)];
    DivideAmongSiblings(queues, siblings, requested, amount, share);
    for (const int child : siblings) {
      pending.emplace_back(child, share[static_cast<std::size_t>(child)]);
    }
  }
  return share;
}

std::vector<JobIndex> ChooseReclaimVictims(const std::vector<KaiQueue>& queues,
                                           const std::vector<double>& fair_shares,
                                           const std::vector<double>& allocated,
                                           const std::vector<ReclaimCandidate>& candidates,
                                           const ReclaimRequest& request) {
  return VictimChooser(queues, fair_shares, allocated, request).Choose(candidates);
}

}  // namespace fleetsim
