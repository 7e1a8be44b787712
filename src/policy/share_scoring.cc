// The `share-*` placement rules: the GPU-sharing node scorers on a FleetLedger.
#include "policy/share_scoring.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <string_view>
#include <vector>

#include "fleetsim/core/random.h"
#include "fleetsim/ledger/placement_rules.h"
#include "fleetsim/policy/policy.h"

namespace fleetsim {

namespace {

// FGD's free CPU of a node with unlimited CPU: more than any task asks.
constexpr std::int64_t kUnlimitedCpuMilli = std::int64_t{1} << 50;

// What the scorers read of the fleet as a whole.
struct FleetScale {
  ClusterScale scale{};
  bool cpu_limited = false;  // some pool limits node CPU
  bool scorable = true;      // every node has at most kMaxSharedNodeGpus GPUs, every model indexed
};

FleetScale ScaleOf(const FleetLedger& ledger) {
  FleetScale fleet;
  const auto pools = ledger.pools();
  for (std::size_t p = 0; p < pools.size(); ++p) {
    const PoolSpec& pool = pools[p];
    if (pool.node.gpus_per_node > static_cast<int>(kMaxSharedNodeGpus) ||
        ledger.typical_tasks().ModelOfPool(p) < 0) {
      fleet.scorable = false;
    }
    fleet.scale.max_node_gpu_milli =
        std::max(fleet.scale.max_node_gpu_milli, std::int64_t{pool.node.gpus_per_node} * kGpuMilli);
    if (pool.cpu_cores) {
      fleet.cpu_limited = true;
      fleet.scale.max_node_cpu_milli = std::max<std::int64_t>(fleet.scale.max_node_cpu_milli,
                                                              std::llround(*pool.cpu_cores * 1000));
    }
  }
  return fleet;
}

// The request as one pod on one node, if the rules cover it.
std::optional<SharePod> PodOf(const JobRequest& request, std::optional<std::int64_t> exact_gpus) {
  SharePod pod{.cpu_milli = request.cpu_milli, .memory_mib = request.memory_mib};
  if (request.IsCpuOnly()) {
    return pod;
  }
  switch (request.sharing) {
    case GpuSharing::kMig:
      return std::nullopt;
    case GpuSharing::kFraction:
      pod.gpus = 1;
      pod.gpu_milli = request.gpu_milli;
      return pod;
    case GpuSharing::kNone:
      break;
  }
  const std::int64_t n = exact_gpus.value_or(request.gpus);
  if (request.pow2_block || (!exact_gpus && request.IsElastic()) ||
      n > static_cast<std::int64_t>(kMaxSharedNodeGpus)) {
    return std::nullopt;
  }
  pod.gpus = n;
  pod.gpu_milli = kGpuMilli;
  return pod;
}

// One node that can take the pod, as the scorers see it.
struct Candidate {
  NodeId node = 0;
  // The node's state with CPU read for the dot-product and best-fit scores (CpuForScores);
  // pod_kinds is filled for GPU clustering only.
  SharedNode shared{};
  std::int64_t fgd_cpu = 0;  // free CPU milli for FGD's measure (unlimited: kUnlimitedCpuMilli)
  std::uint32_t usable = 0;  // bit g: GPU g can take the pod's share or be taken whole
  // Bit g: GPU g has the share's milli free but not its GPU memory. The share's GPU choice and
  // GPU packing read these GPUs as full.
  std::uint32_t short_of_memory = 0;
};

// `free` with the GPUs of `hidden` read as full.
NodeFreeState Hiding(NodeFreeState free, std::uint32_t hidden) {
  for (std::size_t g = 0; g < free.gpu_count; ++g) {
    if ((hidden >> g & 1U) != 0) {
      free.gpu_free[g] = 0;
    }
  }
  return free;
}

// Cores as milli-cores, rounded to nearest.
std::int64_t MilliCores(double cores) {
  const double milli = cores * 1000;
  return milli >= 0 ? static_cast<std::int64_t>(milli + 0.5)
                    : -static_cast<std::int64_t>(-milli + 0.5);
}

// Free CPU milli of the node for dot product and best fit: a node with unlimited CPU reads as an
// entirely free node of the largest CPU capacity in the fleet; with no CPU limit anywhere, CPU
// is left out (0 free, 0 asked).
std::int64_t CpuForScores(double free_cores, const FleetScale& fleet) {
  if (!fleet.cpu_limited) {
    return 0;
  }
  return std::isinf(free_cores) ? fleet.scale.max_node_cpu_milli : MilliCores(free_cores);
}

// Fills `c` for the node; false if the node cannot take the pod (down or cordoned, too little
// CPU or memory for the whole host need, too few usable GPUs).
bool Consider(const FleetState& state, NodeId node, int model, const JobRequest& request,
              const SharePod& pod, const HostNeed& need, const FleetScale& fleet, Candidate& c) {
  if (!state.IsUp(node) || !NodeCanCarry(state, node, need)) {
    return false;
  }
  const GpuId first = state.FirstGpuOfNode(node);
  const auto count = static_cast<std::size_t>(state.EndGpuOfNode(node) - first);
  const bool fraction = request.sharing == GpuSharing::kFraction;
  NodeFreeState& free = c.shared.free;
  std::uint32_t usable = 0;
  std::uint32_t short_of_memory = 0;
  for (std::size_t g = 0; g < count; ++g) {
    const auto gpu = static_cast<GpuId>(first + g);
    const int milli = state.FreeMilli(gpu);
    free.gpu_free[g] = milli;
    if (fraction ? milli >= pod.gpu_milli : milli == kGpuMilli) {  // whole: idle and up
      if (!fraction || state.FreeGpuMemoryGb(gpu) >= request.gpu_memory_gb) {
        usable |= 1U << g;
      } else {
        short_of_memory |= 1U << g;
      }
    }
  }
  if (std::popcount(usable) < pod.gpus) {
    return false;
  }
  std::fill(free.gpu_free.begin() + static_cast<std::ptrdiff_t>(count), free.gpu_free.end(), 0);
  c.node = node;
  c.usable = usable;
  c.short_of_memory = pod.IsShare() ? short_of_memory : 0U;
  const double free_cores = state.FreeCpuCores(node);
  c.fgd_cpu = std::isinf(free_cores) ? kUnlimitedCpuMilli : MilliCores(free_cores);
  free.cpu_free_milli = CpuForScores(free_cores, fleet);
  free.model = count > 0 ? model : -1;
  free.gpu_count = count;
  return true;
}

class Scorer {
 public:
  Scorer(const FleetLedger& ledger, GpuSharePolicy policy, const SharePod& pod,
         const FleetScale& fleet)
      : ledger_(ledger), policy_(policy), pod_(pod), fleet_(fleet) {
    scored_pod_ = pod;
    scored_pod_.cpu_milli = fleet.cpu_limited ? pod.cpu_milli : 0;
  }

  // The node's score; for FGD and a share also the GPU it would take.
  FgdChoice Score(Candidate& c) const {
    switch (policy_) {
      case GpuSharePolicy::kRandom:
        return {};
      case GpuSharePolicy::kDotProduct:
        return {.score = DotProductScore(c.shared, scored_pod_, fleet_.scale)};
      case GpuSharePolicy::kGpuClustering:
        c.shared.pod_kinds = ledger_.PodKindsOn(c.node);
        return {.score = GpuClusteringScore(c.shared, scored_pod_, fleet_.scale)};
      case GpuSharePolicy::kGpuPacking:
        if (c.short_of_memory != 0) {
          SharedNode usable_only = c.shared;
          usable_only.free = Hiding(c.shared.free, c.short_of_memory);
          return {.score = GpuPackingScore(usable_only, scored_pod_)};
        }
        return {.score = GpuPackingScore(c.shared, scored_pod_)};
      case GpuSharePolicy::kBestFit:
        return {.score = BestFitScore(c.shared, scored_pod_, fleet_.scale)};
      case GpuSharePolicy::kFgd:
        return Fgd(c);
    }
    return {};
  }

 private:
  // FgdScore on the node with FGD's CPU. It tries only the usable GPUs (those short of memory
  // read as full) and measures F on the real state (they are put back).
  FgdChoice Fgd(const Candidate& c) const {
    SharedNode node;
    node.free = Hiding(c.shared.free, c.short_of_memory);
    node.free.cpu_free_milli = c.fgd_cpu;
    const TypicalTaskTally& tally = ledger_.typical_tasks();
    return FgdScore(node, pod_, [&](const NodeFreeState& state) {
      if (c.short_of_memory == 0) {
        return tally.Fragmentation(state);
      }
      NodeFreeState real = state;
      for (std::size_t g = 0; g < real.gpu_count; ++g) {
        if ((c.short_of_memory >> g & 1U) != 0) {
          real.gpu_free[g] = c.shared.free.gpu_free[g];
        }
      }
      return tally.Fragmentation(real);
    });
  }

  const FleetLedger& ledger_;
  GpuSharePolicy policy_;
  SharePod pod_;
  SharePod scored_pod_;  // CPU as the dot-product and best-fit scores see it
  const FleetScale& fleet_;
};

// The pod's GPUs on the chosen node.
std::vector<GpuId> ChooseGpus(const FleetState& state, const Candidate& c, const SharePod& pod,
                              GpuSharePolicy policy, int fgd_gpu, Rng& rng) {
  const GpuId first = state.FirstGpuOfNode(c.node);
  const std::size_t count = c.shared.free.gpu_count;
  if (!pod.IsShare()) {  // whole GPUs (or a share of all of one): the lowest usable
    std::vector<GpuId> gpus;
    for (std::size_t g = 0; g < count && std::ssize(gpus) < pod.gpus; ++g) {
      if ((c.usable >> g & 1U) != 0) {
        gpus.push_back(static_cast<GpuId>(first + g));
      }
    }
    return gpus;
  }
  int gpu = -1;
  switch (policy) {
    case GpuSharePolicy::kRandom: {
      const std::int64_t pick = UniformInt(rng, 0, std::popcount(c.usable) - 1);
      std::int64_t seen = 0;
      for (std::size_t g = 0; g < count && gpu < 0; ++g) {
        if ((c.usable >> g & 1U) != 0 && seen++ == pick) {
          gpu = static_cast<int>(g);
        }
      }
      break;
    }
    case GpuSharePolicy::kFgd:
      gpu = fgd_gpu;
      break;
    default:
      gpu = BestFitGpu(Hiding(c.shared.free, c.short_of_memory), pod.gpu_milli);
      break;
  }
  FLEETSIM_CHECK(gpu >= 0 && (c.usable >> gpu & 1U) != 0, "a share scorer chose an unusable GPU");
  return {static_cast<GpuId>(first + static_cast<GpuId>(gpu))};
}

}  // namespace

std::optional<Allocation> PlaceByShareScore(const FleetLedger& ledger, const JobRequest& request,
                                            GpuSharePolicy scorer,
                                            std::optional<std::int64_t> exact_gpus) {
  const std::optional<SharePod> pod = PodOf(request, exact_gpus);
  if (!pod) {
    return std::nullopt;
  }
  const FleetScale fleet = ScaleOf(ledger);
  if (!fleet.scorable) {
    return std::nullopt;
  }
  const HostNeed need = HostNeedOf(request);
  const Scorer score(ledger, scorer, *pod, fleet);
  Rng rng(Fnv1a64(request.id));
  Candidate candidate;
  Candidate best;
  FgdChoice best_choice;
  std::int64_t feasible = 0;
  const bool gpu_job = pod->gpus > 0;
  for (PoolIndex p = 0; p < ledger.pools().size(); ++p) {
    const PoolSpec& pool = ledger.pools()[p];
    if (gpu_job ? !AcceptsPool(request, pool) : !AcceptsTier(request, pool)) {
      continue;
    }
    if (pod->gpus > 1 && request.nvlink != NvlinkLocality::kNone &&
        pool.node.nvlink_domain_gpus < pool.node.gpus_per_node) {
      continue;  // a node of several NVLink domains: its GPUs may span them
    }
    const int model = ledger.typical_tasks().ModelOfPool(p);
    for (NodeId node = ledger.FirstNodeOf(p); node < ledger.EndNodeOf(p); ++node) {
      if (!Consider(ledger.state(), node, model, request, *pod, need, fleet, candidate)) {
        continue;
      }
      ++feasible;
      if (scorer == GpuSharePolicy::kRandom) {  // uniform over the feasible nodes (reservoir)
        if (feasible == 1 || UniformInt(rng, 0, feasible - 1) == 0) {
          best = candidate;
        }
        continue;
      }
      const FgdChoice choice = score.Score(candidate);
      if (feasible == 1 || choice.score > best_choice.score) {  // ties: the lowest node
        best = candidate;
        best_choice = choice;
      }
    }
  }
  if (feasible == 0) {
    return std::nullopt;
  }
  const std::vector<GpuId> gpus =
      ChooseGpus(ledger.state(), best, *pod, scorer, best_choice.share_gpu, rng);
  Allocation placement;
  if (request.sharing == GpuSharing::kFraction && !request.IsCpuOnly()) {
    placement.gpus = {
        Grant::Fraction(gpus.front(), static_cast<int>(request.gpu_milli), request.gpu_memory_gb)};
  } else {
    placement = WholeGpus(gpus);
  }
  if (need.any() || gpus.empty()) {
    placement.nodes = {{best.node, need.cpu_cores, need.memory_gb}};
  }
  return placement;
}

}  // namespace fleetsim
