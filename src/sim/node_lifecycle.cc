// Node events: spot notices and reclaims, waves, failures, nodes back, and the autoscaler's moves.
#include "sim/node_lifecycle.h"

#include "fleetsim/core/check.h"
#include "sim/autoscaler.h"
#include "sim/fleet_processes.h"

namespace fleetsim {

NodeLifecycle::NodeLifecycle(FleetLedger& ledger, std::uint64_t seed, Run& run,
                             const std::vector<SimulationObserver*>& observers)
    : ledger_(ledger),
      run_(run),
      observers_(observers),
      processes_(std::make_unique<FleetProcesses>(ledger, seed)),
      autoscaler_(std::make_unique<Autoscaler>(ledger)),
      node_generation_(static_cast<std::size_t>(ledger.topology().nodes()), 0) {}

NodeLifecycle::~NodeLifecycle() = default;

template <typename Event>
void NodeLifecycle::Publish(void (SimulationObserver::*handler)(const Event&), const Event& event) {
  for (SimulationObserver* observer : observers_) {
    (observer->*handler)(event);
  }
}

void NodeLifecycle::ScheduleProcesses() {
  if (!processes_->any()) {
    return;
  }
  for (NodeId node = 0; node < node_generation_.size(); ++node) {
    ScheduleNodeProcesses(node);
  }
  for (PoolIndex pool = 0; pool < ledger_.pools().size(); ++pool) {
    ScheduleNextWave(pool);
  }
}

void NodeLifecycle::ReleaseUnneeded() {
  for (const NodeId node : autoscaler_->InitialReleases()) {
    TakeDown(node, NodeDownCause::kReleased, kTimeNever);
  }
}

void NodeLifecycle::Handle(NodeEvent event, std::uint32_t subject, std::uint32_t generation) {
  switch (event) {
    case NodeEvent::kSpotNotice:
      HandleSpotNotice(subject, generation);
      break;
    case NodeEvent::kFailure:
      HandleFailure(subject, generation);
      break;
    case NodeEvent::kWave:
      HandleWave(subject);
      break;
    case NodeEvent::kReclaim:
      HandleReclaim(subject, generation);
      break;
    case NodeEvent::kNodeBack:
      HandleNodeBack(subject, generation);
      break;
    case NodeEvent::kAutoscale:
      if (autoscale_check_at_ == run_.now()) {
        autoscale_check_at_ = kTimeNever;
      }
      Autoscale();
      break;
  }
}

void NodeLifecycle::ScheduleNodeProcesses(NodeId node) {
  const std::uint32_t generation = node_generation_[node];
  const SimTime now = run_.now();
  if (const SimTime notice = processes_->NextSpotNotice(node, now); notice != kTimeNever) {
    Schedule(notice, NodeEvent::kSpotNotice, node, generation);
  }
  if (const SimTime failure = processes_->NextFailure(node, now); failure != kTimeNever) {
    Schedule(failure, NodeEvent::kFailure, node, generation);
  }
}

void NodeLifecycle::HandleSpotNotice(NodeId node, std::uint32_t generation) {
  if (generation != node_generation_[node] || !ledger_.state().IsUp(node)) {
    return;  // the node went down since, or a wave already announced it
  }
  GiveNotice(node, false);
}

void NodeLifecycle::ScheduleNextWave(PoolIndex pool) {
  if (const SimTime wave = processes_->NextWave(pool, run_.now()); wave != kTimeNever) {
    Schedule(wave, NodeEvent::kWave, pool, 0);
  }
}

// A wave announces the reclaim of up to wave_nodes of the pool's up nodes at once.
void NodeLifecycle::HandleWave(PoolIndex pool) {
  std::vector<NodeId> up;
  const FleetState& state = ledger_.state();
  for (NodeId node = 0; node < node_generation_.size(); ++node) {
    if (ledger_.PoolOfNode(node) == pool && state.IsUp(node)) {
      up.push_back(node);
    }
  }
  for (const NodeId node : processes_->PickWaveNodes(pool, std::move(up))) {
    GiveNotice(node, true);
  }
  ScheduleNextWave(pool);
}

void NodeLifecycle::GiveNotice(NodeId node, bool wave) {
  const PoolSpec& pool = ledger_.pools()[ledger_.PoolOfNode(node)];
  const SimTime now = run_.now();
  const SimTime reclaim_at = now + pool.spot.notice;
  ledger_.SetNodeAvailability(node, NodeAvailability::kCordoned,
                              reclaim_at + pool.spot.replacement_delay);
  run_.NodeChanged(node, true);
  Publish(&SimulationObserver::OnNodeNoticed,
          NodeNoticed{now, node, ledger_.PoolOfNode(node), reclaim_at, wave});
  for (const JobIndex job : run_.JobsOn(node)) {
    run_.MayLeave(job, pool.spot.notice);
  }
  Schedule(reclaim_at, NodeEvent::kReclaim, node, node_generation_[node]);
}

void NodeLifecycle::HandleReclaim(NodeId node, std::uint32_t generation) {
  if (generation != node_generation_[node]) {
    return;  // it failed during the notice
  }
  for (const JobIndex job : run_.JobsOn(node)) {
    run_.StopJob(job, StopCause::kSpotReclaim, "spot reclaim");
  }
  const PoolSpec& pool = ledger_.pools()[ledger_.PoolOfNode(node)];
  TakeDown(node, NodeDownCause::kSpotReclaim, run_.now() + pool.spot.replacement_delay);
}

void NodeLifecycle::HandleFailure(NodeId node, std::uint32_t generation) {
  if (generation != node_generation_[node]) {
    return;  // the node was down in between
  }
  for (const JobIndex job : run_.JobsOn(node)) {
    run_.StopJob(job, StopCause::kHardwareFailure, "hardware failure");
  }
  const PoolSpec& pool = ledger_.pools()[ledger_.PoolOfNode(node)];
  TakeDown(node, NodeDownCause::kHardwareFailure, run_.now() + pool.failures.repair);
}

void NodeLifecycle::TakeDown(NodeId node, NodeDownCause cause, SimTime back_at) {
  const std::uint32_t generation = ++node_generation_[node];  // pending draws are off
  ledger_.SetNodeAvailability(node, NodeAvailability::kDown, back_at);
  run_.NodeChanged(node, true);
  Publish(&SimulationObserver::OnNodeWentDown,
          NodeWentDown{run_.now(), node, ledger_.PoolOfNode(node), cause, back_at});
  if (back_at != kTimeNever) {
    Schedule(back_at, NodeEvent::kNodeBack, node, generation);
  }
}

void NodeLifecycle::HandleNodeBack(NodeId node, std::uint32_t generation) {
  FLEETSIM_CHECK(generation == node_generation_[node], "a node came back twice");
  ledger_.SetNodeAvailability(node, NodeAvailability::kUp, 0);
  run_.NodeChanged(node, true);
  Publish(&SimulationObserver::OnNodeCameBack,
          NodeCameBack{run_.now(), node, ledger_.PoolOfNode(node)});
  ScheduleNodeProcesses(node);
  autoscaler_->CameUp(node);
}

void NodeLifecycle::Autoscale() {
  if (!autoscaler_->any()) {
    return;
  }
  const SimTime now = run_.now();
  const Autoscaler::Moves moves = autoscaler_->Decide(now, run_.queue(), run_.requests());
  for (const NodeId node : moves.provision) {
    const SimTime back_at =
        now + ledger_.pools()[ledger_.PoolOfNode(node)].autoscale.provisioning_delay;
    ledger_.SetNodeAvailability(node, NodeAvailability::kDown, back_at);
    run_.NodeChanged(node, false);
    Schedule(back_at, NodeEvent::kNodeBack, node, node_generation_[node]);
  }
  for (const NodeId node : moves.release) {
    TakeDown(node, NodeDownCause::kReleased, kTimeNever);
  }
  if (moves.next_check != kTimeNever &&
      (autoscale_check_at_ == kTimeNever || moves.next_check < autoscale_check_at_)) {
    autoscale_check_at_ = moves.next_check;
    Schedule(moves.next_check, NodeEvent::kAutoscale, 0, 0);
  }
}

}  // namespace fleetsim
