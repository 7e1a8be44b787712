// The six GPU-sharing placement policies of Weng et al. (ATC'23) and the cluster state they read.
#include "fleetsim/fleet/gpu_share_placement.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

#include "fleetsim/core/check.h"

namespace fleetsim {

namespace {

constexpr std::array kPolicies = {GpuSharePolicy::kRandom,        GpuSharePolicy::kDotProduct,
                                  GpuSharePolicy::kGpuClustering, GpuSharePolicy::kGpuPacking,
                                  GpuSharePolicy::kBestFit,       GpuSharePolicy::kFgd};

// Integer truncation of a score computed in floating point, as the paper's simulator does.
int Truncated(double score) { return static_cast<int>(static_cast<std::int64_t>(score)); }

double Sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

// The state after the pod takes CPU and, for a GPU pod, `gpus` GPUs that hold its share: the
// given GPU for a share pod, else the fitting GPUs with the least free first.
NodeFreeState After(const NodeFreeState& node, const SharePod& pod, int share_gpu) {
  NodeFreeState after = node;
  after.cpu_free_milli -= pod.cpu_milli;
  if (pod.gpus == 0) {
    return after;
  }
  if (pod.IsShare()) {
    FLEETSIM_CHECK(share_gpu >= 0, "After: a share pod needs its GPU");
    after.gpu_free[static_cast<std::size_t>(share_gpu)] -= static_cast<std::int32_t>(pod.gpu_milli);
    return after;
  }
  std::array<std::size_t, kMaxSharedNodeGpus> order{};
  for (std::size_t g = 0; g < node.gpu_count; ++g) {
    order[g] = g;
  }
  std::stable_sort(
      order.begin(), order.begin() + static_cast<std::ptrdiff_t>(node.gpu_count),
      [&](std::size_t a, std::size_t b) { return node.gpu_free[a] < node.gpu_free[b]; });
  std::int64_t taken = 0;
  for (std::size_t i = 0; i < node.gpu_count && taken < pod.gpus; ++i) {
    if (node.gpu_free[order[i]] >= pod.gpu_milli) {
      after.gpu_free[order[i]] -= static_cast<std::int32_t>(pod.gpu_milli);
      ++taken;
    }
  }
  return after;
}

std::size_t CountFitting(const NodeFreeState& node, std::int64_t gpu_milli) {
  std::size_t fitting = 0;
  for (std::size_t g = 0; g < node.gpu_count; ++g) {
    fitting += node.gpu_free[g] >= gpu_milli ? 1U : 0U;
  }
  return fitting;
}

// `free` with the GPUs of `hidden` read as full.
NodeFreeState Hiding(NodeFreeState free, std::uint32_t hidden) {
  for (std::size_t g = 0; g < free.gpu_count; ++g) {
    if ((hidden >> g & 1U) != 0) {
      free.gpu_free[g] = 0;
    }
  }
  return free;
}

}  // namespace

std::span<const GpuSharePolicy> GpuSharePolicies() { return kPolicies; }

std::string_view GpuSharePolicyName(GpuSharePolicy policy) {
  switch (policy) {
    case GpuSharePolicy::kRandom:
      return "random";
    case GpuSharePolicy::kDotProduct:
      return "dot-product";
    case GpuSharePolicy::kGpuClustering:
      return "gpu-clustering";
    case GpuSharePolicy::kGpuPacking:
      return "gpu-packing";
    case GpuSharePolicy::kBestFit:
      return "best-fit";
    case GpuSharePolicy::kFgd:
      return "fgd";
  }
  return "";
}

std::optional<GpuSharePolicy> FindGpuSharePolicy(std::string_view name) {
  for (const GpuSharePolicy policy : kPolicies) {
    if (GpuSharePolicyName(policy) == name) {
      return policy;
    }
  }
  return std::nullopt;
}

std::vector<std::string> GpuSharePolicyNames() {
  std::vector<std::string> names;
  for (const GpuSharePolicy policy : kPolicies) {
    names.emplace_back(GpuSharePolicyName(policy));
  }
  return names;
}

std::uint8_t PodKindOf(const SharePod& pod) {
  if (pod.gpus == 0) {
    return 0;
  }
  if (pod.IsShare()) {
    return kShareKind;
  }
  switch (pod.gpus) {
    case 1:
      return kOneGpuKind;
    case 2:
      return kTwoGpuKind;
    case 4:
      return kFourGpuKind;
    case 8:
      return kEightGpuKind;
    default:
      return kOtherGpuKind;
  }
}

bool Fits(const SharedNode& node, const SharePod& pod) {
  if (node.free.cpu_free_milli < pod.cpu_milli || node.memory_free_mib < pod.memory_mib) {
    return false;
  }
  if (pod.gpus == 0) {
    return true;
  }
  return node.free.gpu_count > 0 && node.free.Accepts(pod.models) &&
         static_cast<std::int64_t>(CountFitting(node.free, pod.gpu_milli)) >= pod.gpus;
}

SharedCluster::SharedCluster(std::vector<SharedNode> nodes, TypicalTasks typical)
    : nodes_(std::move(nodes)), versions_(nodes_.size(), 0), typical_(std::move(typical)) {
  for (const SharedNode& node : nodes_) {
    FLEETSIM_CHECK(node.free.gpu_count <= kMaxSharedNodeGpus,
                   "SharedCluster: a node has more GPUs than kMaxSharedNodeGpus");
    for (std::size_t g = 0; g < node.free.gpu_count; ++g) {
      FLEETSIM_CHECK(node.free.gpu_free[g] >= 0 && node.free.gpu_free[g] <= kGpuMilli,
                     "SharedCluster: a GPU's free share is outside [0, 1000]");
    }
    const std::int64_t gpu_milli = static_cast<std::int64_t>(node.free.gpu_count) * kGpuMilli;
    capacity_milli_ += gpu_milli;
    allocated_milli_ += gpu_milli - IdleMilli(node.free);
    scale_.max_node_cpu_milli = std::max(scale_.max_node_cpu_milli, node.cpu_capacity_milli);
    scale_.max_node_gpu_milli = std::max(scale_.max_node_gpu_milli, gpu_milli);
  }
}

bool SharedCluster::Offer(std::size_t n, const SharePod& pod, ShareCandidate& out) const {
  const SharedNode& node = nodes_[n];
  if (!Fits(node, pod)) {
    return false;
  }
  out.node = &node;
  out.fgd_cpu_milli = node.free.cpu_free_milli;
  out.short_of_memory = 0;
  out.usable = 0;
  if (pod.gpus > 0) {
    for (std::size_t g = 0; g < node.free.gpu_count; ++g) {
      out.usable |= node.free.gpu_free[g] >= pod.gpu_milli ? 1U << g : 0U;
    }
  }
  return true;
}

double SharedCluster::Fragmentation(const NodeFreeState& state) const {
  return fragmentation_.Get(state, typical_);
}

void SharedCluster::Place(std::size_t node_index, const SharePod& pod, int share_gpu) {
  SharedNode& node = nodes_[node_index];
  FLEETSIM_CHECK(Fits(node, pod), "SharedCluster::Place: the pod does not fit the node");
  node.free.cpu_free_milli -= pod.cpu_milli;
  node.memory_free_mib -= pod.memory_mib;
  if (pod.IsShare()) {
    FLEETSIM_CHECK(share_gpu >= 0 && static_cast<std::size_t>(share_gpu) < node.free.gpu_count &&
                       node.free.gpu_free[static_cast<std::size_t>(share_gpu)] >= pod.gpu_milli,
                   "SharedCluster::Place: the share GPU cannot hold the pod");
    node.free.gpu_free[static_cast<std::size_t>(share_gpu)] -=
        static_cast<std::int32_t>(pod.gpu_milli);
  } else {
    std::int64_t taken = 0;
    for (std::size_t g = 0; g < node.free.gpu_count && taken < pod.gpus; ++g) {
      if (node.free.gpu_free[g] >= pod.gpu_milli) {
        node.free.gpu_free[g] -= static_cast<std::int32_t>(pod.gpu_milli);
        ++taken;
      }
    }
  }
  node.pod_kinds |= PodKindOf(pod);
  allocated_milli_ += pod.GpuDemandMilli();
  ++versions_[node_index];
}

// ---- Scores -------------------------------------------------------------------------------------

int BestFitGpu(const NodeFreeState& node, std::int64_t gpu_milli) {
  std::optional<std::size_t> best;
  for (std::size_t g = 0; g < node.gpu_count; ++g) {
    if (node.gpu_free[g] >= gpu_milli && (!best || node.gpu_free[g] < node.gpu_free[*best])) {
      best = g;
    }
  }
  return best ? static_cast<int>(*best) : -1;
}

int DotProductScore(const SharedNode& node, const SharePod& pod, const ClusterScale& scale) {
  const auto cpu_scale = static_cast<double>(scale.max_node_cpu_milli);
  const auto gpu_scale = static_cast<double>(scale.max_node_gpu_milli);
  const double free_cpu = static_cast<double>(node.free.cpu_free_milli) / cpu_scale;
  const double free_gpu = static_cast<double>(IdleMilli(node.free)) / gpu_scale;
  const double want_cpu = static_cast<double>(pod.cpu_milli) / cpu_scale;
  const double want_gpu = static_cast<double>(pod.GpuDemandMilli()) / gpu_scale;
  const double dot = (free_cpu * want_cpu + free_gpu * want_gpu) / 2;
  return Truncated(100 * (1 - dot));
}

int BestFitScore(const SharedNode& node, const SharePod& pod, const ClusterScale& scale) {
  const double left_cpu = static_cast<double>(node.free.cpu_free_milli - pod.cpu_milli) /
                          static_cast<double>(scale.max_node_cpu_milli);
  const double left_gpu = static_cast<double>(IdleMilli(node.free) - pod.GpuDemandMilli()) /
                          static_cast<double>(scale.max_node_gpu_milli);
  return Truncated(100 * (1 - (0.5 * left_cpu + 0.5 * left_gpu)));
}

int GpuClusteringScore(const SharedNode& node, const SharePod& pod, const ClusterScale& scale) {
  const std::uint8_t kind = PodKindOf(pod);
  if (kind == 0) {
    return 0;
  }
  const std::int64_t base =
      25 * (scale.max_node_gpu_milli - IdleMilli(node.free)) / scale.max_node_gpu_milli;
  if (node.pod_kinds == 0) {
    return static_cast<int>(base + 25);
  }
  if ((node.pod_kinds & kind) == 0) {
    return static_cast<int>(base);
  }
  const bool only_this_kind = node.pod_kinds == kind;
  return static_cast<int>(base + (only_this_kind ? 75 : 50));
}

int GpuPackingScore(const SharedNode& node, const SharePod& pod) {
  if (pod.gpus == 0) {
    return 0;
  }
  const NodeFreeState& free = node.free;
  if (CountFitting(free, kGpuMilli) == free.gpu_count) {
    return 33 - static_cast<int>(free.gpu_count);  // an untouched node: fewer GPUs first
  }
  std::array<std::size_t, kMaxSharedNodeGpus> order{};
  for (std::size_t g = 0; g < free.gpu_count; ++g) {
    order[g] = g;
  }
  std::stable_sort(
      order.begin(), order.begin() + static_cast<std::ptrdiff_t>(free.gpu_count),
      [&](std::size_t a, std::size_t b) { return free.gpu_free[a] < free.gpu_free[b]; });
  std::int64_t taken = 0;
  int fully_free_taken = 0;
  std::int64_t free_percent_sum = 0;
  for (std::size_t i = 0; i < free.gpu_count && taken < pod.gpus; ++i) {
    const std::int32_t f = free.gpu_free[order[i]];
    if (f >= pod.gpu_milli) {
      ++taken;
      fully_free_taken += f == kGpuMilli ? 1 : 0;
      free_percent_sum += 100 * f / kGpuMilli;
    }
  }
  if (fully_free_taken > 0) {
    return std::max(50 - fully_free_taken, 33);  // a free GPU on a node already in use
  }
  return static_cast<int>(std::max<std::int64_t>(100 - free_percent_sum / 10, 50));
}

FgdChoice FgdScore(const SharedNode& node, const SharePod& pod,
                   const FragmentationOf& fragmentation) {
  const double before = fragmentation(node.free);
  const auto score_after = [&](int share_gpu) {
    const double after = fragmentation(After(node.free, pod, share_gpu));
    return Truncated(100 * Sigmoid((before - after) / static_cast<double>(kGpuMilli)));
  };
  if (!pod.IsShare()) {
    return {.score = score_after(-1), .share_gpu = -1};
  }
  FgdChoice best{.score = -1, .share_gpu = -1};
  for (std::size_t g = 0; g < node.free.gpu_count; ++g) {
    const std::int32_t f = node.free.gpu_free[g];
    const bool same_as_earlier =
        std::find(node.free.gpu_free.begin(),
                  node.free.gpu_free.begin() + static_cast<std::ptrdiff_t>(g),
                  f) != node.free.gpu_free.begin() + static_cast<std::ptrdiff_t>(g);
    if (f < pod.gpu_milli || same_as_earlier) {
      continue;  // an earlier GPU with the same free share scores the same
    }
    if (const int score = score_after(static_cast<int>(g)); score > best.score) {
      best = {.score = score, .share_gpu = static_cast<int>(g)};
    }
  }
  return best;
}

// ---- The placer ---------------------------------------------------------------------------------

namespace {

// FgdScore on an offered node: it tries only the usable GPUs (those short of memory read as
// full), with FGD's free CPU, and measures F with the hidden GPUs as they really are.
FgdChoice FgdOn(const ShareCandidate& c, const SharePod& pod, const ShareNodes& nodes) {
  SharedNode node;
  node.free = Hiding(c.node->free, c.short_of_memory);
  node.free.cpu_free_milli = c.fgd_cpu_milli;
  return FgdScore(node, pod, [&](const NodeFreeState& state) {
    if (c.short_of_memory == 0) {
      return nodes.Fragmentation(state);
    }
    NodeFreeState real = state;
    for (std::size_t g = 0; g < real.gpu_count; ++g) {
      if ((c.short_of_memory >> g & 1U) != 0) {
        real.gpu_free[g] = c.node->free.gpu_free[g];
      }
    }
    return nodes.Fragmentation(real);
  });
}

}  // namespace

GpuSharePlacer::GpuSharePlacer(GpuSharePolicy policy, std::vector<std::uint32_t> tie_rank, Rng rng)
    : policy_(policy), tie_rank_(std::move(tie_rank)), rng_(rng) {}

std::size_t GpuSharePlacer::FgdShapeId(std::size_t node_count, const SharePod& pod) {
  const auto [shape, added] = shape_ids_.try_emplace(
      std::make_tuple(pod.cpu_milli, pod.gpus, pod.gpu_milli), fgd_cache_.size());
  if (added) {
    fgd_cache_.emplace_back(node_count);
  }
  return shape->second;
}

FgdChoice GpuSharePlacer::CachedFgd(const ShareNodes& nodes, const Offered& offered,
                                    const SharePod& pod) {
  if (!nodes.cacheable()) {
    return FgdOn(offered.candidate, pod, nodes);
  }
  CachedScore& cached = fgd_cache_[fgd_shape_][offered.node];
  const std::uint64_t version = nodes.version(offered.node) + 1;
  if (cached.version != version) {
    cached.version = version;
    cached.choice = FgdOn(offered.candidate, pod, nodes);
  }
  return cached.choice;
}

FgdChoice GpuSharePlacer::Score(const ShareNodes& nodes, const Offered& offered,
                                const SharePod& pod, const SharePod& scored_pod) {
  const ShareCandidate& c = offered.candidate;
  const SharedNode& node = *c.node;
  switch (policy_) {
    case GpuSharePolicy::kRandom:
      return {};
    case GpuSharePolicy::kDotProduct:
      return {.score = DotProductScore(node, scored_pod, nodes.scale())};
    case GpuSharePolicy::kGpuClustering:
      return {.score = GpuClusteringScore(node, scored_pod, nodes.scale())};
    case GpuSharePolicy::kGpuPacking:
      if (c.short_of_memory != 0) {
        SharedNode usable_only = node;
        usable_only.free = Hiding(node.free, c.short_of_memory);
        return {.score = GpuPackingScore(usable_only, scored_pod)};
      }
      return {.score = GpuPackingScore(node, scored_pod)};
    case GpuSharePolicy::kBestFit:
      return {.score = BestFitScore(node, scored_pod, nodes.scale())};
    case GpuSharePolicy::kFgd:
      return CachedFgd(nodes, offered, pod);
  }
  return {};
}

int GpuSharePlacer::ShareGpu(const Offered& winner, const SharePod& pod, int fgd_gpu) {
  const ShareCandidate& c = winner.candidate;
  switch (policy_) {
    case GpuSharePolicy::kRandom: {
      const std::int64_t pick = UniformInt(rng_, 0, std::popcount(c.usable) - 1);
      std::int64_t seen = 0;
      for (std::size_t g = 0; g < c.node->free.gpu_count; ++g) {
        if ((c.usable >> g & 1U) != 0 && seen++ == pick) {
          return static_cast<int>(g);
        }
      }
      return -1;
    }
    case GpuSharePolicy::kFgd:
      return fgd_gpu;
    default:
      return BestFitGpu(Hiding(c.node->free, c.short_of_memory), pod.gpu_milli);
  }
}

bool GpuSharePlacer::WinsTie(std::size_t node, std::size_t other) const {
  return tie_rank_.empty() ? node < other : tie_rank_[node] < tie_rank_[other];
}

std::optional<ShareChoice> GpuSharePlacer::Choose(const ShareNodes& nodes, const SharePod& pod) {
  FLEETSIM_CHECK(tie_rank_.empty() || tie_rank_.size() == nodes.node_count(),
                 "GpuSharePlacer: the tie rank must order every node of the cluster");
  if (policy_ == GpuSharePolicy::kRandom) {
    return ChooseAtRandom(nodes, pod);
  }
  if (policy_ == GpuSharePolicy::kFgd && nodes.cacheable()) {
    fgd_shape_ = FgdShapeId(nodes.node_count(), pod);
  }
  // One pass: each offered node is scored as it comes; the best so far is the only copy kept.
  SharePod scored_pod = pod;
  scored_pod.cpu_milli = nodes.cpu_scored() ? pod.cpu_milli : 0;
  std::optional<Offered> best;
  FgdChoice best_choice;
  Offered next;
  for (std::size_t n = 0; n < nodes.node_count(); ++n) {
    if (!nodes.Offer(n, pod, next.candidate)) {
      continue;
    }
    next.node = n;
    const FgdChoice choice = Score(nodes, next, pod, scored_pod);
    if (!best || choice.score > best_choice.score ||
        (choice.score == best_choice.score && WinsTie(n, best->node))) {
      best = next;
      best_choice = choice;
    }
  }
  if (!best) {
    return std::nullopt;
  }
  return ChoiceOn(*best, pod, best_choice.share_gpu);
}

std::optional<ShareChoice> GpuSharePlacer::ChooseAtRandom(const ShareNodes& nodes,
                                                          const SharePod& pod) {
  offered_.clear();
  Offered winner;
  for (std::size_t n = 0; n < nodes.node_count(); ++n) {
    if (nodes.Offer(n, pod, winner.candidate)) {
      offered_.push_back(n);
    }
  }
  if (offered_.empty()) {
    return std::nullopt;
  }
  winner.node = offered_.front();
  if (offered_.size() > 1) {
    winner.node = offered_[static_cast<std::size_t>(
        UniformInt(rng_, 0, static_cast<std::int64_t>(offered_.size()) - 1))];
  }
  FLEETSIM_CHECK(nodes.Offer(winner.node, pod, winner.candidate),
                 "GpuSharePlacer: a node offered a moment ago is not offered again");
  return ChoiceOn(winner, pod, /*fgd_gpu=*/-1);
}

ShareChoice GpuSharePlacer::ChoiceOn(const Offered& winner, const SharePod& pod, int fgd_gpu) {
  const ShareCandidate& c = winner.candidate;
  ShareChoice choice{.node = winner.node};
  if (pod.IsShare()) {
    choice.share_gpu = ShareGpu(winner, pod, fgd_gpu);
    FLEETSIM_CHECK(choice.share_gpu >= 0 && (c.usable >> choice.share_gpu & 1U) != 0,
                   "GpuSharePlacer: a share scorer chose an unusable GPU");
    choice.gpus = 1U << choice.share_gpu;
    return choice;
  }
  std::int64_t taken = 0;
  for (std::size_t g = 0; g < c.node->free.gpu_count && taken < pod.gpus; ++g) {
    if ((c.usable >> g & 1U) != 0) {
      choice.gpus |= 1U << g;
      ++taken;
    }
  }
  return choice;
}

}  // namespace fleetsim
