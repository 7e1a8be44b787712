// SimulationObserver: the subscription interface for metrics, logs and exporters. Override the
// events you need; the defaults ignore them. Observers are called synchronously, in
// registration order, and must not throw.
#pragma once

#include "fleetsim/sim/events.h"

namespace fleetsim {

class SimulationObserver {
 public:
  virtual ~SimulationObserver() = default;
  virtual void OnRunStarted(const RunStarted& /*event*/) {}
  virtual void OnJobSubmitted(const JobSubmitted& /*event*/) {}
  virtual void OnJobStarted(const JobStarted& /*event*/) {}
  virtual void OnJobFinished(const JobFinished& /*event*/) {}
  virtual void OnJobPreempted(const JobPreempted& /*event*/) {}
  virtual void OnJobResized(const JobResized& /*event*/) {}
  virtual void OnJobRejected(const JobRejected& /*event*/) {}
  virtual void OnJobSegmentEnded(const JobSegmentEnded& /*event*/) {}
  virtual void OnNodeNoticed(const NodeNoticed& /*event*/) {}
  virtual void OnNodeWentDown(const NodeWentDown& /*event*/) {}
  virtual void OnNodeCameBack(const NodeCameBack& /*event*/) {}
  virtual void OnPolicyCalled(const PolicyCalled& /*event*/) {}
  virtual void OnRunEnded(const RunEnded& /*event*/) {}
};

}  // namespace fleetsim
