// Node and GPU choice for a pod on a GPU-sharing cluster, by the six placement policies Weng et
// al. compare ("Beware of Fragmentation", USENIX ATC'23): random, dot-product, GPU clustering,
// GPU packing, best fit and FGD (fragmentation gradient descent). Each scores every node that can
// take the pod (CPU, memory, GPU model, enough GPUs with enough free share) with an integer; the
// highest score wins and equal scores go to the node of lowest tie rank, a fixed order the caller
// draws once (the paper's simulator breaks ties by a random static node order). docs/policies.md
// ("GPU-sharing placement") defines every score; docs/fgd-reproduction-spec.md cites the sources.
//
// GpuSharePlacer picks the node and GPUs over a ShareNodes source, caching FGD's scores per node
// state: the fill experiment's SharedCluster and a scheduling run's fleet ledger (the `share-*`
// placement strategies) are two sources of one choice. The score functions are exposed for tests
// and for other callers. Not thread-safe: one placer and one source per run.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "fleetsim/core/random.h"
#include "fleetsim/fleet/gpu_fragmentation.h"

namespace fleetsim {

enum class GpuSharePolicy { kRandom, kDotProduct, kGpuClustering, kGpuPacking, kBestFit, kFgd };

// Every policy, in the paper's order (random first, FGD last).
std::span<const GpuSharePolicy> GpuSharePolicies();
std::string_view GpuSharePolicyName(GpuSharePolicy policy);  // "random", "dot-product", ...
std::optional<GpuSharePolicy> FindGpuSharePolicy(std::string_view name);
std::vector<std::string> GpuSharePolicyNames();

// What a pod asks of one node.
struct SharePod {
  std::int64_t cpu_milli = 0;
  std::int64_t memory_mib = 0;
  std::int64_t gpus = 0;       // 0 for a CPU-only pod
  std::int64_t gpu_milli = 0;  // per GPU: 1000 for whole GPUs, 1..999 for a share, 0 CPU-only
  GpuModelMask models = 0;     // 0: any model

  bool IsShare() const { return gpus == 1 && gpu_milli < kGpuMilli; }
  std::int64_t GpuDemandMilli() const { return gpus * gpu_milli; }
};

// The kinds of GPU pod a node may hold, as bits of SharedNode::pod_kinds (GPU clustering).
enum PodKindBit : std::uint8_t {
  kShareKind = 1U << 0,
  kOneGpuKind = 1U << 1,
  kTwoGpuKind = 1U << 2,
  kFourGpuKind = 1U << 3,
  kEightGpuKind = 1U << 4,
  kOtherGpuKind = 1U << 5,  // whole-GPU pods of any other count
};
// The kind bit of a GPU pod; 0 for a CPU-only pod.
std::uint8_t PodKindOf(const SharePod& pod);

struct SharedNode {
  NodeFreeState free{};
  std::int64_t cpu_capacity_milli = 0;
  std::int64_t memory_free_mib = 0;
  std::uint8_t pod_kinds = 0;  // PodKindBit of every GPU pod placed on it
};

// Whether the node can take the pod: CPU, memory, and for a GPU pod the model and `gpus` GPUs
// with at least `gpu_milli` free each.
bool Fits(const SharedNode& node, const SharePod& pod);

// The largest node CPU and GPU milli of a cluster: the scale of the dot-product, best-fit and
// GPU-clustering scores (the paper's simulator normalises by the largest node spec, 128 cores
// and 8 GPUs on openb).
struct ClusterScale {
  std::int64_t max_node_cpu_milli = 1;
  std::int64_t max_node_gpu_milli = kGpuMilli;
};

// One node that can take a pod, as the scorers read it: what a ShareNodes source offers.
struct ShareCandidate {
  // The node's state for the dot-product, best-fit, GPU-clustering and GPU-packing scores (its
  // CPU as the source's cpu_scored() says) and, with the unusable GPUs read as full, for FGD:
  // the source's own record of it, valid until the source next changes (nothing is copied).
  const SharedNode* node = nullptr;
  std::int64_t fgd_cpu_milli = 0;  // the free CPU FGD's measure reads
  std::uint32_t usable = 0;        // bit g: GPU g can take the pod's share or be taken whole
  // Bit g: GPU g has the share's milli free but not its GPU memory. The share's GPU choice, GPU
  // packing and FGD's tries read these GPUs as full; FGD measures F with them as they are.
  std::uint32_t short_of_memory = 0;
};

// The one node-state interface GpuSharePlacer chooses over. Two sources implement it: the fill
// experiment's SharedCluster (below) and a scheduling run's fleet ledger (the `share-*`
// placement strategies, policy/share_scoring.cc), so the fill validation exercises the node
// choice a scheduling run makes.
class ShareNodes {
 public:
  virtual ~ShareNodes() = default;
  virtual std::size_t node_count() const = 0;
  // Whether node `n` can take the pod (every hard rule of the source); if so `out` says how.
  virtual bool Offer(std::size_t n, const SharePod& pod, ShareCandidate& out) const = 0;
  // Whether FGD's scores may be cached across Choose calls: true when what Offer gives for a node
  // depends only on the node's version and the pod's (cpu, gpus, milli).
  virtual bool cacheable() const = 0;
  // Changes whenever node `n`'s state does during a placer's life (the cache keys on it).
  virtual std::uint64_t version(std::size_t n) const = 0;
  virtual const ClusterScale& scale() const = 0;
  // Whether the dot-product and best-fit scores read CPU (false: 0 free and 0 asked).
  virtual bool cpu_scored() const = 0;
  // F of a node state against the typical tasks FGD scores with.
  virtual double Fragmentation(const NodeFreeState& state) const = 0;
};

// The fill experiment's cluster: node free lists, allocated totals, and the fixed typical tasks
// that FGD and the fragmentation measure read.
class SharedCluster final : public ShareNodes {
 public:
  // Precondition (checked): every node has 0..kMaxSharedNodeGpus GPUs, each 0..1000 free.
  explicit SharedCluster(std::vector<SharedNode> nodes, TypicalTasks typical = {});

  std::span<const SharedNode> nodes() const { return nodes_; }
  std::int64_t gpu_capacity_milli() const { return capacity_milli_; }
  std::int64_t allocated_milli() const { return allocated_milli_; }

  // Takes the pod's CPU, memory and GPU share on `node`: a share pod from GPU `share_gpu`, whole
  // GPUs from the lowest-numbered fully free ones. Precondition (checked): Fits, and for a share
  // pod a share_gpu with enough free.
  void Place(std::size_t node, const SharePod& pod, int share_gpu);

  // ShareNodes: a node takes a pod where Fits says; its usable GPUs are those with the pod's
  // share free; the scores read the node as it is. Bumped by every Place on the node: version.
  std::size_t node_count() const override { return nodes_.size(); }
  bool Offer(std::size_t n, const SharePod& pod, ShareCandidate& out) const override;
  bool cacheable() const override { return true; }
  std::uint64_t version(std::size_t node) const override { return versions_[node]; }
  const ClusterScale& scale() const override { return scale_; }
  bool cpu_scored() const override { return true; }
  // Memoised by node state (FragmentationMemo).
  double Fragmentation(const NodeFreeState& state) const override;

 private:
  std::vector<SharedNode> nodes_;
  std::vector<std::uint64_t> versions_;
  TypicalTasks typical_;
  mutable FragmentationMemo fragmentation_;
  ClusterScale scale_;
  std::int64_t capacity_milli_ = 0;
  std::int64_t allocated_milli_ = 0;
};

// ---- Scores (higher is better; ties to the lower tie rank) -------------------------------------

// The share pod's GPU by best fit: the least free GPU that holds it, lowest index on ties.
int BestFitGpu(const NodeFreeState& node, std::int64_t gpu_milli);
int DotProductScore(const SharedNode& node, const SharePod& pod, const ClusterScale& scale);
int BestFitScore(const SharedNode& node, const SharePod& pod, const ClusterScale& scale);
int GpuClusteringScore(const SharedNode& node, const SharePod& pod, const ClusterScale& scale);
int GpuPackingScore(const SharedNode& node, const SharePod& pod);

// FGD: trunc(100 σ((F before − F after) / 1000)), F the node's fragmentation against the typical
// tasks; for a share pod the best GPU (lowest index among equal scores) is tried.
struct FgdChoice {
  int score = 0;
  int share_gpu = -1;  // for a share pod
};
// `fragmentation` gives F of a state (NodeFragmentation against the typical tasks, or a cache).
using FragmentationOf = std::function<double(const NodeFreeState&)>;
FgdChoice FgdScore(const SharedNode& node, const SharePod& pod,
                   const FragmentationOf& fragmentation);

// ---- The placer ---------------------------------------------------------------------------------

struct ShareChoice {
  std::size_t node = 0;
  std::uint32_t gpus = 0;  // bit g: the pod takes GPU g of the node
  int share_gpu = -1;      // the GPU of a share pod; -1 otherwise
};

// The node choice of every GPU-sharing placement, fill experiment and scheduling run alike.
class GpuSharePlacer {
 public:
  // `tie_rank[n]` orders nodes among equal scores (lowest first); empty: the lowest node first.
  // `rng` is used by kRandom only.
  GpuSharePlacer(GpuSharePolicy policy, std::vector<std::uint32_t> tie_rank, Rng rng);

  // The node and GPUs for `pod` among the nodes `nodes` offers, or none if none does: the best
  // score, ties by the tie order; kRandom draws a node uniformly among those offered (no draw
  // when one is), then a GPU among its usable ones for a share.
  // Whole GPUs: the lowest usable; a share's GPU: FGD's try, or the best fit among the usable
  // GPUs (random: drawn). Reuse a placer only on one source.
  std::optional<ShareChoice> Choose(const ShareNodes& nodes, const SharePod& pod);

 private:
  struct CachedScore {
    std::uint64_t version = 0;  // the node's version + 1; 0 = empty
    FgdChoice choice;
  };
  struct Offered {
    std::size_t node = 0;
    ShareCandidate candidate;
  };

  // The node's score, and for FGD the share GPU its score tried best. `scored_pod` is the pod
  // with CPU as the source's cpu_scored() says.
  FgdChoice Score(const ShareNodes& nodes, const Offered& offered, const SharePod& pod,
                  const SharePod& scored_pod);
  // The share pod's GPU on the winner; `fgd_gpu` is FGD's from the winner's score.
  int ShareGpu(const Offered& winner, const SharePod& pod, int fgd_gpu);
  // The FGD cache row of the pod's shape (cpu, gpus, milli), for a cacheable source: there the
  // score does not depend on memory or models, which only decide whether a node is offered.
  std::size_t FgdShapeId(std::size_t node_count, const SharePod& pod);
  FgdChoice CachedFgd(const ShareNodes& nodes, const Offered& offered, const SharePod& pod);
  bool WinsTie(std::size_t node, std::size_t other) const;
  std::optional<ShareChoice> ChooseAtRandom(const ShareNodes& nodes, const SharePod& pod);
  // The winner's GPUs: a share's by the policy, whole ones the lowest usable.
  ShareChoice ChoiceOn(const Offered& winner, const SharePod& pod, int fgd_gpu);

  GpuSharePolicy policy_;
  std::vector<std::uint32_t> tie_rank_;
  Rng rng_;
  std::vector<std::size_t> offered_;  // random: the nodes offered
  std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, std::size_t> shape_ids_;
  std::vector<std::vector<CachedScore>> fgd_cache_;  // [shape id][node]
  std::size_t fgd_shape_ = 0;                        // the shape id of the pod being placed
};

}  // namespace fleetsim
