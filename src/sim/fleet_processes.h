// FleetProcesses: the random processes that take nodes away, drawn from the run's own named
// streams so that every policy run on the same scenario and seed meets the same ones:
//  - spot reclaims: each up node of a spot pool is announced for reclaim at its pool's
//    per-node-hour rate (stream "fleet.spot.<pool>");
//  - reclaim waves: a pool-wide Poisson process at waves_per_day; each wave picks wave_nodes of
//    the pool's up nodes uniformly without replacement (stream "fleet.waves.<pool>");
//  - hardware failures: each GPU of an up node fails at its pool's per-GPU-hour rate, so a node
//    fails at that rate times its GPUs (stream "fleet.failures.<pool>").
// Times are exponential (memoryless), so a node's next reclaim and next failure are drawn afresh
// each time it comes up. This class only says *when*; the engine applies what the events mean.
// Draws happen in event order, which no policy decision changes, except where an autoscaled
// pool's nodes come up when the queue asks for them (sim/autoscaler.h). docs/interruptions.md.
// Not thread-safe; owned by one simulation.
#pragma once

#include <cstdint>
#include <vector>

#include "fleetsim/core/random.h"
#include "fleetsim/core/time.h"
#include "fleetsim/ledger/fleet_ledger.h"

namespace fleetsim {

class FleetProcesses {
 public:
  FleetProcesses(const FleetLedger& ledger, std::uint64_t seed);

  // The next spot notice and the next failure of a node that is up at `now`; kTimeNever when its
  // pool has no such process.
  SimTime NextSpotNotice(NodeId node, SimTime now);
  SimTime NextFailure(NodeId node, SimTime now);
  // The pool's next reclaim wave after `now`; kTimeNever when it has none.
  SimTime NextWave(PoolIndex pool, SimTime now);
  // Up to the pool's wave_nodes of `candidates`, chosen uniformly without replacement, ascending.
  std::vector<NodeId> PickWaveNodes(PoolIndex pool, std::vector<NodeId> candidates);

  // Whether any process is configured at all (a fleet without any draws nothing).
  bool any() const { return any_; }

 private:
  struct PoolStreams {
    Rng spot;
    Rng waves;
    Rng failures;
  };
  // now + an exponential wait at `per_hour` events per hour, at least 1 ms; kTimeNever at rate 0.
  static SimTime After(Rng& rng, SimTime now, double per_hour);

  const FleetLedger& ledger_;
  std::vector<PoolStreams> streams_;  // by pool
  bool any_ = false;
};

}  // namespace fleetsim
