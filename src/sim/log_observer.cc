// Diagnostic log lines for engine events.
#include "fleetsim/sim/log_observer.h"

#include <spdlog/logger.h>

#include "fleetsim/policy/policy.h"

namespace fleetsim {

void LogObserver::OnRunStarted(const RunStarted& event) {
  logger_->debug("[{}] run started: {} GPUs, {} jobs", FormatTime(event.time), event.fleet_gpus,
                 event.jobs.size());
}

void LogObserver::OnJobSubmitted(const JobSubmitted& event) {
  logger_->trace("[{}] submit {} (GPUs: {})", FormatTime(event.time), event.request.id,
                 event.request.gpus);
}

void LogObserver::OnJobStarted(const JobStarted& event) {
  logger_->debug("[{}] start {} on {}", FormatTime(event.time), event.request.id,
                 DescribeAllocation(event.placement));
}

void LogObserver::OnJobFinished(const JobFinished& event) {
  logger_->debug("[{}] finish {}", FormatTime(event.time), event.request.id);
}

void LogObserver::OnJobPreempted(const JobPreempted& event) {
  logger_->debug("[{}] stop {} by {} ({}; {} of computing lost)", FormatTime(event.time),
                 event.request.id, StopCauseName(event.cause), event.reason,
                 FormatTime(event.lost_run_time));
}

void LogObserver::OnNodeNoticed(const NodeNoticed& event) {
  logger_->debug("[{}] node {} (pool {}) announced for reclaim at {}{}", FormatTime(event.time),
                 event.node, event.pool, FormatTime(event.reclaim_at),
                 event.wave ? " (reclaim wave)" : "");
}

void LogObserver::OnNodeWentDown(const NodeWentDown& event) {
  logger_->debug("[{}] node {} (pool {}) down ({}) until {}", FormatTime(event.time), event.node,
                 event.pool,
                 event.cause == NodeDownCause::kSpotReclaim       ? "spot reclaim"
                 : event.cause == NodeDownCause::kHardwareFailure ? "hardware failure"
                                                                  : "released by the autoscaler",
                 FormatTime(event.back_at));
}

void LogObserver::OnNodeCameBack(const NodeCameBack& event) {
  logger_->debug("[{}] node {} (pool {}) up again", FormatTime(event.time), event.node, event.pool);
}

void LogObserver::OnJobResized(const JobResized& event) {
  logger_->debug("[{}] resize {} to {}", FormatTime(event.time), event.request.id,
                 DescribeAllocation(event.placement));
}

void LogObserver::OnJobRejected(const JobRejected& event) {
  logger_->info("[{}] rejected {}: {}", FormatTime(event.time), event.request.id, event.reason);
}

void LogObserver::OnPolicyCalled(const PolicyCalled& event) {
  logger_->trace("[{}] policy called: {} queued, {} decisions", FormatTime(event.time),
                 event.queued, event.decisions);
}

void LogObserver::OnRunEnded(const RunEnded& event) {
  logger_->debug("[{}] run ended", FormatTime(event.time));
}

}  // namespace fleetsim
