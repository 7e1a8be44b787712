// The `share-*` placement rules: the fleet ledger as a node source of the GPU-sharing placer.
#include "policy/share_scoring.h"

#include <algorithm>
#include <bit>
#include <cmath>
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

// The fleet ledger as the GPU-sharing placer's node source: a node is offered if it is up, in a
// pool the request accepts, has CPU and memory for its whole host need and enough usable GPUs.
// Lives for one placement (nothing changes while it is in use).
class LedgerShareNodes final : public ShareNodes {
 public:
  LedgerShareNodes(const FleetLedger& ledger, const JobRequest& request, const SharePod& pod,
                   const FleetScale& fleet)
      : ledger_(ledger), request_(request), need_(HostNeedOf(request)), fleet_(fleet) {
    const auto pools = ledger.pools();
    for (PoolIndex p = 0; p < pools.size(); ++p) {
      const bool accepted =
          pod.gpus > 0 ? AcceptsPool(request, pools[p]) : AcceptsTier(request, pools[p]);
      // A node of several NVLink domains: a multi-GPU job's GPUs may span them.
      const bool spans_domains = pod.gpus > 1 && request.nvlink != NvlinkLocality::kNone &&
                                 pools[p].node.nvlink_domain_gpus < pools[p].node.gpus_per_node;
      const int model =
          accepted && !spans_domains ? ledger.typical_tasks().ModelOfPool(p) : kNotOffered;
      model_of_node_.insert(model_of_node_.end(),
                            static_cast<std::size_t>(ledger.EndNodeOf(p) - ledger.FirstNodeOf(p)),
                            model);
    }
    states_.resize(model_of_node_.size());
  }

  std::size_t node_count() const override { return model_of_node_.size(); }
  // Offers depend on the request (its GPU memory, pools and host need), not only on the pod.
  bool cacheable() const override { return false; }
  std::uint64_t version(std::size_t /*n*/) const override { return 0; }
  const ClusterScale& scale() const override { return fleet_.scale; }
  bool cpu_scored() const override { return fleet_.cpu_limited; }
  double Fragmentation(const NodeFreeState& state) const override {
    return ledger_.typical_tasks().Fragmentation(state);
  }

  bool Offer(std::size_t n, const SharePod& pod, ShareCandidate& c) const override {
    const FleetState& state = ledger_.state();
    const auto node = static_cast<NodeId>(n);
    if (model_of_node_[n] == kNotOffered || !state.IsUp(node) ||
        !NodeCanCarry(state, node, need_)) {
      return false;
    }
    SharedNode& shared = states_[n];
    c.node = &shared;
    if (!ReadGpus(node, pod, shared.free, c)) {
      return false;
    }
    if (!pod.IsShare()) {
      c.short_of_memory = 0;
    }
    const double free_cores = state.FreeCpuCores(node);
    c.fgd_cpu_milli = std::isinf(free_cores) ? kUnlimitedCpuMilli : MilliCores(free_cores);
    shared.free.cpu_free_milli = CpuForScores(free_cores, fleet_);
    shared.free.model = shared.free.gpu_count > 0 ? model_of_node_[n] : -1;
    shared.pod_kinds = ledger_.PodKindsOn(node);
    return true;
  }

 private:
  // The node's GPUs into `free` (free milli; GPUs past the node's count read 0) and the usable and
  // short-of-memory masks into `c`; false if too few GPUs are usable.
  bool ReadGpus(NodeId node, const SharePod& pod, NodeFreeState& free, ShareCandidate& c) const {
    const FleetState& state = ledger_.state();
    const GpuId first = state.FirstGpuOfNode(node);
    const auto count = static_cast<std::size_t>(state.EndGpuOfNode(node) - first);
    const bool fraction = request_.sharing == GpuSharing::kFraction;
    c.usable = 0;
    c.short_of_memory = 0;
    for (std::size_t g = 0; g < count; ++g) {
      const auto gpu = static_cast<GpuId>(first + g);
      const int milli = state.FreeMilli(gpu);
      free.gpu_free[g] = milli;
      if (fraction ? milli >= pod.gpu_milli : milli == kGpuMilli) {  // whole: idle and up
        if (!fraction || state.FreeGpuMemoryGb(gpu) >= request_.gpu_memory_gb) {
          c.usable |= 1U << g;
        } else {
          c.short_of_memory |= 1U << g;
        }
      }
    }
    std::fill(free.gpu_free.begin() + static_cast<std::ptrdiff_t>(count), free.gpu_free.end(), 0);
    free.gpu_count = count;
    return std::popcount(c.usable) >= pod.gpus;
  }

  static constexpr int kNotOffered = -2;  // a node of a pool the request does not take

  const FleetLedger& ledger_;
  const JobRequest& request_;
  HostNeed need_;
  const FleetScale& fleet_;
  std::vector<int> model_of_node_;          // by node: its pool's model index, or kNotOffered
  mutable std::vector<SharedNode> states_;  // by node: as last offered
};

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
  const LedgerShareNodes nodes(ledger, request, *pod, fleet);
  GpuSharePlacer placer(scorer, /*tie_rank=*/{}, Rng(Fnv1a64(request.id)));
  const std::optional<ShareChoice> choice = placer.Choose(nodes, *pod);
  if (!choice) {
    return std::nullopt;
  }
  const auto node = static_cast<NodeId>(choice->node);
  std::vector<GpuId> gpus;
  for (std::size_t g = 0; g < kMaxSharedNodeGpus; ++g) {
    if ((choice->gpus >> g & 1U) != 0) {
      gpus.push_back(static_cast<GpuId>(ledger.state().FirstGpuOfNode(node) + g));
    }
  }
  Allocation placement;
  if (request.sharing == GpuSharing::kFraction && !request.IsCpuOnly()) {
    placement.gpus = {
        Grant::Fraction(gpus.front(), static_cast<int>(request.gpu_milli), request.gpu_memory_gb)};
  } else {
    placement = WholeGpus(gpus);
  }
  const HostNeed need = HostNeedOf(request);
  if (need.any() || gpus.empty()) {
    placement.nodes = {{node, need.cpu_cores, need.memory_gb}};
  }
  return placement;
}

}  // namespace fleetsim
