// What a scenario says the fleet is: pools of identical nodes built from catalog templates, each
// with a pricing tier, a cloud and region (for spot notice times), a MIG mode, CPU and memory per
// node, and the processes that take its nodes away: spot interruptions (spot pools only) and
// hardware failures (per GPU model). docs/interruptions.md defines both processes. A fleet written
// as a bare GPU count ({"gpus": N}) is one anonymous pool of whole, identical GPUs with no catalog
// model. GPUs are numbered 0..N-1 in pool order, node by node. Value types; thread-compatible.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fleetsim/core/time.h"
#include "fleetsim/fleet/catalog.h"

namespace fleetsim {

// The largest fleet a scenario may describe; keeps GPU-time sums inside int64 (see time.h).
inline constexpr std::int64_t kMaxFleetGpus = 1'000'000;
// The most CPU cores and memory a pool's node may state.
inline constexpr double kMaxNodeCpuCores = 1e6;
inline constexpr double kMaxNodeMemoryGb = 1e9;

enum class MigMode { kOff, kStatic, kDynamic };

std::string PriceTierName(PriceTier tier);  // "on-demand", "reserved", "spot"

// Spot reclaims of a spot pool's nodes. Each node that is up is reclaimed at `per_node_hour`
// (a Poisson process per node); on top, reclaim waves come at `waves_per_day` for the pool and each
// takes `wave_nodes` of its up nodes at once. A reclaim is announced `notice` before the node
// goes; the node comes back (a replacement) `replacement_delay` after it went.
struct SpotInterruptions {
  double per_node_hour = 0;           // hazard per node-hour up; 0 = no independent reclaims
  std::string advisor_bucket{};       // AWS Spot Advisor bucket the rate came from, "" if none
  SimDuration notice = 0;             // from the pool's cloud unless the scenario sets it
  SimDuration replacement_delay = 0;  // down time before the capacity returns
  double waves_per_day = 0;           // correlated reclaim waves; 0 = none
  std::int64_t wave_nodes = 0;        // up nodes one wave takes (all of them if fewer are up)

  bool any() const { return per_node_hour > 0 || waves_per_day > 0; }
};

// Hours in a month, as cloud spot statistics count them (8760 / 12).
inline constexpr double kHoursPerMonth = 730;

// An AWS Spot Instance Advisor "frequency of interruption" bucket and the fraction of instances
// interrupted per month fleetsim takes for it: the bucket's midpoint, 30 % for ">20%".
struct SpotAdvisorBucket {
  const char* name = "";
  double monthly_fraction = 0;
};

// The Advisor's buckets in its order: "<5%", "5-10%", "10-15%", "15-20%", ">20%".
const std::vector<SpotAdvisorBucket>& SpotAdvisorBuckets();
std::vector<std::string> SpotAdvisorBucketNames();

// The Poisson hazard per node-hour under which a fraction `p` of nodes is reclaimed within a
// month: -ln(1 - p) / kHoursPerMonth. Precondition: 0 <= p < 1.
double HazardPerHourFromMonthlyFraction(double p);

// The hazard per node-hour of an Advisor bucket; nullopt if `name` is not a bucket.
std::optional<double> SpotAdvisorBucketRate(std::string_view name);

// The notice a cloud gives before a spot reclaim: 120 s for "aws", 30 s for "gcp" and "azure";
// nullopt for any other cloud name (names are matched exactly).
std::optional<SimDuration> SpotNoticeOfCloud(std::string_view cloud);

// Scenario defaults, our choices: a replacement instance takes 5 minutes to launch and boot, and
// a failed node is repaired or replaced in 4 hours.
inline constexpr SimDuration kDefaultSpotReplacementDelay = 300 * kMillisPerSecond;
inline constexpr SimDuration kDefaultRepairTime = 4 * 3600 * kMillisPerSecond;

// Hardware failures of a pool's nodes: each GPU of an up node fails at `per_gpu_hour`; a failure
// takes its node down, without notice, for `repair`.
struct HardwareFailures {
  double per_gpu_hour = 0;  // 0 = never fails
  SimDuration repair = 0;

  bool any() const { return per_gpu_hour > 0; }
};

// An on-demand pool that scales between `min_nodes` and its `nodes` (docs/scenario-format.md#
// autoscaling): queued GPUs the pool could serve beyond what it has free or coming bring released
// nodes up after `provisioning_delay`; a node idle for `idle_release`, with no such job queued,
// is released while more than `min_nodes` are kept. A released node is down and not billed.
// Defaults, our choices: 5 minutes to launch and boot a node (as a spot replacement), and the
// Kubernetes cluster autoscaler's 10-minute --scale-down-unneeded-time.
inline constexpr SimDuration kDefaultProvisioningDelay = 300 * kMillisPerSecond;
inline constexpr SimDuration kDefaultIdleRelease = 600 * kMillisPerSecond;

struct Autoscaling {
  bool enabled = false;
  std::int64_t min_nodes = 0;
  SimDuration provisioning_delay = kDefaultProvisioningDelay;
  SimDuration idle_release = kDefaultIdleRelease;
};

// A pool's position in its fleet (FleetSpec::pools order).
using PoolIndex = std::uint32_t;

struct PoolSpec {
  std::string name{};
  NodeTemplate node{};  // resolved from the catalog
  GpuModel gpu{};       // resolved from the catalog
  std::int64_t nodes = 0;
  PriceTier tier = PriceTier::kOnDemand;
  std::optional<double> price_per_gpu_hour{};  // the scenario's, else the catalog's for the tier
  std::string cloud{};                         // "aws", "gcp", "azure", "on-prem", ...
  std::string region{};
  MigMode mig = MigMode::kOff;
  std::map<std::string, int> mig_layout;  // per GPU, when mig == kStatic
  std::optional<double> cpu_cores{};      // per node: the scenario's, else the template's
  std::optional<double> memory_gb{};
  SpotInterruptions spot{};     // spot tier only; none unless the scenario configures them
  HardwareFailures failures{};  // from the scenario's "failures" entry for the pool's GPU model
  Autoscaling autoscale{};      // on-demand pools of single-node domains only

  std::int64_t gpus() const { return nodes * node.gpus_per_node; }
  // The price this pool pays per GPU-hour, if known.
  std::optional<double> EffectivePrice() const;
  // Reclaims per node-hour as a scheduler can know them: the rate the spot pool declares (its
  // provider's advisor bucket or its history, `spot.per_node_hour`) plus its waves spread over
  // its nodes. 0 for a pool that is not spot. What the simulator draws is another matter: the
  // draws follow these rates, but when they come is not known ahead.
  double AdvertisedReclaimsPerNodeHour() const;
};

struct FleetSpec {
  std::int64_t gpus = 0;          // total GPUs (the sum over pools when pools are given)
  std::vector<PoolSpec> pools{};  // empty for a bare {"gpus": N} fleet
};

}  // namespace fleetsim
