// Spot reclaims, reclaim waves and hardware failures as seeded Poisson processes.
#include "sim/fleet_processes.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace fleetsim {

namespace {
constexpr double kMillisPerHour = 3'600'000;
}  // namespace

FleetProcesses::FleetProcesses(const FleetLedger& ledger, std::uint64_t seed) : ledger_(ledger) {
  const RandomStreams streams(seed, 0);
  for (const PoolSpec& pool : ledger.pools()) {
    streams_.push_back({streams.Stream("fleet.spot." + pool.name),
                        streams.Stream("fleet.waves." + pool.name),
                        streams.Stream("fleet.failures." + pool.name)});
    any_ = any_ || pool.spot.any() || pool.failures.any();
  }
}

SimTime FleetProcesses::After(Rng& rng, SimTime now, double per_hour) {
  if (!(per_hour > 0)) {
    return kTimeNever;
  }
  const double wait = std::round(Exponential(rng, kMillisPerHour / per_hour));
  if (wait >= static_cast<double>(kTimeNever - now)) {
    return kTimeNever;
  }
  return now + std::max<SimDuration>(1, static_cast<SimDuration>(wait));
}

SimTime FleetProcesses::NextSpotNotice(NodeId node, SimTime now) {
  const PoolIndex pool = ledger_.PoolOfNode(node);
  const PoolSpec& spec = ledger_.pools()[pool];
  if (spec.tier != PriceTier::kSpot) {
    return kTimeNever;
  }
  return After(streams_[pool].spot, now, spec.spot.per_node_hour);
}

SimTime FleetProcesses::NextFailure(NodeId node, SimTime now) {
  const PoolIndex pool = ledger_.PoolOfNode(node);
  const PoolSpec& spec = ledger_.pools()[pool];
  const auto gpus = static_cast<double>(ledger_.state().EndGpuOfNode(node) -
                                        ledger_.state().FirstGpuOfNode(node));
  return After(streams_[pool].failures, now, spec.failures.per_gpu_hour * gpus);
}

SimTime FleetProcesses::NextWave(PoolIndex pool, SimTime now) {
  const PoolSpec& spec = ledger_.pools()[pool];
  if (spec.tier != PriceTier::kSpot || spec.spot.wave_nodes <= 0) {
    return kTimeNever;
  }
  return After(streams_[pool].waves, now, spec.spot.waves_per_day / 24.0);
}

std::vector<NodeId> FleetProcesses::PickWaveNodes(PoolIndex pool, std::vector<NodeId> candidates) {
  const auto want = static_cast<std::size_t>(std::min<std::int64_t>(
      ledger_.pools()[pool].spot.wave_nodes, static_cast<std::int64_t>(candidates.size())));
  Rng& rng = streams_[pool].waves;
  for (std::size_t i = 0; i < want; ++i) {  // a partial Fisher-Yates shuffle
    const auto j = static_cast<std::size_t>(UniformInt(
        rng, static_cast<std::int64_t>(i), static_cast<std::int64_t>(candidates.size()) - 1));
    std::swap(candidates[i], candidates[j]);
  }
  candidates.resize(want);
  std::sort(candidates.begin(), candidates.end());
  return candidates;
}

}  // namespace fleetsim
