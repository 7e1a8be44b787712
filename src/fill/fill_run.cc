// The fill run: arrivals, placement pod by pod, and the cluster's state after each.
#include "fleetsim/fill/fill_run.h"

#include <cmath>
#include <numeric>
#include <utility>

#include "fill/artifact_streams.h"

namespace fleetsim {

namespace {

RandomStreams Streams(const FillRunOptions& options) { return {options.seed, 0}; }

// Fisher-Yates, from the last position down.
void Shuffle(std::vector<std::size_t>& items, Rng& rng) {
  for (std::size_t i = items.size(); i > 1; --i) {
    const auto j = static_cast<std::size_t>(UniformInt(rng, 0, static_cast<std::int64_t>(i) - 1));
    std::swap(items[i - 1], items[j]);
  }
}

}  // namespace

std::vector<std::uint32_t> RandomTieRank(std::size_t nodes, Rng rng) {
  std::vector<std::size_t> order(nodes);
  std::iota(order.begin(), order.end(), std::size_t{0});
  Shuffle(order, rng);
  std::vector<std::uint32_t> rank(nodes);
  for (std::size_t position = 0; position < nodes; ++position) {
    rank[order[position]] = static_cast<std::uint32_t>(position);
  }
  return rank;
}

std::vector<std::size_t> FillArrivals(const FillWorkload& workload, const FillRunOptions& options) {
  const RandomStreams streams = Streams(options);
  std::vector<std::size_t> arrivals(workload.pods.size());
  std::iota(arrivals.begin(), arrivals.end(), std::size_t{0});
  Rng order_rng = streams.Stream("fill.arrival-order");
  Shuffle(arrivals, order_rng);
  const auto target = static_cast<std::int64_t>(
      std::llround(options.target_share * static_cast<double>(workload.gpu_capacity_milli)));
  std::int64_t demand = 0;
  std::size_t within = 0;
  while (within < arrivals.size() &&
         demand + workload.pods[arrivals[within]].request.GpuDemandMilli() <= target) {
    demand += workload.pods[arrivals[within++]].request.GpuDemandMilli();
  }
  if (within < arrivals.size()) {
    arrivals.resize(within);  // the list alone passes the target
    return arrivals;
  }
  Rng resample_rng = streams.Stream("fill.resample");
  while (!workload.pods.empty()) {
    const auto pick = static_cast<std::size_t>(
        UniformInt(resample_rng, 0, static_cast<std::int64_t>(workload.pods.size()) - 1));
    const std::int64_t more = workload.pods[pick].request.GpuDemandMilli();
    if (demand + more > target) {
      break;
    }
    demand += more;
    arrivals.push_back(pick);
  }
  return arrivals;
}

std::vector<FillStep> PlaceArrivals(const FillWorkload& workload,
                                    std::span<const std::size_t> arrivals, GpuSharePlacer& placer) {
  SharedCluster cluster(workload.nodes, workload.typical);
  // Each node's fragmentation, updated when the node changes; the cluster's is their sum in node
  // order, so it is the same number however the run got there.
  std::vector<double> node_fragmentation;
  for (const SharedNode& node : cluster.nodes()) {
    node_fragmentation.push_back(cluster.Fragmentation(node.free));
  }
  std::vector<FillStep> steps;
  FillStep step;
  for (const std::size_t index : arrivals) {
    const SharePod& pod = workload.pods[index].request;
    step.pod = index;
    step.arrived_milli += pod.GpuDemandMilli();
    const std::optional<ShareChoice> choice = placer.Choose(cluster, pod);
    step.placed = choice.has_value();
    step.node = choice ? choice->node : 0;
    step.gpus = choice ? choice->gpus : 0;
    if (choice) {
      cluster.Place(choice->node, pod, choice->share_gpu);
      node_fragmentation[choice->node] = cluster.Fragmentation(cluster.nodes()[choice->node].free);
    } else {
      ++step.failed_pods;
    }
    step.allocated_milli = cluster.allocated_milli();
    step.idle_milli = cluster.gpu_capacity_milli() - step.allocated_milli;
    step.fragmented_milli =
        std::accumulate(node_fragmentation.begin(), node_fragmentation.end(), 0.0);
    steps.push_back(step);
  }
  return steps;
}

std::vector<FillStep> RunFill(const FillWorkload& workload, const FillRunOptions& options) {
  if (options.streams == FillStreams::kArtifact) {
    return RunFillInOrder(
        workload, options,
        ArtifactFillOrder(workload, static_cast<std::int64_t>(options.seed), options.target_share));
  }
  const RandomStreams streams = Streams(options);
  GpuSharePlacer placer(options.policy,
                        RandomTieRank(workload.nodes.size(), streams.Stream("fill.node-order")),
                        streams.Stream("fill.random-placement"));
  return PlaceArrivals(workload, FillArrivals(workload, options), placer);
}

std::vector<FillStep> RunFillInOrder(const FillWorkload& workload, const FillRunOptions& options,
                                     const FillOrder& order) {
  GpuSharePlacer placer(options.policy, order.tie_rank,
                        Streams(options).Stream("fill.random-placement"));
  return PlaceArrivals(workload, order.arrivals, placer);
}

}  // namespace fleetsim
