// QueueIndex: the constraint-aware policy's index of the queue (queue_index.h).
#include "queue_index.h"

#include <algorithm>

#include "fleetsim/core/check.h"

namespace fleetsim {

void QueueIndex::Update(const ClusterView& view, const std::function<bool(JobIndex)>& is_running,
                        const Brief& brief) {
  if (!started_) {
    started_ = true;
    for (const JobIndex job : view.queue()) {
      Insert(job, brief(view.request(job)));
    }
  } else {
    const ChangesSinceLastCall& changes = view.changes();
    std::vector<JobIndex> touched = changes.Touched();
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    std::vector<JobIndex> finished(changes.finished.begin(), changes.finished.end());
    std::sort(finished.begin(), finished.end());
    for (const JobIndex job : touched) {
      Erase(job);
      if (!is_running(job) && !std::binary_search(finished.begin(), finished.end(), job)) {
        Insert(job, brief(view.request(job)));
      }
    }
  }
  FLEETSIM_CHECK(briefs_.size() == view.queue().size(),
                 "the constraint-aware policy lost track of the queue");
}

void QueueIndex::Insert(JobIndex job, const QueuedJobBrief& brief) {
  briefs_.emplace(job, brief);
  (brief.whole ? whole_ : other_).insert({brief.priority, job});
  if (brief.reservable) {
    reservable_.insert(job);
  }
}

void QueueIndex::Erase(JobIndex job) {
  const auto it = briefs_.find(job);
  if (it == briefs_.end()) {
    return;
  }
  (it->second.whole ? whole_ : other_).erase({it->second.priority, job});
  reservable_.erase(job);
  briefs_.erase(it);
}

}  // namespace fleetsim
