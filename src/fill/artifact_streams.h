// The arrival order and node tie rank the FGD paper's artifact draws for a seed, drawn here the
// same way (docs/validation.md#the-artifacts-own-streams): Go's math/rand (GoMathRand)
// seeded with the seed, one draw discarded, the name-sorted pods shuffled, then either copies
// drawn from the name-sorted list while the next pick's per-GPU share keeps the total within
// the target (the artifact's stop test) or, for a list above it, random pods removed until it is
// within; then kArtifactInformerDraws draws that the artifact's informers take from the same
// global source, and Go's Perm of the name-sorted nodes: node i's value is its tie rank. With
// these, fleetsim's per-seed curves are the artifact's published ones. The artifact permutes its
// whole node list; fleetsim's workload holds the GPU nodes only, so the ranks are the artifact's
// for node lists without CPU-only nodes, as openb's GPU node list. Pure functions.
#pragma once

#include <cstdint>

#include "fleetsim/fill/fill_order.h"
#include "fleetsim/fill/fill_workload.h"

namespace fleetsim {

// Draws from the global source between the workload tuning and the node permutation: the
// artifact starts the scheduler's informers then, and each of their reflectors takes one
// (client-go draws a random watch timeout). Ten is what reproduces every published per-seed
// curve of the five deterministic policies; see docs/validation.md.
inline constexpr int kArtifactInformerDraws = 10;

FillOrder ArtifactFillOrder(const FillWorkload& workload, std::int64_t seed, double target_share);

}  // namespace fleetsim
