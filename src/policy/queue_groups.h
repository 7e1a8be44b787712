// QueueGroups: the queue split into groups of jobs that a policy treats alike (a key computed from
// the request), each group in queue order, kept between calls from the view's changes instead of
// rebuilt from the whole queue. A policy then looks at the groups' first jobs, merged in its own
// order, instead of at every queued job:
//  - first-fit groups by placement shape (PlacementShapeKey: every request field a placement
//    reads). Within one call the fleet only fills up (placements add holds, nothing is freed), so
//    once a job of a shape cannot be placed, no later job of that shape can be: the scan skips
//    the rest of the shape. A call tries one placement per shape plus one per start.
//  - fair-share groups by everything its priority reads but the submit time. Within a group a
//    later submission never has a higher priority (the age factor only grows with age), so each
//    group's queue order is its priority order, and merging the groups' heads gives the whole
//    queue in priority order, computed only as far as the scan goes.
// The jobs visited, in the order visited, are those the plain scan over the whole (sorted) queue
// would try, less the ones it would have skipped or never reached: the decisions are the same.
// On a queue of a million jobs submitted at once this turns quadratic work over a run into
// near-linear work (docs/performance.md, "Degenerate input").
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "fleetsim/policy/cluster_view.h"

namespace fleetsim {

// Every field of a request that a placement reads (ChoosePlacement), as an exact key.
std::string PlacementShapeKey(const JobRequest& request);

class QueueGroups {
 public:
  using KeyOf = std::function<std::string(const JobRequest&)>;
  explicit QueueGroups(KeyOf key_of) : key_of_(std::move(key_of)) {}

  // Brings the groups up to the view (the first call reads the whole queue): jobs submitted,
  // preempted or started since the last call. Checks that they hold as many jobs as the queue.
  void Update(const ClusterView& view);

  // What the visitor did with a job: started it (it leaves its group and the group's next job
  // comes up), skip the rest of its group for this scan, or end the scan.
  enum class Visit { kStarted, kSkipGroup, kStop };
  // The rank a scan merges by, smallest first, ties by queue order. It must not decrease along
  // a group's queue order.
  using RankOf = std::function<std::pair<std::int64_t, std::int64_t>(JobIndex)>;
  // Visits queued jobs: repeatedly the head of lowest rank among the groups still in the scan.
  void MergedScan(const RankOf& rank_of, const std::function<Visit(JobIndex)>& visit);

  std::size_t groups() const { return jobs_of_group_.size(); }

 private:
  std::size_t GroupOf(const JobRequest& request);
  void Insert(JobIndex job, std::size_t group);
  void Erase(JobIndex job);

  KeyOf key_of_;
  bool started_ = false;
  std::unordered_map<std::string, std::size_t> group_ids_;  // key -> group
  std::vector<std::set<JobIndex>> jobs_of_group_;           // queued jobs, queue order
  std::set<std::size_t> nonempty_groups_;  // a scan starts from these, not from every group ever seen
  std::unordered_map<JobIndex, std::size_t> group_of_job_;  // the queued jobs
};

}  // namespace fleetsim
