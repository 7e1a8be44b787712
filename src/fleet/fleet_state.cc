// FleetState: admission of whole-GPU, MIG, fractional and node grants, checked as a whole by
// replaying an allocation's grants on scratch copies of the GPUs and nodes it touches, and
// fleet-wide counters kept in step with every change (see fleet_state.h for the rules).
#include "fleetsim/fleet/fleet_state.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

#include "fleetsim/core/check.h"

namespace fleetsim {
namespace {

constexpr double kEpsilon = 1e-9;
constexpr int kMilliPerGpu = 1000;
constexpr double kUnlimited = std::numeric_limits<double>::infinity();

std::string Plural(std::int64_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string PlacementName(const MigProfile& profile, int start) {
  return fmt::format("{} at {}", profile.name, start);
}

std::string LayoutNames(std::span<const MigPlacement> layout) {
  std::string out;
  for (const MigPlacement& p : layout) {
    out += (out.empty() ? "" : ", ") + PlacementName(*p.profile, p.start);
  }
  return out;
}

bool IsPlaced(const MigGpuState& mig, const std::string& name, int start) {
  const auto& placed = mig.placements();
  return std::any_of(placed.begin(), placed.end(), [&](const MigPlacement& p) {
    return p.start == start && p.profile->name == name;
  });
}

// "within capacity" with the tolerance; an unlimited capacity always holds.
bool Fits(double used, double wanted, double capacity) {
  return used + wanted <= capacity + kEpsilon;
}

}  // namespace

// ---- Construction and shape. ----

FleetState::FleetState(const FleetSpec& spec, const Topology& topology, double repartition_seconds)
    : repartition_seconds_(repartition_seconds) {
  FLEETSIM_CHECK(topology.gpus() == spec.gpus, "the topology was not built from this fleet");
  FLEETSIM_CHECK(repartition_seconds >= 0, "repartition time must not be negative");
  BuildPools(spec);
  IndexGpus(topology);
}

void FleetState::BuildPools(const FleetSpec& spec) {
  for (const PoolSpec& spec_pool : spec.pools) {
    pools_.push_back({spec_pool.name,
                      spec_pool.gpu,
                      spec_pool.mig,
                      {},
                      spec_pool.cpu_cores,
                      spec_pool.memory_gb});
    pool_of_gpu_.insert(pool_of_gpu_.end(), static_cast<std::size_t>(spec_pool.gpus()),
                        static_cast<std::uint32_t>(pools_.size() - 1));
  }
  if (spec.pools.empty()) {  // a bare {"gpus": N} fleet: one anonymous pool
    pools_.emplace_back();
    pool_of_gpu_.assign(static_cast<std::size_t>(spec.gpus), 0);
  }
  FLEETSIM_CHECK(static_cast<std::int64_t>(pool_of_gpu_.size()) == spec.gpus,
                 "the pools' GPUs do not add up to the fleet's");
  // Layouts point into pools_[i].model: pools_ is not resized after this.
  for (std::size_t i = 0; i < spec.pools.size(); ++i) {
    Pool& pool = pools_[i];
    if (pool.mig == MigMode::kStatic) {
      LayoutCheck check = PlaceLayout(pool.model, spec.pools[i].mig_layout);
      FLEETSIM_CHECK(check.status.ok(), "a static MIG layout that does not place");
      pool.layout = std::move(check.placements);
    }
  }
}

void FleetState::IndexGpus(const Topology& topology) {
  gpu_use_.resize(pool_of_gpu_.size());
  node_use_.resize(static_cast<std::size_t>(topology.nodes()));
  pool_of_node_.resize(node_use_.size(), 0);
  node_of_gpu_.resize(gpu_use_.size());
  availability_.assign(node_use_.size(), NodeAvailability::kUp);
  first_gpu_of_node_.assign(node_use_.size() + 1, static_cast<GpuId>(gpu_use_.size()));
  for (auto gpu = static_cast<GpuId>(gpu_use_.size()); gpu-- > 0;) {
    node_of_gpu_[gpu] = topology.NodeOf(gpu);
    pool_of_node_[node_of_gpu_[gpu]] = pool_of_gpu_[gpu];
    first_gpu_of_node_[node_of_gpu_[gpu]] = gpu;
    AddTally(TallyOf(gpu, gpu_use_[gpu]), 1);
  }
  // A node without GPUs (none in practice) starts where the next one does.
  for (std::size_t node = node_use_.size(); node-- > 0;) {
    first_gpu_of_node_[node] = std::min(first_gpu_of_node_[node], first_gpu_of_node_[node + 1]);
  }
}

// ---- Availability. ----

NodeAvailability FleetState::Availability(NodeId node) const {
  FLEETSIM_CHECK(node < availability_.size(), "node id out of range");
  return availability_[node];
}

GpuId FleetState::FirstGpuOfNode(NodeId node) const {
  FLEETSIM_CHECK(node < availability_.size(), "node id out of range");
  return first_gpu_of_node_[node];
}

GpuId FleetState::EndGpuOfNode(NodeId node) const {
  FLEETSIM_CHECK(node < availability_.size(), "node id out of range");
  return first_gpu_of_node_[node + 1];
}

bool FleetState::HoldsAnything(NodeId node) const {
  if (node_use_[node].shares > 0) {
    return true;
  }
  for (GpuId gpu = FirstGpuOfNode(node); gpu < EndGpuOfNode(node); ++gpu) {
    if (!Idle(gpu_use_[gpu])) {
      return true;
    }
  }
  return false;
}

void FleetState::SetAvailability(NodeId node, NodeAvailability availability) {
  FLEETSIM_CHECK(availability != NodeAvailability::kDown || !HoldsAnything(node),
                 "a node goes down while something is still held on it");
  for (GpuId gpu = FirstGpuOfNode(node); gpu < EndGpuOfNode(node); ++gpu) {
    AddTally(TallyOf(gpu, gpu_use_[gpu]), -1);
  }
  availability_[node] = availability;
  for (GpuId gpu = FirstGpuOfNode(node); gpu < EndGpuOfNode(node); ++gpu) {
    AddTally(TallyOf(gpu, gpu_use_[gpu]), 1);
  }
}

NodeId FleetState::NodeOf(GpuId gpu) const {
  FLEETSIM_CHECK(gpu < gpu_use_.size(), "GPU id out of range");
  return node_of_gpu_[gpu];
}

MigMode FleetState::MigModeOf(GpuId gpu) const {
  FLEETSIM_CHECK(gpu < gpu_use_.size(), "GPU id out of range");
  return PoolOf(gpu).mig;
}

const GpuModel& FleetState::ModelOf(GpuId gpu) const {
  FLEETSIM_CHECK(gpu < gpu_use_.size(), "GPU id out of range");
  return PoolOf(gpu).model;
}

std::span<const MigPlacement> FleetState::StaticLayout(GpuId gpu) const {
  FLEETSIM_CHECK(gpu < gpu_use_.size(), "GPU id out of range");
  return PoolOf(gpu).layout;
}

// ---- Queries. ----

double FleetState::GpuMemoryCapacity(GpuId gpu) const {
  const double memory = PoolOf(gpu).model.memory_gb;
  if (memory > 0) {
    return memory;
  }
  return kUnlimited;
}

bool FleetState::Idle(const GpuUse& use) const {
  return !use.whole && use.fractions == 0 && use.mig.empty();
}

bool FleetState::Shareable(GpuId gpu, const GpuUse& use) const {
  return PoolOf(gpu).mig != MigMode::kStatic && !use.whole && use.mig.empty();
}

bool FleetState::CanTakeWhole(GpuId gpu) const {
  FLEETSIM_CHECK(gpu < gpu_use_.size(), "GPU id out of range");
  return PoolOf(gpu).mig != MigMode::kStatic && Idle(gpu_use_[gpu]) && IsGpuUp(gpu);
}

bool FleetState::IsHeldWhole(GpuId gpu) const {
  FLEETSIM_CHECK(gpu < gpu_use_.size(), "GPU id out of range");
  return gpu_use_[gpu].whole;
}

const MigGpuState& FleetState::Mig(GpuId gpu) const {
  FLEETSIM_CHECK(gpu < gpu_use_.size(), "GPU id out of range");
  return gpu_use_[gpu].mig;
}

bool FleetState::IsStaticSlotFree(GpuId gpu, const MigProfile& profile, int start) const {
  const auto layout = StaticLayout(gpu);
  const bool in_layout = std::any_of(layout.begin(), layout.end(), [&](const MigPlacement& p) {
    return p.start == start && p.profile->name == profile.name;
  });
  return in_layout && !IsPlaced(gpu_use_[gpu].mig, profile.name, start) && IsGpuUp(gpu);
}

int FleetState::FreeMilli(GpuId gpu) const {
  FLEETSIM_CHECK(gpu < gpu_use_.size(), "GPU id out of range");
  const GpuUse& use = gpu_use_[gpu];
  return Shareable(gpu, use) && IsGpuUp(gpu) ? kMilliPerGpu - use.milli : 0;
}

double FleetState::FreeGpuMemoryGb(GpuId gpu) const {
  FLEETSIM_CHECK(gpu < gpu_use_.size(), "GPU id out of range");
  const GpuUse& use = gpu_use_[gpu];
  return Shareable(gpu, use) && IsGpuUp(gpu) ? GpuMemoryCapacity(gpu) - use.memory_gb : 0;
}

int FleetState::Fractions(GpuId gpu) const {
  FLEETSIM_CHECK(gpu < gpu_use_.size(), "GPU id out of range");
  return gpu_use_[gpu].fractions;
}

double FleetState::FreeCpuCores(NodeId node) const {
  FLEETSIM_CHECK(node < node_use_.size(), "node id out of range");
  const auto& capacity = PoolOfNode(node).cpu_cores;
  if (!IsUp(node)) {
    return 0;
  }
  return capacity ? *capacity - node_use_[node].cpu_cores : kUnlimited;
}

double FleetState::FreeMemoryGb(NodeId node) const {
  FLEETSIM_CHECK(node < node_use_.size(), "node id out of range");
  const auto& capacity = PoolOfNode(node).memory_gb;
  if (!IsUp(node)) {
    return 0;
  }
  return capacity ? *capacity - node_use_[node].memory_gb : kUnlimited;
}

bool FleetState::CanRepartition(GpuId gpu) const {
  FLEETSIM_CHECK(gpu < gpu_use_.size(), "GPU id out of range");
  const GpuUse& use = gpu_use_[gpu];
  return PoolOf(gpu).mig == MigMode::kDynamic && use.mig.empty() && !use.whole &&
         use.fractions == 0 && IsGpuUp(gpu);
}

// ---- Admission. ----

const MigProfile* FleetState::ResolveProfile(const Grant& grant) const {
  return grant.profile == nullptr ? nullptr
                                  : PoolOf(grant.gpu).model.FindMigProfile(grant.profile->name);
}

Status FleetState::CheckWhole(GpuId gpu, const GpuUse& use) const {
  if (PoolOf(gpu).mig == MigMode::kStatic) {
    return Status::Refused(
        fmt::format("GPU {} is partitioned by pool \"{}\"'s static MIG layout and cannot be "
                    "taken whole",
                    gpu, PoolOf(gpu).name));
  }
  if (use.whole) {
    return Status::Refused(fmt::format("GPU {} is already taken whole", gpu));
  }
  if (!use.mig.empty()) {
    return Status::Refused(
        fmt::format("GPU {} has {} in use and cannot be taken whole", gpu,
                    Plural(use.mig.instances(), "MIG instance", "MIG instances")));
  }
  if (use.fractions > 0) {
    return Status::Refused(fmt::format(
        "GPU {} is shared by {} ({} milli-GPU, {} GB) and cannot be taken whole", gpu,
        Plural(use.fractions, "fractional grant", "fractional grants"), use.milli, use.memory_gb));
  }
  return Status::Ok();
}

Status FleetState::CheckMig(const Grant& grant, const GpuUse& use) const {
  const Pool& pool = PoolOf(grant.gpu);
  if (pool.mig == MigMode::kOff) {
    const std::string owner =
        pool.name.empty() ? "the fleet" : fmt::format("pool \"{}\"", pool.name);
    return Status::Refused(
        fmt::format("GPU {} is not a MIG GPU ({} has MIG off)", grant.gpu, owner));
  }
  if (grant.profile == nullptr) {
    return Status::Refused(fmt::format("the MIG grant on GPU {} names no profile", grant.gpu));
  }
  const MigProfile* profile = ResolveProfile(grant);
  if (profile == nullptr) {
    return Status::Refused(fmt::format("GPU {} ({}) has no MIG profile \"{}\"", grant.gpu,
                                       pool.model.name, grant.profile->name));
  }
  const std::string where = PlacementName(*profile, grant.start);
  if (pool.mig == MigMode::kStatic) {
    if (std::none_of(pool.layout.begin(), pool.layout.end(), [&](const MigPlacement& p) {
          return p.start == grant.start && p.profile == profile;
        })) {
      return Status::Refused(
          fmt::format("GPU {}: {} is not an instance of pool \"{}\"'s static layout ({})",
                      grant.gpu, where, pool.name, LayoutNames(pool.layout)));
    }
    if (IsPlaced(use.mig, profile->name, grant.start)) {
      return Status::Refused(fmt::format("GPU {}: {} is already in use", grant.gpu, where));
    }
    return Status::Ok();
  }
  if (use.whole) {
    return Status::Refused(
        fmt::format("GPU {} is taken whole and cannot hold MIG instances", grant.gpu));
  }
  if (use.fractions > 0) {
    return Status::Refused(
        fmt::format("GPU {} is shared by {} and cannot hold MIG instances", grant.gpu,
                    Plural(use.fractions, "fractional grant", "fractional grants")));
  }
  return use.mig.CheckPlacement(*profile, grant.start)
      .Within(fmt::format("GPU {}: {}", grant.gpu, where));
}

Status FleetState::CheckFraction(const Grant& grant, const GpuUse& use) const {
  const GpuId gpu = grant.gpu;
  if (grant.milli < 1 || grant.milli > kMilliPerGpu) {
    return Status::Refused(fmt::format("GPU {}: a fractional grant takes 1..1000 milli-GPU, not {}",
                                       gpu, grant.milli));
  }
  if (!(grant.gpu_memory_gb >= 0) || !std::isfinite(grant.gpu_memory_gb)) {
    return Status::Refused(
        fmt::format("GPU {}: a fractional grant's GPU memory must be a finite number >= 0, "
                    "not {}",
                    gpu, grant.gpu_memory_gb));
  }
  if (PoolOf(gpu).mig == MigMode::kStatic) {
    return Status::Refused(
        fmt::format("GPU {} is partitioned by pool \"{}\"'s static MIG layout and cannot be "
                    "shared fractionally",
                    gpu, PoolOf(gpu).name));
  }
  if (use.whole) {
    return Status::Refused(
        fmt::format("GPU {} is taken whole and cannot be shared fractionally", gpu));
  }
  if (!use.mig.empty()) {
    return Status::Refused(
        fmt::format("GPU {} has {} in use and cannot be shared fractionally", gpu,
                    Plural(use.mig.instances(), "MIG instance", "MIG instances")));
  }
  if (use.milli + grant.milli > kMilliPerGpu) {
    return Status::Refused(fmt::format("GPU {}: {} milli-GPU requested, {} free of 1000", gpu,
                                       grant.milli, kMilliPerGpu - use.milli));
  }
  const double capacity = GpuMemoryCapacity(gpu);
  if (!Fits(use.memory_gb, grant.gpu_memory_gb, capacity)) {
    return Status::Refused(fmt::format(
        "GPU {}: {} GB of GPU memory requested, {} GB free of {} GB ({})", gpu, grant.gpu_memory_gb,
        capacity - use.memory_gb, capacity, PoolOf(gpu).model.name));
  }
  return Status::Ok();
}

Status FleetState::CheckAvailable(NodeId node) const {
  switch (availability_[node]) {
    case NodeAvailability::kUp:
      return Status::Ok();
    case NodeAvailability::kCordoned:
      return Status::Refused(
          fmt::format("node {} is cordoned (its spot capacity is being reclaimed)", node));
    case NodeAvailability::kDown:
      return Status::Refused(fmt::format("node {} is down", node));
  }
  return Status::Ok();
}

Status FleetState::CheckGrant(const Grant& grant, const GpuUse& use) const {
  if (Status status = CheckAvailable(NodeOf(grant.gpu)); !status.ok()) {
    return status.Within(fmt::format("GPU {}", grant.gpu));
  }
  switch (grant.kind) {
    case Grant::Kind::kWhole:
      return CheckWhole(grant.gpu, use);
    case Grant::Kind::kMig:
      return CheckMig(grant, use);
    case Grant::Kind::kFraction:
      return CheckFraction(grant, use);
  }
  return Status::Refused("unknown grant kind");
}

Status FleetState::CheckNodeShare(const NodeShare& share, const NodeUse& use) const {
  const NodeId node = share.node;
  if (!(share.cpu_cores >= 0) || !(share.memory_gb >= 0) || !std::isfinite(share.cpu_cores) ||
      !std::isfinite(share.memory_gb)) {
    return Status::Refused(
        fmt::format("node {}: CPU cores and memory must be finite numbers >= 0, not {} and {}",
                    node, share.cpu_cores, share.memory_gb));
  }
  if (Status status = CheckAvailable(node); !status.ok()) {
    return status;
  }
  const Pool& pool = PoolOfNode(node);
  if (pool.cpu_cores && !Fits(use.cpu_cores, share.cpu_cores, *pool.cpu_cores)) {
    return Status::Refused(fmt::format("node {}: {} CPU cores requested, {} free of {}", node,
                                       share.cpu_cores, *pool.cpu_cores - use.cpu_cores,
                                       *pool.cpu_cores));
  }
  if (pool.memory_gb && !Fits(use.memory_gb, share.memory_gb, *pool.memory_gb)) {
    return Status::Refused(fmt::format("node {}: {} GB of memory requested, {} GB free of {} GB",
                                       node, share.memory_gb, *pool.memory_gb - use.memory_gb,
                                       *pool.memory_gb));
  }
  return Status::Ok();
}

Status FleetState::CheckAllocation(const Allocation& allocation) const {
  constexpr const char* kCollision = " (it collides with an earlier grant of this allocation)";
  std::map<GpuId, GpuUse> scratch_gpus;  // copies of the GPUs touched so far
  for (const Grant& grant : allocation.gpus) {
    if (grant.gpu >= gpu_use_.size()) {
      return Status::Refused(
          fmt::format("GPU {} does not exist (the fleet has {} GPUs)", grant.gpu, gpus()));
    }
    const auto [it, first_touch] = scratch_gpus.try_emplace(grant.gpu, gpu_use_[grant.gpu]);
    if (Status status = CheckGrant(grant, it->second); !status.ok()) {
      const bool collision = !first_touch && CheckGrant(grant, gpu_use_[grant.gpu]).ok();
      return collision ? Status::Refused(status.message() + kCollision) : status;
    }
    ApplyGrant(grant, it->second);
  }
  std::map<NodeId, NodeUse> scratch_nodes;
  for (const NodeShare& share : allocation.nodes) {
    if (share.node >= node_use_.size()) {
      return Status::Refused(
          fmt::format("node {} does not exist (the fleet has {} nodes)", share.node, nodes()));
    }
    const auto [it, first_touch] = scratch_nodes.try_emplace(share.node, node_use_[share.node]);
    if (Status status = CheckNodeShare(share, it->second); !status.ok()) {
      const bool collision = !first_touch && CheckNodeShare(share, node_use_[share.node]).ok();
      return collision ? Status::Refused(status.message() + kCollision) : status;
    }
    ApplyNodeShare(share, it->second);
  }
  return Status::Ok();
}

// ---- Changes. ----

void FleetState::ApplyGrant(const Grant& grant, GpuUse& use) const {
  switch (grant.kind) {
    case Grant::Kind::kWhole:
      use.whole = true;
      return;
    case Grant::Kind::kMig:
      use.mig.Place(*ResolveProfile(grant), grant.start);
      return;
    case Grant::Kind::kFraction:
      ++use.fractions;
      use.milli += grant.milli;
      use.memory_gb += grant.gpu_memory_gb;
      return;
  }
}

void FleetState::ReleaseGrant(const Grant& grant, GpuUse& use) const {
  switch (grant.kind) {
    case Grant::Kind::kWhole:
      FLEETSIM_CHECK(use.whole, "releasing a whole GPU that is not held whole");
      use.whole = false;
      return;
    case Grant::Kind::kMig: {
      const MigProfile* profile = ResolveProfile(grant);
      FLEETSIM_CHECK(profile != nullptr && IsPlaced(use.mig, profile->name, grant.start),
                     "releasing a MIG instance that is not held");
      use.mig.Remove(*profile, grant.start);
      return;
    }
    case Grant::Kind::kFraction:
      FLEETSIM_CHECK(use.fractions > 0 && use.milli >= grant.milli &&
                         use.memory_gb + kEpsilon >= grant.gpu_memory_gb,
                     "releasing a GPU share that is not held");
      --use.fractions;
      use.milli -= grant.milli;
      use.memory_gb = use.fractions == 0 ? 0 : use.memory_gb - grant.gpu_memory_gb;
      return;
  }
}

void FleetState::ApplyNodeShare(const NodeShare& share, NodeUse& use) {
  ++use.shares;
  use.cpu_cores += share.cpu_cores;
  use.memory_gb += share.memory_gb;
}

void FleetState::Apply(const Allocation& allocation) {
  FLEETSIM_CHECK(CheckAllocation(allocation).ok(), "applying an allocation that does not fit");
  Take(allocation);
}

void FleetState::Restore(const Allocation& allocation) { Take(allocation); }

void FleetState::Take(const Allocation& allocation) {
  for (const Grant& grant : allocation.gpus) {
    GpuUse& use = gpu_use_[grant.gpu];
    AddTally(TallyOf(grant.gpu, use), -1);
    ApplyGrant(grant, use);
    AddTally(TallyOf(grant.gpu, use), 1);
  }
  for (const NodeShare& share : allocation.nodes) {
    ApplyNodeShare(share, node_use_[share.node]);
  }
}

void FleetState::Release(const Allocation& allocation) {
  for (const Grant& grant : allocation.gpus) {
    FLEETSIM_CHECK(grant.gpu < gpu_use_.size(), "releasing a GPU that does not exist");
    GpuUse& use = gpu_use_[grant.gpu];
    AddTally(TallyOf(grant.gpu, use), -1);
    ReleaseGrant(grant, use);
    AddTally(TallyOf(grant.gpu, use), 1);
  }
  for (const NodeShare& share : allocation.nodes) {
    FLEETSIM_CHECK(share.node < node_use_.size(), "releasing a node that does not exist");
    NodeUse& use = node_use_[share.node];
    FLEETSIM_CHECK(use.shares > 0 && use.cpu_cores + kEpsilon >= share.cpu_cores &&
                       use.memory_gb + kEpsilon >= share.memory_gb,
                   "releasing node CPU or memory that is not held");
    --use.shares;
    use.cpu_cores = use.shares == 0 ? 0 : use.cpu_cores - share.cpu_cores;
    use.memory_gb = use.shares == 0 ? 0 : use.memory_gb - share.memory_gb;
  }
}

// ---- Counters and invariants. ----

FleetState::Tally FleetState::TallyOf(GpuId gpu, const GpuUse& use) const {
  Tally t;
  t.free_whole = PoolOf(gpu).mig != MigMode::kStatic && Idle(use) && IsGpuUp(gpu) ? 1 : 0;
  t.whole = use.whole ? 1 : 0;
  t.mig_instances = use.mig.instances();
  t.fractions = use.fractions;
  t.milli = use.milli;
  return t;
}

void FleetState::AddTally(const Tally& t, std::int64_t sign) {
  tally_.free_whole += sign * t.free_whole;
  tally_.whole += sign * t.whole;
  tally_.mig_instances += sign * t.mig_instances;
  tally_.fractions += sign * t.fractions;
  tally_.milli += sign * t.milli;
}

void FleetState::CheckInvariants() const {
  Tally sum;
  std::int64_t static_gpus = 0;
  std::int64_t mig_mode_gpus = 0;
  std::int64_t shared_gpus = 0;
  std::int64_t unavailable_idle_gpus = 0;
  for (GpuId gpu = 0; gpu < gpu_use_.size(); ++gpu) {
    const GpuUse& use = gpu_use_[gpu];
    const Pool& pool = PoolOf(gpu);
    const bool is_static = pool.mig == MigMode::kStatic;
    const int modes = (use.whole ? 1 : 0) + (use.mig.empty() ? 0 : 1) + (use.fractions > 0);
    FLEETSIM_CHECK(modes <= 1, "a GPU is held in more than one way");
    FLEETSIM_CHECK(!is_static || (!use.whole && use.fractions == 0),
                   "a static-MIG GPU is held whole or shared");
    FLEETSIM_CHECK(pool.mig != MigMode::kOff || use.mig.empty(), "MIG instances on a non-MIG GPU");
    FLEETSIM_CHECK(!is_static || use.mig.instances() <= static_cast<int>(pool.layout.size()),
                   "more instances than the static layout has");
    FLEETSIM_CHECK(use.fractions >= 0 && use.milli >= 0 && use.memory_gb >= -kEpsilon,
                   "a negative GPU share");
    FLEETSIM_CHECK(use.fractions > 0 || (use.milli == 0 && use.memory_gb == 0),
                   "GPU share left behind with no holder");
    FLEETSIM_CHECK(use.milli <= kMilliPerGpu, "GPU milli over-subscribed");
    FLEETSIM_CHECK(
        !Shareable(gpu, use) || !IsGpuUp(gpu) || FreeMilli(gpu) + use.milli == kMilliPerGpu,
        "GPU milli: held + free != capacity");
    FLEETSIM_CHECK(Fits(use.memory_gb, 0, GpuMemoryCapacity(gpu)), "GPU memory over-subscribed");
    const Tally t = TallyOf(gpu, use);
    sum.free_whole += t.free_whole;
    sum.whole += t.whole;
    sum.mig_instances += t.mig_instances;
    sum.fractions += t.fractions;
    sum.milli += t.milli;
    static_gpus += is_static ? 1 : 0;
    mig_mode_gpus += !is_static && !use.mig.empty() ? 1 : 0;
    shared_gpus += use.fractions > 0 ? 1 : 0;
    unavailable_idle_gpus += !is_static && Idle(use) && !IsGpuUp(gpu) ? 1 : 0;
    FLEETSIM_CHECK(Availability(NodeOf(gpu)) != NodeAvailability::kDown || Idle(use),
                   "a GPU of a down node is held");
  }
  FLEETSIM_CHECK(sum.free_whole == tally_.free_whole && sum.whole == tally_.whole &&
                     sum.mig_instances == tally_.mig_instances &&
                     sum.fractions == tally_.fractions && sum.milli == tally_.milli,
                 "fleet counters disagree with the per-GPU state");
  FLEETSIM_CHECK(tally_.free_whole + tally_.whole + static_gpus + mig_mode_gpus + shared_gpus +
                         unavailable_idle_gpus ==
                     gpus(),
                 "free + held whole-GPU capacity does not add up to the fleet");
  for (NodeId node = 0; node < node_use_.size(); ++node) {
    const NodeUse& use = node_use_[node];
    const Pool& pool = PoolOfNode(node);
    FLEETSIM_CHECK(use.shares >= 0 && use.cpu_cores >= -kEpsilon && use.memory_gb >= -kEpsilon,
                   "negative node CPU or memory use");
    FLEETSIM_CHECK(use.shares > 0 || (use.cpu_cores == 0 && use.memory_gb == 0),
                   "node CPU or memory left behind with no holder");
    FLEETSIM_CHECK(availability_[node] != NodeAvailability::kDown || use.shares == 0,
                   "a down node has CPU or memory held");
    if (!IsUp(node)) {
      continue;  // nothing is free on it
    }
    FLEETSIM_CHECK(!pool.cpu_cores ||
                       std::abs(use.cpu_cores + FreeCpuCores(node) - *pool.cpu_cores) < kEpsilon,
                   "node CPU: held + free != capacity");
    FLEETSIM_CHECK(!pool.memory_gb ||
                       std::abs(use.memory_gb + FreeMemoryGb(node) - *pool.memory_gb) < kEpsilon,
                   "node memory: held + free != capacity");
    FLEETSIM_CHECK(!pool.cpu_cores || FreeCpuCores(node) >= -kEpsilon, "node CPU over-subscribed");
    FLEETSIM_CHECK(!pool.memory_gb || FreeMemoryGb(node) >= -kEpsilon,
                   "node memory over-subscribed");
  }
}

}  // namespace fleetsim
