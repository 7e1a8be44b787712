// Slurm's multifactor job priority (priority/multifactor), as SchedMD documents it
// (priority_multifactor.shtml, classic_fair_share.shtml, fair_tree.shtml) and
// priority_multifactor.c computes it, as plain functions the fair-share policy composes and tests
// check on worked examples:
//   priority = w_age * age + w_fairshare * fairshare + w_job_size * job_size + w_qos * qos,
// each factor in [0, 1], weights as Slurm's uint32 PriorityWeight* values; the integer Slurm
// sorts by is that sum truncated, at least 1. Usage decays by pow(1 - 0.693 / half_life, dt).
// Fair-share over a tree of associations, by the classic algorithm (F = 2^(-UE/S/d)) or by
// Fair Tree (a rank by Level Fairshare S/U). Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "fleetsim/core/time.h"

namespace fleetsim {

// Slurm's PriorityWeightAge, PriorityWeightFairshare, PriorityWeightJobSize, PriorityWeightQOS.
struct PriorityWeights {
  double age = 0;
  double fairshare = 0;
  double job_size = 0;
  double qos = 0;
};

// A job's factors, each in [0, 1].
struct PriorityFactors {
  double age = 0;
  double fairshare = 0;
  double job_size = 0;
  double qos = 0;
};

// min(1, waited / max_age); 0 for a job that has not waited. max_age > 0.
double AgeFactor(SimDuration waited, SimDuration max_age);

// What the job-size factor reads. Slurm counts CPUs; fleetsim counts GPUs in their place.
struct JobSizeInput {
  double job_gpus = 0;             // Slurm's job CPU count
  std::int64_t min_nodes = 1;      // the fewest nodes the job can run on
  double cluster_gpus = 1;         // Slurm's cluster CPUs, > 0
  std::int64_t cluster_nodes = 1;  // Slurm's node count, > 0
};

// Favor-large: (min_nodes / nodes + gpus / cluster_gpus) / 2; favor-small:
// ((nodes - min_nodes) / nodes + (cluster_gpus - gpus) / cluster_gpus) / 2. As in Slurm's code,
// a job with no CPUs (here: no GPUs) has the node term alone, undivided. Clamped to [0, 1].
double JobSizeFactor(const JobSizeInput& input, bool favor_small);

// The QOS factor: a priority normalized to the largest in use (Slurm normalizes QOS priority to
// the largest QOS priority). max_priority >= 1.
double QosFactor(std::int64_t priority, std::int64_t max_priority);

// The weighted sum of the factors.
double WeightedPriority(const PriorityWeights& weights, const PriorityFactors& factors);

// The integer Slurm orders jobs by: the sum truncated, within [1, 4294967295] (0 means held).
std::uint32_t SlurmPriority(double weighted);

// 1 - 0.693 / half_life_seconds, the factor Slurm applies once per second of elapsed time.
double DecayFactor(double half_life_seconds);
// usage * pow(decay_factor, seconds).
double DecayUsage(double usage, double decay_factor, double seconds);

// One association of the fair-share tree.
struct ShareNode {
  int parent = -1;    // index of the parent; -1 for a child of the root
  double shares = 1;  // RawShares among its siblings, >= 0
  double usage = 0;   // decayed usage charged to this association itself (not its children)
};

// Classic fair-share (PriorityFlags=NO_FAIR_TREE), for every node: normalized shares
// S = prod over the path of shares / siblings' shares, actual usage UA = subtree usage / all
// usage (0 when nothing was used), effective usage UE = UA just below the root and
// UA + (UE_parent - UA) * shares / siblings' shares below, and F = 2^(-UE / S / dampening)
// (0 when S = 0). dampening >= 1.
std::vector<double> ClassicFairShare(const std::vector<ShareNode>& nodes, double dampening);

// Fair Tree: every node's Level Fairshare LF = S / U with S = shares / siblings' shares and
// U = subtree usage / parent's subtree usage (U = 0 when the parent has none: LF = infinity;
// S = 0: LF = 0); siblings sorted by LF, highest first (users before accounts on a tie, then
// index order), visited depth first; each leaf ("user") gets rank / leaves, the first 1.0, with
// Slurm's ties (tied sibling users share a rank, tied sibling accounts have their children
// merged, a user tied with a sibling account shares its first user's rank). A node with children
// gets the factor of its highest-ranked leaf.
std::vector<double> FairTreeFairShare(const std::vector<ShareNode>& nodes);

// Each node's usage plus that of all its descendants.
std::vector<double> SubtreeUsage(const std::vector<ShareNode>& nodes);

}  // namespace fleetsim
