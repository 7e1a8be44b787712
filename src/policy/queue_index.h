// The constraint-aware policy's index of the queue, kept between calls from the view's changes
// rather than rebuilt from the whole queue at every call: the queued jobs that take whole GPUs and
// the others, each ordered as the plan looks at them (priority, highest first, then queue order),
// and the jobs that may get a reservation, oldest first. On a saturated fleet with thousands of
// queued jobs a call then reads the few it plans, not the queue.
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <unordered_map>
#include <vector>

#include "fleetsim/policy/cluster_view.h"

namespace fleetsim {

// What the index keeps of a queued job (a request never changes).
struct QueuedJobBrief {
  std::int64_t priority = 0;
  SimTime submit = 0;
  bool whole = false;       // takes whole GPUs
  bool reservable = false;  // whole and not an elastic service
};

class QueueIndex {
 public:
  // A queued job in plan order: priority, highest first, then queue (index) order.
  struct Entry {
    std::int64_t priority = 0;
    JobIndex job = 0;
    bool operator<(const Entry& o) const {
      return priority != o.priority ? priority > o.priority : job < o.job;
    }
  };
  using Brief = std::function<QueuedJobBrief(const JobRequest&)>;

  // Brings the index up to the view (the first call reads the whole queue): jobs submitted,
  // preempted or started since the last call are queued if `is_running` says they do not run and
  // they did not finish. Checks that it holds as many jobs as the queue.
  void Update(const ClusterView& view, const std::function<bool(JobIndex)>& is_running,
              const Brief& brief);

  const std::set<Entry>& whole() const { return whole_; }
  const std::set<Entry>& other() const { return other_; }
  // The reservable jobs, oldest submission first (queue order).
  const std::set<JobIndex>& reservable() const { return reservable_; }
  const QueuedJobBrief& BriefOf(JobIndex job) const { return briefs_.at(job); }

 private:
  void Insert(JobIndex job, const QueuedJobBrief& brief);
  void Erase(JobIndex job);

  bool started_ = false;
  std::unordered_map<JobIndex, QueuedJobBrief> briefs_;  // the queued jobs
  std::set<Entry> whole_;
  std::set<Entry> other_;
  std::set<JobIndex> reservable_;
};

}  // namespace fleetsim
