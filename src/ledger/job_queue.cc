// JobQueue: the queue of waiting jobs, with marked slots for the jobs that left (job_queue.h).
#include "fleetsim/ledger/job_queue.h"

#include <algorithm>

#include "fleetsim/core/check.h"

namespace fleetsim {

namespace {

constexpr JobIndex kIndexBits = ~(JobIndex{1} << 31);

bool IndexBelow(JobIndex slot, JobIndex job) { return (slot & kIndexBits) < job; }

}  // namespace

JobIndex JobQueue::front() const {
  FLEETSIM_CHECK(size_ > 0, "front() of an empty job queue");
  return slots_.front();  // the ends are never marked
}

std::deque<JobIndex>::iterator JobQueue::SlotOf(JobIndex job) {
  return std::lower_bound(slots_.begin(), slots_.end(), job, IndexBelow);
}

std::deque<JobIndex>::const_iterator JobQueue::SlotOf(JobIndex job) const {
  return std::lower_bound(slots_.begin(), slots_.end(), job, IndexBelow);
}

bool JobQueue::contains(JobIndex job) const {
  const auto slot = SlotOf(job);
  return slot != slots_.end() && *slot == job;
}

void JobQueue::PushBack(JobIndex job) {
  FLEETSIM_CHECK((job & kLeftMark) == 0, "a job index too large for the job queue");
  FLEETSIM_CHECK(slots_.empty() || (slots_.back() & kIndexBits) < job,
                 "jobs must join the queue's back in submission order");
  slots_.push_back(job);
  ++size_;
}

void JobQueue::Insert(JobIndex job) {
  const auto slot = SlotOf(job);
  FLEETSIM_CHECK(slot == slots_.end() || *slot != job, "a job is already in the queue");
  if (slot != slots_.end() && *slot == (job | kLeftMark)) {
    *slot = job;  // back in the slot it left
  } else {
    slots_.insert(slot, job);
  }
  ++size_;
}

void JobQueue::Remove(JobIndex job) {
  const auto slot = SlotOf(job);
  FLEETSIM_CHECK(slot != slots_.end() && *slot == job, "a queued job is missing from the queue");
  *slot |= kLeftMark;
  --size_;
  TrimAndSweep();
}

// Keeps the ends unmarked, and sweeps the marks once they outnumber the jobs (amortized O(1) per
// removal: a sweep of s slots follows at least s / 2 removals).
void JobQueue::TrimAndSweep() {
  while (!slots_.empty() && (slots_.front() & kLeftMark) != 0) {
    slots_.pop_front();
  }
  while (!slots_.empty() && (slots_.back() & kLeftMark) != 0) {
    slots_.pop_back();
  }
  if (slots_.size() - size_ > size_ + 64) {
    std::erase_if(slots_, [](JobIndex slot) { return (slot & kLeftMark) != 0; });
  }
}

}  // namespace fleetsim
