// Slurm's multifactor priority factors and fair-share algorithms (classic and Fair Tree).
#include "policy/multifactor_priority.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "fleetsim/core/check.h"

namespace fleetsim {

namespace {

constexpr double kMaxSlurmPriority = 4294967295.0;

// Children of each node, in index order, and the root's children (parent -1) last.
struct TreeShape {
  std::vector<std::vector<int>> children;  // size nodes + 1; [nodes] is the root
  int root = 0;
};

TreeShape ShapeOf(const std::vector<ShareNode>& nodes) {
  TreeShape shape;
  shape.root = static_cast<int>(nodes.size());
  shape.children.resize(nodes.size() + 1);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const int parent = nodes[i].parent < 0 ? shape.root : nodes[i].parent;
    FLEETSIM_CHECK(parent <= shape.root, "a fair-share node's parent is out of range");
    shape.children[static_cast<std::size_t>(parent)].push_back(static_cast<int>(i));
  }
  return shape;
}

double SiblingShares(const std::vector<ShareNode>& nodes, const std::vector<int>& siblings) {
  double total = 0;
  for (const int s : siblings) {
    total += nodes[static_cast<std::size_t>(s)].shares;
  }
  return total;
}

// Subtree usage of every node, with the root's total at index nodes.size().
std::vector<double> SubtreeUsageWithRoot(const std::vector<ShareNode>& nodes,
                                         const TreeShape& shape) {
  std::vector<double> total(nodes.size() + 1, 0.0);
  // Post-order by an explicit stack: a node's total is final once its children are summed.
  std::vector<std::pair<int, bool>> stack{{shape.root, false}};
  while (!stack.empty()) {
    const auto [node, expanded] = stack.back();
    stack.pop_back();
    const auto n = static_cast<std::size_t>(node);
    if (!expanded) {
      stack.emplace_back(node, true);
      for (const int child : shape.children[n]) {
        stack.emplace_back(child, false);
      }
      continue;
    }
    total[n] = node == shape.root ? 0.0 : nodes[n].usage;
    for (const int child : shape.children[n]) {
      total[n] += total[static_cast<std::size_t>(child)];
    }
  }
  return total;
}

// Fair Tree's ranking walk (Slurm's _calc_tree_fs), over one set of siblings.
class FairTreeRanker {
 public:
  FairTreeRanker(const TreeShape& shape, std::vector<double> level_fs, std::size_t users)
      : shape_(shape),
        level_fs_(std::move(level_fs)),
        users_(users),
        rank_(users),
        rank_no_ties_(users),
        factor_(level_fs_.size(), 0.0) {}

  std::vector<double> Run() {
    Visit(shape_.children[static_cast<std::size_t>(shape_.root)], false);
    return std::move(factor_);
  }

 private:
  bool IsUser(int node) const { return shape_.children[static_cast<std::size_t>(node)].empty(); }
  double LevelFs(int node) const { return level_fs_[static_cast<std::size_t>(node)]; }

  void Visit(std::vector<int> siblings, bool account_tied) {
    std::stable_sort(siblings.begin(), siblings.end(), [this](int a, int b) {
      if (LevelFs(a) != LevelFs(b)) {
        return LevelFs(a) > LevelFs(b);
      }
      return IsUser(a) && !IsUser(b);
    });
    double previous = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t i = 0; i < siblings.size(); ++i) {
      const int node = siblings[i];
      const bool tied = (i == 0 && account_tied) || previous == LevelFs(node);
      if (IsUser(node)) {
        if (!tied) {
          rank_ = rank_no_ties_;
        }
        factor_[static_cast<std::size_t>(node)] =
            static_cast<double>(rank_) / static_cast<double>(users_);
        --rank_no_ties_;
      } else {
        std::vector<int> merged;
        std::size_t last = i;
        while (last + 1 < siblings.size() && !IsUser(siblings[last + 1]) &&
               LevelFs(siblings[last + 1]) == LevelFs(node)) {
          ++last;
        }
        for (std::size_t k = i; k <= last; ++k) {
          const auto& kids = shape_.children[static_cast<std::size_t>(siblings[k])];
          merged.insert(merged.end(), kids.begin(), kids.end());
        }
        Visit(std::move(merged), tied);
        i = last;
      }
      previous = LevelFs(node);
    }
  }

  const TreeShape& shape_;
  std::vector<double> level_fs_;
  std::size_t users_;
  std::size_t rank_;
  std::size_t rank_no_ties_;
  std::vector<double> factor_;
};

// A node with children takes the factor of its highest-ranked leaf (children are ranked first).
void GiveAccountsTheirBestLeaf(const TreeShape& shape, int node, std::vector<double>& factor) {
  const auto n = static_cast<std::size_t>(node);
  if (shape.children[n].empty()) {
    return;
  }
  double best = 0;
  for (const int child : shape.children[n]) {
    GiveAccountsTheirBestLeaf(shape, child, factor);
    best = std::max(best, factor[static_cast<std::size_t>(child)]);
  }
  if (node != shape.root) {
    factor[n] = best;
  }
}

}  // namespace

double AgeFactor(SimDuration waited, SimDuration max_age) {
  FLEETSIM_CHECK(max_age > 0, "PriorityMaxAge must be positive");
  if (waited <= 0) {
    return 0;
  }
  return std::min(1.0, static_cast<double>(waited) / static_cast<double>(max_age));
}

double JobSizeFactor(const JobSizeInput& input, bool favor_small) {
  const auto nodes = static_cast<double>(input.cluster_nodes);
  const auto min_nodes = static_cast<double>(input.min_nodes);
  double factor = favor_small ? (nodes - min_nodes) / nodes : min_nodes / nodes;
  if (input.job_gpus > 0) {
    factor += favor_small ? (input.cluster_gpus - input.job_gpus) / input.cluster_gpus
                          : input.job_gpus / input.cluster_gpus;
    factor /= 2;
  }
  return std::clamp(factor, 0.0, 1.0);
}

double QosFactor(std::int64_t priority, std::int64_t max_priority) {
  FLEETSIM_CHECK(max_priority >= 1, "the largest priority must be at least 1");
  return std::clamp(static_cast<double>(priority) / static_cast<double>(max_priority), 0.0, 1.0);
}

double WeightedPriority(const PriorityWeights& weights, const PriorityFactors& factors) {
  return weights.age * factors.age + weights.fairshare * factors.fairshare +
         weights.job_size * factors.job_size + weights.qos * factors.qos;
}

std::uint32_t SlurmPriority(double weighted) {
  return static_cast<std::uint32_t>(std::clamp(std::trunc(weighted), 1.0, kMaxSlurmPriority));
}

double DecayFactor(double half_life_seconds) {
  FLEETSIM_CHECK(half_life_seconds > 0.693, "the decay half-life must exceed 0.693 s");
  return 1.0 - 0.693 / half_life_seconds;
}

double DecayUsage(double usage, double decay_factor, double seconds) {
  return usage * std::pow(decay_factor, seconds);
}

std::vector<double> SubtreeUsage(const std::vector<ShareNode>& nodes) {
  std::vector<double> total = SubtreeUsageWithRoot(nodes, ShapeOf(nodes));
  total.pop_back();
  return total;
}

std::vector<double> ClassicFairShare(const std::vector<ShareNode>& nodes, double dampening) {
  const TreeShape shape = ShapeOf(nodes);
  const std::vector<double> usage = SubtreeUsageWithRoot(nodes, shape);
  const double all_usage = usage.back();
  std::vector<double> factor(nodes.size(), 0.0);
  // Top-down: each node's normalized shares and effective usage from its parent's.
  struct Frame {
    int node;
    double shares_norm;
    double usage_effective;
  };
  std::vector<Frame> stack{{shape.root, 1.0, 0.0}};
  while (!stack.empty()) {
    const Frame parent = stack.back();
    stack.pop_back();
    const std::vector<int>& siblings = shape.children[static_cast<std::size_t>(parent.node)];
    const double sibling_shares = SiblingShares(nodes, siblings);
    for (const int child : siblings) {
      const auto c = static_cast<std::size_t>(child);
      const double level = sibling_shares > 0 ? nodes[c].shares / sibling_shares : 0.0;
      const double actual = all_usage > 0 ? usage[c] / all_usage : 0.0;
      const double effective =
          parent.node == shape.root ? actual : actual + (parent.usage_effective - actual) * level;
      const double shares_norm = parent.shares_norm * level;
      factor[c] = shares_norm > 0 ? std::pow(2.0, -(effective / shares_norm) / dampening) : 0.0;
      stack.push_back({child, shares_norm, effective});
    }
  }
  return factor;
}

std::vector<double> FairTreeFairShare(const std::vector<ShareNode>& nodes) {
  const TreeShape shape = ShapeOf(nodes);
  const std::vector<double> usage = SubtreeUsageWithRoot(nodes, shape);
  std::vector<double> level_fs(nodes.size(), 0.0);
  std::size_t users = 0;
  for (std::size_t parent = 0; parent < shape.children.size(); ++parent) {
    const std::vector<int>& siblings = shape.children[parent];
    const double sibling_shares = SiblingShares(nodes, siblings);
    for (const int child : siblings) {
      const auto c = static_cast<std::size_t>(child);
      const double s = sibling_shares > 0 ? nodes[c].shares / sibling_shares : 0.0;
      const double u = usage[parent] > 0 ? usage[c] / usage[parent] : 0.0;
      level_fs[c] = s == 0 ? 0.0 : s / u;  // u == 0: infinity, as in Slurm
    }
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (shape.children[i].empty()) {
      ++users;
    }
  }
  if (users == 0) {
    return level_fs;  // no nodes
  }
  std::vector<double> factor = FairTreeRanker(shape, std::move(level_fs), users).Run();
  GiveAccountsTheirBestLeaf(shape, shape.root, factor);
  return factor;
}

}  // namespace fleetsim
