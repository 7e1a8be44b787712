// NodeLifecycle: how nodes come and go during a run (docs/interruptions.md). A spot notice
// cordons a node, and the jobs on it that can save within the notice start an emergency
// checkpoint; at the reclaim the jobs still on it are stopped and the node is down until its
// replacement comes; a wave announces the reclaim of several of a pool's nodes at once; a
// hardware failure stops a node's jobs at once and takes it down for repair; an autoscaled pool
// releases the nodes it does not need and provisions them again when jobs queue
// (sim/autoscaler.h). When these happen is drawn by sim/fleet_processes.h from the run's seed.
// It owns those processes, the autoscaler and each node's generation (bumped when the node goes
// down, which makes the events scheduled for it before stale). It reaches the jobs only through
// NodeLifecycle::Run, which Simulation implements: the engine keeps one event queue and the job
// life cycle, and this class says what a node event does to the fleet.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "fleetsim/core/time.h"
#include "fleetsim/ledger/fleet_ledger.h"
#include "fleetsim/ledger/job_queue.h"
#include "fleetsim/sim/observer.h"

namespace fleetsim {

class Autoscaler;
class FleetProcesses;

// The node events, as the engine's queue carries them: what they are about (a node, or a pool
// for waves, nothing for autoscaler checks) and the node's generation when they were scheduled.
enum class NodeEvent : std::uint8_t {
  kSpotNotice,  // a node's spot reclaim is announced (process draw)
  kFailure,     // a node fails (process draw)
  kWave,        // a pool's reclaim wave (process draw)
  kReclaim,     // a noticed node goes
  kNodeBack,    // a down node is up again
  kAutoscale,   // an idle node of an autoscaled pool may be released
};

class NodeLifecycle {
 public:
  // What node events need of the run.
  class Run {
   public:
    virtual SimTime now() const = 0;
    // The queue and the requests of the workload, which the autoscaler sizes pools for.
    virtual const JobQueue& queue() const = 0;
    virtual std::span<const JobRequest> requests() const = 0;
    // The running jobs holding anything on the node, ascending.
    virtual std::vector<JobIndex> JobsOn(NodeId node) const = 0;
    // Stops a running job now (it goes back to the queue).
    virtual void StopJob(JobIndex job, StopCause cause, const std::string& reason) = 0;
    // The node a running job is on was announced for reclaim in `notice`: the job starts its
    // emergency checkpoint if it can save within the notice (and is not leaving already).
    virtual void MayLeave(JobIndex job, SimDuration notice) = 0;
    // Schedules a node event at `time`.
    virtual void ScheduleNodeEvent(SimTime time, NodeEvent event, std::uint32_t subject,
                                   std::uint32_t generation) = 0;
    // The node's availability changed: the policy hears of it at its next call, which is at
    // this instant if `call_now` (a node announced, gone or back; not one being provisioned,
    // which brings nothing yet).
    virtual void NodeChanged(NodeId node, bool call_now) = 0;

   protected:
    ~Run() = default;
  };

  // `observers` is the run's list (not owned; it may grow until the run begins).
  NodeLifecycle(FleetLedger& ledger, std::uint64_t seed, Run& run,
                const std::vector<SimulationObserver*>& observers);
  ~NodeLifecycle();
  NodeLifecycle(const NodeLifecycle&) = delete;
  NodeLifecycle& operator=(const NodeLifecycle&) = delete;

  // At the run's start: schedules every node's first draws and every pool's first wave.
  void ScheduleProcesses();
  // At the run's start, once observers know the fleet: releases the nodes autoscaled pools do
  // not start with.
  void ReleaseUnneeded();
  // Handles a node event the queue delivered (stale ones do nothing).
  void Handle(NodeEvent event, std::uint32_t subject, std::uint32_t generation);
  // Lets the autoscaler provision or release nodes for the queue as it now is (after every
  // policy call, and at the checks it asks for).
  void Autoscale();

 private:
  void ScheduleNodeProcesses(NodeId node);
  void HandleSpotNotice(NodeId node, std::uint32_t generation);
  void ScheduleNextWave(PoolIndex pool);
  void HandleWave(PoolIndex pool);
  void GiveNotice(NodeId node, bool wave);
  void HandleReclaim(NodeId node, std::uint32_t generation);
  void HandleFailure(NodeId node, std::uint32_t generation);
  void TakeDown(NodeId node, NodeDownCause cause, SimTime back_at);
  void HandleNodeBack(NodeId node, std::uint32_t generation);
  void Schedule(SimTime time, NodeEvent event, std::uint32_t subject, std::uint32_t generation) {
    run_.ScheduleNodeEvent(time, event, subject, generation);
  }
  template <typename Event>
  void Publish(void (SimulationObserver::*handler)(const Event&), const Event& event);

  FleetLedger& ledger_;
  Run& run_;
  const std::vector<SimulationObserver*>& observers_;
  std::unique_ptr<FleetProcesses> processes_;
  std::unique_ptr<Autoscaler> autoscaler_;
  std::vector<std::uint32_t> node_generation_;  // bumped when a node goes down
  SimTime autoscale_check_at_ = kTimeNever;     // the pending kAutoscale event's time, if any
};

}  // namespace fleetsim
