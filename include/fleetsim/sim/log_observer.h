// LogObserver: writes engine events to a logger it is given (spdlog), at debug or trace level,
// each line prefixed with the simulated time. Silent unless the logger's level lets them through
// (the CLI's -v and -vv). Not thread-safe; one per simulation.
#pragma once

#include <memory>

#include "fleetsim/sim/observer.h"

namespace spdlog {
class logger;
}  // namespace spdlog

namespace fleetsim {

class LogObserver final : public SimulationObserver {
 public:
  explicit LogObserver(std::shared_ptr<spdlog::logger> logger) : logger_(std::move(logger)) {}

  void OnRunStarted(const RunStarted& event) override;
  void OnJobSubmitted(const JobSubmitted& event) override;
  void OnJobStarted(const JobStarted& event) override;
  void OnJobFinished(const JobFinished& event) override;
  void OnJobPreempted(const JobPreempted& event) override;
  void OnJobResized(const JobResized& event) override;
  void OnJobRejected(const JobRejected& event) override;
  void OnPolicyCalled(const PolicyCalled& event) override;
  void OnNodeNoticed(const NodeNoticed& event) override;
  void OnNodeWentDown(const NodeWentDown& event) override;
  void OnNodeCameBack(const NodeCameBack& event) override;
  void OnRunEnded(const RunEnded& event) override;

 private:
  std::shared_ptr<spdlog::logger> logger_;
};

}  // namespace fleetsim
