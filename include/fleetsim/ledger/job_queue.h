// JobQueue: the engine's queue of waiting jobs, in submission order (which is JobIndex order), as
// policies read it through ClusterView::queue(): iterate it oldest first, ask its size, its
// front, whether a job is in it. Jobs leave it from anywhere (a policy starts them in its own
// order) and come back to where they were (a preempted job). A leaving job's slot is only marked,
// and the marks are swept once they outnumber the jobs, so n jobs leaving in any order cost
// O(n log n) in all, where erasing each from the middle of a deque cost O(n^2) (a million jobs
// queued at once under a priority-ordered policy: docs/performance.md, "Degenerate input").
// Thread-compatible.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <iterator>

#include "fleetsim/workload/job.h"

namespace fleetsim {

class JobQueue {
 public:
  // A forward iterator over the queued jobs, oldest first (marked slots are skipped).
  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = JobIndex;
    using difference_type = std::ptrdiff_t;
    using pointer = const JobIndex*;
    using reference = const JobIndex&;

    Iterator() = default;
    Iterator(std::deque<JobIndex>::const_iterator at, std::deque<JobIndex>::const_iterator end)
        : at_(at), end_(end) {
      SkipMarked();
    }
    reference operator*() const { return *at_; }
    Iterator& operator++() {
      ++at_;
      SkipMarked();
      return *this;
    }
    Iterator operator++(int) {
      Iterator before = *this;
      ++*this;
      return before;
    }
    bool operator==(const Iterator& other) const { return at_ == other.at_; }

   private:
    void SkipMarked() {
      while (at_ != end_ && (*at_ & kLeftMark) != 0) {
        ++at_;
      }
    }
    std::deque<JobIndex>::const_iterator at_;
    std::deque<JobIndex>::const_iterator end_;
  };

  Iterator begin() const { return {slots_.begin(), slots_.end()}; }
  Iterator end() const { return {slots_.end(), slots_.end()}; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // The oldest queued job. Precondition (checked): not empty.
  JobIndex front() const;
  bool contains(JobIndex job) const;

  // For the engine. Appends a job submitted after every job in the queue (checked).
  void PushBack(JobIndex job);
  // Puts a job back at its place in submission order (checked: not queued).
  void Insert(JobIndex job);
  // Takes a job out (checked: queued).
  void Remove(JobIndex job);

 private:
  // The mark of a slot whose job left; job indexes stay below it (checked by PushBack).
  static constexpr JobIndex kLeftMark = JobIndex{1} << 31;

  std::deque<JobIndex>::iterator SlotOf(JobIndex job);
  std::deque<JobIndex>::const_iterator SlotOf(JobIndex job) const;
  void TrimAndSweep();

  std::deque<JobIndex> slots_;  // ascending job indexes, marked or not; never marked at the ends
  std::size_t size_ = 0;        // unmarked slots
};

}  // namespace fleetsim
