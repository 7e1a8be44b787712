// The policy protocol's engine side: call gating, the livelock bound, the view a call reads.
#include "sim/policy_channel.h"

#include <fmt/format.h>

#include <utility>

#include "fleetsim/core/check.h"
#include "fleetsim/core/time.h"

namespace fleetsim {

PolicyChannel::PolicyChannel(FleetLedger& ledger, std::unique_ptr<Policy> policy,
                             std::string policy_name, Organization organization)
    : ledger_(ledger),
      planner_(ledger),
      pools_(PoolInfosOf(ledger)),
      policy_(std::move(policy)),
      policy_name_(std::move(policy_name)),
      organization_(std::move(organization)) {
  FLEETSIM_CHECK(policy_ != nullptr, "a simulation needs a policy");
}

bool PolicyChannel::Due(SimTime now) const {
  return now != last_call_time_ || !changes_.submitted.empty() || !changes_.finished.empty() ||
         !changes_.preempted.empty() || !changes_.nodes_changed.empty();
}

Status PolicyChannel::Call(SimTime now, const JobsAtCall& jobs, std::vector<Decision>& decisions) {
  calls_this_instant_ = now == last_call_time_ ? calls_this_instant_ + 1 : 1;
  if (calls_this_instant_ > kMaxCallsPerInstant) {
    return Status::IllegalDecision(
        fmt::format("policy '{}' preempted jobs in each of {} calls at {} without time moving on "
                    "(livelock)",
                    policy_name_, kMaxCallsPerInstant, FormatTime(now)));
  }
  last_call_time_ = now;
  const ClusterView view(now, ledger_, pools_, jobs.submitted, jobs.queue, jobs.running, changes_,
                         organization_);
  decisions = policy_->Decide(view, planner_);
  changes_ = {};
  ++calls_;
  if (Status failure = policy_->TakeFailure(); !failure.ok()) {
    decisions.clear();
    planner_.Rollback();
    return Status::IllegalDecision(fmt::format("policy '{}' failed in its call {} at {}: {}",
                                               policy_name_, calls_, FormatTime(now),
                                               failure.message()));
  }
  return Status::Ok();
}

}  // namespace fleetsim
