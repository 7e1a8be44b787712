// The artifact's arrivals and node order for a seed, from Go's math/rand.
#include "fill/artifact_streams.h"

#include <algorithm>
#include <numeric>

#include "fill/go_math_rand.h"

namespace fleetsim {

namespace {

// The artifact's tuning: trims a list above the target by random removals, or appends copies
// drawn from the name-sorted pods until a pick's per-GPU share would pass it.
void TuneToTarget(const FillWorkload& workload, double target, GoMathRand& random,
                  std::vector<std::size_t>& arrivals) {
  std::int64_t total = 0;
  for (const std::size_t pod : arrivals) {
    total += workload.pods[pod].request.GpuDemandMilli();
  }
  if (static_cast<double>(total) > target) {
    while (static_cast<double>(total) > target && !arrivals.empty()) {
      const auto k =
          static_cast<std::size_t>(random.Intn(static_cast<std::int64_t>(arrivals.size())));
      total -= workload.pods[arrivals[k]].request.GpuDemandMilli();
      arrivals.erase(arrivals.begin() + static_cast<std::ptrdiff_t>(k));
    }
    return;
  }
  if (static_cast<double>(total) == target) {
    return;
  }
  const auto pods = static_cast<std::int64_t>(workload.pods.size());
  while (true) {
    const auto k = static_cast<std::size_t>(random.Intn(pods));
    const SharePod& pick = workload.pods[k].request;
    if (static_cast<double>(total + pick.gpu_milli) > target) {
      return;
    }
    total += pick.GpuDemandMilli();
    arrivals.push_back(k);
  }
}

}  // namespace

FillOrder ArtifactFillOrder(const FillWorkload& workload, std::int64_t seed, double target_share) {
  GoMathRand random(seed);
  random.Int();  // the artifact logs one draw right after seeding
  FillOrder order;
  order.arrivals.resize(workload.pods.size());  // the pods are sorted by name
  std::iota(order.arrivals.begin(), order.arrivals.end(), std::size_t{0});
  random.Shuffle(order.arrivals);
  TuneToTarget(workload, target_share * static_cast<double>(workload.gpu_capacity_milli), random,
               order.arrivals);
  for (int draw = 0; draw < kArtifactInformerDraws; ++draw) {
    random.Int63();
  }
  std::vector<std::size_t> by_name(workload.nodes.size());
  std::iota(by_name.begin(), by_name.end(), std::size_t{0});
  std::stable_sort(by_name.begin(), by_name.end(), [&](std::size_t a, std::size_t b) {
    return workload.node_names[a] < workload.node_names[b];
  });
  const std::vector<std::int64_t> perm = random.Perm(static_cast<std::int64_t>(by_name.size()));
  order.tie_rank.resize(by_name.size());
  for (std::size_t i = 0; i < by_name.size(); ++i) {
    order.tie_rank[by_name[i]] = static_cast<std::uint32_t>(perm[i]);
  }
  return order;
}

}  // namespace fleetsim
