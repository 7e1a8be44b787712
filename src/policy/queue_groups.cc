// QueueGroups: the queue split into groups a policy treats alike (queue_groups.h).
#include "queue_groups.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <functional>
#include <queue>
#include <tuple>

#include "fleetsim/core/check.h"

namespace fleetsim {

std::string PlacementShapeKey(const JobRequest& r) {
  std::string key = fmt::format("{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|", r.gpus, r.max_gpus,
                                r.pow2_block, static_cast<int>(r.nvlink),
                                static_cast<int>(r.sharing), r.gpu_milli,
                                std::bit_cast<std::uint64_t>(r.gpu_memory_gb), r.cpu_milli,
                                r.memory_mib, r.spot_eligible, static_cast<int>(r.kind),
                                r.preemptible);
  for (const std::string& model : r.gpu_models) {
    key += model;
    key += ',';
  }
  return key;
}

void QueueGroups::Update(const ClusterView& view) {
  if (!started_) {
    started_ = true;
    for (const JobIndex job : view.queue()) {
      Insert(job, GroupOf(view.request(job)));
    }
  } else {
    for (const JobIndex job : view.changes().Touched()) {
      Erase(job);
      if (view.queue().contains(job)) {
        Insert(job, GroupOf(view.request(job)));
      }
    }
  }
  FLEETSIM_CHECK(group_of_job_.size() == view.queue().size(),
                 "a policy's queue groups lost track of the queue");
}

void QueueGroups::MergedScan(const RankOf& rank_of, const std::function<Visit(JobIndex)>& visit) {
  using Head = std::tuple<std::int64_t, std::int64_t, JobIndex, std::size_t>;  // rank, job, group
  const auto head_of = [&](std::size_t group) {
    const JobIndex job = *jobs_of_group_[group].begin();
    const auto [first, second] = rank_of(job);
    return Head{first, second, job, group};
  };
  std::vector<Head> initial;
  initial.reserve(nonempty_groups_.size());
  for (const std::size_t group : nonempty_groups_) {
    initial.push_back(head_of(group));
  }
  std::priority_queue<Head, std::vector<Head>, std::greater<>> heads(std::greater<>{},
                                                                      std::move(initial));
  const auto push_head = [&](std::size_t group) {
    if (!jobs_of_group_[group].empty()) {
      heads.push(head_of(group));
    }
  };
  while (!heads.empty()) {
    const auto [first, second, job, group] = heads.top();
    heads.pop();
    switch (visit(job)) {
      case Visit::kStarted:
        Erase(job);
        push_head(group);
        break;
      case Visit::kSkipGroup:
        break;
      case Visit::kStop:
        return;
    }
  }
}

std::size_t QueueGroups::GroupOf(const JobRequest& request) {
  const auto [it, fresh] = group_ids_.try_emplace(key_of_(request), jobs_of_group_.size());
  if (fresh) {
    jobs_of_group_.emplace_back();
  }
  return it->second;
}

void QueueGroups::Insert(JobIndex job, std::size_t group) {
  group_of_job_.emplace(job, group);
  jobs_of_group_[group].insert(job);
  nonempty_groups_.insert(group);
}

void QueueGroups::Erase(JobIndex job) {
  const auto it = group_of_job_.find(job);
  if (it == group_of_job_.end()) {
    return;
  }
  jobs_of_group_[it->second].erase(job);
  if (jobs_of_group_[it->second].empty()) {
    nonempty_groups_.erase(it->second);
  }
  group_of_job_.erase(it);
}

}  // namespace fleetsim
